"""What the answer nodes need from outside: knowledge base, bots, chat models, record sink.

Nodes depend on these protocols only; graphs bind real stores (or test doubles) to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel

from nodes.settings import ProviderName
from nodes.shared.llm import ChatModelSource
from nodes.shared.strictness import StrictnessConfig
from stores.brand.models import BrandDNA
from stores.kb.models import Hit, KBConflict
from stores.sql.bots import Bot
from stores.vector.embedders import Embedder


class KnowledgeSearch(Protocol):
    def search(
        self,
        kb_id: str,
        queries: Sequence[str],
        *,
        limit: int = 10,
        work: str | None = None,
        entries: Sequence[str] | None = None,
    ) -> list[Hit]: ...

    def works(self, kb_id: str) -> dict[str, list[str]]: ...

    def conflicts(self, kb_id: str) -> list[KBConflict]: ...


class BotDirectory(Protocol):
    def get(self, bot_id: str) -> Bot: ...


class BrandDirectory(Protocol):
    def get(self, brand_id: str, version: str | None = None) -> BrandDNA: ...


class AnswerRecordSink(Protocol):
    def write(self, record: dict[str, Any]) -> None: ...


class AnswerServices(ChatModelSource, Protocol):
    @property
    def knowledge_base(self) -> KnowledgeSearch: ...

    @property
    def bots(self) -> BotDirectory: ...

    @property
    def answer_records(self) -> AnswerRecordSink: ...

    @property
    def brands(self) -> BrandDirectory | None:
        """Brand DNAs whose boundaries a run may be held to (``AnswerContext.brand_id``)."""

    @property
    def embedder(self) -> Embedder | None:
        """The dense embedder that ranks answer sentences; None ranks them on their words alone."""


@dataclass(eq=False)
class StaticServices:
    """AnswerServices from explicit parts and one fixed chat model (tests, evals, benchmarks)."""

    knowledge_base: KnowledgeSearch
    bots: BotDirectory
    answer_records: AnswerRecordSink
    model: BaseChatModel | None = None
    brands: BrandDirectory | None = None
    embedder: Embedder | None = None
    default_provider: ProviderName = "ollama"
    requested_budgets: list[int | None] = field(default_factory=list)

    def model_name(self, provider: ProviderName) -> str:
        return "extractive" if provider == "extractive" else str(getattr(self.model, "model_name", "scripted"))

    def chat_model(
        self, provider: ProviderName, strictness: StrictnessConfig, *, model: str | None, max_tokens: int | None = None
    ) -> BaseChatModel | None:
        if provider == "extractive":
            return None
        self.requested_budgets.append(max_tokens)
        return self.model
