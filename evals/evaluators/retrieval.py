"""Ranking evaluators over ``outputs["ranking"]`` ids.

The relevant passages are ``reference_outputs["relevant"]`` (id → grade > 0, as in BEIR qrels) or a single
``reference_outputs["gold"]``. recall@k is the share of relevant passages in the top k, nDCG@10 uses the
grades as gains, MRR the first relevant passage; with one relevant passage these are the usual hit figures.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from evals.evaluators import EvaluationResult, result

Evaluator = Callable[[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]], EvaluationResult]


def _relevant(reference_outputs: Mapping[str, Any]) -> Mapping[str, int]:
    relevant: Mapping[str, int] | None = reference_outputs.get("relevant")
    return relevant if relevant is not None else {reference_outputs["gold"]: 1}


def _positions(outputs: Mapping[str, Any], relevant: Mapping[str, int]) -> list[int]:
    """1-based positions of the relevant passages in the ranking."""
    return [position for position, pid in enumerate(outputs["ranking"], start=1) if pid in relevant]


def recall_at(k: int) -> Evaluator:
    def recall(
        inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
    ) -> EvaluationResult:
        relevant = _relevant(reference_outputs)
        positions = _positions(outputs, relevant)
        found = sum(1 for position in positions if position <= k)
        return result(f"recall@{k}", found / len(relevant), f"Positionen {positions}")

    recall.__name__ = f"recall_at_{k}"
    return recall


def ndcg_at_10(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult:
    relevant = _relevant(reference_outputs)
    ranking = list(outputs["ranking"])[:10]
    gain = sum(relevant.get(pid, 0) / math.log2(position + 1) for position, pid in enumerate(ranking, start=1))
    ideal = sum(g / math.log2(position + 1) for position, g in enumerate(sorted(relevant.values())[::-1][:10], 1))
    return result("ndcg@10", gain / ideal if ideal else 0.0)


def reciprocal_rank(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult:
    positions = _positions(outputs, _relevant(reference_outputs))
    return result("mrr", 1.0 / positions[0] if positions else 0.0)


RANKING_EVALUATORS: tuple[Evaluator, ...] = (recall_at(1), recall_at(5), recall_at(10), ndcg_at_10, reciprocal_rank)
