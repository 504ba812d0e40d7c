"""trim_context: withhold instruction-like text from the blocks, then fit the prompt budget by dropping the
lowest-ranked whole blocks, never the system prompt."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from nodes.answer.blocks import estimate_tokens, format_block
from nodes.answer.context import AnswerContext
from nodes.answer.instructions import withhold_instructions
from nodes.answer.runtime import context_of
from nodes.answer.state import AnswerState


def trim_context(state: AnswerState, runtime: Runtime[AnswerContext]) -> dict[str, Any]:
    """Hits arrive ranked (cross-reference extras last), so the tail goes first; at least N blocks stay."""
    ctx = context_of(runtime)
    blocks, withheld = withhold_instructions(state["hits"])
    sizes = [estimate_tokens(format_block(i, hit)) for i, hit in enumerate(blocks, 1)]
    while len(blocks) > ctx.min_context_blocks and sum(sizes) > ctx.prompt_budget_tokens:
        blocks.pop()
        sizes.pop()
    return {"context_blocks": blocks, "n_context": len(blocks), "withheld_instructions": withheld}
