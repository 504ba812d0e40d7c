"""Store the scan: every routed finding in report order, in one transaction, sealed with the audit hash."""

from __future__ import annotations

from typing import Any

from nodes.scan.prompts import PROMPT_VERSION
from nodes.scan.services import ScanServices
from nodes.scan.state import SEVERITY_ORDER, RoutedFinding, ScanState
from stores.scan.audit import AuditHeader
from stores.scan.findings import FindingRecord

_RANK: dict[str, int] = {str(severity): rank for severity, rank in SEVERITY_ORDER.items()} | {"UNCERTAIN": 3}


def report_order(findings: list[RoutedFinding]) -> list[RoutedFinding]:
    """Report bucket first (MAJOR, MINOR, HINT), then the review bucket; within each by page and clause."""

    def key(finding: RoutedFinding) -> tuple[int, int, int, str, str]:
        return (
            finding.bucket != "report",
            _RANK[finding.severity],
            finding.draft.page_number,
            finding.draft.clause.stable_id,
            finding.draft.exact_quote,
        )

    return sorted(findings, key=key)


def store_findings(state: ScanState, *, services: ScanServices) -> dict[str, Any]:
    header = AuditHeader(
        scan_id=state["scan_id"],
        document_sha256=state["document"].sha256,
        catalog_version_id=state["catalog"].id,
        model_ids=state["model_ids"],
        prompt_version=PROMPT_VERSION,
    )
    records = [
        FindingRecord(
            **finding.quoted(),
            requirement_id=finding.draft.clause.requirement_id,
            chunk_id=finding.draft.chunk_id,
            severity=finding.severity,
            bucket=finding.bucket,
            human_reviewed=finding.human_reviewed,
            reviewed_by=finding.reviewed_by,
        )
        for finding in report_order(state.get("routed", []))
    ]
    audit = services.findings.save_scan(
        header, document_id=state["document"].id, confidence_threshold=state["confidence_threshold"], findings=records
    )
    return {"audit": audit}
