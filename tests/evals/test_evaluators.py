"""Evaluators: each one against hand-made outputs whose right score is known."""

from __future__ import annotations

import math
from typing import Any

import pytest

from evals.bench.retrieval import ranking_metrics
from evals.evaluators import EvaluationResult, mean_scores
from evals.evaluators.answers import (
    behaviour_matches,
    citation_precision,
    citation_recall,
    citation_validity,
    gold_span_cited,
    gold_span_first,
    grounded_fact,
    low_score_notice,
    mentions,
    refused,
    statements_per_answer,
    unsupported_number,
)
from evals.evaluators.classification import unsupported_detection
from evals.evaluators.retrieval import ndcg_at_10, recall_at, reciprocal_rank
from evals.evaluators.sets import set_agreement

CONTEXT = {
    "lb-url-01": "Erholungsurlaub Stand 2026-01\nBeschäftigte in Vollzeit erhalten 30 Arbeitstage Urlaub.",
    "lb-url-02": "Resturlaub Stand 2026-01\nResturlaub verfällt am 31. März.",
    "wk-faq-01": "FAQ Stand 2025-10 (nicht amtlich)\nDie Abrechnung erscheint drei Tage vor dem Zahltag.",
}


def score(evaluation: EvaluationResult | None) -> float:
    assert evaluation is not None
    return evaluation["score"]


def output(answer: str, citations: list[str], bucket: str = "delivered", notices: list[str] | None = None) -> Any:
    return {"answer": answer, "citations": citations, "bucket": bucket, "notices": notices or [], "context": CONTEXT}


def reference(behaviour: str, citations: list[str], **more: Any) -> dict[str, Any]:
    return {"behaviour": behaviour, "citations": citations, "acceptable": [], "must_contain": []} | more


def test_ranking_evaluators_score_the_gold_position() -> None:
    ranked = {"ranking": ["a", "b", "gold", "c"]}
    gold = {"gold": "gold"}
    assert [recall_at(k)({}, ranked, gold)["score"] for k in (1, 2, 3, 10)] == [0.0, 0.0, 1.0, 1.0]
    assert reciprocal_rank({}, ranked, gold)["score"] == pytest.approx(1 / 3)
    assert ndcg_at_10({}, ranked, gold)["score"] == pytest.approx(0.5)
    assert reciprocal_rank({}, {"ranking": ["a"]}, gold)["score"] == 0.0


def test_ranking_metrics_average_the_evaluators() -> None:
    figures = ranking_metrics([["g1", "x"], ["x", "g2"], ["x", "y"]], [{"g1": 1}, {"g2": 1}, {"g3": 1}])
    assert figures["recall@1"] == pytest.approx(0.3333)
    assert figures["recall@5"] == pytest.approx(0.6667)
    assert figures["mrr"] == pytest.approx(0.5)


def test_graded_relevance_with_several_passages_per_query() -> None:
    ranked = {"ranking": ["a", "x", "b"]}
    relevant = {"relevant": {"a": 1, "b": 2, "c": 1}}
    assert [recall_at(k)({}, ranked, relevant)["score"] for k in (1, 3)] == pytest.approx([1 / 3, 2 / 3])
    ideal = 2 + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at_10({}, ranked, relevant)["score"] == pytest.approx((1 + 2 / math.log2(4)) / ideal)
    assert reciprocal_rank({}, {"ranking": ["x", "b"]}, relevant)["score"] == 0.5


def test_mentions_reads_numbers_in_any_notation_and_text_loosely() -> None:
    assert mentions("Die Aufstockung beträgt 28.5 %.", "28,5")
    assert not mentions("Es gibt 300 € Zuschuss.", "3")
    assert mentions("am  letzten\nBankarbeitstag", "letzten Bankarbeitstag")


def test_refusal_and_gold_span() -> None:
    gold = {"answerable": True, "gold_passage": "p-1", "answers": ["308"]}
    delivered = output("Die Verteidigung gab 308 Punkte ab [p-1].", ["p-1"])
    assert refused({}, delivered, gold)["score"] == 0.0
    assert refused({}, output("Keine Info.", [], bucket="human_review"), gold)["score"] == 1.0
    assert score(gold_span_cited({}, delivered, gold)) == 1.0
    assert score(gold_span_cited({}, output("Es waren 308 Punkte [p-2].", ["p-2"]), gold)) == 0.0
    assert gold_span_cited({}, delivered, {**gold, "answerable": False}) is None


def test_the_fact_first_and_the_statements_of_an_answer() -> None:
    gold = {"answerable": True, "gold_passage": "p-1", "answers": ["308"]}
    first = output(
        "- Die Verteidigung gab 308 Punkte ab [p-1].\n- Sie war Sechste [p-1].\n\nStand: 2019-10 [p-1].", ["p-1"]
    )
    second = output(
        "- Sie war Sechste [p-1].\n- Die Verteidigung gab 308 Punkte ab [p-1].\n\nStand: 2019-10 [p-1].", ["p-1"]
    )
    assert score(gold_span_first({}, first, gold)) == 1.0
    assert score(gold_span_first({}, second, gold)) == 0.0
    assert score(gold_span_cited({}, second, gold)) == 1.0
    assert gold_span_first({}, first, {**gold, "answerable": False}) is None
    assert score(statements_per_answer({}, first, gold)) == 2.0  # the Stand line is no statement
    one = output("Die Verteidigung gab 308 Punkte ab [p-1].\n\nStand: 2019-10 [p-1].", ["p-1"])
    assert score(statements_per_answer({}, one, gold)) == 1.0
    assert statements_per_answer({}, output("Keine Info.", [], bucket="refused"), gold) is None


def test_citation_precision_recall_and_validity() -> None:
    answer = output("30 Tage Urlaub [lb-url-01]. Abrechnung drei Tage vorher [wk-faq-01].", ["lb-url-01", "wk-faq-01"])
    expected = reference("answer", ["lb-url-01", "lb-url-02"])
    assert score(citation_precision({}, answer, expected)) == 0.5
    assert score(citation_recall({}, answer, expected)) == 0.5
    assert score(citation_validity({}, answer, expected)) == 1.0
    forged = output("30 Tage [lb-url-01]. Dazu [lb-zzz-99].", ["lb-url-01"])
    assert score(citation_validity({}, forged, expected)) == 0.5
    refusal = output("Dazu habe ich nichts.", [], bucket="refused")
    assert score(citation_recall({}, refusal, expected)) == 0.0
    assert citation_precision({}, refusal, expected) is None


def test_unsupported_number_looks_only_at_cited_entries() -> None:
    expected = reference("answer", ["lb-url-01"])
    assert score(unsupported_number({}, output("Es gibt 30 Tage [lb-url-01].", ["lb-url-01"]), expected)) == 0.0
    wrong = output("Es gibt 31 Tage [lb-url-01].", ["lb-url-01"])
    assert score(unsupported_number({}, wrong, expected)) == 1.0
    elsewhere = output("Verfall am 31. März [lb-url-01].", ["lb-url-01"])  # 31 is in lb-url-02, not cited
    assert score(unsupported_number({}, elsewhere, expected)) == 1.0
    premise = {"question": "Warum nur 25 Tage?"}
    denied = output("Laut Wissensbasis nicht 25 Tage, sondern 30 Tage [lb-url-01].", ["lb-url-01"])
    assert score(unsupported_number(premise, denied, expected)) == 0.0
    repeated = output("Es sind 25 Tage [lb-url-01].", ["lb-url-01"])
    assert score(unsupported_number(premise, repeated, expected)) == 1.0


@pytest.mark.parametrize(
    ("behaviour", "answer", "citations", "bucket", "ok"),
    [
        ("answer", "Vollzeit: 30 Arbeitstage [lb-url-01].", ["lb-url-01"], "delivered", True),
        ("answer", "Vollzeit: viele Tage [lb-url-01].", ["lb-url-01"], "delivered", False),
        ("refuse", "Dazu habe ich nichts.", [], "refused", True),
        ("refuse", "Vollzeit: 30 Arbeitstage [lb-url-01].", ["lb-url-01"], "delivered", False),
        ("correct_premise", "Nicht 25, sondern 30 Arbeitstage [lb-url-01].", ["lb-url-01"], "delivered", True),
        ("correct_premise", "Es gibt 30 Arbeitstage [lb-url-01].", ["lb-url-01"], "delivered", False),
        (
            "clarify",
            "Vollzeit: 30 Arbeitstage [lb-url-01]. Arbeitest du in Teilzeit?",
            ["lb-url-01"],
            "delivered",
            True,
        ),
        ("clarify", "Arbeitest du in Teilzeit? Vollzeit: 30 Tage [lb-url-01].", ["lb-url-01"], "delivered", False),
        (
            "conflict",
            "⚠ Widerspruch: 30 Tage [lb-url-01], 31 Tage [lb-url-02].",
            ["lb-url-01", "lb-url-02"],
            "delivered",
            True,
        ),
        ("conflict", "30 Tage [lb-url-01], 31 Tage [lb-url-02].", ["lb-url-01", "lb-url-02"], "delivered", False),
        (
            "flag_non_official",
            "Drei Tage vorher [wk-faq-01]; die Quelle ist nicht amtlich.",
            ["wk-faq-01"],
            "delivered",
            True,
        ),
        ("flag_non_official", "Drei Tage vorher [wk-faq-01].", ["wk-faq-01"], "delivered", False),
    ],
)
def test_behaviour_matches(behaviour: str, answer: str, citations: list[str], bucket: str, ok: bool) -> None:
    required = {"refuse": [], "conflict": ["lb-url-01", "lb-url-02"], "flag_non_official": ["wk-faq-01"]}
    facts = ["30"] if behaviour in ("answer", "correct_premise", "clarify") else []
    expected = reference(behaviour, required.get(behaviour, ["lb-url-01"]), must_contain=facts)
    verdict = behaviour_matches({}, output(answer, citations, bucket), expected)
    assert (verdict["score"] == 1.0) is ok, verdict["comment"]


def test_notices_are_not_part_of_the_answer_body() -> None:
    notice = "Für genaue Details kontaktiere uns gerne direkt."
    answer = output(f"Vollzeit: 30 Arbeitstage [lb-url-01].\n\n{notice}", ["lb-url-01"], notices=[notice])
    expected = reference("clarify", ["lb-url-01"], must_contain=["30"])
    assert behaviour_matches({}, answer, expected)["comment"] == "fehlt: eine Rückfrage am Ende"
    assert score(grounded_fact({}, answer, expected)) == 1.0


def test_unsupported_detection_counts_the_unsupported_class() -> None:
    predicted = [{"supported": s} for s in (False, False, True, True, False)]
    gold = [{"supported": s} for s in (False, True, True, False, False)]
    scores = {r["key"]: r["score"] for r in unsupported_detection([{}] * 5, predicted, gold)}
    # TP 2 (0, 4), FP 1 (1), FN 1 (3), TN 1 (2)
    assert scores == {"precision_unsupported": 0.6667, "recall_unsupported": 0.6667, "balanced_accuracy": 0.5833}


def test_set_agreement_is_micro_averaged() -> None:
    found: list[dict[str, set[str]]] = [{"found": {"A", "B"}}, {"found": set()}]
    expected = [{"expected": {"A"}}, {"expected": {"C", "D"}}]
    precision, recall = set_agreement([{}, {}], found, expected)
    assert precision["score"] == 0.5
    assert recall["score"] == pytest.approx(0.3333)
    assert "fehlt: ['C', 'D']" in recall["comment"]


def test_mean_scores_counts_examples_per_key() -> None:
    results = [refused({}, output("x", [], bucket=b), {}) for b in ("refused", "delivered", "delivered")]
    assert mean_scores(results) == {"refused": (0.3333, 3)}


def test_low_score_notice_counts_delivered_answers_with_the_levels_notice() -> None:
    answer = output("30 Tage [lb-url-01].", ["lb-url-01"]) | {"low_score_action": "disclaimer"}
    assert score(low_score_notice({}, answer, {})) == 1.0
    assert score(low_score_notice({}, answer | {"low_score_action": None}, {})) == 0.0
    assert low_score_notice({}, output("-", [], bucket="refused"), {}) is None
