"""Server-rendered HTML of the review page (German, no JavaScript): the list, one item, the decision forms."""

from __future__ import annotations

from html import escape

from markdown_it import MarkdownIt

from graphs.review.items import GRAPH_TITLES, ReviewItem

_MARKDOWN = MarkdownIt("commonmark", {"html": False})  # raw HTML in KB text or answers is shown, never run
FIELD_LABELS = {
    "answer": "Antwort (jede Aussage mit Beleg [ID])",
    "severity": "Schwere (MAJOR, MINOR oder HINT)",
    "exact_quote": "Wörtliches Zitat der Seite",
    "finding_text": "Befundtext",
}
ORIGINS = {"bucket": "Prüfablage", "interrupt": "Lauf pausiert"}
STYLE = """
body{font:16px/1.5 system-ui,sans-serif;max-width:62rem;margin:0 auto;padding:1rem;color:#1b1b1b}
a{color:#0b57d0} :focus-visible{outline:3px solid #f0a000;outline-offset:2px}
table{border-collapse:collapse;width:100%} th,td{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}
.skip{position:absolute;left:-999px} .skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}
.alert{border:2px solid #b3261e;background:#fdecea;padding:.5rem 1rem} .ok{border:2px solid #1e7b34;padding:.5rem 1rem}
.request{border:1px solid #ccc;padding:0 1rem;background:#fafafa}
blockquote{border-left:4px solid #bbb;margin:0;padding-left:1rem}
form{margin:.5rem 0 1rem} textarea,input,select{font:inherit;width:100%;box-sizing:border-box}
button{font:inherit;padding:.3rem 1rem}
fieldset{margin-bottom:1rem}
"""


def page(title: str, body: str) -> str:
    return (
        '<!doctype html><html lang="de"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)} · belegt</title><style>{STYLE}</style></head><body>"
        '<a class="skip" href="#inhalt">Zum Inhalt springen</a>'
        '<header><p><a href="/review">belegt · Prüfablage</a></p></header>'
        f'<main id="inhalt">{body}</main></body></html>'
    )


def list_page(items: list[ReviewItem], *, graph: str | None, bot: str | None, notice: str | None) -> str:
    options = "".join(
        f'<option value="{key}"{" selected" if key == graph else ""}>{title}</option>'
        for key, title in [("", "alle"), *GRAPH_TITLES.items()]
    )
    rows = "".join(
        f'<tr><td><a href="/review/items/{escape(item.id)}">{escape(item.id)}</a></td>'
        f"<td>{GRAPH_TITLES[item.graph]}</td><td>{ORIGINS[item.origin]}</td><td>{escape(item.bot_id or '–')}</td>"
        f"<td>{escape(item.summary)}</td><td>{escape(item.reason)}</td></tr>"
        for item in items
    )
    table = (
        '<table><caption class="skip">Offene Prüffälle</caption><thead><tr><th scope="col">ID</th>'
        '<th scope="col">Art</th><th scope="col">Herkunft</th><th scope="col">Bot</th>'
        f'<th scope="col">Worum es geht</th><th scope="col">Grund</th></tr></thead><tbody>{rows}</tbody></table>'
        if items
        else "<p>Keine offenen Prüffälle.</p>"
    )
    return page(
        "Prüfablage",
        (f'<p class="ok" role="status">{escape(notice)}</p>' if notice else "")
        + f"<h1>Offene Prüffälle ({len(items)})</h1>"
        + '<form method="get" action="/review"><fieldset><legend>Filtern</legend>'
        + f'<label for="graph">Art</label><select id="graph" name="graph">{options}</select>'
        + f'<label for="bot">Bot</label><input id="bot" name="bot" value="{escape(bot or "")}">'
        + '<button type="submit">Filtern</button></fieldset></form>'
        + table,
    )


def item_page(
    item: ReviewItem, *, problems: list[str], reviewer: str, values: dict[str, str], signed_in: bool = False
) -> str:
    alert = (
        '<div class="alert" role="alert" id="abgelehnt"><h2>Bearbeitung abgelehnt</h2><ul>'
        + "".join(f"<li>{escape(problem)}</li>" for problem in problems)
        + "</ul><p>Der Prüffall bleibt offen.</p></div>"
        if problems
        else ""
    )
    action = f"/review/items/{escape(item.id)}/decision"
    forms = [_form(action, "approve", "Freigeben", _reviewer_field("approve", reviewer, signed_in), "f", "Freigeben")]
    if item.editable:
        fields = "".join(
            f'<label for="field-{name}">{FIELD_LABELS[name]}</label>'
            f'<textarea id="field-{name}" name="{name}" rows="{6 if name == "answer" else 2}">'
            f"{escape(values.get(name, str(item.args.get(name, ''))))}</textarea>"
            for name in item.editable
        )
        forms.append(
            _form(
                action,
                "edit",
                "Bearbeiten",
                fields + _reviewer_field("edit", reviewer, signed_in),
                "b",
                "Bearbeitet freigeben",
            )
        )
    forms.append(
        _form(
            action,
            "reject",
            "Ablehnen",
            '<label for="note">Begründung (optional)</label><input id="note" name="note">'
            + _reviewer_field("reject", reviewer, signed_in),
            "a",
            "Ablehnen",
        )
    )
    return page(
        f"Prüffall {item.id}",
        alert
        + f"<h1>{GRAPH_TITLES[item.graph]} {escape(item.id)}</h1>"
        + f"<p>{ORIGINS[item.origin]}{' · Bot ' + escape(item.bot_id) if item.bot_id else ''}</p>"
        + f'<section class="request" aria-label="Prüfanfrage">{_MARKDOWN.render(item.description)}</section>'
        + "<h2>Entscheidung</h2>"
        + "".join(forms),
    )


def _form(url: str, action: str, label: str, fields: str, accesskey: str, button: str) -> str:
    return (
        f'<form method="post" action="{url}" aria-label="{label}">'
        f'<input type="hidden" name="action" value="{action}">{fields}'
        f'<button type="submit" accesskey="{accesskey}">{button}</button></form>'
    )


def _reviewer_field(form: str, reviewer: str, signed_in: bool) -> str:
    """The reviewer's name; signed in through the server it is the key's and cannot be typed over."""
    lock = " readonly" if signed_in else ""
    return (
        f'<label for="reviewer-{form}">Prüfer (Name)</label>'
        f'<input id="reviewer-{form}" name="reviewer" required value="{escape(reviewer)}" autocomplete="name"{lock}>'
    )


def error_page(message: str) -> str:
    return page("Fehler", f'<h1>Nicht gefunden</h1><p role="alert">{escape(message)}</p>')


def login_page(*, problem: str | None) -> str:
    alert = f'<p class="alert" role="alert">{escape(problem)}</p>' if problem else ""
    return page(
        "Anmelden",
        "<h1>Prüfablage: anmelden</h1>"
        f"{alert}<p>Bitte den API-Schlüssel eines Prüfers oder Admins eingeben (<code>belegt keys create "
        "--role reviewer</code>). Er bleibt nur für diese Seite im Browser gespeichert.</p>"
        '<form method="post" action="/review/login"><label for="key">API-Schlüssel</label>'
        '<input id="key" name="key" type="password" autocomplete="off" required autofocus>'
        '<p><button type="submit">Anmelden</button></p></form>',
    )
