"""K3 node: deterministic tone metrics plus an LLM judge against the Do/Don't rules; the stricter verdict wins."""

from __future__ import annotations

import json
import time
from typing import Any

from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.judge import consult_judge
from nodes.scorecard.judgements import ToneJudgement
from nodes.scorecard.prompts import TONE_SYSTEM, TONE_USER
from nodes.scorecard.results import CriterionResult, ReasonTemplate, Verdict
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardState
from nodes.scorecard.tone import measure_tone
from nodes.scorecard.verdicts import band, elapsed_ms, worse
from nodes.shared.brand.evidence import locate_passage
from nodes.shared.brand.reasons import Reason
from stores.brand.models import ToneRule
from stores.text import split_sentences

JUDGED_TONE = ReasonTemplate("TONE-LLM-001", "Ton-Regeln der Marke (LLM-Richter)", "K3")


def _rule_lines(rules: tuple[ToneRule, ...]) -> str:
    lines = []
    for rule in rules:
        examples = f" (Beispiele: {'; '.join(rule.examples)})" if rule.examples else ""
        lines.append(f"- {rule.id}: {rule.rule}{examples}")
    return "\n".join(lines) or "- (keine)"


def check_tone(
    state: ScorecardState, runtime: Runtime[ScorecardContext], *, services: ScorecardServices
) -> dict[str, Any]:
    ctx = runtime.context or ScorecardContext()
    started = time.perf_counter()
    text, tone_rules = state["text"], state["dna"].tone_rules
    report = measure_tone(text, tone_rules)
    reasons = list(report.reasons)
    suggestions = [r.fix_suggestion for r in report.reasons if r.fix_suggestion]
    metrics: dict[str, Any] = {"deterministic_verdict": report.verdict, **report.metrics}
    outcome = consult_judge(
        services,
        ctx,
        ToneJudgement,
        criterion="K3",
        system=TONE_SYSTEM,
        user=TONE_USER.format(
            do_rules=_rule_lines(tone_rules.do),
            dont_rules=_rule_lines(tone_rules.dont),
            metrics=json.dumps(report.metrics, ensure_ascii=False),
            text=text,
        ),
    )
    verdict: Verdict
    if outcome.judgement is None:
        verdict = "fail" if report.verdict == "fail" else "not_assessed"  # the judge could only make it stricter
        reasons += outcome.missing
    else:
        verdict = worse(
            report.verdict, band(outcome.judgement.score, ctx.thresholds.tone_pass, ctx.thresholds.tone_warn)
        )
        metrics["llm_score"] = outcome.judgement.score
        rules = {r.id: r.rule for r in (*tone_rules.do, *tone_rules.dont)}
        reasons += _judge_reasons(text, outcome.judgement, rules)
        if verdict != "pass" and not reasons:  # every rejection is explained, if only by the score
            reasons.append(JUDGED_TONE.reason(f"Ton-Score des LLM-Richters {outcome.judgement.score}/100."))
        suggestions += outcome.judgement.rewrite_hints
    result = CriterionResult(
        criterion="K3",
        verdict=verdict,
        methods=("rules", *outcome.methods),
        reasons=tuple(reasons) if verdict != "pass" else (),
        suggestions=tuple(dict.fromkeys(suggestions)) if verdict != "pass" else (),
        metrics=metrics,
        latency_ms=elapsed_ms(started),
    )
    return {"criteria": {"K3": result}, "llm_calls": outcome.calls}


def _judge_reasons(text: str, judgement: ToneJudgement, rules: dict[str, str]) -> list[Reason]:
    sentences = split_sentences(text)
    reasons = []
    for finding in judgement.findings:
        evidence = locate_passage(text, sentences, finding.quote)
        if evidence is None:
            continue  # a quote that is not in the text is not evidence
        known = finding.rule_id in rules
        reasons.append(
            Reason(
                rule_id=finding.rule_id if known and finding.rule_id else JUDGED_TONE.rule_id,
                rule_text=rules[finding.rule_id] if known and finding.rule_id else JUDGED_TONE.rule_text,
                criterion="K3",
                explanation=finding.note,
                evidence=evidence,
            )
        )
    return reasons
