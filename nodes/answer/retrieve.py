"""retrieve_passages and assess_retrieval: fused multi-query search in the bot's KB, then the score gate."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from nodes.answer.context import AnswerContext
from nodes.answer.runtime import context_of
from nodes.answer.services import AnswerServices
from nodes.answer.state import AnswerFeatures, AnswerState
from stores.kb.store import KnowledgeBaseNotFound


def retrieve_passages(
    state: AnswerState, runtime: Runtime[AnswerContext], *, services: AnswerServices
) -> dict[str, Any]:
    """Search only the policy's KB; when the planner names one stand year, entries of that year go first."""
    ctx = context_of(runtime)
    policy = state["policy"]
    planned = state["planned_queries"]
    limit = ctx.survey_retrieval_limit if state.get("question_type") == "survey" else ctx.retrieval_limit
    try:
        hits = services.knowledge_base.search(policy.kb_id, [p.text for p in planned], limit=limit)
    except KnowledgeBaseNotFound as exc:
        return {"error": str(exc), "hits": [], "conflicts": []}
    years = {str(p.stand_year) for p in planned if p.stand_year is not None}
    if len(years) == 1:
        year = years.pop()
        hits = sorted(hits, key=lambda h: (h.cross_ref_extra, not h.stand.startswith(year), h.rank))
    return {"hits": hits, "conflicts": services.knowledge_base.conflicts(policy.kb_id)}


def assess_retrieval(state: AnswerState) -> dict[str, Any]:
    """Nothing retrieved: refuse without further work. Whether the hits answer the question is decided by
    ``assess_answerability`` on their sentences."""
    if state.get("error"):
        return {}
    if not [h for h in state["hits"] if not h.cross_ref_extra]:
        policy = state["policy"]
        nothing = AnswerFeatures(
            outcome="unanswerable",
            key_terms=0,
            key_coverage=0.0,
            best_sentence_score=0.0,
            best_relevance=0.0,
            dense_similarity=None,
            sentences_used=0,
            blocks_used=0,
        )
        return {
            "answer": policy.refusal_message,
            "refused": True,
            "verified": True,
            "bucket": "refused",
            "answer_features": nothing,
        }
    return {"low_score_action": None}


def route_after_assess_retrieval(state: AnswerState) -> Literal["trim_context", "finalize_answer"]:
    return "finalize_answer" if state.get("refused") or state.get("error") else "trim_context"
