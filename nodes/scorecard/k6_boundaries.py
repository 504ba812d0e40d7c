"""K6 node: guardrails are absolute; any violation fails the content (see boundaries.py for the engine)."""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.results import CriterionResult, Verdict
from nodes.scorecard.state import ScorecardState
from nodes.scorecard.verdicts import elapsed_ms
from nodes.shared.brand.boundaries import compile_guardrails, find_boundary_violations
from nodes.shared.brand.reasons import Reason


def check_boundaries(state: ScorecardState, runtime: Runtime[ScorecardContext]) -> dict[str, Any]:
    ctx = runtime.context or ScorecardContext()
    started = time.perf_counter()
    guardrails = state["dna"].guardrails
    report = find_boundary_violations(state["text"], guardrails, regex_timeout_s=ctx.thresholds.regex_timeout_s)
    timeouts = [
        Reason(
            rule_id=rule_id,
            rule_text=compile_guardrails(guardrails).rule_text(rule_id),
            criterion="K6",
            explanation=f"Muster-Prüfung nach {ctx.thresholds.regex_timeout_s:g} s abgebrochen – Regel nicht geprüft.",
            fix_suggestion="Muster in der DNA vereinfachen (verschachtelte Wiederholungen vermeiden).",
        )
        for rule_id in report.timed_out_rules
    ]
    verdict: Verdict = "fail" if report.violations else "not_assessed" if timeouts else "pass"
    result = CriterionResult(
        criterion="K6",
        verdict=verdict,
        methods=("rules",),
        reasons=(*report.violations, *timeouts),
        suggestions=tuple(dict.fromkeys(r.fix_suggestion for r in report.violations if r.fix_suggestion)),
        metrics={
            "violations": len(report.violations),
            "exempted": [e.model_dump() for e in report.exempted],
            "timed_out_rules": list(report.timed_out_rules),
        },
        latency_ms=elapsed_ms(started),
    )
    return {"criteria": {"K6": result}}
