"""The ``scan`` graph: closed-world review of a stored document against one catalogue version.

check_models → prepare_catalog (index current) → chunk_pages → retrieve_clauses → record_findings (one Send
per chunk) → verify_quotes (database trigger) → critique_finding (one Send per finding) → assign_buckets
→ [review_findings] → store_findings → write_report
"""

from __future__ import annotations

from functools import partial

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from graphs.resources import ScanResources, app_resources
from nodes.scan.chunk import chunk_pages
from nodes.scan.clauses import prepare_catalog, retrieve_clauses
from nodes.scan.context import ScanContext
from nodes.scan.critique import critique_finding, fan_out_findings
from nodes.scan.findings import fan_out_chunks, record_findings, verify_quotes
from nodes.scan.models import check_models
from nodes.scan.report import write_report
from nodes.scan.review import review_findings
from nodes.scan.route import assign_buckets, route_after_assign_buckets
from nodes.scan.services import ScanServices
from nodes.scan.state import ScanInput, ScanOutput, ScanState
from nodes.scan.store import store_findings
from nodes.shared.llm import is_transient

LLM_RETRY = RetryPolicy(max_attempts=3, initial_interval=1.0, retry_on=is_transient)


def build_scan_graph(services: ScanServices) -> StateGraph[ScanState, ScanContext, ScanInput, ScanOutput]:
    """Wire the nodes; ``services`` supplies documents, catalogue, clause index, finding store and the two models."""
    builder = StateGraph(ScanState, context_schema=ScanContext, input_schema=ScanInput, output_schema=ScanOutput)
    builder.add_node("check_models", partial(check_models, services=services))
    builder.add_node("prepare_catalog", partial(prepare_catalog, services=services))
    builder.add_node("chunk_pages", partial(chunk_pages, services=services))
    builder.add_node("retrieve_clauses", partial(retrieve_clauses, services=services))
    builder.add_node("record_findings", partial(record_findings, services=services), retry_policy=LLM_RETRY)
    builder.add_node("verify_quotes", partial(verify_quotes, services=services))
    builder.add_node("critique_finding", partial(critique_finding, services=services), retry_policy=LLM_RETRY)
    builder.add_node(assign_buckets)
    builder.add_node("review_findings", partial(review_findings, services=services))
    builder.add_node("store_findings", partial(store_findings, services=services))
    builder.add_node("write_report", partial(write_report, services=services))

    builder.add_edge(START, "check_models")
    builder.add_edge("check_models", "prepare_catalog")
    builder.add_edge("prepare_catalog", "chunk_pages")
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


builder = build_scan_graph(ScanResources(app_resources()))
graph = builder.compile(name="scan")
