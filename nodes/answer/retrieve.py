"""retrieve_passages and assess_retrieval: fused multi-query search in the bot's KB, then the score gate."""

from __future__ import annotations

from datetime import date
from typing import Any, Final, Literal

import regex
from langgraph.runtime import Runtime

from nodes.answer.acts import named_acts, named_works, same_act, without_act
from nodes.answer.context import AnswerContext
from nodes.answer.runtime import context_of
from nodes.answer.services import AnswerServices, KnowledgeSearch
from nodes.answer.state import AnswerFeatures, AnswerState
from stores.kb.models import Hit
from stores.kb.store import KnowledgeBaseNotFound

# a year of a date or period („2025", „im Jahr 2024"), not a section („§ 2025") or part of an act's name („BDSG 2018")
_YEAR: Final = regex.compile(r"(?<!§\s?|Nr\.\s?|Art\.\s?|\p{Lu}\s)\b((?:19|20)\d{2})\b")
NAMED_ACT_HITS: Final = 3  # sections of an act the question names, searched for once more within it …
NAMED_ACT_POOL: Final = 6  # … the best of this many by their relevance to the whole question


def retrieve_passages(
    state: AnswerState, runtime: Runtime[AnswerContext], *, services: AnswerServices
) -> dict[str, Any]:
    """Search only the policy's KB for entries in force on the day asked about (the context's ``as_of``, by default
    today, or the one year the question names), and once more within an act the question names; when the planner
    names one stand year, entries of that year go first."""
    ctx = context_of(runtime)
    policy = state["policy"]
    planned = state["planned_queries"]
    limit = ctx.survey_retrieval_limit if state.get("question_type") == "survey" else ctx.retrieval_limit
    try:
        hits = services.knowledge_base.search(policy.kb_id, [p.text for p in planned], limit=limit)
        hits = _with_named_act_hits(services.knowledge_base, policy.kb_id, state["question_for_model"], hits)
    except KnowledgeBaseNotFound as exc:
        return {"error": str(exc), "hits": [], "conflicts": []}
    hits = _in_force(hits, _asked_period(state["question_for_model"]) or (ctx.as_of or date.today(),) * 2)
    years = {str(p.stand_year) for p in planned if p.stand_year is not None}
    if len(years) == 1:
        year = years.pop()
        hits = sorted(hits, key=lambda h: (h.cross_ref_extra, not h.stand.startswith(year), h.rank))
    return {"hits": hits, "conflicts": services.knowledge_base.conflicts(policy.kb_id)}


def _with_named_act_hits(knowledge_base: KnowledgeSearch, kb_id: str, question: str, hits: list[Hit]) -> list[Hit]:
    """The hits and the best sections of the act the question names, searched for within that act without its name:
    the name matches every section of the act about equally and crowds out the one the rest asks for („Wie hoch
    kann das Bußgeld nach dem Produktsicherheitsgesetz werden?" → § 28). An act none of the hits belongs to is
    looked up among the KB's works: its official title may share no word with the name the question uses
    („Medizinprodukterecht-Durchführungsgesetz" is the work „Gesetz zur Durchführung unionsrechtlicher
    Vorschriften betreffend Medizinprodukte", id MPDG)."""
    retrieved = [h for h in hits if not h.cross_ref_extra]
    present = {h.entry_id for h in hits}
    kb_works: dict[str, list[str]] | None = None
    for name in named_acts(question, retrieved):
        works = {h.work for h in retrieved if same_act(name, h)}
        if not works:
            kb_works = knowledge_base.works(kb_id) if kb_works is None else kb_works
            works = set(named_works(name, kb_works))
        if len(works) != 1:
            continue
        work = works.pop()
        among_act = any(h.work == work for h in retrieved)
        found = [
            h
            for h in knowledge_base.search(kb_id, [without_act(question, name)], limit=NAMED_ACT_POOL, work=work)
            if h.entry_id not in present and not h.cross_ref_extra
        ]
        # scored against the whole question like the other hits: the rest alone („Wie hoch kann ein Bußgeld
        # ausfallen?") says too little to score a section as relevant as it is, nor to rank the act's sections (UWG
        # § 20 „Bußgeldvorschriften" came fourth, after the Vertragsstrafe of § 13a)
        ids = [h.entry_id for h in found]
        whole = knowledge_base.search(kb_id, [question], limit=len(ids), entries=ids) if ids else []
        scores = {h.entry_id: h.score for h in whole}
        new = sorted(
            (h.model_copy(update={"score": max(h.score, scores.get(h.entry_id, 0.0))}) for h in found),
            key=lambda h: -h.score,
        )[:NAMED_ACT_HITS]
        for hit in new:
            # by relevance among the act's hits, so trimming to the prompt budget drops the tail, not this one; an
            # act none of the hits belongs to leads with its best section
            at = next((i for i, h in enumerate(retrieved) if h.work == work and h.score < hit.score), len(retrieved))
            retrieved.insert(0 if not among_act and hit is new[0] else at, hit)
            present.add(hit.entry_id)
    ordered = retrieved + [h for h in hits if h.cross_ref_extra]
    return [h.model_copy(update={"rank": rank}) for rank, h in enumerate(ordered, start=1)]


def _asked_period(question: str) -> tuple[date, date] | None:
    """The year a question asks about („Wie hoch war der Zuschuss 2025?"), where it names exactly one."""
    years = {int(y) for y in _YEAR.findall(question)}
    if len(years) != 1:
        return None
    year = years.pop()
    return date(year, 1, 1), date(year, 12, 31)


def _in_force(hits: list[Hit], period: tuple[date, date]) -> list[Hit]:
    """The hits whose entries are valid in the period asked about: a rule that ran out („Essenszuschuss (bis
    2025)") answers no question about today, one that starts later none about the past. Where no hit is valid
    then, all stay: the Stand line dates what the answer quotes."""
    current = [h for h in hits if h.in_force(*period)]
    return current or hits


def assess_retrieval(state: AnswerState) -> dict[str, Any]:
    """Nothing retrieved: refuse without further work. Whether the hits answer the question is decided by
    ``assess_answerability`` on their sentences."""
    if state.get("error"):
        return {}
    if not [h for h in state["hits"] if not h.cross_ref_extra]:
        policy = state["policy"]
        nothing = AnswerFeatures(
            outcome="unanswerable",
            key_terms=0,
            key_coverage=0.0,
            best_sentence_score=0.0,
            best_relevance=0.0,
            dense_similarity=None,
            sentences_used=0,
            blocks_used=0,
        )
        return {
            "answer": policy.refusal_message,
            "refused": True,
            "verified": True,
            "bucket": "refused",
            "answer_features": nothing,
        }
    return {"low_score_action": None}


def route_after_assess_retrieval(state: AnswerState) -> Literal["trim_context", "finalize_answer"]:
    return "finalize_answer" if state.get("refused") or state.get("error") else "trim_context"
