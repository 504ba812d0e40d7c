"""Topology snapshots of the three exported graphs: the edge list Studio draws and the context JSON schema.

    .venv/bin/python -m tests.graph.topology      # rewrite the snapshots after an intended graph change

Each graph has ``<name>.json`` beside this file; tests/graph/test_topology.py compares the exported graph with it.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from typing import Any

GRAPHS = ("answer", "scan", "scorecard")
FOLDER = Path(__file__).resolve().parent
REGENERATE = ".venv/bin/python -m tests.graph.topology"
# "a --> b;" is a plain edge, "a -.-> b;" a conditional one; mermaid may put a label between the dashes
_EDGE = re.compile(r"^\s*(\S+) (-->|-\.->|-\.\s.*?\s\.->|--\s.*?\s-->) (\S+);$")


def edges_from_mermaid(mermaid: str) -> list[str]:
    """Every edge of the drawing as ``source --> target`` or ``source -.-> target`` (conditional), sorted."""
    edges = []
    for line in mermaid.splitlines():
        match = _EDGE.match(line)
        if match:
            source, arrow, target = match.groups()
            edges.append(f"{source} {'-.->' if arrow.startswith('-.') else '-->'} {target}")
    return sorted(edges)


def snapshot(name: str) -> dict[str, Any]:
    graph = importlib.import_module(f"graphs.{name}").graph
    return {
        "edges": edges_from_mermaid(graph.get_graph().draw_mermaid()),
        "context_schema": graph.get_context_jsonschema(),
    }


def snapshot_path(name: str) -> Path:
    return FOLDER / f"{name}.json"


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def write_all() -> list[Path]:
    paths = []
    for name in GRAPHS:
        path = snapshot_path(name)
        path.write_text(render(snapshot(name)), encoding="utf-8")
        paths.append(path)
    return paths
