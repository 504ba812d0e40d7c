"""screen_input: reject unusable questions, flag guardrail topics, keep personal data away from the LLM."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from nodes.answer.context import AnswerContext
from nodes.answer.runtime import context_of
from nodes.answer.state import AnswerState
from nodes.shared.guardrails import PLACEHOLDER, detect_categories, redact_pii
from stores.text.casing import restore_case


def screen_input(state: AnswerState, runtime: Runtime[AnswerContext]) -> dict[str, Any]:
    if state.get("error"):
        return {}
    ctx = context_of(runtime)
    question = state["question"]
    voice = state["policy"].voice
    if not question.strip():
        return {"error": voice.empty_question}
    if len(question) > ctx.max_question_chars:
        return {"error": voice.question_too_long(len(question), ctx.max_question_chars)}
    flags = detect_categories(question, state["policy"].strictness.guardrail_categories)
    question_for_model = redact_pii(question.strip()) if "pii" in flags else question.strip()
    # the answer graph reads German nouns by their capitals: a question typed without them gets them back
    question_for_model = restore_case(question_for_model, keep=PLACEHOLDER)
    return {"guardrail_flags": flags, "question_for_model": question_for_model}


def route_after_screen_input(state: AnswerState) -> Literal["plan_queries", "finalize_answer"]:
    return "finalize_answer" if state.get("error") else "plan_queries"
