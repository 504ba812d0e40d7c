"""Small shared pieces of every criterion node: verdict order and bands, 'not assessed' reasons, timing."""

from __future__ import annotations

import time

from nodes.scorecard.results import Verdict
from nodes.shared.brand.reasons import CriterionId, Reason

_ORDER: dict[Verdict, int] = {"fail": 0, "warn": 1, "pass": 2}


def worse(first: Verdict, second: Verdict) -> Verdict:
    """The stricter of two assessed verdicts."""
    return first if _ORDER[first] <= _ORDER[second] else second


def band(value: float, pass_from: float, warn_from: float) -> Verdict:
    """≥ pass_from ✔, ≥ warn_from ⚠, below ❌."""
    return "pass" if value >= pass_from else "warn" if value >= warn_from else "fail"


def not_assessed_reason(criterion: CriterionId, why: str) -> Reason:
    return Reason(rule_id="NOT-ASSESSED", rule_text="Kriterium nicht bewertet", criterion=criterion, explanation=why)


def elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
