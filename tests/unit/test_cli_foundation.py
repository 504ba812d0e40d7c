"""The ``belegt`` CLI: help on every command, bots round trip, self-check and settings errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from evals.cli import app as belegt
from graphs.cli import app
from graphs.settings import Settings

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
    assert out_of_range.exit_code == 2 and "Strictness muss zwischen 1 und 5 liegen, nicht 6" in out_of_range.output
    created_out_of_range = runner.invoke(app, ["bots", "create", "x", "--kb", "demo", "--strictness", "0"])
    assert created_out_of_range.exit_code == 2 and "nicht 0" in created_out_of_range.output


def test_check_reports_each_building_block(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 0, result.output
    for block in ("LLM", "Embedder", "Qdrant", "Datenbank", "extractive", "var/edge", "sqlite:///var/belegt.db"):
        assert block in result.output


def test_check_fails_when_a_configured_service_is_down(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")
    monkeypatch.setenv("OLLAMA_BASE_URL", "http://127.0.0.1:9")
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 1
    assert "ProviderUnavailable" in result.output


def test_check_fails_when_the_database_is_unusable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")
    monkeypatch.setenv("BELEGT_DATABASE_URL", "postgresql://nobody@127.0.0.1:9/none")
    result = runner.invoke(app, ["check"], terminal_width=200)
    assert result.exit_code == 1
    assert "✘" in result.output


def test_check_strict_also_wants_an_llm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")
    result = runner.invoke(app, ["check", "--strict"])
    assert result.exit_code == 1 and "Kein LLM" in result.output


# One invalid value per validated setting; the fields that take any text are listed apart.
BAD_SETTINGS = {
    "llm_provider": ("BELEGT_LLM_PROVIDER", "openai"),
    "ollama_base_url": ("OLLAMA_BASE_URL", "localhost:11434"),
    "mistral_base_url": ("MISTRAL_BASE_URL", "api.mistral.ai"),
    "mistral_api_key": ("BELEGT_LLM_PROVIDER", "mistral"),  # mistral without a key
    "ollama_num_ctx": ("BELEGT_OLLAMA_NUM_CTX", "viel"),
    "request_timeout_s": ("BELEGT_REQUEST_TIMEOUT_S", "0"),
    "database_url": ("BELEGT_DATABASE_URL", "nonsense"),
    "qdrant_url": ("BELEGT_QDRANT_URL", "localhost:6333"),
    "qdrant_shard_number": ("BELEGT_QDRANT_SHARD_NUMBER", "0"),
    "qdrant_replication_factor": ("BELEGT_QDRANT_REPLICATION_FACTOR", "-1"),
    "qdrant_write_consistency_factor": ("BELEGT_QDRANT_WRITE_CONSISTENCY_FACTOR", "x"),
    "embedder": ("BELEGT_EMBEDDER", "foo"),
    "embedder_threads": ("BELEGT_EMBEDDER_THREADS", "65"),
    "embed_workers": ("BELEGT_EMBED_WORKERS", "0"),
    "vector_engine": ("BELEGT_VECTOR_ENGINE", "faiss"),
    "qdrant_prefix": ("BELEGT_QDRANT_PREFIX", "Belegt"),
    "kb_fusion": ("BELEGT_KB_FUSION", "max"),
    "kb_dense_weight": ("BELEGT_KB_DENSE_WEIGHT", "2"),
    "kb_candidates": ("BELEGT_KB_CANDIDATES", "0"),
    "kb_chunk_chars": ("BELEGT_KB_CHUNK_CHARS", "10"),
    "kb_chunks_per_hit": ("BELEGT_KB_CHUNKS_PER_HIT", "0"),
    "kb_cross_ref_extras": ("BELEGT_KB_CROSS_REF_EXTRAS", "-1"),
    "kb_id_pattern": ("BELEGT_KB_ID_PATTERN", "([a-z"),
    "server_port": ("BELEGT_SERVER_PORT", "0"),
    "server_jobs": ("BELEGT_SERVER_JOBS", "0"),
    "server_heartbeat_s": ("BELEGT_SERVER_HEARTBEAT_S", "0.5"),
    "server_max_body_bytes": ("BELEGT_SERVER_MAX_BODY_BYTES", "10"),
    "server_max_question_chars": ("BELEGT_SERVER_MAX_QUESTION_CHARS", "5"),
    "server_max_prompt_budget_tokens": ("BELEGT_SERVER_MAX_PROMPT_BUDGET_TOKENS", "100"),
    "server_max_candidates": ("BELEGT_SERVER_MAX_CANDIDATES", "0"),
    "server_min_confidence_threshold": ("BELEGT_SERVER_MIN_CONFIDENCE_THRESHOLD", "2"),
    "server_rate_limit_per_minute": ("BELEGT_SERVER_RATE_LIMIT_PER_MINUTE", "0"),
    "server_rate_limit_burst": ("BELEGT_SERVER_RATE_LIMIT_BURST", "viele"),
    "audit_key": ("BELEGT_AUDIT_KEY", "zu-kurz-und-geheim"),
}
ANY_TEXT = {
    "ollama_model",
    "mistral_model",
    "data_dir",
    "edge_path",
    "qdrant_path",
    "qdrant_api_key",
    "embedding_model",
    "audit_head_file",
}
ANY_TEXT |= {"server_host", "server_database_url", "redis_url", "server_cors_origins", "dev_api_key", "dev_bot"}
ENTRY_POINT = Path(sys.executable).with_name("belegt")  # the console script `pip install -e .` writes


def _belegt_paths() -> list[list[str]]:
    root = get_command(belegt)
    paths: list[list[str]] = [[]]
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        paths.append([name])
        paths.extend([name, sub] for sub in getattr(command, "commands", {}))
    return paths


def _run_entry_point(args: list[str], variable: str, value: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELEGT_")} | {variable: value}
    return subprocess.run(
        [str(ENTRY_POINT), *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_every_validated_setting_has_a_bad_value_below() -> None:
    """A new setting needs an entry in BAD_SETTINGS (or ANY_TEXT when it takes any text)."""
    assert set(BAD_SETTINGS) | ANY_TEXT == set(Settings.model_fields)


def _cases() -> list[tuple[str, list[str]]]:
    """Every bad variable and every command (with --help) at least once, paired round-robin."""
    paths = [[*path, "--help"] for path in _belegt_paths()] + [["check"], ["bots", "list"]]
    fields = list(BAD_SETTINGS)
    count = max(len(fields), len(paths))
    return [(fields[i % len(fields)], paths[i % len(paths)]) for i in range(count)]


@pytest.mark.parametrize(("field", "args"), _cases(), ids=lambda x: x if isinstance(x, str) else " ".join(x))
def test_a_bad_setting_stops_the_real_entry_point_with_one_line(field: str, args: list[str], tmp_path: Path) -> None:
    variable, value = BAD_SETTINGS[field]
    done = _run_entry_point(args, variable, value, tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("Fehler: Ungültige Einstellung")
    assert variable in line or variable.removeprefix("BELEGT_") in line
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "var").exists()


def test_the_entry_point_with_good_settings_runs_the_command(tmp_path: Path) -> None:
    done = _run_entry_point(["bots", "list"], "BELEGT_EMBEDDER", "none", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "ID" in done.stdout
