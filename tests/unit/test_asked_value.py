"""Whether a sentence gives the kind of value a question asks for (statutes write numbers as words), and
states the numbers the question names."""

from __future__ import annotations

import pytest

from nodes.answer.asked_value import gives_asked_value, values_stated


@pytest.mark.parametrize(
    ("question", "sentence", "gives"),
    [
        ("Wie viele Urlaubstage habe ich?", "Vollzeitbeschäftigte erhalten 30 Arbeitstage Urlaub.", True),
        ("Wie hoch ist die Entschädigung?", "Sie darf drei Monatsgehälter nicht übersteigen.", True),
        ("Ab welchem Alter ist man wählbar?", "Wählbar ist, wer das achtzehnte Lebensjahr vollendet hat.", True),
        ("Wieviel bekomme ich?", "Der Betrag beträgt zweihundertfünfzig Euro.", True),
        ("Wie viel Entgelt bekomme ich?", "Er erhält die Hälfte des Entgelts.", True),
        ("Wie oft darf ich wiederholen?", "Der Bundespräsident wird von der Bundesversammlung gewählt.", False),
        ("Wie viele Stimmen hat ein Land?", "Die Macht geht vom Volke aus.", False),
        ("Wie lange verjähren die Ansprüche?", "Der Anspruch verjährt in drei Jahren.", True),
        ("Bis wann muss ich mich melden?", "Die Meldung erfolgt am ersten Tag vor Dienstbeginn.", True),
        ("Wie lange habe ich Zeit?", "Ansprüche sind bis zum Ende des Kalenderjahres geltend zu machen.", True),
        ("Wie lange dauert die Entgeltumwandlung?", "Der Arbeitgeber bezuschusst sie mit 15 %.", False),
        ("Welche Frist gilt?", "Die Zahlung erfolgt im Dezember.", True),
        ("Wann gilt ein Produkt als fehlerhaft?", "Ein Produkt hat einen Fehler, wenn es nicht sicher ist.", True),
        ("Wer haftet für den Schaden?", "Die Gesellschafter haften gesamtschuldnerisch.", True),
    ],
)
def test_a_sentence_gives_the_kind_of_value_the_question_asks_for(question: str, sentence: str, gives: bool) -> None:
    assert gives_asked_value(question, sentence) is gives


def test_a_sentence_states_the_numbers_the_question_names_in_any_notation() -> None:
    assert values_stated("Wie viele Urlaubstage bei 3 Tagen pro Woche?", "Wer an drei Tagen arbeitet, erhält 18.")
    assert values_stated("Wer haftet?", "Niemand.")  # no number named: nothing to state
    assert not values_stated("Ist das Weihnachtsgeld nur 40 %?", "Das Weihnachtsgeld beträgt 55 % eines Gehalts.")
    assert values_stated("Gilt die Pauschale von 0,30 €?", "Erstattet werden 0.30 € je Kilometer.")
