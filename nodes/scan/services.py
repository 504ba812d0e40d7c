"""What the scan nodes need from outside: the SQL database, the clause index, the audit trail, two chat models.

Nodes depend on this protocol only; graphs bind the process-wide stores (or test doubles) to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from langchain_core.language_models import BaseChatModel

from stores.scan.clause_index import ClauseIndex
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


class ScanServices(Protocol):
    @property
    def database(self) -> Database: ...

    @property
    def clauses(self) -> ClauseIndex: ...

    @property
    def audit_trail(self) -> AuditTrail: ...

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

    database: Database
    clauses: ClauseIndex
    finding_model: BaseChatModel
    critic_model: BaseChatModel
    audit_trail: AuditTrail
    provider: str = "scripted"


def require_model(model: BaseChatModel | None) -> BaseChatModel:
    if model is None:
        raise NoScanModel()
    return model
