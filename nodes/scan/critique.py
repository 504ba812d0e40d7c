"""Step 5: a second model call per finding; the critic may reject it, lower its severity or its confidence."""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.types import Send
from pydantic import BaseModel, ConfigDict, Field

from nodes.scan.prompts import CRITIC_SYSTEM, CRITIC_USER
from nodes.scan.services import ScanServices
from nodes.scan.state import SEVERITY_ORDER, Critique, FindingDraft, FindingTask, ScanState
from nodes.scan.structured import ask_structured
from stores.scan.audit import Severity


class assess_finding(BaseModel):
    """Urteil über einen Befund: gestützt?, angemessene Schwere, Konfidenz, kurze Begründung."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    supported: bool = Field(description="Stützt das Zitat den Befund?")
    severity: Severity = Field(description="Angemessene Schwere: MAJOR, MINOR oder HINT")
    confidence: float = Field(ge=0.0, le=1.0, description="Sicherheit, dass der Befund zutrifft, 0 bis 1")
    note: str = Field(min_length=1, description="Kurze Begründung auf Deutsch")


def fan_out_findings(state: ScanState) -> list[Send] | Literal["assign_buckets"]:
    verified = state.get("verified", [])
    if not verified:
        return "assign_buckets"
    return [Send("critique_finding", FindingTask(finding=finding)) for finding in verified]


def judge(draft: FindingDraft, answer: assess_finding | None, problem: str | None) -> Critique:
    """Apply the critic's answer; it can only lower severity and confidence, never raise them."""
    if answer is None:
        return Critique(
            finding_id=draft.finding_id,
            verdict="unchecked",
            severity=draft.severity,
            confidence=draft.confidence,
            note=f"Kritik nicht auswertbar: {problem}",
        )
    if not answer.supported:
        return Critique(
            finding_id=draft.finding_id, verdict="rejected", severity=draft.severity, confidence=0.0, note=answer.note
        )
    severity = max(draft.severity, answer.severity, key=SEVERITY_ORDER.__getitem__)
    confidence = round(min(draft.confidence, answer.confidence), 4)
    lowered = severity != draft.severity or confidence < draft.confidence
    return Critique(
        finding_id=draft.finding_id,
        verdict="downgraded" if lowered else "confirmed",
        severity=severity,
        confidence=confidence,
        note=answer.note,
    )


def critique_finding(state: FindingTask, *, services: ScanServices) -> dict[str, Any]:
    draft = state["finding"]
    clause = draft.clause
    messages = [
        SystemMessage(CRITIC_SYSTEM),
        HumanMessage(
            CRITIC_USER.format(
                stable_id=clause.stable_id,
                clause_path=clause.clause_path,
                title=clause.title,
                requirement_text=clause.requirement_text,
                page_number=draft.page_number,
                exact_quote=draft.exact_quote,
                severity=draft.severity,
                finding_text=draft.finding_text,
            )
        ),
    ]
    result = ask_structured(services.critic_model, assess_finding, messages, provider=services.provider)
    return {"critiques": [judge(draft, result.answer, result.problem)], "llm_calls": result.calls}
