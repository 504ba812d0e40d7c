"""Suite ``scorecard``: the labelled demo texts (``demo/brand/texts.yaml``) through the scorecard graph.

Status accuracy, rule-id precision and recall, and a confusion matrix of the statuses. Offline
(``extractive``) two modes run: ``no_llm`` — the deterministic criteria only, compared with each text's
``status_without_llm`` — and ``replayed_judges`` — the recorded verdicts of the LLM judges, so the status
logic runs on the labelled judgements. With an LLM configured, ``live``: the configured model judges.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import get_args

from evals.plots import confusion_matrix
from evals.scorecard_demo import DEMO_DIR, Judges, run_cases, summarise
from evals.suite import REPO_ROOT, Dataset, Metric, Plot, Suite, SuiteContext, SuiteResult, Table, dataset_version
from nodes.scorecard.judge import JUDGE_MAX_TOKENS, JUDGE_STRICTNESS_LEVEL
from nodes.scorecard.labelled_cases import load_labelled_cases
from nodes.scorecard.results import Status
from nodes.shared.llm import create_chat_model
from nodes.shared.strictness import get_strictness_config
from stores.vector.embedders import create_embedder

TEXTS = DEMO_DIR / "texts.yaml"
MODE_NAMES: dict[Judges, str] = {"none": "no_llm", "replay": "replayed_judges", "live": "live"}
STATUSES: tuple[Status, ...] = get_args(Status)


def run(ctx: SuiteContext) -> SuiteResult:
    cases = ctx.limited(load_labelled_cases(TEXTS))
    app = ctx.settings.app
    embedder = create_embedder(app)
    live = None
    modes: tuple[Judges, ...] = ("none", "replay")
    if ctx.settings.llm_configured:
        strictness = get_strictness_config(JUDGE_STRICTNESS_LEVEL)
        model = create_chat_model(ctx.settings.provider, strictness, app, max_tokens=JUDGE_MAX_TOKENS)
        live, modes = (model, f"{ctx.settings.provider}:{ctx.settings.model}"), ("live",)
    metrics: list[Metric] = []
    tables: list[Table] = []
    plots: list[Plot] = []
    for mode in modes:
        name = MODE_NAMES[mode]
        rows = run_cases(
            cases, mode, embedder, DEMO_DIR, live_judge=live, progress=partial(ctx.progress.track, description=name)
        )
        summary = summarise(rows, mode, app.embedder)
        found = sum(len(r["rule_ids"]) for r in rows)
        expected = sum(len(r["expected_rule_ids"]) for r in rows)
        metrics += [
            Metric(f"{name}.status_accuracy", summary["status_accuracy"], len(rows), "Status wie gelabelt", True),
            Metric(f"{name}.rule_id_precision", summary["rule_id_precision"], found, "gefundene Regel-IDs", True),
            Metric(f"{name}.rule_id_recall", summary["rule_id_recall"], expected, "gelabelte Regel-IDs", True),
            Metric(f"{name}.rule_ids_exact", summary["rule_ids_ok"], len(rows), "Regel-IDs genau wie gelabelt"),
        ]
        pairs = Counter((r["expected_status"], r["status"]) for r in rows)
        plots.append(
            Plot(
                f"confusion_{name}.png",
                f"Status: erwartet × ermittelt ({name}, {len(rows)} Texte)",
                confusion_matrix(
                    [s.replace("INSUFFICIENT_INFORMATION", "INSUFF.") for s in STATUSES],
                    [[pairs[(e, p)] for p in STATUSES] for e in STATUSES],
                    xlabel="ermittelt",
                    ylabel="erwartet",
                ),
            )
        )
        tables.append(
            Table(
                f"Texte ({name})",
                ("Fall", "erwartet", "Status", "Regel-IDs erwartet", "Regel-IDs gefunden", "ok"),
                [
                    (
                        r["id"],
                        r["expected_status"],
                        r["status"],
                        ", ".join(r["expected_rule_ids"]),
                        ", ".join(r["rule_ids"]),
                        "✓" if r["status_ok"] and r["rules_ok"] else "✗",
                    )
                    for r in rows
                ],
            )
        )
    return SuiteResult(
        dataset=Dataset("demo/brand/texts.yaml (DNA demo/brand)", dataset_version(DEMO_DIR), len(cases)),
        metrics=metrics,
        settings={"modes": [MODE_NAMES[m] for m in modes]},
        tables=tables,
        plots=plots,
        notes=[
            "no_llm: nur deterministische Kriterien, verglichen mit status_without_llm; Regel-IDs gelten dort als "
            "richtig, wenn keine über die gelabelten hinaus auftaucht (die LLM-Kriterien fehlen ja).",
            "no_llm: rule_id_recall zählt alle gelabelten Regel-IDs, auch die der LLM-Kriterien, die ohne LLM "
            "nicht entstehen können.",
            "replayed_judges: die im Datensatz aufgezeichneten Richtersprüche statt eines LLM — prüft Regeln, "
            "Status-Logik und Begründungen, nicht die Urteilsqualität eines Modells.",
        ],
    )


SUITE = Suite(
    name="scorecard",
    description="Gelabelte Demo-Texte durch den Scorecard-Graph: Status-Genauigkeit, Regel-ID-Präzision/-Recall",
    run=run,
    requires_repo=(str(TEXTS.relative_to(REPO_ROOT)),),
)
