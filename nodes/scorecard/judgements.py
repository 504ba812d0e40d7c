"""Structured replies of the LLM judges (K1, K2, K3, K5); field descriptions instruct the model."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class QuotedFinding(BaseModel):
    quote: str = Field(description="Wörtliches Zitat aus dem Text.")
    rule_id: str | None = Field(None, description="ID der verletzten Ton-Regel, falls eine passt.")
    note: str = Field(description="Was an der Stelle gegen die Regel verstößt.")


class ToneJudgement(BaseModel):
    score: int = Field(ge=0, le=100, description="100 = alle Ton-Regeln eingehalten, 0 = durchgehend verletzt.")
    findings: list[QuotedFinding] = Field(default_factory=list, description="Abweichungen mit Zitat.")
    rewrite_hints: list[str] = Field(default_factory=list, description="Konkrete Umformulierungs-Hinweise.")


class VaguePassage(BaseModel):
    quote: str = Field(description="Wörtliches Zitat aus dem Text.")
    issue: str = Field(description="Warum die Stelle vage ist.")


class DecisionJudgement(BaseModel):
    decision_strength: int = Field(
        ge=0, le=100, description="Wie klar der Text eine Konsequenz, These oder Entscheidung benennt."
    )
    vagueness_flags: list[VaguePassage] = Field(default_factory=list)
    suggested_sharpening: str = Field("", description="Ein Satz, wie der Text schärfer würde.")


class IdentityJudgement(BaseModel):
    verdict: Literal["coherent", "mixed", "contradicts"]
    fitting_passages: list[str] = Field(default_factory=list, description="1–2 wörtliche Stellen, die zum Kern passen.")
    contradicting_passages: list[str] = Field(
        default_factory=list, description="1–2 wörtliche Stellen, die dem Kern widersprechen."
    )
    explanation: str
    confidence: float = Field(ge=0, le=1)


class PositioningFlag(BaseModel):
    quote: str = Field(description="Wörtliches Zitat aus dem Text.")
    kind: Literal["flexibel_fuer_alle", "alles_machen", "vergleich_ohne_logik", "sonstige_nivellierung"]


class PositioningJudgement(BaseModel):
    effect: Literal["strengthens", "neutral", "levels"] = Field(
        description="strengthens = schärft die Abgrenzung, levels = nivelliert sie."
    )
    flags: list[PositioningFlag] = Field(default_factory=list)
    explanation: str
    confidence: float = Field(ge=0, le=1)
