"""K5 node: decision strength from an LLM judge, capped at ⚠ when hedging words pile up."""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.judge import consult_judge
from nodes.scorecard.judgements import DecisionJudgement
from nodes.scorecard.prompts import DECISION_SYSTEM, DECISION_USER
from nodes.scorecard.results import CriterionResult, ReasonTemplate, Verdict
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardState
from nodes.scorecard.verdicts import band, elapsed_ms, worse
from nodes.shared.brand.evidence import evidence_for, locate_passage
from nodes.shared.brand.reasons import Reason
from nodes.shared.brand.terms import TermEntry, TermMatcher
from nodes.shared.brand.vocabulary import HEDGE_FORMS, HEDGE_LEMMAS
from stores.text import Sentence, count_words, split_sentences

HEDGING = ReasonTemplate(
    "DEC-001",
    "Klare Konsequenz statt Weichmacher (glauben, möchten, helfen, ganzheitlich …)",
    "K5",
    "Weichmacher streichen und die Konsequenz direkt benennen.",
)
VAGUE = ReasonTemplate("DEC-002", "Der Text benennt eine klare Konsequenz, These oder Entscheidung", "K5")


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
            HEDGING.reason(
                f"Weichmacher „{text[h.start : h.end]}“ ({hedge_share:.0%} Weichmacher je Wort).",
                evidence_for(text, sentences, h.start, h.end),
            )
            for h in hedges
        ]
    suggestions: list[str] = []
    outcome = consult_judge(
        services,
        ctx,
        DecisionJudgement,
        criterion="K5",
        system=DECISION_SYSTEM,
        user=DECISION_USER.format(hedges=", ".join(metrics["hedges"]) or "keine", text=text),
    )
    verdict: Verdict = "not_assessed"
    reasons += outcome.missing
    if outcome.judgement is not None:
        judgement = outcome.judgement
        metrics["decision_strength"] = judgement.decision_strength
        verdict = band(judgement.decision_strength, ctx.thresholds.decision_pass, ctx.thresholds.decision_warn)
        if too_hedged:
            verdict = worse(verdict, "warn")
        if verdict != "pass":
            reasons += _vague_passages(text, sentences, judgement)
            if not reasons:  # every rejection is explained, if only by the score
                reasons.append(VAGUE.reason(f"decision_strength des LLM-Richters {judgement.decision_strength}/100."))
            suggestions += [judgement.suggested_sharpening] if judgement.suggested_sharpening else []
    if verdict == "pass":
        reasons = []
    result = CriterionResult(
        criterion="K5",
        verdict=verdict,
        methods=("rules", *outcome.methods),
        reasons=tuple(reasons),
        suggestions=tuple(suggestions),
        metrics=metrics,
        latency_ms=elapsed_ms(started),
    )
    return {"criteria": {"K5": result}, "llm_calls": outcome.calls}


def _vague_passages(text: str, sentences: list[Sentence], judgement: DecisionJudgement) -> list[Reason]:
    vague = VAGUE._replace(fix=judgement.suggested_sharpening or None)
    return [
        vague.reason(flag.issue, evidence)
        for flag in judgement.vagueness_flags
        if (evidence := locate_passage(text, sentences, flag.quote)) is not None
    ]
