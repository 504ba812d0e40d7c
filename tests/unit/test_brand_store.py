"""Brand DNA store and scorecard audit log, run against SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from stores.brand.audit import AuditNotFound, AuditStore
from stores.brand.store import BrandNotFound, BrandStore, DnaVersionNotFound, DnaVersionRejected
from stores.sql.engine import Database
from tests.brand_support import DEMO_VERSIONS, audit_entry, build_dna, demo_dna, import_demo


def test_versions_round_trip_in_semver_order(database: Database) -> None:
    store = BrandStore(database)
    for version, kind in (("1.9.0", None), ("1.10.0", "methodical"), ("2.0.0", "structural")):
        store.save(build_dna(dna_version=version, change_kind=kind))
    assert [v.dna_version for v in store.history("probe")] == ["1.9.0", "1.10.0", "2.0.0"]
    assert [v.change_kind for v in store.history("probe")] == [None, "methodical", "structural"]
    assert store.get("probe").dna_version == "2.0.0"
    assert store.get("probe", "1.10.0") == build_dna(dna_version="1.10.0", change_kind="methodical")


def test_demo_dna_is_stored_unchanged(database: Database) -> None:
    store = import_demo(database)
    assert [v.dna_version for v in store.history("kantwerk")] == list(DEMO_VERSIONS)
    assert store.get("kantwerk") == demo_dna()
    assert store.get("kantwerk", "1.0.0") == demo_dna("1.0.0")


@pytest.mark.parametrize(
    ("version", "kind", "message"),
    [
        ("1.0.0", "editorial", "ist schon mit anderem Inhalt gespeichert"),
        ("0.9.0", "editorial", "ist nicht neuer als die gespeicherte 1.0.0"),
        ("1.0.1", None, "Feld change_kind fehlt"),
    ],
)
def test_rejected_versions_leave_nothing_behind(
    database: Database, version: str, kind: str | None, message: str
) -> None:
    store = BrandStore(database)
    store.save(build_dna())
    with pytest.raises(DnaVersionRejected, match=message):
        store.save(build_dna(dna_version=version, change_kind=kind, change_note="zweiter Versuch"))
    assert [v.dna_version for v in store.history("probe")] == ["1.0.0"]
    assert store.get("probe").change_note is None


def test_missing_brand_and_version_are_explained(database: Database) -> None:
    store = BrandStore(database)
    with pytest.raises(BrandNotFound, match="Für die Marke 'probe' ist keine DNA gespeichert."):
        store.get("probe")
    store.save(build_dna())
    with pytest.raises(DnaVersionNotFound, match="hat keine DNA-Version 3.0.0"):
        store.get("probe", "3.0.0")
    assert store.history("nobody") == []


def test_database_rejects_unknown_change_kind(database: Database) -> None:
    with pytest.raises(Exception, match="chk_dna_change_kind|CHECK constraint failed"):
        with database.transaction() as connection:
            connection.execute(
                text(
                    "INSERT INTO brand_dna_versions (brand_id, dna_version, version_major, version_minor,"
                    " version_patch, change_kind, document) VALUES ('x', '1.0.0', 1, 0, 0, 'cosmetic', '{}')"
                )
            )


def test_audit_records_round_trip_with_owner_decision(database: Database) -> None:
    BrandStore(database).save(build_dna())
    audit = AuditStore(database)
    first, second = audit.record(audit_entry()), audit.record(audit_entry(content_id="post-2", status="PASS"))
    assert second > first
    stored = audit.get(first)
    assert stored.model_dump(include=set(audit_entry().model_dump())) == audit_entry().model_dump()
    assert stored.owner_decision is None and stored.decided_at is None
    decided = audit.record_owner_decision(first, status="PASS", decision={"approved": True, "owner": "Eva"})
    assert (decided.status, decided.validated_by) == ("PASS", "human")
    assert decided.owner_decision == {"approved": True, "owner": "Eva"}
    assert decided.decided_at is not None
    assert audit.get(second).status == "PASS"


def test_audit_needs_a_stored_dna_version_and_an_existing_row(database: Database) -> None:
    audit = AuditStore(database)
    with pytest.raises(Exception, match="FOREIGN KEY|foreign key"):
        audit.record(audit_entry())
    with pytest.raises(AuditNotFound):
        audit.record_owner_decision(999, status="PASS", decision={})
    with pytest.raises(AuditNotFound):
        audit.get(999)


def test_brands_list_the_newest_version_of_each(database: Database) -> None:
    store = import_demo(database)
    assert store.brands()[0].brand_id == "kantwerk"
    store.save(build_dna(dna_version="0.1.0"))
    store.save(build_dna(dna_version="0.10.0", change_kind="editorial"))  # semver order, not text order
    summaries = {(s.brand_id, s.versions, s.latest_version) for s in store.brands()}
    assert summaries == {("kantwerk", len(DEMO_VERSIONS), DEMO_VERSIONS[-1]), ("probe", 2, "0.10.0")}
    assert [s.brand_id for s in store.brands()] == ["kantwerk", "probe"]


def test_no_brands_yet(database: Database) -> None:
    assert BrandStore(database).brands() == []


def test_the_same_version_with_the_same_content_is_stored_once(database: Database) -> None:
    store = BrandStore(database)
    first = store.save(build_dna())
    again = store.save(build_dna())
    assert first.created and not again.created
    assert again.info == first.info
    assert [v.dna_version for v in store.history("probe")] == ["1.0.0"]
