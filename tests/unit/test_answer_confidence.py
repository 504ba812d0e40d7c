"""The answer confidence (features from the question and the delivered sentences, a monotone calibrated
model) and the relevance calibration's leave-one-dataset-out report: deterministic fits on small data."""

from __future__ import annotations

import numpy as np
import pytest

from evals.bench.calibrate import FeatureSet, fit_logistic, fit_sets, monotone_fit, transfer_report
from evals.bench.confidence import Row, confidence_report, fit
from nodes.answer.confidence import (
    FEATURES,
    ConfidenceModel,
    answer_confidence,
    confidence_features,
    question_coverage,
    shipped_model,
)
from stores.kb.models import Hit

QUESTION = "Wie viel Schaden muss der Geschädigte bei einer Sachbeschädigung selbst tragen?"
ANSWERS = (
    "Im Falle der Sachbeschädigung hat der Geschädigte einen Schaden bis zu einer Höhe von 500 Euro "
    "selbst zu tragen [ProdHaftG §11]."
)
UNRELATED = (
    "Für Rufbereitschaft im Fuhrpark wird je Tag eine Pauschale von 30 € gezahlt [lb-az-05].\n"
    "Während eines unbezahlten Urlaubs endet die Mitgliedschaft in der Sozialversicherung [lb-url-06]."
)


def _hit(entry_id: str, score: float) -> Hit:
    return Hit(
        entry_id=entry_id,
        chunk_id=f"{entry_id}#1",
        kb_id="kb",
        title="T",
        section="S",
        text="…",
        stand="2022-03",
        work="W",
        official=True,
        source_ref=None,
        cross_refs=(),
        score=score,
        rank=1,
    )


def test_features_measure_whether_the_sentences_address_the_question() -> None:
    good = confidence_features(QUESTION, ANSWERS, [_hit("ProdHaftG §11", 0.9)])
    off = confidence_features(QUESTION, UNRELATED, [_hit("lb-az-05", 0.9), _hit("lb-url-06", 0.4)])
    assert set(good) == set(FEATURES)
    assert good["coverage"] > 0.4 and good["focus"] == good["coverage"] and good["best_score"] == 0.9
    assert off["coverage"] == off["focus"] == 0.0 and off["best_score"] == 0.9
    assert question_coverage("und oder die", "x") == 1.0  # no content terms: nothing to cover


def test_an_answer_that_does_not_address_the_question_gets_no_high_confidence() -> None:
    """Whatever its retrieval scores and claim support, with the shipped model; doubted claims pull it down."""
    off = answer_confidence(QUESTION, UNRELATED, [_hit("lb-az-05", 1.0)], 1.0)
    good = answer_confidence(QUESTION, ANSWERS, [_hit("ProdHaftG §11", 0.9)], 1.0)
    assert off < 0.5 < good
    assert answer_confidence(QUESTION, ANSWERS, [_hit("ProdHaftG §11", 0.9)], 0.5) == pytest.approx(good / 2, abs=1e-3)


def test_the_model_is_monotone_and_rejects_negative_weights() -> None:
    model = shipped_model()
    base = {"coverage": 0.5, "focus": 0.5, "best_score": 0.5}
    for name in FEATURES:
        assert model.probability(base | {name: 0.9}) >= model.probability(base)
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        ConfidenceModel(intercept=0.0, coverage=-1.0)


def test_the_fit_is_deterministic_and_weighs_each_dataset_the_same() -> None:
    rng = np.random.default_rng(7)

    def rows(n: int, rate: float) -> list[Row]:
        found = []
        for _ in range(n):
            coverage = float(rng.uniform())
            label = bool(rng.uniform() < rate * coverage * 2)
            found.append(Row({"coverage": coverage, "focus": coverage, "best_score": 0.5}, label))
        return found

    sets = {"small": rows(40, 0.4), "large": rows(400, 0.4)}
    first, second = fit(sets), fit(sets)
    assert first == second and first["coverage"] + first["focus"] > 0
    report = confidence_report(sets)
    assert set(report["datasets"]) == {"small", "large"}
    assert 0.5 < report["datasets"]["large"]["fit"]["roc_auc"] <= 1.0
    assert report["datasets"]["small"]["left_out"]["answers"] == 40


def test_weighted_logistic_fit_matches_duplicated_rows() -> None:
    features = np.array([[0.1], [0.4], [0.6], [0.9], [0.3], [0.8]])
    labels = np.array([0.0, 0.0, 1.0, 1.0, 1.0, 0.0])
    weighted = fit_logistic(features, labels, weights=np.array([2.0, 1, 1, 1, 1, 1]))
    duplicated = fit_logistic(np.vstack([features[:1], features]), np.concatenate([labels[:1], labels]))
    assert np.allclose(weighted, duplicated)
    assert monotone_fit({"x": features[:, 0], "noise": -features[:, 0]}, labels)["x"] >= 0


def test_relevance_transfer_report_leaves_each_dataset_out_and_is_deterministic() -> None:
    rng = np.random.default_rng(11)

    def dataset(name: str, n: int, shift: float) -> FeatureSet:
        labels = [bool(x) for x in rng.uniform(size=n) < 0.7]
        dense = [float(0.8 + 0.08 * y + shift + rng.normal(0, 0.02)) for y in labels]
        sparse = [float(1.5 * y + rng.normal(0, 0.5)) for y in labels]
        return FeatureSet(name, sparse, dense, labels)

    sets = [dataset("xquad_de", 200, 0.0), dataset("law_dev", 40, 0.03), dataset("demo_dev", 40, -0.02)]
    first, second = transfer_report(sets, ("sparse", "dense")), transfer_report(sets, ("sparse", "dense"))
    assert first == second
    assert set(first["datasets"]) == {"xquad_de", "law_dev", "demo_dev"}
    assert first["worst_loo_roc_auc"] == min(r["loo_roc_auc"] for r in first["datasets"].values()) > 0.8
    assert (
        "xquad_only_roc_auc" in first["datasets"]["law_dev"]
        and "xquad_only_roc_auc" not in first["datasets"]["xquad_de"]
    )
    assert first["model"]["dense"] >= 0 and first["model"]["sparse"] >= 0
    assert fit_sets(sets[:1], ("sparse",)) == fit_sets(sets[:1], ("sparse",))
