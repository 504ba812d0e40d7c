"""Reading documents to scan: PDF text layers, Markdown and text pages, and every kind of bad input."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from stores.ingest.documents import DocumentError, read_document, split_text_pages
from tests.fakes.pdf import pdf_bytes


def _write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def test_pdf_pages_keep_their_text_and_blank_pages_are_not_citable(tmp_path: Path) -> None:
    path = _write(tmp_path / "flyer.pdf", pdf_bytes(["Sensitivität 96,4 %\nSpezifität 99 %", None, "Seite drei"]))
    document = read_document(path)
    assert document.media_type == "application/pdf"
    assert [page.page_number for page in document.pages] == [1, 2, 3]
    assert document.pages[0].raw_text == "Sensitivität 96,4 %\nSpezifität 99 %"
    assert [page.is_citable for page in document.pages] == [True, False, True]
    assert len(document.sha256) == 64


def test_markdown_pages_split_at_markers_and_form_feeds(tmp_path: Path) -> None:
    content = (
        "<!-- Seite 1 -->\n# Titel\nText eins\n<!-- Seite 2 -->\nText zwei\fText drei\n"
        "<!-- page -->\n\n<!-- Seite 5 -->\nEnde"
    )
    document = read_document(_write(tmp_path / "info.md", content))
    assert [page.raw_text for page in document.pages] == [
        "# Titel\nText eins\n",
        "Text zwei",
        "Text drei\n",
        "\n",
        "Ende",
    ]
    assert [page.is_citable for page in document.pages] == [True, True, True, False, True]


def test_text_before_the_first_marker_is_page_one() -> None:
    assert split_text_pages("a.txt", "Vorwort\n<!-- Seite 2 -->\nInhalt\n") == ["Vorwort\n", "Inhalt\n"]


def test_trailing_form_feed_does_not_open_an_empty_page() -> None:
    assert split_text_pages("a.txt", "eins\ffzwei\f\n") == ["eins", "fzwei"]


def test_wrong_page_number_in_marker_names_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "info.md", "Seite eins\n<!-- Seite 3 -->\nText\n")
    with pytest.raises(DocumentError, match=r"info\.md, Zeile 2: Seitenmarke nennt Seite 3, es ist aber Seite 2"):
        read_document(path)


def test_control_characters_are_removed(tmp_path: Path) -> None:
    document = read_document(_write(tmp_path / "a.txt", "Sens\x00itivität\x01 96,4 %\x02\n"))
    assert document.pages[0].raw_text == "Sensitivität 96,4 %\n"


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("leer.md", "", "die Datei ist leer"),
        ("leer.txt", "  \n\f \n", "die Datei ist leer"),
        ("nur-marken.md", "<!-- Seite 1 -->\n\n<!-- Seite 2 -->\n", "keinen zitierfähigen Text"),
        ("scan.pdf", pdf_bytes([None, None]), "keinen zitierfähigen Text"),
        ("kaputt.pdf", b"%PDF-1.4\n1 0 obj << /Type /Catalog >>\nGARBAGE", "beschädigt oder unlesbar"),
        ("kein.pdf", b"das ist kein PDF, nur Text", "beschädigt oder unlesbar"),
        ("abgeschnitten.pdf", pdf_bytes(["Text"])[:120], "beschädigt oder unlesbar"),
        ("latin1.txt", "Gr\xfc\xdfe\n".encode("latin-1"), "Zeile 1: keine UTF-8-Datei"),
        ("bild.png", b"\x89PNG", "unbekanntes Dateiformat '.png'"),
    ],
)
def test_bad_documents_are_refused_with_a_clear_message(
    tmp_path: Path, name: str, data: bytes | str, message: str
) -> None:
    with pytest.raises(DocumentError, match=message) as caught:
        read_document(_write(tmp_path / name, data))
    assert str(caught.value).startswith(name)


def test_encrypted_pdf_is_refused(tmp_path: Path) -> None:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes(["Geheimer Text auf Seite eins"]))))
    writer.encrypt(user_password="geheim", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    with pytest.raises(DocumentError, match="passwortgeschützt"):
        read_document(_write(tmp_path / "geheim.pdf", buffer.getvalue()))


def test_pdf_with_only_an_owner_password_is_readable(tmp_path: Path) -> None:
    """Print or copy restrictions do not hide the text; such PDFs open with an empty user password."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes(["Lesbarer Text auf Seite eins"]))))
    writer.encrypt(user_password="", owner_password="chef", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    document = read_document(_write(tmp_path / "eingeschraenkt.pdf", buffer.getvalue()))
    assert document.pages[0].raw_text == "Lesbarer Text auf Seite eins"


@pytest.mark.parametrize("suffix", [".pdf", ".md"])
def test_page_limit_is_enforced(tmp_path: Path, suffix: str) -> None:
    pages = [f"Seite {n} mit Text" for n in range(1, 5)]
    data = pdf_bytes(pages) if suffix == ".pdf" else "\f".join(pages)
    path = _write(tmp_path / f"lang{suffix}", data)
    assert len(read_document(path, max_pages=4).pages) == 4
    with pytest.raises(DocumentError, match="4 Seiten, erlaubt sind höchstens 3"):
        read_document(path, max_pages=3)
