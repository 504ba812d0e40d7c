"""The audit trail is append-only and verifiable without trusting the database.

The attacks of issue 14, replayed: as the application's role (PostgreSQL: a role that owns nothing), as
the schema owner (the triggers refuse), and as someone who rewrites database and report together.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from stores.brand.audit import AuditStore
from stores.brand.store import BrandStore
from stores.scan.audit import AuditRecord, seal
from stores.scan.findings import FindingStore
from stores.scan.trail import AuditTrail, ChainHeadLog
from stores.sql.engine import Database
from stores.sql.reviews import DecisionRecord, ReviewStore
from tests.brand_support import audit_entry, build_dna
from tests.db_support import owner_database
from tests.scan_support import (
    AUDIT_KEY,
    TRAIL,
    requirement_id,
    sample_findings,
    sample_header,
    store_catalog,
    store_document,
)

ATTACKS = [
    "UPDATE findings SET severity = 'HINT', bucket = 'report'",
    "UPDATE scans SET audit_hash = '" + "0" * 64 + "'",
    "DELETE FROM findings WHERE position = 2",
    "DELETE FROM findings",
    "DELETE FROM scans",
    "DELETE FROM document_pages",
    "DELETE FROM requirements WHERE stable_id = 'REQ-2'",
    "DELETE FROM scorecard_audit",
    "UPDATE scorecard_audit SET score = 9.9",
]
POSTGRES_ATTACKS = [
    "TRUNCATE findings",
    "TRUNCATE scans CASCADE",
    "TRUNCATE scorecard_audit",
    "SET session_replication_role = replica",
    "ALTER TABLE findings DISABLE TRIGGER ALL",
    "ALTER TABLE findings DISABLE TRIGGER trg_findings_no_delete",
    "DROP TRIGGER trg_findings_no_delete ON findings",
    "ALTER TABLE scans OWNER TO CURRENT_USER",
    "GRANT DELETE ON findings TO CURRENT_USER",
]


@pytest.fixture
def world(database: Database) -> dict[str, Any]:
    """A stored catalogue and document, and a scan of two findings, the second decided by reviewer 'eva'."""
    version = store_catalog(database)
    first, second = sample_findings(
        requirement_id(database, version, "REQ-1"), requirement_id(database, version, "REQ-2")
    )
    reviewed = {"severity": "MINOR", "bucket": "report", "human_reviewed": True, "reviewed_by": "eva"}
    document = store_document(database)
    return {
        "db": database,
        "header": sample_header(document, version),
        "records": [first, second.model_copy(update=reviewed)],
        "document": document,
    }


def _save(world: dict[str, Any], trail: AuditTrail = TRAIL) -> AuditRecord:
    return FindingStore(world["db"], trail=trail).save_scan(
        world["header"],
        document_id=world["document"].id,
        confidence_threshold=0.7,
        findings=world["records"],
    )


def _scorecard_row(database: Database) -> int:
    BrandStore(database).save(build_dna())
    return AuditStore(database).record(audit_entry())


def _snapshot(database: Database) -> list[Any]:
    with database.transaction() as connection:
        return [
            connection.execute(text(f"SELECT * FROM {table} ORDER BY 1, 2")).all()
            for table in ("scans", "findings", "document_pages", "requirements", "scorecard_audit")
        ]


def _accepted(database: Database, statements: list[str]) -> list[str]:
    accepted = []
    for statement in statements:
        try:
            with database.transaction() as connection:
                connection.execute(text(statement))
                # a switch that was accepted is used at once, as an attacker would
                connection.execute(text("DELETE FROM findings"))
        except DBAPIError:
            continue
        accepted.append(statement)
    return accepted


def test_the_application_cannot_rewrite_or_bypass_the_audit_trail(world: dict[str, Any]) -> None:
    database = world["db"]
    _save(world)
    _scorecard_row(database)
    before = _snapshot(database)
    attacks = ATTACKS + (POSTGRES_ATTACKS if database.dialect == "postgresql" else [])
    assert _accepted(database, attacks) == []
    assert _snapshot(database) == before


def test_the_schema_owner_is_refused_by_the_triggers_too(world: dict[str, Any]) -> None:
    """Even the owner (who could drop the triggers, visibly, with DDL) cannot change rows through DML."""
    _save(world)
    _scorecard_row(world["db"])
    owner = owner_database(world["db"])
    truncates = ["TRUNCATE findings", "TRUNCATE scans CASCADE", "TRUNCATE scorecard_audit"]
    try:
        for statement in ATTACKS + (truncates if owner.dialect == "postgresql" else []):
            with pytest.raises(DBAPIError, match="append_only:|row_immutable:"):
                with owner.transaction() as connection:
                    connection.execute(text(statement))
        assert _snapshot(owner) == _snapshot(world["db"])
    finally:
        if owner is not world["db"]:
            owner.dispose()


def test_an_owner_decision_is_recorded_once(database: Database) -> None:
    audit = AuditStore(database)
    row = _scorecard_row(database)
    first = audit.record_owner_decision(row, status="PASS", decision={"approved": True, "owner": "Eva"})
    again = audit.record_owner_decision(row, status="BLOCK", decision={"approved": False, "owner": "Mallory"})
    assert again.owner_decision == first.owner_decision == {"approved": True, "owner": "Eva"}
    assert again.status == "PASS"
    with pytest.raises(DBAPIError, match="append_only:scorecard_audit:UPDATE|permission denied"):
        with database.transaction() as connection:
            connection.execute(text("UPDATE scorecard_audit SET owner_decision = NULL, decided_at = NULL"))


def test_a_forged_reviewed_finding_must_name_its_reviewer(world: dict[str, Any]) -> None:
    """The database refuses human_reviewed without reviewed_by (and a reviewer without the flag)."""
    database = world["db"]
    _save(world)
    insert = text(
        "INSERT INTO findings (scan_id, position, requirement_id, chunk_id, page_number, exact_quote, finding_text,"
        " proposed_severity, severity, bucket, confidence, human_reviewed, reviewed_by, finding_hash)"
        " SELECT scan_id, 9, requirement_id, 'c9', page_number, exact_quote, 'erfunden', 'MAJOR', 'MAJOR',"
        " 'report', 0.9, :reviewed, :reviewer, finding_hash FROM findings WHERE position = 1"
    )
    for reviewed, reviewer in ((True, None), (True, " "), (False, "eva")):
        with pytest.raises(DBAPIError, match="finding_rejected:reviewer_missing"):
            with database.transaction() as connection:
                connection.execute(insert, {"reviewed": reviewed, "reviewer": reviewer})


def _rewrite_database(database: Database, forged: AuditRecord) -> None:
    """The schema owner switches the triggers off and writes the forged scan's content and hashes."""
    owner = owner_database(database)
    try:
        with owner.transaction() as connection:
            if owner.dialect == "postgresql":
                connection.execute(text("SET LOCAL session_replication_role = replica"))
            else:
                connection.execute(text("DROP TRIGGER trg_findings_immutable"))
                connection.execute(text("DROP TRIGGER trg_scans_immutable"))
            for finding, finding_hash in zip(forged.findings, forged.finding_hashes, strict=True):
                connection.execute(
                    text("UPDATE findings SET severity = :s, finding_hash = :h WHERE position = :p"),
                    {"s": finding.severity, "h": finding_hash, "p": finding.position},
                )
            connection.execute(text("UPDATE scans SET audit_hash = :h"), {"h": forged.audit_hash})
    finally:
        if owner is not database:
            owner.dispose()


def _unkeyed_seal(stored: AuditRecord) -> AuditRecord:
    """What the old seal() did: plain SHA-256, no secret."""
    previous = hashlib.sha256(json.dumps(stored.header.model_dump(), sort_keys=True).encode()).hexdigest()
    hashes = []
    for finding in stored.findings:
        payload = json.dumps(finding.model_dump(), sort_keys=True).encode()
        previous = hashlib.sha256(previous.encode() + payload).hexdigest()
        hashes.append(previous)
    return stored.model_copy(update={"finding_hashes": tuple(hashes), "audit_hash": hashes[-1]})


@pytest.mark.parametrize("attacker_key", [None, b"a-guessed-key-that-is-not-the-real-one"])
def test_database_and_report_rewritten_together_without_the_key_do_not_verify(
    world: dict[str, Any], attacker_key: bytes | None
) -> None:
    original = _save(world)
    downgraded = [f.model_copy(update={"severity": "HINT"}) for f in original.findings]
    if attacker_key is None:
        forged = _unkeyed_seal(original.model_copy(update={"findings": tuple(downgraded)}))
    else:
        forged = seal(original.header, downgraded, key=attacker_key)
    _rewrite_database(world["db"], forged)
    store = FindingStore(world["db"], trail=TRAIL)
    assert store.load_audit("scan-1").findings == forged.findings  # the rewrite took
    verdict = store.verify(forged)
    assert not verdict.valid
    assert "Datenbank: Befund an Stelle 1 passt nicht mehr zu seinem Hash (verändert)" in verdict.differences
    assert "Bericht: Audit-Hash lässt sich aus dem Inhalt nicht nachrechnen" in verdict.differences


def test_the_chain_head_file_catches_a_rewrite_with_the_key(world: dict[str, Any], tmp_path: Path) -> None:
    """An insider who holds the key re-seals database and report; the head written at scan time disagrees."""
    trail = AuditTrail(key=AUDIT_KEY, heads=ChainHeadLog(tmp_path / "heads" / "chain-heads.jsonl"))
    original = _save(world, trail)
    assert trail.heads is not None and trail.heads.heads_of("scan-1") == [original.audit_hash]
    assert FindingStore(world["db"], trail=trail).verify(original).valid
    forged = seal(
        original.header, [f.model_copy(update={"severity": "HINT"}) for f in original.findings], key=AUDIT_KEY
    )
    _rewrite_database(world["db"], forged)
    verdict = FindingStore(world["db"], trail=trail).verify(forged)
    assert not verdict.valid
    assert verdict.differences == (
        f"Kettenkopf: Bericht {forged.audit_hash} ≠ Kettenkopf-Datei {original.audit_hash}",
        f"Kettenkopf: Datenbank {forged.audit_hash} ≠ Kettenkopf-Datei {original.audit_hash}",
    )


def test_a_missing_or_contradicting_chain_head_fails_verification(world: dict[str, Any], tmp_path: Path) -> None:
    heads = ChainHeadLog(tmp_path / "chain-heads.jsonl")
    original = _save(world)
    verdict = FindingStore(world["db"], trail=AuditTrail(key=AUDIT_KEY, heads=heads)).verify(original)
    assert verdict.differences == (f"Kettenkopf-Datei {heads.path}: kein Eintrag für Scan 'scan-1'",)
    heads.append("scan-1", original.audit_hash, 2)
    heads.append("scan-1", "f" * 64, 2)
    verdict = FindingStore(world["db"], trail=AuditTrail(key=AUDIT_KEY, heads=heads)).verify(original)
    assert verdict.differences == ("Kettenkopf-Datei: 2 verschiedene Audit-Hashes für denselben Scan",)


def test_a_finding_forged_into_a_stored_scan_does_not_verify(world: dict[str, Any]) -> None:
    """INSERT stays allowed (scans are written through it); a forged row cannot carry a hash that verifies."""
    original = _save(world)
    with world["db"].transaction() as connection:
        connection.execute(
            text(
                "INSERT INTO findings (scan_id, position, requirement_id, chunk_id, page_number, exact_quote,"
                " finding_text, proposed_severity, severity, bucket, confidence, human_reviewed, reviewed_by,"
                " finding_hash) SELECT scan_id, 3, requirement_id, 'c9', page_number, exact_quote, 'erfunden',"
                " 'MAJOR', 'MAJOR', 'report', 1.0, :reviewed, 'eva', :hash FROM findings WHERE position = 1"
            ),
            {"reviewed": True, "hash": "f" * 64},
        )
    verdict = FindingStore(world["db"], trail=TRAIL).verify(original)
    assert not verdict.valid
    assert "Datenbank: Befund an Stelle 3 passt nicht mehr zu seinem Hash (verändert)" in verdict.differences
    assert "Anzahl der Befunde: Bericht 2 ≠ Datenbank 3" in verdict.differences


def test_reviewer_decisions_are_append_only(database: Database) -> None:
    reviews = ReviewStore(database)
    reviews.record(
        DecisionRecord(
            item_id="answer:1",
            graph="answer",
            origin="bucket",
            action="approve",
            reviewer="Eva",
            before={"answer": "Entwurf"},
            after={"answer": "Entwurf"},
        )
    )
    owner = owner_database(database)
    statements = ["UPDATE review_decisions SET reviewer = 'Mallory'", "DELETE FROM review_decisions"]
    if database.dialect == "postgresql":
        statements.append("TRUNCATE review_decisions")
    try:
        for connected in (database, owner):
            for statement in statements:
                with pytest.raises(DBAPIError, match="append_only:review_decisions|permission denied"):
                    with connected.transaction() as connection:
                        connection.execute(text(statement))
    finally:
        if owner is not database:
            owner.dispose()
    assert [d.reviewer for d in reviews.decisions()] == ["Eva"]
