"""German synonyms and broader terms from OpenThesaurus: the shipped files and how they are built (answers:
test_extractive_answers)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from stores.text.thesaurus import ThesaurusOutdated, _broader_index, _index, broader, synonyms
from stores.text.thesaurus_build import build
from stores.vector.analyzer import ANALYZER_VERSION

MYTHES_SAMPLE = """UTF-8
heirat|2
-|Heirat (Hauptform)|eheliche Verbindung|Eheschließung|Hochzeit|Trauung|heiraten|Jawort (ugs.)
-|Blütezeit (fig.)|Hochzeit|Epoche (Oberbegriff)
lohn|1
-|Lohn (Hauptform)|Entgelt|Gehalt|bezahlen|AU
auto|1
-|Auto (Hauptform)|PKW|Pkw|Wagen|Fahrzeug (Oberbegriff)|Karre (ugs.) (Oberbegriff)|Ding (Oberbegriff)
grippe|1
-|Grippe|Influenza (fachspr.)|Erkrankung (Oberbegriff)|Krankheit (Oberbegriff)|Ding (Oberbegriff)
"""


def test_the_shipped_sets_know_everyday_and_official_words_alike() -> None:
    assert "entgelt" in synonyms("gehalt") and "gehalt" in synonyms("entgelt")
    assert "arbeitsunfahigkeitsbescheinigung" in synonyms("krankschreibung")
    assert "eheschliessung" in synonyms("hochzeit")
    assert "pkw" in synonyms("auto") and "mindesthaltbarkeitsdatum" in synonyms("mhd")
    assert synonyms("nichtswort") == frozenset()
    assert {"erkrankung", "krankheit"} <= broader("grippe") and "telefon" in broader("handy")
    assert "person" not in broader("chef") and broader("nichtswort") == frozenset()
    # the hand-written classes of family words
    assert {"kind", "angehoriger"} <= broader("tochter") and {"elternteil", "angehoriger"} <= broader("mutter")
    # … and the hand-written synonyms of working life, both ways, beside OpenThesaurus's own
    assert "fuhrungskraft" in synonyms("chef") and {"chef", "vorgesetzte", "manager"} <= synonyms("fuhrungskraft")
    assert "nebentatigkeit" in synonyms("nebenjob") and "altersversorgung" in synonyms("betriebsrente")


def test_a_build_keeps_nouns_of_one_meaning_and_drops_the_rest(tmp_path: Path) -> None:
    source = tmp_path / "th_de.dat"
    source.write_text(MYTHES_SAMPLE, encoding="utf-8")
    target, broader_target = tmp_path / "synonyms.txt.gz", tmp_path / "broader.txt.gz"
    assert build(source, target, broader_target, max_narrower=2) == (4, 5)
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
        ["grippe", "influnza"],
    ]
    assert "lohn" in _index(target)["gehalt"]
    # broader terms for every member of a meaning, in standard words („Karre" is colloquial), none of two or more
    # meanings here („Ding"), none for a word of two meanings („Hochzeit": a wedding, and a heyday under „Epoche")
    assert _broader_index(broader_target) == {
        "auto": {"fahrzeug"},
        "pkw": {"fahrzeug"},
        "wagen": {"fahrzeug"},
        "grippe": {"erkrankung", "krankheit"},
        "influnza": {"erkrankung", "krankheit"},
    }


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
