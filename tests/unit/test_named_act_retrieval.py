"""A question that names an act is searched once more within that act: the name matches every section of it and
crowds out the one the rest of the question asks for (real store: Qdrant in memory, SQLite, sparse retrieval)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from evals.answering import MemoisedKnowledgeBase
from nodes.answer.retrieve import NAMED_ACT_HITS, _with_named_act_hits
from stores.ingest.kb import ingest_kb
from stores.kb.store import KnowledgeBase
from stores.settings import StoreSettings
from stores.sql.engine import open_database
from stores.vector.qdrant import memory_engine

KB = "gesetze-test"
SAFETY = "Produktsicherheitsgesetz"
SAFETY_SECTIONS = {
    "ProdSG §1": "Das Produktsicherheitsgesetz gilt für Produkte, die auf dem Markt bereitgestellt werden.",
    "ProdSG §2": "Im Sinne des Produktsicherheitsgesetzes ist ein Hersteller, wer ein Produkt herstellt.",
    "ProdSG §3": "Ein Produkt nach dem Produktsicherheitsgesetz darf nur bereitgestellt werden, wenn es sicher ist.",
    "ProdSG §28": "Die Ordnungswidrigkeit kann mit einer Geldbuße bis zu hunderttausend Euro geahndet werden.",
}
QUESTION = "Wie hoch kann die Geldbuße nach dem Produktsicherheitsgesetz werden?"
# a work whose official title shares no word with the short title people use („Medizinprodukterecht-
# Durchführungsgesetz"); only its ids' act part (MPDG) abbreviates that
DEVICES = "Gesetz zur Durchführung unionsrechtlicher Vorschriften betreffend Medizinprodukte"
DEVICE_SECTIONS = {
    "MPDG §1": "Zweck dieses Gesetzes ist, die Sicherheit von Medizinprodukten zu gewährleisten.",
    "MPDG §94": "Eine Ordnungswidrigkeit kann mit einer Geldbuße bis zu dreißigtausend Euro geahndet werden; "
    "Geldbußen nach dem Medizinprodukterecht-Durchführungsgesetz fließen in die Bundeskasse.",
}

# sections that say „hoch" more often than the one on the fine, which alone names the act („UWG") in its text
COMPETITION = "Gesetz gegen den unlauteren Wettbewerb"
COMPETITION_SECTIONS = {
    "UWG §13": "Ein Bußgeld neben einer Vertragsstrafe ist nie zu hoch, wenn die Vertragsstrafe hoch ist.",
    "UWG §8": "Ein Bußgeld neben den Kosten ist nie zu hoch, wenn die Kosten hoch sind.",
    "UWG §9": "Ein Bußgeld neben der Gebühr ist nie zu hoch, wenn die Gebühr hoch ist.",
    "UWG §16": "Ein Bußgeld neben der Strafe ist nie zu hoch, wenn die Strafe hoch ist.",
    "UWG §20": "Verstöße gegen das UWG können mit einem Bußgeld geahndet werden, das bis zu dreihunderttausend Euro "
    "hoch sein kann; Verfahren, Zuständigkeit, Vollstreckung und Verjährung regelt das Gesetz über "
    "Ordnungswidrigkeiten.",
}


def _entry(entry_id: str, text: str, work: str) -> dict[str, object]:
    return {
        "id": entry_id,
        "title": entry_id,
        "section": "Gesetz",
        "stand": "2022-03",
        "work": work,
        "official": True,
        "text": text,
    }


@pytest.fixture(scope="module")
def knowledge_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeBase]:
    folder = tmp_path_factory.mktemp("acts")
    entries = [_entry(i, t, SAFETY) for i, t in SAFETY_SECTIONS.items()]
    entries += [_entry(i, t, DEVICES) for i, t in DEVICE_SECTIONS.items()]
    entries += [_entry(i, t, COMPETITION) | {"title": f"§ {i.split('§')[1]}"} for i, t in COMPETITION_SECTIONS.items()]
    entries.append(
        _entry("BDSG §41", "Für eine Geldbuße wegen eines Verstoßes gilt das Gesetz über Ordnungswidrigkeiten.", "BDSG")
    )
    source = folder / "kb.jsonl"
    source.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in entries) + "\n", encoding="utf-8")
    settings = StoreSettings.model_validate({"embedder": "none"})
    database = open_database(f"sqlite:///{folder / 'kb.db'}")
    kb = KnowledgeBase.from_settings(settings, engine=memory_engine(), database=database, embedder=None)
    ingest_kb(source, KB, kb=kb, default_id_pattern=r"^\S+ §\d+$", chunk_chars=settings.kb_chunk_chars)
    yield kb
    database.dispose()


def test_the_section_the_rest_of_the_question_asks_for_joins_the_hits(knowledge_base: KnowledgeBase) -> None:
    first = knowledge_base.search(KB, [QUESTION], limit=3, expand_cross_refs=False)
    assert "ProdSG §28" not in {h.entry_id for h in first}  # crowded out by the sections that say the name

    hits = _with_named_act_hits(knowledge_base, KB, QUESTION, first)
    ids = [h.entry_id for h in hits]
    assert set(ids) == {h.entry_id for h in first} | {"ProdSG §28"}
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    fine = ids.index("ProdSG §28")  # among the act's hits by relevance, so trimming drops another one first
    act_after = [h for h in hits[fine + 1 :] if h.work == SAFETY]
    assert all(h.score <= hits[fine].score for h in act_after)


def test_an_act_named_by_a_title_none_of_the_hits_has_is_found_among_the_kbs_works(
    knowledge_base: KnowledgeBase,
) -> None:
    question = "Welche Geldbuße droht nach dem Medizinprodukterecht-Durchführungsgesetz?"
    first = [h for h in knowledge_base.search(KB, [question], limit=3, expand_cross_refs=False) if h.work != DEVICES]

    hits = _with_named_act_hits(knowledge_base, KB, question, first)
    assert hits[0].entry_id == "MPDG §94"  # ahead of hits about fines in other acts, so trimming keeps it
    assert {h.entry_id for h in hits} == {h.entry_id for h in first} | {"MPDG §94"}
    # scored against the whole question, as the other hits are, not against its rest alone
    [rest] = knowledge_base.search(KB, ["Welche Geldbuße droht?"], limit=1, work=DEVICES, expand_cross_refs=False)
    [whole] = knowledge_base.search(KB, [question], limit=1, work=DEVICES, expand_cross_refs=False)
    assert rest.entry_id == whole.entry_id == "MPDG §94" and whole.score > rest.score
    assert hits[0].score == whole.score


def test_the_act_s_sections_are_chosen_by_their_relevance_to_the_whole_question(knowledge_base: KnowledgeBase) -> None:
    """Within the act, the rest of the question („Wie hoch ist das Bußgeld?") ranks the sections that say „hoch" most
    often first; the best of a wider pool by the whole question, which names the act as the section on the fine does,
    leads (UWG § 20 came fourth after the Vertragsstrafe of § 13a, and was cut)."""
    question = "Wie hoch ist das Bußgeld nach dem UWG?"
    rest = knowledge_base.search(KB, ["Wie hoch ist das Bußgeld?"], limit=6, work=COMPETITION, expand_cross_refs=False)
    assert [h.entry_id for h in rest].index("UWG §20") >= NAMED_ACT_HITS
    first = knowledge_base.search(KB, [question], limit=1, work="BDSG", expand_cross_refs=False)
    hits = _with_named_act_hits(knowledge_base, KB, question, first)
    assert hits[0].entry_id == "UWG §20"


def test_an_act_the_kb_does_not_hold_adds_no_hits(knowledge_base: KnowledgeBase) -> None:
    question = "Wie hoch ist die Geldbuße nach dem Kündigungsschutzgesetz?"
    first = knowledge_base.search(KB, [question], limit=3, expand_cross_refs=False)
    assert _with_named_act_hits(knowledge_base, KB, question, first) == first


def test_a_question_that_names_no_act_keeps_its_hits(knowledge_base: KnowledgeBase) -> None:
    question = "Wie hoch kann die Geldbuße werden?"
    first = knowledge_base.search(KB, [question], limit=3, expand_cross_refs=False)
    assert _with_named_act_hits(knowledge_base, KB, question, first) == first


def test_an_eval_sees_the_hits_of_both_searches(knowledge_base: KnowledgeBase) -> None:
    memo = MemoisedKnowledgeBase(knowledge_base)
    first = memo.search(KB, [QUESTION], limit=3)
    _with_named_act_hits(memo, KB, QUESTION, first)
    assert {h.entry_id for h in memo.last_hits} >= {h.entry_id for h in first} | {"ProdSG §28"}


def test_a_search_within_one_work_finds_only_its_entries(knowledge_base: KnowledgeBase) -> None:
    found = knowledge_base.search(KB, ["Geldbuße"], limit=5, work="BDSG", expand_cross_refs=False)
    assert [h.entry_id for h in found] == ["BDSG §41"]
