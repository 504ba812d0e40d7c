"""Suites ``law_typing`` and ``demo_typing``: the issue-11 questions typed in lower case and in capitals.

Chat users often type without German noun capitals („wie viele urlaubstage habe ich?") or shout; the answer
graph reads key words by their capitals, so each question of the set (``--split``, ``--limit`` as in
``law_answers``) runs as written, in lower case and in capitals, at level 3 (or ``--strictness N``):

- ``same_answer.lower`` / ``same_answer.upper``: the answer (text and bucket) equals the written question's;
- ``delivered_kept.lower`` / ``delivered_kept.upper``: of the questions whose written form is delivered, the share
  still delivered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from evals.datasets.questions import LAW_KB, load_questions
from evals.suite import Dataset, Metric, Suite, SuiteContext, SuiteResult, Table, dataset_version
from evals.suites.questions import DEFAULT_LEVEL, DEMO, LAW, QuestionSet, answer_graph_over
from nodes.answer.context import AnswerContext

TYPINGS: dict[str, Callable[[str], str]] = {"lower": str.lower, "upper": str.upper}


def run_typing(spec: QuestionSet, ctx: SuiteContext) -> SuiteResult:
    questions = ctx.limited(load_questions(spec.questions, ctx.settings.split))
    level = ctx.settings.strictness or DEFAULT_LEVEL
    same: dict[str, list[bool]] = {name: [] for name in TYPINGS}
    kept: dict[str, list[bool]] = {name: [] for name in TYPINGS}
    rows: list[tuple[Any, ...]] = []
    with answer_graph_over(spec, ctx) as (_, graph):
        context = AnswerContext(kb_id=spec.kb_id, strictness=level)
        for question in ctx.progress.track(questions, f"Stufe {level}, dreifach getippt"):
            written: dict[str, Any] = graph.invoke({"question": question.question}, context=context)
            for name, typed in TYPINGS.items():
                output: dict[str, Any] = graph.invoke({"question": typed(question.question)}, context=context)
                alike = (output["answer"], output["bucket"]) == (written["answer"], written["bucket"])
                same[name].append(alike)
                if written["bucket"] == "delivered":
                    kept[name].append(output["bucket"] == "delivered")
                if not alike:
                    rows.append((question.id, name, written["bucket"], output["bucket"], typed(question.question)))
    metrics = [
        Metric(f"same_answer.{name}", _share(found), len(found), "Antwort wie bei der geschriebenen Frage", True)
        for name, found in same.items()
    ] + [
        Metric(f"delivered_kept.{name}", _share(found), len(found), "ausgeliefert wie die geschriebene Frage")
        for name, found in kept.items()
    ]
    return SuiteResult(
        dataset=Dataset(
            f"evals/datasets/{spec.questions.name} ({ctx.settings.split}) auf {spec.kb_label}, klein und groß getippt",
            dataset_version(spec.questions, spec.source(ctx)),
            len(questions),
        ),
        metrics=metrics,
        settings={"split": ctx.settings.split, "levels": [level], "strictness_used": level, "kb": spec.kb_label},
        tables=[Table("Abweichende Antworten", ("ID", "getippt", "geschrieben", "getippt: Bucket", "Frage"), rows)],
    )


def _share(found: list[bool]) -> float:
    return round(sum(found) / len(found), 4) if found else 0.0


LAW_SUITE = Suite(
    name="law_typing",
    description="Fragen zur Gesetze-KB klein und groß getippt: dieselbe Antwort wie geschrieben?",
    run=lambda ctx: run_typing(LAW, ctx),
    requires=(LAW_KB,),
    requires_repo=("evals/datasets/questions_law.jsonl",),
)
DEMO_SUITE = Suite(
    name="demo_typing",
    description="Fragen zur Demo-KB klein und groß getippt: dieselbe Antwort wie geschrieben?",
    run=lambda ctx: run_typing(DEMO, ctx),
    requires_repo=("demo/kb", "evals/datasets/questions_demo.jsonl"),
)
