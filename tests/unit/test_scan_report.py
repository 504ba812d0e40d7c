"""The scan report: JSON round trip, audit order independent of key order, Markdown and escaped HTML views."""

from __future__ import annotations

import json

from nodes.scan.report import render_html, render_markdown
from nodes.scan.state import (
    CatalogInfo,
    DocumentInfo,
    NotAssessed,
    RejectedQuote,
    ReportCounts,
    ReportedFinding,
    ScanReport,
)
from stores.scan.audit import AuditedFinding, AuditHeader, audit_hash, chain_hashes
from tests.scan_support import AUDIT_KEY


def _finding(
    position: int, severity: str, bucket: str = "report", quote: str = "Sensitivität 96,4 %"
) -> ReportedFinding:
    return ReportedFinding.model_validate(
        {
            "position": position,
            "stable_id": f"A-{position}",
            "clause_path": "A › 1",
            "title": "Titel <b>",
            "page_number": 2,
            "exact_quote": quote,
            "finding_text": "Text & mehr",
            "proposed_severity": "MINOR",
            "severity": severity,
            "bucket": bucket,
            "confidence": 0.5 if bucket == "human_review" else 0.9,
            "human_reviewed": False,
            "critic_note": "passt",
            "hash": "",
        }
    )


def _report() -> ScanReport:
    findings = [
        _finding(1, "MAJOR"),
        _finding(2, "MINOR", quote="<script>alert(1)</script>"),
        _finding(3, "UNCERTAIN", "human_review"),
    ]
    header = AuditHeader(
        scan_id="s", document_sha256="d" * 64, catalog_version_id=1, model_ids={"findings": "m"}, prompt_version="p"
    )
    audited = [AuditedFinding.model_validate(f.model_dump(include=set(AuditedFinding.model_fields))) for f in findings]
    hashes = chain_hashes(header, audited, key=AUDIT_KEY)
    findings = [f.model_copy(update={"hash": h}) for f, h in zip(findings, hashes, strict=True)]
    return ScanReport(
        scan_id="s",
        document=DocumentInfo(id="doc", file_name="flyer.md", sha256="d" * 64, page_count=3, uncitable_pages=(3,)),
        catalog=CatalogInfo(id=1, name="Katalog", active_requirements=5),
        model_ids={"findings": "m"},
        prompt_version="p",
        confidence_threshold=0.7,
        findings={"MAJOR": [findings[0]], "MINOR": [findings[1]], "HINT": []},
        human_review=[findings[2]],
        not_assessed=[NotAssessed(chunk_id="c0002", pages=(2,), reason="Antwort zweimal nicht schemagerecht")],
        rejected_quotes=[
            RejectedQuote(
                finding_id="x", stable_id="A-9", page_number=1, exact_quote="erfunden!!", reason="Zitat fehlt"
            )
        ],
        counts=ReportCounts(
            pages=3,
            uncitable_pages=1,
            chunks=2,
            chunks_not_assessed=1,
            findings_recorded=4,
            quotes_rejected=1,
            critic_rejected=0,
            dismissed_in_review=0,
            major=1,
            minor=1,
            hint=0,
            human_review=1,
            llm_calls=5,
        ),
        audit_algorithm="sha256-chain-v1",
        audit_hash=audit_hash(header, audited, key=AUDIT_KEY),
    )


def test_json_round_trip_keeps_the_audit_record_even_with_sorted_keys() -> None:
    report = _report()
    resorted = ScanReport.model_validate_json(json.dumps(json.loads(report.model_dump_json()), sort_keys=True))
    assert resorted == report
    record = resorted.audit_record()
    assert [f.position for f in record.findings] == [1, 2, 3]
    assert list(record.finding_hashes) == chain_hashes(record.header, record.findings, key=AUDIT_KEY)
    assert record.audit_hash == report.audit_hash


def test_markdown_groups_by_severity_and_lists_what_was_not_assessed() -> None:
    markdown = render_markdown(_report())
    order = [
        markdown.index(title)
        for title in (
            "## Schwerwiegend (MAJOR) – 1",
            "## Geringfügig (MINOR) – 1",
            "## Hinweise (HINT) – 0",
            "## Zur manuellen Prüfung (UNCERTAIN) – 1",
        )
    ]
    assert order == sorted(order)
    assert "> „Sensitivität 96,4 %“ — Seite 2" in markdown
    assert "Konfidenz 0,50 · vorgeschlagen MINOR · Kritik: passt" in markdown
    assert "- c0002 (Seiten 2): Antwort zweimal nicht schemagerecht" in markdown
    assert "Seiten 3" in markdown and "„erfunden!!“ – Zitat fehlt" in markdown
    assert "Audit-Hash (sha256-chain-v1): " + _report().audit_hash in markdown


def test_html_escapes_every_value() -> None:
    page = render_html(_report())
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Titel &lt;b&gt;" in page and "Text &amp; mehr" in page
    assert page.startswith("<!doctype html>") and page.count("<h3>") == 3
