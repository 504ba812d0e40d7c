"""Whether a sentence states the numbers a question names: an answer that neither repeats nor corrects a number
of the question („Ist das Weihnachtsgeld nur 40 %?" answered with the Nachtzuschlag) likely misses its point.

Numbers are read as the premise check reads them (``premise.quantities``: digits in any notation, number words,
no § references).
"""

from __future__ import annotations

from collections.abc import Sequence

import regex

from nodes.answer.answer_type import without_references
from nodes.answer.premise import bound_case, held_by, quantities, repeats, says_repeatedly, told_settled
from nodes.shared.citations import number_forms

_DIGITS = regex.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])")


def values_stated(question: str, sentence: str, *, block: Sequence[str] = ()) -> bool:
    """Every number the question names stands in the sentence too, or is a case of a bound it states (true when
    the question names none): „zweimal" is a case of „mehrmals", „nach 6 Jahren" of „ab 5 Jahren". A bare number
    („erst ab 25 in den Bundestag") must stand in it with its value („achtzehnte" for 18). The situation the asker
    tells needs only be one the sentence is the rule for, among the cases its ``block`` names (``told_settled``)."""
    found = quantities(sentence)
    stated = frozenset().union(*(q.forms for q in found), *(number_forms(n) for n in _bare_numbers(sentence)))
    return all(
        a.forms & stated
        or any(bound_case(question, a, sentence, q) is True or held_by(question, a, sentence, q) for q in found)
        or (repeats(a) and says_repeatedly(sentence))
        or told_settled(question, a, sentence, block)
        for a in quantities(question)
    ) and all(number_forms(n) & stated for n in _bare_numbers(question))


def _bare_numbers(text: str) -> list[str]:
    """The numbers in digits that count nothing the premise check reads (no unit, no reference): „ab 25"."""
    counted = {n for q in quantities(text) for n in _DIGITS.findall(q.text)}
    return [n for n in _DIGITS.findall(without_references(text)) if n not in counted]
