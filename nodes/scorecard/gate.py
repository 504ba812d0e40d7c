"""Human gate: at 5.0–5.5 points with ⚠ at K1 or K2 only the brand owner may release the content.

With ``review: "interrupt"`` the gate pauses with a ``HumanInterrupt`` request (accept releases, ignore or a
text response rejects); with ``review: "bucket"`` the run ends with status REVISE and
``requires_owner_approval``, and the audit entry waits in the review inbox.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.results import OwnerDecision, Status
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardState
from nodes.shared.brand.reasons import Reason
from nodes.shared.review import (
    HumanInterrupt,
    Refused,
    ReviewerDecision,
    decide,
    markdown_section,
    problems_section,
    quoted,
    review_request,
)

REVIEW_ACTION = "Inhalt freigeben"
REASON = "Grenzfall (5,0–5,5 Punkte mit ⚠ bei K1 oder K2): nur der Marken-Owner darf freigeben."


def owner_review_request(
    *, content_id: str, score: float, status: str, reasons: Sequence[Reason], text: str | None, problems: list[str]
) -> HumanInterrupt:
    """The request the owner sees: the text, the scorecard's biggest levers with the DNA rules, the reason."""
    levers = []
    for reason in reasons:
        where = f" — „{reason.evidence.quote}“" if reason.evidence else ""
        levers.append(f"- **{reason.rule_id}** ({reason.criterion}): {reason.explanation}{where}")
        levers.append(f"  - Regel: {reason.rule_text}")
    description = "\n".join(
        [
            *([markdown_section("Text", quoted(text))] if text is not None else []),
            markdown_section(f"Bewertung: {status}, Score {score:g}/7", "\n".join(levers)),
            markdown_section("Grund der Prüfung", REASON),
            *problems_section(problems),
        ]
    )
    args = {
        "content_id": content_id,
        "score": score,
        "status": status,
        "top_reasons": [r.model_dump(mode="json") for r in reasons],
        "reason": REASON,
        "violations": problems,
    }
    return review_request(REVIEW_ACTION, args, description, allow_edit=False)


def owner_decision(decision: ReviewerDecision) -> OwnerDecision:
    """The owner's release or rejection; refused when it cannot be one."""
    if decision.action == "edit":
        raise Refused(["Der Inhalt kann hier nicht bearbeitet werden: freigeben oder ablehnen."])
    if not decision.reviewer:  # in-process only: the served API signs every response with the resuming key
        raise Refused(['Wer entscheidet? Die Antwort braucht "reviewer" mit dem Namen des Marken-Owners.'])
    return OwnerDecision(approved=decision.action == "approve", owner=decision.reviewer, note=decision.note)


def route_after_record_audit(
    state: ScorecardState, runtime: Runtime[ScorecardContext]
) -> Literal["request_owner_release", "__end__"]:
    interrupting = (runtime.context or ScorecardContext()).review == "interrupt"
    return "request_owner_release" if state["validation"].requires_owner_approval and interrupting else "__end__"


def request_owner_release(state: ScorecardState, *, services: ScorecardServices) -> dict[str, Any]:
    validation = state["validation"]
    decision = decide(
        lambda problems: owner_review_request(
            content_id=validation.content_id,
            score=validation.score,
            status=validation.status,
            reasons=validation.top_reasons,
            text=state["text"],
            problems=problems,
        ),
        owner_decision,
    )
    status: Status = "PASS" if decision.approved else "REVISE"
    services.scorecard_audit.record_owner_decision(state["audit_id"], status=status, decision=decision.model_dump())
    return {
        "validation": validation.model_copy(
            update={"status": status, "validated_by": "human", "owner_decision": decision}
        )
    }
