"""Whether a sentence states the numbers a question names: an answer that neither repeats nor corrects a number
of the question („Ist das Weihnachtsgeld nur 40 %?" answered with the Nachtzuschlag) likely misses its point.

A number is digits in any notation (``0,30`` ≡ ``0.30``) or a number word up to zwölf.
"""

from __future__ import annotations

from typing import Final

import regex

from nodes.answer.premise import NUMBER_WORDS
from nodes.shared.citations import number_forms

_NAMED_VALUE: Final = regex.compile(
    r"(?<![\w.,])(\d+(?:[.,]\d+)*|" + "|".join(NUMBER_WORDS) + r")(?!\w)", regex.IGNORECASE
)


def values_stated(question: str, sentence: str) -> bool:
    """Every number the question names stands in the sentence too (true when it names none)."""
    stated = frozenset().union(*_named_values(sentence))
    return all(forms & stated for forms in _named_values(question))


def _named_values(text: str) -> list[frozenset[str]]:
    return [number_forms(NUMBER_WORDS.get(m.casefold(), m)) for m in _NAMED_VALUE.findall(text)]
