"""regenerate_answer (the one second chance) and withhold_answer (when that chance is spent)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage

from nodes.answer.draft import answer_messages, tidy_model_answer
from nodes.answer.prompts import REGENERATE_FEEDBACK
from nodes.answer.runtime import generate_text
from nodes.answer.services import AnswerServices
from nodes.answer.state import AnswerState


def regenerate_answer(state: AnswerState, *, services: AnswerServices) -> dict[str, Any]:
    """Show the model its draft, what was wrong and which IDs it may cite."""
    policy = state["policy"]
    allowed = ", ".join(f"[{hit.entry_id}]" for hit in state["context_blocks"])
    feedback = REGENERATE_FEEDBACK.format(
        violations="\n".join(f"- {v}" for v in state["violations"]),
        allowed_ids=allowed,
        refusal_message=policy.refusal_message,
    )
    messages = [*answer_messages(state), AIMessage(state["answer"]), HumanMessage(feedback)]
    text, usage = generate_text(services, policy, messages)
    return {
        "answer": tidy_model_answer(text, state),
        "regenerations": state.get("regenerations", 0) + 1,
        "token_usage": {"regenerate_answer": usage},
    }


def withhold_answer(state: AnswerState) -> dict[str, Any]:
    """The draft stays in the record for audit; the user gets the uncertain sentence."""
    return {
        "draft": state["answer"],
        "answer": state["policy"].uncertain_message,
        "refused": True,
        "verified": False,
        "bucket": "refused",
    }
