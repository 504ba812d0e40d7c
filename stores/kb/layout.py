"""How KB entries map onto the hybrid index: one alias per KB, chunks with stable ids, and their payload."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date
from typing import Any, Final

from stores.kb.models import KBEntry
from stores.text import (
    TEXT_ENGINE_VERSION,
    Sentence,
    Table,
    goes_on_item,
    list_parents,
    pack_sentences,
    split_sentences,
    table_caption,
    tables,
    unwrap,
)
from stores.vector.index import IndexPoint

KB_ID: Final = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
TENANT_KEY: Final = "kb_id"
NO_START: Final = 0
NO_END: Final = 99_991_231


class InvalidKBId(ValueError):
    def __init__(self, kb_id: str) -> None:
        super().__init__(
            f"Ungültige KB-ID {kb_id!r}: erlaubt sind Kleinbuchstaben, Ziffern, '-' und '_' (höchstens 63 Zeichen)."
        )


def checked_kb_id(kb_id: str) -> str:
    if not KB_ID.match(kb_id):
        raise InvalidKBId(kb_id)
    return kb_id


def kb_alias(prefix: str, kb_id: str) -> str:
    """The Qdrant alias of a KB: one collection per KB keeps IDF statistics per tenant."""
    return f"{prefix}_kb_{checked_kb_id(kb_id)}"


def day_number(day: date | None, default: int) -> int:
    """A date as YYYYMMDD, so validity filters are plain integer ranges (no null handling in Qdrant)."""
    return default if day is None else day.year * 10_000 + day.month * 100 + day.day


def day_of(number: int) -> date | None:
    """The date of a ``day_number``; None for the open ends ``NO_START`` and ``NO_END``."""
    if number in (NO_START, NO_END):
        return None
    return date(number // 10_000, number // 100 % 100, number % 100)


@dataclass(frozen=True)
class Chunk:
    """One chunk of an entry; its first ``repeated`` characters repeat the lead-in of a list, or the caption and
    heading rows of a table, it opens inside."""

    text: str
    repeated: int = 0


def chunk_text(text: str, max_chars: int) -> list[Chunk]:
    """The entry text unwrapped (soft line wraps joined) and packed into whole sentences of at most
    ``max_chars`` (a longer single sentence is cut hard; a list's lead-in or a table's caption and heading rows are
    repeated on top). Deterministic, so chunk ids stay stable."""
    flowing = unwrap(text)
    if len(flowing) <= max_chars:
        return [Chunk(flowing)]
    sentences = split_sentences(flowing)
    found = tables(flowing)
    return [_with_context(flowing, sentences, found, start, end) for start, end in pack_sentences(flowing, max_chars)]


def _with_context(text: str, sentences: list[Sentence], found: list[Table], start: int, end: int) -> Chunk:
    """The chunk ``text[start:end]``, with what a chunk that opens inside a list or a table needs on top: without
    it the chunk's items are no sentences a reader (or the answer) can use, its rows are cells without headings,
    and it embeds without its subject."""
    chunk = text[start:end]
    opening = next((s for s in sentences if s.start >= start), None)
    if start == 0 or opening is None:
        return Chunk(chunk)
    table = next((t for t in found if t.start <= start < t.end), None)
    parts = (
        _table_context(text, sentences, table, start) if table is not None else _list_lead_in(text, sentences, opening)
    )
    if not parts:
        return Chunk(chunk)
    # a table's rows follow its heading rows line by line; a lead-in and a caption end a paragraph
    rows_follow = table is not None and start >= table.body_start
    prefix = "".join(f"{part}\n\n" for part in parts[:-1]) + parts[-1] + ("\n" if rows_follow else "\n\n")
    return Chunk(prefix + chunk, len(prefix))


def _table_context(text: str, sentences: list[Sentence], table: Table, start: int) -> list[str]:
    """The table's caption, where it has one („Es gelten folgende Fristen:"), and its heading and delimiter rows where
    the chunk opens below them."""
    caption = table_caption(text, sentences, table)
    parts = [caption.text] if caption is not None else []
    if start >= table.body_start:
        parts.append(text[table.start : table.body_start].rstrip("\n"))
    return parts


def _list_lead_in(text: str, sentences: list[Sentence], opening: Sentence) -> list[str]:
    """The lead-in of a list the chunk opens inside („Außerhalb der Fachkreise darf für Arzneimittel … nicht geworben
    werden"), with the items an item of a nested list reads with („15. … jeder, der" for „b) …")."""
    if not opening.is_list_item:
        return []
    # the sentence before the list: neither an item nor a further sentence of one („Ist die Bevorratung …;")
    inside = goes_on_item(text, sentences)
    lead_in = next(
        (s for s in reversed(sentences) if s.end <= opening.start and not s.is_list_item and not inside[s.index]),
        None,
    )
    if lead_in is None or lead_in.clean.endswith((".", "!", "?")):
        return []
    parents = [p.text for p in list_parents(text, sentences, opening.index) if p.start > lead_in.start]
    return [lead_in.text, *parents]


def chunk_id(entry_id: str, number: int) -> str:
    return f"{entry_id}#{number}"


def chunk_number(chunk: str) -> int:
    return int(chunk.rsplit("#", 1)[1])


def point_id(kb_id: str, chunk: str) -> str:
    return f"{kb_id}:{chunk}"


def entry_points(entry: KBEntry, max_chars: int) -> list[IndexPoint]:
    """The index points of one entry; title and section are indexed with every chunk."""
    points = []
    for number, piece in enumerate(chunk_text(entry.text, max_chars), start=1):
        payload: dict[str, Any] = {
            TENANT_KEY: entry.kb_id,
            "entry_id": entry.id,
            "chunk_id": chunk_id(entry.id, number),
            "title": entry.title,
            "section": entry.section,
            "text": piece.text,
            "repeated_chars": piece.repeated,
            "stand": entry.stand,
            "work": entry.work,
            "official": entry.official,
            "source_ref": entry.source_ref,
            "cross_refs": list(entry.cross_refs),
            "valid_from_n": day_number(entry.valid_from, NO_START),
            "valid_until_n": day_number(entry.valid_until, NO_END),
        }
        indexed = "\n".join(part for part in (entry.title, entry.section, piece.text) if part)
        points.append(IndexPoint(id=point_id(entry.kb_id, payload["chunk_id"]), text=indexed, payload=payload))
    return points


def content_hash(entry: KBEntry, max_chars: int) -> str:
    """Changes whenever the entry or its chunking changes; equal hashes mean nothing to re-index."""
    body = entry.model_dump_json() + f"|chunk_chars={max_chars}|text={TEXT_ENGINE_VERSION}"
    return hashlib.sha256(body.encode("utf-8")).hexdigest()
