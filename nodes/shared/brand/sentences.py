"""German sentence splitting that survives „Nr. 1“, „z. B.“, „Abs. 2“, ordinals and dates."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from nodes.shared.brand.vocabulary import ABBREVIATIONS

_TERMINATOR = re.compile(r"[.!?…]+[\"'“”»«‘’)\]]*")
_WORD = re.compile(r"\w+(?:[-'’]\w+)*")
_LAST_TOKEN = re.compile(r"(\w+)\W*$")
_NEXT_WORD = re.compile(r"\s+[\"'„“»«‚(\[]?(\w+)")
_LINE_BREAK = re.compile(r"\n(?![ \t]*[a-zäöüß])")
_PREVIOUS_WORD = re.compile(r"(\w+|§)\.?\s*\d+$")
LOOKBEHIND_CHARS = 40  # enough for the word before a period; searching from 0 would be quadratic
# Before these a number is a cardinal reference ("die Nr. 1.", "nach Abs. 2."), not an ordinal ("am 3. Mai").
CARDINAL_MARKERS = frozenset(
    {"nr", "nummer", "no", "platz", "rang", "top", "abs", "absatz", "art", "artikel", "s", "seite", "kap", "ziff", "§"}
)


@dataclass(frozen=True)
class Sentence:
    index: int
    start: int
    end: int
    text: str

    @property
    def words(self) -> list[str]:
        return _WORD.findall(self.text)


def count_words(text: str) -> int:
    return sum(1 for _ in _WORD.finditer(text))


def split_sentences(text: str) -> list[Sentence]:
    """Sentences with their character spans in ``text``; line breaks end a sentence unless the next line
    continues in lower case."""
    cuts = [m.end() for m in _TERMINATOR.finditer(text) if _ends_sentence(text, m.start(), m.end())]
    cuts += [m.start() for m in _LINE_BREAK.finditer(text)]
    sentences: list[Sentence] = []
    start = 0
    for cut in sorted(set(cuts)) + [len(text)]:
        if cut <= start:
            continue
        chunk = text[start:cut]
        stripped = chunk.strip()
        if stripped and any(ch.isalnum() for ch in stripped):
            offset = start + (len(chunk) - len(chunk.lstrip()))
            sentences.append(Sentence(len(sentences), offset, offset + len(stripped), stripped))
        start = cut
    return sentences


def sentence_at(sentences: list[Sentence], offset: int) -> int:
    """Index of the sentence containing ``offset`` (the nearest one before it in the gaps)."""
    starts = [s.start for s in sentences]
    return max(bisect.bisect_right(starts, offset) - 1, 0)


def _ends_sentence(text: str, start: int, end: int) -> bool:
    following = _NEXT_WORD.match(text, end)
    if end < len(text) and following is None:
        return not text[end].isalnum() and text[end] not in ",;:"  # "Nr.1" or "1.500": no space, no cut
    if following is None:
        return True
    next_word = following.group(1)
    if next_word[0].islower():
        return False
    if text[start] in "!?…":
        return True
    last = _LAST_TOKEN.search(text, max(0, start - LOOKBEHIND_CHARS), start)
    if last is None:
        return True
    token = last.group(1)
    if last.end(1) != start:
        return True  # "(siehe oben). Neu": the period follows a bracket or quote
    if token.lower() in ABBREVIATIONS or (len(token) == 1 and token.isalpha()):
        return False
    if token.isdigit() and len(token) <= 3:
        before = _PREVIOUS_WORD.search(text, max(0, start - LOOKBEHIND_CHARS), start)
        return before is not None and before.group(1).lower() in CARDINAL_MARKERS
    return True
