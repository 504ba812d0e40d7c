"""Whether a sentence gives the kind of value a question asks for, and states the numbers the question names.

„Wie viele / viel / hoch / alt / oft", „Ab welchem Alter", „Welcher Betrag" ask for a number; „Wie lange",
„Bis / Ab / Seit wann", „Welche Frist" ask for a time. German statutes often write numbers as words („drei
Jahren", „das achtzehnte Lebensjahr", „die Hälfte", „dreimal"), so a number is digits or a number word (also in
a compound or as an ordinal); a time is a unit of time (also in a compound: „Kalenderjahr"), a month, a year or
a date.
"""

from __future__ import annotations

from typing import Final

import regex

from nodes.answer.premise import NUMBER_WORDS
from nodes.shared.citations import number_forms

# A question asking for a time („Wie lange", „Bis wann", „Welche Frist") needs a time in the answer; one asking for
# a number or amount („Wie viele", „Wie hoch", „Ab welchem Alter") needs a number. A plain „Wann" often asks
# for conditions („Wann gilt ein Produkt als fehlerhaft?") and needs neither.
_ASKS_TIME: Final = regex.compile(
    r"\b(?:wie\s+lange?|bis\s+wann|seit\s+wann|ab\s+wann|in\s+welchem\s+(?:jahr|zeitraum)|innerhalb\s+welche[rn]?"
    r"|welche[rn]?\s+(?:frist|dauer|zeitraum))\b",
    regex.IGNORECASE,
)
_ASKS_NUMBER: Final = regex.compile(
    r"\b(?:wie\s*viele?|wie\s+hoch|wie\s+alt|wie\s+oft|wie\s+weit|wie\s+groß|wie\s+teuer|ab\s+welchem\s+alter"
    r"|welche[rn]?\s+(?:betrag|höhe|anteil|summe|höchstbetrag|mindestbetrag))\b",
    regex.IGNORECASE,
)
_NUMBER_WORD: Final = (
    r"(?:zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|sechzehn|siebzehn|zwanzig|dreißig|vierzig"
    r"|fünfzig|sechzig|siebzig|achtzig|neunzig|hundert|tausend|million|milliarde)"
)
_NUMBER: Final = regex.compile(
    r"\p{N}"
    rf"|\b(?:(?:{_NUMBER_WORD}(?:und)?)+(?:e|en|er|es|s|st|ste|sten|te|ten|tel|mal|fach|jährig)?|einmal|erste[nrs]?"
    r"|dritte[nrs]?|siebte[nrs]?|hälfte|doppelte[nr]?)\b",
    regex.IGNORECASE,
)
_TIME: Final = regex.compile(
    r"\b(?:januar|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember"
    r"|\p{L}*(?:jahr|jahre|jahren|jahres|monat|monate|monaten|monats|woche|wochen|tag|tage|tagen|tages|stunde|stunden"
    r"|minuten|frist|fristen|zeitpunkt|ablauf|beginn|ende)|(?:19|20)\d\d|\d{1,2}\.\d{1,2}\.)(?!\p{L})",
    regex.IGNORECASE,
)

_NAMED_VALUE: Final = regex.compile(
    r"(?<![\w.,])(\d+(?:[.,]\d+)*|" + "|".join(NUMBER_WORDS) + r")(?!\w)", regex.IGNORECASE
)


def gives_asked_value(question: str, sentence: str) -> bool:
    """The sentence holds a value of the kind the question asks for (any value when it asks for none)."""
    if _ASKS_TIME.search(question):
        return bool(_TIME.search(sentence))
    return not _ASKS_NUMBER.search(question) or bool(_NUMBER.search(sentence))


def values_stated(question: str, sentence: str) -> bool:
    """Every number the question names (digits or a number word up to zwölf) stands in the sentence too: an
    answer that neither repeats nor corrects a number of the question („nur 40 %?") likely misses its point."""
    stated = frozenset().union(*_named_values(sentence))
    return all(forms & stated for forms in _named_values(question))


def _named_values(text: str) -> list[frozenset[str]]:
    return [number_forms(NUMBER_WORDS.get(m.casefold(), m)) for m in _NAMED_VALUE.findall(text)]
