"""Retrieval benchmark: ranking quality on a standard test set, refusal separation, law-KB timings.

Run ``belegt bench retrieval --data DIR_OR_FILE [--split test] [--json]``. ``--data`` is a BEIR folder or a
SQuAD JSON file (``evals.bench.standard_data``); the default is XQuAD-de. The refusal split
(``refusal_split_*.jsonl`` beside the corpus) and the law KB are optional: a missing one is a note in the
report. Every method runs through the real stores (Qdrant Edge in a temporary folder); the plain BM25
baseline is computed in the same run.
"""

from __future__ import annotations

import math
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from evals.bench.bm25 import BM25
from evals.bench.data import (
    BenchmarkDataError,
    CachedEmbedder,
    Passage,
    Query,
    article_fold,
    load_passages,
    load_queries,
    read_jsonl,
)
from evals.bench.standard_data import DEFAULT_SPLIT, load_retrieval_set
from evals.datasets.questions import LAW_ID_PATTERN, LAW_MAPPING
from evals.evaluators import mean_scores
from evals.evaluators.calibration import roc_auc
from evals.evaluators.retrieval import RANKING_EVALUATORS
from evals.suite import Tracker
from stores.ingest.kb import ingest_kb
from stores.ingest.mapping import read_mapping_file
from stores.kb.store import KnowledgeBase
from stores.settings import StoreSettings
from stores.sql.engine import open_database
from stores.vector.edge import EdgeEngine
from stores.vector.embedders import Embedder, create_embedder
from stores.vector.engine import VectorEngine
from stores.vector.index import Fusion, HybridIndex, IndexPoint

__all__ = ["BenchmarkDataError", "print_report", "run_retrieval_benchmark"]

THRESHOLDS = (0.80, 0.70, 0.50, 0.40, 0.0)
TENANT = "corpus"
LAW_QUERIES = 100
REFUSAL_FILES = ("refusal_split_kb_corpus.jsonl", "refusal_split_queries.jsonl")


# --- metrics -----------------------------------------------------------------------------------------


def ranking_metrics(rankings: Sequence[Sequence[str]], relevant: Sequence[Mapping[str, int]]) -> dict[str, float]:
    """recall@1/5/10, nDCG@10 and MRR (graded relevance, see ``evals.evaluators.retrieval``), query means."""
    results = [
        evaluator({}, {"ranking": ranked}, {"relevant": judged})
        for ranked, judged in zip(rankings, relevant, strict=True)
        for evaluator in RANKING_EVALUATORS
    ]
    return {key: mean for key, (mean, _) in mean_scores(results).items()}


def latency_figures(seconds: Sequence[float], *, digits: int = 1) -> dict[str, float]:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"p50_ms": round(statistics.median(ordered) * 1000, digits), "p95_ms": round(p95 * 1000, digits)}


def threshold_rates(positives: Sequence[float], negatives: Sequence[float]) -> dict[str, dict[str, float]]:
    """Share of answerable / unanswerable questions whose top score reaches each strictness threshold."""
    return {
        f"{t:.2f}": {
            "answerable": round(sum(p >= t for p in positives) / len(positives), 4),
            "unanswerable": round(sum(n >= t for n in negatives) / len(negatives), 4),
        }
        for t in THRESHOLDS
    }


# --- runs --------------------------------------------------------------------------------------------


def build_index(
    engine: VectorEngine,
    alias: str,
    passages: Sequence[Passage],
    embedder: Embedder | None,
    *,
    fusion: Fusion = "weighted",
    dense_weight: float = 0.5,
    progress: Callable[[int], None] | None = None,
) -> HybridIndex:
    index = HybridIndex(engine, embedder=embedder, tenant_key=TENANT, fusion=fusion, dense_weight=dense_weight)
    if not index.exists(alias):
        points = [IndexPoint(id=p.id, text=p.indexed, payload={TENANT: "bench"}) for p in passages]
        index.build(alias, points, progress=progress)
    return index


def rank_queries(
    search: Callable[[str], list[str]], queries: Iterable[Query]
) -> tuple[dict[str, float], list[list[str]]]:
    rankings, seconds = [], []
    for query in queries:
        start = time.perf_counter()
        rankings.append(search(query.text))
        seconds.append(time.perf_counter() - start)
    return latency_figures(seconds), rankings


def index_search(index: HybridIndex, alias: str) -> Callable[[str], list[str]]:
    """Top-10 passage ids of a query in the benchmark index."""
    return lambda q: [p.id for p in index.search(alias, q, filter={TENANT: "bench"}, limit=10)]


def bm25_search(passages: Sequence[Passage]) -> Callable[[str], list[str]]:
    """Top-10 passage ids of a query under plain in-memory BM25."""
    bm25 = BM25([p.text for p in passages])
    ids = [p.id for p in passages]

    def search(text: str) -> list[str]:
        scores = bm25.scores(text)
        return [ids[i] for i in sorted(range(len(ids)), key=lambda i: -scores[i])[:10]]

    return search


def top_scores(index: HybridIndex, alias: str, queries: Sequence[Query]) -> list[dict[str, float]]:
    """Raw and calibrated scores of each query's top hit (0 when nothing matched)."""
    rows = []
    for query in queries:
        hits = index.search(alias, query.text, filter={TENANT: "bench"}, limit=1)
        terms = len(index.analyzer.query_vector(query.text).indices)
        top = hits[0] if hits else None
        rows.append(
            {
                "score": top.score if top else 0.0,
                "sparse_per_term": (top.sparse / max(1, terms)) if top else 0.0,
                "dense": (top.dense or 0.0) if top else 0.0,
            }
        )
    return rows


def refusal_report(
    index: HybridIndex, alias: str, queries: Sequence[Query], answerable: Sequence[bool]
) -> dict[str, Any]:
    """ROC AUC and threshold rates of the calibrated top-1 score, on the report fold only."""
    articles = sorted({q.article for q in queries})
    report_fold = [i for i, q in enumerate(queries) if article_fold(q.article, articles) == 1]
    rows = top_scores(index, alias, [queries[i] for i in report_fold])
    labels = [answerable[i] for i in report_fold]
    positives = [r["score"] for r, a in zip(rows, labels, strict=True) if a]
    negatives = [r["score"] for r, a in zip(rows, labels, strict=True) if not a]
    if not positives or not negatives:
        raise BenchmarkDataError("Report-Fold des Ablehnungs-Splits braucht beantwortbare und unbeantwortbare Fragen")
    raw = "dense" if index.embedder else "sparse_per_term"
    return {
        "fold": "report (article blocks 1, 3, 5, 7 in title order; calibration was fitted on the others)",
        "answerable": len(positives),
        "unanswerable": len(negatives),
        "roc_auc": roc_auc(positives, negatives),
        f"roc_auc_raw_{raw}": roc_auc(
            [r[raw] for r, a in zip(rows, labels, strict=True) if a],
            [r[raw] for r, a in zip(rows, labels, strict=True) if not a],
        ),
        "rates": threshold_rates(positives, negatives),
    }


def law_timings(
    laws_path: Path, embedder: Embedder | None, settings: StoreSettings, workdir: Path, progress: Tracker
) -> dict[str, Any]:
    """Ingest the federal-law KB through the real ingestion path, then time KB searches."""
    rows = read_jsonl(laws_path)
    database = open_database(f"sqlite:///{workdir / 'laws.db'}")
    engine = EdgeEngine(workdir / "laws-edge")
    try:
        kb = KnowledgeBase.from_settings(settings, engine=engine, database=database, embedder=embedder)
        start = time.perf_counter()
        with progress.counter("Gesetze-KB einlesen") as bar:
            summary = ingest_kb(
                laws_path,
                "laws",
                kb=kb,
                default_id_pattern=LAW_ID_PATTERN,
                chunk_chars=settings.kb_chunk_chars,
                mapping=read_mapping_file(LAW_MAPPING),
                progress=bar,
            )
        ingest_s = time.perf_counter() - start
        chunks = kb.index.count(kb.alias("laws"), filter={"kb_id": "laws"})
        step = max(1, len(rows) // LAW_QUERIES)
        questions = [f"Was regelt {r['law']} zu {r['heading'].split(' ', 2)[-1]}?" for r in rows[::step]]
        seconds = []
        for question in progress.track(questions[:LAW_QUERIES], "Suche Gesetze-KB"):
            begin = time.perf_counter()
            kb.search("laws", [question], limit=10)
            seconds.append(time.perf_counter() - begin)
    finally:
        engine.close()
        database.dispose()
    return {
        "entries": len(summary.added),
        "chunks": chunks,
        "ingest_s": round(ingest_s, 1),
        "queries": len(seconds),
        **latency_figures(seconds),
    }


def run_retrieval_benchmark(
    settings: StoreSettings, data: Path, laws_path: Path | None, progress: Tracker, *, split: str = DEFAULT_SPLIT
) -> dict[str, Any]:
    test_set = load_retrieval_set(data, split=split)
    passages, queries = test_set.passages, [q.query for q in test_set.queries]
    relevant = [q.relevant for q in test_set.queries]
    embedder = create_embedder(settings)
    cached = CachedEmbedder(embedder) if embedder else None
    report: dict[str, Any] = {
        "dataset": test_set.name,
        "layout": test_set.layout,
        "passages": len(passages),
        "queries": len(queries),
        "embedder": settings.embedder,
        "fusion": settings.kb_fusion,
        "dense_weight": settings.kb_dense_weight,
        "methods": {},
        "notes": list(test_set.notes),
    }
    methods: dict[str, Any] = report["methods"]
    refusal_folder = data if data.is_dir() else data.parent

    with tempfile.TemporaryDirectory() as tmp:
        engine = EdgeEngine(Path(tmp) / "edge")

        def indexed(alias: str, corpus: Sequence[Passage], model: Embedder | None, **options: Any) -> HybridIndex:
            with progress.counter(f"Index {alias} aufbauen") as bar:
                bar.start(len(corpus))
                return build_index(engine, alias, corpus, model, progress=bar.advance, **options)

        def measured(name: str, search: Callable[[str], list[str]]) -> None:
            latency, rankings = rank_queries(search, progress.track(queries, f"Suche {name}"))
            methods[name] = {**ranking_metrics(rankings, relevant), **latency}

        try:
            measured("bm25_baseline", bm25_search(passages))
            measured("sparse", index_search(indexed("sparse", passages, None), "sparse"))
            if cached is not None:
                fusion = {"fusion": settings.kb_fusion, "dense_weight": settings.kb_dense_weight}
                measured("hybrid", index_search(indexed("hybrid", passages, cached, **fusion), "hybrid"))
                # the same collection again: passages and queries come from the embedding cache
                measured("dense", index_search(indexed("hybrid", passages, cached, dense_weight=1.0), "hybrid"))
                other: Fusion = "rrf" if settings.kb_fusion == "weighted" else "weighted"
                alternative = indexed("hybrid", passages, cached, fusion=other, dense_weight=settings.kb_dense_weight)
                measured(f"hybrid_{other}", index_search(alternative, "hybrid"))
            if all((refusal_folder / name).is_file() for name in REFUSAL_FILES):
                refusal_kb = load_passages(refusal_folder / REFUSAL_FILES[0])
                refusal_rows = read_jsonl(refusal_folder / REFUSAL_FILES[1])
                refusal_queries = load_queries(refusal_folder / REFUSAL_FILES[1])
                answerable = [bool(r["answerable_in_kb"]) for r in refusal_rows]
                refusal_index = indexed(
                    "refusal", refusal_kb, cached, fusion=settings.kb_fusion, dense_weight=settings.kb_dense_weight
                )
                report["refusal"] = refusal_report(refusal_index, "refusal", refusal_queries, answerable)
            else:
                report["notes"].append(f"Ablehnungs-Split übersprungen: {' / '.join(REFUSAL_FILES)} fehlen")
        finally:
            engine.close()
        if laws_path is not None and laws_path.is_file():
            report["laws"] = law_timings(laws_path, embedder, settings, Path(tmp), progress)
        elif laws_path is not None:
            report["notes"].append(f"Gesetze-KB-Zeitmessung übersprungen: {laws_path} fehlt")
    return report


def print_report(report: dict[str, Any], console: Console) -> None:
    table = Table(
        "Methode", "R@1", "R@5", "R@10", "nDCG@10", "MRR", "p50 ms", "p95 ms",
        title=f"Retrieval {report['dataset']} ({report['passages']} Passagen, {report['queries']} Fragen, "
        f"Embedder {report['embedder']}, Fusion {report['fusion']} w={report['dense_weight']})",
    )  # fmt: skip
    for name, m in report["methods"].items():
        table.add_row(
            name,
            *(f"{m[k]:.3f}" for k in ("recall@1", "recall@5", "recall@10", "ndcg@10", "mrr")),
            f"{m['p50_ms']:.1f}",
            f"{m['p95_ms']:.1f}",
        )
    console.print(table)
    console.print(f"Eingabe: {report['layout']}")
    for note in report["notes"]:
        console.print(f"Hinweis: {note}")
    if "refusal" in report:
        print_refusal(report["refusal"], console)
    if "laws" in report:
        laws = report["laws"]
        console.print(
            f"Gesetze-KB: {laws['entries']} Einträge / {laws['chunks']} Chunks eingelesen in {laws['ingest_s']} s; "
            f"Suche p50 {laws['p50_ms']} ms, p95 {laws['p95_ms']} ms ({laws['queries']} Anfragen)"
        )


def print_refusal(refusal: dict[str, Any], console: Console) -> None:
    rates = Table(
        "min_score", "beantwortbar ≥", "unbeantwortbar ≥", title=f"Ablehnung: ROC AUC {refusal['roc_auc']:.3f}"
    )
    for threshold, rate in refusal["rates"].items():
        rates.add_row(threshold, f"{rate['answerable']:.3f}", f"{rate['unanswerable']:.3f}")
    console.print(rates)
    console.print(
        f"Report-Fold: {refusal['answerable']} beantwortbare, {refusal['unanswerable']} unbeantwortbare Fragen; "
        + ", ".join(f"{k} {v}" for k, v in refusal.items() if k.startswith("roc_auc_raw"))
    )
