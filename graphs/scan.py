"""The ``scan`` graph: closed-world review of a stored document against one catalogue version.

check_models → chunk_pages → retrieve_clauses → record_findings (one Send per chunk) → verify_quotes (database trigger)
→ critique_finding (one Send per finding) → assign_buckets → [review_findings] → store_findings → write_report
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property, partial

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from graphs.resources import AppResources, app_resources
from nodes.scan.chunk import chunk_pages
from nodes.scan.clauses import retrieve_clauses
from nodes.scan.context import ScanContext
from nodes.scan.critique import critique_finding, fan_out_findings
from nodes.scan.findings import fan_out_chunks, record_findings, verify_quotes
from nodes.scan.models import check_models
from nodes.scan.report import write_report
from nodes.scan.route import assign_buckets, review_findings, route_after_assign_buckets
from nodes.scan.services import (
    CRITIC_MAX_TOKENS,
    FINDINGS_MAX_TOKENS,
    SCAN_STRICTNESS_LEVEL,
    ScanServices,
    require_model,
)
from nodes.scan.state import ScanInput, ScanOutput, ScanState
from nodes.scan.store import store_findings
from nodes.shared.llm import is_transient
from nodes.shared.strictness import get_strictness_config
from stores.scan.clause_index import ClauseIndex
from stores.sql.engine import Database

LLM_RETRY = RetryPolicy(max_attempts=3, initial_interval=1.0, retry_on=is_transient)


class ResourceScanServices:
    """ScanServices on the process-wide resources, opened on first use (one vector engine per process)."""

    def __init__(self, resources: Callable[[], AppResources]) -> None:
        self._resources = resources

    @property
    def database(self) -> Database:
        return self._resources().database

    @cached_property
    def clauses(self) -> ClauseIndex:
        resources = self._resources()
        return ClauseIndex.from_settings(resources.settings, engine=resources.vectors, embedder=resources.embedder)

    @property
    def provider(self) -> str:
        return self._resources().default_provider

    @cached_property
    def finding_model(self) -> BaseChatModel:
        return self._model(FINDINGS_MAX_TOKENS)

    @cached_property
    def critic_model(self) -> BaseChatModel:
        return self._model(CRITIC_MAX_TOKENS)

    def _model(self, max_tokens: int) -> BaseChatModel:
        resources = self._resources()
        strictness = get_strictness_config(SCAN_STRICTNESS_LEVEL)
        return require_model(
            resources.chat_model(resources.default_provider, strictness, model=None, max_tokens=max_tokens)
        )


def build_scan_graph(services: ScanServices) -> StateGraph[ScanState, ScanContext, ScanInput, ScanOutput]:
    """Wire the nodes; ``services`` supplies the database, the clause index and the two models."""
    builder = StateGraph(ScanState, context_schema=ScanContext, input_schema=ScanInput, output_schema=ScanOutput)
    builder.add_node("check_models", partial(check_models, services=services))
    builder.add_node("chunk_pages", partial(chunk_pages, services=services))
    builder.add_node("retrieve_clauses", partial(retrieve_clauses, services=services))
    builder.add_node("record_findings", partial(record_findings, services=services), retry_policy=LLM_RETRY)
    builder.add_node("verify_quotes", partial(verify_quotes, services=services))
    builder.add_node("critique_finding", partial(critique_finding, services=services), retry_policy=LLM_RETRY)
    builder.add_node(assign_buckets)
    builder.add_node(review_findings)
    builder.add_node("store_findings", partial(store_findings, services=services))
    builder.add_node("write_report", partial(write_report, services=services))

    builder.add_edge(START, "check_models")
    builder.add_edge("check_models", "chunk_pages")
    builder.add_edge("chunk_pages", "retrieve_clauses")
    builder.add_conditional_edges("retrieve_clauses", fan_out_chunks, ["record_findings"])
    builder.add_edge("record_findings", "verify_quotes")
    builder.add_conditional_edges("verify_quotes", fan_out_findings, ["critique_finding", "assign_buckets"])
    builder.add_edge("critique_finding", "assign_buckets")
    builder.add_conditional_edges("assign_buckets", route_after_assign_buckets)
    builder.add_edge("review_findings", "store_findings")
    builder.add_edge("store_findings", "write_report")
    builder.add_edge("write_report", END)
    return builder


builder = build_scan_graph(ResourceScanServices(app_resources))
graph = builder.compile(name="scan")
