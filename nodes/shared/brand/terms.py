"""Case-insensitive, lemma-aware term and phrase matching with Unicode word boundaries.

One Aho-Corasick automaton holds every spelling of every entry: the entry itself, its inflected forms
(from simplemma's German form→lemma dictionary, inverted), and transliterations (ä→ae, ß→ss). Matching
is then a single pass over the lower-cased text; the surface form is read back from the original text.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import simplemma
from ahocorasick_rs import BytesAhoCorasick
from simplemma.strategies.dictionaries.dictionary_factory import DEFAULT_DICTIONARY_FACTORY

MAX_PHRASE_VARIANTS = 512
REGULAR_ENDINGS = ("e", "en", "er", "es", "em", "n", "s")
# (character, replacement): str.replace per character beats str.translate by far on non-ASCII text
_LOOKALIKES = tuple((c, " ") for c in "\n\t\r\x0b\x0c\xa0\u2007\u2009\u202f") + (
    ("’", "'"),
    ("\u2010", "-"),
    ("\u2011", "-"),
)
_PLAIN_VOWELS = str.maketrans("äöüß", "aous")  # "Märkte" starts like "Markt"
_TRANSLITERATION = (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss"))
_SPACE = ord(" ")
# per UTF-8 byte: an ASCII letter or digit, other ASCII, or part of a multi-byte character (None: decode it)
_WORD_BYTE = tuple(chr(byte).isalnum() if byte < 0x80 else None for byte in range(256))


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


def fold_to_utf8(text: str) -> bytes:
    """``fold_case(text)`` as the UTF-8 bytes the automata scan (offsets map back to the text's characters);
    a lone surrogate, as malformed JSON can carry, passes through instead of failing the check."""
    return _utf8(fold_case(text))


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


def _collapse_spaces(data: bytes) -> bytes:
    while b"  " in data:  # halves every run per pass; twice as fast as a regex sub on law texts
        data = data.replace(b"  ", b" ")
    return data


class _CollapsedOffsets:
    """Maps byte offsets of the collapsed text back to the original one, reading the original's space runs only
    as far as the offsets asked for: a law text has thousands of runs and mostly no hit."""

    def __init__(self, original: bytes) -> None:
        self._original = original
        self._next_run = original.find(b"  ")
        self._removed = 0
        self._thresholds: list[int] = []  # collapsed offsets from which ...
        self._shifts: list[int] = []  # ... this many spaces lie removed before them

    def __call__(self, offset: int) -> int:
        while self._next_run != -1 and self._next_run + 1 - self._removed <= offset:
            run_end = self._next_run + 2
            while run_end < len(self._original) and self._original[run_end] == _SPACE:
                run_end += 1
            self._thresholds.append(self._next_run + 1 - self._removed)
            self._removed += run_end - self._next_run - 1
            self._shifts.append(self._removed)
            self._next_run = self._original.find(b"  ", run_end)
        index = bisect.bisect_right(self._thresholds, offset) - 1
        return offset + (self._shifts[index] if index >= 0 else 0)


def _alnum_before(data: bytes, index: int) -> bool:
    """Whether the multi-byte UTF-8 character ending at byte ``index`` is a letter or digit."""
    start = index - 1
    while data[start] & 0xC0 == 0x80:  # continuation bytes
        start -= 1
    return _text(data[start:index]).isalnum()


def _alnum_at(data: bytes, index: int) -> bool:
    """Whether the multi-byte UTF-8 character starting at byte ``index`` is a letter or digit."""
    lead = data[index]
    width = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
    return _text(data[index : index + width]).isalnum()


def _char_offsets(data: bytes, byte_offsets: Iterable[int]) -> dict[int, int]:
    """Character offsets of UTF-8 byte offsets, decoding the text once from left to right."""
    offsets: dict[int, int] = {}
    chars = previous = 0
    for offset in sorted(set(byte_offsets)):
        chars += len(_text(data[previous:offset]))
        offsets[offset] = chars
        previous = offset
    return offsets


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


class _Spelling(NamedTuple):
    form: str
    word_start: bool  # starts with a letter or digit: the text must not continue a word before it
    word_end: bool
    owners: tuple[tuple[str, str], ...]  # (entry key, configured text)


class _Found(NamedTuple):
    start: int  # UTF-8 byte offsets into the folded text
    end: int
    spelling: _Spelling


class TermMatcher:
    """Finds entries in a text; each hit names the entry key, the configured text and the form that matched.

    The automaton runs over the case-folded text's UTF-8 bytes (twice as fast as over ``str``); only accepted
    hits are mapped back to character offsets. Phrases must also match across runs of whitespace
    ("ohne  Risiko"): the automaton also holds each phrase word followed by two spaces, and where one of those
    occurs, the text is scanned once more for phrases, collapsed, and those hits are mapped back – offsets stay
    exact without mapping every hit of a long, indented text.

    ``probes`` ride along in the same scan: byte strings whose mere presence `scan_folded` reports (the claim
    patterns' literals), so a caller needs no second pass over the text.
    """

    def __init__(self, entries: Iterable[TermEntry], probes: Sequence[bytes] = ()) -> None:
        owners: dict[str, list[tuple[str, str]]] = {}
        for entry in entries:
            for form in spellings(entry.text, inflect=entry.inflect):
                if form:
                    owners.setdefault(form, []).append((entry.key, entry.text))
        self.size = len(owners)
        self._spellings = [_Spelling(f, f[0].isalnum(), f[-1].isalnum(), tuple(keys)) for f, keys in owners.items()]
        self._phrases = [s for s in self._spellings if " " in s.form]
        # "ohne  " is a phrase word before a run of spaces: only then can a phrase span a run
        gaps = sorted({word + "  " for phrase in self._phrases for word in phrase.form.split(" ")[:-1]})
        self._probes_from = len(self._spellings) + len(gaps)  # needle index of the first probe
        self._automaton = _automaton([_utf8(s.form) for s in self._spellings] + [_utf8(g) for g in gaps], probes)
        self._phrase_automaton = _automaton([_utf8(s.form) for s in self._phrases])

    def find(self, text: str) -> list[TermHit]:
        """Hits in text order; a hit must not continue a word on either side (hyphens and quotes end words)."""
        return self.scan_folded(fold_to_utf8(text))[0]

    def scan_folded(self, data: bytes) -> tuple[list[TermHit], list[int]]:
        """`find` on a text given as ``fold_to_utf8(text)`` (offsets are still the text's characters), and
        the indices of the probes that occur in it."""
        if self._automaton is None:
            return [], []
        found, phrase_gap, probes = _scan(self._automaton, self._spellings, data, self._probes_from)
        if phrase_gap and self._phrase_automaton is not None:  # finds every phrase again, spaced or not
            to_original = _CollapsedOffsets(data)
            found = [f for f in found if " " not in f.spelling.form] + [
                _Found(to_original(f.start), to_original(f.end - 1) + 1, f.spelling)
                for f in _scan(self._phrase_automaton, self._phrases, _collapse_spaces(data), len(self._phrases))[0]
            ]
        return _term_hits(data, found), probes


def _term_hits(data: bytes, found: list[_Found]) -> list[TermHit]:
    """One hit per entry owning each accepted spelling, in character offsets and text order."""
    if not found:
        return []
    chars = _char_offsets(data, (offset for f in found for offset in (f.start, f.end)))
    hits = [
        TermHit(chars[f.start], chars[f.end], key, entry, f.spelling.form)
        for f in found
        for key, entry in f.spelling.owners
    ]
    hits.sort(key=lambda hit: (hit.start, -hit.end))
    return hits


def _automaton(needles: list[bytes], probes: Sequence[bytes] = ()) -> BytesAhoCorasick | None:
    # the library picks the implementation: a DFA for few needles, a compact NFA for thousands (cache-friendlier)
    return BytesAhoCorasick([*needles, *probes]) if needles or probes else None


def _scan(
    automaton: BytesAhoCorasick, spellings: list[_Spelling], data: bytes, probes_from: int
) -> tuple[list[_Found], bool, list[int]]:
    """Accepted hits; whether a phrase word stood before a run of spaces (the needles after the spellings);
    the probes found (the needles from ``probes_from`` on)."""
    found: list[_Found] = []
    phrase_gap = False
    probes: list[int] = []
    length = len(data)
    for index, start, end in automaton.find_matches_as_indexes(data, overlapping=True):
        if index >= len(spellings):
            if index >= probes_from:
                probes.append(index - probes_from)
            else:
                phrase_gap = True
            continue
        spelling = spellings[index]
        if spelling.word_start and start:
            kind = _WORD_BYTE[data[start - 1]]
            if kind or (kind is None and _alnum_before(data, start)):
                continue
        if spelling.word_end and end < length:
            kind = _WORD_BYTE[data[end]]
            if kind or (kind is None and _alnum_at(data, end)):
                continue
        found.append(_Found(start, end, spelling))
    return found, phrase_gap, probes
