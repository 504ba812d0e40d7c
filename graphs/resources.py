"""Process-wide stores and models, opened on first use from the settings.

One vector engine per process: it caches open shards and alias look-ups, so a process shares one ``AppResources``.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

from langchain_core.language_models import BaseChatModel

from graphs.settings import Settings, load_settings
from nodes.settings import ProviderName
from nodes.shared.llm import create_chat_model
from nodes.shared.strictness import StrictnessConfig
from stores.brand.audit import AuditStore
from stores.brand.store import BrandStore
from stores.kb.store import KnowledgeBase
from stores.sql.answers import AnswerRecordStore
from stores.sql.bots import BotStore
from stores.sql.engine import Database, open_database
from stores.vector.embedders import Embedder, create_embedder
from stores.vector.engine import VectorEngine
from stores.vector.qdrant import open_vector_engine


class AppResources:
    """Implements the graphs' service protocols on the configured stores and providers."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

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

    @property
    def default_provider(self) -> ProviderName:
        return self.settings.provider

    def model_name(self, provider: ProviderName) -> str:
        return self.settings.model_for(provider)

    def chat_model(
        self, provider: ProviderName, strictness: StrictnessConfig, *, model: str | None, max_tokens: int | None = None
    ) -> BaseChatModel | None:
        return create_chat_model(provider, strictness, self.settings, model=model, max_tokens=max_tokens)

    def close(self) -> None:
        if "vectors" in self.__dict__:
            self.vectors.close()
        if "database" in self.__dict__:
            self.database.dispose()


@lru_cache(maxsize=1)
def app_resources() -> AppResources:
    return AppResources(load_settings())
