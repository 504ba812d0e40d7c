"""Labelled scorecard cases (demo set, eval set): text, expected outcome, and the judges' recorded verdicts.

``replay_judges`` turns a case's recorded verdicts into a scripted chat model, so the whole graph runs with
real rules, embeddings and status logic while the LLM boundary answers what the label says. The judges run
in parallel branches, so replies are chosen by the judge's system prompt, not by call order.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from nodes.scorecard.judgements import DecisionJudgement, IdentityJudgement, PositioningJudgement, ToneJudgement
from nodes.scorecard.prompts import DECISION_SYSTEM, IDENTITY_SYSTEM, POSITIONING_SYSTEM, TONE_SYSTEM
from nodes.scorecard.results import ContentType, Status
from nodes.scorecard.state import ScorecardInput
from nodes.shared.scripted_llm import ScriptedChatModel, ScriptExhausted

JudgedCriterion = Literal["K1", "K2", "K3", "K5"]
JUDGES: dict[str, tuple[JudgedCriterion, type[BaseModel]]] = {
    IDENTITY_SYSTEM: ("K1", IdentityJudgement),
    POSITIONING_SYSTEM: ("K2", PositioningJudgement),
    TONE_SYSTEM: ("K3", ToneJudgement),
    DECISION_SYSTEM: ("K5", DecisionJudgement),
}


class ExpectedOutcome(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    status: Status
    rule_ids: frozenset[str] = Field(frozenset(), description="Alle Regel-IDs der Begründungen (ohne NOT-ASSESSED).")
    status_without_llm: Status
    requires_owner_approval: bool = False


class LabelledCase(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    content_type: ContentType
    text: str
    dna_version_ref: str | None = None
    note: str
    judges: dict[JudgedCriterion, dict[str, Any]] = Field(default_factory=dict)
    expected: ExpectedOutcome

    def scorecard_input(self) -> ScorecardInput:
        payload: ScorecardInput = {"text": self.text, "content_id": self.id, "content_type": self.content_type}
        if self.dna_version_ref is not None:
            payload["dna_version_ref"] = self.dna_version_ref
        return payload


def load_labelled_cases(path: Path) -> list[LabelledCase]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return TypeAdapter(list[LabelledCase]).validate_python(data["cases"])


def replay_judges(judges: Mapping[JudgedCriterion, Mapping[str, Any]]) -> ScriptedChatModel:
    """A chat model that answers each judge with the recorded verdict; an unrecorded judge fails loudly."""
    for criterion, schema in JUDGES.values():
        if criterion in judges:
            schema.model_validate(judges[criterion])  # a typo in the fixture fails here, not as "unparseable"

    def answer(messages: list[BaseMessage]) -> AIMessage:
        criterion, schema = JUDGES[str(messages[0].content)]
        if criterion not in judges:
            raise ScriptExhausted(f"kein aufgezeichneter Richterspruch für {criterion}")
        call = {"name": schema.__name__, "args": dict(judges[criterion]), "id": criterion}
        return AIMessage(content="", tool_calls=[call])

    return ScriptedChatModel(script=[answer], repeat_last=True, model_name="replayed-judges")
