"""Read a document to scan into pages: PDF (text layer via pypdf), Markdown or plain text.

Markdown and plain text are split into pages at form feeds (``\\f``) and at page-marker lines
``<!-- Seite N -->`` (also ``<!-- page N -->``; the number is optional and, when given, must be the number
of the page the marker starts). A page without any text is kept but marked not citable.
"""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

from stores.scan.documents import DocumentDraft, MediaType, PageText

DEFAULT_MAX_PAGES = 500
MAX_PAGE_CHARS = 1_000_000  # the database's CHECK on document_pages.raw_text
MEDIA_TYPES: dict[str, MediaType] = {
    ".pdf": "application/pdf",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".text": "text/plain",
}
_PAGE_MARKER = re.compile(r"^\s*<!--\s*(?:seite|page)(?:\s+(\d+))?\s*-->\s*$", re.IGNORECASE)
# Control characters other than whitespace carry no text; char(1)/char(2) are also refused by the database.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


class DocumentError(ValueError):
    """A document that cannot be scanned; the message names the file and what is wrong."""


def read_document(path: Path, *, max_pages: int = DEFAULT_MAX_PAGES) -> DocumentDraft:
    """All pages of the file, or a DocumentError; a document without any citable text is an error too."""
    media_type = MEDIA_TYPES.get(path.suffix.lower())
    if media_type is None:
        known = ", ".join(sorted(MEDIA_TYPES))
        raise DocumentError(f"{path.name}: unbekanntes Dateiformat '{path.suffix}', unterstützt: {known}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError(f"{path}: nicht lesbar ({exc.strerror})") from exc
    if not data.strip():
        raise DocumentError(f"{path.name}: die Datei ist leer")
    if media_type == "application/pdf":
        texts = _pdf_pages(path.name, data, max_pages)
    else:
        texts = split_text_pages(path.name, _decode(path.name, data))
    if len(texts) > max_pages:
        raise DocumentError(f"{path.name}: {len(texts)} Seiten, erlaubt sind höchstens {max_pages}")
    pages = tuple(_page(path.name, number, raw) for number, raw in enumerate(texts, start=1))
    if not any(page.is_citable for page in pages):
        raise DocumentError(f"{path.name}: enthält keinen zitierfähigen Text (keine Textebene)")
    return DocumentDraft(
        file_name=path.name, sha256=hashlib.sha256(data).hexdigest(), media_type=media_type, pages=pages
    )


def split_text_pages(file_name: str, content: str) -> list[str]:
    """Pages of a Markdown or text file, split at form feeds and page-marker lines."""
    pages: list[list[str]] = [[]]
    marker_seen = False
    for number, line in enumerate(content.splitlines(keepends=True), start=1):
        marker = _PAGE_MARKER.match(line)
        if marker is None:
            *before, last = line.split("\f")
            for piece in before:
                pages[-1].append(piece)
                pages.append([])
            pages[-1].append(last)
            continue
        if marker_seen or len(pages) > 1 or "".join(pages[0]).strip():
            pages.append([])
        else:
            pages[0] = []  # the first marker, before any text, opens page 1
        marker_seen = True
        stated = marker.group(1)
        if stated is not None and int(stated) != len(pages):
            raise DocumentError(
                f"{file_name}, Zeile {number}: Seitenmarke nennt Seite {stated}, es ist aber Seite {len(pages)}"
            )
    texts = ["".join(lines) for lines in pages]
    while len(texts) > 1 and not texts[-1].strip():
        texts.pop()  # a trailing form feed or marker ends the last page, it does not open an empty one
    return texts


def _decode(file_name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DocumentError(f"{file_name}, Zeile {line}: keine UTF-8-Datei (Byte {exc.start})") from exc


def _pdf_pages(file_name: str, data: bytes, max_pages: int) -> list[str]:
    from pypdf import PasswordType, PdfReader  # imported on use: it costs the CLI's start almost a second

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and reader.decrypt("") == PasswordType.NOT_DECRYPTED:
            raise DocumentError(f"{file_name}: das PDF ist passwortgeschützt und kann nicht gelesen werden")
        count = len(reader.pages)
        if count > max_pages:
            raise DocumentError(f"{file_name}: {count} Seiten, erlaubt sind höchstens {max_pages}")
        return [page.extract_text() or "" for page in reader.pages]
    except DocumentError:
        raise
    except Exception as exc:  # pypdf signals broken files with many exception types
        raise DocumentError(f"{file_name}: das PDF ist beschädigt oder unlesbar ({type(exc).__name__}: {exc})") from exc


def _page(file_name: str, number: int, raw: str) -> PageText:
    text = _CONTROL.sub("", raw)
    if len(text) > MAX_PAGE_CHARS:
        raise DocumentError(f"{file_name}, Seite {number}: mehr als {MAX_PAGE_CHARS} Zeichen")
    return PageText(page_number=number, raw_text=text, is_citable=bool(text.strip()))
