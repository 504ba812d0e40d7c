"""The ``scorecard`` graph: DNA maturity, criteria K1–K7 in parallel branches, status, audit, human gate."""

from __future__ import annotations

from functools import partial

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from graphs.resources import app_resources
from nodes.scorecard.audit_log import record_audit
from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.gate import request_owner_release, route_after_record_audit
from nodes.scorecard.intake import CRITERION_NODES, assess_maturity, fan_out_criteria, load_brand_dna
from nodes.scorecard.k1_identity import check_identity
from nodes.scorecard.k2_positioning import check_positioning
from nodes.scorecard.k3_tone import check_tone
from nodes.scorecard.k4_topics import check_topics
from nodes.scorecard.k5_decision import check_decision_strength
from nodes.scorecard.k6_boundaries import check_boundaries
from nodes.scorecard.k7_version import check_dna_version
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardInput, ScorecardOutput, ScorecardState
from nodes.scorecard.status import decide_status
from nodes.shared.llm import is_transient

LLM_RETRY = RetryPolicy(max_attempts=3, initial_interval=1.0, retry_on=is_transient)
STORE_RETRY = RetryPolicy(max_attempts=2, initial_interval=0.5)


def build_scorecard(
    services: ScorecardServices,
) -> StateGraph[ScorecardState, ScorecardContext, ScorecardInput, ScorecardOutput]:
    """Wire the nodes; ``services`` supplies brand DNA, audit sink, judge models and embedder."""
    builder = StateGraph(
        ScorecardState, context_schema=ScorecardContext, input_schema=ScorecardInput, output_schema=ScorecardOutput
    )
    builder.add_node("load_brand_dna", partial(load_brand_dna, services=services), retry_policy=STORE_RETRY)
    builder.add_node(assess_maturity)
    builder.add_node("check_identity", partial(check_identity, services=services), retry_policy=LLM_RETRY)
    builder.add_node("check_positioning", partial(check_positioning, services=services), retry_policy=LLM_RETRY)
    builder.add_node("check_tone", partial(check_tone, services=services), retry_policy=LLM_RETRY)
    builder.add_node("check_topics", partial(check_topics, services=services))
    builder.add_node(
        "check_decision_strength", partial(check_decision_strength, services=services), retry_policy=LLM_RETRY
    )
    builder.add_node(check_boundaries)
    builder.add_node(check_dna_version)
    builder.add_node(decide_status)
    builder.add_node("record_audit", partial(record_audit, services=services), retry_policy=STORE_RETRY)
    builder.add_node("request_owner_release", partial(request_owner_release, services=services))

    builder.add_edge(START, "load_brand_dna")
    builder.add_edge("load_brand_dna", "assess_maturity")
    builder.add_conditional_edges("assess_maturity", fan_out_criteria, [*CRITERION_NODES.values(), "decide_status"])
    for node in CRITERION_NODES.values():
        builder.add_edge(node, "decide_status")
    builder.add_edge("decide_status", "record_audit")
    builder.add_conditional_edges("record_audit", route_after_record_audit)
    builder.add_edge("request_owner_release", END)
    return builder


builder = build_scorecard(app_resources())
graph = builder.compile(name="scorecard")
