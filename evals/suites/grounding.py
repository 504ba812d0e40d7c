"""Suite ``grounding``: the project's German golden set on the demo KB through the full answer graph.

Citation precision and recall against the expected entries, validity of delivered citations (must be
1.0), the share of delivered answers with a number their cited entries lack, and behaviour accuracy per
category (answer, refuse, ⚠ conflict, clarifying question, premise correction, non-official notice).
``grounded_fact`` is the lenient view beside it: the expected facts cited, whatever the behaviour.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, get_args

from evals.answering import answer_services, compiled_answer_graph, eval_knowledge_base, ingest_step
from evals.datasets import GROUNDING_DEMO, Category, load_golden_set
from evals.evaluators import EvaluationResult, mean_scores
from evals.evaluators.answers import (
    behaviour_matches,
    citation_precision,
    citation_recall,
    citation_validity,
    grounded_fact,
    unsupported_number,
)
from evals.plots import grouped_bars
from evals.suite import REPO_ROOT, Dataset, Metric, Plot, Suite, SuiteContext, SuiteResult, Table, dataset_version
from nodes.answer.blocks import evidence_text
from nodes.answer.context import AnswerContext

DEMO_KB = REPO_ROOT / "demo" / "kb"
KB_ID = "demo"
DEFAULT_STRICTNESS = 3
EVALUATORS = (citation_precision, citation_recall, citation_validity, unsupported_number, grounded_fact)
HEADLINE = {
    "behaviour_accuracy",
    "citation_precision",
    "citation_recall",
    "citation_validity",
    "unsupported_number_rate",
}


def run(ctx: SuiteContext) -> SuiteResult:
    examples = ctx.limited(load_golden_set())
    level = ctx.settings.strictness or DEFAULT_STRICTNESS
    app = ctx.settings.app
    shared: list[EvaluationResult] = []
    by_category: dict[str, list[EvaluationResult]] = defaultdict(list)
    buckets: Counter[str] = Counter()
    rows = []
    with ingest_step(
        ctx.progress, "Demo-KB einlesen", lambda bar: eval_knowledge_base(app, [DEMO_KB], KB_ID, app.kb_id_pattern, bar)
    ) as kb:
        graph = compiled_answer_graph(answer_services(kb, ctx.settings))
        context = AnswerContext(kb_id=KB_ID, strictness=level)
        for example in ctx.progress.track(examples, "Goldfragen beantworten"):
            inputs = example.inputs.model_dump()
            reference = example.reference_outputs.model_dump()
            output: dict[str, Any] = graph.invoke(inputs, context=context)
            outputs = {**output, "context": {h.entry_id: evidence_text(h) for h in kb.search.last_hits}}
            found = [r for evaluate in EVALUATORS if (r := evaluate(inputs, outputs, reference)) is not None]
            behaviour = behaviour_matches(inputs, outputs, reference)
            shared += [r for r in found if r["key"] != "grounded_fact"]
            by_category[example.category] += [behaviour, *(r for r in found if r["key"] == "grounded_fact")]
            buckets[output["bucket"]] += 1
            rows.append(
                (
                    example.id,
                    reference["behaviour"],
                    output["bucket"],
                    ", ".join(output["citations"]),
                    "✓" if behaviour["score"] == 1.0 else "✗",
                    behaviour["comment"],
                )
            )
    scores = mean_scores(shared)
    described = {
        "citation_precision": ("citation_precision", "erwartete oder zulässige unter den Belegen"),
        "citation_recall": ("citation_recall", "geforderte Belege, die die Antwort trägt"),
        "citation_validity": ("citation_validity", "Belege der Antwort, die abgerufene Einträge sind"),
        "unsupported_number": ("unsupported_number_rate", "Antworten mit Zahl, die kein Beleg enthält"),
    }
    # a figure no example applies to (no delivered answer, say) is left out, not reported as 0
    metrics = [Metric(name, *scores[key], text) for key, (name, text) in described.items() if key in scores]
    behaviours = [r for results in by_category.values() for r in results if r["key"] == "behaviour"]
    metrics.append(Metric("behaviour_accuracy", *mean_scores(behaviours)["behaviour"], "alle Kategorien"))
    categories = [c for c in get_args(Category) if c in by_category]
    per_category = {c: mean_scores(by_category[c]) for c in categories}
    for category in categories:
        metrics += [Metric(f"{key}.{category}", *per_category[category][key]) for key in per_category[category]]
    metrics = [Metric(m.name, m.value, m.n, m.description, headline=m.name in HEADLINE) for m in metrics]
    return SuiteResult(
        dataset=Dataset(
            f"evals/datasets/{GROUNDING_DEMO.name}", dataset_version(GROUNDING_DEMO, DEMO_KB), len(examples)
        ),
        metrics=metrics,
        settings={"strictness_used": level, "kb": "demo/kb"},
        tables=[
            Table("Buckets", ("Bucket", "Antworten"), sorted(buckets.items())),
            Table("Je Frage", ("ID", "erwartet", "Bucket", "Belege", "Verhalten", "Kommentar"), rows),
        ],
        plots=[
            Plot(
                "behaviour_by_category.png",
                f"Verhalten je Kategorie (Stufe {level}, {ctx.settings.provider})",
                grouped_bars(
                    categories,
                    {
                        "Verhalten korrekt": [per_category[c]["behaviour"][0] for c in categories],
                        "belegte Fakten": [per_category[c].get("grounded_fact", (0.0, 0))[0] for c in categories],
                    },
                    ylabel="Anteil",
                ),
            )
        ],
        notes=[
            "Verhalten: answer = belegte Antwort mit den erwarteten Fakten; refuse = keine Antwort ausgeliefert; "
            "conflict = ⚠ und beide IDs; clarify = belegte Antwort und genau eine Rückfrage am Ende; "
            "correct_premise = belegte Antwort mit ausdrücklicher Berichtigung; flag_non_official = belegt und "
            "als nicht amtlich benannt.",
            "grounded_fact: ausgeliefert, ein erwarteter Beleg zitiert, alle erwarteten Fakten genannt — ohne "
            "Rücksicht auf das Verhalten.",
        ],
    )


SUITE = Suite(
    name="grounding",
    description="Goldfragen zur Demo-KB: Belegpräzision/-vollständigkeit, Gültigkeit, Zahlen, Verhalten je Kategorie",
    run=run,
    requires_repo=("demo/kb", "evals/datasets/grounding_demo.jsonl"),
)
