"""``belegt ingest`` / ``belegt kb …`` through Typer's CliRunner, on the embedded stores in a temp folder."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from graphs.cli import kb
from tests.kb_support import DEMO_KB, SMALL_CONFLICT, SMALL_KB, write_jsonl

runner = CliRunner()
cli = typer.Typer()
cli.command("ingest")(kb.ingest)
cli.add_typer(kb.app, name="kb")


@pytest.fixture(autouse=True)
def _embedded_stores(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BELEGT_DATA_DIR", str(tmp_path / "var"))
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")


def test_ingest_prints_a_summary_and_is_idempotent(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "kb.jsonl", [*SMALL_KB, SMALL_CONFLICT])
    first = runner.invoke(cli, ["ingest", str(source), "--kb", "demo"])
    assert first.exit_code == 0, first.output
    assert "neu" in first.output and "unverändert" in first.output
    row = [line for line in first.output.splitlines() if "│" in line and any(c.isdigit() for c in line)][-1]
    assert [cell.strip() for cell in row.strip("│ ").split("│")] == [str(len(SMALL_KB)), "0", "0", "0", "1"]
    again = runner.invoke(cli, ["ingest", str(source), "--kb", "demo"])
    row = [line for line in again.output.splitlines() if "│" in line and any(c.isdigit() for c in line)][-1]
    assert [cell.strip() for cell in row.strip("│ ").split("│")] == ["0", "0", str(len(SMALL_KB)), "0", "1"]


def test_ingest_prune_removes_and_reports(tmp_path: Path) -> None:
    runner.invoke(cli, ["ingest", str(write_jsonl(tmp_path / "a.jsonl", SMALL_KB)), "--kb", "demo"])
    result = runner.invoke(
        cli, ["ingest", str(write_jsonl(tmp_path / "b.jsonl", SMALL_KB[:2])), "--kb", "demo", "--prune"]
    )
    assert result.exit_code == 0, result.output
    row = [line for line in result.output.splitlines() if "│" in line and any(c.isdigit() for c in line)][-1]
    assert [cell.strip() for cell in row.strip("│ ").split("│")] == ["0", "0", "2", str(len(SMALL_KB) - 2), "0"]


def test_bad_input_exits_with_a_german_error_naming_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "lb-url-01"}\n{kaputt\n', encoding="utf-8")
    result = runner.invoke(cli, ["ingest", str(bad), "--kb", "demo"])
    assert result.exit_code == 1
    output = result.output.replace("\n", "")  # rich wraps long lines
    assert "bad.jsonl:1: Pflichtfelder fehlen" in output and "bad.jsonl:2: kein gültiges JSON" in output
    assert "nichts geschrieben" in output


def test_invalid_kb_id_and_unknown_kb_are_errors(tmp_path: Path) -> None:
    result = runner.invoke(cli, ["ingest", str(write_jsonl(tmp_path / "a.jsonl", SMALL_KB)), "--kb", "Nicht OK"])
    assert result.exit_code == 1 and "Ungültige KB-ID" in result.output
    result = runner.invoke(cli, ["kb", "search", "fehlt", "Urlaub"])
    assert result.exit_code == 1 and "Wissensbasis 'fehlt' gibt es nicht" in result.output


def test_demo_kb_search_conflicts_and_reindex() -> None:
    assert runner.invoke(cli, ["ingest", str(DEMO_KB), "--kb", "demo"]).exit_code == 0
    found = runner.invoke(cli, ["kb", "search", "demo", "Altersteilzeit Aufstockung Prozent", "--limit", "3"])
    assert found.exit_code == 0 and "lb-atz-07" in found.output
    conflicts = runner.invoke(cli, ["kb", "conflicts", "demo"])
    assert "Beitragspflicht der Mitarbeiterprämie 2026" in conflicts.output and "[wk-akt-04]" in conflicts.output
    rebuilt = runner.invoke(cli, ["kb", "reindex", "demo"])
    assert rebuilt.exit_code == 0 and "51 Einträge neu indexiert" in rebuilt.output
