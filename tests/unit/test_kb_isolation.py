"""Property: whatever the query, a search in one KB never returns anything of another KB.

Two KBs share vocabulary and even entry IDs; hypothesis varies both KBs' contents and the queries.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stores.kb.store import KnowledgeBase
from tests.kb_support import embedded_kb, entry, ingest, write_jsonl

VOCABULARY = [
    "Urlaub", "Gehalt", "Prämie", "Dienstwagen", "Kündigung", "Überstunden", "Zuschlag", "Elternzeit",
    "Krankheit", "Reisekosten", "Jobticket", "Altersteilzeit", "28,5 %", "500 €", "Stand", "Antrag",
]  # fmt: skip
_kb_numbers = itertools.count()

texts = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=8).map(" ".join)
kb_contents = st.lists(texts, min_size=1, max_size=6)
queries = st.lists(st.one_of(texts, st.text(max_size=30)), min_size=1, max_size=3)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeBase]:
    with embedded_kb(tmp_path_factory.mktemp("iso")) as knowledge_base:
        yield knowledge_base


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(alpha=kb_contents, beta=kb_contents, asked=queries, expand=st.booleans())
def test_no_hit_crosses_knowledge_bases(
    kb: KnowledgeBase, tmp_path: Path, alpha: list[str], beta: list[str], asked: list[str], expand: bool
) -> None:
    number = next(_kb_numbers)
    contents: dict[str, dict[str, str]] = {}
    for name, bodies in ((f"alpha{number}", alpha), (f"beta{number}", beta)):
        # the same IDs in both KBs; each entry references the next one so cross-ref expansion is exercised
        records = [
            entry(f"lb-iso-{i:02d}", name, f"{name}: {body}", cross_refs=[f"lb-iso-{(i + 1) % len(bodies):02d}"])
            for i, body in enumerate(bodies)
        ]
        ingest(kb, write_jsonl(tmp_path / f"{name}.jsonl", records), name)
        contents[name] = {r["id"]: r["text"] for r in records}
    for name, own in contents.items():
        hits = kb.search(name, asked, limit=10, expand_cross_refs=expand)
        assert all(h.kb_id == name and h.title == name for h in hits)
        assert all(h.entry_id in own and h.text == own[h.entry_id] for h in hits)
        assert all(e.kb_id == name for e in kb.get_entries(name, list(own)))
        assert {c.kb_id for c in kb.conflicts(name)} <= {name}
