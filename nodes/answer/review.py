"""Answers below the confidence threshold go to a person: in the run (review_answer) or the bucket (hold_for_review).

Both ways show the reviewer the same ``HumanInterrupt`` request. An edited answer is delivered only when the
deterministic validator finds nothing; otherwise the reviewer is asked again with the violations listed.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from pydantic import BaseModel

from nodes.answer.context import AnswerContext
from nodes.answer.runtime import context_of
from nodes.answer.state import AnswerState, ResolvedPolicy
from nodes.answer.validate import find_violations
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
from stores.kb.models import Hit, KBConflict

REVIEW_ACTION = "Antwort freigeben"
SNIPPET_CHARS = 400


class StoredReview(BaseModel):
    """A bucket item's review material, stored with its answer record: the request and the validator's inputs."""

    request: dict[str, Any]
    question_for_model: str
    context_blocks: list[Hit]
    conflicts: list[KBConflict]
    policy: ResolvedPolicy

    def violations(self, edited: str) -> list[str]:
        """The deterministic validator's verdict on an edited answer; empty when it may be delivered."""
        return find_violations(edited, self.question_for_model, self.context_blocks, self.conflicts, self.policy)


def answer_review_request(state: AnswerState, threshold: float, problems: list[str]) -> HumanInterrupt:
    """The request shown to the reviewer: question, draft, claims with their cited sources, reason for review."""
    draft = state["answer"] or state.get("draft") or ""
    blocks = {hit.entry_id: hit for hit in state["context_blocks"]}
    claims = state.get("claims", [])
    claim_lines = []
    for claim in claims:
        claim_lines.append(f"- „{claim.claim}“ — **{claim.verdict}** ({claim.confidence:.2f}) {claim.reason}".rstrip())
        for entry_id in claim.cited_ids:
            hit = blocks.get(entry_id)
            source = f"{hit.title} · {hit.section} · Stand {hit.stand}" if hit else "nicht im Kontext"
            claim_lines.append(f"  - [{entry_id}] {source}")
    sources = [
        f"- **[{hit.entry_id}]** {hit.title} · {hit.section} · Stand {hit.stand} · {hit.work}\n\n"
        + quoted(hit.text[:SNIPPET_CHARS])
        for hit in state["context_blocks"]
    ]
    reason = f"Konfidenz {state['confidence']:.2f} liegt unter der Schwelle {threshold:.2f}."
    description = "\n".join(
        [
            markdown_section("Frage", state["question_for_model"]),
            markdown_section("Entwurf", quoted(draft)),
            markdown_section("Aussagen und Belege", "\n".join(claim_lines)),
            markdown_section("Quellen", "\n\n".join(sources)),
            markdown_section("Grund der Prüfung", reason),
            *problems_section(problems),
        ]
    )
    args = {
        "question": state["question_for_model"],
        "answer": draft,
        "confidence": state["confidence"],
        "reason": reason,
        "claims": [claim.model_dump(mode="json") for claim in claims],
        "sources": [hit.entry_id for hit in state["context_blocks"]],
        "violations": problems,
    }
    return review_request(REVIEW_ACTION, args, description)


def _withheld(state: AnswerState) -> dict[str, Any]:
    draft = state["answer"] or state.get("draft")
    return {"draft": draft, "answer": state["policy"].uncertain_message, "refused": True}


def hold_for_review(state: AnswerState, runtime: Runtime[AnswerContext]) -> dict[str, Any]:
    """review: bucket — the user gets the uncertain message; the record waits with its request in the bucket."""
    request = answer_review_request(state, context_of(runtime).confidence_threshold, [])
    return {**_withheld(state), "bucket": "human_review", "review_request": request}


def review_answer(state: AnswerState, runtime: Runtime[AnswerContext]) -> dict[str, Any]:
    """review: interrupt — pause until the reviewer decides (needs a checkpointer); ``reviewed_by`` records who
    (the response's ``reviewer``: on the served API the server writes the signed-in key there).

    The mode is chosen by the router, not here: a resumed run may come without the original context.
    """
    threshold = context_of(runtime).confidence_threshold
    policy = state["policy"]
    withheld = _withheld(state)

    def carry_out(decision: ReviewerDecision) -> dict[str, Any]:
        signed = {"reviewed_by": decision.reviewer}
        if decision.action == "approve":
            return {"bucket": "delivered", "review_decision": "approved", "confidence": 1.0, **signed}
        if decision.action == "reject":
            return {**withheld, "bucket": "refused", "review_decision": "rejected", **signed}
        edited = str(decision.changes.get("answer", ""))
        problems = find_violations(
            edited, state["question_for_model"], state["context_blocks"], state["conflicts"], policy
        )
        if problems:
            raise Refused(problems)
        return {
            "answer": edited,
            "draft": withheld["draft"],
            "bucket": "delivered",
            "review_decision": "edited",
            "confidence": 1.0,
            **signed,
        }

    return decide(lambda problems: answer_review_request(state, threshold, problems), carry_out)
