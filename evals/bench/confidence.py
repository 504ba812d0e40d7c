"""Fit the answer confidence shipped in ``nodes/answer/confidence.json`` and report its calibration.

    belegt bench confidence [--data-dir ../shared/data] [--json] [--write]
    python -m evals.bench.confidence …

The answer graph (provider extractive, strictness 3, the configured embedder) answers the dev split of the
law and demo question sets and the fit fold of the XQuAD-de refusal split. For every answer it produces
(delivered, or held for review: its draft) the answerability gate's features and the critic's claim support
are taken from the graph's output, and the label says whether the answer is correct and supported (question
sets: ``supported_answer``; XQuAD: the gold passage cited and a gold answer span stated; a question from
outside the KB: never). A monotone
logistic model is fitted with every dataset weighing the same; per dataset the report gives ROC AUC and
ECE in the fit and with that dataset left out of it. The report splits are never used here: the suites
``law_answers`` and ``demo_answers`` measure the shipped model on them.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from evals.answering import answer_services, cached_knowledge_base, compiled_answer_graph
from evals.bench.calibrate import monotone_fit
from evals.bench.data import article_fold, load_passages, read_jsonl, write_passage_kb
from evals.datasets.questions import (
    DEMO_QUESTIONS,
    LAW_ID_PATTERN,
    LAW_KB,
    LAW_MAPPING,
    LAW_QUESTIONS,
    load_questions,
)
from evals.evaluators.answers import answer_body, mentions, supported_answer
from evals.evaluators.calibration import expected_calibration_error, roc_auc
from evals.run import default_data_dir
from evals.suite import REPO_ROOT, RunSettings
from evals.suites.questions import produced, reference
from graphs.settings import Settings, load_settings
from nodes.answer.confidence import FEATURES, ConfidenceModel, confidence_features
from nodes.answer.context import AnswerContext
from nodes.answer.critique import claim_support
from nodes.answer.state import AnswerFeatures
from stores.ingest.mapping import read_mapping_file

CONFIDENCE_FILE = REPO_ROOT / "nodes" / "answer" / "confidence.json"


@dataclass(frozen=True)
class Row:
    features: dict[str, float]
    label: bool
    support: float = 1.0
    """The critic's claim score offline (deterministic 1.0, unconfirmed 0.5): the confidence is p × support."""
    measured: dict[str, float] = field(default_factory=dict)
    """Every number the gate measured (the model's features and the others), for the univariate report."""


class _Quiet:
    def start(self, total: int) -> None: ...

    def advance(self, done: int) -> None: ...


def _answers(
    settings: Settings,
    source: Path,
    kb_id: str,
    id_pattern: str,
    items: Sequence[tuple[str, dict[str, Any]]],
    **kb: Any,
) -> Iterator[tuple[dict[str, Any], dict[str, Any], Row]]:
    """(reference, produced answer, unlabelled row) for every question the graph answers (refusals left out)."""
    run = RunSettings(app=settings, provider="extractive", data_dir=Path("."), out=Path("."))
    with cached_knowledge_base(settings, source, kb_id, id_pattern, _Quiet(), **kb) as store:
        graph = compiled_answer_graph(answer_services(store, run))
        context = AnswerContext(kb_id=kb_id, strictness=3)
        for question, ref in items:
            output = graph.invoke({"question": question}, context=context)
            answer = produced({**output, "context": {h.entry_id: h.text for h in store.search.last_hits}})
            if answer is not None:
                # the features and claim verdicts the graph itself computed: the fit sees what the graph sees
                features = confidence_features(output["answer_features"])
                yield (
                    ref | {"question": question},
                    answer,
                    Row(features, False, claim_support(output.get("claims", [])), measured(output["answer_features"])),
                )


def measured(features: AnswerFeatures) -> dict[str, float]:
    """The gate's numeric and yes/no measurements (a missing cosine left out)."""
    return {name: float(value) for name, value in features.model_dump().items() if isinstance(value, int | float)}


def question_rows(name: str, data_dir: Path, settings: Settings) -> list[Row]:
    law = name == "law_dev"
    questions = load_questions(LAW_QUESTIONS if law else DEMO_QUESTIONS, "dev")
    items = [(q.question, reference(q)) for q in questions]
    source = data_dir / LAW_KB if law else REPO_ROOT / "demo" / "kb"
    kb_id, pattern = ("gesetze", LAW_ID_PATTERN) if law else ("demo", settings.kb_id_pattern)
    mapping = {"mapping": read_mapping_file(LAW_MAPPING)} if law else {}
    return [
        replace(row, label=supported_answer(answer, ref))
        for ref, answer, row in _answers(settings, source, kb_id, pattern, items, **mapping)
    ]


def xquad_rows(data_dir: Path, settings: Settings, limit: int | None) -> list[Row]:
    folder = data_dir / "xquad_de" / "derived"
    rows = read_jsonl(folder / "refusal_split_queries.jsonl")
    articles = sorted({r["article"] for r in rows})
    fit_fold = [r for r in rows if article_fold(r["article"], articles) == 0]
    if limit is not None:
        fit_fold = fit_fold[:: max(1, len(fit_fold) // limit)][:limit]
    items = [(r["text"], r) for r in fit_fold]
    source = settings.data_dir / "eval-sources" / "xquad_refusal_kb.jsonl"
    source.parent.mkdir(parents=True, exist_ok=True)
    passages = load_passages(folder / "refusal_split_kb_corpus.jsonl")
    write_passage_kb(passages, source, stand="2019-10", work="XQuAD-de (Wikipedia)")
    found = []
    for ref, answer, row in _answers(settings, source, "xquad", r"^xqde-\d{2}-\d{2}$", items):
        right = (
            ref["answerable_in_kb"]
            and ref["gold_passage"] in answer["citations"]
            and any(mentions(answer_body(answer), span) for span in ref["answers"])
        )
        found.append(replace(row, label=bool(right)))
    return found


def fit(sets: dict[str, list[Row]]) -> dict[str, float]:
    """Every dataset weighs the same; a feature that never varies (a cosine without a dense embedder) is left out."""
    rows = [r for rs in sets.values() for r in rs]
    columns = {n: np.array([r.features[n] for r in rows]) for n in FEATURES}
    columns = {n: column for n, column in columns.items() if np.ptp(column) > 0}
    labels = np.array([r.label for r in rows], dtype=float)
    weights = np.concatenate([np.full(len(rs), len(rows) / (len(sets) * len(rs))) for rs in sets.values()])
    return monotone_fit(columns, labels, weights=weights)


def figures(model: dict[str, float], rows: Sequence[Row]) -> dict[str, float]:
    predicted = [ConfidenceModel.model_validate(model).probability(r.features) * r.support for r in rows]
    labels = [r.label for r in rows]
    positives = [p for p, y in zip(predicted, labels, strict=True) if y]
    negatives = [p for p, y in zip(predicted, labels, strict=True) if not y]
    return {
        "answers": len(rows),
        "correct": len(positives),
        "roc_auc": roc_auc(positives, negatives),
        "ece": expected_calibration_error(predicted, labels),
        "ece_5_bins": expected_calibration_error(predicted, labels, bins=5),
        "ece_if_calibrated": chance_ece(predicted),
        "below_0.70_incorrect": round(sum(p < 0.70 for p in negatives) / len(negatives), 4) if negatives else 0.0,
        "below_0.70_correct": round(sum(p < 0.70 for p in positives) / len(positives), 4) if positives else 0.0,
    }


def univariate(rows: Sequence[Row]) -> dict[str, float]:
    """ROC AUC of each measurement alone for right against wrong answers (0.5: no separation)."""
    names = sorted({n for r in rows for n in r.measured})
    found = {}
    for name in names:
        scored = [(r.measured[name], r.label) for r in rows if name in r.measured]
        found[name] = round(roc_auc([v for v, y in scored if y], [v for v, y in scored if not y]), 3)
    return found


def chance_ece(predicted: Sequence[float], *, draws: int = 500) -> float:
    """The median ECE (10 bins) of a perfectly calibrated model with these probabilities on this many answers:
    labels drawn from the probabilities themselves. On ~40 answers it is far from 0, so an ECE near it is as
    good as the sample can show."""
    if not predicted:
        return float("nan")
    rng = np.random.default_rng(0)
    found = [
        expected_calibration_error(predicted, list(rng.uniform(size=len(predicted)) < np.array(predicted)))
        for _ in range(draws)
    ]
    return round(float(np.median(found)), 4)


def confidence_report(sets: dict[str, list[Row]]) -> dict[str, Any]:
    model = fit(sets)
    datasets = {}
    for name, rows in sets.items():
        others = {n: rs for n, rs in sets.items() if n != name and rs}
        datasets[name] = {
            "fit": figures(model, rows),
            "left_out": figures(fit(others), rows) if others else None,
            "univariate_roc_auc": univariate(rows),
        }
    return {"model": model, "datasets": datasets}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, default=None, help="eval data (default ../shared/data)")
    parser.add_argument("--xquad-limit", type=int, default=300, help="XQuAD-de fit-fold questions (default 300)")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    parser.add_argument("--write", action="store_true", help=f"write {CONFIDENCE_FILE.name}")
    args = parser.parse_args(argv)
    data_dir, settings = args.data_dir or default_data_dir(), load_settings()
    sets = {
        "law_dev": question_rows("law_dev", data_dir, settings),
        "demo_dev": question_rows("demo_dev", data_dir, settings),
        "xquad_de_fit": xquad_rows(data_dir, settings, args.xquad_limit),
    }
    report = confidence_report(sets) | {"embedder": settings.embedder}
    if args.write:
        description = (
            f"Answer confidence (nodes/answer/confidence.py): monotone logistic model of {', '.join(FEATURES)} "
            "(features dropped where their weight came out negative or that never vary; times the critic's claim "
            "support), one per "
            f"embedder, fitted by evals/bench/confidence.py on {', '.join(sets)} (dev splits)."
        )
        models = json.loads(CONFIDENCE_FILE.read_text(encoding="utf-8"))["models"] | {
            settings.embedder: report["model"]
        }
        text = json.dumps({"description": description, "models": models}, ensure_ascii=False, indent=2)
        CONFIDENCE_FILE.write_text(text + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return
    print(f"Modell: {report['model']}")
    for name, row in report["datasets"].items():
        print(f"  {name}: Anpassung {row['fit']}; ausgelassen {row['left_out']}")


if __name__ == "__main__":
    main()
