"""Scale benchmark: store cost of the vector engines at 1,000 to 100,000 German passages, numpy as the floor.

Run ``belegt bench scale --passages 1000,10000,100000 [--json]``. Passages are built from the German text
under ``../shared/data`` (federal and Austrian law, XQuAD-de paragraphs): sentences drawn with a fixed seed,
two to five per passage, spread over ten tenants. Store cost is ``HybridIndex.search`` with a hashing
embedder (no model time) and a tenant filter, hybrid and sparse; numpy brute force is the exact dense top-10
over all passages with the tenant mask applied per query. Each engine and size runs in its own process, so
peak memory (max RSS) is its own, with one BLAS/OpenMP thread. qdrant-client local mode runs only up to
``--qdrant-local-max`` passages (it is brute force).
"""

from __future__ import annotations

import os
import random
import re
import resource
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from evals.bench.data import BenchmarkDataError, read_jsonl
from evals.bench.hashing import HashEmbedder
from evals.bench.isolated import measure_in_child
from evals.bench.retrieval import latency_figures
from evals.suite import Tracker
from stores.vector.engine import VectorEngine
from stores.vector.index import HybridIndex, IndexPoint

TENANTS = 10
QUERIES = 100
SEED = 13
ENGINES = ("edge", "qdrant-local", "numpy")
# Every engine searches with one thread, the numpy floor included: Edge's shards do (stores/vector/edge.py),
# and OpenBLAS's threads spin-wait for busy cores (10,000 passages at load 5–6: p50 16 ms, one thread 1.8 ms).
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-ZÄÖÜ(])")


def german_sentences(data_root: Path) -> list[str]:
    """Distinct German sentences of 40 to 400 characters from the shared data, in a fixed order."""
    texts = [str(r["text"]) for r in read_jsonl(data_root / "de_gesetze" / "kb_paragraphs.jsonl")]
    texts += [str(r["text"]) for r in read_jsonl(data_root / "xquad_de" / "derived" / "corpus.jsonl")]
    texts += [p.read_text(encoding="utf-8") for p in sorted((data_root / "at_gesetze_lawat" / "files").glob("*.md"))]
    sentences = {
        " ".join(s.split())
        for text in texts
        for s in _SENTENCE.split(text)
        if 40 <= len(" ".join(s.split())) <= 400 and not s.lstrip().startswith(("#", "|"))
    }
    return sorted(sentences)


def scale_passages(sentences: Sequence[str], count: int) -> list[IndexPoint]:
    rng = random.Random(SEED)
    return [
        IndexPoint(
            id=f"p{n}", text=" ".join(rng.sample(sentences, rng.randint(2, 5))), payload={"tenant": f"t{n % TENANTS}"}
        )
        for n in range(count)
    ]


def scale_queries(sentences: Sequence[str]) -> list[str]:
    """Six to ten consecutive words of random sentences: queries that share vocabulary with passages."""
    rng = random.Random(SEED + 1)
    queries = []
    for sentence in rng.sample(sentences, QUERIES):
        words = sentence.split()
        length = min(len(words), rng.randint(6, 10))
        start = rng.randint(0, len(words) - length)
        queries.append(" ".join(words[start : start + length]))
    return queries


def _open_engine(kind: str, folder: Path) -> VectorEngine:
    from qdrant_client import QdrantClient

    from stores.vector.edge import EdgeEngine
    from stores.vector.qdrant import ClientEngine

    return EdgeEngine(folder / "edge") if kind == "edge" else ClientEngine(QdrantClient(path=str(folder / "qdrant")))


def _timed(search: Callable[[str], object], queries: Sequence[str]) -> dict[str, float]:
    for query in queries[:5]:
        search(query)  # warm caches and lazily loaded shards
    seconds = []
    for query in queries:
        start = time.perf_counter()
        search(query)
        seconds.append(time.perf_counter() - start)
    return latency_figures(seconds, digits=3)


def measure(kind: str, size: int, data_root: Path) -> dict[str, Any]:
    """One engine at one size (runs in a child process)."""
    sentences = german_sentences(data_root)
    points = scale_passages(sentences, size)
    queries = scale_queries(sentences)
    embedder = HashEmbedder()
    tenant = {"tenant": "t3"}
    if kind == "numpy":
        start = time.perf_counter()
        vectors = np.asarray(embedder.embed_passages([p.text for p in points]), dtype=np.float32)
        outside = np.asarray([p.payload["tenant"] != tenant["tenant"] for p in points])
        build_s = time.perf_counter() - start

        def brute_force(query: str) -> object:
            scores = vectors @ np.asarray(embedder.embed_query(query), dtype=np.float32)
            scores[outside] = -np.inf
            top = np.argpartition(-scores, 10)[:10]
            return top[np.argsort(-scores[top])]

        figures = {"dense": _timed(brute_force, queries)}
    else:
        with tempfile.TemporaryDirectory(prefix="belegt-scale-") as folder:
            engine = _open_engine(kind, Path(folder))
            hybrid = HybridIndex(engine, embedder=embedder, tenant_key="tenant")
            sparse = HybridIndex(engine, embedder=None, tenant_key="tenant")  # BM25 list of the same version
            start = time.perf_counter()
            hybrid.build("scale", points)
            build_s = time.perf_counter() - start
            figures = {
                "hybrid": _timed(lambda q: hybrid.search("scale", q, filter=tenant), queries),
                "sparse": _timed(lambda q: sparse.search("scale", q, filter=tenant), queries),
            }
            engine.close()
    return {
        "build_s": round(build_s, 1),
        "passages_per_s": round(size / build_s, 1) if build_s else None,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        **figures,
    }


def run_scale_benchmark(
    sizes: Sequence[int],
    data_root: Path,
    progress: Tracker,
    *,
    engines: Sequence[str] = ENGINES,
    qdrant_local_max: int = 10_000,
) -> dict[str, Any]:
    unknown = sorted(set(engines) - set(ENGINES))
    if unknown:
        raise BenchmarkDataError(f"unbekannte Engine(s) {', '.join(unknown)}; erlaubt: {', '.join(ENGINES)}")
    sentences = german_sentences(data_root)
    if len(sentences) < 1000:
        raise BenchmarkDataError(f"{data_root}: zu wenig deutscher Text ({len(sentences)} Sätze)")
    report: dict[str, Any] = {
        "sentences": len(sentences),
        "tenants": TENANTS,
        "queries": QUERIES,
        "cpus": os.cpu_count(),
        "load_before": [round(v, 2) for v in os.getloadavg()],
        "sizes": {},
    }
    runs = [(size, kind) for size in sizes for kind in engines if kind != "qdrant-local" or size <= qdrant_local_max]
    rows: dict[int, dict[str, Any]] = {size: {} for size in sizes}
    for size, kind in progress.track(runs, "Engines und Größen messen"):
        rows[size][kind] = measure_in_child(
            measure, kind, size, data_root, what=f"{kind} bei {size} Passagen", environment=ONE_THREAD
        )
    for size, row in rows.items():
        if "numpy" in row:
            floor = row["numpy"]["dense"]["p50_ms"]
            for kind in ("edge", "qdrant-local"):
                if kind in row and floor:
                    row[kind]["hybrid_vs_numpy_p50"] = round(row[kind]["hybrid"]["p50_ms"] / floor, 1)
        report["sizes"][str(size)] = row
    report["load_after"] = [round(v, 2) for v in os.getloadavg()]
    return report


def print_report(report: dict[str, Any], console: Console) -> None:
    table = Table(
        "Passagen", "Engine", "Aufbau s", "Passagen/s", "Peak MB", "hybrid p50", "hybrid p95",
        "sparse p50", "sparse p95", "× numpy",
        title=f"Store-Kosten mit Mandantenfilter ({report['tenants']} Mandanten, {report['queries']} Anfragen, ms)",
    )  # fmt: skip
    for size, row in report["sizes"].items():
        for kind, m in row.items():
            searches = [m.get("hybrid", m.get("dense", {})), m.get("sparse", {})]
            table.add_row(
                size,
                kind,
                f"{m['build_s']}",
                f"{m['passages_per_s']}",
                f"{m['peak_rss_mb']}",
                *(f"{s.get(k, '–')}" for s in searches for k in ("p50_ms", "p95_ms")),
                f"{m.get('hybrid_vs_numpy_p50', '–')}",
            )
    console.print(table)
    console.print(
        f"{report['cpus']} CPUs; Last (1/5/15 min) vorher {report['load_before']}, nachher {report['load_after']}"
    )
