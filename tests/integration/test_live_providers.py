"""Live provider checks: run only where OLLAMA_BASE_URL / MISTRAL_API_KEY point at a real service."""

from __future__ import annotations

import os

import pytest

from nodes.settings import ModelSettings
from nodes.shared.llm import create_chat_model
from nodes.shared.strictness import get_strictness_config

LIVE_OLLAMA = os.environ.get("OLLAMA_BASE_URL")
LIVE_MISTRAL = os.environ.get("MISTRAL_API_KEY")


@pytest.fixture
def live_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo the suite's env isolation for the variables a live test needs."""
    if LIVE_OLLAMA:
        monkeypatch.setenv("OLLAMA_BASE_URL", LIVE_OLLAMA)
    if LIVE_MISTRAL:
        monkeypatch.setenv("MISTRAL_API_KEY", LIVE_MISTRAL)


@pytest.mark.live
@pytest.mark.skipif(not LIVE_OLLAMA, reason="OLLAMA_BASE_URL not set")
@pytest.mark.usefixtures("live_env")
def test_ollama_answers_at_kb_only_level() -> None:
    model = create_chat_model("ollama", get_strictness_config(1), ModelSettings())
    assert model is not None
    reply = model.invoke("Antworte nur mit dem Wort: bereit")
    assert str(reply.content).strip()
    assert reply.response_metadata.get("done_reason") in {"stop", "length"}


@pytest.mark.live
@pytest.mark.skipif(not LIVE_MISTRAL, reason="MISTRAL_API_KEY not set")
@pytest.mark.usefixtures("live_env")
def test_mistral_answers_at_kb_only_level() -> None:
    model = create_chat_model("mistral", get_strictness_config(1), ModelSettings())
    assert model is not None
    reply = model.invoke("Antworte nur mit dem Wort: bereit")
    assert str(reply.content).strip()
    assert reply.response_metadata.get("finish_reason") in {"stop", "length"}
