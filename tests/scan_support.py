"""Small builders shared by the scan tests: a catalogue, a document and a scan row, stored for real."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langgraph.checkpoint.memory import InMemorySaver
from sqlalchemy import text

from graphs.scan import build_scan_graph
from nodes.scan.services import StaticScanServices
from nodes.scan.state import ScanInput
from nodes.shared.scripted_llm import ScriptedChatModel
from stores.ingest.catalog import import_catalog
from stores.ingest.documents import read_document
from stores.scan.audit import AuditHeader
from stores.scan.catalog import CatalogStore, CatalogVersion, RequirementDraft
from stores.scan.clause_index import ClauseIndex
from stores.scan.documents import DocumentDraft, DocumentStore, PageText, StoredDocument
from stores.scan.findings import FindingRecord
from stores.scan.trail import AuditTrail
from stores.settings import StoreSettings
from stores.sql.engine import Database
from stores.vector.qdrant import memory_engine

AUDIT_KEY = b"belegt-test-audit-key-0123456789abcdef"
TRAIL = AuditTrail(key=AUDIT_KEY)
PAGE_ONE = "Leistungsdaten\nSensitivität 96,4 %\n(n = 250 Proben)   im Vergleich zur PCR."
PAGE_THREE = "Unser Test ist 100 % sicher und ersetzt jede ärztliche Diagnose."


def requirement(stable_id: str, title: str, status: str = "ACTIVE") -> RequirementDraft:
    return RequirementDraft(
        stable_id=stable_id,
        clause_path=f"Demo › {stable_id}",
        title=title,
        requirement_text=f"{title}: Anforderungstext für {stable_id}.",
        clause_status=status,
    )


def store_catalog(database: Database, *drafts: RequirementDraft, name: str = "Testkatalog") -> CatalogVersion:
    items = drafts or (
        requirement("REQ-1", "Konfidenzintervall angeben"),
        requirement("REQ-2", "Keine absoluten Sicherheitsversprechen"),
        requirement("REQ-OLD", "Veraltete Klausel", status="RETIRED"),
    )
    digest = hashlib.sha256(name.encode() + b"".join(d.stable_id.encode() for d in items)).hexdigest()
    return CatalogStore(database).create_version(
        name=name, source_file=f"{name}.yaml", source_sha256=digest, requirements=items
    )


def document_draft(*pages: str | None, file_name: str = "prospekt.md") -> DocumentDraft:
    texts = pages or (PAGE_ONE, None, PAGE_THREE)
    page_texts = tuple(
        PageText(page_number=number, raw_text=page or "", is_citable=page is not None)
        for number, page in enumerate(texts, start=1)
    )
    digest = hashlib.sha256("\f".join(page or "" for page in texts).encode()).hexdigest()
    return DocumentDraft(file_name=file_name, sha256=digest, media_type="text/markdown", pages=page_texts)


def store_document(database: Database, *pages: str | None) -> StoredDocument:
    return DocumentStore(database).store(document_draft(*pages))


def requirement_id(database: Database, version: CatalogVersion, stable_id: str) -> int:
    with database.transaction() as connection:
        found = connection.execute(
            text("SELECT id FROM requirements WHERE catalog_version_id = :v AND stable_id = :s"),
            {"v": version.id, "s": stable_id},
        ).scalar_one()
    return int(found)


def insert_scan_row(database: Database, scan_id: str, document_id: str, catalog_version_id: int) -> None:
    """A scan row written with raw SQL, as a forger would."""
    with database.transaction() as connection:
        connection.execute(
            text(
                "INSERT INTO scans (id, document_id, catalog_version_id, model_ids, prompt_version,"
                " confidence_threshold, audit_hash) VALUES (:id, :d, :v, '{}', 'forged', 0.7, :h)"
            ),
            {"id": scan_id, "d": document_id, "v": catalog_version_id, "h": "f" * 64},
        )


@dataclass(frozen=True)
class PlantedIssue:
    """A finding the scripted reviewer reports whenever ``anchor`` (default: the quote) is in the chunk."""

    quote: str
    requirement: str
    severity: str = "MAJOR"
    confidence: float = 0.9
    text: str = "Die Angabe erfüllt die Anforderung nicht."
    anchor: str | None = None
    page: int | None = None


# Findings the scripted reviewer plants in the demo document (demo/scan/produktinfo.md).
SENSITIVITY = PlantedIssue("Sensitivität: 96,4 %", "DEMO-LA-1.1", "MAJOR", 0.9, "Konfidenzintervall fehlt.")
DOCTOR = PlantedIssue(
    "Mit CoviQuick sparen Sie sich den Arztbesuch.", "DEMO-WB-3.6", "MAJOR", 0.8, "Ersetzt angeblich den Arzt."
)
DETECTION_LIMIT = PlantedIssue(
    "Die Nachweisgrenze ist sehr niedrig", "DEMO-LA-1.5", "MINOR", 0.7, "Kein Zahlenwert mit Einheit."
)


def allowed_ids(prompt: str) -> list[str]:
    return re.findall(r'<anforderung id="([^"]+)"', prompt)


def prompt_pages(prompt: str) -> dict[int, str]:
    return {int(n): text for n, text in re.findall(r'<seite nummer="(\d+)">\n(.*?)\n</seite>', prompt, re.S)}


def tool_call(name: str, args: dict[str, Any]) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": "call-1"}])


def planted_findings(issues: tuple[PlantedIssue, ...], prompt: str) -> dict[str, Any]:
    """The ``record_finding`` arguments for one finding prompt: the planted issues found in its chunk, on the
    preferred requirement if retrieval offered it, else the first offered one."""
    ids, pages = allowed_ids(prompt), prompt_pages(prompt)
    findings = []
    for issue in issues:
        page = next((n for n, text in pages.items() if (issue.anchor or issue.quote) in text), None)
        if page is None:
            continue
        findings.append(
            {
                "requirement_id": issue.requirement if issue.requirement in ids else ids[0],
                "exact_quote": issue.quote,
                "page_number": issue.page or page,
                "severity": issue.severity,
                "confidence": issue.confidence,
                "finding_text": issue.text,
            }
        )
    return {"findings": findings}


def reviewer(*issues: PlantedIssue, name: str = "scripted-reviewer") -> ScriptedChatModel:
    """A finding model that reports the planted issues found in each chunk (:func:`planted_findings`)."""

    def answer(messages: list[BaseMessage]) -> AIMessage:
        return tool_call("record_finding", planted_findings(issues, str(messages[1].content)))

    return ScriptedChatModel(script=[answer], repeat_last=True, model_name=name)


@dataclass(frozen=True)
class CriticVerdict:
    supported: bool = True
    severity: str | None = None
    confidence: float | None = None
    note: str = "Zitat und Anforderung passen zusammen."


def critic_verdict(verdicts: dict[str, CriticVerdict] | None, prompt: str) -> dict[str, Any]:
    """The ``assess_finding`` arguments for one critic prompt, per quote (substring match); unknown quotes are
    confirmed unchanged."""
    quote = re.search(r'Zitat \(Seite \d+\): "(.*)"', prompt)
    severity = re.search(r"Schwere laut Prüfer: (\w+)", prompt)
    assert quote is not None and severity is not None, prompt
    verdict = next((v for key, v in (verdicts or {}).items() if key in quote.group(1)), CriticVerdict())
    return {
        "supported": verdict.supported,
        "severity": verdict.severity or severity.group(1),
        "confidence": 0.9 if verdict.confidence is None else verdict.confidence,
        "note": verdict.note,
    }


def critic(verdicts: dict[str, CriticVerdict] | None = None, *, name: str = "scripted-critic") -> ScriptedChatModel:
    """A critic that answers per quote (:func:`critic_verdict`)."""

    def answer(messages: list[BaseMessage]) -> AIMessage:
        return tool_call("assess_finding", critic_verdict(verdicts, str(messages[1].content)))

    return ScriptedChatModel(script=[answer], repeat_last=True, model_name=name)


DEMO = Path(__file__).resolve().parents[1] / "demo" / "scan"
# Critic verdicts below the 0.70 threshold: these two planted issues land in the review bucket.
DOUBTFUL = {"Nachweisgrenze": CriticVerdict(confidence=0.6), "Arztbesuch": CriticVerdict(confidence=0.65)}


@dataclass(frozen=True)
class ScanEnv:
    """The demo catalogue (sparse-only index in memory) and the demo document, stored for real."""

    database: Database
    clauses: ClauseIndex
    version: CatalogVersion
    document: StoredDocument


def demo_env(database: Database, *, document: Path | None = None, catalog: Path | None = None) -> ScanEnv:
    clauses = ClauseIndex.from_settings(StoreSettings(), engine=memory_engine(), embedder=None)
    version = import_catalog(catalog or DEMO / "katalog.yaml", catalogs=CatalogStore(database), clauses=clauses)
    stored = DocumentStore(database).store(read_document(document or DEMO / "produktinfo.md"))
    return ScanEnv(database=database, clauses=clauses, version=version, document=stored)


def scan_graph(
    env: ScanEnv,
    finding_model: ScriptedChatModel,
    critic_model: ScriptedChatModel,
    checkpointer: InMemorySaver | None = None,
) -> Any:
    """The scan graph on the env's stores and the given scripted models, compiled with an InMemorySaver."""
    services = StaticScanServices.on_database(
        env.database, env.clauses, finding_model=finding_model, critic_model=critic_model, audit_trail=TRAIL
    )
    return build_scan_graph(services).compile(checkpointer=checkpointer or InMemorySaver())


def scan_input(env: ScanEnv, scan_id: str = "scan-test") -> ScanInput:
    return ScanInput(scan_id=scan_id, document_id=env.document.id, catalog_version_id=env.version.id)


def sample_header(document: StoredDocument, version: CatalogVersion, scan_id: str = "scan-1") -> AuditHeader:
    return AuditHeader(
        scan_id=scan_id,
        document_sha256=document.sha256,
        catalog_version_id=version.id,
        model_ids={"findings": "scripted-a", "critic": "scripted-b"},
        prompt_version="p1",
    )


def sample_findings(requirement_1: int, requirement_2: int) -> list[FindingRecord]:
    """Two findings on the default document: REQ-1 on page 1 (MAJOR), REQ-2 on page 3 (to be reviewed)."""
    return [
        FindingRecord(
            requirement_id=requirement_1,
            stable_id="REQ-1",
            chunk_id="c1",
            page_number=1,
            exact_quote="Sensitivität 96,4 %",
            finding_text="Konfidenzintervall fehlt.",
            proposed_severity="MAJOR",
            severity="MAJOR",
            bucket="report",
            confidence=0.9,
        ),
        FindingRecord(
            requirement_id=requirement_2,
            stable_id="REQ-2",
            chunk_id="c2",
            page_number=3,
            exact_quote="Unser Test ist 100 %\nsicher",
            finding_text="Absolutes Versprechen.",
            proposed_severity="MINOR",
            severity="UNCERTAIN",
            bucket="human_review",
            confidence=0.55,
        ),
    ]
