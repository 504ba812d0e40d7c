"""The project-owned eval datasets agree with the demo data they describe, and bad lines are named."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import get_args

import pytest

from evals.datasets import GROUNDING_DEMO, Category, DatasetError, load_golden_set
from evals.suites.scan import DEMO as SCAN_DEMO
from evals.suites.scan import load_expected
from stores.ingest.documents import read_document
from stores.ingest.kb import read_kb_input
from stores.scan.whitespace import canonical_whitespace
from stores.settings import StoreSettings

REPO = Path(__file__).resolve().parents[2]
EXPECTED_BEHAVIOUR = {
    "simple": "answer",
    "multi_part": "answer",
    "survey": "answer",
    "false_premise": "correct_premise",
    "missing_context": "clarify",
    "conflict": "conflict",
    "non_official": "flag_non_official",
    "out_of_kb": "refuse",
}


def test_golden_set_covers_every_category_with_at_least_60_questions() -> None:
    examples = load_golden_set()
    counts = Counter(e.category for e in examples)
    assert len(examples) >= 60
    assert set(counts) == set(get_args(Category))
    assert min(counts.values()) >= 6
    assert all(e.reference_outputs.behaviour == EXPECTED_BEHAVIOUR[e.category] for e in examples)


def test_golden_citations_name_entries_of_the_demo_kb_with_the_right_kind() -> None:
    kb = read_kb_input(REPO / "demo" / "kb", "demo", StoreSettings().kb_id_pattern)
    entries = {e.id: e for e in kb.entries}
    conflict_ids = {i for c in kb.conflicts for i in c.ids}
    for example in load_golden_set():
        reference = example.reference_outputs
        cited = reference.citations + reference.acceptable
        assert set(cited) <= set(entries), example.id
        if example.category == "conflict":
            assert set(reference.citations) == conflict_ids, example.id
        if example.category == "non_official":
            assert not entries[reference.citations[0]].official, example.id
        if example.category == "out_of_kb":
            assert not cited, example.id


def test_golden_facts_stand_in_their_entries() -> None:
    kb = read_kb_input(REPO / "demo" / "kb", "demo", StoreSettings().kb_id_pattern)
    texts = {e.id: canonical_whitespace(e.text) for e in kb.entries}
    for example in load_golden_set():
        evidence = " ".join(texts[i] for i in example.reference_outputs.citations)
        for fact in example.reference_outputs.must_contain:
            assert fact in evidence, (example.id, fact)


def test_scan_expectations_quote_their_pages_and_name_catalogue_requirements() -> None:
    pages = {p.page_number: canonical_whitespace(p.raw_text) for p in read_document(SCAN_DEMO / "produktinfo.md").pages}
    catalogue = (SCAN_DEMO / "katalog.yaml").read_text(encoding="utf-8")
    for finding in load_expected():
        assert canonical_whitespace(finding.quote) in pages[finding.page], finding
        assert f"stable_id: {finding.requirement_id}\n" in catalogue, finding


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "golden.jsonl:2: kein gültiges JSON"),
        (json.dumps({"id": "x", "category": "simple", "inputs": {"question": ""}}), "golden.jsonl:2: inputs.question"),
        (
            json.dumps(
                {
                    "id": "x",
                    "category": "trivia",
                    "inputs": {"question": "?"},
                    "reference_outputs": {"behaviour": "answer", "citations": []},
                }
            ),
            "golden.jsonl:2: category",
        ),
    ],
)
def test_a_bad_golden_line_is_named(line: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "golden.jsonl"
    path.write_text(GROUNDING_DEMO.read_text(encoding="utf-8").splitlines()[0] + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=message):
        load_golden_set(path)


def test_duplicate_golden_ids_are_refused(tmp_path: Path) -> None:
    first = GROUNDING_DEMO.read_text(encoding="utf-8").splitlines()[0]
    path = tmp_path / "golden.jsonl"
    path.write_text(f"{first}\n{first}\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="doppelte IDs simple-01"):
        load_golden_set(path)
