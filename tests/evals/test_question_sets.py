"""The issue-11 question sets: every gold id exists, every expected fact and corrected value stands in a gold
entry (a corrected act in its metadata), every false premise contradicts it, and every out-of-KB question asks for
words the KB lacks."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import get_args

import pytest

from evals.datasets import DatasetError
from evals.datasets.questions import DEMO_QUESTIONS, LAW_KB, LAW_QUESTIONS, Kind, Question, load_questions
from evals.run import default_data_dir
from stores.ingest.kb import read_kb_input
from stores.settings import StoreSettings

REPO = Path(__file__).resolve().parents[2]


def _flat(text: str) -> str:
    """Hard wraps and runs of spaces as one space: the statutes wrap lines at about 70 characters."""
    return re.sub(r"\s+", " ", text)


def _demo_kb() -> dict[str, str]:
    parsed = read_kb_input(REPO / "demo" / "kb", "demo", StoreSettings().kb_id_pattern)
    return {e.id: _flat(f"{e.title} {e.text}") for e in parsed.entries}


def _demo_acts() -> dict[str, str]:
    """Entry id → the act it belongs to, as its metadata names it (the work)."""
    parsed = read_kb_input(REPO / "demo" / "kb", "demo", StoreSettings().kb_id_pattern)
    return {e.id: e.work for e in parsed.entries}


def _law_rows() -> list[dict[str, str]]:
    path = default_data_dir() / LAW_KB
    if not path.is_file():
        pytest.skip(f"{path} fehlt (Eval-Daten neben dem Repository oder BELEGT_EVAL_DATA_DIR)")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _law_kb() -> dict[str, str]:
    return {r["id"]: _flat(f"{r['heading']} {r['text']}") for r in _law_rows()}


def _law_acts() -> dict[str, str]:
    """Entry id → the act it belongs to, as its metadata names it (abbreviation and full title)."""
    return {r["id"]: f"{r['law']} {r['law_title']}" for r in _law_rows()}


SETS = {"law": (LAW_QUESTIONS, _law_kb), "demo": (DEMO_QUESTIONS, _demo_kb)}
ACTS = {"law": _law_acts, "demo": _demo_acts}


@pytest.mark.parametrize("name", list(SETS))
def test_each_set_has_100_questions_of_every_kind_in_both_splits(name: str) -> None:
    """Each kind is split about evenly, or has more dev questions: questions written later go to dev only, so the
    report split stays the one every earlier figure was measured on."""
    questions = load_questions(SETS[name][0])
    assert len(questions) >= 100
    kinds = Counter(q.kind for q in questions)
    assert set(kinds) == set(get_args(Kind))
    for kind in kinds:
        splits = Counter(q.split for q in questions if q.kind == kind)
        assert splits["report"] >= 4 and splits["dev"] >= splits["report"] - 1, (kind, splits)
    assert load_questions(SETS[name][0], "dev") + load_questions(SETS[name][0], "report") != []
    assert {q.split for q in load_questions(SETS[name][0], "report")} == {"report"}


@pytest.mark.parametrize("name", list(SETS))
def test_gold_ids_exist_and_hold_the_expected_facts(name: str) -> None:
    path, read_kb = SETS[name]
    kb = read_kb()
    problems = []
    acts = ACTS[name]()
    for q in load_questions(path):
        missing = [i for i in [*q.gold_ids, *q.acceptable_ids] if i not in kb]
        if missing:
            problems.append(f"{q.id}: unbekannte IDs {missing}")
            continue
        gold_text = " ".join(kb[i] for i in q.gold_ids)
        problems += [f"{q.id}: Fakt {f!r} steht in keinem Gold-Eintrag" for f in q.expected_facts if f not in gold_text]
        if q.kind == "false_premise":
            assert q.correct_value is not None and q.wrong_value is not None
            gold_acts = " ".join(acts[i] for i in q.gold_ids)
            if q.correct_value not in gold_text and q.correct_value not in gold_acts:
                problems.append(f"{q.id}: korrekter Wert {q.correct_value!r} fehlt im Gold-Eintrag und seinem Werk")
            if q.correct_value in gold_acts and q.wrong_value in gold_acts:
                problems.append(f"{q.id}: falsches Werk {q.wrong_value!r} ist das Werk des Gold-Eintrags")
            if re.search(rf"(?<![\w,.]){re.escape(q.wrong_value)}(?![\w,])", gold_text):
                problems.append(f"{q.id}: falscher Wert {q.wrong_value!r} steht im Gold-Eintrag")
            if q.wrong_value not in q.question:
                problems.append(f"{q.id}: die Frage nennt den falschen Wert {q.wrong_value!r} nicht")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", list(SETS))
def test_out_of_kb_questions_ask_for_what_the_kb_nowhere_says(name: str) -> None:
    path, read_kb = SETS[name]
    corpus = " ".join(read_kb().values()).casefold()
    found = [
        f"{q.id}: {term!r}"
        for q in load_questions(path)
        if q.kind == "out_of_kb"
        for term in q.absent_terms
        if re.search(rf"\b{re.escape(term.casefold())}", corpus)
    ]
    assert not found, found


@pytest.mark.parametrize("name", list(SETS))
def test_questions_are_not_copied_from_the_entries(name: str) -> None:
    """No question repeats eight words in a row of an entry: they are written the way users ask."""
    path, read_kb = SETS[name]
    kb = read_kb()
    shingles = set()
    for text in kb.values():
        words = re.findall(r"\w+", text.casefold())
        shingles |= {tuple(words[i : i + 8]) for i in range(len(words) - 7)}
    copied = []
    for q in load_questions(path):
        words = re.findall(r"\w+", q.question.casefold())
        if any(tuple(words[i : i + 8]) in shingles for i in range(len(words) - 7)):
            copied.append(q.id)
    assert not copied, copied


def test_a_bad_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    good = {"id": "a", "question": "Wie?", "kind": "out_of_kb", "gold_ids": [], "expected_facts": [], "split": "dev"}
    path.write_text(json.dumps({**good, "absent_terms": ["x"]}) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"q\.jsonl:2: .*absent_terms"):
        load_questions(path)
    path.write_text(json.dumps({**good, "kind": "false_premise", "gold_ids": ["x"]}) + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"q\.jsonl:1: .*wrong_value"):
        load_questions(path)
    assert Question.model_validate({**good, "absent_terms": ["x"]}).cited_ok == frozenset()
