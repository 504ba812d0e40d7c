"""Every exported graph matches its checked-in topology: edges (plain and conditional) and context schema."""

from __future__ import annotations

import pytest

from tests.graph.topology import GRAPHS, REGENERATE, edges_from_mermaid, render, snapshot, snapshot_path


@pytest.mark.parametrize("name", GRAPHS)
def test_graph_matches_its_snapshot(name: str) -> None:
    path = snapshot_path(name)
    assert path.exists(), f"{path.name} fehlt: {REGENERATE}"
    current = render(snapshot(name))
    assert current == path.read_text(encoding="utf-8"), (
        f"graphs/{name}.py changed its topology or context schema; if intended, regenerate with: {REGENERATE}"
    )


def test_the_edge_parser_keeps_plain_and_conditional_edges_apart() -> None:
    mermaid = "\n".join(
        [
            "graph TD;",
            "\ta(a)",
            "\t__start__ --> a;",
            "\ta -.-> b;",
            "\ta -. &nbsp;retry&nbsp; .-> a;",
            "\tb --> __end__;",
            "\tclassDef default fill:#f2f0ff",
        ]
    )
    assert edges_from_mermaid(mermaid) == ["__start__ --> a", "a -.-> a", "a -.-> b", "b --> __end__"]


def test_every_graph_has_edges_and_a_context_schema() -> None:
    for name in GRAPHS:
        data = snapshot(name)
        assert len(data["edges"]) >= 10 and data["context_schema"]["properties"]
