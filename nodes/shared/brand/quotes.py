"""Spans of quoted text in German and English typography: „…“ »…« «…» ‚…‘ “…” "…" ‘…’."""

from __future__ import annotations

import bisect

import regex

# One paragraph at most (no blank line inside); inner quotes of another style are part of the outer span.
_BODY = r"(?:[^\n{close}]|\n(?!\s*\n))*"
_QUOTED = regex.compile(
    "|".join(
        f"{opening}{_BODY.format(close=close)}[{close}]"
        for opening, close in (
            ("„", "“”"),
            ("»", "«"),
            ("«", "»"),
            ("‚", "‘’"),
            ("“", "”"),
            ('"', '"'),
            ("‘", "’"),
        )
    )
)


class QuotedSpans:
    """Where the quotations are; ``covers`` answers whether a span lies fully inside one."""

    def __init__(self, text: str) -> None:
        spans: list[tuple[int, int]] = []
        position = 0
        while (match := _QUOTED.search(text, position)) is not None:
            spans.append((match.start(), match.end()))
            position = match.end()
        self.spans = spans
        self._starts = [start for start, _ in spans]

    def covers(self, start: int, end: int) -> bool:
        index = bisect.bisect_right(self._starts, start) - 1
        return index >= 0 and self.spans[index][1] >= end
