"""summarize_blocks: the map step for survey questions; bullets that lose their citation are dropped."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from nodes.answer.blocks import format_blocks, quoted_text, work_label
from nodes.answer.prompts import ANSWER_USER_PROMPT, MAP_SYSTEM_PROMPT, NOTE_BLOCK
from nodes.answer.runtime import generate_text
from nodes.answer.services import AnswerServices
from nodes.answer.state import BlockGroupTask, BlockNote
from nodes.shared.citations import cited_ids
from stores.kb.models import Hit


def summarize_blocks(task: BlockGroupTask, *, services: AnswerServices) -> dict[str, Any]:
    blocks = task["blocks"]
    messages = [
        SystemMessage(MAP_SYSTEM_PROMPT),
        HumanMessage(ANSWER_USER_PROMPT.format(blocks=format_blocks(blocks), question=task["question_for_model"])),
    ]
    text, usage = generate_text(services, task["policy"], messages)
    return {"notes": distill_notes(text, blocks), "token_usage": {"summarize_blocks": usage}}


def distill_notes(text: str, blocks: list[Hit]) -> list[BlockNote]:
    """Keep bullets that cite exactly one block of this group; the citation is what the reduce step needs."""
    by_block: dict[str, list[str]] = {hit.entry_id: [] for hit in blocks}
    for line in text.splitlines():
        bullet = line.strip()
        if not bullet.startswith(("-", "•", "*")):
            continue
        ids = cited_ids(bullet)
        if len(ids) == 1 and ids[0] in by_block and len(by_block[ids[0]]) < 3:
            by_block[ids[0]].append(bullet.lstrip("-•* ").strip())
    return [BlockNote(entry_id=entry_id, bullets=tuple(b)) for entry_id, b in by_block.items() if b]


def format_notes(notes: list[BlockNote], blocks: list[Hit]) -> str:
    """Notes in block order, each under its block's header facts (stand, work, official or not)."""
    by_id = {hit.entry_id: hit for hit in blocks}
    parts = []
    for note in sorted(notes, key=lambda n: [h.entry_id for h in blocks].index(n.entry_id)):
        hit = by_id[note.entry_id]
        bullets = quoted_text("\n".join(f"- {bullet}" for bullet in note.bullets))
        parts.append(
            NOTE_BLOCK.format(id=hit.entry_id, title=hit.title, stand=hit.stand, work=work_label(hit), bullets=bullets)
        )
    return "\n\n".join(parts)
