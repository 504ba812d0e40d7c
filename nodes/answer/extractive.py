"""The no-LLM answer: the chosen KB sentences verbatim, each cited, the direct fact first.

Each source's Stand is given once, after the sentences, and each date once with the ids it holds for. A false
premise opens with its correction; sentences whose values disagree are shown under ⚠; declared conflicts get
their neutral sides; missing context ends the answer with the follow-up question (added by ``finalize_answer``
after any notice).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from nodes.answer.prompts import (
    CONFLICT_NOTICE,
    CONFLICT_SIDE,
    CONTRADICTION_NOTICE,
    NON_OFFICIAL_NOTICE,
    PREMISE_CORRECTION,
    STAND_LINE,
)
from nodes.answer.state import AnswerFeatures, EvidenceSentence, PremiseCorrection
from nodes.answer.validate import conflict_applies
from stores.kb.models import Hit, KBConflict
from stores.text import split_sentences


def build_extractive_answer(
    question: str,
    evidence: Sequence[EvidenceSentence],
    blocks: Sequence[Hit],
    conflicts: Sequence[KBConflict],
    *,
    features: AnswerFeatures | None = None,
    premise: PremiseCorrection | None = None,
) -> str:
    if not evidence:
        return ""
    by_id = {hit.entry_id: hit for hit in blocks}
    sentences = [cite(e.text, e.entry_id) for e in evidence]
    lines: list[str] = []
    if premise is not None:
        lines.append(PREMISE_CORRECTION.format(asked=premise.asked, stated=premise.stated, id=premise.entry_id))
        lines += sentences
    elif features is not None and features.contradiction:
        lines += [CONTRADICTION_NOTICE, *(f"- {s}" for s in sentences)]
    elif len(sentences) == 1:
        lines += sentences
    else:
        lines += _bullets(evidence, sentences)
    used = list(dict.fromkeys(e.entry_id for e in evidence))
    for conflict in conflicts:
        if conflict_applies(conflict, question, set(by_id), set(used)):
            lines += ["", CONFLICT_NOTICE.format(topic=conflict.topic)]
            lines += [conflict_side_line(conflict, i) for i in conflict.ids]
            used += [i for i in conflict.ids if i not in used]
    lines += ["", STAND_LINE.format(stands=stands([by_id[i] for i in used if i in by_id]))]
    unofficial = [i for i in used if i in by_id and not by_id[i].official]
    if unofficial:
        lines.append(NON_OFFICIAL_NOTICE.format(ids=", ".join(f"[{i}]" for i in unofficial)))
    return "\n".join(lines)


def _bullets(evidence: Sequence[EvidenceSentence], sentences: Sequence[str]) -> list[str]:
    """One bullet per sentence; rows of one table that follow each other stand under their caption, once: the
    caption as the answer's lead line where they are all it says („Es gelten folgende Fristen [id]:"), else as a
    bullet of its own with the rows nested below it."""
    groups = [
        list(group)
        for _, group in groupby(zip(evidence, sentences, strict=True), key=lambda p: (p[0].caption, p[0].entry_id))
    ]
    lines: list[str] = []
    for group in groups:
        first = group[0][0]
        if not first.caption or len(group) == 1:
            lines += [f"- {sentence}" for _, sentence in group]
            continue
        rows = [cite(e.row, e.entry_id) for e, _ in group]
        if len(groups) == 1:
            return [f"{first.caption} [{first.entry_id}]:", *(f"- {row}" for row in rows)]
        lines += [f"- {first.caption} [{first.entry_id}]:", *(f"  - {row}" for row in rows)]
    return lines


def stands(sources: Sequence[Hit]) -> str:
    """Each date once with the ids it holds for: ``2022-03 [GG Art95, GG Art94], 2026-01 [lb-url-01]``."""
    by_stand: dict[str, list[str]] = {}
    for hit in sources:
        by_stand.setdefault(hit.stand, []).append(hit.entry_id)
    return ", ".join(f"{stand} [{', '.join(ids)}]" for stand, ids in by_stand.items())


def cite(text: str, entry_id: str) -> str:
    """The citation goes in front of each sentence's final punctuation: ``… Kalenderjahr [lb-url-01].`` An
    evidence unit may hold two sentences (one that points back reads with the one before it), and every sentence
    of an answer needs its citation."""
    return " ".join(_cite_sentence(s.clean, entry_id) for s in split_sentences(text)) or _cite_sentence(text, entry_id)


def _cite_sentence(sentence: str, entry_id: str) -> str:
    body = sentence.rstrip()
    if body and body[-1] in ".!?":
        return f"{body[:-1].rstrip()} [{entry_id}]{body[-1]}"
    return f"{body} [{entry_id}]."


def conflict_side_line(conflict: KBConflict, entry_id: str) -> str:
    """One side of a declared conflict, in the KB's own neutral words, cited."""
    return CONFLICT_SIDE.format(description=conflict.sides[entry_id].rstrip(" ."), id=entry_id)
