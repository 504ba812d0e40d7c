"""K2 node: does the text sharpen the brand's delimitation or level it? Leveling phrases fail deterministically."""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.evidence import evidence_for, locate_passage
from nodes.scorecard.judge import ask_judge
from nodes.scorecard.judgements import PositioningJudgement
from nodes.scorecard.prompts import POSITIONING_SYSTEM, POSITIONING_USER
from nodes.scorecard.results import CriterionResult, Method, Reason, Verdict
from nodes.scorecard.sentences import Sentence, split_sentences
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardState
from nodes.scorecard.terms import TermEntry, TermMatcher
from nodes.scorecard.verdicts import (
    NO_LLM,
    UNPARSEABLE,
    elapsed_ms,
    judge_model,
    not_assessed_reason,
    provider_of,
    worse,
)
from nodes.scorecard.vocabulary import COMPARISON_MARKERS, LEVELING_PHRASES, REASON_MARKERS

RULE_TEXT = "Der Text stärkt die Abgrenzung der Marke, statt sie zu nivellieren"
EFFECT_VERDICTS: dict[str, Verdict] = {"strengthens": "pass", "neutral": "warn", "levels": "fail"}


@lru_cache(maxsize=1)
def _markers() -> TermMatcher:
    return TermMatcher(
        [TermEntry("leveling", p, inflect=False) for p in LEVELING_PHRASES]
        + [TermEntry("comparison", p, inflect=False) for p in COMPARISON_MARKERS]
        + [TermEntry("because", p, inflect=False) for p in REASON_MARKERS]
    )


def deterministic_findings(text: str, sentences: list[Sentence]) -> tuple[list[Reason], list[Reason]]:
    """(leveling phrases, comparisons without a reason in the same sentence)."""
    hits = _markers().find(text)
    leveling = [
        Reason(
            rule_id="POS-001",
            rule_text=RULE_TEXT,
            criterion="K2",
            explanation=f"„{text[h.start : h.end]}“ nivelliert die Abgrenzung: die Marke wäre für alle alles.",
            evidence=evidence_for(text, sentences, h.start, h.end),
            fix_suggestion="Sagen, für wen und wofür die Marke da ist – und für wen nicht.",
        )
        for h in hits
        if h.key == "leveling"
    ]
    reasoned = {evidence_for(text, sentences, h.start, h.end).sentence_index for h in hits if h.key == "because"}
    comparisons = [
        Reason(
            rule_id="POS-003",
            rule_text=RULE_TEXT,
            criterion="K2",
            explanation=f"Vergleich „{evidence.quote}“ ohne Begründung im selben Satz.",
            evidence=evidence,
            fix_suggestion="Den Vergleich mit der eigenen Logik begründen (weil …) oder streichen.",
        )
        for h in hits
        if h.key == "comparison"
        and (evidence := evidence_for(text, sentences, h.start, h.end)).sentence_index not in reasoned
    ]
    return leveling, comparisons


def check_positioning(
    state: ScorecardState, runtime: Runtime[ScorecardContext], *, services: ScorecardServices
) -> dict[str, Any]:
    ctx = runtime.context or ScorecardContext()
    started = time.perf_counter()
    text, positioning = state["text"], state["dna"].positioning_logic
    sentences = split_sentences(text)
    leveling, comparisons = deterministic_findings(text, sentences)
    methods: list[Method] = ["rules"]
    metrics: dict[str, Any] = {"leveling_phrases": len(leveling), "unreasoned_comparisons": len(comparisons)}
    update: dict[str, Any] = {}
    confidence: float | None = None
    reasons: list[Reason] = [*leveling, *comparisons]
    verdict: Verdict
    model = judge_model(services, ctx)
    if leveling:
        verdict = "fail"  # no judge needed: the phrase itself levels the positioning
    elif model is None:
        verdict = "not_assessed"
        reasons.append(not_assessed_reason("K2", NO_LLM))
    else:
        methods.append("llm")
        judgement, call = ask_judge(
            model,
            provider_of(services, ctx),
            PositioningJudgement,
            criterion="K2",
            system=POSITIONING_SYSTEM,
            user=POSITIONING_USER.format(
                problem=positioning.problem,
                logic=positioning.logic,
                delimitations="\n".join(f"- {d}" for d in positioning.delimitations) or "- (keine)",
                hints="; ".join(r.explanation for r in comparisons) or "keine",
                text=text,
            ),
        )
        update["llm_calls"] = [call]
        if judgement is None:
            verdict = "not_assessed"
            reasons.append(not_assessed_reason("K2", UNPARSEABLE))
        else:
            confidence = judgement.confidence
            metrics["llm_effect"] = judgement.effect
            verdict = EFFECT_VERDICTS[judgement.effect]
            if comparisons:
                verdict = worse(verdict, "warn")
            if judgement.effect != "strengthens":
                reasons += _judge_reasons(text, sentences, judgement)
    result = CriterionResult(
        criterion="K2",
        verdict=verdict,
        confidence=confidence,
        methods=tuple(methods),
        reasons=tuple(reasons) if verdict != "pass" else (),
        suggestions=tuple(dict.fromkeys(r.fix_suggestion for r in reasons if r.fix_suggestion)),
        metrics=metrics,
        latency_ms=elapsed_ms(started),
    )
    return update | {"criteria": {"K2": result}}


def _judge_reasons(text: str, sentences: list[Sentence], judgement: PositioningJudgement) -> list[Reason]:
    flagged = [
        Reason(
            rule_id="POS-002",
            rule_text=RULE_TEXT,
            criterion="K2",
            explanation=f"{flag.kind.replace('_', ' ')}: {judgement.explanation}",
            evidence=evidence,
            fix_suggestion="Die Stelle auf die eigene Abgrenzung zurückführen oder streichen.",
        )
        for flag in judgement.flags
        if (evidence := locate_passage(text, sentences, flag.quote)) is not None
    ]
    return flagged or [
        Reason(rule_id="POS-002", rule_text=RULE_TEXT, criterion="K2", explanation=judgement.explanation)
    ]
