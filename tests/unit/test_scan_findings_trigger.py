"""The database itself refuses forged findings: raw SQL inserts bypassing the application, on both databases."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError

from stores.sql.engine import Database
from tests.scan_support import (
    insert_scan_row,
    requirement_id,
    store_catalog,
    store_document,
)

FORGED_INSERT = text(
    "INSERT INTO findings (scan_id, position, requirement_id, chunk_id, page_number, exact_quote, finding_text,"
    " proposed_severity, severity, bucket, confidence, human_reviewed, finding_hash)"
    " VALUES (:scan_id, :position, :requirement_id, 'c1', :page_number, :exact_quote, 'Befund', 'MAJOR',"
    " 'MAJOR', 'report', 0.9, :reviewed, :hash)"
)


@pytest.fixture
def world(database: Database) -> dict[str, Any]:
    version = store_catalog(database)
    other = store_catalog(database, name="Anderer Katalog")
    document = store_document(database)
    insert_scan_row(database, "scan-1", document.id, version.id)
    return {
        "db": database,
        "requirement": requirement_id(database, version, "REQ-1"),
        "retired": requirement_id(database, version, "REQ-OLD"),
        "foreign": requirement_id(database, other, "REQ-1"),
    }


def _forge(world: dict[str, Any], **overrides: Any) -> None:
    values = {
        "scan_id": "scan-1",
        "position": 1,
        "requirement_id": world["requirement"],
        "page_number": 1,
        "exact_quote": "Sensitivität 96,4 %",
        "reviewed": False,
        "hash": "a" * 64,
    } | overrides
    with world["db"].transaction() as connection:
        connection.execute(FORGED_INSERT, values)


def _finding_count(database: Database) -> int:
    with database.transaction() as connection:
        return int(connection.execute(text("SELECT count(*) FROM findings")).scalar_one())


def test_genuine_quote_is_stored(world: dict[str, Any]) -> None:
    _forge(world)
    assert _finding_count(world["db"]) == 1


def test_quote_is_matched_modulo_whitespace(world: dict[str, Any]) -> None:
    """Line breaks and runs of spaces on the page and in the quote are one space each for the check."""
    _forge(world, exact_quote="96,4 %\n(n = 250   Proben) im\tVergleich")
    assert _finding_count(world["db"]) == 1


FORGERIES: list[tuple[dict[str, Any], str]] = [
    ({"exact_quote": "Sensitivität 99,9 %"}, "quote_not_on_page"),
    ({"exact_quote": "Sensitivität 96,4 % bei allen Proben"}, "quote_not_on_page"),
    ({"exact_quote": "sensitivität 96,4 %"}, "quote_not_on_page"),
    ({"exact_quote": "ersetzt jede ärztliche Diagnose", "page_number": 1}, "quote_not_on_page"),
    ({"page_number": 7}, "page_missing"),
    ({"page_number": 0}, "page_missing"),
    ({"page_number": 2}, "page_not_citable"),
    ({"exact_quote": "96,4 %"}, "quote_too_short"),
    ({"exact_quote": "     Sensitiv     "}, "quote_too_short"),
    ({"exact_quote": ""}, "quote_too_short"),
    ({"scan_id": "no-such-scan"}, "scan_missing"),
    ({"requirement_id": "retired"}, "requirement_outside_catalog"),
    ({"requirement_id": "foreign"}, "requirement_outside_catalog"),
]


def test_forged_findings_are_refused(world: dict[str, Any]) -> None:
    """Each forgery in its own transaction; the trigger names the reason, and no row is left behind."""
    for overrides, reason in FORGERIES:
        if overrides.get("requirement_id") in ("retired", "foreign"):
            overrides = overrides | {"requirement_id": world[overrides["requirement_id"]]}
        with pytest.raises(IntegrityError, match=f"finding_rejected:{reason}"):
            _forge(world, **overrides)
    assert _finding_count(world["db"]) == 0


def test_forged_quote_with_control_characters_is_refused(world: dict[str, Any]) -> None:
    """char(1)/char(2) would confuse SQLite's whitespace rule, so no quote may contain them."""
    with pytest.raises(IntegrityError):
        _forge(world, exact_quote="Sensitivit\x02\x01ät 96,4 %")
    assert _finding_count(world["db"]) == 0


def test_stored_finding_cannot_be_altered(world: dict[str, Any]) -> None:
    _forge(world)
    with pytest.raises(DBAPIError, match="row_immutable:findings|permission denied for table findings"):
        with world["db"].transaction() as connection:
            connection.execute(text("UPDATE findings SET exact_quote = 'Sensitivität 99,9 %'"))
    with world["db"].transaction() as connection:
        assert connection.execute(text("SELECT exact_quote FROM findings")).scalar_one() == "Sensitivität 96,4 %"


IMMUTABLE = [
    ("document_pages", "raw_text = 'Sensitivität 99,9 %'"),
    ("documents", "sha256 = '" + "0" * 64 + "'"),
    ("requirements", "clause_status = 'RETIRED'"),
    ("catalog_versions", "name = 'umbenannt'"),
    ("scans", "audit_hash = '" + "0" * 64 + "'"),
]


def test_what_the_audit_covers_is_immutable(world: dict[str, Any]) -> None:
    for table, assignment in IMMUTABLE:
        with pytest.raises(DBAPIError, match=f"row_immutable:{table}|permission denied for table {table}"):
            with world["db"].transaction() as connection:
                connection.execute(text(f"UPDATE {table} SET {assignment}"))
