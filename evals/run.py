"""The offline eval runner: suite registry, data checks, progress with ETA, reports, baseline comparison.

    belegt eval SUITE|all [--data-dir DIR] [--provider P] [--strictness N] [--limit N] [--split dev|report]
                          [--out DIR] [--json]

Each suite run writes ``report.json``, ``report.md`` and its plots to ``<out>/<suite>/<UTC timestamp>/``.
The exit code is 1 when a metric misses its baseline (``evals/baselines.json``), 0 otherwise; a suite
whose data is missing is skipped with a message naming the missing paths.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar, cast, get_args

from pydantic import ValidationError
from rich.console import Console
from rich.progress import Progress

from evals.baselines import Profile, compare, load_baselines
from evals.bench.data import BenchmarkDataError
from evals.datasets import DatasetError
from evals.progress import RichTracker, progress_display
from evals.report import run_folder, table_json, write_report
from evals.suite import REPO_ROOT, RunSettings, Split, Suite, SuiteContext
from evals.suites import (
    critic,
    grounding,
    invariants,
    poisoning,
    questions,
    refusal,
    retrieval,
    scan,
    scorecard,
    typed,
)
from graphs.settings import load_settings
from nodes.settings import ProviderName
from nodes.shared.llm import probe_provider
from stores.ingest.documents import DocumentError
from stores.ingest.kb import KBInputError

T = TypeVar("T")
SUITES: dict[str, Suite] = {
    suite.name: suite
    for suite in (
        retrieval.SUITE,
        refusal.SUITE,
        grounding.SUITE,
        invariants.SUITE,
        poisoning.SUITE,
        critic.SUITE,
        scorecard.SUITE,
        scan.SUITE,
        questions.LAW_SUITE,
        questions.DEMO_SUITE,
        typed.LAW_SUITE,
        typed.DEMO_SUITE,
    )
}


def default_data_dir() -> Path:
    """``../shared/data`` beside the repository; BELEGT_EVAL_DATA_DIR points a checkout elsewhere (a worktree)."""
    return Path(os.environ.get("BELEGT_EVAL_DATA_DIR") or REPO_ROOT.parent / "shared" / "data")


BAD_DATA = (BenchmarkDataError, DatasetError, KBInputError, DocumentError, ValidationError, OSError, KeyError)
DEFAULT_OUT = REPO_ROOT / "evals" / "results"


class UnknownSuite(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(f"Unbekannte Suite „{name}“; möglich: {', '.join(SUITES)} oder all.")


@dataclass(frozen=True)
class SuiteOutcome:
    """``status``: ok, below_baseline, skipped (data missing) or error (data unreadable).

    ``report`` and ``folder`` exist for the first two only.
    """

    suite: str
    status: str
    folder: Path | None
    report: dict[str, Any] | None
    reason: str = ""


def select_suites(name: str) -> list[Suite]:
    if name == "all":
        return list(SUITES.values())
    if name not in SUITES:
        raise UnknownSuite(name)
    return [SUITES[name]]


def git_state() -> dict[str, Any]:
    """Commit of the checkout and whether tracked files differ from it ("unknown" outside git)."""
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return {"sha": "unknown", "dirty": False}
    return {"sha": sha, "dirty": bool(status.strip())}


def run_suite(
    suite: Suite, settings: RunSettings, baselines: Mapping[str, list[Profile]], progress: Progress, console: Console
) -> SuiteOutcome:
    missing = suite.missing(settings.data_dir)
    if missing:
        reason = "Daten fehlen: " + ", ".join(str(p) for p in missing)
        console.print(f"[yellow]Suite {suite.name} übersprungen — {reason}[/]")
        return SuiteOutcome(suite.name, "skipped", None, None, reason)
    console.print(f"[bold]Suite {suite.name}[/] — {suite.description}")
    started = datetime.now(UTC)
    clock = time.perf_counter()
    try:
        result = suite.run(SuiteContext(settings, RichTracker(progress)))
    except BAD_DATA as exc:  # the other suites still run; the run as a whole fails
        console.print(f"[red]Suite {suite.name} abgebrochen — {exc}[/]")
        return SuiteOutcome(suite.name, "error", None, None, str(exc))
    duration = round(time.perf_counter() - clock, 1)
    report: dict[str, Any] = {
        "suite": suite.name,
        "description": suite.description,
        "started_at": started.isoformat(timespec="seconds"),
        "duration_s": duration,
        "git": git_state(),
        "dataset": {
            "name": result.dataset.name,
            "version": result.dataset.version,
            "examples": result.dataset.examples,
        },
        "settings": {
            "provider": settings.provider,
            "model": settings.model,
            "embedder": settings.app.embedder,
            "strictness": settings.strictness,
            "limit": settings.limit,
            "data_dir": str(settings.data_dir),
            **result.settings,
        },
        "metrics": [
            {"name": m.name, "value": m.value, "n": m.n, "description": m.description, "headline": m.headline}
            for m in result.metrics
        ],
        "baseline": {},
        "tables": [table_json(t) for t in result.tables],
        "notes": result.notes,
    }
    verdict = compare(result.metrics, baselines.get(suite.name, []), report["settings"])
    report["baseline"] = verdict.as_json()
    folder = run_folder(settings.out, suite.name, started)
    write_report(report, result.plots, folder)
    status = "ok" if verdict.passed else "below_baseline"
    _print_summary(console, report, folder)
    return SuiteOutcome(suite.name, status, folder, report)


def run_suites(suites: Sequence[Suite], settings: RunSettings, console: Console) -> list[SuiteOutcome]:
    baselines = load_baselines()  # a broken baselines file stops the run before any suite starts
    with progress_display(console) as progress:
        return [run_suite(suite, settings, baselines, progress, console) for suite in suites]


def _print_summary(console: Console, report: dict[str, Any], folder: Path) -> None:
    baseline = report["baseline"]
    for check in baseline["checks"]:
        if not check["passed"]:
            value = "fehlt" if check["value"] is None else check["value"]
            console.print(f"[red]  ✗ {check['metric']} = {value} (Baseline {check['threshold']})[/]")
    headline = [m for m in report["metrics"] if m["headline"]]
    for metric in headline:
        console.print(f"  {metric['name']} = {metric['value']} (n={metric['n']})")
    if baseline["profile"] is None:
        console.print("  [dim]keine Baseline für diese Einstellungen[/]")
    console.print(f"  Bericht: {folder / 'report.md'}")


def exit_code(outcomes: Sequence[SuiteOutcome]) -> int:
    return 1 if any(o.status in ("below_baseline", "error") for o in outcomes) else 0


def outcomes_json(outcomes: Sequence[SuiteOutcome]) -> str:
    return json.dumps(
        [
            {"suite": o.suite, "status": o.status, "folder": str(o.folder) if o.folder else None, "reason": o.reason}
            | ({"report": o.report} if o.report else {})
            for o in outcomes
        ],
        ensure_ascii=False,
    )


def build_settings(
    *,
    provider: str,
    data_dir: Path | None,
    out: Path | None,
    strictness: int | None,
    limit: int | None,
    split: str = "report",
) -> RunSettings:
    """Run settings over the environment's settings; raises SettingsError, ValueError or ProviderError (unreachable)."""
    if provider not in get_args(ProviderName):
        raise ValueError(f"Unbekannter Anbieter „{provider}“; möglich: {', '.join(get_args(ProviderName))}.")
    if strictness is not None and not 1 <= strictness <= 5:
        raise ValueError(f"--strictness muss zwischen 1 und 5 liegen (war {strictness}).")
    if split not in get_args(Split):
        raise ValueError(f"--split muss dev oder report sein (war „{split}“).")
    if limit is not None and limit < 1:
        raise ValueError(f"--limit muss mindestens 1 sein (war {limit}).")
    app = load_settings()
    if provider != "extractive":  # an unreachable model would only show up as odd figures much later
        probe_provider(cast(ProviderName, provider), app)
    return RunSettings(
        app=app,
        provider=cast(ProviderName, provider),
        data_dir=data_dir if data_dir is not None else default_data_dir(),
        out=out if out is not None else DEFAULT_OUT,
        strictness=strictness,
        limit=limit,
        split=cast(Split, split),
    )
