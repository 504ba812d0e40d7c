"""The LLM judges of K1, K2, K3 and K5: which model is asked, the structured call, and its accounting."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.results import Method
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.verdicts import not_assessed_reason
from nodes.settings import ProviderName
from nodes.shared.brand.reasons import CriterionId, Reason
from nodes.shared.llm import provider_errors
from nodes.shared.strictness import get_strictness_config

JUDGE_STRICTNESS_LEVEL = 1  # lowest temperature, fixed seed: judges should be as repeatable as the provider allows
JUDGE_MAX_TOKENS = 1200
NO_LLM = "Kein LLM verfügbar (Provider extractive): semantische Prüfung nicht möglich."
UNPARSEABLE = "Die Antwort des LLM-Richters passte nicht zum erwarteten JSON-Schema."

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


@dataclass(frozen=True)
class JudgeOutcome(Generic[JudgementT]):
    """The judgement, or the reason there is none (no LLM, unparseable reply), plus the calls made."""

    judgement: JudgementT | None
    missing: tuple[Reason, ...] = ()  # one NOT-ASSESSED reason when there is no judgement
    calls: list[LlmCall] = field(default_factory=list)

    @property
    def methods(self) -> tuple[Method, ...]:
        return ("llm",) if self.calls else ()


def provider_of(services: ScorecardServices, ctx: ScorecardContext) -> ProviderName:
    return ctx.provider or services.default_provider


def judge_id(services: ScorecardServices, ctx: ScorecardContext) -> str | None:
    provider = provider_of(services, ctx)
    return None if provider == "extractive" else f"{provider}:{ctx.model or services.model_name(provider)}"


def consult_judge(
    services: ScorecardServices,
    ctx: ScorecardContext,
    schema: type[JudgementT],
    *,
    criterion: CriterionId,
    system: str,
    user: str,
) -> JudgeOutcome[JudgementT]:
    provider = provider_of(services, ctx)
    strictness = get_strictness_config(JUDGE_STRICTNESS_LEVEL)
    model = services.chat_model(provider, strictness, model=ctx.model, max_tokens=JUDGE_MAX_TOKENS)
    if model is None:
        return JudgeOutcome(None, (not_assessed_reason(criterion, NO_LLM),))
    judgement, call = _ask(model, provider, schema, criterion=criterion, system=system, user=user)
    missing = () if judgement is not None else (not_assessed_reason(criterion, UNPARSEABLE),)
    return JudgeOutcome(judgement, missing, [call])


def _ask(
    model: BaseChatModel,
    provider: ProviderName,
    schema: type[JudgementT],
    *,
    criterion: CriterionId,
    system: str,
    user: str,
) -> tuple[JudgementT | None, LlmCall]:
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
