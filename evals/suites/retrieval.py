"""Suite ``retrieval``: XQuAD-de BEIR split through the real hybrid index, with a plain BM25 baseline.

recall@1/5/10, nDCG@10 and MRR per method (BM25 baseline, sparse, dense, hybrid), search latency
p50/p95 per method and the query-embedding latency. Queries are embedded once before the searches are
timed, so each method's latency is its own search cost; the embedding cost is reported on its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from evals.bench.data import CachedEmbedder, load_passages, load_queries
from evals.bench.retrieval import bm25_search, build_index, index_search, latency_figures, rank_queries
from evals.evaluators import mean_scores
from evals.evaluators.retrieval import RANKING_EVALUATORS, recall_at
from evals.plots import share_plot
from evals.suite import Dataset, Metric, Suite, SuiteContext, SuiteResult, Table, dataset_version
from stores.vector.embedders import create_embedder
from stores.vector.qdrant import memory_engine

DATA = "xquad_de/derived"
RANKING_KEYS = ("recall@1", "recall@5", "recall@10", "ndcg@10", "mrr")
CURVE_KS = tuple(range(1, 11))
Search = Callable[[str], list[str]]


def run(ctx: SuiteContext) -> SuiteResult:
    folder = ctx.data(DATA)
    passages = load_passages(folder / "corpus.jsonl")
    queries = ctx.limited(load_queries(folder / "queries.jsonl"))
    app = ctx.settings.app
    embedder = create_embedder(app)
    searches: dict[str, Search] = {"bm25_baseline": bm25_search(passages)}
    metrics: list[Metric] = []
    timings: list[Metric] = []
    engine = memory_engine()
    try:
        with ctx.progress.counter("Sparse-Index aufbauen") as bar:
            bar.start(len(passages))
            sparse = build_index(engine, "sparse", passages, None, progress=bar.advance)
        searches["sparse"] = index_search(sparse, "sparse")
        if embedder is not None:
            cached = CachedEmbedder(embedder)
            with ctx.progress.counter(f"Passagen einbetten ({embedder.name})") as bar:
                bar.start(len(passages))
                hybrid = build_index(
                    engine,
                    "hybrid",
                    passages,
                    cached,
                    fusion=app.kb_fusion,
                    dense_weight=app.kb_dense_weight,
                    progress=bar.advance,
                )
            seconds = []
            for query in ctx.progress.track(queries, "Anfragen einbetten"):
                start = time.perf_counter()
                cached.embed_query(query.text)
                seconds.append(time.perf_counter() - start)
            embedding = latency_figures(seconds)
            timings += [
                Metric(f"query_embedding.{key}", value, len(queries), "Einbetten einer Anfrage")
                for key, value in embedding.items()
            ]
            searches["dense"] = index_search(
                build_index(engine, "hybrid", passages, cached, dense_weight=1.0), "hybrid"
            )
            searches["hybrid"] = index_search(hybrid, "hybrid")
        rankings = {}
        for name, search in searches.items():
            latency, rankings[name] = rank_queries(search, ctx.progress.track(queries, f"Suche {name}"))
            timings += [Metric(f"{name}.{key}", value, len(queries), "Suchzeit") for key, value in latency.items()]
    finally:
        engine.close()
    golds = [q.gold or "" for q in queries]
    curves: dict[str, list[float]] = {}
    rows = []
    for name, ranked in rankings.items():
        pairs = [({"ranking": r}, {"gold": g}) for r, g in zip(ranked, golds, strict=True)]
        scores = mean_scores(e({}, out, ref) for out, ref in pairs for e in RANKING_EVALUATORS)
        headline = name in ("hybrid", "bm25_baseline") or (embedder is None and name == "sparse")
        metrics += [
            Metric(
                f"{name}.{key}", scores[key][0], scores[key][1], headline=headline and key in ("recall@1", "ndcg@10")
            )
            for key in RANKING_KEYS
        ]
        curve = mean_scores(recall_at(k)({}, out, ref) for out, ref in pairs for k in CURVE_KS)
        curves[name] = [curve[f"recall@{k}"][0] for k in CURVE_KS]
        rows.append((name, *(scores[key][0] for key in RANKING_KEYS)))
    return SuiteResult(
        dataset=Dataset(
            f"{DATA} (BEIR: {len(passages)} Passagen)",
            dataset_version(folder / "corpus.jsonl", folder / "queries.jsonl"),
            len(queries),
        ),
        metrics=metrics + timings,
        settings={
            "fusion": app.kb_fusion,
            "dense_weight": app.kb_dense_weight,
            "methods": list(searches),
        },
        tables=[Table("Ranking je Methode", ("Methode", *RANKING_KEYS), rows)],
        plots=[
            share_plot(
                "recall_at_k.png",
                f"Recall@k je Methode ({len(queries)} Fragen)",
                curves,
                CURVE_KS,
                xlabel="k",
                ylabel="Recall@k",
            )
        ],
        notes=[
            "Latenzen: reine Suchzeit je Anfrage mit bereits eingebetteter Anfrage; das Einbetten steht "
            "getrennt unter query_embedding.",
            "bm25_baseline: BM25 im Speicher (k1 1,2, b 0,75, kleingeschriebene \\w+-Tokens), im selben Lauf.",
        ],
    )


SUITE = Suite(
    name="retrieval",
    description="XQuAD-de (BEIR): Recall@1/5/10, nDCG@10, MRR für sparse, dense, hybrid und BM25; Latenz p50/p95",
    run=run,
    requires=(f"{DATA}/corpus.jsonl", f"{DATA}/queries.jsonl"),
)
