"""Whether a sentence states the numbers a question names: an answer that neither repeats nor corrects a number
of the question („Ist das Weihnachtsgeld nur 40 %?" answered with the Nachtzuschlag) likely misses its point.

Numbers are read as the premise check reads them (``premise.quantities``: digits in any notation, number words,
no § references).
"""

from __future__ import annotations

from nodes.answer.premise import bound_case, held_by, quantities, repeats, says_repeatedly


def values_stated(question: str, sentence: str) -> bool:
    """Every number the question names stands in the sentence too, or is a case of a bound it states (true when
    the question names none): „zweimal" is a case of „mehrmals", „nach 6 Jahren" of „ab 5 Jahren"."""
    found = quantities(sentence)
    stated = frozenset().union(*(q.forms for q in found))
    return all(
        a.forms & stated
        or any(bound_case(question, a, sentence, q) is True or held_by(question, a, sentence, q) for q in found)
        or (repeats(a) and says_repeatedly(sentence))
        for a in quantities(question)
    )
