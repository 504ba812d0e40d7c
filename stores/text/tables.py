"""Markdown tables (``| Abwesenheit | Pauschale |`` + ``|---|---|`` + rows): where they stand and what each row says.

A KB states many of its figures in tables (notice periods by years of service, allowances by hours away). A row
alone („| 24 Stunden | 28 € |") says nothing a reader can use; read with its column headings it does
(„Abwesenheit: 24 Stunden; Pauschale: 28 €").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

_ROW: Final = re.compile(r"^[ \t]*\|.*$", re.MULTILINE)
_CELL_BORDER: Final = re.compile(r"(?<!\\)\|")
_DELIMITER_CELL: Final = re.compile(r":?-+:?")
_EMPHASIS: Final = re.compile(r"\*\*|__|`")


@dataclass(frozen=True)
class TableRow:
    start: int  # offsets of the row's line in the text, without its line break
    end: int
    cells: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    start: int  # where the heading row begins
    body_start: int  # where the line after the delimiter row begins
    end: int
    headings: tuple[str, ...]
    rows: tuple[TableRow, ...]

    def row_at(self, offset: int) -> TableRow | None:
        return next((row for row in self.rows if row.start <= offset < row.end), None)


def row_lines(text: str) -> list[tuple[int, int]]:
    """The spans of every line that opens with ``|``: a sentence never ends inside one."""
    return [(m.start(), m.end()) for m in _ROW.finditer(text)]


def tables(text: str) -> list[Table]:
    """The tables of ``text``: a heading row, a delimiter row of as many cells (``|---|:--:|``), then body rows."""
    lines = [(m.start(), m.end(), m.group()) for m in _ROW.finditer(text)]
    found: list[Table] = []
    index = 0
    while index + 1 < len(lines):
        start, _, heading = lines[index]
        delimiter_start, delimiter_end, delimiter = lines[index + 1]
        headings = _cells(heading)
        if not _adjacent(text, lines[index][1], delimiter_start) or not _is_delimiter(delimiter, len(headings)):
            index += 1
            continue
        rows: list[TableRow] = []
        previous_end = delimiter_end
        index += 2
        while index < len(lines) and _adjacent(text, previous_end, lines[index][0]):
            row_start, row_end, line = lines[index]
            rows.append(TableRow(row_start, row_end, _cells(line)))
            previous_end = row_end
            index += 1
        body_start = min(delimiter_end + 1, len(text))
        found.append(Table(start, body_start, previous_end, headings, tuple(rows)))
    return found


def row_statement(headings: tuple[str, ...], cells: tuple[str, ...]) -> str:
    """The row as its cells under their headings, empty cells left out: „Abwesenheit: 24 Stunden; Pauschale: 28 €"."""
    pairs = [
        f"{heading}: {cell}" if heading else cell
        for heading, cell in zip((*headings, *[""] * len(cells)), cells, strict=False)
        if cell
    ]
    return "; ".join(pairs)


def _cells(line: str) -> tuple[str, ...]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return tuple(" ".join(_EMPHASIS.sub("", cell).replace("\\|", "|").split()) for cell in _CELL_BORDER.split(inner))


def _is_delimiter(line: str, columns: int) -> bool:
    cells = _cells(line)
    return len(cells) == columns and all(_DELIMITER_CELL.fullmatch(cell.replace(" ", "")) for cell in cells)


def _adjacent(text: str, end: int, start: int) -> bool:
    """Two rows of one table: nothing but a single line break between them."""
    return text[end:start].strip(" \t") == "\n"
