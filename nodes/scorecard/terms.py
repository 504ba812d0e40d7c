"""Case-insensitive, lemma-aware term and phrase matching with Unicode word boundaries.

One Aho-Corasick automaton holds every spelling of every entry: the entry itself, its inflected forms
(from simplemma's German form→lemma dictionary, inverted), and transliterations (ä→ae, ß→ss). Matching
is then a single pass over the lower-cased text; the surface form is read back from the original text.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import ahocorasick
import simplemma
from simplemma.strategies.dictionaries.dictionary_factory import DEFAULT_DICTIONARY_FACTORY

MAX_PHRASE_VARIANTS = 512
REGULAR_ENDINGS = ("e", "en", "er", "es", "em", "n", "s")
# (character, replacement): str.replace per character beats str.translate by far on non-ASCII text
_LOOKALIKES = tuple((c, " ") for c in "\n\t\r\x0b\x0c\xa0\u2007\u2009\u202f") + (
    ("’", "'"),
    ("\u2010", "-"),
    ("\u2011", "-"),
)
_SPACE_RUN = re.compile(" {2,}")
_PLAIN_VOWELS = str.maketrans("äöüß", "aous")  # "Märkte" starts like "Markt"
_TRANSLITERATION = (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss"))


def fold_case(text: str) -> str:
    """Lower-case, any whitespace as a plain space, typographic apostrophes and hyphens as ASCII – with every
    offset kept, so hits map straight back onto the original text."""
    lowered = text.lower()
    if len(lowered) != len(text):  # e.g. 'İ' lowers to two code points
        lowered = "".join(low if len(low := ch.lower()) == 1 else ch for ch in text)
    for lookalike, plain in _LOOKALIKES:
        if lookalike in lowered:
            lowered = lowered.replace(lookalike, plain)
    return lowered


@dataclass(frozen=True)
class TermEntry:
    key: str
    text: str
    inflect: bool = True


class TermHit(NamedTuple):  # a tuple: created per hit, thousands per long text
    start: int
    end: int
    key: str
    entry: str
    form: str


@cache
def _forms_by_lemma() -> dict[bytes, list[bytes]]:
    """simplemma's German dictionary inverted (lemma → forms); built once, ~1 s."""
    mapping = DEFAULT_DICTIONARY_FACTORY.get_dictionary("de")
    index: dict[bytes, list[bytes]] = {}
    # the bytes-backed store behind the public Mapping: decoding all 1.1 M entries through it costs ~1 s more
    raw: dict[bytes, bytes] = mapping._dict  # type: ignore[attr-defined]
    for form, lemma in raw.items():
        index.setdefault(lemma, []).append(form)
    return index


def _shares_stem(form: str, word: str) -> bool:
    """Keep forms that start like the entry: 'besser' is a form of 'gut' but not a spelling of it."""
    return form[:2].translate(_PLAIN_VOWELS) == word[:2].translate(_PLAIN_VOWELS)


def inflections(word: str) -> set[str]:
    """Lower-cased forms sharing the word's lemma, plus the regular German endings (the dictionary is sparse for
    rarer words: it knows 'disruptiver' but not 'disruptive'). Pass the word as written: case tells nouns apart."""
    lemma = simplemma.lemmatize(word, lang="de")
    lowered = fold_case(word)
    candidates = {lemma.lower()}
    for spelling in {lemma, lemma.lower(), lemma.capitalize()}:
        candidates.update(form.decode().lower() for form in _forms_by_lemma().get(spelling.encode(), ()))
    forms = {lowered} | {form for form in candidates if _shares_stem(form, lowered)}
    if lowered.replace("-", "").isalpha():
        forms.update(lowered + suffix for suffix in REGULAR_ENDINGS)
    return forms


def _normalise(text: str) -> tuple[str, Callable[[int], int]]:
    """Case-folded text with every whitespace run as one space, plus the map from its offsets to the original.

    The map is built on first use: most texts have no hit to map back.
    """
    lowered = fold_case(text)
    if "  " not in lowered:
        return lowered, _same_offset
    thresholds: list[int] = []
    shifts: list[int] = []

    def to_original(offset: int) -> int:
        if not thresholds:
            removed = 0
            for run in _SPACE_RUN.finditer(lowered):
                thresholds.append(run.start() + 1 - removed)
                removed += run.end() - run.start() - 1
                shifts.append(removed)
        index = bisect.bisect_right(thresholds, offset) - 1
        return offset + (shifts[index] if index >= 0 else 0)

    return _SPACE_RUN.sub(" ", lowered), to_original


def _same_offset(offset: int) -> int:
    return offset


def _transliterate(form: str) -> str:
    for umlaut, plain in _TRANSLITERATION:
        form = form.replace(umlaut, plain)
    return form


def spellings(text: str, *, inflect: bool) -> set[str]:
    """Every lower-cased spelling an entry matches."""
    words = text.split()
    if inflect:
        per_word = [sorted(inflections(w)) for w in words]
        combinations = 1
        for forms in per_word:
            combinations *= len(forms)
        if combinations > MAX_PHRASE_VARIANTS:  # long phrases: inflect the head (last word) only
            per_word = [[fold_case(w)] for w in words[:-1]] + [per_word[-1]]
        variants = {" ".join(parts) for parts in itertools.product(*per_word)}
    else:
        variants = {fold_case(" ".join(words))}
    return variants | {_transliterate(v) for v in variants} | {v.replace("ß", "ss") for v in variants}


class TermMatcher:
    """Finds entries in a text; each hit names the entry key, the configured text and the form that matched."""

    def __init__(self, entries: Iterable[TermEntry]) -> None:
        owners: dict[str, list[tuple[str, str]]] = {}
        for entry in entries:
            for form in spellings(entry.text, inflect=entry.inflect):
                if form:
                    owners.setdefault(form, []).append((entry.key, entry.text))
        self.size = len(owners)
        self._automaton: ahocorasick.Automaton | None = None
        if owners:
            automaton = ahocorasick.Automaton()
            for form, keys in owners.items():
                automaton.add_word(form, (len(form), form, form[0].isalnum(), form[-1].isalnum(), tuple(keys)))
            automaton.make_automaton()
            self._automaton = automaton

    def find(self, text: str) -> list[TermHit]:
        """Hits in text order; a hit must not continue a word on either side (hyphens and quotes end words)."""
        if self._automaton is None:
            return []
        folded, to_original = _normalise(text)
        last_index = len(folded) - 1
        hits: list[TermHit] = []
        for last, (length, form, word_start, word_end, keys) in self._automaton.iter(folded):
            start = last - length + 1
            if word_start and start and folded[start - 1].isalnum():
                continue
            if word_end and last < last_index and folded[last + 1].isalnum():
                continue
            if to_original is not _same_offset:
                start, last = to_original(start), to_original(last)
            for key, entry in keys:
                hits.append(TermHit(start, last + 1, key, entry, form))
        hits.sort(key=lambda hit: (hit.start, -hit.end))
        return hits
