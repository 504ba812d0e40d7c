"""Citations ``[id]`` and numbers in answers: extraction and normalisation for deterministic checks."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Final

_BRACKET: Final = re.compile(r"\[([^\[\]\n]{1,80})\]")
_NUMBER: Final = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w])")
_DATE: Final = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{2,4})$")
_GROUPED_DOT: Final = re.compile(r"^\d{1,3}(?:\.\d{3})+$")
_GROUPED_COMMA: Final = re.compile(r"^\d{1,3}(?:,\d{3})+$")
_LIST_MARKER: Final = re.compile(r"^\s*(?:[-*•–]|\d{1,2}[.)])\s+", re.MULTILINE)


# The preposition and article that belong to a value standing right after them („nach einem Jahr", „bis zu
# 300 €", „das vierzigste Lebensjahr"): a premise correction quotes both values with them. „von", „um" and „mit"
# tie a value to the noun or verb before it („Höchstbetrag von 85 Millionen Euro") and stay out.
VALUE_LEAD: Final = (
    r"(?:\b(?:innerhalb von|bis zu|mehr als|weniger als|nach|in|am|ab|binnen|bis|über|unter|mindestens|höchstens|"
    r"spätestens|frühestens)\s+)?(?:\b(?P<article>das|die|der|den|dem|des)\s+)?"
)
_NEGATED_NUMBER: Final = re.compile(
    rf"\bnicht\s+(?:nur\s+|erst\s+|schon\s+)?{VALUE_LEAD}(?P<number>\d+(?:[.,]\d+)*)(?![\w])", re.IGNORECASE
)
_TRAILING_CITATIONS: Final = re.compile(r"([.!?])((?:\s*\[[^\[\]\n]{1,80}\])+)")


def attach_trailing_citations(text: str) -> str:
    """Move citations written after the full stop (``… Jahr. [a]``) in front of it (``… Jahr [a].``)."""
    return _TRAILING_CITATIONS.sub(lambda m: f"{m.group(2)}{m.group(1)}", text)


def cited_ids(text: str) -> list[str]:
    """IDs cited as ``[id]`` or ``[id1, id2]``, in order of first appearance, without duplicates."""
    found: list[str] = []
    for group in _BRACKET.findall(text):
        for part in re.split(r"[,;]\s*", group):
            token = part.strip()
            if token and token not in found:
                found.append(token)
    return found


def without_citations(text: str) -> str:
    return _BRACKET.sub(" ", text)


def number_forms(token: str) -> frozenset[str]:
    """Canonical readings of a numeric token: ``28,5`` ≡ ``28.5``; ``1.234`` may be 1234 or 1.234."""
    date = _DATE.match(token)
    if date:
        day, month, year = date.groups()
        return frozenset({f"date:{int(year)}-{int(month)}-{int(day)}"})
    readings: list[str] = []
    if "," in token and "." in token:
        decimal_sep = "," if token.rfind(",") > token.rfind(".") else "."
        thousands_sep = "." if decimal_sep == "," else ","
        readings.append(token.replace(thousands_sep, "").replace(decimal_sep, "."))
    elif _GROUPED_DOT.match(token):
        readings += [token.replace(".", ""), token]
    elif _GROUPED_COMMA.match(token):
        readings += [token.replace(",", ""), token.replace(",", ".")]
    else:
        readings.append(token.replace(",", "."))
    forms = set()
    for reading in readings:
        try:
            forms.add(format(Decimal(reading).normalize(), "f"))
        except InvalidOperation:
            forms.add(reading)
    return frozenset(forms)


def numbers_in(text: str) -> list[tuple[str, frozenset[str]]]:
    """Numeric tokens of a text (list markers and citation brackets ignored) with their canonical forms."""
    cleaned = _LIST_MARKER.sub(" ", without_citations(text))
    return [(token, number_forms(token)) for token in _NUMBER.findall(cleaned)]


def number_vocabulary(texts: list[str]) -> frozenset[str]:
    """Every canonical number form that occurs in the given texts."""
    vocabulary: set[str] = set()
    for text in texts:
        for _, forms in numbers_in(text):
            vocabulary |= forms
    return frozenset(vocabulary)


def unsupported_numbers(answer: str, evidence: list[str]) -> list[str]:
    """Numbers in the answer that no evidence text contains, in any equivalent notation."""
    vocabulary = number_vocabulary(evidence)
    return [token for token, forms in numbers_in(answer) if not forms & vocabulary]


def negated_numbers(text: str) -> list[str]:
    """Numbers the text denies ("nicht 25 Urlaubstage"): a correction names them without asserting them."""
    return [m.group("number") for m in _NEGATED_NUMBER.finditer(without_citations(text))]
