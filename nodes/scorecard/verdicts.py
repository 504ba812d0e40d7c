"""Small shared pieces of every criterion node: verdict order, 'not assessed' reasons, the judge model."""

from __future__ import annotations

import time

from langchain_core.language_models import BaseChatModel

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.resources import ScorecardResources
from nodes.scorecard.results import CriterionId, Reason, Verdict

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


def judge_model(resources: ScorecardResources, ctx: ScorecardContext) -> BaseChatModel | None:
    return resources.chat_model if ctx.use_llm else None


def elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
