"""``belegt ask`` on the demo KB in embedded stores (extractive provider, sparse retrieval)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphs.cli import app

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture(scope="module")
def demo_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo KB ingested once for the module, sparse-only (the embedder is not what is tested here)."""
    data_dir = tmp_path_factory.mktemp("demo-data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BELEGT_EMBEDDER", "none")
        patch.setenv("BELEGT_DATA_DIR", str(data_dir))
        result = runner.invoke(app, ["ingest", str(REPO / "demo" / "kb"), "--kb", "demo"])
    assert result.exit_code == 0, result.output
    return data_dir


@pytest.fixture
def demo_kb(monkeypatch: pytest.MonkeyPatch, demo_data_dir: Path, tmp_path: Path) -> None:
    """Each test works on its own copy, so bots created by one test do not leak into another."""
    copy = tmp_path / "data"
    shutil.copytree(demo_data_dir, copy)
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")
    monkeypatch.setenv("BELEGT_DATA_DIR", str(copy))


@pytest.mark.usefixtures("demo_kb")
def test_ask_prints_the_full_output_record_as_json() -> None:
    result = runner.invoke(app, ["ask", "Wie viele Urlaubstage habe ich in Vollzeit?", "--kb", "demo", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["model"] == "extractive" and record["bucket"] == "delivered"
    assert "lb-url-01" in record["citations"]
    assert record["strictness"]["key"] == "balanced"


@pytest.mark.usefixtures("demo_kb")
@pytest.mark.parametrize(("as_of", "cited"), [("2025-06-01", "lb-ess-01"), ("2026-06-01", "lb-ess-02")])
def test_ask_answers_from_the_entries_in_force_on_the_day_given(as_of: str, cited: str) -> None:
    """The old Essenszuschuss ran out at the end of 2025, the new one starts in 2026."""
    question = "Wie viel Zuschuss gibt es für jede Hauptmahlzeit in der Betriebskantine?"
    result = runner.invoke(app, ["ask", question, "--kb", "demo", "--as-of", as_of, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["citations"] == [cited]


@pytest.mark.usefixtures("demo_kb")
def test_ask_through_a_bot_uses_its_level() -> None:
    assert runner.invoke(app, ["bots", "create", "hr", "--kb", "demo", "--strictness", "1"]).exit_code == 0
    result = runner.invoke(app, ["ask", "Wie viele Urlaubstage habe ich in Vollzeit?", "--bot", "hr", "--json"])
    assert json.loads(result.stdout)["strictness"]["level"] == 1


def test_ask_needs_a_bot_or_kb() -> None:
    result = runner.invoke(app, ["ask", "Urlaub?"])
    assert result.exit_code == 2 and "--bot oder --kb" in result.output


@pytest.mark.usefixtures("demo_kb")
def test_unknown_kb_is_reported_not_raised() -> None:
    result = runner.invoke(app, ["ask", "Urlaub?", "--kb", "gibtsnicht", "--json"])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["bucket"] == "invalid_input"


@pytest.mark.usefixtures("demo_kb")
@pytest.mark.parametrize("question", ["   ", "Urlaub? " * 400])
def test_an_invalid_question_exits_2_with_the_message(question: str) -> None:
    result = runner.invoke(app, ["ask", question, "--kb", "demo"])
    assert result.exit_code == 2, result.output
    assert "Fehler:" in result.output
    as_json = runner.invoke(app, ["ask", question, "--kb", "demo", "--json"])
    assert as_json.exit_code == 2 and json.loads(as_json.stdout)["bucket"] == "invalid_input"


@pytest.mark.usefixtures("demo_kb")
def test_an_unknown_bot_exits_2() -> None:
    result = runner.invoke(app, ["ask", "Wie viele Urlaubstage habe ich?", "--bot", "niemand"])
    assert result.exit_code == 2, result.output


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--as-of", "2025-13-40"], "--as-of braucht einen Kalendertag als JJJJ-MM-TT"),
        (["--as-of", "gestern"], "(war „gestern“)"),
        (["--strictness", "9"], "--strictness muss zwischen 1 und 5 liegen (war 9)"),
    ],
)
def test_a_bad_option_value_exits_2_with_a_german_line(option: list[str], message: str) -> None:
    result = runner.invoke(app, ["ask", "Urlaub?", "--kb", "demo", *option])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
