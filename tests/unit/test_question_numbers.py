"""A sentence states the numbers a question names, in any notation (digits or words)."""

from __future__ import annotations

from nodes.answer.question_numbers import values_stated


def test_a_sentence_states_the_numbers_the_question_names_in_any_notation() -> None:
    assert values_stated("Wie viele Urlaubstage bei 3 Tagen pro Woche?", "Wer an drei Tagen arbeitet, erhält 18.")
    assert values_stated("Gilt die Pauschale von 0,30 €?", "Erstattet werden 0.30 € je Kilometer.")
    assert values_stated("Wer haftet?", "Niemand.")  # no number named: nothing to state


def test_a_sentence_that_neither_repeats_nor_corrects_a_named_number_does_not_state_it() -> None:
    assert not values_stated("Ist das Weihnachtsgeld nur 40 %?", "Das Weihnachtsgeld beträgt 55 % eines Gehalts.")
    assert not values_stated("Gilt das ab 50 Mitarbeitern?", "Öffentliche Stellen benennen eine Beauftragte.")
