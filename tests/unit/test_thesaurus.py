"""German synonyms from OpenThesaurus: the shipped sets and how they are built (answers: test_extractive_answers)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from stores.text.thesaurus import ThesaurusOutdated, _index, synonyms
from stores.text.thesaurus_build import build
from stores.vector.analyzer import ANALYZER_VERSION

MYTHES_SAMPLE = """UTF-8
heirat|2
-|Heirat (Hauptform)|eheliche Verbindung|Eheschließung|Hochzeit|Trauung|heiraten|Jawort (ugs.)
-|Blütezeit (fig.)|Hochzeit|Epoche (Oberbegriff)
lohn|1
-|Lohn (Hauptform)|Entgelt|Gehalt|bezahlen|AU
auto|1
-|Auto (Hauptform)|PKW|Pkw|Wagen
"""


def test_the_shipped_sets_know_everyday_and_official_words_alike() -> None:
    assert "entgelt" in synonyms("gehalt") and "gehalt" in synonyms("entgelt")
    assert "arbeitsunfahigkeitsbescheinigung" in synonyms("krankschreibung")
    assert "eheschliessung" in synonyms("hochzeit")
    assert "pkw" in synonyms("auto") and "mindesthaltbarkeitsdatum" in synonyms("mhd")
    assert synonyms("nichtswort") == frozenset()


def test_a_build_keeps_nouns_of_one_meaning_and_drops_the_rest(tmp_path: Path) -> None:
    source = tmp_path / "th_de.dat"
    source.write_text(MYTHES_SAMPLE, encoding="utf-8")
    target = tmp_path / "synonyms.txt.gz"
    assert build(source, target) == 3
    with gzip.open(target, "rt", encoding="utf-8") as lines:
        assert next(lines) == f"# analyzer={ANALYZER_VERSION}\n"
        sets = [line.split() for line in lines]
    # no phrase („eheliche Verbindung"), no verb („heiraten"), no broader term, no figurative meaning, nothing
    # shorter than four letters („AU") but an abbreviation of three capitals („PKW"); the second Hochzeit line keeps
    # no other noun, so it is no set
    assert sets == [
        ["auto", "pkw", "wagen"],
        ["eheschliessung", "heirat", "hochzeit", "jawort", "trauung"],
        ["entgelt", "gehalt", "lohn"],
    ]
    assert "lohn" in _index(target)["gehalt"]


def test_sets_written_for_another_analyzer_are_refused(tmp_path: Path) -> None:
    stale = tmp_path / "stale.txt.gz"
    with gzip.open(stale, "wt", encoding="utf-8") as out:
        out.write("# analyzer=de-0\nentgelt gehalt\n")
    with pytest.raises(ThesaurusOutdated, match="neu bauen"):
        _index(stale)


def test_a_bad_source_leaves_the_shipped_file_as_it_was(tmp_path: Path) -> None:
    target = tmp_path / "synonyms.txt.gz"
    target.write_bytes(b"shipped")
    with pytest.raises(FileNotFoundError):
        build(tmp_path / "missing.dat", target)
    assert target.read_bytes() == b"shipped"
