"""Ask an LLM judge for a structured verdict and account for the call (model id, tokens)."""

from __future__ import annotations

from typing import TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict

from nodes.scorecard.results import CriterionId
from nodes.shared.llm import provider_errors

JudgementT = TypeVar("JudgementT", bound=BaseModel)


class LlmCall(BaseModel):
    """One judge call as the audit log records it."""

    model_config = ConfigDict(frozen=True)

    criterion: CriterionId
    model: str
    input_tokens: int
    output_tokens: int
    total_tokens: int
    parsed: bool


def ask_judge(
    model: BaseChatModel,
    provider: str,
    schema: type[JudgementT],
    *,
    criterion: CriterionId,
    system: str,
    user: str,
) -> tuple[JudgementT | None, LlmCall]:
    """The parsed judgement (None when the reply does not fit the schema) and the call's accounting."""
    structured = model.with_structured_output(schema, include_raw=True)
    with provider_errors(provider):
        reply = structured.invoke([SystemMessage(system), HumanMessage(user)])
    raw = reply["raw"]  # type: ignore[index]
    parsed = reply["parsed"]  # type: ignore[index]
    usage = getattr(raw, "usage_metadata", None) or {}
    metadata = getattr(raw, "response_metadata", None) or {}
    call = LlmCall(
        criterion=criterion,
        model=str(metadata.get("model_name") or metadata.get("model") or provider),
        input_tokens=int(usage.get("input_tokens", 0)),
        output_tokens=int(usage.get("output_tokens", 0)),
        total_tokens=int(usage.get("total_tokens", 0)),
        parsed=isinstance(parsed, schema),
    )
    return (parsed if isinstance(parsed, schema) else None), call
