"""The one seam between graphs and LLM providers: chat-model factory and typed provider errors.

Strictness parameters use Mistral's names (see nodes.shared.strictness); this module maps them:

| strictness        | ChatMistralAI                | ChatOllama (Ollama /api/chat ``options``)        |
|-------------------|------------------------------|--------------------------------------------------|
| temperature       | temperature (clamped ≤ 1.0)  | temperature                                      |
| top_p             | top_p                        | top_p                                            |
| max_tokens        | max_tokens                   | num_predict                                      |
| random_seed       | random_seed                  | seed                                             |
| frequency_penalty | model_kwargs                 | options.frequency_penalty (no langchain field)   |
| presence_penalty  | model_kwargs                 | options.presence_penalty (no langchain field)    |
| safe_prompt       | safe_mode (sent safe_prompt) | no equivalent in Ollama: not sent                |
| (context window)  | —                            | num_ctx, always explicit                         |
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

import httpx

from nodes.settings import ModelSettings, ProviderName
from nodes.shared.strictness import StrictnessConfig

if TYPE_CHECKING:  # the chat-model classes load only when a model is created
    from langchain_core.language_models import BaseChatModel

MISTRAL_MAX_TEMPERATURE = 1.0  # ChatMistralAI's validator rejects more, although the API accepts 1.5


class ProviderError(Exception):
    """Base of all provider failures; graphs route on the subclasses."""

    def __init__(self, provider: str, message: str) -> None:
        super().__init__(f"{provider}: {message}")
        self.provider = provider


class ProviderUnavailable(ProviderError):
    """The server could not be reached (connection refused, DNS, TLS)."""


class ProviderTimeout(ProviderError):
    """The server did not answer in time."""


class ProviderRateLimited(ProviderError):
    """HTTP 429."""


class ProviderServerError(ProviderError):
    """HTTP 5xx."""


class ProviderRequestRejected(ProviderError):
    """HTTP 4xx other than 429: bad request, unknown model, missing key."""


class ProviderMalformedResponse(ProviderError):
    """The server answered, but not with the JSON the client expects."""


TRANSIENT_PROVIDER_ERRORS: tuple[type[ProviderError], ...] = (
    ProviderUnavailable,
    ProviderTimeout,
    ProviderRateLimited,
    ProviderServerError,
)


def is_transient(exc: BaseException) -> bool:
    """``retry_on`` for RetryPolicy on LLM nodes: retry what may pass, never a rejected request."""
    return isinstance(exc, TRANSIENT_PROVIDER_ERRORS)


def classify_provider_error(provider: str, exc: BaseException) -> ProviderError | None:
    """Map a client exception to a typed ProviderError, or None when it is not a provider failure."""
    if isinstance(exc, ProviderError):
        return exc
    if isinstance(exc, httpx.TimeoutException):
        return ProviderTimeout(provider, "Zeitüberschreitung bei der Anfrage")
    if isinstance(exc, ConnectionError | httpx.ConnectError | httpx.RemoteProtocolError):
        return ProviderUnavailable(provider, f"nicht erreichbar ({exc})")
    status = _status_code(exc)
    if status is not None:
        if status == 429:
            return ProviderRateLimited(provider, "zu viele Anfragen (HTTP 429)")
        if status >= 500:
            return ProviderServerError(provider, f"Serverfehler (HTTP {status})")
        return ProviderRequestRejected(provider, f"Anfrage abgelehnt (HTTP {status}): {exc}")
    if isinstance(exc, json.JSONDecodeError | httpx.DecodingError):
        return ProviderMalformedResponse(provider, f"unlesbare Antwort ({exc})")
    return None


def _status_code(exc: BaseException) -> int | None:
    if isinstance(exc, httpx.HTTPStatusError):
        return exc.response.status_code
    import ollama  # on use: only a failing call needs the client's exception type

    if isinstance(exc, ollama.ResponseError):
        return exc.status_code
    return None


@contextmanager
def provider_errors(provider: str) -> Iterator[None]:
    """Re-raise client exceptions as typed ProviderErrors; anything else passes through unchanged."""
    try:
        yield
    except Exception as exc:
        typed = classify_provider_error(provider, exc)
        if typed is None or typed is exc:
            raise
        raise typed from exc


def create_chat_model(
    provider: ProviderName,
    strictness: StrictnessConfig,
    settings: ModelSettings,
    *,
    model: str | None = None,
    max_tokens: int | None = None,
) -> BaseChatModel | None:
    """A chat model configured for the strictness level, or None for the ``extractive`` provider."""
    model_name = model or settings.model_for(provider)
    budget = max_tokens or strictness.max_tokens
    if provider == "extractive":
        return None
    if provider == "ollama":
        from nodes.shared.ollama_penalties import ChatOllamaWithPenalties  # on use: the client costs a second

        return ChatOllamaWithPenalties(
            model=model_name,
            base_url=settings.resolved_ollama_base_url,
            temperature=strictness.temperature,
            top_p=strictness.top_p,
            num_predict=budget,
            seed=strictness.random_seed,
            num_ctx=settings.ollama_num_ctx,
            frequency_penalty=strictness.frequency_penalty,
            presence_penalty=strictness.presence_penalty,
            client_kwargs={"timeout": settings.request_timeout_s},
        )
    if settings.mistral_api_key is None:
        raise ProviderRequestRejected("mistral", "MISTRAL_API_KEY ist nicht gesetzt")
    from langchain_mistralai import ChatMistralAI

    extra: dict[str, Any] = {}
    if settings.mistral_base_url:
        extra["endpoint"] = settings.mistral_base_url
    return ChatMistralAI(
        model_name=model_name,
        api_key=settings.mistral_api_key,
        temperature=min(strictness.temperature, MISTRAL_MAX_TEMPERATURE),
        top_p=strictness.top_p,
        max_tokens=budget,
        random_seed=strictness.random_seed,
        safe_mode=strictness.safe_prompt,
        model_kwargs={
            "frequency_penalty": strictness.frequency_penalty,
            "presence_penalty": strictness.presence_penalty,
        },
        max_retries=1,  # one attempt: retries are declared on graph nodes (RetryPolicy)
        timeout=max(1, round(settings.request_timeout_s)),
        **extra,
    )


class ChatModelSource(Protocol):
    """Where nodes get their chat models; the graphs' service protocols extend it."""

    @property
    def default_provider(self) -> ProviderName: ...

    def model_name(self, provider: ProviderName) -> str: ...

    def chat_model(
        self, provider: ProviderName, strictness: StrictnessConfig, *, model: str | None, max_tokens: int | None = None
    ) -> BaseChatModel | None: ...


def finish_reason(metadata: Mapping[str, Any]) -> str | None:
    """The provider's stop reason: Ollama says ``done_reason``, Mistral ``finish_reason``."""
    reason = metadata.get("done_reason") or metadata.get("finish_reason")
    return str(reason) if reason is not None else None


def probe_provider(provider: ProviderName, settings: ModelSettings, timeout_s: float = 3.0) -> str:
    """Check that the provider answers; returns a short description or raises a ProviderError."""
    if provider == "extractive":
        return "kein LLM: Antworten werden wörtlich aus den Quellen zusammengesetzt"
    if provider == "ollama":
        url, headers = settings.resolved_ollama_base_url + "/api/tags", {}
    else:
        base = settings.mistral_base_url or "https://api.mistral.ai/v1"
        key = settings.mistral_api_key.get_secret_value() if settings.mistral_api_key else ""
        url, headers = base + "/models", {"Authorization": f"Bearer {key}"}
    with provider_errors(provider):
        response = httpx.get(url, headers=headers, timeout=timeout_s)
        response.raise_for_status()
    return f"erreichbar ({url})"
