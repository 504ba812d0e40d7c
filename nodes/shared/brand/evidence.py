"""Evidence: a quote with its character span and sentence, for rule hits and for passages an LLM cites."""

from __future__ import annotations

import regex

from nodes.shared.brand.reasons import Evidence
from stores.text import Sentence, sentence_at


def evidence_for(text: str, sentences: list[Sentence], start: int, end: int) -> Evidence:
    return Evidence(quote=text[start:end], start=start, end=end, sentence_index=sentence_at(sentences, start))


def locate_passage(text: str, sentences: list[Sentence], passage: str) -> Evidence | None:
    """Find a passage an LLM quoted; None when it is not in the text (the judge must not invent quotes)."""
    cleaned = passage.strip().strip("„“”\"'»«‚‘’…").strip()
    if not cleaned:
        return None
    start = text.find(cleaned)
    if start >= 0:
        return evidence_for(text, sentences, start, start + len(cleaned))
    words = regex.findall(r"\w+", cleaned)
    if not words:
        return None
    loose = regex.compile(r"\W+".join(regex.escape(w) for w in words), regex.IGNORECASE)
    match = loose.search(text)
    return None if match is None else evidence_for(text, sentences, match.start(), match.end())
