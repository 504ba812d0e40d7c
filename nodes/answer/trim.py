"""trim_context: withhold instruction-like text from the blocks, then fit the prompt budget by dropping the
lowest-ranked whole blocks, never the system prompt."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Send

from nodes.answer.blocks import estimate_tokens, format_block
from nodes.answer.context import AnswerContext
from nodes.answer.instructions import withhold_instructions
from nodes.answer.runtime import context_of
from nodes.answer.state import AnswerState, BlockGroupTask


def trim_context(state: AnswerState, runtime: Runtime[AnswerContext]) -> dict[str, Any]:
    """Hits arrive ranked (cross-reference extras last), so the tail goes first; at least N blocks stay."""
    ctx = context_of(runtime)
    blocks, withheld = withhold_instructions(state["hits"])
    sizes = [estimate_tokens(format_block(i, hit)) for i, hit in enumerate(blocks, 1)]
    while len(blocks) > ctx.min_context_blocks and sum(sizes) > ctx.prompt_budget_tokens:
        blocks.pop()
        sizes.pop()
    return {"context_blocks": blocks, "n_context": len(blocks), "withheld_instructions": withheld}


def route_after_trim_context(
    state: AnswerState, runtime: Runtime[AnswerContext]
) -> list[Send] | Literal["draft_answer"]:
    """Survey questions fan out over block groups (map step) when an LLM is there to distil them."""
    if state.get("question_type") != "survey" or state["policy"].provider == "extractive":
        return "draft_answer"
    size = context_of(runtime).map_group_size
    blocks = state["context_blocks"]
    return [
        Send(
            "summarize_blocks",
            BlockGroupTask(
                question_for_model=state["question_for_model"], blocks=blocks[i : i + size], policy=state["policy"]
            ),
        )
        for i in range(0, len(blocks), size)
    ]
