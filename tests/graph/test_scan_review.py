"""Human review through interrupt(), and scans that crash: nothing half-written, re-runs without duplicates."""

from __future__ import annotations

import pytest
from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from sqlalchemy import text

from nodes.scan.context import ScanContext
from nodes.scan.state import ScanReport
from nodes.shared.llm import ProviderRequestRejected
from nodes.shared.scripted_llm import ScriptedChatModel
from stores.scan.findings import FindingStore
from stores.sql.engine import Database
from tests.scan_support import (
    DETECTION_LIMIT,
    DOCTOR,
    SENSITIVITY,
    TRAIL,
    CriticVerdict,
    ScanEnv,
    critic,
    demo_env,
    reviewer,
    scan_graph,
    scan_input,
)

ISSUES = (SENSITIVITY, DETECTION_LIMIT, DOCTOR)
DOUBTFUL = {"Nachweisgrenze": CriticVerdict(confidence=0.6), "Arztbesuch": CriticVerdict(confidence=0.65)}


@pytest.fixture
def env(database: Database) -> ScanEnv:
    return demo_env(database)


def _count(database: Database, table: str) -> int:
    with database.transaction() as connection:
        return int(connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())


def test_reviewer_resolves_the_bucket_through_interrupt(env: ScanEnv) -> None:
    graph = scan_graph(env, reviewer(*ISSUES), critic(DOUBTFUL))
    config: RunnableConfig = {"configurable": {"thread_id": "review"}}
    context = ScanContext(human_review=True, reviewer="eva")

    paused = graph.invoke(scan_input(env), config, context=context)
    (pending,) = paused["__interrupt__"]
    items = {item["exact_quote"]: item for item in pending.value["findings"]}
    assert set(items) == {"Die Nachweisgrenze ist sehr niedrig", "Mit CoviQuick sparen Sie sich den Arztbesuch."}
    assert _count(env.database, "scans") == 0  # nothing is stored while the reviewer decides

    for wrong, problem in [
        ({"erfunden": "MAJOR"}, "Diese Befund-IDs stehen nicht zur Prüfung an: erfunden"),
        ("alles gut", "Prüfentscheidung unlesbar: erwartet {Befund-ID: MAJOR | MINOR | HINT | DISMISS}"),
    ]:
        asked_again = graph.invoke(Command(resume=wrong), config, context=context)["__interrupt__"][0]
        assert asked_again.value["problem"] == problem
        assert asked_again.value["findings"] == pending.value["findings"]

    decisions = {
        items["Die Nachweisgrenze ist sehr niedrig"]["finding_id"]: "MINOR",
        items["Mit CoviQuick sparen Sie sich den Arztbesuch."]["finding_id"]: "DISMISS",
    }
    report: ScanReport = graph.invoke(Command(resume=decisions), config, context=context)["report"]
    assert [(f.exact_quote, f.human_reviewed, f.reviewed_by) for f in report.findings["MINOR"]] == [
        ("Die Nachweisgrenze ist sehr niedrig", True, "eva")
    ]
    assert [f.exact_quote for f in report.findings["MAJOR"]] == ["Sensitivität: 96,4 %"]
    assert report.human_review == [] and report.counts.dismissed_in_review == 1
    assert _count(env.database, "findings") == 2
    assert FindingStore(env.database, trail=TRAIL).verify(report.audit_record()).valid


def test_without_review_the_bucket_is_reported_as_uncertain(env: ScanEnv) -> None:
    result = scan_graph(env, reviewer(*ISSUES), critic(DOUBTFUL)).invoke(
        scan_input(env), {"configurable": {"thread_id": "t"}}
    )
    assert "__interrupt__" not in result
    assert {f.severity for f in result["report"].human_review} == {"UNCERTAIN"}
    assert len(result["report"].human_review) == 2


def test_threshold_is_configurable(env: ScanEnv) -> None:
    graph = scan_graph(env, reviewer(*ISSUES), critic(DOUBTFUL))
    context = ScanContext(confidence_threshold=0.6)
    report = graph.invoke(scan_input(env), {"configurable": {"thread_id": "t"}}, context=context)["report"]
    assert report.human_review == [] and report.counts.major + report.counts.minor == 3


def _failing_critic() -> ScriptedChatModel:
    def refuse(_: list[BaseMessage]) -> str:
        raise ProviderRequestRejected("scripted", "Anfrage abgelehnt (HTTP 400)")

    return ScriptedChatModel(script=[refuse], repeat_last=True)


def test_crashed_scan_stores_nothing_and_reruns_without_duplicates(env: ScanEnv) -> None:
    with pytest.raises(ProviderRequestRejected):
        scan_graph(env, reviewer(*ISSUES), _failing_critic()).invoke(
            scan_input(env, "scan-1"), {"configurable": {"thread_id": "first"}}
        )
    assert (_count(env.database, "scans"), _count(env.database, "findings")) == (0, 0)

    for attempt in ("second", "third"):  # the same scan id again: stored once, the second run changes nothing
        report = scan_graph(env, reviewer(*ISSUES), critic()).invoke(
            scan_input(env, "scan-1"), {"configurable": {"thread_id": attempt}}
        )["report"]
    counts = (_count(env.database, "documents"), _count(env.database, "scans"), _count(env.database, "findings"))
    assert counts == (1, 1, 3)
    assert FindingStore(env.database, trail=TRAIL).verify(report.audit_record()).valid


def test_crashed_scan_resumes_from_its_checkpoint(env: ScanEnv) -> None:
    checkpointer = InMemorySaver()
    config: RunnableConfig = {"configurable": {"thread_id": "resume"}}
    finding_model = reviewer(*ISSUES)
    with pytest.raises(ProviderRequestRejected):
        scan_graph(env, finding_model, _failing_critic(), checkpointer).invoke(scan_input(env), config)
    calls_before = len(finding_model.calls)
    report = scan_graph(env, finding_model, critic(), checkpointer).invoke(None, config)["report"]
    assert len(finding_model.calls) == calls_before  # findings came from the checkpoint, not from new calls
    assert _count(env.database, "findings") == len(report.ordered_findings()) == 3


def test_a_decision_without_a_known_reviewer_is_asked_again(env: ScanEnv) -> None:
    graph = scan_graph(env, reviewer(*ISSUES), critic(DOUBTFUL))
    config: RunnableConfig = {"configurable": {"thread_id": "anonymous"}}
    context = ScanContext(human_review=True)
    (pending,) = graph.invoke(scan_input(env), config, context=context)["__interrupt__"]
    decision = {pending.value["findings"][0]["finding_id"]: "MINOR"}
    asked_again = graph.invoke(Command(resume=decision), config, context=context)["__interrupt__"][0]
    assert asked_again.value["problem"].startswith("Prüfer unbekannt")
    assert _count(env.database, "findings") == 0
