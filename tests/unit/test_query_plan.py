"""The cheap gate before the planner: which questions ask for a survey, a decision or one fact."""

from __future__ import annotations

import pytest

from nodes.answer.plan import classify_question


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Welche Strafe gibt es für Lockangebote mit unwahren Angaben?", "specific"),
        ("welche strafe gibt es für lockangebote?", "specific"),
        ("Welche Frist gibt es für den Widerspruch?", "specific"),
        ("Welche Strafen gibt es für Lockangebote?", "survey"),
        ("welche rechtlichen folgen gibt es?", "survey"),
        ("Welche Zuschläge gibt's für Nachtarbeit?", "survey"),
        ("Welche Kosten gibt es beim Umzug?", "survey"),  # a plural only; its lemma is the same word
        ("Welche Regel existieren dafür?", "survey"),  # the verb is plural
        ("Welche Arten von Urlaub gibt es?", "survey"),
        ("Gib mir einen Überblick über die Fristen.", "survey"),
        ("Was gilt für alle Beschäftigten?", "survey"),
        ("Der Bundestag wird doch alle fünf Jahre gewählt, oder?", "specific"),  # how often, not all of something
        ("Muss ich alle 2 Wochen zum Arzt?", "specific"),
        ("Lohnt sich Altersteilzeit für mich?", "decision"),
        ("Wie lange dauert die Probezeit?", "specific"),
    ],
)
def test_a_question_s_type_follows_what_it_asks_for(question: str, expected: str) -> None:
    assert classify_question(question)[1] == expected


def test_only_surveys_decisions_and_multi_part_questions_need_the_planner() -> None:
    assert classify_question("Welche Strafen gibt es für Lockangebote?")[0]
    assert not classify_question("Welche Strafe gibt es für Lockangebote?")[0]
    assert classify_question("Wie lange dauert die Probezeit, und wer entscheidet darüber?")[0]
