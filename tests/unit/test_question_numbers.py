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


def test_a_sentence_whose_bound_holds_the_question_s_case_states_it() -> None:
    question = "Bin ich noch versichert, wenn ich zwei Monate unbezahlten Urlaub nehme?"
    assert values_stated(question, "Bei unbezahltem Urlaub von mehr als einem Monat endet die Mitgliedschaft.")
    assert not values_stated(question, "Bei unbezahltem Urlaub von mehr als drei Monaten endet die Mitgliedschaft.")
    # a value the question claims is stated only as itself
    assert not values_stated("Gibt es ab 25 Beschäftigten einen Beauftragten?", "Ab mindestens 20 Personen.")


def test_more_than_once_states_every_count_from_two_on() -> None:
    sentence = "Niemand darf wegen derselben Tat mehrmals bestraft werden."
    assert values_stated("Kann man für dieselbe Tat zweimal bestraft werden?", sentence)
    assert values_stated("Darf man drei Mal bestraft werden?", "Eine mehrfache Bestrafung ist unzulässig.")
    assert not values_stated("Wird man nur einmal bestraft?", sentence)
    assert not values_stated("Kann man zweimal bestraft werden?", "Eine Tat wird nur auf Antrag bestraft.")


def test_a_bare_number_of_the_question_is_stated_only_with_its_value() -> None:
    question = "Stimmt es, dass man erst ab 25 in den Bundestag gewählt werden kann?"
    assert not values_stated(question, "Gewählt ist, wer die Stimmen der Mehrheit des Bundestages auf sich vereinigt.")
    assert values_stated("Darf man ab 18 wählen?", "Wahlberechtigt ist, wer das achtzehnte Lebensjahr vollendet hat.")
    assert values_stated("Was regelt § 38 Abs. 2 BDSG?", "Die Benennung.")  # references count nothing
    # a bare number is no part of a quantity that merely contains its digits
    assert not values_stated("Gilt ab 5 die Frist von 25 Tagen?", "Die Frist beträgt 25 Tage.")
