"""Step 1: cut the citable pages into page-aware chunks; a chunk that spans pages records each segment's page."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from nodes.scan.context import ScanContext, context_of
from nodes.scan.services import ScanServices
from nodes.scan.state import Chunk, DocumentInfo, ScanState, Segment
from stores.scan.documents import PageText
from stores.text import split_sentences

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def _spans(text: str, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    """Non-blank stretches of ``text`` between matches of ``pattern``, as (start, end) offsets."""
    spans, start = [], 0
    for match in pattern.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


def _pieces(text: str, max_chars: int) -> list[tuple[int, int]]:
    """Offsets of paragraphs, long ones split at sentence ends, overlong sentences cut hard."""
    pieces = []
    for start, end in _spans(text, _PARAGRAPH_BREAK):
        if end - start <= max_chars:
            pieces.append((start, end))
            continue
        for sentence in split_sentences(text[start:end]):
            s_start, s_end = start + sentence.start, start + sentence.end
            for cut in range(s_start, s_end, max_chars):
                pieces.append((cut, min(cut + max_chars, s_end)))
    return pieces


def split_into_chunks(pages: list[PageText], max_chars: int) -> list[Chunk]:
    """Pack page pieces totalling at most ``max_chars`` into chunks; segment texts are verbatim page text.

    A new page opens a new chunk unless the current one is less than half full, so chunks follow pages
    where they can (sharper clause retrieval) and short pages still share one model call.
    """
    chunks: list[Chunk] = []
    segments: list[Segment] = []
    size = 0

    def close() -> None:
        nonlocal segments, size
        if segments:
            chunks.append(Chunk(chunk_id=f"c{len(chunks) + 1:04d}", segments=tuple(segments)))
        segments, size = [], 0

    for page in pages:
        if not page.is_citable:
            continue
        if size >= max_chars // 2:
            close()
        first: int | None = None
        last = 0
        for start, end in _pieces(page.raw_text, max_chars):
            if size + (end - start) > max_chars:
                if first is not None:
                    segments.append(Segment(page_number=page.page_number, text=page.raw_text[first:last]))
                    first = None
                close()
            first = start if first is None else first
            last = end
            size += end - start
        if first is not None:
            segments.append(Segment(page_number=page.page_number, text=page.raw_text[first:last]))
    close()
    return chunks


def chunk_pages(state: ScanState, runtime: Runtime[ScanContext], *, services: ScanServices) -> dict[str, Any]:
    ctx = context_of(runtime)
    stored = services.documents.get(state["document_id"])
    pages = services.documents.pages(stored.id)
    document = DocumentInfo(
        id=stored.id,
        file_name=stored.file_name,
        sha256=stored.sha256,
        page_count=stored.page_count,
        uncitable_pages=tuple(page.page_number for page in pages if not page.is_citable),
    )
    return {"document": document, "chunks": split_into_chunks(pages, ctx.chunk_chars)}
