"""Step 2 (closed world): per chunk the top-5 ACTIVE requirements of the chosen catalogue version."""

from __future__ import annotations

from typing import Any

from nodes.scan.context import CLAUSES_PER_CHUNK
from nodes.scan.services import ScanServices
from nodes.scan.state import CatalogInfo, Clause, ScanState
from stores.scan.catalog import CatalogStore


class EmptyCatalog(ValueError):
    def __init__(self, version_id: int) -> None:
        super().__init__(f"Katalogversion {version_id} hat keine aktiven Anforderungen; es gibt nichts zu prüfen.")


def retrieve_clauses(state: ScanState, *, services: ScanServices) -> dict[str, Any]:
    catalogs = CatalogStore(services.database)
    requested = state.get("catalog_version_id")
    version = catalogs.get_version(requested) if requested is not None else catalogs.latest_version()
    requirements = catalogs.requirements(version.id, active_only=True)
    if not requirements:
        raise EmptyCatalog(version.id)
    if not services.clauses.is_current(version.id):  # first scan after a Qdrant wipe or an embedder change
        services.clauses.index_version(version, catalogs.requirements(version.id))
    by_id = {
        requirement.id: Clause(
            requirement_id=requirement.id,
            stable_id=requirement.stable_id,
            clause_path=requirement.clause_path,
            title=requirement.title,
            requirement_text=requirement.requirement_text,
        )
        for requirement in requirements
    }
    clauses = {
        chunk.chunk_id: [
            by_id[found]
            for found in services.clauses.search(version.id, chunk.text, limit=CLAUSES_PER_CHUNK)
            if found in by_id
        ]
        for chunk in state["chunks"]
    }
    catalog = CatalogInfo(id=version.id, name=version.name, active_requirements=len(requirements))
    return {"catalog": catalog, "clauses": clauses}
