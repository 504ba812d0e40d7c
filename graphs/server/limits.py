"""HTTP limits of the served API: the answer context clamped to server settings and a per-key rate limit."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from graphs.server.settings import ServerSettings
from nodes.answer.context import AnswerContext

_DEFAULTS = AnswerContext()


def clamp_answer_context(context: dict[str, Any], settings: ServerSettings) -> dict[str, Any]:
    """Every limit-raising field set explicitly, so neither the client nor an assistant can raise it."""
    clamped = dict(context)

    def bounded(name: str, cap: int) -> int:
        value = clamped.get(name)
        return min(value if isinstance(value, int) else getattr(_DEFAULTS, name), cap)

    clamped["max_question_chars"] = bounded("max_question_chars", settings.server_max_question_chars)
    clamped["prompt_budget_tokens"] = bounded("prompt_budget_tokens", settings.server_max_prompt_budget_tokens)
    clamped["retrieval_limit"] = bounded("retrieval_limit", settings.server_max_candidates)
    clamped["survey_retrieval_limit"] = bounded("survey_retrieval_limit", settings.server_max_candidates)
    threshold = clamped.get("confidence_threshold")
    if not isinstance(threshold, int | float):
        threshold = _DEFAULTS.confidence_threshold
    clamped["confidence_threshold"] = max(float(threshold), settings.server_min_confidence_threshold)
    return clamped


@dataclass
class _Bucket:
    tokens: float
    updated: float


@dataclass
class RateLimiter:
    """Token bucket per key: ``burst`` at once, refilled at ``per_minute``; one instance per server process."""

    per_minute: int
    burst: int
    clock: Any = time.monotonic
    _buckets: dict[str, _Bucket] = field(default_factory=dict)

    def retry_after(self, key: str) -> int | None:
        """None when the request may pass (and is counted), else whole seconds until it would."""
        now = self.clock()
        rate = self.per_minute / 60.0
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(tokens=float(self.burst), updated=now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.updated) * rate)
        bucket.updated = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return None
        return max(1, math.ceil((1.0 - bucket.tokens) / rate))
