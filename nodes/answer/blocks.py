"""How retrieved hits appear to the model: numbered context blocks with their header, text fenced as a quote."""

from __future__ import annotations

from collections.abc import Sequence

from nodes.answer.prompts import CONTEXT_BLOCK, EVIDENCE_BLOCK, QUOTE_MARKS
from stores.kb.models import Hit

NON_OFFICIAL_LABEL = " (nicht amtlich)"
CHARS_PER_TOKEN = 4  # rough estimate for German text; budgets are approximate by design


def work_label(hit: Hit) -> str:
    return hit.work + ("" if hit.official else NON_OFFICIAL_LABEL)


def format_block(number: int, hit: Hit) -> str:
    return CONTEXT_BLOCK.format(
        number=number,
        id=hit.entry_id,
        title=hit.title,
        section=hit.section or "–",
        stand=hit.stand,
        work=work_label(hit),
        text=quoted_text(hit.text),
    )


def quoted_text(text: str) -> str:
    """Text that cannot close (or open) a quote fence: fence characters in it become plain brackets."""
    opening, closing = QUOTE_MARKS
    return text.replace(opening, "[").replace(closing, "]")


def format_evidence(hit: Hit) -> str:
    """A hit as fenced evidence for the critic."""
    return EVIDENCE_BLOCK.format(id=hit.entry_id, text=quoted_text(evidence_text(hit)))


def format_blocks(hits: Sequence[Hit]) -> str:
    return "\n\n---\n\n".join(format_block(i, hit) for i, hit in enumerate(hits, 1))


def estimate_tokens(text: str) -> int:
    return len(text) // CHARS_PER_TOKEN + 1


def evidence_text(hit: Hit) -> str:
    """What a citation of this hit vouches for: its text plus header facts such as the stand."""
    return f"{hit.title} {hit.section} Stand {hit.stand} {hit.work}\n{hit.text}"
