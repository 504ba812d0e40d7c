"""From per-criterion results to the verdict: score, overrides, status, human gate, top levers, coupling rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.runtime import Runtime
from pydantic import BaseModel, ConfigDict

from nodes.scorecard.context import ScorecardContext, Thresholds
from nodes.scorecard.results import (
    CRITERIA,
    VERDICT_POINTS,
    ContentContext,
    CriterionResult,
    DnaMaturity,
    Status,
    Validation,
    Verdict,
)
from nodes.scorecard.state import ScorecardState
from nodes.scorecard.verdicts import not_assessed_reason
from nodes.shared.brand.reasons import Block, CriterionId, Reason

PASS_FROM = 6.0
REVISE_FROM = 4.0
GATE_SCORES = (5.0, 5.5)
COUPLED_BLOCKS: dict[CriterionId, Block] = {"K1": "identity_core", "K2": "positioning_logic"}
BLOCK_LABELS: dict[Block, str] = {
    "identity_core": "Identitätskern",
    "positioning_logic": "Positionierung/Abgrenzung",
    "tone_rules": "Sprach-/Tonregeln",
    "topic_corridor": "Themenrahmen",
    "guardrails": "Grenzregeln",
}


class StatusDecision(BaseModel):
    model_config = ConfigDict(frozen=True)

    status: Status
    score: float
    requires_owner_approval: bool
    overrides: tuple[str, ...] = ()


def map_status(verdicts: Mapping[CriterionId, Verdict]) -> StatusDecision:
    """Overrides first (K6 ❌ → FAIL; K1/K2 ❌ → at most REVISE), then PASS ≥ 6, REVISE 4–5.5, FAIL < 4.

    With criteria not assessed the status is never PASS: FAIL if even their best case stays below 4,
    otherwise INSUFFICIENT_INFORMATION.
    """
    score = sum(VERDICT_POINTS[verdicts[c]] for c in CRITERIA)
    open_criteria = sum(verdicts[c] == "not_assessed" for c in CRITERIA)
    if verdicts["K6"] == "fail":
        return StatusDecision(status="FAIL", score=score, requires_owner_approval=False, overrides=("K6",))
    if open_criteria:
        status: Status = "FAIL" if score + open_criteria < REVISE_FROM else "INSUFFICIENT_INFORMATION"
        return StatusDecision(status=status, score=score, requires_owner_approval=False)
    status = "PASS" if score >= PASS_FROM else "REVISE" if score >= REVISE_FROM else "FAIL"
    capped = tuple(c for c in ("K1", "K2") if verdicts[c] == "fail")
    if capped and status == "PASS":
        return StatusDecision(status="REVISE", score=score, requires_owner_approval=False, overrides=capped)
    gate = (
        GATE_SCORES[0] <= score <= GATE_SCORES[1]
        and not capped
        and (verdicts["K1"] == "warn" or verdicts["K2"] == "warn")
    )
    return StatusDecision(status=status, score=score, requires_owner_approval=gate, overrides=capped)


def couple_low_maturity(
    results: dict[CriterionId, CriterionResult], maturity: DnaMaturity, thresholds: Thresholds
) -> dict[CriterionId, CriterionResult]:
    """Low-confidence K1/K2 findings against a blurry DNA block are the block's problem, not the content's."""
    coupled = dict(results)
    for criterion, block in COUPLED_BLOCKS.items():
        result = results[criterion]
        block_maturity = maturity.blocks[block]
        if (
            result.verdict in ("warn", "fail")
            and result.confidence is not None
            and result.confidence < thresholds.low_confidence
            and block_maturity.maturity_score < thresholds.low_maturity
        ):
            reason = Reason(
                rule_id="LOW-DNA-MATURITY",
                rule_text=block_maturity.standard_ref,
                criterion=criterion,
                explanation=(
                    f"Unsichere Bewertung (Konfidenz {result.confidence:.2f}) gegen einen unscharfen Baustein "
                    f"„{BLOCK_LABELS[block]}“ (Reifegrad {block_maturity.maturity_score}/100): "
                    + ("; ".join(block_maturity.gaps) or "Baustein nachschärfen")
                    + "."
                ),
                fix_suggestion=f"Zuerst den DNA-Baustein „{BLOCK_LABELS[block]}“ schärfen, dann erneut prüfen.",
                block_ref=block,
            )
            coupled[criterion] = result.model_copy(update={"reasons": (reason,), "suggestions": ()})
    return coupled


def top_levers(results: Mapping[CriterionId, CriterionResult], status: Status, limit: int = 3) -> tuple[Reason, ...]:
    """The biggest levers: K6 first (absolute), then ❌ (1 point) before ⚠ (0.5), K1/K2 before the rest."""
    if status == "PASS":
        return ()
    gains: dict[Verdict, float] = {"fail": 1.0, "warn": 0.5}
    ranked = sorted(
        (c for c in CRITERIA if results[c].verdict in gains and results[c].reasons),
        key=lambda c: (c != "K6", -gains[results[c].verdict], CRITERIA.index(c)),
    )
    if status == "INSUFFICIENT_INFORMATION":
        ranked += [c for c in CRITERIA if results[c].verdict == "not_assessed" and results[c].reasons][:1]
    levers = [results[c].reasons[0] for c in ranked]
    extra = [r for c in ranked for r in results[c].reasons[1:]]
    return tuple((levers + extra)[:limit])


def decide_status(state: ScorecardState, runtime: Runtime[ScorecardContext]) -> dict[str, Any]:
    ctx = runtime.context or ScorecardContext()
    ran = state.get("criteria", {})
    results = {
        c: ran.get(c)
        or CriterionResult(
            criterion=c,
            verdict="not_assessed",
            reasons=(not_assessed_reason(c, "Per Feature-Flag abgeschaltet."),),
        )
        for c in CRITERIA
    }
    results = couple_low_maturity(results, state["maturity"], ctx.thresholds)
    decision = map_status({c: r.verdict for c, r in results.items()})
    reasons = tuple(r for c in CRITERIA for r in results[c].reasons)
    suggestions = tuple(dict.fromkeys(s for c in CRITERIA for s in results[c].suggestions))
    dna = state["dna"]
    validation = Validation(
        content_id=state["content_id"],
        content_type=state.get("content_type", "other"),
        text=state["text"],
        context=ContentContext(audience=state.get("audience"), topic=state.get("topic"), channel=state.get("channel")),
        brand_id=dna.brand_id,
        dna_version=dna.dna_version,
        dna_version_ref=state.get("dna_version_ref"),
        criteria=results,
        score=decision.score,
        status=decision.status,
        requires_owner_approval=decision.requires_owner_approval,
        reasons=reasons,
        top_reasons=top_levers(results, decision.status),
        suggestions=suggestions,
        validated_by="agent",
        maturity=state["maturity"],
    )
    return {"validation": validation}
