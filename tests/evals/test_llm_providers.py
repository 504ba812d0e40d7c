"""Suites with an LLM configured: the real Mistral client against the loopback fake (no network).

The fake answers what the test queues; everything else ("OK") is an answer no validator accepts. These
tests check the wiring — which model is asked, with which level's settings, and how its answers count —
not a model's quality.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from evals import cli as eval_cli
from evals.run import default_data_dir
from nodes.shared.strictness import get_strictness_config
from tests.fakes.llm_server import FakeLLMServer, Reply, running_fake_llm_server

CHAT = "/v1/chat/completions"


@pytest.fixture
def mistral(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLMServer]:
    with running_fake_llm_server() as fake:
        monkeypatch.setenv("BELEGT_EMBEDDER", "none")
        monkeypatch.setenv("MISTRAL_API_KEY", "test-key")
        monkeypatch.setenv("MISTRAL_BASE_URL", fake.base_url + "/v1")
        yield fake


def run_suite(suite: str, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(eval_cli.eval_app, [suite, "--provider", "mistral", *args, "--out", "out", "--json"])
    outcome: dict[str, Any] = json.loads(result.stdout.splitlines()[-1])[0]
    if outcome["status"] == "skipped":
        pytest.skip(outcome["reason"])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = outcome["report"]
    return report


def metric(report: dict[str, Any], name: str) -> tuple[float, int]:
    found = next(m for m in report["metrics"] if m["name"] == name)
    return found["value"], found["n"]


def test_critic_suite_asks_the_llm_critic_for_every_claim(mistral: FakeLLMServer) -> None:
    supported = {"verdict": "supported", "confidence": 0.9, "reason": "steht im Beleg"}
    mistral.queue(CHAT, *[Reply(tool_calls=[{"name": "ClaimCheck", "arguments": supported}])] * 16)
    report = run_suite("critic", "--limit", "4")
    assert report["settings"]["methods"] == ["deterministic", "llm"]
    assert report["settings"]["model"] == "mistral-small-latest"
    # an LLM that calls everything supported catches nothing: recall 0, balanced accuracy 0.5
    assert metric(report, "xnli_de.llm.recall_unsupported") == (0.0, 4)
    assert metric(report, "halueval_one_turn.llm.balanced_accuracy") == (0.5, 4)
    bodies = mistral.bodies(CHAT)
    assert len(bodies) == 16  # 4 examples x 4 datasets; the first supporting chunk ends a WiCE claim
    assert bodies[0]["temperature"] == get_strictness_config(3).temperature


def test_grounding_suite_runs_the_answer_graph_on_the_configured_model(mistral: FakeLLMServer) -> None:
    report = run_suite("grounding", "--limit", "2", "--strictness", "2")
    bodies = mistral.bodies(CHAT)
    assert bodies and all(b["temperature"] == get_strictness_config(2).temperature for b in bodies)
    # "OK" cites nothing: regenerated once, then withheld; nothing uncited is delivered
    assert report["tables"][0]["rows"] == [["refused", 2]]
    assert len(bodies) >= 4 and metric(report, "behaviour_accuracy")[1] == 2
    assert "citation_validity" not in {m["name"] for m in report["metrics"]}  # no delivered answer to judge


def test_scan_suite_uses_the_configured_reviewer_instead_of_the_oracle(mistral: FakeLLMServer) -> None:
    report = run_suite("scan")
    assert report["settings"]["reviewer"] == "mistral:mistral-small-latest"
    names = {m["name"] for m in report["metrics"]}
    assert "finding_recall" in names and not any(n.startswith("oracle.") for n in names)
    # "OK" is no record_finding call: every chunk breaks the schema twice and stays not assessed
    not_assessed, chunks = metric(report, "chunks_not_assessed")
    assert not_assessed == chunks > 0 and metric(report, "finding_recall") == (0.0, 15)


def test_the_default_data_dir_sits_beside_the_repository(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("BELEGT_EVAL_DATA_DIR", raising=False)
    assert default_data_dir() == Path(__file__).resolve().parents[3] / "shared" / "data"
    monkeypatch.setenv("BELEGT_EVAL_DATA_DIR", str(tmp_path))
    assert default_data_dir() == tmp_path
