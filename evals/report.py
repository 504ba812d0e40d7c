"""A suite's report on disk: ``report.json``, ``report.md`` and its PNG plots in one run folder."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, never a window; before anything draws

from matplotlib.figure import Figure

from evals.suite import Plot, Table


def run_folder(root: Path, suite: str, started: datetime) -> Path:
    """``<root>/<suite>/<UTC timestamp>``; a second run in the same second gets a suffix."""
    base = root / suite / started.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    folder, number = base, 1
    while folder.exists():
        number += 1
        folder = base.with_name(f"{base.name}-{number}")
    folder.mkdir(parents=True)
    return folder


def draw_plots(plots: Sequence[Plot], folder: Path) -> list[str]:
    names = []
    for plot in plots:
        figure = Figure(figsize=(7.5, 4.5), layout="constrained")
        axes = figure.subplots()
        plot.draw(axes)
        axes.set_title(plot.title)
        figure.savefig(folder / plot.filename, dpi=110)
        names.append(plot.filename)
    return names


def write_report(report: dict[str, Any], plots: Sequence[Plot], folder: Path) -> None:
    report["plots"] = draw_plots(plots, folder)
    (folder / "report.json").write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    (folder / "report.md").write_text(render_markdown(report), encoding="utf-8")


def table_json(table: Table) -> dict[str, Any]:
    return {"title": table.title, "columns": list(table.columns), "rows": [list(r) for r in table.rows]}


def render_markdown(report: dict[str, Any]) -> str:
    settings, dataset, git, baseline = report["settings"], report["dataset"], report["git"], report["baseline"]
    checks = {c["metric"]: c for c in baseline["checks"]}
    verdict = (
        "keine für diese Einstellungen"
        if baseline["profile"] is None
        else ("bestanden" if baseline["passed"] else "**verfehlt**")
    )
    lines = [
        f"# Eval `{report['suite']}` — {report['description']}",
        "",
        "| | |",
        "|---|---|",
        f"| Start | {report['started_at']} ({report['duration_s']} s) |",
        f"| Commit | `{git['sha'][:10]}`{' (mit lokalen Änderungen)' if git['dirty'] else ''} |",
        f"| Daten | {dataset['name']} · {dataset['version']} · {dataset['examples']} Beispiele |",
        f"| Anbieter / Modell | {settings['provider']} / {settings['model']} |",
        f"| Embedder | {settings['embedder']} |",
        f"| Strictness | {settings['strictness'] if settings['strictness'] is not None else 'Vorgabe der Suite'} |",
        f"| Limit | {settings['limit'] if settings['limit'] is not None else 'volle Größe'} |",
        f"| Baseline | {verdict} |",
        "",
        "## Kennzahlen",
        "",
        "| Kennzahl | Wert | n | Baseline | |",
        "|---|---:|---:|---|---|",
    ]
    for metric in report["metrics"]:
        check = checks.get(metric["name"])
        status = "" if check is None else ("✓" if check["passed"] else "✗")
        lines.append(
            f"| {metric['name']} | {_number(metric['value'])} | {metric['n']} | "
            f"{check['threshold'] if check else ''} | {status} |"
        )
    missing = [c for c in baseline["checks"] if c["value"] is None]
    lines += [f"| {c['metric']} | fehlt | 0 | {c['threshold']} | ✗ |" for c in missing]
    for table in report["tables"]:
        lines += ["", f"## {table['title']}", "", "| " + " | ".join(table["columns"]) + " |"]
        lines.append("|" + "---|" * len(table["columns"]))
        lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in table["rows"]]
    if report["plots"]:
        lines += ["", "## Abbildungen", ""] + [f"![{name}]({name})" for name in report["plots"]]
    if report["notes"]:
        lines += ["", "## Hinweise", ""] + [f"- {note}" for note in report["notes"]]
    return "\n".join(lines) + "\n"


def _number(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def _cell(value: Any) -> str:
    text = _number(value) if isinstance(value, float) else str(value)
    return text.replace("|", "\\|").replace("\n", " ")
