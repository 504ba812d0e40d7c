"""The no-LLM answer: verbatim sentences of the best blocks, each cited, plus declared conflicts."""

from __future__ import annotations

from collections.abc import Sequence

from nodes.answer.prompts import CONFLICT_NOTICE, CONFLICT_SIDE, EXTRACTIVE_INTRO, NON_OFFICIAL_NOTICE
from stores.kb.models import Hit, KBConflict
from stores.text import sentence_texts
from stores.vector.analyzer import analyze

MAX_BLOCKS = 3
MAX_SENTENCES_PER_BLOCK = 2


def build_extractive_answer(question: str, blocks: Sequence[Hit], conflicts: Sequence[KBConflict]) -> str:
    """Pick the sentences that share most terms with the question from each of the best blocks."""
    question_terms = set(analyze(question))
    picks = [(hit, _best_sentences(hit.text, question_terms)) for hit in blocks if not hit.cross_ref_extra]
    if not picks:
        return ""
    floor = max(1, picks[0][1][0] // 2)  # a block joins only if it matches at least half as well as the best
    chosen = [picks[0]] + [(hit, best) for hit, best in picks[1:] if best[0] >= floor]
    chosen = chosen[:MAX_BLOCKS]
    lines = [EXTRACTIVE_INTRO]
    for hit, (_, sentences) in chosen:
        for sentence in sentences:
            body = _neutral_brackets(sentence).rstrip(" .!?")
            lines.append(f"- {body} (Stand {hit.stand}) [{hit.entry_id}].")
    used = {hit.entry_id for hit, _ in chosen}
    for conflict in conflicts:
        if set(conflict.ids) <= used:
            lines += ["", CONFLICT_NOTICE.format(topic=conflict.topic)]
            lines += [conflict_side_line(conflict, i) for i in conflict.ids]
    unofficial = [hit.entry_id for hit, _ in chosen if not hit.official]
    if unofficial:
        lines += ["", NON_OFFICIAL_NOTICE.format(ids=", ".join(f"[{i}]" for i in unofficial))]
    return "\n".join(lines)


def conflict_side_line(conflict: KBConflict, entry_id: str) -> str:
    """One side of a declared conflict, in the KB's own neutral words, cited."""
    return CONFLICT_SIDE.format(description=conflict.sides[entry_id].rstrip(" ."), id=entry_id)


def _best_sentences(text: str, question_terms: set[str]) -> tuple[int, list[str]]:
    """(best overlap with the question, the block's best sentences in their original order)."""
    sentences = [s for s in sentence_texts(text) if len(s) > 1]
    if not sentences:
        return 0, []
    overlap = [len(question_terms & set(analyze(s))) for s in sentences]
    ranked = sorted(range(len(sentences)), key=lambda i: (-overlap[i], i))
    picked = [i for i in ranked[:MAX_SENTENCES_PER_BLOCK] if overlap[i] > 0] or [0]
    return overlap[ranked[0]], [sentences[i].lstrip("-•* ") for i in sorted(picked)]


def _neutral_brackets(sentence: str) -> str:
    """Square brackets inside KB text (cross-references) would read as citations; make them round."""
    return sentence.replace("[", "(").replace("]", ")")
