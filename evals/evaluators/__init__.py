"""Evaluators with LangSmith's signature ``(inputs, outputs, reference_outputs) -> {key, score, comment}``.

Deterministic evaluators only; each judges one example. Summary evaluators (balanced accuracy and the
like) take the lists of all examples' inputs, outputs and reference outputs, as LangSmith's do.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from typing_extensions import TypedDict


class EvaluationResult(TypedDict):
    key: str
    score: float
    comment: str


def result(key: str, score: float | bool, comment: str = "") -> EvaluationResult:
    return EvaluationResult(key=key, score=float(score), comment=comment)


def mean_scores(results: Iterable[EvaluationResult]) -> dict[str, tuple[float, int]]:
    """Mean score and number of examples per key."""
    scores: dict[str, list[float]] = defaultdict(list)
    for evaluation in results:
        scores[evaluation["key"]].append(evaluation["score"])
    return {key: (round(sum(values) / len(values), 4), len(values)) for key, values in scores.items()}
