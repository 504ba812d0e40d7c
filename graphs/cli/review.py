"""``belegt review``: the review inbox in the terminal, and the prompt that answers a review request in a run."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from graphs.cli.runtime import console, database_or_exit, errors, fail, settings_or_exit
from graphs.review.items import GRAPH_TITLES
from stores.sql.reviews import GraphName

if TYPE_CHECKING:
    from graphs.review.items import DecisionOutcome, ReviewItem

app = typer.Typer(
    help="Prüfablage: offene Antworten, Befunde und Freigaben ansehen und entscheiden.", no_args_is_help=True
)

ServerOption = Annotated[
    str | None,
    typer.Option(
        "--server", envvar="BELEGT_SERVER_URL", help="Adresse des LangGraph-Servers: zeigt auch pausierte Läufe."
    ),
]
ApiKeyOption = Annotated[
    str | None,
    typer.Option("--api-key", envvar="BELEGT_API_KEY", help="API-Schlüssel (Prüfer oder Admin) für --server."),
]
ReviewerOption = Annotated[
    str | None,
    typer.Option(
        "--reviewer", help="Wer entscheidet (Name), wird protokolliert; mit --server zählt der Schlüssel des Servers."
    ),
]


def _run(server: str | None, api_key: str | None, work: Any) -> Any:
    """Open the inbox (database, and the served API when ``server`` is given) and run ``work(inbox)``."""
    import asyncio

    import httpx
    from langgraph_sdk import get_client

    from graphs.review.inbox import ReviewInbox
    from graphs.review.items import ItemNotFound
    from graphs.review.served import ServedReviews
    from stores.sql.reviews import AlreadyDecided

    database = database_or_exit(settings_or_exit())
    served = ServedReviews(get_client(url=server, api_key=api_key)) if server else None

    async def main() -> Any:
        result: Coroutine[Any, Any, Any] = work(ReviewInbox(database, served))
        return await result

    try:
        return asyncio.run(main())
    except (ItemNotFound, AlreadyDecided) as exc:
        fail(str(exc))
    except httpx.TransportError as exc:
        fail(f"LangGraph-Server {server} nicht erreichbar: {exc or type(exc).__name__}")
    finally:
        database.dispose()


@app.command("list")
def list_items(
    graph: Annotated[GraphName | None, typer.Option("--graph", help="answer, scan oder scorecard.")] = None,
    bot: Annotated[str | None, typer.Option("--bot", help="Nur Antworten dieses Bots.")] = None,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
) -> None:
    """Offene Prüffälle auflisten (Prüfablage und pausierte Läufe)."""
    items: list[ReviewItem] = _run(server, api_key, lambda inbox: inbox.items(graph=graph, bot_id=bot))
    if not items:
        console.print("Keine offenen Prüffälle.")
        return
    table = Table(title=f"{len(items)} offene Prüffälle")
    table.add_column("ID", no_wrap=True)  # copied into show/approve/edit/reject: never shortened
    for heading in ("Art", "Herkunft", "Bot", "Worum es geht", "Grund"):
        table.add_column(heading)
    for item in items:
        origin = "Ablage" if item.origin == "bucket" else "Lauf pausiert"
        table.add_row(
            item.id, GRAPH_TITLES[item.graph], origin, item.bot_id or "–", escape(item.summary), escape(item.reason)
        )
    console.print(table)


@app.command("show")
def show(
    item_id: Annotated[str, typer.Argument(help="ID aus belegt review list.")],
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
) -> None:
    """Einen Prüffall mit Frage, Entwurf, Belegen und Grund zeigen."""
    item: ReviewItem = _run(server, api_key, lambda inbox: inbox.item(item_id))
    print_request(item.request, title=f"{item.id} · {GRAPH_TITLES[item.graph]}")


@app.command("approve")
def approve(
    item_id: Annotated[str, typer.Argument()],
    reviewer: ReviewerOption = None,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
) -> None:
    """Freigeben, wie vorgeschlagen."""
    _decide(item_id, {"action": "approve"}, reviewer, server, api_key)


@app.command("reject")
def reject(
    item_id: Annotated[str, typer.Argument()],
    reviewer: ReviewerOption = None,
    note: Annotated[str | None, typer.Option("--note", help="Begründung.")] = None,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
) -> None:
    """Ablehnen (Antwort zurückhalten, Befund verwerfen, Inhalt nicht freigeben)."""
    _decide(item_id, {"action": "reject", "note": note}, reviewer, server, api_key)


@app.command("edit")
def edit(
    item_id: Annotated[str, typer.Argument()],
    reviewer: ReviewerOption = None,
    answer: Annotated[str | None, typer.Option("--answer", help="Antwort: neuer Text mit Belegen [ID].")] = None,
    severity: Annotated[str | None, typer.Option("--severity", help="Befund: MAJOR, MINOR oder HINT.")] = None,
    quote: Annotated[str | None, typer.Option("--quote", help="Befund: wörtliches Zitat der Seite.")] = None,
    text: Annotated[str | None, typer.Option("--text", help="Befund: neuer Befundtext.")] = None,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
) -> None:
    """Bearbeiten und freigeben; geprüft wie jede Antwort (Regeln, Zitatprüfung der Datenbank)."""
    values = {"answer": answer, "severity": severity, "exact_quote": quote, "finding_text": text}
    changes = {key: value for key, value in values.items() if value is not None}
    if not changes:
        fail("Nichts zu ändern: --answer (Antwort) oder --severity/--quote/--text (Befund) angeben.", code=2)
    _decide(item_id, {"action": "edit", "changes": changes}, reviewer, server, api_key)


def _decide(
    item_id: str, fields: dict[str, Any], reviewer: str | None, server: str | None, api_key: str | None
) -> None:
    """``fields``: a ReviewerDecision's action, note and changes (built here: the model loads on use)."""
    from nodes.shared.review import ReviewerDecision

    name = _served_reviewer(server, api_key, reviewer) if server else (reviewer or "").strip()
    if not name:
        fail("--reviewer fehlt: ohne --server wird der Name des Prüfers protokolliert.", code=2)
    decision = ReviewerDecision(**fields)
    outcome: DecisionOutcome = _run(server, api_key, lambda inbox: inbox.decide(item_id, decision, name))
    if not outcome.carried_out:
        errors.print(f"[bold red]Abgelehnt:[/] {escape(item_id)} bleibt offen.")
        for problem in outcome.problems:
            errors.print(f"  • {escape(problem)}")
        raise typer.Exit(1)
    console.print(f"Entschieden: {escape(item_id)} · {decision.action} · {escape(name)}")


def _served_reviewer(server: str, api_key: str | None, typed: str | None) -> str:
    """Who the server says the key is: the same name the server signs a resume with, so the decision log and
    the graph's own record agree. A typed ``--reviewer`` that differs is noted and not used."""
    import httpx

    from graphs.server.auth import REVIEWER_PATH

    try:
        response = httpx.get(f"{server.rstrip('/')}{REVIEWER_PATH}", headers={"x-api-key": api_key or ""}, timeout=10)
    except httpx.TransportError as exc:
        fail(f"LangGraph-Server {server} nicht erreichbar: {exc or type(exc).__name__}")
    if response.status_code != 200:
        fail(f"Der Server nimmt diesen Schlüssel nicht als Prüfer an ({response.status_code}): {response.text.strip()}")
    name = str(response.json()["reviewer"])
    if typed and typed.strip() != name:
        errors.print(f"Hinweis: --reviewer {escape(typed)} gilt nicht; es entscheidet der Schlüssel {escape(name)}.")
    return name


def print_request(request: dict[str, Any], *, title: str) -> None:
    from rich.markdown import Markdown

    console.print(Panel(Markdown(request.get("description") or ""), title=escape(title)))


def prompt_response(request: dict[str, Any], graph: GraphName, reviewer: str | None = None) -> dict[str, Any]:
    """Ask at the terminal how to answer a review request of a running graph; returns the ``HumanResponse``."""
    from graphs.review.items import EDITABLE
    from nodes.shared.review import ReviewerDecision, human_response

    print_request(request, title=f"Prüfung · {GRAPH_TITLES[graph]}")
    args = request["action_request"]["args"]
    editable = EDITABLE[graph] if request["config"]["allow_edit"] else ()
    choices = ["approve", *(["edit"] if editable else []), "reject"]
    action = typer.prompt(f"Entscheidung ({' / '.join(choices)})", default="reject").strip()
    while action not in choices:
        action = typer.prompt(f"Bitte eine von {', '.join(choices)}", default="reject").strip()
    name = reviewer or typer.prompt("Ihr Name (Prüfer)")
    if action == "edit":
        changes = {field: typer.prompt(field, default=str(args.get(field, ""))) for field in editable}
        decision = ReviewerDecision(action="edit", changes=changes, reviewer=name)
    elif action == "reject":
        note = typer.prompt("Begründung (optional)", default="", show_default=False)
        decision = ReviewerDecision(action="reject", note=note or None, reviewer=name)
    else:
        decision = ReviewerDecision(action="approve", reviewer=name)
    return human_response(decision, request["action_request"]["action"])
