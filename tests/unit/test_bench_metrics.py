"""Benchmark arithmetic: ranking metrics, ROC AUC, threshold rates, fold split, the logistic fit, paired timing."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from evals.bench.calibrate import fit_logistic, monotone_fit
from evals.bench.data import article_fold
from evals.bench.retrieval import latency_figures, ranking_metrics, threshold_rates
from evals.bench.scorecard_rules import interleaved_samples, paired_speedup
from evals.evaluators.calibration import roc_auc


def test_ranking_metrics_on_a_hand_computed_example() -> None:
    rankings = [["a", "b"], ["x", "y", "c"], ["p"] * 10]
    metrics = ranking_metrics(rankings, [{"a": 1}, {"c": 1}, {"missing": 1}])
    assert metrics["recall@1"] == pytest.approx(1 / 3, abs=1e-4)
    assert metrics["recall@5"] == pytest.approx(2 / 3, abs=1e-4)
    assert metrics["mrr"] == pytest.approx((1 + 1 / 3) / 3, abs=1e-4)
    assert metrics["ndcg@10"] == pytest.approx((1 + 1 / math.log2(4)) / 3, abs=1e-4)


def test_roc_auc_and_threshold_rates() -> None:
    assert roc_auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert roc_auc([0.5], [0.5]) == 0.5
    assert roc_auc([0.1], [0.9]) == 0.0
    rates = threshold_rates([0.9, 0.6, 0.3], [0.75, 0.1])
    assert rates["0.80"] == {"answerable": round(1 / 3, 4), "unanswerable": 0.0}
    assert rates["0.70"] == {"answerable": round(1 / 3, 4), "unanswerable": 0.5}
    assert rates["0.00"] == {"answerable": 1.0, "unanswerable": 1.0}


def test_latency_percentiles() -> None:
    figures = latency_figures([i / 1000 for i in range(1, 101)])
    assert figures == {"p50_ms": 50.5, "p95_ms": 95.0}


def test_article_folds_split_every_sixth_article_evenly() -> None:
    articles = [f"A{i:02d}" for i in range(48)]
    held_out = articles[::6]
    assert sorted(article_fold(a, articles) for a in held_out) == [0, 0, 0, 0, 1, 1, 1, 1]
    assert sum(article_fold(a, articles) for a in articles) == 24


def test_logistic_fit_recovers_known_coefficients() -> None:
    rng = np.random.default_rng(7)
    features = rng.normal(size=(4000, 2))
    true = np.array([-0.5, 2.0, 1.0])
    labels = (rng.random(4000) < 1 / (1 + np.exp(-(true[0] + features @ true[1:])))).astype(float)
    assert fit_logistic(features, labels) == pytest.approx(true, abs=0.2)


def test_monotone_fit_drops_a_feature_that_would_lower_the_score() -> None:
    rng = np.random.default_rng(3)
    good, bad = rng.normal(size=2000), rng.normal(size=2000)
    labels = (rng.random(2000) < 1 / (1 + np.exp(-(2 * good - 1.5 * bad)))).astype(float)
    fitted = monotone_fit({"sparse": good, "dense": bad}, labels)
    assert "dense" not in fitted and fitted["sparse"] > 0


def test_scorecard_bench_takes_turns_and_pairs_each_round() -> None:
    calls: list[str] = []

    def run(name: str) -> Callable[[], int]:
        def once() -> int:
            calls.append(name)
            return len(name)

        return once

    times, hits = interleaved_samples(range(3), {"ours": run("ours"), "baseline": run("baseline")}, min_sample_s=0.0)
    assert calls == ["ours", "baseline"] + ["ours", "baseline"] * 3  # a timing pass each, then 3 rounds
    assert hits == {"ours": 4, "baseline": 8} and all(len(samples) == 3 for samples in times.values())
    paired = {"ours": [1.0, 2.0, 1.0], "baseline": [100.0, 100.0, 150.0]}
    assert paired_speedup(paired, "ours", "baseline") == 100.0  # median of 100, 50 and 150
