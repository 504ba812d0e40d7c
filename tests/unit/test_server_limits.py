"""Server-side limits: context clamping, the per-key rate limit, the launcher's environment, the CLI boundary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphs.server.launch import LaunchError, server_environment
from graphs.server.limits import RateLimiter, clamp_answer_context
from graphs.server.settings import ServerSettings
from graphs.settings import Settings

CONFIG = json.loads((Path(__file__).resolve().parents[2] / "langgraph.json").read_text(encoding="utf-8"))


def test_clamping_caps_what_raises_limits_and_sets_every_field() -> None:
    settings = ServerSettings()
    raised = clamp_answer_context(
        {
            "max_question_chars": 10**6,
            "prompt_budget_tokens": 10**6,
            "retrieval_limit": 50,
            "confidence_threshold": 0.1,
        },
        settings,
    )
    assert raised["max_question_chars"] == 2000 and raised["prompt_budget_tokens"] == 3000
    assert raised["retrieval_limit"] == 14 and raised["survey_retrieval_limit"] == 14
    assert raised["confidence_threshold"] == 0.70
    lowered = clamp_answer_context({"max_question_chars": 100, "confidence_threshold": 0.9}, settings)
    assert lowered["max_question_chars"] == 100 and lowered["confidence_threshold"] == 0.9
    assert clamp_answer_context({}, settings)["retrieval_limit"] == 8  # the graph's own default stays


def test_rate_limit_lets_a_burst_through_then_says_how_long_to_wait() -> None:
    now = [0.0]
    limiter = RateLimiter(per_minute=60, burst=3, clock=lambda: now[0])
    assert [limiter.retry_after("k") for _ in range(3)] == [None, None, None]
    assert limiter.retry_after("k") == 1
    assert limiter.retry_after("other") is None  # per key
    now[0] += 1.0
    assert limiter.retry_after("k") is None


def test_the_launcher_allows_only_studio_and_grants_no_private_network() -> None:
    env = server_environment(Settings(), CONFIG, "embedded")
    assert env["CORS_ALLOW_ORIGINS"] == "https://smith.langchain.com"
    assert env["ALLOW_PRIVATE_NETWORK"] == "false" and env["LANGGRAPH_RUNTIME_EDITION"] == "inmem"
    assert json.loads(env["LANGGRAPH_AUTH"]) == CONFIG["auth"] and CONFIG["auth"]["disable_studio_auth"] is True
    assert env["HTTP_MAX_REQUEST_BODY_BYTES"] == str(ServerSettings().server_max_body_bytes)
    assert json.loads(env["LANGGRAPH_HTTP"]) == CONFIG["http"]  # the review page


def test_production_needs_postgresql_and_refuses_the_development_key(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(LaunchError, match="PostgreSQL"):
        server_environment(Settings(), CONFIG, "production")
    monkeypatch.setenv("BELEGT_DATABASE_URL", "postgresql://u@h/db")
    env = server_environment(Settings(), CONFIG, "production")
    assert env["LANGGRAPH_RUNTIME_EDITION"] == "pg" and env["DATABASE_URI"] == "postgresql://u@h/db"
    assert json.loads(env["LANGGRAPH_HTTP"]) == CONFIG["http"]  # the review page on this runtime too
    monkeypatch.setenv("BELEGT_DEV_API_KEY", "belegt-dev")
    with pytest.raises(LaunchError, match="BELEGT_DEV_API_KEY"):
        server_environment(Settings(), CONFIG, "production")
    monkeypatch.setenv("BELEGT_SERVER_HOST", "0.0.0.0")
    with pytest.raises(LaunchError):
        server_environment(Settings(), CONFIG, "embedded")
