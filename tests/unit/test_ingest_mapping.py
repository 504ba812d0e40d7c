"""``belegt ingest --map/--set/--mapping``: a KB whose records name their fields differently, ingested as it is
into the embedded stores (SQLite, Qdrant local); a bad mapping is one German line and writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from evals.datasets.questions import LAW_ID_PATTERN, LAW_MAPPING
from graphs.cli import kb
from stores.ingest.kb import KBInputError, read_kb_input
from stores.ingest.mapping import FieldMapping, FieldMappingError, field_mapping, read_mapping_file
from stores.settings import StoreSettings
from stores.sql.engine import open_database
from stores.sql.kb import KBRecords
from tests.kb_support import write_jsonl

runner = CliRunner()
cli = typer.Typer()
cli.command("ingest")(kb.ingest)
cli.add_typer(kb.app, name="kb")

# the shape of ../shared/data/de_gesetze/kb_paragraphs.jsonl (written here, not copied)
LAW_ROWS = [
    {
        "id": "ProdHaftG §11",
        "law": "ProdHaftG",
        "law_title": "Gesetz über die Haftung für fehlerhafte Produkte",
        "heading": "§ 11 Selbstbeteiligung bei Sachbeschädigung",
        "text": "Im Falle der Sachbeschädigung hat der Geschädigte einen Schaden bis zu\n"
        "einer Höhe von 500 Euro selbst zu tragen.",
        "source": "bundestag/gesetze:prodhaftg/index.md",
    },
    {
        "id": "GG Art22",
        "law": "GG",
        "law_title": "Grundgesetz für die Bundesrepublik Deutschland",
        "heading": "Art 22",
        "text": "(2) Die Bundesflagge ist schwarz-rot-gold.",
        "source": "bundestag/gesetze:gg/index.md",
    },
]
MAP = ["--map", "title=heading,section=law_title", "--map", "work=law_title,source_ref=source"]
SET = ["--set", "stand=2022-03", "--set", "official=true"]


@pytest.fixture(autouse=True)
def _embedded_stores(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BELEGT_DATA_DIR", str(tmp_path / "var"))
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")


def _stored(tmp_path: Path) -> dict[str, dict[str, object]]:
    database = open_database(StoreSettings(data_dir=tmp_path / "var").resolved_database_url)
    try:
        return {s.entry.id: s.entry.model_dump() for s in KBRecords(database).stored("gesetze")}
    finally:
        database.dispose()


def _ingest(source: Path, *options: str) -> tuple[int, str]:
    result = runner.invoke(cli, ["ingest", str(source), "--kb", "gesetze", "--id-pattern", LAW_ID_PATTERN, *options])
    return result.exit_code, result.output


def test_map_and_set_ingest_the_law_records_as_they_are(tmp_path: Path) -> None:
    code, output = _ingest(write_jsonl(tmp_path / "laws.jsonl", LAW_ROWS), *MAP, *SET)
    assert code == 0, output
    stored = _stored(tmp_path)
    assert set(stored) == {"ProdHaftG §11", "GG Art22"}
    entry = stored["ProdHaftG §11"]
    assert entry["title"] == "§ 11 Selbstbeteiligung bei Sachbeschädigung"
    assert entry["section"] == entry["work"] == "Gesetz über die Haftung für fehlerhafte Produkte"
    assert (entry["stand"], entry["official"], entry["source_ref"]) == ("2022-03", True, LAW_ROWS[0]["source"])
    assert "500 Euro" in str(entry["text"])


def test_the_repository_mapping_file_gives_the_same_entries(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "laws.jsonl", LAW_ROWS)
    code, output = _ingest(source, "--mapping", str(LAW_MAPPING))
    assert code == 0, output
    by_file = _stored(tmp_path)
    pairs = read_kb_input(source, "gesetze", LAW_ID_PATTERN, field_mapping(pairs=MAP[1::2], values=SET[1::2]))
    assert {e.id: e.model_dump() for e in pairs.entries} == by_file
    again_code, again = _ingest(source, "--mapping", str(LAW_MAPPING))  # idempotent: nothing changed
    assert again_code == 0 and "unverändert" in again


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--map", "titel=heading", *SET], "Unbekanntes Zielfeld „titel“"),
        (["--map", "title", *SET], "„title“ ist kein Paar der Form ziel=wert"),
        (["--map", "title=heading,title=law", *SET], "Zielfeld „title“ ist doppelt angegeben"),
        (["--map", "title=heading", "--set", "title=x"], "Zielfeld „title“ ist zugleich zugeordnet und fest gesetzt"),
        (["--map", "title=heding,work=law_title", *SET], "Quellfeld „heding“ (für title) kommt in keinem Eintrag vor"),
    ],
)
def test_a_bad_mapping_is_one_german_line_and_writes_nothing(tmp_path: Path, options: list[str], message: str) -> None:
    code, output = _ingest(write_jsonl(tmp_path / "laws.jsonl", LAW_ROWS), *options)
    assert code != 0
    # one message (rich wraps it at the terminal width), no traceback
    assert output.startswith("Fehler:") and output.count("Fehler:") == 1 and "Traceback" not in output, output
    assert message in output.replace("\n", "")
    assert not (tmp_path / "var" / "belegt.db").exists() or _stored(tmp_path) == {}


def test_a_record_without_a_mapped_field_names_its_line_and_writes_nothing(tmp_path: Path) -> None:
    rows = [LAW_ROWS[0], {k: v for k, v in LAW_ROWS[1].items() if k != "heading"}]
    code, output = _ingest(write_jsonl(tmp_path / "laws.jsonl", rows), *MAP, *SET)
    assert code == 1
    assert "laws.jsonl:2: Quellfeld(er) laut Zuordnung fehlen: heading" in output.replace("\n", "")
    assert "nichts geschrieben" in output
    assert not (tmp_path / "var" / "belegt.db").exists() or _stored(tmp_path) == {}


def test_bad_mapping_files_are_named(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("fields: [title\n", encoding="utf-8")
    with pytest.raises(FieldMappingError, match=r"broken\.yaml: Zuordnungsdatei ist kein gültiges YAML"):
        read_mapping_file(broken)
    broken.write_text("felder: {title: heading}\n", encoding="utf-8")
    with pytest.raises(FieldMappingError, match="„fields“ und/oder „values“"):
        read_mapping_file(broken)
    broken.write_text("fields: {titel: heading}\n", encoding="utf-8")
    with pytest.raises(FieldMappingError, match=r"broken\.yaml: Unbekanntes Zielfeld „titel“"):
        read_mapping_file(broken)
    with pytest.raises(FieldMappingError, match="nicht lesbar"):
        read_mapping_file(tmp_path / "fehlt.yaml")


def test_command_line_pairs_override_the_file_field_by_field() -> None:
    mapping = field_mapping(mapping_file=LAW_MAPPING, pairs=["title=law"], values=["section=Bundesrecht"])
    assert mapping is not None
    assert mapping.fields["title"] == "law" and "section" not in mapping.fields
    assert mapping.values == {"stand": "2022-03", "official": True, "section": "Bundesrecht"}
    assert field_mapping() is None
    assert FieldMapping({"title": "heading"}).apply({"id": "x", "heading": "H", "law": "L"}) == (
        {"id": "x", "title": "H"},
        [],
    )


def test_markdown_front_matter_is_mapped_too(tmp_path: Path) -> None:
    folder = tmp_path / "md"
    folder.mkdir()
    (folder / "a.md").write_text(
        "---\nid: GG Art1\nheading: Art 1\nlaw_title: Grundgesetz\n---\nDie Würde des Menschen ist unantastbar.\n",
        encoding="utf-8",
    )
    mapping = FieldMapping(
        fields={"title": "heading", "work": "law_title"}, values={"stand": "2022-03", "official": True}
    )
    parsed = read_kb_input(folder, "gesetze", LAW_ID_PATTERN, mapping)
    assert parsed.entries[0].title == "Art 1" and parsed.entries[0].work == "Grundgesetz"
    with pytest.raises(KBInputError, match="Pflichtfelder fehlen: title"):
        read_kb_input(folder, "gesetze", LAW_ID_PATTERN)
