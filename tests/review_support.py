"""Open review items of all three graphs in one database: a withheld answer, two uncertain scan findings and a
borderline scorecard, each produced by its real graph in bucket mode (scripted models at the LLM boundary)."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from graphs.answer import build_answer_graph
from graphs.scorecard import build_scorecard
from nodes.answer.context import AnswerContext
from nodes.answer.services import StaticServices
from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.labelled_cases import load_labelled_cases, replay_judges
from nodes.shared.scripted_llm import ScriptedChatModel
from stores.kb.store import KnowledgeBase
from stores.sql.answers import AnswerRecordStore
from stores.sql.bots import BotStore
from stores.sql.engine import Database
from tests.brand_support import BRAND, DEMO_DIR, import_demo, services_for
from tests.graph.answer_fixtures import KB_ID, WEAK_CLAIM, tool_call
from tests.scan_support import (
    DETECTION_LIMIT,
    DOCTOR,
    DOUBTFUL,
    SENSITIVITY,
    critic,
    demo_env,
    reviewer,
    scan_graph,
    scan_input,
)

QUESTION = "Kann ich Urlaub auszahlen lassen?"
GOOD_ANSWER = (
    "Vollzeitbeschäftigte erhalten 30 Arbeitstage Erholungsurlaub pro Kalenderjahr (Stand 2026-01) [lb-url-01]."
)


def weak_critic() -> AIMessage:
    return tool_call("ClaimCheck", verdict="partially", confidence=0.4, reason="Auszahlung steht nicht im Block.")


def answer_services(database: Database, kb: KnowledgeBase) -> StaticServices:
    return StaticServices(knowledge_base=kb, bots=BotStore(database), answer_records=AnswerRecordStore(database))


def seed_answer(database: Database, kb: KnowledgeBase, question: str = QUESTION) -> None:
    services = answer_services(database, kb)
    services.model = ScriptedChatModel(script=[WEAK_CLAIM, weak_critic()])
    out = build_answer_graph(services).compile().invoke({"question": question}, context=AnswerContext(kb_id=KB_ID))
    assert out["bucket"] == "human_review"


def seed_scan(database: Database) -> None:
    env = demo_env(database)
    graph = scan_graph(env, reviewer(SENSITIVITY, DETECTION_LIMIT, DOCTOR), critic(DOUBTFUL))
    report = graph.invoke(scan_input(env), {"configurable": {"thread_id": "seed"}})["report"]
    assert len(report.human_review) == 2


def seed_scorecard(database: Database) -> None:
    import_demo(database)
    (case,) = [c for c in load_labelled_cases(DEMO_DIR / "texts.yaml") if c.id == "li-13-gate"]
    services = services_for(database, judge=replay_judges(case.judges))
    output = (
        build_scorecard(services).compile().invoke(case.scorecard_input(), context=ScorecardContext(brand_id=BRAND))
    )
    assert output["validation"].requires_owner_approval


def seed_all(database: Database, kb: KnowledgeBase) -> None:
    seed_answer(database, kb)
    seed_scan(database)
    seed_scorecard(database)
