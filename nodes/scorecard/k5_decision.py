"""K5 node: decision strength from an LLM judge, capped at ⚠ when hedging words pile up."""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.evidence import evidence_for, locate_passage
from nodes.scorecard.judge import ask_judge
from nodes.scorecard.judgements import DecisionJudgement
from nodes.scorecard.prompts import DECISION_SYSTEM, DECISION_USER
from nodes.scorecard.results import CriterionResult, Method, Reason, Verdict
from nodes.scorecard.sentences import Sentence, count_words, split_sentences
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardState
from nodes.scorecard.terms import TermEntry, TermMatcher
from nodes.scorecard.verdicts import (
    NO_LLM,
    UNPARSEABLE,
    band,
    elapsed_ms,
    judge_model,
    not_assessed_reason,
    provider_of,
    worse,
)
from nodes.scorecard.vocabulary import HEDGE_FORMS, HEDGE_LEMMAS

HEDGE_RULE = "Klare Konsequenz statt Weichmacher (glauben, möchten, helfen, ganzheitlich …)"


@lru_cache(maxsize=1)
def _hedge_matcher() -> TermMatcher:
    return TermMatcher([TermEntry(t, t) for t in HEDGE_LEMMAS] + [TermEntry(t, t, inflect=False) for t in HEDGE_FORMS])


def check_decision_strength(
    state: ScorecardState, runtime: Runtime[ScorecardContext], *, services: ScorecardServices
) -> dict[str, Any]:
    ctx = runtime.context or ScorecardContext()
    started = time.perf_counter()
    text = state["text"]
    sentences = split_sentences(text)
    hedges = _hedge_matcher().find(text)
    words = count_words(text)
    hedge_share = round(len(hedges) / words, 3) if words else 0.0
    too_hedged = hedge_share > ctx.thresholds.max_hedge_share
    metrics: dict[str, Any] = {"hedges": [text[h.start : h.end] for h in hedges], "hedge_share": hedge_share}
    reasons: list[Reason] = []
    if too_hedged:
        reasons += [
            Reason(
                rule_id="DEC-001",
                rule_text=HEDGE_RULE,
                criterion="K5",
                explanation=f"Weichmacher „{text[h.start : h.end]}“ ({hedge_share:.0%} Weichmacher je Wort).",
                evidence=evidence_for(text, sentences, h.start, h.end),
                fix_suggestion="Weichmacher streichen und die Konsequenz direkt benennen.",
            )
            for h in hedges
        ]
    methods: list[Method] = ["rules"]
    suggestions: list[str] = []
    update: dict[str, Any] = {}
    verdict: Verdict
    model = judge_model(services, ctx)
    if model is None:
        verdict = "not_assessed"
        reasons.append(not_assessed_reason("K5", NO_LLM))
    else:
        methods.append("llm")
        judgement, call = ask_judge(
            model,
            provider_of(services, ctx),
            DecisionJudgement,
            criterion="K5",
            system=DECISION_SYSTEM,
            user=DECISION_USER.format(hedges=", ".join(metrics["hedges"]) or "keine", text=text),
        )
        update["llm_calls"] = [call]
        if judgement is None:
            verdict = "not_assessed"
            reasons.append(not_assessed_reason("K5", UNPARSEABLE))
        else:
            metrics["decision_strength"] = judgement.decision_strength
            verdict = band(judgement.decision_strength, ctx.thresholds.decision_pass, ctx.thresholds.decision_warn)
            if too_hedged:
                verdict = worse(verdict, "warn")
            if verdict != "pass":
                reasons += _vague_passages(text, sentences, judgement)
                suggestions += [judgement.suggested_sharpening] if judgement.suggested_sharpening else []
    if verdict == "pass":
        reasons = []
    result = CriterionResult(
        criterion="K5",
        verdict=verdict,
        methods=tuple(methods),
        reasons=tuple(reasons),
        suggestions=tuple(suggestions),
        metrics=metrics,
        latency_ms=elapsed_ms(started),
    )
    return update | {"criteria": {"K5": result}}


def _vague_passages(text: str, sentences: list[Sentence], judgement: DecisionJudgement) -> list[Reason]:
    reasons = []
    for flag in judgement.vagueness_flags:
        evidence = locate_passage(text, sentences, flag.quote)
        if evidence is not None:
            reasons.append(
                Reason(
                    rule_id="DEC-002",
                    rule_text="Der Text benennt eine klare Konsequenz, These oder Entscheidung",
                    criterion="K5",
                    explanation=flag.issue,
                    evidence=evidence,
                    fix_suggestion=judgement.suggested_sharpening or None,
                )
            )
    return reasons
