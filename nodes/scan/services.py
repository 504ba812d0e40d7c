"""What the scan nodes need from outside: documents, catalogue, clause index, finding store and two chat models.

Nodes depend on these protocols only; graphs bind the process-wide stores (graphs/resources.py) or test doubles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from langchain_core.language_models import BaseChatModel

from stores.scan.audit import AuditHeader, AuditRecord
from stores.scan.catalog import CatalogStore, CatalogVersion, Requirement
from stores.scan.clause_index import ClauseIndex
from stores.scan.documents import DocumentStore, PageText, StoredDocument
from stores.scan.findings import FindingRecord, FindingStore, QuoteCandidate
from stores.scan.trail import AuditTrail
from stores.sql.engine import Database

SCAN_STRICTNESS_LEVEL = 1  # the most literal decoding: low temperature, fixed seed
FINDINGS_MAX_TOKENS = 2048
CRITIC_MAX_TOKENS = 512


class NoScanModel(RuntimeError):
    def __init__(self) -> None:
        super().__init__(
            "Für die Dokumentprüfung wird ein Sprachmodell gebraucht, es ist aber keins eingestellt "
            "(Anbieter 'extractive'). Bitte BELEGT_LLM_PROVIDER=ollama (mit OLLAMA_BASE_URL) oder "
            "BELEGT_LLM_PROVIDER=mistral (mit MISTRAL_API_KEY) setzen. Es wurde nichts geprüft oder gespeichert."
        )


class DocumentSource(Protocol):
    def get(self, document_id: str) -> StoredDocument: ...

    def pages(self, document_id: str) -> list[PageText]: ...


class CatalogSource(Protocol):
    def get_version(self, version_id: int) -> CatalogVersion: ...

    def latest_version(self) -> CatalogVersion: ...

    def requirements(self, version_id: int, *, active_only: bool = False) -> list[Requirement]: ...


class ClauseLookup(Protocol):
    def is_current(self, version_id: int) -> bool: ...

    def index_version(self, version: CatalogVersion, requirements: list[Requirement]) -> None: ...

    def search(self, version_id: int, text: str, *, limit: int) -> list[int]: ...


class FindingSink(Protocol):
    def check_quotes(
        self, *, document_id: str, catalog_version_id: int, candidates: list[QuoteCandidate]
    ) -> list[str | None]: ...

    def save_scan(
        self,
        header: AuditHeader,
        *,
        document_id: str,
        confidence_threshold: float,
        findings: list[FindingRecord],
    ) -> AuditRecord: ...


class ScanServices(Protocol):
    @property
    def documents(self) -> DocumentSource: ...

    @property
    def catalogs(self) -> CatalogSource: ...

    @property
    def clauses(self) -> ClauseLookup: ...

    @property
    def findings(self) -> FindingSink: ...

    @property
    def provider(self) -> str: ...

    @property
    def finding_model(self) -> BaseChatModel:
        """Raises NoScanModel when no LLM is configured."""
        ...

    @property
    def critic_model(self) -> BaseChatModel: ...


@dataclass(eq=False)
class StaticScanServices:
    """ScanServices from explicit parts (tests, evals, benchmarks)."""

    documents: DocumentSource
    catalogs: CatalogSource
    clauses: ClauseLookup
    findings: FindingSink
    finding_model: BaseChatModel
    critic_model: BaseChatModel
    provider: str = "scripted"

    @classmethod
    def on_database(
        cls,
        database: Database,
        clauses: ClauseIndex,
        *,
        finding_model: BaseChatModel,
        critic_model: BaseChatModel,
        audit_trail: AuditTrail,
        provider: str = "scripted",
    ) -> StaticScanServices:
        """The SQL stores on one database, the given clause index, audit trail and models."""
        return cls(
            documents=DocumentStore(database),
            catalogs=CatalogStore(database),
            clauses=clauses,
            findings=FindingStore(database, trail=audit_trail),
            finding_model=finding_model,
            critic_model=critic_model,
            provider=provider,
        )


def require_model(model: BaseChatModel | None) -> BaseChatModel:
    if model is None:
        raise NoScanModel()
    return model
