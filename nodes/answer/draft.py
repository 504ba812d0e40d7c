"""draft_answer: the grounded answer from the context blocks (or their survey notes), or an extractive one."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from nodes.answer.blocks import format_blocks
from nodes.answer.extractive import build_extractive_answer
from nodes.answer.mapreduce import format_notes
from nodes.answer.prompts import ANSWER_USER_PROMPT, GROUNDING_SYSTEM_PROMPT, SURVEY_USER_PROMPT
from nodes.answer.runtime import generate_text
from nodes.answer.services import AnswerServices
from nodes.answer.state import AnswerState
from nodes.shared.citations import attach_trailing_citations
from nodes.shared.guardrails import redact_pii
from nodes.shared.strictness import render_prompt_instruction


def answer_messages(state: AnswerState) -> list[BaseMessage]:
    """System prompt with the grounding rules and the level's instruction, then blocks (or notes) and question."""
    policy = state["policy"]
    system = GROUNDING_SYSTEM_PROMPT.format(
        refusal_message=policy.refusal_message,
        strictness_instruction=render_prompt_instruction(
            policy.strictness, refusal_message=policy.refusal_message, disclaimer_message=policy.disclaimer_message
        ),
    )
    notes = state.get("notes") or []
    blocks = state["context_blocks"]
    if notes:
        user = SURVEY_USER_PROMPT.format(notes=format_notes(notes, blocks), question=state["question_for_model"])
    else:
        user = ANSWER_USER_PROMPT.format(blocks=format_blocks(blocks), question=state["question_for_model"])
    return [SystemMessage(system), HumanMessage(user)]


def tidy_model_answer(text: str, state: AnswerState) -> str:
    """Citations after the full stop move in front of it; personal data is redacted when pii is active."""
    text = attach_trailing_citations(text)
    return redact_pii(text) if "pii" in state.get("guardrail_flags", []) else text


def draft_answer(state: AnswerState, *, services: AnswerServices) -> dict[str, Any]:
    policy = state["policy"]
    if policy.provider == "extractive":
        answer = build_extractive_answer(
            state["question_for_model"],
            state.get("evidence", []),
            state["context_blocks"],
            state["conflicts"],
            features=state.get("answer_features"),
            premise=state.get("premise"),
        )
        return {"answer": answer}
    text, usage = generate_text(services, policy, answer_messages(state))
    return {"answer": tidy_model_answer(text, state), "token_usage": {"draft_answer": usage}}
