"""Step 6: route by confidence. At or above the threshold a finding goes into the report; below it (or when
the critic could not judge it) into the human-review bucket as UNCERTAIN, which a reviewer can resolve."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from nodes.scan.context import ScanContext, context_of
from nodes.scan.state import RoutedFinding, ScanState


def assign_buckets(state: ScanState, runtime: Runtime[ScanContext]) -> dict[str, Any]:
    ctx = context_of(runtime)
    critiques = {critique.finding_id: critique for critique in state.get("critiques", [])}
    routed = []
    for draft in state.get("verified", []):
        critique = critiques[draft.finding_id]
        if critique.verdict == "rejected":
            continue
        confident = critique.verdict != "unchecked" and critique.confidence >= ctx.confidence_threshold
        routed.append(
            RoutedFinding(
                draft=draft,
                proposed_severity=critique.severity,
                severity=critique.severity if confident else "UNCERTAIN",
                bucket="report" if confident else "human_review",
                confidence=critique.confidence,
                critic_note=critique.note,
            )
        )
    return {"routed": routed, "confidence_threshold": ctx.confidence_threshold}


def route_after_assign_buckets(
    state: ScanState, runtime: Runtime[ScanContext]
) -> Literal["review_findings", "store_findings"]:
    ctx = context_of(runtime)
    if ctx.review == "interrupt" and any(finding.bucket == "human_review" for finding in state.get("routed", [])):
        return "review_findings"
    return "store_findings"
