"""Quantities in questions and KB sentences: false premises ("nur 25 Urlaubstage" when the KB says 30) and
sentences that give different values for the same thing.

A quantity is a number with what it counts. Numbers are digits (``500 000``, ``28,5``), number words
(``vierzig``, ``einundzwanzig``), ordinals (``vierzigste``, ``3.``), multiplicatives (``dreimal``) and dates
(``31. März``). What a number counts is the noun after it (``40-Stunden-Woche``: Stunden), reduced to a unit
that compares across wording: durations of the calendar (Jahr, Monat, Woche, Tag and compounds ending so:
``Urlaubstage``) and of the clock (Stunde, Minute) compare by length (``einem Jahr`` ≠ ``sechs Monaten``),
people by head count (``Mitarbeiter`` = ``Personen``), shares by value (``einem Drittel`` ≠ ``eines Viertels``),
``%`` = ``Prozent`` = ``vom Hundert``, ``€`` = ``Euro`` (``85 Millionen Euro`` is 85 000 000 euro). An ordinal
Lebensjahr and a bare number one is (``35 sein``) are an age. Other nouns compare by their head; a year on its own has
the unit ``year``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

import regex

from nodes.shared.citations import VALUE_LEAD, number_forms
from stores.text import Sentence, split_sentences
from stores.text.thesaurus import broader
from stores.vector.analyzer import analyze

_UNITS: Final = {
    "eins": 1, "ein": 1, "zwei": 2, "zwo": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7, "acht": 8,
    "neun": 9,
}  # fmt: skip
_TEENS: Final = {"zehn": 10, "elf": 11, "zwölf": 12, "sechzehn": 16, "siebzehn": 17}
_TENS: Final = {
    "zwanzig": 20, "dreißig": 30, "vierzig": 40, "fünfzig": 50, "sechzig": 60, "siebzig": 70, "achtzig": 80,
    "neunzig": 90,
}  # fmt: skip
_IRREGULAR_ORDINALS: Final = {"ers": 1, "drit": 3, "sieb": 7, "ach": 8}
_ARTICLE_ONE: Final = frozenset({"ein", "eine", "einen", "einem", "einer", "eines"})
MONTHS: Final = tuple("januar februar märz april mai juni juli august september oktober november dezember".split())
_MONTH_NUMBERS: Final = {month: number for number, month in enumerate(MONTHS, 1)}
_SCALES: Final = {"tausend": 10**3, "million": 10**6, "millionen": 10**6, "mio": 10**6, "milliarde": 10**9,
                  "milliarden": 10**9, "mrd": 10**9}  # fmt: skip
_CALENDAR_DAYS: Final = {"jahr": 365, "monat": 30, "woche": 7, "tag": 1}
# compounds ending in „-tag" that name an assembly, not a day („ab 16 den Bundestag")
_ASSEMBLIES: Final = frozenset({"bundestag", "landtag", "kreistag", "reichstag", "parteitag"})
_CLOCK_MINUTES: Final = {"stunde": 60, "minute": 1}
PEOPLE: Final = frozenset(
    """person mitarbeiter mitarbeiterin mitarbeitende beschaftigter beschaftigte arbeitnehmer arbeitnehmerin
    angestellter angestellte mensch leute kollege kollegin""".split()
)
# „Kinder unter 14 Jahren", „Jugendliche ab 16": a bound on the years of people is an age
_AGE_BOUNDS: Final = frozenset({"unter", "über", "ab", "bis"})
_AGED: Final = PEOPLE | {"kind", "jugendlicher", "jugendliche", "schuler", "schulerin"}
_PERCENT: Final = frozenset({"%", "prozent"})
# Shares compare by value whatever their word: „einem Drittel" ≠ „eines Viertels", „zwei Dritteln" ≠ „drei Vierteln".
_FRACTIONS: Final = {"halfte": 2, "drittel": 3, "viertel": 4, "funftel": 5, "sechstel": 6, "achtel": 8, "zehntel": 10}
_EURO: Final = frozenset({"€", "euro", "eur"})
_AGE_VERBS: Final = frozenset("sein bin ist bist sind seid werden werde wird wirst alt".split())
_PERSONAL_PRONOUNS: Final = frozenset("ich du er sie wir ihr".split())
# articles and adverbs before a noun are no adjective between a number and what it counts („ab 16 den Bundestag",
# „mit 17 schon Auto fahren")
_NOT_ADJECTIVES: Final = frozenset(
    """der die das den dem des einen einem einer eines keinen keinem keiner keines schon noch nun dann denn wenn eben
    gern immer wieder oder aber sondern""".split()
)
_RELATIVE: Final = "angehoriger"  # the class of every family word („Sohn", „Mutter"; see stores.text.thesaurus)
# A number after these names a provision or a list item, not a quantity ("§ 38", "Absatz 2").
_REFERENCES: Final = frozenset(
    """§ §§ art artikel artikels abs absatz absatzes absätze absätzen nr nummer nummern satz satzes buchst buchstabe
    buchstaben anlage anhang kapitel kap ziffer ziffern""".split()
)
_CHAIN: Final = frozenset({",", "und", "oder", "bis", "-", "abs", "absatz", "satz", "nr"})
_TOKEN: Final = regex.compile(
    r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d.,])|\d+(?:[.,]\d+)*|§§?|%|€|\p{L}[\p{L}\p{M}]*|[.\-,]"
)
_YEAR: Final = regex.compile(r"^(19|20)\d\d$")
WORD: Final = regex.compile(r"\p{L}[\p{L}\p{M}-]*")  # a word with its inner hyphens
_MAX_AGE: Final = 130
SAME_ORDER: Final = 10
SAME_LENGTH: Final = 0.1  # durations in different units agree within this share ("vier Wochen" ≈ "einem Monat")
_LEAD: Final = regex.compile(rf"{VALUE_LEAD}$", regex.IGNORECASE)
# a bound right before a value („mehr als einem Monat", „bis zu 150 €"), and a condition the question's value is
# the case of („wenn ich zwei Monate …", „falls ich 4 Tage …")
_BOUND_WORDS: Final = "mehr als|länger als|über|mindestens|ab|weniger als|kürzer als|unter|bis zu|höchstens"
_BOUND: Final = regex.compile(rf"\b({_BOUND_WORDS})\s+(?:(?:der|die|das|den|dem|des)\s+)?$", regex.IGNORECASE)
# the bound of a case a table row or list item names („bis 2 Jahre", „ab 5 Jahren")
_CASE_BOUND: Final = regex.compile(rf"\b({_BOUND_WORDS}|bis)\s+$", regex.IGNORECASE)
# a length of time a rule starts after or ends with („nach 5 Jahren auf 2 Monate", „die ersten 6 Monate", „bis zur
# Dauer von 6 Wochen")
_PERIOD_BOUND: Final = regex.compile(
    r"\b(nach|ersten|bis(?=\s+zur\s+Dauer))(?:\s+zur\s+Dauer\s+von)?\s+$", regex.IGNORECASE
)
_LOWER_BOUNDS: Final = frozenset({"mehr als", "länger als", "über", "mindestens", "ab", "nach"})
_INCLUSIVE_BOUNDS: Final = frozenset({"mindestens", "ab", "bis zu", "höchstens", "bis", "nach", "ersten"})
_CONDITION: Final = regex.compile(r"\b(?:wenn|falls|sofern|solange)\b[^,;?]*$", regex.IGNORECASE)
# „bei vier Arbeitstagen", „bei einer 30-Stunden-Woche", „nach 6 Jahren", „seit sieben Jahren": the circumstances a
# value question asks for
_CIRCUMSTANCE: Final = regex.compile(
    r"\b(?:bei|nach|seit)\s+(?:(?:der|die|das|den|dem|des|einer?|einem|einen)\s+)?(?:\p{Ll}+\s+)?$", regex.IGNORECASE
)
# „das 58. Lebensjahr vollendet hat": an age required as reached („noch nicht vollendet" is the opposite)
_COMPLETED: Final = regex.compile(r"(?:\s+(?!nicht\b)\w+){0,2}?\s+vollendet", regex.IGNORECASE)
# „seit acht Jahren", „seit gut drei Monaten": a length of time up to now, which is a situation, not a rule's value
_SINCE: Final = regex.compile(r"(?i)\bseit\s+(?:\p{Ll}+\s+)?$")
# the asker speaking of themselves: a statement so worded before the question tells their situation
_FIRST_PERSON: Final = regex.compile(r"(?i)\b(?:ich|wir|mir|mich|uns|mein\w*|unser\w*)\b")
# an interrogative: a question that asks for something, not whether (also read by the planner)
QUESTION_WORD: Final = regex.compile(r"(?i)\b(?:wie|was|wann|wo|wer|welche\w*|warum|wieso|weshalb|wieviel\w*)\b")
# „mehrmals", „mehrfache": more than once, a bound every count from two on is a case of
_REPEATEDLY: Final = regex.compile(r"(?i)\bmehr(?:mal|fach)")
_ORDINAL: Final = regex.compile(r"^(?:\d+\.|\p{L}+te[nmrs]?)\s")
# "Laut Wissensbasis nicht 25 Urlaubstage, sondern …": the premise part a correction negates.
CORRECTION: Final = regex.compile(r"^\s*Laut Wissensbasis nicht .+?, sondern\s+")


@dataclass(frozen=True)
class Quantity:
    """``text`` as written; ``forms`` the canonical readings of its value in ``unit`` (durations in days or
    minutes, amounts scaled); ``written_in`` the unit of time it was written in (``monat``); ``noun`` the lemma
    of the word it counts (``urlaubstag``); ``written`` a duration's value in that unit („einem Monat": 1, where its
    ``forms`` say 30 days)."""

    text: str
    forms: frozenset[str]
    unit: str
    written_in: str = ""
    noun: str = ""
    written: frozenset[str] = frozenset()

    @property
    def stated(self) -> frozenset[str]:
        """The value the text states, in any notation („fünfzigtausend", „85 Millionen") but in its own unit: a
        month is no statement of the number 30."""
        return self.written or self.forms

    def agrees(self, other: Quantity) -> bool:
        """Same unit and value; lengths of time written in different units agree when about equal."""
        if self.unit != other.unit:
            return False
        if self.forms & other.forms:
            return True
        if self.written_in == other.written_in:
            return False
        a, b = _value(self), _value(other)
        return a is not None and b is not None and abs(a - b) <= SAME_LENGTH * max(abs(a), abs(b))

    def comparable(self, other: Quantity) -> bool:
        """Same unit; lengths of time in different units only as plain lengths ("einem Jahr", not "einer
        Fünftagewoche" or "30 Arbeitstage") within one order of magnitude ("einem Jahr" and "sechs Monaten" may
        be one period, "50 Jahren" and "30 Tage" are not)."""
        if self.unit != other.unit:
            return False
        if self.written_in == other.written_in:
            return True
        if self.noun != self.written_in or other.noun != other.written_in:
            return False
        a, b = _value(self), _value(other)
        return a is not None and b is not None and min(a, b) > 0 and max(a, b) / min(a, b) <= SAME_ORDER


@dataclass(frozen=True)
class PremiseConflict:
    """The question's quantity and the KB sentence's quantity of the same unit that contradicts it."""

    asked: Quantity
    stated: Quantity


@dataclass(frozen=True)
class _Token:
    text: str
    start: int
    end: int


def quantities(text: str) -> list[Quantity]:
    tokens = [_Token(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    found: list[Quantity] = []
    reference = False
    for i, token in enumerate(tokens):
        previous = next((t.text.casefold() for t in reversed(tokens[:i]) if t.text != "."), "")
        # "§§ 8, 9 und 13": every number of the chain is a reference
        reference = previous in _REFERENCES or (reference and (previous[:1].isdigit() or previous in _CHAIN))
        if reference and token.text[0].isdigit():
            continue
        quantity = _quantity_at(text, tokens, i)
        if quantity is not None:
            found.append(quantity)
    return found


def _quantity_at(text: str, tokens: list[_Token], i: int) -> Quantity | None:
    token = tokens[i]
    word = token.text.lower()  # not casefold: „dreißig" would read „dreissig"
    after = [t.text for t in tokens[i + 1 : i + 4]]
    if token.text[0].isdigit():
        digits = regex.sub(r"[ \u00a0\u202f]", "", token.text)
        # "3. März", "18. Lebensjahr"; "2.000." ends a sentence with a number, so does an age („Mein Vater wird 70.")
        if after[:1] == ["."] and len(after) > 1 and digits.isdigit() and not _aged(tokens, i):
            month = _MONTH_NUMBERS.get(after[1].casefold())
            if month is not None:
                return Quantity(_span(text, token, tokens[i + 2]), frozenset({f"{month}-{int(digits)}"}), "date")
            if after[1][:1].isupper() and analyze(after[1]):
                return _counted(text, tokens, i, i + 2, int(digits), ordinal=True)
        return _counted(text, tokens, i, i + 1, digits)
    multiple = _multiplicative(word)
    if multiple is not None:
        return Quantity(token.text, frozenset({str(multiple)}), "mal")
    value = _cardinal(word)
    if value is not None:
        return _counted(text, tokens, i, i + 1, value, article=word in _ARTICLE_ONE)
    value = _ordinal(word)
    if value is not None:
        return _counted(text, tokens, i, i + 1, value, ordinal=True)
    return None


def _counted(
    text: str, tokens: list[_Token], i: int, next_index: int, value: int | str, *, ordinal: bool = False,
    article: bool = False,
) -> Quantity | None:  # fmt: skip
    """The number at ``tokens[i]`` with the unit that follows at ``next_index``."""
    number = tokens[i]
    forms = number_forms(str(value))
    rest = tokens[next_index:]
    if rest[:1] and rest[0].text == "-" and len(rest) > 1:
        rest = rest[1:]  # "40-Stunden-Woche": the number counts the first part
    if rest and rest[0].text.casefold().rstrip(".") in _SCALES and not ordinal:
        scale = _SCALES[rest[0].text.casefold().rstrip(".")]
        forms = frozenset(_scaled(f, scale) for f in forms)
        rest = [t for t in rest[1:] if t.text != "."]
    first = rest[0].text.casefold() if rest else ""
    if first == "vom" and len(rest) > 1 and rest[1].text.casefold() == "hundert":
        return Quantity(_span(text, number, rest[1]), forms, "percent")
    if first in _AGE_VERBS and not ordinal and not article:
        if not _YEAR.match(str(value)) and _within_age(forms):
            return Quantity(number.text, forms, "age")
        return None
    if (
        len(rest) > 1
        and rest[0].text.islower()
        and rest[0].text[-1:] in "enrsm"
        and rest[1].text[:1].isupper()
        and rest[0].text not in _NOT_ADJECTIVES
    ):
        rest = rest[1:]  # an adjective between number and noun: "sechs volle Monate"
    unit_token = rest[0] if rest else None
    unit_word = unit_token.text if unit_token is not None else ""
    of_people = i >= 2 and tokens[i - 1].text.casefold() in _AGE_BOUNDS and _lemma(tokens[i - 2].text) in _AGED
    if unit_token is None or not (unit_word[:1].isupper() or unit_word in ("%", "€")):
        if (of_people or _aged(tokens, i)) and not ordinal and _within_age(forms):
            return Quantity(number.text, forms, "age")  # "Kinder unter 16", "Mein Sohn ist 13"
        if isinstance(value, str) and _YEAR.match(value) and not ordinal:
            return Quantity(number.text, forms, "year")
        return None
    lemma = "%" if unit_word == "%" else "€" if unit_word == "€" else _lemma(unit_word)
    surface = _span(text, number, unit_token)
    if lemma in _PERCENT:
        return None if ordinal or article else Quantity(surface, forms, "percent")
    if lemma in _EURO:
        return None if ordinal or article else Quantity(surface, forms, "euro")
    if lemma in _FRACTIONS and not ordinal and str(value).isdigit():
        return Quantity(surface, frozenset({f"{int(value) / _FRACTIONS[lemma]:.4f}"}), "share")
    if lemma in PEOPLE and not ordinal and not article:
        return Quantity(surface, forms, "people")
    if ordinal and lemma.endswith("lebensjahr"):
        return Quantity(surface, forms, "age")
    duration = _duration(lemma)
    following = tokens[tokens.index(unit_token) + 1 : tokens.index(unit_token) + 2]
    # „am dreißigsten Tage nach der Wahl": the day that many days after an event is that length of time from it
    counted_from = ordinal and bool(following) and following[0].text.casefold() in ("nach", "vor")
    if duration is not None and (not ordinal or counted_from) and not (article and lemma != duration[2]):
        kind, scale, base = duration
        if base == "jahr" and following and following[0].text.casefold() == "alt":
            return Quantity(_span(text, number, following[0]), forms, "age")
        mit = i > 0 and tokens[i - 1].text.casefold() == "mit"
        if lemma == "jahr" and (mit or of_people) and _within_age(forms):
            return Quantity(surface, forms, "age")  # "mit 50 Jahren", "Kinder unter 14 Jahren"
        return Quantity(surface, frozenset(_scaled(f, scale) for f in forms), kind, base, lemma, forms)
    if article or not lemma:
        return None
    if isinstance(value, str) and _YEAR.match(value) and not ordinal:
        return Quantity(number.text, forms, "year")  # "2019 Urlaubstage" is still a year
    head = _head(unit_word)
    if not head:
        return None
    return Quantity(surface, forms, f"ordinal:{duration[2] if duration else head}" if ordinal else head, noun=lemma)


def _aged(tokens: list[_Token], i: int) -> bool:
    """A bare number that a person is: „Mein Sohn ist 13", „ich bin 30", „Meine Tochter wird 12"."""
    if i < 2 or tokens[i - 1].text.casefold() not in _AGE_VERBS:
        return False
    subject = tokens[i - 2].text
    lemma = _lemma(subject)
    return subject.casefold() in _PERSONAL_PRONOUNS or (
        subject[:1].isupper() and (lemma in _AGED or _RELATIVE in broader(lemma))
    )


def _lemma(word: str) -> str:
    return (analyze(word) or [""])[0]


def _duration(lemma: str) -> tuple[str, int, str] | None:
    for table, kind in ((_CALENDAR_DAYS, "calendar"), (_CLOCK_MINUTES, "clock")):
        for base, scale in table.items():
            if lemma == base or (lemma.endswith(base) and len(lemma) > len(base) + 2 and lemma not in _ASSEMBLIES):
                return kind, scale, base
    return None


def _head(word: str) -> str:
    terms = analyze(word)
    if not terms:
        return ""
    return terms[-1] if len(terms) > 1 else terms[0]


def _cardinal(word: str) -> int | None:
    """A German number word up to 999 999 (``einundzwanzig``, ``hundertzwanzig``, ``fünfzigtausend``: statutes
    write fines so); ``ein`` only as its forms."""
    if word in _ARTICLE_ONE:
        return 1
    thousands, found, rest = word.partition("tausend")
    if found:
        times = _cardinal(thousands) if thousands else 1
        tail = _cardinal(rest.removeprefix("und")) if rest else 0
        return None if times is None or tail is None or tail >= 1000 else times * 1000 + tail
    if word.startswith("hundert"):
        rest = word.removeprefix("hundert").removeprefix("und")
        tail = _cardinal(rest) if rest else 0
        return None if tail is None else 100 + tail
    for prefix, hundreds in _UNITS.items():
        if word.startswith(prefix + "hundert"):
            rest = word.removeprefix(prefix + "hundert").removeprefix("und")
            tail = _cardinal(rest) if rest else 0
            return None if tail is None else hundreds * 100 + tail
    if word in _UNITS and word != "ein":
        return _UNITS[word]
    if word in _TEENS:
        return _TEENS[word]
    if word in _TENS:
        return _TENS[word]
    if word.endswith("zehn") and word[:-4] in _UNITS:
        return 10 + _UNITS[word[:-4]]
    if "und" in word:
        ones, _, tens = word.partition("und")
        if tens in _TENS and (ones in _UNITS or ones == "ein"):
            return _TENS[tens] + _UNITS[ones]
    return None


def _ordinal(word: str) -> int | None:
    """``vierzigste`` 40, ``achtzehnten`` 18, ``dritte`` 3 (declined forms too)."""
    for ending in ("sten", "stem", "ster", "stes", "ste"):
        if word.endswith(ending):
            value = _cardinal(word[: -len(ending)])
            if value is not None and value >= 20:
                return value
    for ending in ("ten", "tem", "ter", "tes", "te"):
        if word.endswith(ending):
            stem = word[: -len(ending)]
            value = _IRREGULAR_ORDINALS.get(stem) or (None if stem in _ARTICLE_ONE else _cardinal(stem))
            if value is not None and value < 20:
                return value
    return None


def _multiplicative(word: str) -> int | None:
    if not word.endswith("mal") or len(word) <= 3:
        return None
    stem = word[:-3]
    return 1 if stem == "ein" else _cardinal(stem)


def _scaled(form: str, scale: int) -> str:
    try:
        return format((float(form) * scale), "g") if "." in form else str(int(form) * scale)
    except ValueError:
        return form


def _value(quantity: Quantity) -> float | None:
    for form in quantity.forms:
        try:
            return float(form)
        except ValueError:
            continue
    return None


def _within_age(forms: frozenset[str]) -> bool:
    return any(f.isdigit() and 0 < int(f) < _MAX_AGE for f in forms)


def _span(text: str, first: _Token, last: _Token) -> str:
    return text[first.start : last.end]


def bound_case(question: str, asked: Quantity, sentence: str, stated: Quantity) -> bool | None:
    """Whether the sentence's bound holds the question's value, where that value is the case a condition of the
    question names („wenn ich zwei Monate unbezahlten Urlaub nehme" under „von mehr als einem Monat"); None where it
    is no such case. A case is no premise, inside the bound or not; „ab 25 Beschäftigten" or „ist 100 €" claim the
    value itself."""
    at, bound = question.find(asked.text), _BOUND.search(sentence[: max(0, sentence.find(stated.text))])
    if at < 0 or bound is None or _LEAD.search(question[:at]).group(0).strip() or not _CONDITION.search(question[:at]):
        return None
    a, b = _value(asked), _value(stated)
    if a is None or b is None or not asked.comparable(stated):
        return None
    return _holds(bound.group(1).casefold(), a, b)


def closest_case(question: str, sentences: Sequence[str]) -> int | None:
    """The sentence whose case holds a value of the question most tightly („nach 6 Jahren": „ab 5 Jahren" before
    „ab 2 Jahren", never „bis 2 Jahre"; „bei 24 Stunden": „24 Stunden"), among rows of a table that each name one
    case; None where none holds a value of the question, or two hold it alike."""
    held = [
        (abs(a - b), index)
        for asked in quantities(question)
        for index, sentence in enumerate(sentences)
        for stated in quantities(sentence)
        if held_by(question, asked, sentence, stated)
        and (a := _value(asked)) is not None
        and (b := _value(stated)) is not None
    ]
    closest = sorted(set(held))
    # a value on the border of two rows („nach 2 Jahren": „bis 2 Jahre", „ab 2 Jahren") names no one case
    tied = len(closest) > 1 and closest[1][0] == closest[0][0]
    return closest[0][1] if closest and not tied else None


def held_by(question: str, asked: Quantity, sentence: str, stated: Quantity) -> bool:
    """Whether the sentence's value names a case the question's value falls in: the same value, or a bound that
    holds it („ab 5 Jahren" for „nach 6 Jahren", „bis 2 Jahre" for „nach einem Jahr"). A value the question bounds
    itself („ab 25 Beschäftigten") claims a bound, which no other one holds."""
    a, b = _value(asked), _value(stated)
    if a is None or b is None or not asked.comparable(stated):
        return False
    if asked.agrees(stated):
        return True
    at = question.find(asked.text)
    bound = _CASE_BOUND.search(sentence[: max(0, sentence.find(stated.text))])
    if at < 0 or bound is None or _CASE_BOUND.search(question[:at]):
        return False
    return _holds(bound.group(1).casefold(), a, b)


def _case_bound(sentence: str, stated: Quantity) -> str | None:
    """The bound word of the case the sentence's value names („ab", „bis", for lengths of time „nach", „ersten")."""
    before = sentence[: max(0, sentence.find(stated.text))]
    bound = _CASE_BOUND.search(before) or (_PERIOD_BOUND.search(before) if stated.unit == "calendar" else None)
    return bound.group(1).casefold() if bound is not None else None


def told_case_fit(question: str, sentence: str) -> bool | None:
    """Whether the sentence names a case the asker's own situation falls in (``asker_case``): True where one of its
    cases holds a value the asker tells („seit sieben Jahren" under „nach 5 Jahren auf 2 Monate", „Ich bin 60." under
    „wer das 58. Lebensjahr vollendet hat"), False where it gives what cases of that kind get and the value falls in
    none („seit drei Jahren" beside „die ersten 6 Monate" and „nach 5 Jahren"), None where it names no such case
    (see ``_case_fits``). A bound the value falls outside with nothing given for it is a condition, which the
    question may ask for („Ab wann brauchen wir …?" under „… soweit sie … mindestens 20 Personen … beschäftigen")."""
    fits = [
        fit
        for asked in quantities(question)
        if asker_case(question, asked)
        for fit in _alternative_fits(asked, sentence)
    ]
    return any(fits) if fits else None


def told_settled(question: str, asked: Quantity, sentence: str, block: Sequence[str]) -> bool:
    """Whether the value is the asker's told situation and the sentence is the rule for it: a case it names holds
    the value („seit sieben Jahren" under „nach 5 Jahren auf 2 Monate"), or it names none while sentences of its
    ``block`` give what cases of that kind get, none holding the value, and the question asks what applies: the rule
    for everyone else („Ich arbeite seit drei Jahren hier. Mit welcher Frist …?" under „Nach der Probezeit beträgt
    die Kündigungsfrist … 4 Wochen …", beside „nach 5 Jahren auf 2 Monate"). A sentence that names nothing of the
    kind says nothing of the situation, and another value of the very thing told is another case („Ich habe 35
    Urlaubstage." beside „… erhält 18 Urlaubstage")."""
    if not told_situation(question, asked):
        return False
    fits = _case_fits(asked, sentence)
    if fits:
        return any(fits)
    # in a yes/no question a case the situation falls outside is a condition unmet („Kann ich Bundespräsident
    # werden?" beside „… das vierzigste Lebensjahr vollendet hat"), not a case beside the rule
    others = [fit for text in block for fit in _alternative_fits(asked, text)]
    return (
        asker_case(question, asked)
        and bool(others)
        and not any(others)
        and not any(
            stated.unit == asked.unit and stated.noun == asked.noun and not stated.agrees(asked)
            for stated in quantities(sentence)
        )
    )


def _alternative_fits(asked: Quantity, sentence: str) -> list[bool]:
    """``_case_fits`` where the sentence gives something for its cases („nach 5 Jahren auf 2 Monate"); a bound the
    value falls outside with nothing given is a condition unmet, no alternative case (a year names an act more often
    than what a case gets: „Verordnung (EU) 2016/679")."""
    fits = _case_fits(asked, sentence)
    given = [
        q
        for q in quantities(sentence)
        if q.unit != "year" and _case_bound(sentence, q) is None and not _completed(sentence, q)
    ]
    return fits if any(fits) or given else []


def _case_fits(asked: Quantity, sentence: str) -> list[bool]:
    """For each case of the asked value's kind the sentence names by a bound, whether the value falls in it; where it
    names none, its value equal to the asked one is the case („Abwesenheit: 24 Stunden"), else what a case gets („…
    nach 10 Jahren auf 4 Monate")."""
    fits, equal = [], False
    for stated in quantities(sentence):
        a, b, bound = _value(asked), _value(stated), _case_bound(sentence, stated)
        if asked.unit != stated.unit or a is None or b is None:
            continue
        if _completed(sentence, stated):
            fits.append(a >= b)
        elif bound is not None:
            fits.append(_holds(bound, a, b))
        else:
            equal = equal or asked.agrees(stated)
    return fits or ([True] if equal else [])


def _holds(bound: str, asked: float, stated: float) -> bool:
    """Whether ``asked`` lies within the bound („ab") of ``stated``."""
    inclusive = bound in _INCLUSIVE_BOUNDS
    if bound in _LOWER_BOUNDS:
        return asked > stated or (inclusive and asked == stated)
    return asked < stated or (inclusive and asked == stated)


def asker_case(question: str, asked: Quantity) -> bool:
    """Whether the value describes the asker's own circumstances in a question that asks for something else
    („Wie viele Urlaubstage bekomme ich bei vier Arbeitstagen pro Woche?", „…, wenn ich vier Tage arbeite?", or told
    before it: ``told_situation``): the question claims nothing with it, so a KB sentence with another case („Wer an
    drei Tagen … arbeitet") does not contradict it. In a yes/no question the condition is what is asked („…, wenn
    ich 3 Tage … brauche?")."""
    at = question.find(asked.text)
    if at < 0 or not QUESTION_WORD.search(question):
        return False
    return (
        _CIRCUMSTANCE.search(question[:at]) is not None
        or _CONDITION.search(question[:at]) is not None
        or told_situation(question, asked)
    )


def told_situation(question: str, asked: Quantity) -> bool:
    """Whether the value stands in a statement of the asker's own situation before the question („Ich war 10 Stunden
    auf Dienstreise. Wie viel …?", „Ich arbeite seit sieben Jahren hier. …"), or is a length of time up to now in
    any statement before it („Der Bundespräsident ist seit acht Jahren im Amt. Darf er …?"): the asker tells it, the
    question does not claim it."""
    at = question.find(asked.text)
    if any(s.start <= at < s.end for s in told_statements(question)):
        return True
    return (
        asked.unit == "calendar"
        and _SINCE.search(question[:at]) is not None
        and any(s.start <= at < s.end for s in _statements(question))
    )


def told_statements(question: str) -> list[Sentence]:
    """The statements of the asker's own situation before the question („Ich bin im Oktober eingetreten.")."""
    return [s for s in _statements(question) if _FIRST_PERSON.search(s.text) is not None]


def _statements(question: str) -> list[Sentence]:
    """The sentences before the question that ask nothing."""
    return [s for s in split_sentences(question)[:-1] if not s.text.rstrip().endswith("?")]


def repeats(quantity: Quantity) -> bool:
    """A count of times from two on („zweimal", „drei Mal")."""
    value = _value(quantity)
    return quantity.unit == "mal" and value is not None and value >= 2


def says_repeatedly(text: str) -> bool:
    return _REPEATEDLY.search(text) is not None


def first_premise_conflict(
    question: str,
    sentences: Sequence[str],
    *,
    close: int | None = None,
    coverage: Sequence[float] | None = None,
    confirms: Sequence[bool] | None = None,
) -> tuple[int, PremiseConflict] | None:
    """The first sentence (and the quantity) that contradicts a quantity of the question; for a premise the question
    bounds („höchstens 10.000 Euro"), the first of the ``close`` ones that gives a limit of its side, where one does.

    A sentence contradicts an asked quantity when it gives a value of the same unit that agrees with nothing
    the question asks, and states the asked value nowhere. An asked quantity that some of the sentences
    confirm is no premise ("3 Tage" in "18 Urlaubstage bei 3 Tagen pro Woche"), nor is an age a bound holds, nor the
    asker's case in a question asking for a value (``asker_case``). Sentences after the first
    ``close`` ones contradict, and confirm, only with a value of the very noun asked about (or an age, head count,
    amount): „spätestens einen Monat" for other dates further down leaves „vier Wochen" open. With ``coverage`` (each
    sentence's share of the question's key content), a sentence confirms only against one that covers no more of the
    question: „Zwölf Monate nach Beendigung" leaves „ein Jahr" open against „Wird die Prüfung abgebrochen, … innerhalb
    von drei Monaten" for a question about an abandoned trial. With ``confirms``, only the sentences it marks confirm:
    one that says nothing of the question but its value is about something else („Die oder der Bundesbeauftragte muss
    … das 35. Lebensjahr vollendet haben" for „Muss der Bundespräsident mindestens 35 Jahre alt sein?").
    """
    asked = quantities(question)
    told = [told_situation(question, a) for a in asked]
    stated = [quantities(s) for s in sentences]
    covers = coverage if coverage is not None else [0.0] * len(sentences)
    confirmations = [
        [
            index
            for index, found in enumerate(stated)
            if (confirms is None or confirms[index])
            and any(
                (
                    a.agrees(q)
                    or bound_case(question, a, sentences[index], q) is True
                    # a person's age inside a bound is a case of it („Mein Kind ist 8" under „Kinder unter 12 Jahren"),
                    # as is any situation the asker tells („Ich war 10 Stunden unterwegs." under „mehr als 8
                    # Stunden"); an amount inside one is claimed („Der Zuschuss ist 100 €" under „bis zu 150 €")
                    or ((a.unit == "age" or tells) and held_by(question, a, sentences[index], q))
                    or (tells and _reached(a, sentences[index], q))
                )
                and (close is None or index < close or q.noun == a.noun)
                for q in found
            )
        ]
        for a, tells in zip(asked, told, strict=True)
    ]
    open_premises = [
        (a, confirmed, tells)
        for a, confirmed, tells in zip(asked, confirmations, told, strict=True)
        if not asker_case(question, a)
    ]
    conflicts: list[tuple[int, PremiseConflict]] = []
    for index, found in enumerate(stated):
        for premise, confirmed, tells in open_premises:
            if any(covers[other] >= covers[index] for other in confirmed):
                continue
            if any(q.forms & premise.forms for q in found):
                continue
            others = [
                q
                for q in found
                if premise.comparable(q)
                and not any(a.agrees(q) for a in asked)
                and bound_case(question, premise, sentences[index], q) is None
                and (close is None or index < close or q.noun == premise.noun)
                # a situation the asker tells falls inside or outside a bound, and only outside contradicts it (even
                # where the sentence is about another thing and so confirms nothing: „Ich bin 38 Jahre alt." beside
                # „Die oder der Bundesbeauftragte muss … das 35. Lebensjahr vollendet haben"); a plain value of
                # another matter („seit 2 Wochen" against „bis zur Dauer von 6 Wochen") does not contradict it
                and (
                    not tells
                    or (
                        (_bound_side(sentences[index], q.text) is not None or _completed(sentences[index], q))
                        and not held_by(question, premise, sentences[index], q)
                        and not _reached(premise, sentences[index], q)
                    )
                )
            ]
            if others:
                near = _matter_distance(question, sentences[index])
                stated_value = max(others, key=lambda q: (_likeness(premise, q), -near(q)))
                conflicts.append((index, PremiseConflict(premise, stated_value)))
                break
    # a premise bounded like „höchstens 10.000 Euro" is the limit asked: among the close sentences, one that gives a
    # limit of that side („bis zu fünfzigtausend Euro") corrects it before one whose value is another matter's threshold
    # („wenn die festgesetzte Geldbuße den Betrag von einhunderttausend Euro übersteigt")
    alike = [
        (index, conflict)
        for index, conflict in conflicts
        if (close is None or index < close)
        and (side := _bound_side(question, conflict.asked.text)) is not None
        and _bound_side(sentences[index], conflict.stated.text) == side
    ]
    return alike[0] if alike else conflicts[0] if conflicts else None


def _bound_side(text: str, value: str) -> Literal["lower", "upper"] | None:
    """Which side the bound right before the value in ``text`` limits it from: „lower" („mindestens", „ab", „mehr
    als"), „upper" („höchstens", „bis zu", „unter"); None without one."""
    at = text.find(value)
    bound = _BOUND.search(text[:at]) if at >= 0 else None
    if bound is None:
        return None
    return "lower" if bound.group(1).casefold() in _LOWER_BOUNDS else "upper"


def _completed(sentence: str, stated: Quantity) -> bool:
    """Whether the sentence requires the age as one completed („wer das 35. Lebensjahr vollendet hat"): a lower
    bound, which „noch nicht vollendet" is not."""
    at = sentence.find(stated.text)
    return stated.unit == "age" and at >= 0 and _COMPLETED.match(sentence, at + len(stated.text)) is not None


def _reached(asked: Quantity, sentence: str, stated: Quantity) -> bool:
    """Whether the asked age reaches an age the sentence requires completed („Ich bin 60." for „das 58. Lebensjahr
    vollendet")."""
    a, b = _value(asked), _value(stated)
    return asked.unit == "age" and a is not None and b is not None and a >= b and _completed(sentence, stated)


def _matter_distance(question: str, sentence: str) -> Callable[[Quantity], int]:
    """How far a value of ``sentence`` stands from the nearest word the question says (by lemma, its values' units
    left out): of two values alike, the one beside the question's matter answers it („… bis zu sechs Monaten
    (Pflegezeit) … für bis zu 24 Monate (Familienpflegezeit)" for a question about Familienpflegezeit)."""
    units = {term for quantity in quantities(question) for term in analyze(quantity.text)}
    asked = {terms[0] for word in WORD.findall(question) if (terms := analyze(word)) and terms[0] not in units}
    spans: list[tuple[int, int]] = [
        (m.start(), m.end()) for m in WORD.finditer(sentence) if (terms := analyze(m.group(0))) and terms[0] in asked
    ]

    def distance(quantity: Quantity) -> int:
        start = sentence.find(quantity.text)
        if start < 0 or not spans:
            return len(sentence)
        end = start + len(quantity.text)
        return min(max(0, word_start - end, start - word_end) for word_start, word_end in spans)

    return distance


def _likeness(asked: Quantity, stated: Quantity) -> int:
    """Which stated value answers the asked one: the same noun, then a compound for a compound
    ("28 Urlaubstage": "30 Arbeitstage" rather than "drei Tagen"), then the same unit of time."""
    return (
        4 * (asked.noun == stated.noun)
        + 2 * (asked.noun != asked.written_in and stated.noun != stated.written_in)
        + (asked.written_in == stated.written_in)
    )


def contradicting_values(first: str, second: str) -> bool:
    """Both sentences give a value of the same unit, and no value of that unit agrees."""
    a, b = quantities(first), quantities(second)
    for unit in {q.unit for q in a} & {q.unit for q in b}:
        if not any(x.agrees(y) for x in a if x.unit == unit for y in b if y.unit == unit):
            return True
    return False


def distinct_values(sentences: list[str]) -> bool:
    """Some unit takes more than one value across the sentences (variants of one rule)."""
    return any(contradicting_values(a, b) for i, a in enumerate(sentences) for b in sentences[i + 1 :])


# a unit of time in the dative plural („zwei Monaten" of „einer Frist von zwei Monaten", „Arbeitstagen")
_DATIVE_TIME_UNIT: Final = regex.compile(r"\b(?=\p{Lu})(\p{L}*(?i:tag|monat|jahr))en$")


def in_nominative(value: str) -> str:
    """The value named without the preposition that governed it, as a correction names it: „zwei Monaten" → „zwei
    Monate" („nicht sechs Monate, sondern zwei Monate"); a unit whose plural has one form stays as it is."""
    return str(_DATIVE_TIME_UNIT.sub(r"\1e", value))


def with_lead(text: str, value: str) -> str:
    """The value as ``text`` says it, with the preposition right before it („in drei Jahren"); an article only
    before an ordinal („das vierzigste Lebensjahr", not „der 3 Monate" of „nach Ablauf der 3 Monate")."""
    at = text.find(value)
    lead = _LEAD.search(text[:at]) if at >= 0 else None
    if lead is None:
        return value
    words = lead.group(0)
    if lead.group("article") and not _ORDINAL.match(value):
        words = words[: lead.start("article") - lead.start()]
    words = words.strip()
    return f"{words[:1].lower()}{words[1:]} {value}" if words else value
