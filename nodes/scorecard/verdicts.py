"""Small shared pieces of every criterion node: verdict order, 'not assessed' reasons, the judge model."""

from __future__ import annotations

import time

from langchain_core.language_models import BaseChatModel

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.results import CriterionId, Reason, Verdict
from nodes.scorecard.services import ScorecardServices
from nodes.settings import ProviderName
from nodes.shared.strictness import get_strictness_config

JUDGE_STRICTNESS_LEVEL = 1  # lowest temperature, fixed seed: judges should be as repeatable as the provider allows
JUDGE_MAX_TOKENS = 1200

_ORDER: dict[Verdict, int] = {"fail": 0, "warn": 1, "pass": 2}


def worse(first: Verdict, second: Verdict) -> Verdict:
    """The stricter of two assessed verdicts."""
    return first if _ORDER[first] <= _ORDER[second] else second


def band(value: float, pass_from: float, warn_from: float) -> Verdict:
    """≥ pass_from ✔, ≥ warn_from ⚠, below ❌."""
    return "pass" if value >= pass_from else "warn" if value >= warn_from else "fail"


def not_assessed_reason(criterion: CriterionId, why: str) -> Reason:
    return Reason(rule_id="NOT-ASSESSED", rule_text="Kriterium nicht bewertet", criterion=criterion, explanation=why)


NO_LLM = "Kein LLM verfügbar (Provider extractive oder abgeschaltet): semantische Prüfung nicht möglich."
UNPARSEABLE = "Die Antwort des LLM-Richters passte nicht zum erwarteten JSON-Schema."


def provider_of(services: ScorecardServices, ctx: ScorecardContext) -> ProviderName:
    return ctx.provider or services.default_provider


def judge_model(services: ScorecardServices, ctx: ScorecardContext) -> BaseChatModel | None:
    """The chat model the LLM criteria ask; None for the extractive provider (criteria are then not assessed)."""
    strictness = get_strictness_config(JUDGE_STRICTNESS_LEVEL)
    return services.chat_model(provider_of(services, ctx), strictness, model=ctx.model, max_tokens=JUDGE_MAX_TOKENS)


def judge_id(services: ScorecardServices, ctx: ScorecardContext) -> str | None:
    provider = provider_of(services, ctx)
    return None if provider == "extractive" else f"{provider}:{ctx.model or services.model_name(provider)}"


def elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
