"""What scorecard nodes need from outside the graph: stores, chat model, embedder.

The graph builder binds a provider of these to the nodes; tests pass real stores and a scripted model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel

from stores.brand.audit import AuditStore
from stores.brand.store import BrandStore
from stores.vector.embedders import Embedder


@dataclass(frozen=True)
class ScorecardResources:
    brands: BrandStore
    audit: AuditStore
    chat_model: BaseChatModel | None = None
    provider: str = "extractive"
    embedder: Embedder | None = None

    @property
    def model_id(self) -> str | None:
        if self.chat_model is None:
            return None
        name = getattr(self.chat_model, "model", None) or getattr(self.chat_model, "model_name", None)
        return f"{self.provider}:{name}" if name else self.provider


ResourcesProvider = Callable[[], ScorecardResources]
