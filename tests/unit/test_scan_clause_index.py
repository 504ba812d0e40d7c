"""Clause retrieval: one aliased collection per catalogue version, only ACTIVE clauses, rebuilt when stale."""

from __future__ import annotations

from stores.scan.catalog import CatalogStore
from stores.scan.clause_index import ClauseIndex
from stores.settings import StoreSettings
from stores.sql.engine import Database
from stores.vector.qdrant import memory_engine
from tests.scan_support import requirement, store_catalog


def test_each_version_has_its_own_collection_and_only_active_clauses_are_found(database: Database) -> None:
    engine = memory_engine()
    index = ClauseIndex.from_settings(StoreSettings(), engine=engine, embedder=None)
    catalogs = CatalogStore(database)
    first = store_catalog(database, requirement("S-1", "Sensitivität mit Konfidenzintervall"), name="v1")
    second = store_catalog(
        database,
        requirement("S-1", "Sensitivität mit Konfidenzintervall", status="RETIRED"),
        requirement("S-2", "Spezifität mit Konfidenzintervall"),
        name="v2",
    )
    for version in (first, second):
        index.index_version(version, catalogs.requirements(version.id))

    assert index.alias(first.id) != index.alias(second.id)
    assert index.index.exists(index.alias(first.id)) and index.index.exists(index.alias(second.id))
    by_id = {r.id: r.stable_id for v in (first, second) for r in catalogs.requirements(v.id)}
    query = "Sensitivität 96,4 % ohne Konfidenzintervall"
    assert [by_id[i] for i in index.search(first.id, query, limit=5)] == ["S-1"]
    assert [by_id[i] for i in index.search(second.id, query, limit=5)] == ["S-2"]


def test_a_wiped_qdrant_makes_the_version_stale(database: Database) -> None:
    engine = memory_engine()
    version = store_catalog(database, requirement("S-1", "Sensitivität"))
    ClauseIndex.from_settings(StoreSettings(), engine=engine, embedder=None).index_version(
        version, CatalogStore(database).requirements(version.id)
    )
    assert ClauseIndex.from_settings(StoreSettings(), engine=engine, embedder=None).is_current(version.id)
    assert not ClauseIndex.from_settings(StoreSettings(), engine=memory_engine(), embedder=None).is_current(version.id)
