"""The scan graph end to end on real stores, with scripted models at the LLM boundary."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from nodes.scan.context import ScanContext
from nodes.scan.state import ScanReport
from stores.scan.findings import FindingStore
from stores.sql.engine import Database
from tests.scan_support import (
    DETECTION_LIMIT,
    DOCTOR,
    SENSITIVITY,
    TRAIL,
    CriticVerdict,
    PlantedIssue,
    ScanEnv,
    critic,
    demo_env,
    reviewer,
    scan_graph,
    scan_input,
)

ABSOLUTE = PlantedIssue(
    "CoviQuick ist 100 % sicher – das Ergebnis ist garantiert richtig.",
    "DEMO-WB-3.1",
    "MAJOR",
    0.95,
    "Absolutes Versprechen.",
)
FEAR = PlantedIssue("Testen Sie sich deshalb jeden Tag", "DEMO-WB-3.4", "HINT", 0.6, "Angstwerbung.")
FABRICATED = PlantedIssue(
    "Sensitivität: 99,9 % laut unabhängiger Studie", "DEMO-LA-1.1", "MAJOR", 0.99, "Erfunden.", anchor="Sensitivität"
)
CRITIC_VERDICTS = {
    "Arztbesuch": CriticVerdict(severity="MINOR", confidence=0.75, note="Eher Lücke als Verstoß."),
    "Nachweisgrenze": CriticVerdict(confidence=0.5, note="Unklar, ob Wert anderswo steht."),
    "jeden Tag": CriticVerdict(supported=False, note="Keine Angstwerbung, nur Empfehlung."),
}
ALL_ISSUES = (SENSITIVITY, ABSOLUTE, DOCTOR, DETECTION_LIMIT, FEAR, FABRICATED)


@pytest.fixture
def env(database: Database) -> ScanEnv:
    return demo_env(database)


def _run(env: ScanEnv, finding_model, critic_model, **settings) -> ScanReport:
    result = scan_graph(env, finding_model, critic_model).invoke(
        scan_input(env), {"configurable": {"thread_id": "t1"}}, context=ScanContext(**settings)
    )
    report: ScanReport = result["report"]
    return report


def test_scan_reports_verified_critiqued_findings_by_severity(env: ScanEnv) -> None:
    finding_model, critic_model = reviewer(*ALL_ISSUES), critic(CRITIC_VERDICTS)
    report = _run(env, finding_model, critic_model)

    assert [f.exact_quote for f in report.findings["MAJOR"]] == [SENSITIVITY.quote, ABSOLUTE.quote]
    assert [(f.exact_quote, f.proposed_severity) for f in report.findings["MINOR"]] == [(DOCTOR.quote, "MINOR")]
    assert report.findings["HINT"] == []
    assert [(f.exact_quote, f.severity, f.confidence) for f in report.human_review] == [
        (DETECTION_LIMIT.quote, "UNCERTAIN", 0.5)
    ]
    assert [(r.exact_quote, r.reason) for r in report.rejected_quotes] == [
        (FABRICATED.quote, "Zitat steht nicht wörtlich auf der angegebenen Seite")
    ]
    counts = report.counts
    assert (counts.findings_recorded, counts.quotes_rejected, counts.critic_rejected) == (6, 1, 1)
    assert (counts.major, counts.minor, counts.hint, counts.human_review) == (2, 1, 0, 1)
    assert counts.llm_calls == counts.chunks + 5  # one call per chunk, one critic call per verified finding
    assert (len(finding_model.calls), len(critic_model.calls)) == (counts.chunks, 5)
    assert [f.page_number for f in report.ordered_findings()] == [2, 3, 3, 2]
    assert [f.position for f in report.ordered_findings()] == [1, 2, 3, 4]
    assert report.model_ids == {"findings": "scripted:scripted-reviewer", "critic": "scripted:scripted-critic"}
    assert report.catalog.id == env.version.id and report.document.sha256 == env.document.sha256

    with env.database.transaction() as connection:
        stored = connection.execute(text("SELECT exact_quote FROM findings ORDER BY position")).scalars().all()
    assert stored == [f.exact_quote for f in report.ordered_findings()]
    assert FindingStore(env.database, trail=TRAIL).verify(report.audit_record()).valid
