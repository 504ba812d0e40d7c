"""Ranking evaluators: one relevant passage per query (``reference_outputs["gold"]``), ``outputs["ranking"]`` ids."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from evals.evaluators import EvaluationResult, result

Evaluator = Callable[[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]], EvaluationResult]


def _position(outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]) -> int | None:
    """1-based position of the gold passage in the ranking, None when it is missing."""
    ranking = list(outputs["ranking"])
    gold = reference_outputs["gold"]
    return ranking.index(gold) + 1 if gold in ranking else None


def recall_at(k: int) -> Evaluator:
    def recall(
        inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
    ) -> EvaluationResult:
        position = _position(outputs, reference_outputs)
        return result(f"recall@{k}", position is not None and position <= k, f"Position {position}")

    recall.__name__ = f"recall_at_{k}"
    return recall


def ndcg_at_10(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult:
    position = _position(outputs, reference_outputs)
    gain = 1.0 / math.log2(position + 1) if position is not None and position <= 10 else 0.0
    return result("ndcg@10", gain)


def reciprocal_rank(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult:
    position = _position(outputs, reference_outputs)
    return result("mrr", 1.0 / position if position is not None else 0.0)


RANKING_EVALUATORS: tuple[Evaluator, ...] = (recall_at(1), recall_at(5), recall_at(10), ndcg_at_10, reciprocal_rank)
