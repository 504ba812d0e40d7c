"""The evaluators behind the question-set suites: whole sentences, facts, premises, produced answers, ECE."""

from __future__ import annotations

from typing import Any

import pytest

from evals.evaluators.answers import (
    answer_units,
    asks_back_once,
    fact_first,
    facts_in_answer,
    gold_cited,
    not_whole_sentences,
    premise_corrected,
    supported_answer,
    whole_sentence,
)
from evals.evaluators.calibration import expected_calibration_error, roc_auc
from evals.run import SUITES
from evals.suites.questions import citation_precision, produced

STATUTE = (
    "(3) Der Umfang der Versicherung muss so bemessen sein, dass für jeden Fall des Todes einer betroffenen\n"
    "Person mindestens 500 000 Euro zur Verfügung stehen. (4) Soweit aus der Versicherung geleistet wird,\n"
    "erlischt ein Anspruch."
)


def _outputs(answer: str, citations: list[str], bucket: str = "delivered", **extra: Any) -> dict[str, Any]:
    return {"answer": answer, "citations": citations, "bucket": bucket, "notices": [], "texts": {}, **extra}


def _ref(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"gold_ids": ["X §1"], "expected_facts": [], "correct_value": None, "dimension": None}
    merged = base | {"kind": "specific"} | fields
    return merged | {"cited_ok": sorted(merged["gold_ids"])}


@pytest.mark.parametrize(
    ("unit", "whole"),
    [
        ("Person mindestens 500 000 Euro zur Verfügung stehen (Stand 2022-03) [X §1].", False),  # hard-wrap cut
        ("Soweit aus der Versicherung geleistet wird, erlischt ein Anspruch (Stand 2022-03) [X §1].", True),
        ("Soweit aus der Versicherung geleistet wird, erlischt ein Anspruch. [X §1]", True),
        ("Der Umfang der Versicherung muss so bemessen sein (Stand 2022-03), dass für jeden Fall [X §1].", False),
        ("die Bedingungen für den Zugang [X §1].", False),
        ("Der Umfang der Versicherung muss so bemessen sein, dass für jeden Fall des Todes [X §1]", False),
        ("Laut Wissensbasis nicht 50 Millionen Euro, sondern 85 Millionen Euro [X §1].", True),  # composed
    ],
)
def test_whole_sentences_against_the_cited_text(unit: str, whole: bool) -> None:
    assert whole_sentence(unit, [STATUTE]) is whole


def test_units_are_bullets_and_prose_sentences_without_intro_lines() -> None:
    body = "Laut Wissensbasis:\n- Erstens gilt A. [X §1]\n- b [X §1]\nDanach gilt das. Und dann?"
    assert answer_units(body) == ["Erstens gilt A. [X §1]", "b [X §1]", "Danach gilt das.", "Und dann?"]
    outputs = _outputs(body, ["X §1"], texts={"X §1": STATUTE})
    assert not_whole_sentences(outputs) == (1, 4)
    assert not_whole_sentences(_outputs(body, [], bucket="refused")) == (0, 0)


def test_facts_gold_and_precision() -> None:
    ref = _ref(expected_facts=["500 000 Euro"], acceptable_ids=[])
    hit = _outputs("Mindestens 500 000 Euro stehen zur Verfügung. [X §1] [Y §2]", ["X §1", "Y §2"])
    assert facts_in_answer({}, hit, ref) == {"key": "fact_in_answer", "score": 1.0, "comment": "fehlt: "}
    assert facts_in_answer({}, {**hit, "bucket": "refused"}, ref)["score"] == 0.0  # type: ignore[index]
    assert gold_cited({}, hit, ref)["score"] == 1.0  # type: ignore[index]
    assert gold_cited({}, hit, _ref(gold_ids=[])) is None
    precision = citation_precision(hit, ref)
    assert precision is not None and precision["score"] == 0.5 and "Y §2" in precision["comment"]
    assert citation_precision(hit, _ref(kind="out_of_kb", gold_ids=[])) is None


def test_the_fact_first_counts_answers_that_state_the_fact_by_their_first_statement() -> None:
    ref = _ref(expected_facts=["500 000 Euro"], acceptable_ids=[])
    fact, context = "- Mindestens 500 000 Euro stehen zur Verfügung [X §1].", "- Das gilt für jeden Fall [X §1]."
    first = _outputs(f"{fact}\n{context}", ["X §1"])
    later = _outputs(f"{context}\n{fact}", ["X §1"])
    assert fact_first({}, first, ref)["score"] == 1.0  # type: ignore[index]
    assert fact_first({}, later, ref)["score"] == 0.0  # type: ignore[index]
    assert fact_first({}, _outputs("Das gilt für jeden Fall [X §1].", ["X §1"]), ref) is None  # no fact to put first
    assert fact_first({}, {**first, "bucket": "refused"}, ref) is None
    premise = _ref(expected_facts=["500 000 Euro"], correct_value="500 000 Euro", kind="false_premise")
    assert fact_first({}, later, premise) is None  # the correction leads


def test_a_premise_counts_as_corrected_only_with_value_citation_and_cue() -> None:
    ref = _ref(correct_value="85 Millionen Euro", wrong_value="50 Millionen Euro", kind="false_premise")
    corrected = _outputs("Laut Wissensbasis nicht 50 Millionen Euro, sondern 85 Millionen Euro [X §1].", ["X §1"])
    assert premise_corrected({}, corrected, ref)["score"] == 1.0  # type: ignore[index]
    plain = _outputs("Der Höchstbetrag beträgt 85 Millionen Euro [X §1].", ["X §1"])
    assert premise_corrected({}, plain, ref)["comment"] == "fehlt: Berichtigung"  # type: ignore[index]
    assert supported_answer(corrected, ref) and not supported_answer(plain, ref)


def test_a_premise_counts_as_corrected_only_with_the_right_value_in_the_correction() -> None:
    ref = _ref(correct_value="24 Monate", wrong_value="12 Monate", kind="false_premise")
    # the quoted KB sentence gives the right value too, but the correction names another one
    quoted = "Die Pflegezeit dauert bis zu sechs Monaten, die Familienpflegezeit bis zu 24 Monate [X §1]."
    wrong = _outputs(f"Laut Wissensbasis nicht 12 Monate, sondern sechs Monaten [X §1]. {quoted}", ["X §1"])
    assert premise_corrected({}, wrong, ref)["comment"] == "fehlt: richtiger Wert"  # type: ignore[index]
    # a correction that names no value is read with the sentence after it
    told = _outputs("Das stimmt nicht. Die Familienpflegezeit dauert bis zu 24 Monate [X §1].", ["X §1"])
    assert premise_corrected({}, told, ref)["score"] == 1.0  # type: ignore[index]
    late = _outputs(f"Das stimmt nicht. Sie ist kurz. {quoted}", ["X §1"])
    assert premise_corrected({}, late, ref)["comment"] == "fehlt: richtiger Wert"  # type: ignore[index]
    # a unit of time the entry writes in the dative („zwei Monaten") counts in the nominative the correction uses
    dative = _ref(correct_value="zwei Monaten", wrong_value="sechs Monate", kind="false_premise")
    nominative = _outputs("Laut Wissensbasis nicht sechs Monate, sondern zwei Monate [X §1].", ["X §1"])
    assert premise_corrected({}, nominative, dative)["score"] == 1.0  # type: ignore[index]


def test_missing_context_asks_back_once_at_the_end() -> None:
    ref = _ref(dimension="Gesetz")
    good = _outputs("Das hängt vom Gesetz ab [X §1]. Welches Gesetz meinen Sie?", ["X §1"])
    twice = _outputs("Welches Gesetz? Das hängt ab [X §1]. Welches meinen Sie?", ["X §1"])
    assert asks_back_once({}, good, ref)["score"] == 1.0  # type: ignore[index]
    assert asks_back_once({}, twice, ref)["score"] == 0.0  # type: ignore[index]
    assert asks_back_once({}, good, _ref()) is None


def test_an_answer_held_for_review_is_judged_by_its_draft() -> None:
    held = {
        "answer": "Die Antwort wird geprüft.",
        "bucket": "human_review",
        "draft": "Es sind 500 000 Euro [X §1] und [Z §9].",
        "citations": [],
        "notices": [],
        "context": {"X §1": "…"},
    }
    answer = produced(held)
    assert answer is not None and answer["citations"] == ["X §1"] and answer["bucket"] == "delivered"
    assert supported_answer(answer, _ref(expected_facts=["500 000 Euro"]))
    assert produced({**held, "bucket": "refused"}) is None
    assert not supported_answer(answer, _ref(gold_ids=[], kind="out_of_kb"))  # out of KB: never right


def test_calibration_figures() -> None:
    assert roc_auc([0.9, 0.8], [0.1, 0.8]) == 0.875
    assert expected_calibration_error([0.95, 0.95, 0.05, 0.05], [True, True, False, False]) == 0.05
    assert expected_calibration_error([1.0, 1.0], [False, False]) == 1.0


def test_both_question_sets_are_suites() -> None:
    assert {"law_answers", "demo_answers"} <= set(SUITES)
    assert SUITES["law_answers"].requires == ("de_gesetze/kb_paragraphs.jsonl",)
