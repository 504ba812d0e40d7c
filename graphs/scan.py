"""The ``scan`` graph: closed-world review of a stored document against one catalogue version.

chunk_pages → retrieve_clauses → record_findings (one Send per chunk) → verify_quotes (database trigger)
→ critique_finding (one Send per finding) → assign_buckets → [review_findings] → store_findings → write_report
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.types import RetryPolicy

from nodes.scan.chunk import chunk_pages
from nodes.scan.clauses import retrieve_clauses
from nodes.scan.context import ScanContext
from nodes.scan.critique import critique_finding, fan_out_findings
from nodes.scan.findings import fan_out_chunks, record_findings, verify_quotes
from nodes.scan.report import write_report
from nodes.scan.route import assign_buckets, review_findings, route_after_assign_buckets
from nodes.scan.state import ScanInput, ScanOutput, ScanState
from nodes.scan.store import store_findings
from nodes.shared.llm import is_transient

LLM_RETRY = RetryPolicy(max_attempts=3, initial_interval=1.0, retry_on=is_transient)

builder = StateGraph(ScanState, context_schema=ScanContext, input_schema=ScanInput, output_schema=ScanOutput)
builder.add_node(chunk_pages)
builder.add_node(retrieve_clauses)
builder.add_node(record_findings, retry_policy=LLM_RETRY)
builder.add_node(verify_quotes)
builder.add_node(critique_finding, retry_policy=LLM_RETRY)
builder.add_node(assign_buckets)
builder.add_node(review_findings)
builder.add_node(store_findings)
builder.add_node(write_report)

builder.add_edge(START, "chunk_pages")
builder.add_edge("chunk_pages", "retrieve_clauses")
builder.add_conditional_edges("retrieve_clauses", fan_out_chunks, ["record_findings"])
builder.add_edge("record_findings", "verify_quotes")
builder.add_conditional_edges("verify_quotes", fan_out_findings, ["critique_finding", "assign_buckets"])
builder.add_edge("critique_finding", "assign_buckets")
builder.add_conditional_edges("assign_buckets", route_after_assign_buckets)
builder.add_edge("review_findings", "store_findings")
builder.add_edge("store_findings", "write_report")
builder.add_edge("write_report", END)

graph = builder.compile(name="scan")
