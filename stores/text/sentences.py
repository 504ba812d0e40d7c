"""German sentence boundaries with exact character offsets, for hard-wrapped Markdown and plain text alike.

A boundary is either a hard line break or a sentence terminator. Line breaks are hard at blank lines, before
list items and enumerations (``- …``, ``1. …``, ``(2) …``, ``a) …``), around Markdown headings and table rows
(a row is one unit: a period in a cell ends no sentence; nor does a Markdown image's ``![``),
and after a short line ending in a capitalised word (a title) that the next line does not continue in lower
case or with an act's citation („Verordnung" + „(EU) 2017/745"). Every other line break is a soft wrap: the
sentence runs on, and ``Sentence.clean`` reads it as one space. A terminator (``.!?…``) ends a sentence unless
lower case follows or the period belongs to an abbreviation (``Abs.``, ``z. B.``, ``i. V. m.``), an initial, a
number (``1.500``, ``am 3. Mai``) or a cardinal reference (``Nr. 1.`` does end one); a number with its
thousands grouped ends one unless a determiner makes it an ordinal (``bei 2.000. Überreste``, ``der 1.000.
Besucher``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from stores.text.tables import Table, row_lines
from stores.text.vocabulary import (
    ABBREVIATIONS,
    AMBIGUOUS_ABBREVIATIONS,
    CARDINAL_MARKERS,
    ORDINAL_DETERMINERS,
    SENTENCE_STARTERS,
)

_TERMINATOR: Final = re.compile(r"[.!?…]+[\"'“”»«‘’)\]]*")
_WORD: Final = re.compile(r"\w+(?:[-'’]\w+)*")
_LAST_TOKEN: Final = re.compile(r"(\w+)\W*$")
_NEXT_WORD: Final = re.compile(r"\s+[\"'„“»«‚(\[]?(\w+|§)")
_PREVIOUS_WORD: Final = re.compile(r"(\w+|§)\.?\s*\d+$")
# a number with thousands grouped („2.000", „500 000") and the word before it
_GROUPED_NUMBER: Final = re.compile(r"(?:^|(\w+)[^\w\s]*\s+|\s)\d{1,3}(?:[.\u00a0\u202f ]\d{3})+$")
_NEWLINE: Final = re.compile(r"[ \t]*\n[ \t\n]*")
LIST_MARKER: Final = re.compile(
    r"[ \t]*(?:[-*•–][ \t]+|\(\d{1,3}[a-z]?\)[ \t]*|\d{1,3}[a-z]?[.)][ \t]+|[a-z]{1,3}\)[ \t]+)"  # „9a.", „aaa)" too
)
_HYPHEN_WRAP: Final = re.compile(r"(?<=\w-)[ \t]*\n\s*(?=[A-ZÄÖÜ])")  # "Plattform-\nAnbieter" is one word
_PARAGRAPH_NUMBER: Final = re.compile(r"[ \t]*\((\d{1,3}[a-z]?)\)")
_LETTERED_NUMBER: Final = re.compile(r"\d{1,3}[a-z]")
_NUMBERED: Final = re.compile(r"[ \t]*(\d{1,3})[.)][ \t]")
_ITEM_NUMBER: Final = re.compile(r"[ \t]*(\d{1,3}[a-z]?)[.)][ \t]")
_BLOCK_LINE: Final = re.compile(r"[ \t]*(?:#{1,6}[ \t]|\||>)")
TEXT_ENGINE_VERSION: Final = "de-9"  # part of the KB content hash: new boundaries or chunks re-chunk entries
SHORT_LINE: Final = 40  # a line this short that ends without punctuation is a title, not a wrapped line
LOOKBEHIND_CHARS: Final = 40  # enough for the word before a period; searching from 0 would be quadratic
_MAX_ORDINAL_DIGITS: Final = 3
# Markdown escapes a period or marker that would otherwise open a list ("vom\n27\\. April"): the backslash is no text.
_MARKDOWN_ESCAPE: Final = re.compile(r"\\(?=[.)*+#_\-])")
_CONTINUES: Final = (",", ";", "-", "–", "(", "/")
# a line that goes on citing an act („Verordnung" + „(EU) 2017/745", „(EG)" + „Nr. 1107/2009", „Richtlinie" +
# „2001/83/EG"): statutes break lines there, so the short line before it is no title
_CITATION_GOES_ON: Final = re.compile(r"[ \t]*(?:\((?:EU|EG|EWG|EGKS|Euratom)\)|Nr\.[ \t]*\d|\d+/\d+)")


@dataclass(frozen=True)
class Sentence:
    """One sentence or list item: ``text`` is exactly ``source[start:end]`` (line breaks included)."""

    index: int
    start: int
    end: int
    text: str

    @property
    def clean(self) -> str:
        """The sentence on one line: soft wraps and runs of whitespace read as one space, Markdown escapes as
        the character they escape."""
        return " ".join(_MARKDOWN_ESCAPE.sub("", _HYPHEN_WRAP.sub("", self.text)).split())

    @property
    def body(self) -> str:
        """``clean`` without a leading list or enumeration marker."""
        clean = self.clean
        marker = LIST_MARKER.match(clean)
        return clean[marker.end() :] if marker else clean

    @property
    def is_item(self) -> bool:
        return LIST_MARKER.match(self.text) is not None

    @property
    def opens_paragraph(self) -> bool:
        """It opens a numbered paragraph of a statute („(1) …")."""
        return self.paragraph_number is not None

    @property
    def paragraph_number(self) -> str | None:
        """The number of the statute paragraph it opens („2" for „(2) …"), else None."""
        found = _PARAGRAPH_NUMBER.match(self.text)
        return found.group(1) if found else None

    @property
    def is_list_item(self) -> bool:
        """An item of a list („1.", „a)", „-"), not a numbered paragraph („(1)")."""
        return self.is_item and not self.opens_paragraph

    @property
    def list_kind(self) -> str | None:
        """The kind of list the item belongs to: „-" (bullets), „1" („1.", „1)"), „a" („a)"), „aa" („aa)") or „aaa";
        None for no list item. Statutes nest them in that order („15. … jeder, der" + „a) …")."""
        marker = LIST_MARKER.match(self.text)
        if marker is None or self.opens_paragraph:
            return None
        sign = marker.group().strip()
        if sign[0].isdigit():
            return "1"
        return "a" * (len(sign) - 1) if sign[0].isalpha() else "-"

    @property
    def item_number(self) -> str | None:
        """The number of a numbered list item („3" for „3.", „9a" for „9a)"), else None."""
        found = _ITEM_NUMBER.match(self.text) if not self.opens_paragraph else None
        return found.group(1) if found else None

    @property
    def words(self) -> list[str]:
        return _WORD.findall(self.text)


def count_words(text: str) -> int:
    return sum(1 for _ in _WORD.finditer(text))


def split_sentences(text: str) -> list[Sentence]:
    """The sentences of ``text`` with their spans; leading and trailing whitespace is never part of one."""
    rows = row_lines(text)
    cuts = {
        m.end()
        for m in _TERMINATOR.finditer(text)
        if _ends_sentence(text, m.start(), m.end()) and not _inside_row(rows, m.end()) and not _opens_image(text, m)
    }
    cuts |= {start for start, _, hard in _line_breaks(text) if hard}
    sentences: list[Sentence] = []
    start = 0
    for cut in [*sorted(cuts), len(text)]:
        if cut <= start:
            continue
        chunk = text[start:cut]
        stripped = chunk.strip()
        if stripped and any(ch.isalnum() for ch in stripped):
            offset = start + (len(chunk) - len(chunk.lstrip()))
            sentences.append(Sentence(len(sentences), offset, offset + len(stripped), stripped))
        start = cut
    return sentences


def _opens_image(text: str, terminator: re.Match[str]) -> bool:
    """„![Ablauf](ablauf.png)": the exclamation mark of a Markdown image ends no sentence."""
    return terminator.group() == "!" and text.startswith("[", terminator.end())


def _inside_row(rows: Sequence[tuple[int, int]], offset: int) -> bool:
    """A table row is one unit: a period in a cell („| schriftlich. |") ends no sentence."""
    index = bisect.bisect_right([start for start, _ in rows], offset) - 1
    return index >= 0 and rows[index][0] < offset < rows[index][1]


def table_caption(text: str, sentences: Sequence[Sentence], table: Table) -> Sentence | None:
    """The sentence right above ``table`` that introduces it („Es gelten folgende Fristen:", „Die Firma zahlt
    Pauschalen nach Abwesenheit."); None where a heading, a list item or another table stands there."""
    last = next((s for s in reversed(sentences) if s.end <= table.start), None)
    if last is None or text.count("\n", last.end, table.start) > 2 or _BLOCK_LINE.match(last.text):
        return None
    return None if last.is_list_item or not last.clean.endswith((".", ":")) else last


def goes_on_item(text: str, sentences: Sequence[Sentence]) -> list[bool]:
    """For each sentence, whether it goes on a list item without being one: it follows the item, or a sentence that
    goes on it, on the same line of the unwrapped ``text`` („5. … (Lockangebote). Ist die Bevorratung kürzer …,
    nachzuweisen;"); a sentence on a line of its own, a heading say, ends the item."""
    marks: list[bool] = []
    inside, end = False, 0
    for sentence in sentences:
        if sentence.is_item or "\n" in text[end : sentence.start]:
            marks.append(False)
            inside = sentence.is_list_item
        else:
            marks.append(inside)
        end = sentence.end
    return marks


def list_parents(text: str, sentences: Sequence[Sentence], index: int) -> list[Sentence]:
    """The items that the list item at ``index`` is nested in, outermost first: „15. … als Hersteller gilt auch
    jeder, der" for its „a) …"."""
    levels: list[tuple[str | None, Sentence | None]] = []
    inside = goes_on_item(text, sentences)
    for sentence in sentences[: index + 1]:
        if not sentence.is_list_item:
            if not inside[sentence.index]:
                levels = []
            continue
        previous = sentences[sentence.index - 1] if sentence.index else None
        nests = previous is not None and previous.is_list_item and not closes_sentence(previous.body)
        depth = list_depth([kind for kind, _ in levels], sentence.list_kind, nests=nests)
        if depth is None:
            levels = [(sentence.list_kind, None)]
        elif depth == len(levels):
            levels.append((sentence.list_kind, previous))
        else:
            del levels[depth + 1 :]
    return [parent for _, parent in levels if parent is not None]


def list_depth(kinds: Sequence[str | None], kind: str | None, *, nests: bool) -> int | None:
    """Where an item of ``kind`` stands among the open lists (their item kinds, outermost first): in the list of
    its kind, which closes the lists nested since; one deeper, where it is of another kind and ``nests`` (right
    after an item that does not end its sentence: „15. … gilt auch jeder, der" + „a) …"); else (None) it opens a
    list of its own."""
    if kind in kinds:
        return kinds.index(kind)
    return len(kinds) if nests and kinds else None


def closes_sentence(body: str) -> bool:
    """The sentence (or item) ends with a terminator, also inside closing quotes."""
    return body.rstrip("\"“”»«'").endswith((".", "!", "?"))


def sentence_texts(text: str) -> list[str]:
    """Just the sentences, each on one line (what answer checks and extractive answers read)."""
    return [s.clean for s in split_sentences(text)]


def sentence_at(sentences: list[Sentence], offset: int) -> int:
    """Index of the sentence containing ``offset`` (the nearest one before it in the gaps)."""
    starts = [s.start for s in sentences]
    return max(bisect.bisect_right(starts, offset) - 1, 0)


def unwrap(text: str) -> str:
    """Soft-wrapped lines joined with one space; hard breaks kept (blank lines as one blank line)."""
    parts: list[str] = []
    start = 0
    for brk_start, brk_end, hard in _line_breaks(text):
        parts.append(text[start:brk_start])
        if hard:
            parts.append("\n\n" if text.count("\n", brk_start, brk_end) > 1 else "\n")
        elif not _HYPHEN_WRAP.match(text, brk_start):
            parts.append(" ")
        start = brk_end
    parts.append(text[start:])
    return "".join(parts).strip()


def pack_sentences(text: str, max_chars: int) -> list[tuple[int, int]]:
    """Spans of ``text`` of at most ``max_chars`` made of whole sentences; a longer sentence is cut hard."""
    spans: list[tuple[int, int]] = []
    first: int | None = None
    last = 0
    for sentence in split_sentences(text):
        if first is not None and sentence.end - first > max_chars:
            spans.append((first, last))
            first = None
        for cut in range(sentence.start, sentence.end, max_chars):
            if sentence.end - cut > max_chars:
                spans.append((cut, cut + max_chars))
                continue
            first = cut if first is None else first
            last = sentence.end
    if first is not None:
        spans.append((first, last))
    return spans


def _line_breaks(text: str) -> Iterator[tuple[int, int, bool]]:
    """Each line break (with the whitespace around it) as (start, end, hard)."""
    for match in _NEWLINE.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        previous = text[line_start : match.start()].strip()
        yield match.start(), match.end(), _is_hard_break(text, match, previous)


def _is_hard_break(text: str, match: re.Match[str], previous: str) -> bool:
    if match.group(0).count("\n") > 1 or match.end() >= len(text) or not previous:
        return True
    following = text[match.end() : text.find("\n", match.end()) if "\n" in text[match.end() :] else len(text)]
    if _BLOCK_LINE.match(following) or _BLOCK_LINE.match(previous):
        return True
    if LIST_MARKER.match(following):
        numbered = _NUMBERED.match(following)
        return numbered is None or _continues_enumeration(text, match.start(), int(numbered.group(1)))
    if following[:1].islower() or _CITATION_GOES_ON.match(following):
        return False
    last_word = previous.split()[-1]
    titled = last_word[0].isupper() or last_word[0].isdigit() or previous.endswith((":", "?", "!"))
    return len(previous) < SHORT_LINE and titled and not previous.endswith((*_CONTINUES, "."))


def _continues_enumeration(text: str, before: int, number: int) -> bool:
    """A line opening with "n." is an item when n is 1 or item n-1 came before; "… vom\n9. Mai" is a wrap."""
    if number == 1:
        return True
    return re.search(rf"(?m)^[ \t]*{number - 1}[.)][ \t]", text[:before]) is not None


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
    token_end = start - 1 if text[start - 1 : start] == "\\" else start  # "27\\. April": an escaped ordinal
    last = _LAST_TOKEN.search(text, max(0, token_end - LOOKBEHIND_CHARS), token_end)
    if last is None or last.end(1) != token_end:
        return True  # "(siehe oben). Neu": the period follows a bracket or quote
    token = last.group(1).lower()
    if token in AMBIGUOUS_ABBREVIATIONS:
        return next_word in SENTENCE_STARTERS
    if len(token) == 1 and token.isalpha():
        return text[last.start(1) - 1 : last.start(1)] == "/"  # "km/h." is a unit; "S." or "z. B." are not ends
    if token in ABBREVIATIONS:
        return False
    if _LETTERED_NUMBER.fullmatch(token) and not text[text.rfind("\n", 0, last.start(1)) + 1 : last.start(1)].strip():
        return False  # the marker of an inserted item („9a. Inverkehrbringen …") at the start of its line
    if token.isdigit() and len(token) <= _MAX_ORDINAL_DIGITS:
        grouped = _GROUPED_NUMBER.search(text, max(0, token_end - LOOKBEHIND_CHARS), token_end)
        if grouped is not None:  # „bei 2.000. Überreste …" ends; „der 1.000. Besucher" is an ordinal
            return (grouped.group(1) or "").lower() not in ORDINAL_DETERMINERS or next_word in SENTENCE_STARTERS
        before = _PREVIOUS_WORD.search(text, max(0, token_end - LOOKBEHIND_CHARS), token_end)
        cardinal = before is not None and before.group(1).lower() in CARDINAL_MARKERS
        return cardinal or next_word in SENTENCE_STARTERS
    return True
