"""The exported ``scan`` graph: context schema, retry policies and the no-LLM stop (edges: test_topology.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from langgraph.types import RetryPolicy

from graphs.resources import app_resources
from graphs.scan import builder, graph
from nodes.scan.services import NoScanModel
from nodes.shared.llm import is_transient


@pytest.fixture(autouse=True)
def _fresh_resources() -> Iterator[None]:
    """app_resources() is shared per process; closing it makes the next use read this test's (empty) environment."""
    app_resources().close()
    yield
    app_resources().close()


def test_context_schema_holds_only_run_settings() -> None:
    properties = graph.get_context_jsonschema()["properties"]  # type: ignore[index]
    assert set(properties) == {"confidence_threshold", "chunk_chars", "review"}
    assert properties["confidence_threshold"]["default"] == 0.7


def test_llm_nodes_retry_only_transient_provider_errors() -> None:
    for name in ("record_findings", "critique_finding"):
        policy = builder.nodes[name].retry_policy
        assert isinstance(policy, RetryPolicy) and policy.retry_on is is_transient


def test_without_a_model_the_graph_stops_before_any_work() -> None:
    with pytest.raises(NoScanModel, match="Sprachmodell"):
        graph.invoke({"scan_id": "s", "document_id": "d"})
    assert not Path("var").exists()
