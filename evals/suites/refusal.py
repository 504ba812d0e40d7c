"""Suite ``refusal``: the XQuAD-de refusal split through the full answer graph at every strictness level.

The KB holds 200 passages; 987 questions are answerable from it, 203 come from held-out articles. Per
level: the refusal rate on unanswerable questions, the false-refusal rate on answerable ones, the share
of answerable questions whose delivered answer cites the gold passage and contains a gold answer span
(anywhere, and in its first statement: the fact first), and the statements per delivered answer.
"Refused" means the user got no answer: refused, withheld after validation, or sent to review.
``--limit N`` takes N/2 answerable and N/2 unanswerable questions, evenly spread over the split.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from evals.answering import answer_services, compiled_answer_graph, eval_knowledge_base, ingest_step
from evals.bench.data import article_fold, load_passages, read_jsonl, write_passage_kb
from evals.evaluators import EvaluationResult, mean_scores
from evals.evaluators.answers import (
    gold_span_cited,
    gold_span_first,
    low_score_notice,
    refused,
    statements_per_answer,
)
from evals.plots import share_plot
from evals.suite import (
    Dataset,
    Metric,
    Suite,
    SuiteContext,
    SuiteResult,
    Table,
    bucket_table,
    dataset_version,
    evenly_spread,
)
from nodes.answer.context import AnswerContext

DATA = "xquad_de/derived"
LEVELS = (1, 2, 3, 4, 5)
KB_ID = "xquad"
ID_PATTERN = r"^xqde-\d{2}-\d{2}$"
HEADLINE_LEVELS = (1, 3)


def run(ctx: SuiteContext) -> SuiteResult:
    folder = ctx.data(DATA)
    rows = read_jsonl(folder / "refusal_split_queries.jsonl")
    answerable = [r for r in rows if r["answerable_in_kb"]]
    unanswerable = [r for r in rows if not r["answerable_in_kb"]]
    if ctx.settings.limit is not None:  # each rate is measured within its group: half the sample each
        half = ctx.settings.limit // 2
        answerable = evenly_spread(answerable, ctx.settings.limit - half)
        unanswerable = evenly_spread(unanswerable, half)
    questions = answerable + unanswerable
    levels = (ctx.settings.strictness,) if ctx.settings.strictness else LEVELS
    articles = sorted({r["article"] for r in rows})
    passages = load_passages(folder / "refusal_split_kb_corpus.jsonl")
    results: dict[tuple[int, str], list[EvaluationResult]] = {}
    buckets: dict[int, Counter[str]] = {level: Counter() for level in levels}
    with tempfile.TemporaryDirectory(prefix="belegt-eval-") as tmp:
        source = write_passage_kb(passages, Path(tmp) / "kb.jsonl", stand="2019-10", work="XQuAD-de (Wikipedia)")
        with ingest_step(
            ctx.progress,
            "KB aus 200 Passagen einlesen",
            lambda bar: eval_knowledge_base(ctx.settings.app, [source], KB_ID, ID_PATTERN, bar),
        ) as kb:
            graph = compiled_answer_graph(answer_services(kb, ctx.settings))
            for level in levels:
                context = AnswerContext(kb_id=KB_ID, strictness=level)
                for row in ctx.progress.track(questions, f"Stufe {level}"):
                    output: dict[str, Any] = graph.invoke({"question": row["text"]}, context=context)
                    reference = {
                        "answerable": row["answerable_in_kb"],
                        "gold_passage": row["gold_passage"],
                        "answers": row["answers"],
                    }
                    group = "answerable" if row["answerable_in_kb"] else "unanswerable"
                    fold = "report_fold" if article_fold(row["article"], articles) == 1 else "fit_fold"
                    found = [
                        refused({}, output, reference),
                        gold_span_cited({}, output, reference),
                        gold_span_first({}, output, reference),
                        low_score_notice({}, output, reference),
                        statements_per_answer({}, output, reference) if row["answerable_in_kb"] else None,
                    ]
                    for key in (group, f"{group}.{fold}"):
                        results.setdefault((level, key), []).extend(r for r in found if r is not None)
                    buckets[level][output["bucket"]] += 1
    metrics: list[Metric] = []
    fold_rows = []
    series: dict[str, list[float]] = {"Ablehnung unbeantwortbar": [], "Fehlablehnung beantwortbar": []}
    series["Goldspanne mit Goldbeleg"] = []
    for level in levels:
        unanswered = mean_scores(results.get((level, "unanswerable"), []))
        answered = mean_scores(results.get((level, "answerable"), []))
        level_metrics = [
            Metric(
                f"level{level}.refusal_rate_unanswerable", *unanswered["refused"], "abgelehnt, obwohl unbeantwortbar"
            ),
            Metric(f"level{level}.false_refusal_rate", *answered["refused"], "abgelehnt, obwohl beantwortbar"),
            Metric(f"level{level}.gold_span_cited_rate", *answered["gold_span_cited"], "Goldspanne + Goldpassage"),
            Metric(
                f"level{level}.gold_span_first_rate",
                *answered["gold_span_first"],
                "Goldspanne im ersten Satz + Goldpassage",
            ),
        ]
        if "statements" in answered:  # delivered answers only
            level_metrics.append(
                Metric(
                    f"level{level}.statements_per_answer", *answered["statements"], "Aussagen je ausgelieferter Antwort"
                )
            )
        metrics += [
            Metric(m.name, m.value, m.n, m.description, headline=level in HEADLINE_LEVELS) for m in level_metrics
        ]
        if "low_score_notice" in unanswered:  # delivered answers only; absent when every one was refused
            metrics.append(
                Metric(
                    f"level{level}.low_score_notice_rate_unanswerable",
                    *unanswered["low_score_notice"],
                    "ausgeliefert mit Hinweis auf schwache Belege (disclaimer/soft_hint), obwohl unbeantwortbar",
                )
            )
        for value, name in zip((m.value for m in level_metrics[: len(series)]), series, strict=True):
            series[name].append(value)
        report_unanswered = mean_scores(results.get((level, "unanswerable.report_fold"), []))
        report_answered = mean_scores(results.get((level, "answerable.report_fold"), []))
        fold_rows.append(
            (
                level,
                *report_unanswered.get("refused", (0.0, 0)),
                *report_answered.get("refused", (0.0, 0)),
                report_answered.get("gold_span_cited", (0.0, 0))[0],
            )
        )
    return SuiteResult(
        dataset=Dataset(
            f"{DATA} refusal split ({len(passages)} KB-Passagen)",
            dataset_version(folder / "refusal_split_kb_corpus.jsonl", folder / "refusal_split_queries.jsonl"),
            len(questions),
        ),
        metrics=metrics,
        settings={"levels": list(levels), "answerable": len(answerable), "unanswerable": len(unanswerable)},
        tables=[
            bucket_table(buckets),
            Table(
                "Nur Report-Fold (Artikel, die die Kalibrierung nicht gesehen hat)",
                ("Stufe", "Ablehnung unbeantwortbar", "n", "Fehlablehnung", "n", "Goldspanne mit Goldbeleg"),
                fold_rows,
            ),
        ],
        plots=[
            share_plot(
                "rates_by_level.png",
                f"Ablehnungen je Strictness-Stufe ({ctx.settings.provider})",
                series,
                levels,
                xlabel="Strictness-Stufe",
                ylabel="Anteil",
            )
        ],
        notes=[
            "Abgelehnt zählt jede nicht ausgelieferte Antwort: refused (Score-Schwelle oder Validierung) und "
            "human_review (Konfidenz unter der Schwelle).",
            "Die Score-Kalibrierung wurde auf dem anderen Fold dieses Splits angepasst; die Tabelle "
            "„Nur Report-Fold“ zeigt die Raten auf den Artikeln, die sie nicht gesehen hat.",
        ],
    )


SUITE = Suite(
    name="refusal",
    description="XQuAD-de Ablehnungs-Split durch den Answer-Graph, Stufen 1–5: Ablehnung, Fehlablehnung, Goldspanne",
    run=run,
    requires=(
        f"{DATA}/refusal_split_kb_corpus.jsonl",
        f"{DATA}/refusal_split_queries.jsonl",
    ),
)
