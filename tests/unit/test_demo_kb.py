"""The German HR demo KB: it ingests cleanly and has what the answer graph's tests rely on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

import pytest

from stores.ingest.kb import read_kb_input
from stores.kb.store import KnowledgeBase
from tests.kb_support import DEMO_KB, PATTERN, embedded_kb, ingest_demo


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeBase]:
    with embedded_kb(tmp_path_factory.mktemp("demo")) as knowledge_base:
        yield ingest_demo(knowledge_base)


def test_demo_kb_is_valid_and_complete() -> None:
    parsed = read_kb_input(DEMO_KB, "demo", PATTERN)
    assert 40 <= len(parsed.entries) <= 60
    ids = {e.id for e in parsed.entries}
    assert {e.id.split("-")[0] for e in parsed.entries} >= {"lb", "wk"}
    assert any(not e.official for e in parsed.entries)
    assert all(ref in ids for e in parsed.entries for ref in e.cross_refs)
    assert len({e.stand for e in parsed.entries}) >= 3
    assert any(e.valid_until for e in parsed.entries) and any(e.valid_from for e in parsed.entries)
    [conflict] = parsed.conflicts
    assert set(conflict.ids) <= ids and set(conflict.sides) == set(conflict.ids)
    numeric = [e for e in parsed.entries if re.search(r"\d+(,\d+)? ?(%|€)", e.text)]
    assert len(numeric) >= 15


def test_demo_kb_answers_concrete_numbers(demo: KnowledgeBase) -> None:
    top = demo.search("demo", ["Um wie viel Prozent wird das Entgelt in der Altersteilzeit aufgestockt?"])[0]
    assert top.entry_id == "lb-atz-07" and "28,5 %" in top.text and top.stand == "2026-01"


def test_demo_kb_has_a_survey_theme(demo: KnowledgeBase) -> None:
    hits = demo.search("demo", ["Welche Arten von Urlaub und Freistellung gibt es?"], limit=10)
    leave = {h.entry_id for h in hits if h.entry_id.startswith(("lb-url-", "lb-elt-", "lb-pfl-"))}
    assert len(leave) >= 5


def test_demo_kb_conflict_and_non_official_work(demo: KnowledgeBase) -> None:
    [conflict] = demo.conflicts("demo")
    hits = demo.search("demo", ["Ist die Mitarbeiterprämie 2026 beitragspflichtig?"], limit=5)
    found = {h.entry_id for h in hits}
    assert set(conflict.ids) <= found
    assert any(not h.official and h.work.startswith("Praxisleitfaden") for h in hits)


def test_demo_kb_validity_switch(demo: KnowledgeBase) -> None:
    old = demo.search("demo", ["Essenszuschuss Kantine"], valid_on=date(2025, 6, 1), expand_cross_refs=False)
    new = demo.search("demo", ["Essenszuschuss Kantine"], valid_on=date(2026, 6, 1), expand_cross_refs=False)
    assert old[0].entry_id == "lb-ess-01" and new[0].entry_id == "lb-ess-02"
    # each hit carries its validity, so the answer graph can tell which entry holds on the day asked about
    assert (old[0].valid_from, old[0].valid_until) == (None, date(2025, 12, 31))
    assert (new[0].valid_from, new[0].valid_until) == (date(2026, 1, 1), None)
