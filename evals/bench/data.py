"""Benchmark inputs read from the shared data folder at run time (never copied into the repository)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stores.vector.embedders import Embedder


class BenchmarkDataError(ValueError):
    """A benchmark input is missing or malformed; the message names the file."""


@dataclass(frozen=True)
class Passage:
    id: str
    title: str
    text: str

    @property
    def indexed(self) -> str:
        return f"{self.title}\n{self.text}"


@dataclass(frozen=True)
class Query:
    id: str
    text: str
    gold: str | None
    article: str


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise BenchmarkDataError(f"{path}: Datei fehlt")
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise BenchmarkDataError(f"{path}:{number}: kein gültiges JSON ({exc.msg})") from None
    return rows


def load_passages(path: Path) -> list[Passage]:
    return [Passage(id=r["_id"], title=r.get("title", ""), text=r["text"]) for r in read_jsonl(path)]


def load_queries(path: Path) -> list[Query]:
    return [
        Query(id=r["_id"], text=r["text"], gold=r.get("gold_passage"), article=r.get("article", ""))
        for r in read_jsonl(path)
    ]


def article_fold(article: str, articles: Sequence[str]) -> int:
    """Fold 0 or 1 of an article: blocks of six in title order alternate between the folds.

    The refusal split held out every sixth article in title order, so these blocks put half of the
    held-out articles (and half of the others) into each fold: one fold fits the calibration, the
    other is reported on.
    """
    return (sorted(articles).index(article) // 6) % 2


class CachedEmbedder:
    """Remembers vectors by text, so several methods over the same texts embed each text once."""

    def __init__(self, inner: Embedder) -> None:
        self.name = inner.name
        self.dim = inner.dim
        self._inner = inner
        self._passages: dict[str, list[float]] = {}
        self._queries: dict[str, list[float]] = {}

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if t not in self._passages]
        if missing:
            self._passages.update(zip(missing, self._inner.embed_passages(missing), strict=True))
        return [self._passages[t] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        if text not in self._queries:
            self._queries[text] = self._inner.embed_query(text)
        return self._queries[text]


def write_kb_entries(entries: Iterable[dict[str, Any]], target: Path) -> Path:
    """KB entries as JSONL for ``ingest_kb``."""
    with target.open("w", encoding="utf-8") as out:
        for entry in entries:
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
    return target


def write_passage_kb(passages: Sequence[Passage], target: Path, *, stand: str, work: str) -> Path:
    """Corpus passages (XQuAD) as official KB entries, titled by their article."""
    return write_kb_entries(
        (
            {
                "id": p.id,
                "title": p.title.replace("_", " "),
                "text": p.text,
                "stand": stand,
                "work": work,
                "official": True,
            }
            for p in passages
        ),
        target,
    )
