"""K7 node: is the content's DNA reference still valid, or has a methodical/structural change happened since?"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.results import CriterionResult, Verdict
from nodes.scorecard.state import ScorecardState
from nodes.scorecard.verdicts import elapsed_ms
from nodes.shared.brand.reasons import Reason
from stores.brand.models import parse_semver
from stores.brand.store import DnaVersionInfo

CHANGE_LABELS = {"editorial": "redaktionell", "methodical": "methodisch", "structural": "strukturell"}
REVALIDATION_RULE = "Methodische oder strukturelle DNA-Änderungen erzwingen eine neue Prüfung"


class VersionOutcome(NamedTuple):
    verdict: Verdict
    rule_id: str
    rule_text: str
    explanation: str
    fix: str


OUTCOMES: dict[str, VersionOutcome] = {
    "revalidate_required": VersionOutcome(
        "fail", "VER-001", REVALIDATION_RULE, "Der Inhalt bezieht sich auf DNA {reference}; seitdem: {changes}.",
        "Inhalt gegen DNA {current} neu prüfen und die Referenz auf {current} setzen.",
    ),
    "unknown_version": VersionOutcome(
        "fail", "VER-002", "Die DNA-Referenz muss eine gespeicherte Version sein",
        "DNA-Version {reference} ist für diese Marke nicht gespeichert.", "DNA-Referenz des Inhalts korrigieren.",
    ),
    "newer_than_checked": VersionOutcome(
        "warn", "VER-003", REVALIDATION_RULE,
        "Der Inhalt bezieht sich auf DNA {reference}, geprüft wurde gegen die ältere {current}.",
        "Gegen DNA {reference} prüfen.",
    ),
}  # fmt: skip


def version_status(
    reference: str | None, current: str, history: list[DnaVersionInfo]
) -> tuple[str, list[DnaVersionInfo]]:
    """current | compatible | revalidate_required | unknown_version | newer_than_checked, plus the changes since."""
    if reference is None or reference == current:
        return "current", []
    if reference not in {v.dna_version for v in history}:
        return "unknown_version", []
    ref_key, current_key = parse_semver(reference), parse_semver(current)
    if ref_key > current_key:
        return "newer_than_checked", []
    since = [v for v in history if ref_key < parse_semver(v.dna_version) <= current_key]
    if all(v.change_kind == "editorial" for v in since):
        return "compatible", since
    return "revalidate_required", since


def check_dna_version(state: ScorecardState, runtime: Runtime[ScorecardContext]) -> dict[str, Any]:
    started = time.perf_counter()
    current = state["dna"].dna_version
    reference = state.get("dna_version_ref")
    status, since = version_status(reference, current, state["dna_history"])
    changes = ", ".join(f"{v.dna_version} ({CHANGE_LABELS.get(v.change_kind or '', 'ohne Angabe')})" for v in since)
    verdict: Verdict = "pass"
    reasons: list[Reason] = []
    if status in OUTCOMES:
        outcome = OUTCOMES[status]
        verdict = outcome.verdict
        values = {"reference": reference, "current": current, "changes": changes}
        reasons.append(
            Reason(
                rule_id=outcome.rule_id,
                rule_text=outcome.rule_text,
                criterion="K7",
                explanation=outcome.explanation.format(**values),
                fix_suggestion=outcome.fix.format(**values),
            )
        )
    result = CriterionResult(
        criterion="K7",
        verdict=verdict,
        methods=("rules",),
        reasons=tuple(reasons),
        suggestions=tuple(r.fix_suggestion for r in reasons if r.fix_suggestion),
        metrics={
            "version_status": status,
            "dna_version_ref": reference,
            "dna_version": current,
            "changes_since": changes,
        },
        latency_ms=elapsed_ms(started),
    )
    return {"criteria": {"K7": result}}
