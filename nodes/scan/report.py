"""Step 7: the report, built from what the database stored, plus its Markdown and HTML views."""

from __future__ import annotations

import html
from typing import Any

from langgraph.runtime import Runtime

from nodes.scan.context import ScanContext, scan_runtime
from nodes.scan.state import SEVERITY_ORDER, ReportCounts, ReportedFinding, ScanReport, ScanState
from stores.scan.audit import AUDIT_ALGORITHM, Severity
from stores.scan.catalog import CatalogStore

SEVERITY_TITLES: dict[str, str] = {
    "MAJOR": "Schwerwiegend (MAJOR)",
    "MINOR": "Geringfügig (MINOR)",
    "HINT": "Hinweise (HINT)",
    "UNCERTAIN": "Zur manuellen Prüfung (UNCERTAIN)",
}


def write_report(state: ScanState, runtime: Runtime[ScanContext]) -> dict[str, Any]:
    ctx, services = scan_runtime(runtime)
    audit = state["audit"]
    catalog = state["catalog"]
    clauses = {r.stable_id: r for r in CatalogStore(services.database).requirements(catalog.id)}
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
        confidence_threshold=ctx.confidence_threshold,
        findings=grouped,
        human_review=human_review,
        not_assessed=sorted(not_assessed, key=lambda n: n.chunk_id),
        rejected_quotes=state.get("rejected_quotes", []),
        counts=counts,
        audit_algorithm=AUDIT_ALGORITHM,
        audit_hash=audit.audit_hash,
    )
    return {"report": report}


def _percent(value: float) -> str:
    return f"{value:.2f}".replace(".", ",")


def render_markdown(report: ScanReport) -> str:
    """The report for people: findings grouped by severity with clause, quote, page and confidence."""
    c = report.counts
    lines = [
        f"# Prüfbericht: {report.document.file_name}",
        "",
        f"- Katalog: {report.catalog.name} (Version {report.catalog.id}, "
        f"{report.catalog.active_requirements} aktive Anforderungen)",
        f"- Dokument: {report.document.page_count} Seiten, SHA-256 `{report.document.sha256}`",
        f"- Modelle: {', '.join(f'{role} = {name}' for role, name in sorted(report.model_ids.items()))}",
        f"- Prompt-Version: {report.prompt_version} · Konfidenzschwelle {_percent(report.confidence_threshold)}",
        f"- Scan: `{report.scan_id}` · Audit-Hash ({report.audit_algorithm}): `{report.audit_hash}`",
        "",
        "## Übersicht",
        "",
        "| MAJOR | MINOR | HINT | zur Prüfung | Zitat abgelehnt | vom Kritiker verworfen | nicht bewertet |",
        "|---|---|---|---|---|---|---|",
        f"| {c.major} | {c.minor} | {c.hint} | {c.human_review} | {c.quotes_rejected} | {c.critic_rejected} "
        f"| {c.chunks_not_assessed} von {c.chunks} |",
        "",
        f"{c.llm_calls} Modellaufrufe für {c.pages} Seiten.",
    ]
    sections = [(severity, report.findings.get(severity, [])) for severity in SEVERITY_ORDER]
    for title_key, findings in [*sections, ("UNCERTAIN", report.human_review)]:
        lines += ["", f"## {SEVERITY_TITLES[title_key]} – {len(findings)}"]
        for f in findings:
            reviewed = " · von Mensch bestätigt" if f.human_reviewed else ""
            proposed = f" · vorgeschlagen {f.proposed_severity}" if f.severity == "UNCERTAIN" else ""
            lines += [
                "",
                f"### {f.position}. {f.stable_id} – {f.title} ({f.clause_path})",
                "",
                f"> „{f.exact_quote}“ — Seite {f.page_number}",
                "",
                f"{f.finding_text}",
                "",
                f"Konfidenz {_percent(f.confidence)}{proposed}{reviewed}"
                + (f" · Kritik: {f.critic_note}" if f.critic_note else ""),
            ]
    if report.not_assessed:
        lines += ["", "## Nicht bewertete Abschnitte", ""]
        lines += [f"- {n.chunk_id} (Seiten {', '.join(map(str, n.pages))}): {n.reason}" for n in report.not_assessed]
    if report.rejected_quotes:
        lines += ["", "## Von der Datenbank abgelehnte Befunde (nicht gespeichert)", ""]
        lines += [
            f"- {r.stable_id}, Seite {r.page_number}: „{r.exact_quote}“ – {r.reason}" for r in report.rejected_quotes
        ]
    if report.document.uncitable_pages:
        pages = ", ".join(map(str, report.document.uncitable_pages))
        lines += ["", "## Seiten ohne Textebene (nicht zitierfähig, nicht geprüft)", "", f"Seiten {pages}"]
    return "\n".join(lines) + "\n"


def render_html(report: ScanReport) -> str:
    """A self-contained HTML page of the Markdown view, every value escaped."""
    body = []
    for line in render_markdown(report).splitlines():
        text = html.escape(line)
        if line.startswith("### "):
            body.append(f"<h3>{text[4:]}</h3>")
        elif line.startswith("## "):
            body.append(f"<h2>{text[3:]}</h2>")
        elif line.startswith("# "):
            body.append(f"<h1>{text[2:]}</h1>")
        elif line.startswith("> "):
            body.append(f"<blockquote>{text[5:]}</blockquote>")
        elif line.startswith("|---"):
            continue
        elif line.startswith("|"):
            cells = "".join(f"<td>{cell.strip()}</td>" for cell in text.strip("|").split("|"))
            body.append(f"<tr>{cells}</tr>")
        elif line.startswith("- "):
            body.append(f"<li>{text[2:]}</li>")
        elif line:
            body.append(f"<p>{text}</p>")
    title = html.escape(f"Prüfbericht: {report.document.file_name}")
    return (
        f'<!doctype html>\n<html lang="de"><head><meta charset="utf-8"><title>{title}</title></head>\n'
        f"<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )
