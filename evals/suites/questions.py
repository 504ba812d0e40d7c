"""Suites ``law_answers`` and ``demo_answers``: the issue-11 question sets through the full answer graph.

Questions asked the way users ask (``evals/datasets/questions_*.jsonl``) on the federal-law KB (read
from ``../shared/data``, ingested as it is with its field mapping and kept under ``var/eval-kb/``) and
on the demo KB. ``--split`` picks the half (default ``report``; tune on ``dev``), ``--limit`` spreads
over the kinds. Every question runs at strictness 1, 2 and 3 (``--strictness N``: N only); figures
without a level are measured at level 3 (or N):

- ``fact_in_answer.specific`` / ``gold_cited.specific``: the expected fact in the answer text / a gold
  entry among the citations; ``fact_first.specific``: of the answers that state the fact, the share that state
  it in their first statement;
- ``citation_precision``: share of the citations of delivered answers to answerable questions that
  point to a gold (or acceptable) entry;
- ``levelN.out_of_kb_refused`` / ``levelN.answerable_refused``: out-of-KB questions without an answer /
  answerable ones (specific, multi-part, false premise, missing context) wrongly without one;
- ``premise_corrected.false_premise``: the correct value with its gold citation and a correction cue;
- ``not_whole_sentences``: bullets and sentences of delivered answers that are no whole sentence;
- ``confidence_ece`` / ``confidence_roc_auc``: the answer confidence of every produced answer (delivered
  or held for review) against whether it is correct and supported (``supported_answer``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

from langgraph.graph.state import CompiledStateGraph

from evals.answering import (
    EvalKnowledgeBase,
    answer_services,
    cached_knowledge_base,
    compiled_answer_graph,
    ingest_step,
)
from evals.datasets.questions import (
    ANSWERABLE,
    DEMO_QUESTIONS,
    LAW_ID_PATTERN,
    LAW_KB,
    LAW_MAPPING,
    LAW_QUESTIONS,
    Kind,
    Question,
    load_questions,
)
from evals.evaluators import EvaluationResult, mean_scores, result
from evals.evaluators.answers import (
    asks_back_once,
    delivered,
    fact_first,
    facts_in_answer,
    gold_cited,
    not_whole_sentences,
    premise_corrected,
    supported_answer,
)
from evals.evaluators.calibration import expected_calibration_error, roc_auc
from evals.plots import grouped_bars
from evals.suite import (
    REPO_ROOT,
    Dataset,
    Metric,
    Plot,
    Suite,
    SuiteContext,
    SuiteResult,
    Table,
    bucket_table,
    dataset_version,
)
from evals.suite import stratified as stratified_sample
from nodes.answer.blocks import evidence_text
from nodes.answer.context import AnswerContext
from nodes.shared.citations import cited_ids
from stores.ingest.mapping import read_mapping_file

LEVELS = (1, 2, 3)
DEFAULT_LEVEL = 3
HEADLINE = {
    "fact_in_answer.specific",
    "gold_cited.specific",
    "citation_precision",
    "level1.out_of_kb_refused",
    "level2.out_of_kb_refused",
    "level3.out_of_kb_refused",
    "level1.answerable_refused",
    "level3.answerable_refused",
    "premise_corrected.false_premise",
    "not_whole_sentences",
    "confidence_ece",
}


@dataclass(frozen=True)
class QuestionSet:
    name: str
    questions: Path
    kb_id: str
    kb_label: str
    source: Callable[[SuiteContext], Path]
    id_pattern: Callable[[SuiteContext], str]
    mapping: Path | None = None


@contextmanager
def answer_graph_over(
    spec: QuestionSet, ctx: SuiteContext
) -> Iterator[tuple[EvalKnowledgeBase, CompiledStateGraph[Any, Any, Any, Any]]]:
    """The set's KB, ingested once (shown as a progress step of its own), and the answer graph over it."""
    mapping = read_mapping_file(spec.mapping) if spec.mapping is not None else None
    with ingest_step(
        ctx.progress,
        f"{spec.kb_label} einlesen",
        lambda bar: cached_knowledge_base(
            ctx.settings.app, spec.source(ctx), spec.kb_id, spec.id_pattern(ctx), bar, mapping=mapping
        ),
    ) as kb:
        yield kb, compiled_answer_graph(answer_services(kb, ctx.settings))


def reference(question: Question) -> dict[str, Any]:
    return question.model_dump() | {"cited_ok": sorted(question.cited_ok)}


def produced(outputs: Mapping[str, Any]) -> dict[str, Any] | None:
    """The answer the graph produced: the delivered one, or the one held for review (its draft); else None."""
    if delivered(outputs):
        return dict(outputs)
    if outputs["bucket"] == "human_review" and outputs.get("draft"):
        draft = str(outputs["draft"])
        citations = [i for i in cited_ids(draft) if i in outputs["context"]]
        return {**outputs, "answer": draft, "notices": [], "citations": citations, "bucket": "delivered"}
    return None


def citation_precision(outputs: Mapping[str, Any], ref: Mapping[str, Any]) -> EvaluationResult | None:
    cited = outputs["citations"]
    if not delivered(outputs) or not cited or ref["kind"] not in ANSWERABLE:
        return None
    wrong = [c for c in cited if c not in ref["cited_ok"]]
    return result("citation_precision", 1 - len(wrong) / len(cited), f"nicht Gold: {', '.join(wrong)}")


def run_question_set(spec: QuestionSet, ctx: SuiteContext) -> SuiteResult:
    split = ctx.settings.split
    every = load_questions(spec.questions, split)
    kinds = [k for k in get_args(Kind) if any(q.kind == k for q in every)]
    questions = [
        q
        for group in stratified_sample([[q for q in every if q.kind == k] for k in kinds], ctx.settings.limit)
        for q in group
    ]
    levels = (ctx.settings.strictness,) if ctx.settings.strictness else LEVELS
    main_level = ctx.settings.strictness or DEFAULT_LEVEL
    source = spec.source(ctx)
    refusals: dict[str, list[EvaluationResult]] = defaultdict(list)
    scores: dict[str, list[EvaluationResult]] = defaultdict(list)
    fragments = units = 0
    confidences: list[tuple[float, bool]] = []
    reviewed: dict[bool, list[bool]] = {True: [], False: []}
    buckets: dict[int, Counter[str]] = {level: Counter() for level in levels}
    rows = []
    with answer_graph_over(spec, ctx) as (kb, graph):
        for level in levels:
            context = AnswerContext(kb_id=spec.kb_id, strictness=level)
            for question in ctx.progress.track(questions, f"Stufe {level}"):
                output: dict[str, Any] = graph.invoke({"question": question.question}, context=context)
                hits = kb.search.last_hits
                outputs = {
                    **output,
                    "context": {h.entry_id: evidence_text(h) for h in hits},
                    "texts": {h.entry_id: h.text for h in hits},
                }
                ref = reference(question)
                buckets[level][output["bucket"]] += 1
                group = "answerable_refused" if question.kind in ANSWERABLE else "out_of_kb_refused"
                refusals[f"level{level}.{group}"].append(result(group, not delivered(outputs), output["bucket"]))
                if level != main_level:
                    continue
                first = fact_first({}, outputs, ref)
                found = [
                    facts_in_answer({}, outputs, ref),
                    first,
                    gold_cited({}, outputs, ref),
                    premise_corrected({}, outputs, ref),
                    asks_back_once({}, outputs, ref),
                ]
                for check in (c for c in found if c is not None):
                    scores[f"{check['key']}.{question.kind}"].append(check)
                precision = citation_precision(outputs, ref)
                if precision is not None:
                    scores["citation_precision"].append(precision)
                broken, counted = not_whole_sentences(outputs)
                fragments, units = fragments + broken, units + counted
                answer = produced(outputs)
                supported = answer is not None and supported_answer(answer, ref)
                if answer is not None:
                    confidences.append((float(output["confidence"]), supported))
                    reviewed[supported].append(output["bucket"] == "human_review")
                rows.append(
                    (
                        question.id,
                        question.kind,
                        output["bucket"],
                        ", ".join(output["citations"]),
                        "✓" if supported else "✗",
                        "–" if first is None else "✓" if first["score"] == 1.0 else "✗",
                        round(float(output["confidence"]), 3),
                    )
                )
    metrics = [
        Metric(name, *mean_scores(found)[name.split(".")[1]], _describe(name)) for name, found in refusals.items()
    ]
    metrics += [Metric(name, *mean_scores(found)[name.split(".")[0]]) for name, found in sorted(scores.items())]
    if units:
        metrics.append(
            Metric("not_whole_sentences", round(fragments / units, 4), units, "Anteil Aufzählungspunkte/Sätze")
        )
    if confidences:
        probabilities, labels = [p for p, _ in confidences], [y for _, y in confidences]
        metrics.append(
            Metric("confidence_ece", expected_calibration_error(probabilities, labels), len(confidences), "10 Klassen")
        )
        positives = [p for p, y in confidences if y]
        negatives = [p for p, y in confidences if not y]
        if positives and negatives:
            metrics.append(Metric("confidence_roc_auc", roc_auc(positives, negatives), len(confidences)))
        for label, name in ((False, "review_rate.unsupported"), (True, "review_rate.supported")):
            if reviewed[label]:
                share = round(sum(reviewed[label]) / len(reviewed[label]), 4)
                metrics.append(Metric(name, share, len(reviewed[label]), "zur Prüfung statt ausgeliefert"))
    metrics = [Metric(m.name, m.value, m.n, m.description, headline=m.name in HEADLINE) for m in metrics]
    per_kind = {
        kind: {
            key.split(".")[0]: mean_scores(v)[key.split(".")[0]][0] for key, v in scores.items() if key.endswith(kind)
        }
        for kind in kinds
    }
    return SuiteResult(
        dataset=Dataset(
            f"evals/datasets/{spec.questions.name} ({split}) auf {spec.kb_label}",
            dataset_version(spec.questions, source),
            len(questions),
        ),
        metrics=metrics,
        settings={"split": split, "levels": list(levels), "strictness_used": main_level, "kb": spec.kb_label},
        tables=[
            bucket_table(buckets),
            Table(
                f"Je Frage (Stufe {main_level})",
                ("ID", "Art", "Bucket", "Belege", "richtig+belegt", "Fakt zuerst", "Konfidenz"),
                rows,
            ),
        ],
        plots=[
            Plot(
                "by_kind.png",
                f"{spec.kb_label}: je Fragetyp (Stufe {main_level}, {split})",
                grouped_bars(
                    kinds,
                    {
                        "Fakt im Text": [per_kind[k].get("fact_in_answer", 0.0) for k in kinds],
                        "Goldbeleg": [per_kind[k].get("gold_cited", 0.0) for k in kinds],
                    },
                    ylabel="Anteil",
                ),
            )
        ],
        notes=[
            "Abgelehnt zählt jede nicht ausgelieferte Antwort (refused, withheld, human_review).",
            "Konfidenz: jede erzeugte Antwort (ausgeliefert oder zur Prüfung gehalten) gegen „richtig und belegt“: "
            "Goldbeleg und alle erwarteten Fakten (falsche Prämisse: berichtigt); außerhalb der KB nie richtig.",
        ],
    )


def _describe(name: str) -> str:
    return "abgelehnt, obwohl beantwortbar" if name.endswith("answerable_refused") else "abgelehnt (außerhalb der KB)"


LAW = QuestionSet(
    name="law_answers",
    questions=LAW_QUESTIONS,
    kb_id="gesetze",
    kb_label="Bundesgesetze (de_gesetze, 647 Einträge)",
    source=lambda ctx: ctx.data(LAW_KB),
    id_pattern=lambda ctx: LAW_ID_PATTERN,
    mapping=LAW_MAPPING,
)
DEMO = QuestionSet(
    name="demo_answers",
    questions=DEMO_QUESTIONS,
    kb_id="demo",
    kb_label="Demo-KB",
    source=lambda ctx: REPO_ROOT / "demo" / "kb",
    id_pattern=lambda ctx: ctx.settings.app.kb_id_pattern,
)
LAW_SUITE = Suite(
    name=LAW.name,
    description="Fragen wie von Nutzern zur Gesetze-KB: Fakt, Goldbeleg, Präzision, Ablehnung, Prämissen, Sätze",
    run=lambda ctx: run_question_set(LAW, ctx),
    requires=(LAW_KB,),
    requires_repo=("evals/datasets/questions_law.jsonl",),
)
DEMO_SUITE = Suite(
    name=DEMO.name,
    description="Fragen wie von Nutzern zur Demo-KB: Fakt, Goldbeleg, Präzision, Ablehnung, Prämissen, Sätze",
    run=lambda ctx: run_question_set(DEMO, ctx),
    requires_repo=("demo/kb", "evals/datasets/questions_demo.jsonl"),
)
