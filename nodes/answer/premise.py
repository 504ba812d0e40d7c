"""Quantities in questions and KB sentences: false premises ("nur 25 Urlaubstage" when the KB says 30) and
sentences that give different values for the same thing.

A quantity is a number (digits or a number word up to zwölf) with the word after it as its unit, reduced to
the unit's head (``Urlaubstage`` and ``Arbeitstage`` are both days); a year on its own has the unit ``year``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import regex

from nodes.shared.citations import number_forms
from stores.vector.analyzer import analyze

NUMBER_WORDS: Final = {
    "zwei": "2", "drei": "3", "vier": "4", "fünf": "5", "sechs": "6", "sieben": "7", "acht": "8",
    "neun": "9", "zehn": "10", "elf": "11", "zwölf": "12",
}  # fmt: skip
_QUANTITY: Final = regex.compile(
    r"(?<![\w.,])(?P<number>\d+(?:[.,]\d+)*|" + "|".join(NUMBER_WORDS) + r")(?![\w])"
    r"(?:\s*(?P<unit>%|€|\p{L}[\p{L}-]*))?",
    regex.IGNORECASE,
)
_YEAR: Final = regex.compile(r"^(19|20)\d\d$")
_SYMBOL_UNITS: Final = frozenset({"%", "€", "km", "kg"})
# "Laut Wissensbasis nicht 25 Urlaubstage, sondern …": the premise part a correction negates.
CORRECTION: Final = regex.compile(r"^\s*Laut Wissensbasis nicht .+?, sondern\s+")


@dataclass(frozen=True)
class Quantity:
    text: str
    forms: frozenset[str]
    unit: str


@dataclass(frozen=True)
class PremiseConflict:
    """The question's quantity and the KB sentence's quantity of the same unit that contradicts it."""

    asked: Quantity
    stated: Quantity


def quantities(text: str) -> list[Quantity]:
    found = []
    for match in _QUANTITY.finditer(text):
        number = match.group("number")
        digits = NUMBER_WORDS.get(number.casefold(), number)
        unit_word = match.group("unit") or ""
        if _YEAR.match(digits) or not (unit_word[:1].isupper() or unit_word in _SYMBOL_UNITS):
            unit_word = ""  # units are nouns or symbols: "2019 gilt" names a year, "3 mehr" nothing
        unit = _unit_of(unit_word) if unit_word else ("year" if _YEAR.match(digits) else "")
        if not unit:
            continue
        surface = match.group(0) if unit_word else number
        found.append(Quantity(surface.strip(), number_forms(digits), unit))
    return found


def _unit_of(word: str) -> str:
    terms = analyze(word)
    if not terms:
        return ""
    return terms[-1] if len(terms) > 1 else terms[0]


def premise_conflict(question: str, sentence: str) -> PremiseConflict | None:
    """A quantity of the question that the sentence contradicts: same unit, other value, and the asked value
    nowhere in the sentence."""
    stated = quantities(sentence)
    for asked in quantities(question):
        same_unit = [q for q in stated if q.unit == asked.unit]
        if same_unit and not any(q.forms & asked.forms for q in same_unit):
            return PremiseConflict(asked, same_unit[0])
    return None


def contradicting_values(first: str, second: str) -> bool:
    """Both sentences give a value of the same unit, and no value of that unit agrees."""
    a, b = quantities(first), quantities(second)
    for unit in {q.unit for q in a} & {q.unit for q in b}:
        forms_a = frozenset().union(*(q.forms for q in a if q.unit == unit))
        forms_b = frozenset().union(*(q.forms for q in b if q.unit == unit))
        if not forms_a & forms_b:
            return True
    return False


def distinct_values(sentences: list[str]) -> bool:
    """Some unit takes more than one value across the sentences (variants of one rule)."""
    return any(contradicting_values(a, b) for i, a in enumerate(sentences) for b in sentences[i + 1 :])
