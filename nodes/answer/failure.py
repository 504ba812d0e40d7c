"""LLM calls that still fail after their retries end in the refusal, never in a crashed run.

``refuse_after_provider_failure`` is the ``error_handler`` of the draft and regeneration nodes;
``skip_group_after_provider_failure`` the one of the survey's map step. The refusal is the deterministic one, with
a stable code in ``error``, so a served client can tell "the model was unreachable" from "the KB has no answer".
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.errors import NodeError
from langgraph.types import Command

from nodes.answer.state import AnswerState, BlockGroupTask
from nodes.shared.llm import (
    ProviderError,
    ProviderMalformedResponse,
    ProviderRateLimited,
    ProviderRequestRejected,
    ProviderServerError,
    ProviderTimeout,
    ProviderUnavailable,
)

FAILURE_CODES: dict[type[ProviderError], str] = {
    ProviderTimeout: "provider_timeout",
    ProviderUnavailable: "provider_unavailable",
    ProviderRateLimited: "provider_rate_limited",
    ProviderServerError: "provider_server_error",
    ProviderRequestRejected: "provider_rejected",
    ProviderMalformedResponse: "provider_malformed_response",
}


def failure_code(error: ProviderError) -> str:
    return next((code for kind, code in FAILURE_CODES.items() if isinstance(error, kind)), "provider_error")


def refuse_after_provider_failure(state: AnswerState, error: NodeError) -> Command[Literal["finalize_answer"]]:
    """Provider failures become the refusal; anything else is a bug and fails the run as before."""
    if not isinstance(error.error, ProviderError):
        raise error.error
    update: dict[str, Any] = {
        "answer": state["policy"].uncertain_message,
        "refused": True,
        "verified": False,
        "bucket": "refused",
        "provider_failure": failure_code(error.error),
    }
    return Command(goto="finalize_answer", update=update)


def skip_group_after_provider_failure(task: BlockGroupTask, error: NodeError) -> Command[Literal["draft_answer"]]:
    """A survey group whose map call keeps failing adds no notes: the draft works from the other groups' notes
    (or from the blocks when none got through), and a provider that is still down refuses there, with its code."""
    if not isinstance(error.error, ProviderError):
        raise error.error
    return Command(goto="draft_answer")  # a handler's output follows no edge of the failed node by itself
