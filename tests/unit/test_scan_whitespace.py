"""Python, SQLite and PostgreSQL apply the same whitespace rule to pages and quotes (the trigger's basis)."""

from __future__ import annotations

import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from stores.scan.documents import DocumentDraft, DocumentStore, PageText
from stores.scan.findings import FindingStore, QuoteCandidate
from stores.scan.whitespace import WHITESPACE_CHARACTERS, canonical_whitespace
from stores.sql.engine import Database
from tests.scan_support import TRAIL, requirement_id, store_catalog

ALPHABET = st.one_of(st.sampled_from(WHITESPACE_CHARACTERS), st.sampled_from("abcdefäß%-\u2008"))
TEXTS = st.text(alphabet=ALPHABET, max_size=60)
HYPOTHESIS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _store_page(database: Database, raw: str) -> str:
    draft = DocumentDraft(
        file_name="p.txt",
        sha256=uuid.uuid4().hex * 2,
        media_type="text/plain",
        pages=(PageText(page_number=1, raw_text=raw, is_citable=True),),
    )
    return DocumentStore(database).store(draft).id


def test_python_rule_examples() -> None:
    assert canonical_whitespace("  a\t\n b\u00a0\u202f c \f\v\r") == "a b c"
    assert canonical_whitespace("a\u2008b") == "a\u2008b"  # punctuation space is not in the rule


@HYPOTHESIS
@given(raw=TEXTS)
def test_stored_page_is_normalised_like_python(database: Database, raw: str) -> None:
    document_id = _store_page(database, raw)
    with database.transaction() as connection:
        stored = connection.execute(
            text("SELECT normalized_text FROM document_pages WHERE document_id = :d"), {"d": document_id}
        ).scalar_one()
    assert stored == canonical_whitespace(raw)


@HYPOTHESIS
@given(
    page=TEXTS.map(lambda s: "Anfang " + s + " Ende"),
    quote=st.text(alphabet=ALPHABET, min_size=12, max_size=30),
    cut_from_page=st.booleans(),
    start=st.integers(0, 60),
)
def test_trigger_accepts_exactly_what_python_finds(
    database: Database, page: str, quote: str, cut_from_page: bool, start: int
) -> None:
    """Quotes are cut from the page (then re-spaced) or random; the oracle is Python's rule."""
    version = store_catalog(database, name=f"k{uuid.uuid4().hex}")
    document_id = _store_page(database, page)
    if cut_from_page:
        cut = page[start % len(page) :][: 10 + len(quote)]
        quote = "".join(ch + ("\n\t" if ch == " " and index % 3 == 0 else "") for index, ch in enumerate(cut))
    verdict = FindingStore(database, trail=TRAIL).check_quotes(
        document_id=document_id,
        catalog_version_id=version.id,
        candidates=[
            QuoteCandidate(requirement_id=requirement_id(database, version, "REQ-1"), page_number=1, exact_quote=quote)
        ],
    )[0]
    expected_quote, expected_page = canonical_whitespace(quote), canonical_whitespace(page)
    if len(expected_quote) < 10:
        assert verdict == "quote_too_short"
    elif expected_quote in expected_page:
        assert verdict is None
    else:
        assert verdict == "quote_not_on_page"
