"""Step 7: the report, built from what the database stored, plus its Markdown and HTML views."""

from __future__ import annotations

import html
from typing import Any

from nodes.scan.services import ScanServices
from nodes.scan.state import SEVERITY_ORDER, ReportCounts, ReportedFinding, ScanReport, ScanState
from stores.scan.audit import AUDIT_ALGORITHM, Severity

SEVERITY_TITLES: dict[str, str] = {
    "MAJOR": "Schwerwiegend (MAJOR)",
    "MINOR": "Geringfügig (MINOR)",
    "HINT": "Hinweise (HINT)",
    "UNCERTAIN": "Zur manuellen Prüfung (UNCERTAIN)",
}


def write_report(state: ScanState, *, services: ScanServices) -> dict[str, Any]:
    audit = state["audit"]
    catalog = state["catalog"]
    clauses = {r.stable_id: r for r in services.catalogs.requirements(catalog.id)}
    notes = {
        (f.draft.clause.stable_id, f.draft.page_number, f.draft.exact_quote): f.critic_note
        for f in state.get("routed", [])
    }
    reported = [
        ReportedFinding(
            **finding.model_dump(),
            clause_path=clauses[finding.stable_id].clause_path,
            title=clauses[finding.stable_id].title,
            critic_note=notes.get((finding.stable_id, finding.page_number, finding.exact_quote), ""),
            hash=finding_hash,
        )
        for finding, finding_hash in zip(audit.findings, audit.finding_hashes, strict=True)
    ]
    grouped: dict[Severity, list[ReportedFinding]] = {
        severity: [f for f in reported if f.bucket == "report" and f.severity == severity]
        for severity in SEVERITY_ORDER
    }
    human_review = [f for f in reported if f.bucket == "human_review"]
    document = state["document"]
    not_assessed = state.get("not_assessed", [])
    counts = ReportCounts(
        pages=document.page_count,
        uncitable_pages=len(document.uncitable_pages),
        chunks=len(state.get("chunks", [])),
        chunks_not_assessed=len(not_assessed),
        findings_recorded=len(state.get("drafts", [])),
        quotes_rejected=len(state.get("rejected_quotes", [])),
        critic_rejected=sum(c.verdict == "rejected" for c in state.get("critiques", [])),
        dismissed_in_review=len(state.get("dismissed", [])),
        major=len(grouped["MAJOR"]),
        minor=len(grouped["MINOR"]),
        hint=len(grouped["HINT"]),
        human_review=len(human_review),
        llm_calls=state.get("llm_calls", 0),
    )
    report = ScanReport(
        scan_id=audit.header.scan_id,
        document=document,
        catalog=catalog,
        model_ids=audit.header.model_ids,
        prompt_version=audit.header.prompt_version,
        confidence_threshold=state["confidence_threshold"],
        findings=grouped,
        human_review=human_review,
        not_assessed=sorted(not_assessed, key=lambda n: n.chunk_id),
        rejected_quotes=state.get("rejected_quotes", []),
        counts=counts,
        audit_algorithm=AUDIT_ALGORITHM,
        audit_hash=audit.audit_hash,
    )
    return {"report": report}


def _decimal(value: float) -> str:
    return f"{value:.2f}".replace(".", ",")


def _facts(report: ScanReport) -> list[str]:
    models = ", ".join(f"{role} = {name}" for role, name in sorted(report.model_ids.items()))
    return [
        f"Katalog: {report.catalog.name} (Version {report.catalog.id}, "
        f"{report.catalog.active_requirements} aktive Anforderungen)",
        f"Dokument: {report.document.page_count} Seiten, SHA-256 {report.document.sha256}",
        f"Modelle: {models}",
        f"Prompt-Version: {report.prompt_version} · Konfidenzschwelle {_decimal(report.confidence_threshold)}",
        f"Scan: {report.scan_id} · Audit-Hash ({report.audit_algorithm}): {report.audit_hash}",
    ]


def _overview(report: ScanReport) -> tuple[list[str], list[str]]:
    c = report.counts
    header = ["MAJOR", "MINOR", "HINT", "zur Prüfung", "Zitat abgelehnt", "vom Kritiker verworfen", "nicht bewertet"]
    values = [c.major, c.minor, c.hint, c.human_review, c.quotes_rejected, c.critic_rejected]
    return header, [*map(str, values), f"{c.chunks_not_assessed} von {c.chunks}"]


def _sections(report: ScanReport) -> list[tuple[str, list[ReportedFinding]]]:
    grouped = [(SEVERITY_TITLES[severity], report.findings.get(severity, [])) for severity in SEVERITY_ORDER]
    return [*grouped, (SEVERITY_TITLES["UNCERTAIN"], report.human_review)]


def _details(finding: ReportedFinding) -> str:
    parts = [f"Konfidenz {_decimal(finding.confidence)}"]
    if finding.severity == "UNCERTAIN":
        parts.append(f"vorgeschlagen {finding.proposed_severity}")
    if finding.human_reviewed:
        parts.append("von Mensch bestätigt")
    if finding.critic_note:
        parts.append(f"Kritik: {finding.critic_note}")
    return " · ".join(parts)


def _appendix(report: ScanReport) -> list[tuple[str, list[str]]]:
    """Chunks not assessed, quotes the database refused, pages without a text layer."""
    appendix = []
    if report.not_assessed:
        appendix.append(
            (
                "Nicht bewertete Abschnitte",
                [f"{n.chunk_id} (Seiten {', '.join(map(str, n.pages))}): {n.reason}" for n in report.not_assessed],
            )
        )
    if report.rejected_quotes:
        appendix.append(
            (
                "Von der Datenbank abgelehnte Befunde (nicht gespeichert)",
                [
                    f"{r.stable_id}, Seite {r.page_number}: „{r.exact_quote}“ – {r.reason}"
                    for r in report.rejected_quotes
                ],
            )
        )
    if report.document.uncitable_pages:
        pages = ", ".join(map(str, report.document.uncitable_pages))
        appendix.append(("Seiten ohne Textebene (nicht zitierfähig, nicht geprüft)", [f"Seiten {pages}"]))
    return appendix


def render_markdown(report: ScanReport) -> str:
    """The report for people: findings grouped by severity with clause, quote, page and confidence."""
    header, values = _overview(report)
    lines = [f"# Prüfbericht: {report.document.file_name}", ""]
    lines += [f"- {fact}" for fact in _facts(report)]
    lines += [
        "",
        "## Übersicht",
        "",
        f"| {' | '.join(header)} |",
        f"|{'---|' * len(header)}",
        f"| {' | '.join(values)} |",
    ]
    lines += ["", f"{report.counts.llm_calls} Modellaufrufe für {report.counts.pages} Seiten."]
    for title, findings in _sections(report):
        lines += ["", f"## {title} – {len(findings)}"]
        for f in findings:
            lines += [
                "",
                f"### {f.position}. {f.stable_id} – {f.title} ({f.clause_path})",
                "",
                f"> „{f.exact_quote}“ — Seite {f.page_number}",
                "",
                f.finding_text,
                "",
                _details(f),
            ]
    for title, items in _appendix(report):
        lines += ["", f"## {title}", ""] + [f"- {item}" for item in items]
    return "\n".join(lines) + "\n"


def render_html(report: ScanReport) -> str:
    """The same view as a self-contained HTML page; every value is escaped."""
    e = html.escape
    header, values = _overview(report)
    body = [f"<h1>Prüfbericht: {e(report.document.file_name)}</h1>", "<ul>"]
    body += [f"<li>{e(fact)}</li>" for fact in _facts(report)]
    body += ["</ul>", "<h2>Übersicht</h2>", "<table>"]
    body += ["<tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr>"]
    body += ["<tr>" + "".join(f"<td>{e(v)}</td>" for v in values) + "</tr>", "</table>"]
    for title, findings in _sections(report):
        body.append(f"<h2>{e(title)} – {len(findings)}</h2>")
        for f in findings:
            body += [
                f"<h3>{f.position}. {e(f.stable_id)} – {e(f.title)} ({e(f.clause_path)})</h3>",
                f"<blockquote>„{e(f.exact_quote)}“ — Seite {f.page_number}</blockquote>",
                f"<p>{e(f.finding_text)}</p>",
                f"<p><small>{e(_details(f))}</small></p>",
            ]
    for title, items in _appendix(report):
        body += [f"<h2>{e(title)}</h2>", "<ul>", *(f"<li>{e(item)}</li>" for item in items), "</ul>"]
    title = e(f"Prüfbericht: {report.document.file_name}")
    return (
        f'<!doctype html>\n<html lang="de"><head><meta charset="utf-8"><title>{title}</title></head>\n<body>\n'
        + "\n".join(body)
        + "\n</body></html>\n"
    )
