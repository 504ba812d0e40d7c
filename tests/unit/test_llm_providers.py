"""The real ChatOllama / ChatMistralAI clients against a loopback fake: strictness mapping and typed errors."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langchain_core.messages import HumanMessage

from nodes.settings import ModelSettings
from nodes.shared.llm import (
    ProviderMalformedResponse,
    ProviderRateLimited,
    ProviderRequestRejected,
    ProviderServerError,
    ProviderTimeout,
    ProviderUnavailable,
    create_chat_model,
    finish_reason,
    is_transient,
    provider_errors,
)
from nodes.shared.strictness import STRICTNESS_LEVELS, get_strictness_config
from tests.fakes.llm_server import FakeLLMServer, Reply, running_fake_llm_server

CHAT_PATH = {"ollama": "/api/chat", "mistral": "/v1/chat/completions"}


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with running_fake_llm_server() as fake:
        yield fake


def _settings(server: FakeLLMServer, **overrides: object) -> ModelSettings:
    values: dict[str, object] = {
        "ollama_base_url": server.base_url,
        "mistral_api_key": "test-key",
        "mistral_base_url": server.base_url + "/v1",
        "ollama_num_ctx": 4096,
    }
    values.update(overrides)
    return ModelSettings.model_validate(values)


@pytest.mark.parametrize("level", sorted(STRICTNESS_LEVELS))
def test_ollama_request_carries_every_strictness_parameter(server: FakeLLMServer, level: int) -> None:
    config = get_strictness_config(level)
    model = create_chat_model("ollama", config, _settings(server))
    assert model is not None
    model.invoke([HumanMessage("Wie viele Urlaubstage?")])
    (body,) = server.bodies("/api/chat")
    expected = {
        "temperature": config.temperature,
        "top_p": config.top_p,
        "num_predict": config.max_tokens,
        "num_ctx": 4096,
        "frequency_penalty": config.frequency_penalty,
        "presence_penalty": config.presence_penalty,
    }
    if config.random_seed is not None:
        expected["seed"] = config.random_seed
    assert body["options"] == expected
    assert "safe_prompt" not in body and "safe_prompt" not in body["options"]  # no Ollama equivalent


@pytest.mark.parametrize("level", sorted(STRICTNESS_LEVELS))
def test_mistral_payload_carries_every_strictness_parameter(server: FakeLLMServer, level: int) -> None:
    config = get_strictness_config(level)
    model = create_chat_model("mistral", config, _settings(server))
    assert model is not None
    model.invoke([HumanMessage("Wie viele Urlaubstage?")])
    (body,) = server.bodies("/v1/chat/completions")
    assert body["temperature"] == config.temperature
    assert body["top_p"] == config.top_p
    assert body["max_tokens"] == config.max_tokens
    assert body["frequency_penalty"] == config.frequency_penalty
    assert body["presence_penalty"] == config.presence_penalty
    assert body["safe_prompt"] is config.safe_prompt
    assert body.get("random_seed") == config.random_seed


def test_max_tokens_override_doubles_the_budget(server: FakeLLMServer) -> None:
    config = get_strictness_config(1)
    model = create_chat_model("ollama", config, _settings(server), max_tokens=2 * config.max_tokens)
    assert model is not None
    model.invoke("x")
    assert server.bodies("/api/chat")[0]["options"]["num_predict"] == 600


def test_extractive_has_no_chat_model(server: FakeLLMServer) -> None:
    assert create_chat_model("extractive", get_strictness_config(3), _settings(server)) is None


@pytest.mark.parametrize("provider", ["ollama", "mistral"])
def test_length_stop_reason_is_visible(server: FakeLLMServer, provider: str) -> None:
    server.queue(CHAT_PATH[provider], Reply(content="abgeschnitten", done_reason="length"))
    model = create_chat_model(provider, get_strictness_config(3), _settings(server))  # type: ignore[arg-type]
    assert model is not None
    reply = model.invoke("x")
    assert finish_reason(reply.response_metadata) == "length"
    assert reply.usage_metadata is not None and reply.usage_metadata["input_tokens"] == 11


@pytest.mark.parametrize("provider", ["ollama", "mistral"])
@pytest.mark.parametrize(
    ("reply", "error"),
    [
        (Reply(status=429), ProviderRateLimited),
        (Reply(status=500), ProviderServerError),
        (Reply(status=503), ProviderServerError),
        (Reply(status=400), ProviderRequestRejected),
        (Reply(raw="{kein json"), ProviderMalformedResponse),
    ],
)
def test_http_failures_become_typed_errors(
    server: FakeLLMServer, provider: str, reply: Reply, error: type[Exception]
) -> None:
    server.queue(CHAT_PATH[provider], reply)
    model = create_chat_model(provider, get_strictness_config(3), _settings(server))  # type: ignore[arg-type]
    assert model is not None
    with pytest.raises(error), provider_errors(provider):
        model.invoke("x")


@pytest.mark.parametrize("provider", ["ollama", "mistral"])
def test_slow_server_is_a_timeout(server: FakeLLMServer, provider: str) -> None:
    server.queue(CHAT_PATH[provider], Reply(content="spät", delay_s=2.5))
    settings = _settings(server, request_timeout_s=1.0)
    model = create_chat_model(provider, get_strictness_config(3), settings)  # type: ignore[arg-type]
    assert model is not None
    with pytest.raises(ProviderTimeout), provider_errors(provider):
        model.invoke("x")


@pytest.mark.parametrize("provider", ["ollama", "mistral"])
def test_refused_connection_is_unavailable(provider: str) -> None:
    settings = ModelSettings(
        ollama_base_url="http://127.0.0.1:9",
        mistral_api_key="k",
        mistral_base_url="http://127.0.0.1:9/v1",
    )
    model = create_chat_model(provider, get_strictness_config(3), settings)  # type: ignore[arg-type]
    assert model is not None
    with pytest.raises(ProviderUnavailable) as caught, provider_errors(provider):
        model.invoke("x")
    assert is_transient(caught.value)


def test_only_passing_failures_are_retried() -> None:
    assert is_transient(ProviderRateLimited("x", "y"))
    assert is_transient(ProviderServerError("x", "y"))
    assert not is_transient(ProviderRequestRejected("x", "y"))
    assert not is_transient(ProviderMalformedResponse("x", "y"))
    assert not is_transient(ValueError("not a provider failure"))


def test_other_exceptions_pass_through_unchanged() -> None:
    with pytest.raises(KeyError), provider_errors("ollama"):
        raise KeyError("bug, not a provider failure")
