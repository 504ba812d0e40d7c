"""Plain-text helpers shared by the graphs: sentence splitting for German and model-output hygiene."""

from __future__ import annotations

import re
from typing import Final

import regex

_THINK: Final = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
# Abbreviations after which a period does not end a sentence (German legal and business prose).
ABBREVIATIONS: Final = frozenset(
    """abs art bzw ca d dr evtl gem ggf inkl lt max min mio mrd nr o prof s sog str tel u usw v vgl z zb zzgl
    ziff lit bspw etc ff hr fr jan feb mär apr jun jul aug sep sept okt nov dez""".split()
)
_BOUNDARY: Final = regex.compile(r"(?<=[.!?…])[\"'»«“”)\]]*\s+(?=[\p{Lu}\p{N}„\"»\[(⚠•\-–*])|\n+")


def strip_think(text: str) -> str:
    """Remove reasoning traces (``<think>…</think>``, also an unclosed one) that some models emit."""
    return _THINK.sub("", text).strip()


def split_sentences(text: str) -> list[str]:
    """Split German prose into sentences; list items and lines are sentences of their own.

    A period after an abbreviation (``z. B.``, ``Abs. 2``, ``Nr. 1``), an ordinal number or a single
    initial does not end a sentence.
    """
    sentences: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        candidate = text[start : match.start()]
        if match.group(0).strip() == "" and "\n" not in match.group(0) and _ends_with_non_terminal(candidate):
            continue
        if candidate.strip():
            sentences.append(candidate.strip())
        start = match.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences


def _ends_with_non_terminal(candidate: str) -> bool:
    stripped = candidate.rstrip()
    if not stripped.endswith("."):
        return False
    last_word = regex.split(r"[\s(\[„\"]+", stripped[:-1])[-1].casefold()
    if last_word.replace(".", "") in ABBREVIATIONS:
        return True
    if last_word.isdigit() and len(last_word) <= 2:  # "am 3. Mai", "Nr. 1." enumerations
        return True
    return len(last_word) == 1 and last_word.isalpha()
