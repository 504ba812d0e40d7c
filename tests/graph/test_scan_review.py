"""Human review through interrupt(), and scans that crash: nothing half-written, re-runs without duplicates."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command
from sqlalchemy import text

from nodes.scan.context import ScanContext
from nodes.scan.review import REVIEWER_MISSING
from nodes.scan.state import ScanReport
from nodes.shared.llm import ProviderRequestRejected
from nodes.shared.scripted_llm import ScriptedChatModel
from stores.scan.findings import FindingStore
from stores.sql.engine import Database
from tests.scan_support import (
    DETECTION_LIMIT,
    DOCTOR,
    DOUBTFUL,
    SENSITIVITY,
    TRAIL,
    ScanEnv,
    critic,
    demo_env,
    reviewer,
    scan_graph,
    scan_input,
)

ISSUES = (SENSITIVITY, DETECTION_LIMIT, DOCTOR)


@pytest.fixture
def env(database: Database) -> ScanEnv:
    return demo_env(database)


def _count(database: Database, table: str) -> int:
    with database.transaction() as connection:
        return int(connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())


def _pending_request(graph: CompiledStateGraph[Any, Any, Any, Any], config: RunnableConfig) -> dict[str, Any]:
    (pending,) = graph.get_state(config).interrupts
    (request,) = pending.value
    return dict(request)


def _edit(reviewer: str | None = "eva", **changes: str) -> list[dict[str, Any]]:
    return [{"type": "edit", "args": {"action": "Befund übernehmen", "args": changes}, "reviewer": reviewer}]


def test_reviewer_resolves_the_bucket_through_interrupt(env: ScanEnv) -> None:
    graph = scan_graph(env, reviewer(*ISSUES), critic(DOUBTFUL))
    config: RunnableConfig = {"configurable": {"thread_id": "review"}}
    context = ScanContext(review="interrupt")

    graph.invoke(scan_input(env), config, context=context)
    first = _pending_request(graph, config)
    assert first["config"] == {"allow_ignore": True, "allow_respond": True, "allow_edit": True, "allow_accept": True}
    assert first["action_request"]["args"]["exact_quote"] == "Die Nachweisgrenze ist sehr niedrig"
    assert "### Textstelle (Seite 2)" in first["description"] and "### Grund der Prüfung" in first["description"]
    assert _count(env.database, "scans") == 0  # nothing is stored while the reviewer decides

    graph.invoke(Command(resume="alles gut"), config, context=context)
    assert _pending_request(graph, config)["action_request"]["args"]["violations"][0].startswith("Antwort unlesbar")
    graph.invoke(Command(resume=_edit(exact_quote="Die Nachweisgrenze ist winzig")), config, context=context)
    refused = _pending_request(graph, config)["action_request"]["args"]
    assert refused["violations"] == ["Zitat abgelehnt: Zitat steht nicht wörtlich auf der angegebenen Seite"]
    assert refused["exact_quote"] == "Die Nachweisgrenze ist sehr niedrig"
    graph.invoke(
        Command(resume=_edit(severity="MINOR", exact_quote="Nachweisgrenze ist sehr niedrig")), config, context=context
    )
    second = _pending_request(graph, config)["action_request"]["args"]
    assert second["exact_quote"] == "Mit CoviQuick sparen Sie sich den Arztbesuch."
    report: ScanReport = graph.invoke(Command(resume=[{"type": "ignore", "args": None}]), config, context=context)[
        "report"
    ]
    assert [(f.exact_quote, f.human_reviewed, f.reviewed_by) for f in report.findings["MINOR"]] == [
        ("Nachweisgrenze ist sehr niedrig", True, "eva")
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


def test_a_kept_finding_without_a_named_reviewer_is_asked_again(env: ScanEnv) -> None:
    graph = scan_graph(env, reviewer(*ISSUES), critic(DOUBTFUL))
    config: RunnableConfig = {"configurable": {"thread_id": "anonymous"}}
    context = ScanContext(review="interrupt")
    graph.invoke(scan_input(env), config, context=context)
    graph.invoke(Command(resume=_edit(reviewer=None, severity="MINOR")), config, context=context)
    assert _pending_request(graph, config)["action_request"]["args"]["violations"] == [REVIEWER_MISSING]
    assert _count(env.database, "findings") == 0


def test_a_resumed_review_keeps_the_threshold_the_buckets_were_assigned_with(env: ScanEnv) -> None:
    graph = scan_graph(env, reviewer(*ISSUES), critic(DOUBTFUL))
    config: RunnableConfig = {"configurable": {"thread_id": "threshold"}}
    graph.invoke(scan_input(env), config, context=ScanContext(review="interrupt", confidence_threshold=0.62))
    assert _pending_request(graph, config)["action_request"]["args"]["reason"].startswith(
        "Konfidenz 0.60 liegt unter der Schwelle 0.62."
    )
    accepted = [{"type": "accept", "args": None, "reviewer": "eva"}]
    report = graph.invoke(Command(resume=accepted), config)["report"]  # no context
    assert report.confidence_threshold == 0.62 and report.counts.major + report.counts.minor == 3
    assert FindingStore(env.database, trail=TRAIL).verify(report.audit_record()).valid
