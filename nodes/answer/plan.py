"""plan_queries: a cheap gate first; only complex questions go to the LLM planner."""

from __future__ import annotations

import logging
from typing import Any

import regex
import simplemma
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field, ValidationError

from nodes.answer.context import AnswerContext
from nodes.answer.premise import QUESTION_WORD
from nodes.answer.prompts import PLANNER_SYSTEM_PROMPT
from nodes.answer.runtime import context_of, usage_of
from nodes.answer.services import AnswerServices
from nodes.answer.state import AnswerState, PlannedQuery, QuestionType
from nodes.shared.llm import ProviderError, provider_errors

log = logging.getLogger(__name__)

# „alle fünf Jahre", „alle 2 Wochen" say how often, not that all of something is asked for
_SURVEY = regex.compile(
    r"(?i)\b(?:überblick|übersicht|alle\b(?!\s+\S+\s+\p{L}*(?:jahre|monate|wochen|tage|stunden)\b)|sämtliche|"
    r"welche\s+arten|arten\s+von|liste\b)"
)
# „Welche Strafen gibt es …" asks for a list, „Welche Strafe gibt es …" for one fact: the noun's number decides.
_WHICH_EXIST = regex.compile(r"(?i)\bwelche\s+((?:\w+\s+){1,3}?)(?:gibt|existieren)\b")
# Nouns whose lemma ends like this may be plurals already (Mittel, Fehler, Kosten): read as a list.
_ZERO_PLURAL_ENDING = regex.compile(r"(?:el|er|en)$")
_DECISION = regex.compile(
    r"(?i)\b(?:lohnt\s+sich|besser|günstig(?:er|ste\w*)|optimal\w*|vorteilhaft\w*|"
    r"(?:soll|sollte)\s+ich|vergleich\w*|unterschied\w*|entweder)\b"
)
LONG_QUESTION_WORDS = 25


class QueryPlan(BaseModel):
    """Structured planner output."""

    question_type: QuestionType = Field(description="specific | survey | decision")
    queries: list[PlannedQuery] = Field(description="Eigenständige deutsche Suchanfragen")


def classify_question(question: str) -> tuple[bool, QuestionType]:
    """(needs the LLM planner, heuristic question type)."""
    if _SURVEY.search(question) or _asks_which_exist(question):
        return True, "survey"
    if _DECISION.search(question):
        return True, "decision"
    multi_part = question.count("?") > 1 or len(QUESTION_WORD.findall(question)) > 1
    return multi_part or len(question.split()) > LONG_QUESTION_WORDS, "specific"


def _asks_which_exist(question: str) -> bool:
    """„Welche <Nomen> gibt es/existieren …" with a plural noun (or one that may be plural)."""
    found = _WHICH_EXIST.search(question)
    if found is None:
        return False
    if found.group(0).lower().endswith("existieren"):
        return True
    words = found.group(1).split()
    noun = next((w for w in words if w[0].isupper()), words[-1])
    noun = noun[0].upper() + noun[1:]  # as a noun even where the user writes in lower case
    return simplemma.lemmatize(noun, lang="de") != noun or _ZERO_PLURAL_ENDING.search(noun) is not None


def plan_queries(state: AnswerState, runtime: Runtime[AnswerContext], *, services: AnswerServices) -> dict[str, Any]:
    question = state["question_for_model"]
    policy = state["policy"]
    needs_planner, heuristic_type = classify_question(question)
    plain = {"planned_queries": [PlannedQuery(text=question)], "question_type": heuristic_type}
    model = services.chat_model(policy.provider, policy.strictness, model=policy.model) if needs_planner else None
    if model is None:
        return plain
    ctx = context_of(runtime)
    messages = [
        SystemMessage(PLANNER_SYSTEM_PROMPT.format(max_queries=ctx.max_sub_queries)),
        HumanMessage(question),
    ]
    try:
        with provider_errors(policy.provider):
            result = model.with_structured_output(QueryPlan, include_raw=True).invoke(messages)
    except (ProviderError, ValueError, ValidationError) as exc:
        log.warning("planner failed, falling back to the plain question: %s", exc)
        return plain
    assert isinstance(result, dict)
    raw = result.get("raw")
    usage = {"plan_queries": usage_of(raw)} if isinstance(raw, AIMessage) else {}
    plan = result.get("parsed")
    if not isinstance(plan, QueryPlan) or not plan.queries:
        log.warning("planner returned no usable plan: %s", result.get("parsing_error"))
        return {**plain, "token_usage": usage}
    queries = [PlannedQuery(text=question)]  # the question itself keeps its own wording in the search
    for planned in plan.queries:
        if planned.text.strip() and planned.text.strip() not in {q.text for q in queries}:
            queries.append(PlannedQuery(text=planned.text.strip(), stand_year=planned.stand_year))
    return {
        "planned_queries": queries[: ctx.max_sub_queries + 1],
        "question_type": plan.question_type,
        "token_usage": usage,
    }
