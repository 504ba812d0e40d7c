"""Documents, verified findings and audit hashes, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from stores.scan.audit import AuditRecord, audit_hash, chain_hashes
from stores.scan.documents import DocumentNotFound, DocumentStore
from stores.scan.findings import FindingRejected, FindingStore, QuoteCandidate, ScanNotFound
from stores.sql.engine import Database
from tests.db_support import owner_database
from tests.scan_support import (
    AUDIT_KEY,
    TRAIL,
    document_draft,
    requirement_id,
    sample_findings,
    sample_header,
    store_catalog,
    store_document,
)


@pytest.fixture
def world(database: Database) -> dict[str, Any]:
    version = store_catalog(database)
    document = store_document(database)
    return {
        "db": database,
        "version": version,
        "document": document,
        "req1": requirement_id(database, version, "REQ-1"),
        "req2": requirement_id(database, version, "REQ-2"),
    }


def _save(world: dict[str, Any], scan_id: str = "scan-1") -> AuditRecord:
    return FindingStore(world["db"], trail=TRAIL).save_scan(
        sample_header(world["document"], world["version"], scan_id),
        document_id=world["document"].id,
        confidence_threshold=0.7,
        findings=sample_findings(world["req1"], world["req2"]),
    )


def test_same_bytes_are_stored_once(database: Database) -> None:
    store = DocumentStore(database)
    first, again = store.store(document_draft()), store.store(document_draft())
    assert first.id == again.id
    assert [page.is_citable for page in store.pages(first.id)] == [True, False, True]
    with pytest.raises(DocumentNotFound):
        store.get("nope")


def test_check_quotes_judges_without_storing(world: dict[str, Any]) -> None:
    candidates = [
        QuoteCandidate(requirement_id=world["req1"], page_number=1, exact_quote="Sensitivität\n96,4 %"),
        QuoteCandidate(requirement_id=world["req1"], page_number=1, exact_quote="Sensitivität 99,9 %"),
        QuoteCandidate(requirement_id=world["req1"], page_number=9, exact_quote="Sensitivität 96,4 %"),
    ]
    verdicts = FindingStore(world["db"], trail=TRAIL).check_quotes(
        document_id=world["document"].id, catalog_version_id=world["version"].id, candidates=candidates
    )
    assert verdicts == [None, "quote_not_on_page", "page_missing"]
    with world["db"].transaction() as connection:
        assert connection.execute(text("SELECT count(*) FROM scans")).scalar_one() == 0
        assert connection.execute(text("SELECT count(*) FROM findings")).scalar_one() == 0


def test_saved_scan_round_trips_with_chained_hashes(world: dict[str, Any]) -> None:
    sealed = _save(world)
    loaded = FindingStore(world["db"], trail=TRAIL).load_audit("scan-1")
    assert loaded == sealed
    assert [f.position for f in loaded.findings] == [1, 2]
    assert loaded.findings[1].exact_quote == "Unser Test ist 100 % sicher"  # stored in canonical whitespace
    assert list(loaded.finding_hashes) == chain_hashes(loaded.header, loaded.findings, key=AUDIT_KEY)
    assert loaded.audit_hash == audit_hash(loaded.header, loaded.findings, key=AUDIT_KEY) == loaded.finding_hashes[-1]
    assert FindingStore(world["db"], trail=TRAIL).verify(sealed).valid


def test_saving_the_same_scan_again_writes_nothing_twice(world: dict[str, Any]) -> None:
    assert _save(world) == _save(world)
    with world["db"].transaction() as connection:
        assert connection.execute(text("SELECT count(*) FROM findings")).scalar_one() == 2


def test_one_forged_finding_rolls_back_the_whole_scan(world: dict[str, Any]) -> None:
    records = sample_findings(world["req1"], world["req2"])
    records.append(records[0].model_copy(update={"exact_quote": "Sensitivität 99,9 %"}))
    with pytest.raises(FindingRejected, match="Befund 3 abgelehnt: Zitat steht nicht wörtlich"):
        FindingStore(world["db"], trail=TRAIL).save_scan(
            sample_header(world["document"], world["version"]),
            document_id=world["document"].id,
            confidence_threshold=0.7,
            findings=records,
        )
    with world["db"].transaction() as connection:
        assert connection.execute(text("SELECT count(*) FROM scans")).scalar_one() == 0
        assert connection.execute(text("SELECT count(*) FROM findings")).scalar_one() == 0


def _tamper_quote(database: Database, new_quote: str) -> None:
    """An administrator with DDL rights edits a stored quote, switching the immutability trigger off first."""
    with owner_database(database).transaction() as connection:
        if database.dialect == "postgresql":
            connection.execute(text("ALTER TABLE findings DISABLE TRIGGER trg_findings_immutable"))
        else:
            connection.execute(text("DROP TRIGGER trg_findings_immutable"))
        connection.execute(text("UPDATE findings SET exact_quote = :q WHERE position = 1"), {"q": new_quote})


def test_flipping_one_character_of_a_stored_quote_breaks_verification(world: dict[str, Any]) -> None:
    sealed = _save(world)
    _tamper_quote(world["db"], "Sensitivität 96,4 %".replace("96", "69"))
    verdict = FindingStore(world["db"], trail=TRAIL).verify(sealed)
    assert not verdict.valid
    assert "Datenbank: Befund an Stelle 1 passt nicht mehr zu seinem Hash (verändert)" in verdict.differences
    assert any(
        d.startswith("Befund an Stelle 1, exact_quote: Bericht 'Sensitivität 96,4 %'") for d in verdict.differences
    )


def test_reordered_report_findings_break_verification(world: dict[str, Any]) -> None:
    sealed = _save(world)
    swapped = sealed.model_copy(
        update={"findings": sealed.findings[::-1], "finding_hashes": sealed.finding_hashes[::-1]}
    )
    verdict = FindingStore(world["db"], trail=TRAIL).verify(swapped)
    assert not verdict.valid
    assert "Reihenfolge der Befunde weicht von der gespeicherten ab" in verdict.differences
    assert "Bericht: an Stelle 1 steht Befund Nr. 2 (Reihenfolge)" in verdict.differences


def test_changed_catalogue_version_breaks_verification(world: dict[str, Any]) -> None:
    sealed = _save(world)
    header = sealed.header.model_copy(update={"catalog_version_id": sealed.header.catalog_version_id + 1})
    forged = AuditRecord(
        header=header,
        findings=sealed.findings,
        finding_hashes=tuple(chain_hashes(header, sealed.findings, key=AUDIT_KEY)),
        audit_hash=audit_hash(header, sealed.findings, key=AUDIT_KEY),
    )
    verdict = FindingStore(world["db"], trail=TRAIL).verify(forged)
    assert not verdict.valid
    assert any(d.startswith("Kopf, catalog_version_id:") for d in verdict.differences)
    assert any(d.startswith("Audit-Hash: Bericht") for d in verdict.differences)


def test_unknown_scan_is_not_valid(world: dict[str, Any]) -> None:
    sealed = _save(world).model_copy(
        update={"header": sample_header(world["document"], world["version"], "scan-unbekannt")}
    )
    verdict = FindingStore(world["db"], trail=TRAIL).verify(sealed)
    assert (verdict.valid, verdict.differences) == (
        False,
        ("Scan 'scan-unbekannt' ist in der Datenbank nicht gespeichert.",),
    )
    with pytest.raises(ScanNotFound):
        FindingStore(world["db"], trail=TRAIL).load_audit("scan-unbekannt")
