"""Catalogue files and versions: validation with file/line/field, new versions on import, old ones queryable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from stores.ingest.catalog import CatalogFileError, read_catalog_file
from stores.scan.catalog import CatalogStore, CatalogVersionNotFound, NoCatalog, normalize_requirement
from stores.sql.engine import Database
from tests.scan_support import requirement, store_catalog

DEMO_CATALOG = Path(__file__).resolve().parents[2] / "demo" / "scan" / "katalog.yaml"


def _jsonl(path: Path, *entries: object) -> Path:
    path.write_text("\n".join(json.dumps(entry, ensure_ascii=False) for entry in entries) + "\n", encoding="utf-8")
    return path


def _entry(stable_id: str, **extra: object) -> dict[str, object]:
    return {
        "stable_id": stable_id,
        "clause_path": "A › 1",
        "title": "Titel",
        "requirement_text": "Text der Anforderung.",
    } | extra


def test_demo_catalogue_is_valid_and_german() -> None:
    catalog = read_catalog_file(DEMO_CATALOG)
    assert catalog.name.startswith("Demo-Prüfkatalog")
    assert 15 <= len(catalog.requirements) <= 30
    statuses = [draft.clause_status for draft in catalog.requirements]
    assert statuses.count("RETIRED") == 1
    assert all(draft.stable_id.startswith("DEMO-") for draft in catalog.requirements)


def test_jsonl_catalogue_takes_its_name_from_the_option_or_the_file(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "werbung.jsonl", _entry("W-1"), _entry("W-2", clause_status="RETIRED"))
    assert read_catalog_file(path).name == "werbung"
    assert read_catalog_file(path, name="Werbeaussagen").name == "Werbeaussagen"
    assert [d.clause_status for d in read_catalog_file(path).requirements] == ["ACTIVE", "RETIRED"]


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        (
            [_entry("W-1"), {"stable_id": "W-2", "title": "x", "requirement_text": "y"}],
            r"Zeile 2: Feld 'clause_path' fehlt",
        ),
        ([_entry("W-1", clause_status="ALT")], r"Zeile 1: Feld 'clause_status' muss ACTIVE oder RETIRED sein"),
        ([_entry("W 1")], r"Zeile 1: Feld 'stable_id' darf nur Buchstaben"),
        ([_entry("W-1", title="  ")], r"Zeile 1: Feld 'title' darf nicht leer sein"),
        ([_entry("W-1", farbe="rot")], r"Zeile 1: Feld 'farbe' ist kein bekanntes Feld"),
        ([_entry("W-1"), _entry("W-2"), _entry("W-1")], r"Zeile 3: stable_id 'W-1' steht schon in Zeile 1"),
        ([["keine", "objekt"]], r"Zeile 1: Feld 'Eintrag' muss ein Objekt mit Feldern sein"),
    ],
)
def test_invalid_jsonl_entries_name_line_and_field(tmp_path: Path, entries: list[object], message: str) -> None:
    with pytest.raises(CatalogFileError, match=r"^katalog\.jsonl, " + message):
        read_catalog_file(_jsonl(tmp_path / "katalog.jsonl", *entries))


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("k.jsonl", '{"stable_id": "A"\n', r"k\.jsonl, Zeile 1: kein gültiges JSON"),
        (
            "k.yaml",
            "requirements:\n  - stable_id: A\n    title: [unclosed\n",
            r"k\.yaml, Zeile \d+: kein gültiges YAML",
        ),
        (
            "k.yaml",
            "name: X\nrequirements:\n  - stable_id: A-1\n    title: T\n",
            r"k\.yaml, Zeile 3: Feld 'clause_path' fehlt",
        ),
        (
            "k.yaml",
            "name: X\nrequirements: keine Liste\n",
            r"k\.yaml, Zeile 2: die Anforderungen müssen eine Liste sein",
        ),
        ("k.yaml", "name: X\nfarbe: rot\n", r"unbekannte Schlüssel \['farbe'\]"),
        ("k.yaml", "name: X\nrequirements: []\n", r"k\.yaml: enthält keine Anforderungen"),
        ("k.yaml", "", r"k\.yaml: enthält keine Anforderungen"),
        ("k.jsonl", "\n\n", r"k\.jsonl: enthält keine Anforderungen"),
        ("k.csv", "a,b\n", r"k\.csv: unbekanntes Format"),
    ],
)
def test_invalid_catalogue_files_are_explained(tmp_path: Path, name: str, content: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CatalogFileError, match=message):
        read_catalog_file(path)


def test_yaml_list_without_header_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "liste.yaml"
    path.write_text("- stable_id: A-1\n  clause_path: A\n  title: T\n  requirement_text: R\n", encoding="utf-8")
    catalog = read_catalog_file(path)
    assert (catalog.name, [d.stable_id for d in catalog.requirements]) == ("liste", ["A-1"])


def test_each_import_is_a_new_version_and_old_versions_stay_queryable(database: Database) -> None:
    first = store_catalog(database, requirement("A-1", "Alt"), name="Katalog")
    second = store_catalog(database, requirement("A-1", "Neu"), requirement("A-2", "Zusatz", "RETIRED"), name="Katalog")
    store = CatalogStore(database)
    assert second.id > first.id
    assert store.latest_version().id == second.id
    assert [r.title for r in store.requirements(first.id)] == ["Alt"]
    assert [r.stable_id for r in store.requirements(second.id)] == ["A-1", "A-2"]
    assert [r.stable_id for r in store.requirements(second.id, active_only=True)] == ["A-1"]
    assert (second.requirement_count, second.active_count) == (2, 1)
    assert [v.id for v in store.list_versions()] == [first.id, second.id]
    assert store.requirements(second.id)[0].normalized_text == normalize_requirement(requirement("A-1", "Neu"))


def test_unknown_and_missing_catalogues_are_explained(database: Database) -> None:
    store = CatalogStore(database)
    with pytest.raises(NoCatalog, match="noch kein Anforderungskatalog"):
        store.latest_version()
    with pytest.raises(CatalogVersionNotFound, match="Katalogversion 42 gibt es nicht"):
        store.get_version(42)
    with pytest.raises(CatalogVersionNotFound):
        store.requirements(42)


def test_failing_index_step_leaves_no_version_behind(database: Database) -> None:
    def broken_index(*_: object) -> None:
        raise RuntimeError("Qdrant weg")

    with pytest.raises(RuntimeError, match="Qdrant weg"):
        CatalogStore(database).create_version(
            name="K",
            source_file="k.yaml",
            source_sha256="a" * 64,
            requirements=[requirement("A-1", "T")],
            before_commit=broken_index,
        )
    with database.transaction() as connection:
        assert connection.execute(text("SELECT count(*) FROM catalog_versions")).scalar_one() == 0
        assert connection.execute(text("SELECT count(*) FROM requirements")).scalar_one() == 0


def test_database_refuses_duplicate_stable_ids_in_one_version(database: Database) -> None:
    with pytest.raises(IntegrityError):
        store_catalog(database, requirement("A-1", "T"), requirement("A-1", "T"), name="Doppelt")
