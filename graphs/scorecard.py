"""The ``scorecard`` graph: DNA maturity, criteria K1–K7 in parallel branches, status, audit, human gate."""

from __future__ import annotations

from functools import cache, partial

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from graphs.settings import load_settings
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
from nodes.scorecard.resources import ResourcesProvider, ScorecardResources
from nodes.scorecard.state import ScorecardInput, ScorecardOutput, ScorecardState
from nodes.scorecard.status import decide_status
from nodes.shared.llm import create_chat_model, is_transient
from nodes.shared.strictness import get_strictness_config
from stores.brand.audit import AuditStore
from stores.brand.store import BrandStore
from stores.sql.engine import open_database
from stores.vector.embedders import create_embedder

JUDGE_STRICTNESS_LEVEL = 1  # lowest temperature, fixed seed: judges should be as repeatable as the provider allows
JUDGE_MAX_TOKENS = 1200
LLM_RETRY = RetryPolicy(retry_on=is_transient)


@cache
def resources_from_settings() -> ScorecardResources:
    """Stores, judge model and embedder as configured by ``BELEGT_*``; built on first use, not on import."""
    settings = load_settings()
    database = open_database(settings.resolved_database_url)
    strictness = get_strictness_config(JUDGE_STRICTNESS_LEVEL)
    return ScorecardResources(
        brands=BrandStore(database),
        audit=AuditStore(database),
        chat_model=create_chat_model(settings.provider, strictness, settings, max_tokens=JUDGE_MAX_TOKENS),
        provider=settings.provider,
        embedder=create_embedder(settings),
    )


def build_scorecard(
    resources: ResourcesProvider = resources_from_settings,
) -> StateGraph[ScorecardState, ScorecardContext, ScorecardInput, ScorecardOutput]:
    builder = StateGraph(
        ScorecardState, context_schema=ScorecardContext, input_schema=ScorecardInput, output_schema=ScorecardOutput
    )
    builder.add_node("load_brand_dna", partial(load_brand_dna, resources=resources))
    builder.add_node(assess_maturity)
    builder.add_node("check_identity", partial(check_identity, resources=resources), retry_policy=LLM_RETRY)
    builder.add_node("check_positioning", partial(check_positioning, resources=resources), retry_policy=LLM_RETRY)
    builder.add_node("check_tone", partial(check_tone, resources=resources), retry_policy=LLM_RETRY)
    builder.add_node("check_topics", partial(check_topics, resources=resources))
    builder.add_node(
        "check_decision_strength", partial(check_decision_strength, resources=resources), retry_policy=LLM_RETRY
    )
    builder.add_node(check_boundaries)
    builder.add_node(check_dna_version)
    builder.add_node(decide_status)
    builder.add_node("record_audit", partial(record_audit, resources=resources))
    builder.add_node("request_owner_release", partial(request_owner_release, resources=resources))

    builder.add_edge(START, "load_brand_dna")
    builder.add_edge("load_brand_dna", "assess_maturity")
    builder.add_conditional_edges("assess_maturity", fan_out_criteria, list(CRITERION_NODES.values()))
    for node in CRITERION_NODES.values():
        builder.add_edge(node, "decide_status")
    builder.add_edge("decide_status", "record_audit")
    builder.add_conditional_edges("record_audit", route_after_record_audit)
    builder.add_edge("request_owner_release", END)
    return builder


builder = build_scorecard()
graph = builder.compile(name="scorecard")
