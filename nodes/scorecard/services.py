"""What the scorecard nodes need from outside: brand DNA, audit sink, chat models, embedder.

Nodes depend on these protocols only; graphs bind the application's resources (graphs/resources.py),
evals and tests bind ``FixedScorecardServices`` with real stores and a scripted or live judge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel

from nodes.settings import ProviderName
from nodes.shared.llm import ChatModelSource
from nodes.shared.strictness import StrictnessConfig
from stores.brand.audit import AuditEntry, StoredAudit
from stores.brand.models import BrandDNA
from stores.brand.store import DnaVersionInfo
from stores.vector.embedders import Embedder


class BrandDirectory(Protocol):
    def get(self, brand_id: str, version: str | None = None) -> BrandDNA: ...

    def history(self, brand_id: str) -> list[DnaVersionInfo]: ...


class ScorecardAuditSink(Protocol):
    def record(self, entry: AuditEntry) -> int: ...

    def record_owner_decision(self, audit_id: int, *, status: str, decision: dict[str, Any]) -> StoredAudit: ...


class ScorecardServices(ChatModelSource, Protocol):
    @property
    def brands(self) -> BrandDirectory: ...

    @property
    def scorecard_audit(self) -> ScorecardAuditSink: ...

    @property
    def embedder(self) -> Embedder | None: ...


@dataclass(frozen=True)
class FixedScorecardServices:
    """Services with fixed parts: one judge model for every call (scripted or live) and the given stores."""

    brands: BrandDirectory
    scorecard_audit: ScorecardAuditSink
    judge: BaseChatModel | None = None
    embedder: Embedder | None = None
    default_provider: ProviderName = "ollama"
    judge_name: str = "scripted"

    def model_name(self, provider: ProviderName) -> str:
        return self.judge_name

    def chat_model(
        self, provider: ProviderName, strictness: StrictnessConfig, *, model: str | None, max_tokens: int | None = None
    ) -> BaseChatModel | None:
        return None if provider == "extractive" else self.judge
