"""Summary evaluator for set-valued outputs: scorecard rule ids per text, scan findings per document."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evals.evaluators import EvaluationResult, result


def set_agreement(
    inputs: Sequence[Mapping[str, Any]],
    outputs: Sequence[Mapping[str, Any]],
    reference_outputs: Sequence[Mapping[str, Any]],
) -> list[EvaluationResult]:
    """Micro-averaged precision and recall of ``outputs[i]["found"]`` against ``reference_outputs[i]["expected"]``.

    Precision is 1.0 when nothing was found (nothing wrong was claimed); recall is 1.0 when nothing was expected.
    """
    found = [set(o["found"]) for o in outputs]
    expected = [set(r["expected"]) for r in reference_outputs]
    hits = sum(len(f & e) for f, e in zip(found, expected, strict=True))
    claimed, wanted = sum(len(f) for f in found), sum(len(e) for e in expected)
    extra = sorted(str(x) for f, e in zip(found, expected, strict=True) for x in f - e)
    missed = sorted(str(x) for f, e in zip(found, expected, strict=True) for x in e - f)
    return [
        result("precision", round(hits / claimed, 4) if claimed else 1.0, f"{hits}/{claimed}; zu viel: {extra}"),
        result("recall", round(hits / wanted, 4) if wanted else 1.0, f"{hits}/{wanted}; fehlt: {missed}"),
    ]
