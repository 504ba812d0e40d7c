"""Helpers for KB tests: a small HR knowledge base written as JSONL or Markdown, and a KnowledgeBase on real stores."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from stores.ingest.kb import IngestSummary, ingest_kb
from stores.kb.store import KnowledgeBase
from stores.settings import StoreSettings
from stores.sql.engine import Database, open_database
from stores.vector.embedders import Embedder
from stores.vector.engine import VectorEngine
from stores.vector.qdrant import memory_engine

PATTERN = r"^[a-z]{2,4}-[a-z0-9]+-[0-9]{2,}$"


def entry(entry_id: str, title: str, text: str, **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": entry_id,
        "title": title,
        "section": "Personal",
        "text": text,
        "stand": "2026-01",
        "work": "Personalhandbuch",
        "official": True,
    }
    record.update(extra)
    return record


SMALL_KB = [
    entry(
        "lb-url-01", "Urlaubsanspruch", "Vollzeitbeschäftigte haben 30 Urlaubstage im Jahr.", cross_refs=["lb-url-02"]
    ),
    entry("lb-url-02", "Resturlaub", "Resturlaub verfällt am 31. März des Folgejahres."),
    entry(
        "lb-kfz-01",
        "Dienstwagen",
        "Die Privatnutzung des Dienstwagens wird mit 1 % des Listenpreises monatlich versteuert.",
        work="Lohnratgeber",
        official=False,
    ),
    entry(
        "lb-kfz-02", "Dienstwagen alt", "Fahrtenbuch-Regel für Dienstwagen.", stand="2025-01", valid_until="2025-12-31"
    ),
    entry("lb-sva-03", "Mitarbeiterprämie", "Die Prämie ist beitragsfrei.", valid_from="2026-01-01"),
    entry("wk-akt-04", "Mitarbeiterprämie aktuell", "Die Prämie ist beitragspflichtig."),
]
SMALL_CONFLICT = {
    "type": "conflict",
    "ids": ["wk-akt-04", "lb-sva-03"],
    "topic": "Beitragspflicht der Mitarbeiterprämie",
    "sides": {"wk-akt-04": "nennt die Prämie beitragspflichtig", "lb-sva-03": "ordnet sie als beitragsfrei ein"},
}


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


@contextmanager
def embedded_kb(folder: Path, embedder: Embedder | None = None) -> Iterator[KnowledgeBase]:
    """A KnowledgeBase on a SQLite file in ``folder`` and an in-memory Qdrant, closed afterwards."""
    database = open_database(f"sqlite:///{folder / 'belegt.db'}")
    engine = memory_engine()
    try:
        yield open_kb(engine, database, embedder)
    finally:
        engine.close()
        database.dispose()


def open_kb(engine: VectorEngine, database: Database, embedder: Embedder | None = None) -> KnowledgeBase:
    return KnowledgeBase.from_settings(StoreSettings(), engine=engine, database=database, embedder=embedder)


def ingest(kb: KnowledgeBase, source: Path, kb_id: str = "demo", *, prune: bool = False) -> IngestSummary:
    return ingest_kb(source, kb_id, kb=kb, default_id_pattern=PATTERN, chunk_chars=1500, prune=prune)


DEMO_KB = Path(__file__).resolve().parents[1] / "demo" / "kb"


def ingest_demo(kb: KnowledgeBase) -> KnowledgeBase:
    """Ingest the German HR demo KB (``demo/kb``) as KB 'demo': the fixture for answer-graph tests."""
    ingest(kb, DEMO_KB)
    return kb
