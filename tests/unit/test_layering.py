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


GRAPH_PACKAGES = ("answer", "scan", "scorecard")


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", [*GRAPH_PACKAGES, "shared"])
def test_node_packages_do_not_import_their_siblings(package: str) -> None:
    """nodes/answer, nodes/scan and nodes/scorecard share code only through nodes/shared, which imports none of them."""
    siblings = {f"nodes.{other}" for other in GRAPH_PACKAGES if other != package}
    offenders = {
        f"{path.relative_to(ROOT)} → {module}"
        for path in (ROOT / "nodes" / package).rglob("*.py")
        for module in _imported_modules(path)
        if any(module == sibling or module.startswith(sibling + ".") for sibling in siblings)
    }
    assert not offenders


def test_the_sibling_check_sees_lazy_imports(tmp_path: Path) -> None:
    module = tmp_path / "lazy.py"
    module.write_text("def f():\n    from nodes.scorecard.results import CRITERIA\n    import nodes.scan.state\n")
    assert _imported_modules(module) == {"nodes.scorecard.results", "nodes.scan.state"}
