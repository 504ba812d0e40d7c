"""The ``belegt`` CLI: help on every command, bots round trip, self-check and settings errors."""

from __future__ import annotations

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from graphs.cli import app

runner = CliRunner()


def _all_command_paths() -> list[list[str]]:
    root = get_command(app)
    paths: list[list[str]] = [[]]
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        paths.append([name])
        for sub in getattr(command, "commands", {}):
            paths.append([name, sub])
    return paths


@pytest.mark.parametrize("path", _all_command_paths(), ids=lambda p: " ".join(p) or "belegt")
def test_every_command_has_help(path: list[str]) -> None:
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output


def test_bots_round_trip_on_embedded_sqlite() -> None:
    assert runner.invoke(app, ["bots", "create", "hr-bot", "--kb", "demo", "--strictness", "2"]).exit_code == 0
    assert runner.invoke(app, ["bots", "set-strictness", "hr-bot", "5"]).exit_code == 0
    listing = runner.invoke(app, ["bots", "list"])
    assert "hr-bot" in listing.output and "creative" in listing.output


def test_bots_errors_are_german_and_fail() -> None:
    runner.invoke(app, ["bots", "create", "hr-bot", "--kb", "demo"])
    duplicate = runner.invoke(app, ["bots", "create", "hr-bot", "--kb", "demo"])
    assert duplicate.exit_code == 1 and "gibt es schon" in duplicate.output
    missing = runner.invoke(app, ["bots", "set-strictness", "nobody", "2"])
    assert missing.exit_code == 1 and "gibt es nicht" in missing.output
    out_of_range = runner.invoke(app, ["bots", "set-strictness", "hr-bot", "6"])
    assert out_of_range.exit_code != 0


def test_check_reports_each_building_block(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")
    result = runner.invoke(app, ["check", "--strict"])
    assert result.exit_code == 0, result.output
    for block in ("LLM", "Embedder", "Qdrant", "Datenbank", "extractive", "var/qdrant", "sqlite:///var/belegt.db"):
        assert block in result.output


def test_check_strict_fails_when_a_service_is_down(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")
    monkeypatch.setenv("OLLAMA_BASE_URL", "http://127.0.0.1:9")
    result = runner.invoke(app, ["check", "--strict"])
    assert result.exit_code == 1
    assert "ProviderUnavailable" in result.output


def test_invalid_setting_stops_with_one_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "word2vec")
    result = runner.invoke(app, ["bots", "list"])
    assert result.exit_code == 2
    assert "BELEGT_EMBEDDER" in result.output
