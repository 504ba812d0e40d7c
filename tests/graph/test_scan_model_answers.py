"""What the scan does with bad model answers: schema violations get one retry, fabricated quotes are refused."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage
from sqlalchemy import text

from nodes.scan.clauses import prepare_catalog, retrieve_clauses
from nodes.scan.findings import NO_CLAUSES
from nodes.scan.prompts import SCHEMA_RETRY
from nodes.scan.services import StaticScanServices
from nodes.scan.state import Chunk, ScanReport, ScanState, Segment
from nodes.shared.scripted_llm import ScriptedChatModel
from stores.scan.catalog import CatalogStore
from stores.scan.clause_index import ClauseIndex
from stores.settings import StoreSettings
from stores.sql.engine import Database
from stores.vector.qdrant import memory_engine
from tests.scan_support import (
    TRAIL,
    ScanEnv,
    allowed_ids,
    critic,
    demo_env,
    prompt_pages,
    scan_graph,
    scan_input,
    tool_call,
)

ONE_PAGE = "# Leistungsdaten\n\nSensitivität: 96,4 % bei 250 Proben.\nDie Nachweisgrenze ist sehr niedrig.\n"
QUOTE = "Sensitivität: 96,4 %"


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    return sqlite_url  # model answers, not SQL dialects: the conftest database on SQLite only


def _env(database: Database, tmp_path: Path, content: str = ONE_PAGE) -> ScanEnv:
    path = tmp_path / "dokument.md"
    path.write_text(content, encoding="utf-8")
    return demo_env(database, document=path)


def _good(prompt: str) -> dict[str, Any]:
    return {
        "requirement_id": allowed_ids(prompt)[0],
        "exact_quote": QUOTE,
        "page_number": 1,
        "severity": "MAJOR",
        "confidence": 0.9,
        "finding_text": "Konfidenzintervall fehlt.",
    }


def _answer(
    change: Callable[[dict[str, Any], str], dict[str, Any] | AIMessage],
) -> Callable[[list[BaseMessage]], AIMessage]:
    def step(messages: list[BaseMessage]) -> AIMessage:
        prompt = str(messages[1].content)
        changed = change(_good(prompt), prompt)
        return changed if isinstance(changed, AIMessage) else tool_call("record_finding", {"findings": [changed]})

    return step


def _outside_ids(prompt: str) -> str:
    offered = set(allowed_ids(prompt))
    return next(f"DEMO-LA-1.{n}" for n in range(1, 10) if f"DEMO-LA-1.{n}" not in offered)


BAD_ANSWERS: dict[str, Callable[[dict[str, Any], str], dict[str, Any] | AIMessage]] = {
    "id_outside_the_five": lambda f, p: f | {"requirement_id": _outside_ids(p)},
    "invented_id": lambda f, p: f | {"requirement_id": "IVDR-ANNEX-I-9.1-a"},
    "missing_quote": lambda f, p: {k: v for k, v in f.items() if k != "exact_quote"},
    "missing_page": lambda f, p: {k: v for k, v in f.items() if k != "page_number"},
    "page_out_of_range": lambda f, p: f | {"page_number": 99},
    "quote_too_short": lambda f, p: f | {"exact_quote": "96,4 %"},
    "confidence_above_one": lambda f, p: f | {"confidence": 1.5},
    "unknown_severity": lambda f, p: f | {"severity": "CRITICAL"},
    "extra_field": lambda f, p: f | {"quelle": "Studie"},
    "no_tool_call": lambda f, p: AIMessage(content="Ich sehe keine Probleme."),
    "other_tool": lambda f, p: tool_call("note_finding", {"findings": [f]}),
}


def _run(env: ScanEnv, finding_model: ScriptedChatModel, critic_model: ScriptedChatModel | None = None) -> ScanReport:
    graph = scan_graph(env, finding_model, critic_model or critic())
    result = graph.invoke(scan_input(env), {"configurable": {"thread_id": "t"}})
    report: ScanReport = result["report"]
    return report


@pytest.mark.parametrize("bad", list(BAD_ANSWERS))
def test_schema_violation_gets_one_retry(database: Database, tmp_path: Path, bad: str) -> None:
    model = ScriptedChatModel(script=[_answer(BAD_ANSWERS[bad]), _answer(lambda f, p: f)])
    report = _run(_env(database, tmp_path), model)
    assert [f.exact_quote for f in report.findings["MAJOR"]] == [QUOTE]
    assert len(model.calls) == 2
    retry_prompt = str(model.calls[1][-1].content)
    assert retry_prompt.startswith(SCHEMA_RETRY.split("{problem}")[0])
    assert report.counts.chunks_not_assessed == 0


@pytest.mark.parametrize("bad", ["id_outside_the_five", "missing_quote", "page_out_of_range", "no_tool_call"])
def test_second_schema_violation_leaves_the_chunk_not_assessed(database: Database, tmp_path: Path, bad: str) -> None:
    model = ScriptedChatModel(script=[_answer(BAD_ANSWERS[bad])], repeat_last=True)
    report = _run(_env(database, tmp_path), model)
    assert len(model.calls) == 2
    assert report.ordered_findings() == []
    assert [(n.chunk_id, n.pages) for n in report.not_assessed] == [("c0001", (1,))]
    assert report.not_assessed[0].reason.startswith("Antwort zweimal nicht schemagerecht")
    with database.transaction() as connection:
        assert connection.execute(text("SELECT count(*) FROM findings")).scalar_one() == 0


def test_the_enum_offered_is_exactly_the_retrieved_clauses(database: Database, tmp_path: Path) -> None:
    """The tool schema the model sees lists the chunk's five IDs and its pages, nothing else."""
    seen: list[dict[str, Any]] = []

    class Recording(ScriptedChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:
            seen.append(tools[0].model_json_schema())
            return self

    model = Recording(script=[_answer(lambda f, p: f)], repeat_last=True)
    report = _run(_env(database, tmp_path), model)
    finding = seen[0]["$defs"]["Finding"]
    offered = allowed_ids(str(model.calls[0][1].content))
    assert len(offered) == 5 and finding["properties"]["requirement_id"]["enum"] == offered
    assert finding["properties"]["page_number"]["enum"] == [1]
    assert finding["properties"]["exact_quote"]["minLength"] == 10
    assert set(finding["required"]) == {
        "requirement_id",
        "exact_quote",
        "page_number",
        "severity",
        "confidence",
        "finding_text",
    }
    assert report.counts.major == 1


def test_quote_from_the_other_page_of_a_two_page_chunk_is_refused(database: Database, tmp_path: Path) -> None:
    env = _env(database, tmp_path, "Sensitivität: 96,4 %\n\f\nKlinisch bewiesen und 100 % sicher.\n")

    def misattributed(f: dict[str, Any], prompt: str) -> dict[str, Any]:
        assert sorted(prompt_pages(prompt)) == [1, 2]
        return f | {"page_number": 2}

    report = _run(env, ScriptedChatModel(script=[_answer(misattributed)]))
    assert [(r.page_number, r.reason) for r in report.rejected_quotes] == [
        (2, "Zitat steht nicht wörtlich auf der angegebenen Seite")
    ]
    assert report.ordered_findings() == [] and report.counts.llm_calls == 1


def test_chunk_without_matching_clause_is_reported_not_assessed(database: Database, tmp_path: Path) -> None:
    env = _env(database, tmp_path, "Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n")
    model = ScriptedChatModel(script=[])
    report = _run(env, model)
    assert [n.reason for n in report.not_assessed] == [NO_CLAUSES]
    assert model.calls == [] and report.counts.llm_calls == 0


def test_a_catalogue_missing_from_qdrant_is_reindexed_before_retrieval(database: Database, tmp_path: Path) -> None:
    env = _env(database, tmp_path)
    wiped = replace(env, clauses=ClauseIndex.from_settings(StoreSettings(), engine=memory_engine(), embedder=None))
    assert not wiped.clauses.is_current(env.version.id)
    report = _run(wiped, ScriptedChatModel(script=[_answer(lambda f, p: f)]))
    assert wiped.clauses.is_current(env.version.id) and report.counts.major == 1


class _ReadOnlyClauses:
    """The clause index as retrieval may use it: searching works, any write fails the test."""

    def __init__(self, index: ClauseIndex) -> None:
        self._index = index

    def is_current(self, version_id: int) -> bool:
        return self._index.is_current(version_id)

    def index_version(self, version: Any, requirements: Any) -> None:
        raise AssertionError("retrieval must not write to the index")

    def search(self, version_id: int, text: str, *, limit: int) -> list[int]:
        return self._index.search(version_id, text, limit=limit)


def test_retrieval_only_reads_the_index_once_prepared(database: Database, tmp_path: Path) -> None:
    env = _env(database, tmp_path)
    services = StaticScanServices.on_database(
        database,
        env.clauses,
        finding_model=ScriptedChatModel(script=[]),
        critic_model=ScriptedChatModel(script=[]),
        audit_trail=TRAIL,
    )
    services.clauses = _ReadOnlyClauses(env.clauses)
    given = scan_input(env)
    state = ScanState(scan_id=given["scan_id"], document_id=given["document_id"], catalog_version_id=env.version.id)
    prepared = prepare_catalog(state, services=services)
    chunk = Chunk(chunk_id="c0001", segments=(Segment(page_number=1, text=QUOTE),))
    found = retrieve_clauses(ScanState(**state, catalog=prepared["catalog"], chunks=[chunk]), services=services)
    assert prepared["catalog"].id == env.version.id
    assert found["clauses"]["c0001"]


def test_critic_that_breaks_the_schema_twice_sends_the_finding_to_review(database: Database, tmp_path: Path) -> None:
    broken_critic = ScriptedChatModel(script=[AIMessage(content="Passt schon.")], repeat_last=True)
    report = _run(_env(database, tmp_path), ScriptedChatModel(script=[_answer(lambda f, p: f)]), broken_critic)
    assert [(f.severity, f.proposed_severity) for f in report.human_review] == [("UNCERTAIN", "MAJOR")]
    assert report.human_review[0].critic_note.startswith("Kritik nicht auswertbar")
    assert len(broken_critic.calls) == 2


def test_a_catalogue_without_active_requirements_stops_the_scan(database: Database, tmp_path: Path) -> None:
    catalog = tmp_path / "alt.jsonl"
    catalog.write_text(
        '{"stable_id": "ALT-1", "clause_path": "A", "title": "T", "requirement_text": "R",'
        ' "clause_status": "RETIRED"}\n',
        encoding="utf-8",
    )
    path = tmp_path / "dokument.md"
    path.write_text(ONE_PAGE, encoding="utf-8")
    env = demo_env(database, document=path, catalog=catalog)
    assert CatalogStore(database).get_version(env.version.id).active_count == 0
    with pytest.raises(ValueError, match="hat keine aktiven Anforderungen"):
        _run(env, ScriptedChatModel(script=[]))
    with database.transaction() as connection:
        assert connection.execute(text("SELECT count(*) FROM scans")).scalar_one() == 0
