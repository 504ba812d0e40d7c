"""What a brand rule reports: the evidence span in the text and the reason with rule id and fix."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

CriterionId = Literal["K1", "K2", "K3", "K4", "K5", "K6", "K7"]
Block = Literal["identity_core", "positioning_logic", "tone_rules", "topic_corridor", "guardrails"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Evidence(_Frozen):
    quote: str
    start: int = Field(description="Zeichenposition im Text (inklusive).")
    end: int = Field(description="Zeichenposition im Text (exklusive).")
    sentence_index: int = Field(description="Satz im Text, ab 0 gezählt.")


class Reason(_Frozen):
    rule_id: str
    rule_text: str
    criterion: CriterionId
    explanation: str
    evidence: Evidence | None = None
    fix_suggestion: str | None = None
    block_ref: Block | None = Field(None, description="Bei LOW-DNA-MATURITY: der DNA-Baustein, der nachzuschärfen ist.")
