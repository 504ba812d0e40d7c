"""review_answer: answers below the confidence threshold go to a person, in the run or in the review bucket."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import interrupt
from pydantic import BaseModel

from nodes.answer.context import AnswerContext
from nodes.answer.runtime import context_of
from nodes.answer.state import AnswerState
from nodes.answer.validate import find_violations


class ReviewDecision(BaseModel):
    """What a reviewer sends back through ``Command(resume=...)``."""

    action: Literal["approve", "edit", "reject"]
    answer: str | None = None
    reviewer: str | None = None


def review_answer(state: AnswerState, runtime: Runtime[AnswerContext]) -> dict[str, Any]:
    policy = state["policy"]
    withheld = {"draft": state["answer"] or state.get("draft"), "answer": policy.uncertain_message, "refused": True}
    if context_of(runtime).review_mode == "bucket":
        return {**withheld, "bucket": "human_review"}
    decision = ReviewDecision.model_validate(
        interrupt(
            {
                "question": state["question"],
                "answer": state["answer"],
                "confidence": state["confidence"],
                "claims": [c.model_dump() for c in state.get("claims", [])],
                "allowed_ids": [h.entry_id for h in state["context_blocks"]],
            }
        )
    )
    if decision.action == "approve":
        return {"bucket": "delivered", "review_decision": "approved", "confidence": 1.0}
    if decision.action == "edit" and decision.answer:
        problems = find_violations(
            decision.answer, state["question_for_model"], state["context_blocks"], state["conflicts"], policy
        )
        if not problems:
            return {
                "answer": decision.answer,
                "draft": state["answer"],
                "bucket": "delivered",
                "review_decision": "edited",
                "confidence": 1.0,
            }
        return {**withheld, "bucket": "refused", "review_decision": "edit_rejected", "violations": problems}
    return {**withheld, "bucket": "refused", "review_decision": "rejected"}
