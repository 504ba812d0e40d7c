"""How well scores separate and how well probabilities are calibrated: ROC AUC and expected calibration error."""

from __future__ import annotations

from collections.abc import Sequence


def roc_auc(positives: Sequence[float], negatives: Sequence[float]) -> float:
    """Probability that a random positive scores above a random negative (ties count half)."""
    if not positives or not negatives:
        return float("nan")
    ordered = sorted([(s, 1) for s in positives] + [(s, 0) for s in negatives])
    rank_sum, i = 0.0, 0
    while i < len(ordered):  # rank sums with ties averaged: O(n log n) instead of all pairs
        j = i
        while j < len(ordered) and ordered[j][0] == ordered[i][0]:
            j += 1
        rank_sum += (i + j + 1) / 2 * sum(label for _, label in ordered[i:j])
        i = j
    wins = rank_sum - len(positives) * (len(positives) + 1) / 2
    return round(wins / (len(positives) * len(negatives)), 4)


def expected_calibration_error(probabilities: Sequence[float], labels: Sequence[bool], *, bins: int = 10) -> float:
    """Mean |observed rate − mean probability| over equal-width probability bins, weighted by bin size."""
    if not probabilities:
        return float("nan")
    error = 0.0
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        members = [
            (p, y) for p, y in zip(probabilities, labels, strict=True) if low <= p < high or (b == bins - 1 and p == 1)
        ]
        if members:
            mean_p = sum(p for p, _ in members) / len(members)
            rate = sum(y for _, y in members) / len(members)
            error += len(members) / len(probabilities) * abs(rate - mean_p)
    return round(error, 4)
