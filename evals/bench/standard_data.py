"""Retrieval test sets in standard layouts: BEIR folders and SQuAD-format JSON, read as they are published.

BEIR: ``corpus.jsonl`` (``_id``, ``title``, ``text``), ``queries.jsonl`` (``_id``, ``text``) and relevance
judgments in ``qrels/<split>.tsv`` or ``qrels.tsv`` (``query-id``, ``corpus-id``, ``score``; a header row is
optional, score 0 means not relevant). Without any qrels file, a ``gold_passage`` field in the queries is used.
SQuAD (v1.1 or v2.0 JSON): every paragraph is a passage, every question with an answer a query whose relevant
passage is its paragraph; unanswerable v2.0 questions are counted and left out.
Queries without a relevant passage in the corpus are left out and counted; a set where none remains is an
error, so a metric can never be a silent 0.000 caused by ids that do not match.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evals.bench.data import BenchmarkDataError, Passage, Query, read_jsonl

DEFAULT_SPLIT = "test"


@dataclass(frozen=True)
class JudgedQuery:
    query: Query
    relevant: dict[str, int]
    """Passage id → relevance grade (> 0)."""


@dataclass
class RetrievalSet:
    name: str
    layout: str
    passages: list[Passage]
    queries: list[JudgedQuery]
    notes: list[str] = field(default_factory=list)


def load_retrieval_set(path: Path, *, split: str = DEFAULT_SPLIT) -> RetrievalSet:
    """A BEIR folder or a SQuAD JSON file (see module doc)."""
    if path.is_file() and path.suffix.lower() == ".json":
        return _squad(path)
    if path.is_dir() and (path / "corpus.jsonl").is_file():
        return _beir(path, split)
    if path.is_dir():
        raise BenchmarkDataError(f"{path}: weder BEIR-Ordner (corpus.jsonl fehlt) noch SQuAD-JSON-Datei")
    raise BenchmarkDataError(f"{path}: Datei fehlt")


def _name(path: Path) -> str:
    return path.parent.name if path.name in ("derived", "beir") else path.name.removesuffix(".json")


def _beir(folder: Path, split: str) -> RetrievalSet:
    passages = [
        Passage(id=str(row["_id"]), title=str(row.get("title") or ""), text=str(row["text"]))
        for row in _rows(folder / "corpus.jsonl", ("_id", "text"))
    ]
    rows = _rows(folder / "queries.jsonl", ("_id", "text"))
    qrels_file = _qrels_file(folder, split)
    if qrels_file is not None:
        judgments = _qrels(qrels_file)
        source = str(qrels_file.relative_to(folder))
    else:
        judgments = {str(r["_id"]): {str(r["gold_passage"]): 1} for r in rows if r.get("gold_passage")}
        source = "gold_passage in queries.jsonl"
        if not judgments:
            raise BenchmarkDataError(
                f"{folder}: keine Relevanzurteile (qrels/{split}.tsv, qrels.tsv oder gold_passage in queries.jsonl)"
            )
    queries = [
        (
            Query(id=str(r["_id"]), text=str(r["text"]), gold=None, article=str(r.get("article", ""))),
            judgments.get(str(r["_id"]), {}),
        )
        for r in rows
    ]
    return _judged(_name(folder), f"BEIR ({source})", passages, queries)


def _rows(path: Path, required: tuple[str, ...]) -> list[dict[str, Any]]:
    rows = read_jsonl(path)
    for number, row in enumerate(rows, start=1):
        missing = [key for key in required if key not in row]
        if missing:
            raise BenchmarkDataError(f"{path}: Zeile {number} ohne {', '.join(missing)}")
    return rows


def _qrels_file(folder: Path, split: str) -> Path | None:
    split_files = sorted((folder / "qrels").glob("*.tsv")) if (folder / "qrels").is_dir() else []
    if split_files:
        chosen = folder / "qrels" / f"{split}.tsv"
        if chosen.is_file():
            return chosen
        if len(split_files) == 1:
            return split_files[0]
        names = ", ".join(p.stem for p in split_files)
        raise BenchmarkDataError(f"{folder}/qrels: Split {split!r} fehlt (vorhanden: {names}); --split wählt einen")
    flat = folder / "qrels.tsv"
    return flat if flat.is_file() else None


def _qrels(path: Path) -> dict[str, dict[str, int]]:
    judgments: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.reader(handle, delimiter="\t"), start=1):
            if not row or (number == 1 and row[0] == "query-id"):
                continue
            try:
                query_id, passage_id, score = row[0], row[1], int(row[2])
            except (IndexError, ValueError):
                raise BenchmarkDataError(
                    f"{path}:{number}: erwartet query-id, corpus-id, score (Tab-getrennt)"
                ) from None
            if score > 0:
                judgments.setdefault(query_id, {})[passage_id] = score
    return judgments


def _squad(path: Path) -> RetrievalSet:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        articles = data["data"]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise BenchmarkDataError(f"{path}: kein SQuAD-JSON ({exc.__class__.__name__}: {exc})") from None
    passages: list[Passage] = []
    queries: list[tuple[Query, dict[str, int]]] = []
    impossible = 0
    for a, article in enumerate(articles):
        title = str(article.get("title", ""))
        for p, paragraph in enumerate(article.get("paragraphs", [])):
            passage_id = f"{a:03d}-{p:03d}"
            passages.append(Passage(id=passage_id, title=title, text=str(paragraph["context"])))
            for qa in paragraph.get("qas", []):
                if qa.get("is_impossible") or not qa.get("answers"):
                    impossible += 1
                    continue
                query = Query(id=str(qa["id"]), text=str(qa["question"]), gold=None, article=title)
                queries.append((query, {passage_id: 1}))
    loaded = _judged(_name(path), "SQuAD-JSON", passages, queries)
    if impossible:
        loaded.notes.append(f"{impossible} Fragen ohne Antwort (SQuAD 2.0) nicht bewertet")
    return loaded


def _judged(
    name: str, layout: str, passages: list[Passage], queries: list[tuple[Query, dict[str, int]]]
) -> RetrievalSet:
    if not passages:
        raise BenchmarkDataError(f"{name}: keine Passagen")
    known = {p.id for p in passages}
    judged: list[JudgedQuery] = []
    unjudged = dangling = 0
    for query, relevant in queries:
        present = {pid: grade for pid, grade in relevant.items() if pid in known}
        dangling += len(relevant) - len(present)
        if not present:
            unjudged += 1
            continue
        judged.append(JudgedQuery(query, present))
    if not judged:
        raise BenchmarkDataError(
            f"{name}: keine Frage hat eine relevante Passage im Korpus (IDs der Relevanzurteile passen nicht)"
        )
    notes = []
    if unjudged:
        notes.append(f"{unjudged} Fragen ohne relevante Passage im Korpus nicht bewertet")
    if dangling:
        notes.append(f"{dangling} Relevanzurteile nennen Passagen, die im Korpus fehlen")
    return RetrievalSet(name=name, layout=layout, passages=passages, queries=judged, notes=notes)
