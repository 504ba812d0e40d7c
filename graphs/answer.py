"""The answer graph: grounded answers that cite KB IDs, validated, critiqued and routed by confidence.

resolve_policy → screen_input → plan_queries → retrieve_passages → assess_retrieval → trim_context
→ assess_answerability (refuse | [summarize_blocks …]) → draft_answer
→ validate_answer ⟲ regenerate_answer (once) | withhold_answer
→ critique_answer → review_answer | hold_for_review (below threshold) → finalize_answer
"""

from __future__ import annotations

from functools import partial

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from graphs.resources import app_resources
from nodes.answer.answerability import assess_answerability, route_after_assess_answerability
from nodes.answer.context import AnswerContext
from nodes.answer.critique import critique_answer, route_after_critique_answer
from nodes.answer.draft import draft_answer
from nodes.answer.failure import refuse_after_provider_failure, skip_group_after_provider_failure
from nodes.answer.finalize import finalize_answer
from nodes.answer.mapreduce import summarize_blocks
from nodes.answer.plan import plan_queries
from nodes.answer.policy import resolve_policy
from nodes.answer.regenerate import regenerate_answer, withhold_answer
from nodes.answer.retrieve import assess_retrieval, retrieve_passages, route_after_assess_retrieval
from nodes.answer.review import hold_for_review, review_answer
from nodes.answer.screen import route_after_screen_input, screen_input
from nodes.answer.services import AnswerServices
from nodes.answer.state import AnswerInput, AnswerOutput, AnswerState
from nodes.answer.trim import trim_context
from nodes.answer.validate import route_after_validate_answer, validate_answer
from nodes.shared.llm import is_transient

LLM_RETRY = RetryPolicy(max_attempts=3, initial_interval=1.0, retry_on=is_transient)
STORE_RETRY = RetryPolicy(max_attempts=2, initial_interval=0.5)


def build_answer_graph(services: AnswerServices) -> StateGraph[AnswerState, AnswerContext, AnswerInput, AnswerOutput]:
    """Wire the nodes; ``services`` supplies the KB, bots, models and record sink."""
    builder = StateGraph(
        AnswerState, context_schema=AnswerContext, input_schema=AnswerInput, output_schema=AnswerOutput
    )
    builder.add_node("resolve_policy", partial(resolve_policy, services=services), retry_policy=STORE_RETRY)
    builder.add_node(screen_input)
    builder.add_node("plan_queries", partial(plan_queries, services=services))
    builder.add_node("retrieve_passages", partial(retrieve_passages, services=services), retry_policy=STORE_RETRY)
    builder.add_node(assess_retrieval)
    builder.add_node(trim_context)
    builder.add_node("assess_answerability", partial(assess_answerability, services=services))
    builder.add_node(
        "summarize_blocks",
        partial(summarize_blocks, services=services),
        retry_policy=LLM_RETRY,
        error_handler=skip_group_after_provider_failure,
    )
    builder.add_node(
        "draft_answer",
        partial(draft_answer, services=services),
        retry_policy=LLM_RETRY,
        error_handler=refuse_after_provider_failure,
    )
    builder.add_node(validate_answer)
    builder.add_node(
        "regenerate_answer",
        partial(regenerate_answer, services=services),
        retry_policy=LLM_RETRY,
        error_handler=refuse_after_provider_failure,
    )
    builder.add_node(withhold_answer)
    builder.add_node("critique_answer", partial(critique_answer, services=services))
    builder.add_node(review_answer)
    builder.add_node(hold_for_review)
    builder.add_node("finalize_answer", partial(finalize_answer, services=services), retry_policy=STORE_RETRY)

    builder.add_edge(START, "resolve_policy")
    builder.add_edge("resolve_policy", "screen_input")
    builder.add_conditional_edges("screen_input", route_after_screen_input)
    builder.add_edge("plan_queries", "retrieve_passages")
    builder.add_edge("retrieve_passages", "assess_retrieval")
    builder.add_conditional_edges("assess_retrieval", route_after_assess_retrieval)
    builder.add_edge("trim_context", "assess_answerability")
    builder.add_conditional_edges(
        "assess_answerability",
        route_after_assess_answerability,
        ["summarize_blocks", "draft_answer", "finalize_answer"],
    )
    builder.add_edge("summarize_blocks", "draft_answer")
    builder.add_edge("draft_answer", "validate_answer")
    builder.add_conditional_edges("validate_answer", route_after_validate_answer)
    builder.add_edge("regenerate_answer", "validate_answer")
    builder.add_edge("withhold_answer", "finalize_answer")
    builder.add_conditional_edges("critique_answer", route_after_critique_answer)
    builder.add_edge("review_answer", "finalize_answer")
    builder.add_edge("hold_for_review", "finalize_answer")
    builder.add_edge("finalize_answer", END)
    return builder


builder = build_answer_graph(app_resources())
graph = builder.compile(name="answer")
