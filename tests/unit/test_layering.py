"""Dependencies point one way: stores ← nodes ← graphs ← evals. Checked on every import statement, lazy ones too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("stores", "nodes", "graphs", "evals")


def _imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_imports_only_the_layers_below(layer: str) -> None:
    above = set(LAYERS[LAYERS.index(layer) + 1 :]) | {"tests"}
    offenders = {
        f"{path.relative_to(ROOT)} → {', '.join(sorted(_imported_packages(path) & above))}"
        for path in (ROOT / layer).rglob("*.py")
        if _imported_packages(path) & above
    }
    assert not offenders
