"""K2 node: does the text sharpen the brand's delimitation or level it? Leveling phrases fail deterministically."""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.judge import consult_judge
from nodes.scorecard.judgements import PositioningJudgement
from nodes.scorecard.prompts import POSITIONING_SYSTEM, POSITIONING_USER
from nodes.scorecard.results import CriterionResult, Method, ReasonTemplate, Verdict
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardState
from nodes.scorecard.verdicts import elapsed_ms, worse
from nodes.shared.brand.evidence import evidence_for, locate_passage
from nodes.shared.brand.reasons import Reason
from nodes.shared.brand.terms import TermEntry, TermMatcher
from nodes.shared.brand.vocabulary import COMPARISON_MARKERS, LEVELING_PHRASES, REASON_MARKERS
from stores.text import Sentence, split_sentences

RULE_TEXT = "Der Text stärkt die Abgrenzung der Marke, statt sie zu nivellieren"
LEVELING = ReasonTemplate("POS-001", RULE_TEXT, "K2", "Sagen, für wen und wofür die Marke da ist – und für wen nicht.")
JUDGED = ReasonTemplate("POS-002", RULE_TEXT, "K2", "Die Stelle auf die eigene Abgrenzung zurückführen oder streichen.")
COMPARISON = ReasonTemplate(
    "POS-003", RULE_TEXT, "K2", "Den Vergleich mit der eigenen Logik begründen (weil …) oder streichen."
)
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
        LEVELING.reason(
            f"„{text[h.start : h.end]}“ nivelliert die Abgrenzung: die Marke wäre für alle alles.",
            evidence_for(text, sentences, h.start, h.end),
        )
        for h in hits
        if h.key == "leveling"
    ]
    reasoned = {evidence_for(text, sentences, h.start, h.end).sentence_index for h in hits if h.key == "because"}
    comparisons = [
        COMPARISON.reason(f"Vergleich „{evidence.quote}“ ohne Begründung im selben Satz.", evidence)
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
    metrics: dict[str, Any] = {"leveling_phrases": len(leveling), "unreasoned_comparisons": len(comparisons)}
    reasons: list[Reason] = [*leveling, *comparisons]
    if leveling:  # no judge needed: the phrase itself levels the positioning
        return {"criteria": {"K2": _result("fail", reasons, metrics, None, (), started)}}
    outcome = consult_judge(
        services,
        ctx,
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
    reasons += outcome.missing
    verdict: Verdict = "not_assessed"
    confidence: float | None = None
    if outcome.judgement is not None:
        judgement = outcome.judgement
        confidence = judgement.confidence
        metrics["llm_effect"] = judgement.effect
        verdict = worse(EFFECT_VERDICTS[judgement.effect], "warn") if comparisons else EFFECT_VERDICTS[judgement.effect]
        if judgement.effect != "strengthens":
            reasons += _judge_reasons(text, sentences, judgement)
    result = _result(verdict, reasons, metrics, confidence, outcome.methods, started)
    return {"criteria": {"K2": result}, "llm_calls": outcome.calls}


def _result(
    verdict: Verdict,
    reasons: list[Reason],
    metrics: dict[str, Any],
    confidence: float | None,
    judge_methods: tuple[Method, ...],
    started: float,
) -> CriterionResult:
    shown = tuple(reasons) if verdict != "pass" else ()
    return CriterionResult(
        criterion="K2",
        verdict=verdict,
        confidence=confidence,
        methods=("rules", *judge_methods),
        reasons=shown,
        suggestions=tuple(dict.fromkeys(r.fix_suggestion for r in shown if r.fix_suggestion)),
        metrics=metrics,
        latency_ms=elapsed_ms(started),
    )


def _judge_reasons(text: str, sentences: list[Sentence], judgement: PositioningJudgement) -> list[Reason]:
    flagged = [
        JUDGED.reason(f"{flag.kind.replace('_', ' ')}: {judgement.explanation}", evidence)
        for flag in judgement.flags
        if (evidence := locate_passage(text, sentences, flag.quote)) is not None
    ]
    return flagged or [JUDGED.reason(judgement.explanation)]
