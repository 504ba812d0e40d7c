"""Requirements in the hybrid index: one aliased collection per catalogue version, same retrieval as the KB."""

from __future__ import annotations

from stores.scan.catalog import CatalogVersion, Requirement
from stores.settings import StoreSettings
from stores.vector.embedders import Embedder
from stores.vector.engine import VectorEngine
from stores.vector.index import HybridIndex, IndexPoint, index_from_settings

TENANT_KEY = "catalog_version"


def catalog_alias(prefix: str, version_id: int) -> str:
    return f"{prefix}_catalog_v{version_id}"


def _tenant(version_id: int) -> str:
    return str(version_id)


class ClauseIndex:
    """Closed-world clause search: only ACTIVE requirements of the one catalogue version asked for."""

    def __init__(self, index: HybridIndex, *, prefix: str = "belegt") -> None:
        self.index = index
        self.prefix = prefix

    @classmethod
    def from_settings(cls, settings: StoreSettings, *, engine: VectorEngine, embedder: Embedder | None) -> ClauseIndex:
        index = index_from_settings(settings, engine=engine, embedder=embedder, tenant_key=TENANT_KEY)
        return cls(index, prefix=settings.qdrant_prefix)

    def alias(self, version_id: int) -> str:
        return catalog_alias(self.prefix, version_id)

    def index_version(self, version: CatalogVersion, requirements: list[Requirement]) -> None:
        """(Re)build the version's collection; retired requirements are indexed but never returned."""
        points = [
            IndexPoint(
                id=requirement.stable_id,
                text=f"{requirement.title}\n{requirement.requirement_text}",
                payload={
                    TENANT_KEY: _tenant(version.id),
                    "requirement_id": requirement.id,
                    "clause_status": requirement.clause_status,
                },
            )
            for requirement in requirements
        ]
        self.index.build(self.alias(version.id), points)

    def is_current(self, version_id: int) -> bool:
        """Indexed with the configured embedder and analyzer (a wiped or re-configured Qdrant is not)."""
        return self.index.is_current(self.alias(version_id))

    def search(self, version_id: int, text: str, *, limit: int) -> list[int]:
        """Requirement ids of the best ``limit`` ACTIVE clauses for the text, best first."""
        hits = self.index.search(
            self.alias(version_id),
            text,
            filter={TENANT_KEY: _tenant(version_id), "clause_status": "ACTIVE"},
            limit=limit,
        )
        return [int(hit.payload["requirement_id"]) for hit in hits]
