"""The validation object and its parts: evidence, reasons, per-criterion results, status."""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from nodes.shared.brand.reasons import Block, CriterionId, Evidence, Reason

CRITERIA: tuple[CriterionId, ...] = ("K1", "K2", "K3", "K4", "K5", "K6", "K7")
CRITERION_NAMES: dict[CriterionId, str] = {
    "K1": "Identitätskern-Kohärenz",
    "K2": "Positionierungslogik",
    "K3": "Sprache & Tonalität",
    "K4": "Themenrahmen",
    "K5": "Entscheidungsfähigkeit",
    "K6": "Grenzregeln & No-Gos",
    "K7": "Konsistenz zur DNA-Version",
}
Verdict = Literal["pass", "warn", "fail", "not_assessed"]
VERDICT_POINTS: dict[Verdict, float] = {"pass": 1.0, "warn": 0.5, "fail": 0.0, "not_assessed": 0.0}
VERDICT_SYMBOLS: dict[Verdict, str] = {"pass": "✔", "warn": "⚠", "fail": "❌", "not_assessed": "–"}
Status = Literal["PASS", "REVISE", "FAIL", "INSUFFICIENT_INFORMATION"]
Method = Literal["rules", "embedding", "llm"]
ContentType = Literal["linkedin_post", "website", "offer", "other"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ReasonTemplate(NamedTuple):
    """A rule as the criterion nodes cite it; ``reason`` fills in the case at hand."""

    rule_id: str
    rule_text: str
    criterion: CriterionId
    fix: str | None = None

    def reason(self, explanation: str, evidence: Evidence | None = None) -> Reason:
        return Reason(
            rule_id=self.rule_id,
            rule_text=self.rule_text,
            criterion=self.criterion,
            explanation=explanation,
            evidence=evidence,
            fix_suggestion=self.fix,
        )


class CriterionResult(_Frozen):
    criterion: CriterionId
    verdict: Verdict
    confidence: float | None = Field(None, ge=0, le=1)
    methods: tuple[Method, ...] = Field((), description="Welche Prüfarten tatsächlich liefen.")
    reasons: tuple[Reason, ...] = ()
    suggestions: tuple[str, ...] = ()
    metrics: dict[str, Any] = Field(default_factory=dict)
    latency_ms: float = 0.0

    @property
    def name(self) -> str:
        return CRITERION_NAMES[self.criterion]


class BlockMaturity(_Frozen):
    block: Block
    maturity_score: int = Field(ge=0, le=100)
    gaps: tuple[str, ...] = ()
    standard_ref: str


class DnaMaturity(_Frozen):
    overall: int = Field(ge=0, le=100)
    blocks: dict[Block, BlockMaturity]
    lint: tuple[str, ...] = Field((), description="Befunde zum Regelwerk selbst.")


class ContentContext(_Frozen):
    audience: str | None = None
    topic: str | None = None
    channel: str | None = None


class OwnerDecision(_Frozen):
    """What the brand owner answers at the human gate (``Command(resume=...)``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    approved: bool
    owner: str = Field(min_length=1)
    note: str | None = None


class Validation(_Frozen):
    content_id: str
    content_type: ContentType
    text: str
    context: ContentContext
    brand_id: str
    dna_version: str
    dna_version_ref: str | None
    criteria: dict[CriterionId, CriterionResult]
    score: float
    status: Status
    requires_owner_approval: bool
    reasons: tuple[Reason, ...]
    top_reasons: tuple[Reason, ...]
    suggestions: tuple[str, ...]
    validated_by: Literal["agent", "human"]
    owner_decision: OwnerDecision | None = None
    maturity: DnaMaturity
    audit_id: int | None = None
