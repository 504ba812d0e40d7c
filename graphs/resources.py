"""The one place that assembles stores and models from the settings, each opened on first use.

Importing this module (and the graph modules that bind it) reads no setting and opens nothing: the settings
are loaded when a node first needs a store or a model. The vector engine caches open shards and alias look-ups, so a
process shares one ``AppResources`` (``app_resources()``); commands that need their own settings build one.
"""

from __future__ import annotations

import threading
from functools import cached_property, lru_cache

from langchain_core.language_models import BaseChatModel

from graphs.settings import Settings, load_settings
from nodes.scan.services import CRITIC_MAX_TOKENS, FINDINGS_MAX_TOKENS, SCAN_STRICTNESS_LEVEL, require_model
from nodes.settings import ProviderName
from nodes.shared.llm import create_chat_model
from nodes.shared.strictness import StrictnessConfig, get_strictness_config
from stores.brand.audit import AuditStore
from stores.brand.store import BrandStore
from stores.kb.store import KnowledgeBase
from stores.scan.catalog import CatalogStore
from stores.scan.clause_index import ClauseIndex
from stores.scan.documents import DocumentStore
from stores.scan.findings import FindingStore
from stores.scan.trail import AuditTrail
from stores.sql.answers import AnswerRecordStore
from stores.sql.bots import BotStore
from stores.sql.engine import Database, open_database
from stores.vector.embedders import Embedder, create_embedder
from stores.vector.engine import VectorEngine
from stores.vector.qdrant import open_vector_engine

ChatModelKey = tuple[ProviderName, StrictnessConfig, str, int | None]


class AppResources:
    """Implements the answer and scorecard service protocols (and, through ``ScanResources``, the scan one)."""

    def __init__(self, settings: Settings | None = None) -> None:
        self._given_settings = settings
        self._chat_models: dict[ChatModelKey, BaseChatModel | None] = {}
        self._lock = threading.Lock()  # nodes of one run may ask for the same model from parallel branches

    @cached_property
    def settings(self) -> Settings:
        return self._given_settings or load_settings()

    @cached_property
    def database(self) -> Database:
        return open_database(self.settings.resolved_database_url)

    @cached_property
    def vectors(self) -> VectorEngine:
        return open_vector_engine(self.settings)

    @cached_property
    def embedder(self) -> Embedder | None:
        return create_embedder(self.settings)

    @cached_property
    def knowledge_base(self) -> KnowledgeBase:
        return KnowledgeBase.from_settings(
            self.settings, engine=self.vectors, database=self.database, embedder=self.embedder
        )

    @cached_property
    def bots(self) -> BotStore:
        return BotStore(self.database)

    @cached_property
    def answer_records(self) -> AnswerRecordStore:
        return AnswerRecordStore(self.database)

    @cached_property
    def brands(self) -> BrandStore:
        return BrandStore(self.database)

    @cached_property
    def scorecard_audit(self) -> AuditStore:
        return AuditStore(self.database)

    @cached_property
    def documents(self) -> DocumentStore:
        return DocumentStore(self.database)

    @cached_property
    def catalogs(self) -> CatalogStore:
        return CatalogStore(self.database)

    @cached_property
    def scan_findings(self) -> FindingStore:
        return FindingStore(self.database, trail=AuditTrail.from_settings(self.settings))

    @cached_property
    def clauses(self) -> ClauseIndex:
        return ClauseIndex.from_settings(self.settings, engine=self.vectors, embedder=self.embedder)

    @property
    def default_provider(self) -> ProviderName:
        return self.settings.provider

    def model_name(self, provider: ProviderName) -> str:
        return self.settings.model_for(provider)

    def chat_model(
        self, provider: ProviderName, strictness: StrictnessConfig, *, model: str | None, max_tokens: int | None = None
    ) -> BaseChatModel | None:
        """One client per (provider, strictness level, model, max_tokens), so its HTTP connections are reused."""
        key: ChatModelKey = (provider, strictness, model or self.model_name(provider), max_tokens)
        with self._lock:
            if key not in self._chat_models:
                self._chat_models[key] = create_chat_model(
                    provider, strictness, self.settings, model=model, max_tokens=max_tokens
                )
            return self._chat_models[key]

    def close(self) -> None:
        """Release connections and forget what was opened; the next use opens it again from the settings."""
        if "vectors" in self.__dict__:
            self.vectors.close()
        if "database" in self.__dict__:
            self.database.dispose()
        for name in [name for name, value in vars(type(self)).items() if isinstance(value, cached_property)]:
            self.__dict__.pop(name, None)
        with self._lock:
            self._chat_models.clear()


class ScanResources:
    """ScanServices on an ``AppResources``: its stores plus the two scan models at the most literal level."""

    def __init__(self, resources: AppResources) -> None:
        self._resources = resources

    @property
    def documents(self) -> DocumentStore:
        return self._resources.documents

    @property
    def catalogs(self) -> CatalogStore:
        return self._resources.catalogs

    @property
    def findings(self) -> FindingStore:
        return self._resources.scan_findings

    @property
    def clauses(self) -> ClauseIndex:
        return self._resources.clauses

    @property
    def provider(self) -> str:
        return self._resources.default_provider

    @property
    def finding_model(self) -> BaseChatModel:
        return self._model(FINDINGS_MAX_TOKENS)

    @property
    def critic_model(self) -> BaseChatModel:
        return self._model(CRITIC_MAX_TOKENS)

    def _model(self, max_tokens: int) -> BaseChatModel:
        resources = self._resources
        strictness = get_strictness_config(SCAN_STRICTNESS_LEVEL)
        return require_model(
            resources.chat_model(resources.default_provider, strictness, model=None, max_tokens=max_tokens)
        )


@lru_cache(maxsize=1)
def app_resources() -> AppResources:
    """The process-wide resources the served graphs use; nothing is read or opened until a node needs it."""
    return AppResources()
