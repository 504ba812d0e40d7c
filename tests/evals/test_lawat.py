"""The LawAT reader: Austrian acts (Markdown + index, the data set's shape, written here) become KB records that
``belegt ingest`` takes with the declared mapping; a folder without the act asked for is a German error that writes
nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.datasets.lawat import LawAtError, write_records
from evals.run import default_data_dir
from stores.ingest.kb import read_kb_input
from stores.ingest.mapping import read_mapping_file

MAPPING = Path(__file__).parents[2] / "evals" / "datasets" / "lawat.mapping.yaml"
ID_PATTERN = r"^\S+ (§|Art)\S+$"
MARKDOWN = [
    "# BG.TestG — Testgesetz (TestG)",  # 1
    "**Typ:** Bundesgesetz  ",
    "**Gesamte Rechtsvorschrift in der Fassung vom:** 17.07.2025  ",
    "",
    "## I. HAUPTSTÜCK",  # 5
    "",
    "### § 1 TestG — Geltungsbereich",
    "",
    "> `(1)` Dieses Gesetz gilt für Verträge nach Abs\\. 2, an denen",
    ">",  # 10
    ">> `1.` ein Unternehmer und",
    ">",
    ">> `2.` ein Verbraucher beteiligt sind\\.",
    "",
    "### § 2 TestG",  # 15
    "",
    "> Aufgehoben\\.",
    "",
    "### Anl. 1 TestG",
    "",  # 20
    "> Muster eines Formulars für den Rücktritt vom Vertrag\\.",
]
INDEX = {
    "toc": [
        "I. HAUPTSTÜCK",
        ["§ 1 TestG", "BG.TestG:5-13", "BG.TestG.001:1-9", "§ 1 TestG # Geltungsbereich"],
        ["§ 2 TestG", "BG.TestG:15-17", "BG.TestG.001:10-12", "§ 2 TestG"],
        ["Anl. 1 TestG", "BG.TestG:19-21", "BG.TestG.001:13-15", "Anl. 1 TestG"],
    ]
}


def _lawat(folder: Path, markdown: list[str] = MARKDOWN) -> Path:
    folder.mkdir()
    (folder / "BG.TestG.md").write_text("\n".join(markdown) + "\n", encoding="utf-8")
    (folder / "BG.TestG.index.json").write_text(json.dumps(INDEX), encoding="utf-8")
    return folder


def test_each_section_becomes_a_record_the_ingest_takes_with_the_mapping(tmp_path: Path) -> None:
    out = tmp_path / "at.jsonl"
    assert write_records(_lawat(tmp_path / "files"), out) == 1  # the repealed section and the annex are left out
    (record,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert record == {
        "id": "TestG §1",
        "heading": "§ 1 Geltungsbereich",
        "law_title": "Testgesetz (TestG)",
        "text": "(1) Dieses Gesetz gilt für Verträge nach Abs. 2, an denen\n\n1. ein Unternehmer und\n\n"
        "2. ein Verbraucher beteiligt sind.",
        "stand": "2025-07-17",
        "source": "LawAT:BG.TestG",
    }
    (entry,) = read_kb_input(out, "at", ID_PATTERN, mapping=read_mapping_file(MAPPING)).entries
    assert (entry.title, entry.work, entry.stand, entry.official) == (
        "§ 1 Geltungsbereich",
        "Testgesetz (TestG)",
        "2025-07-17",
        True,
    )


def test_a_missing_act_index_entry_or_version_is_a_german_error_and_writes_nothing(tmp_path: Path) -> None:
    folder = _lawat(tmp_path / "files")
    out = tmp_path / "at.jsonl"
    with pytest.raises(LawAtError, match="kein Gesetz des LawAT-Datensatzes"):
        write_records(tmp_path / "nowhere", out)
    with pytest.raises(LawAtError, match="fehlen die Gesetze KSchG"):
        write_records(folder, out, ["TestG", "KSchG"])
    (folder / "BG.TestG.index.json").write_text(json.dumps({"toc": [["§ 1 TestG", "BG.TestG:5-13"]]}), encoding="utf-8")
    with pytest.raises(LawAtError, match="hat nicht Abschnitt, Zeilen, Datei, Titel"):
        write_records(folder, out)
    (folder / "BG.TestG.index.json").write_text(json.dumps(INDEX), encoding="utf-8")
    (folder / "BG.TestG.md").write_text("\n".join(line for line in MARKDOWN if "Fassung" not in line), encoding="utf-8")
    with pytest.raises(LawAtError, match="Fassung vom"):
        write_records(folder, out)
    assert not out.exists()


def test_an_output_that_cannot_be_written_is_a_german_error_and_leaves_no_part_file(tmp_path: Path) -> None:
    folder = _lawat(tmp_path / "files")
    out = tmp_path / "missing-folder" / "at.jsonl"
    with pytest.raises(LawAtError, match="nicht schreibbar"):
        write_records(folder, out)
    assert not out.parent.exists()
    # an earlier output stays whole until the new one is complete
    earlier = tmp_path / "at.jsonl"
    earlier.write_text("alt\n", encoding="utf-8")
    assert write_records(folder, earlier) == 1
    assert [json.loads(line)["id"] for line in earlier.read_text(encoding="utf-8").splitlines()] == ["TestG §1"]
    assert not (tmp_path / "at.jsonl.part").exists()


def test_the_shared_acts_are_read_whole(tmp_path: Path) -> None:
    folder = default_data_dir() / "at_gesetze_lawat" / "files"
    if not folder.is_dir():
        pytest.skip(f"{folder} fehlt (Eval-Daten neben dem Repository oder BELEGT_EVAL_DATA_DIR)")
    out = tmp_path / "at.jsonl"
    count = write_records(folder, out)
    entries = read_kb_input(out, "at", ID_PATTERN, mapping=read_mapping_file(MAPPING)).entries
    assert len(entries) == count > 500
    assert {"KSchG §3", "B-VG Art60", "UrhG §74", "DSG §13"} <= {e.id for e in entries}
