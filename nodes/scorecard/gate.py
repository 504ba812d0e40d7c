"""Human gate: at 5.0–5.5 points with ⚠ at K1 or K2 only the brand owner may release the content.

The gate interrupts only when the graph runs with a checkpointer; without one the run ends with status
REVISE and ``requires_owner_approval``.
"""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.types import interrupt
from pydantic import ValidationError

from nodes.scorecard.results import OwnerDecision, Status
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardState


class InvalidOwnerDecision(ValueError):
    """The resume value is not {"approved": bool, "owner": str, "note": str | None}."""


def route_after_record_audit(
    state: ScorecardState, config: RunnableConfig
) -> Literal["request_owner_release", "__end__"]:
    can_pause = config.get("configurable", {}).get(CONFIG_KEY_CHECKPOINTER) is not None
    return "request_owner_release" if state["validation"].requires_owner_approval and can_pause else "__end__"


def request_owner_release(state: ScorecardState, *, services: ScorecardServices) -> dict[str, Any]:
    validation = state["validation"]
    answer = interrupt(
        {
            "question": "Grenzfall: nur der Marken-Owner darf freigeben. Freigeben?",
            "content_id": validation.content_id,
            "score": validation.score,
            "status": validation.status,
            "top_reasons": [r.model_dump(mode="json") for r in validation.top_reasons],
            "expected_answer": {"approved": "true|false", "owner": "Name", "note": "optional"},
        }
    )
    try:
        decision = OwnerDecision.model_validate(answer)
    except ValidationError as exc:
        raise InvalidOwnerDecision(
            f"Owner-Entscheidung ungültig ({exc.error_count()} Fehler): erwartet approved (true/false)"
            " und owner (Name)."
        ) from None
    status: Status = "PASS" if decision.approved else "REVISE"
    services.scorecard_audit.record_owner_decision(state["audit_id"], status=status, decision=decision.model_dump())
    return {
        "validation": validation.model_copy(
            update={"status": status, "validated_by": "human", "owner_decision": decision}
        )
    }
