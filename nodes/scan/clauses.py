"""Step 2 (closed world): the catalogue version, then per chunk the top-5 ACTIVE requirements of it."""

from __future__ import annotations

from typing import Any

from nodes.scan.context import CLAUSES_PER_CHUNK
from nodes.scan.services import ScanServices
from nodes.scan.state import CatalogInfo, Clause, ScanState


class EmptyCatalog(ValueError):
    def __init__(self, version_id: int) -> None:
        super().__init__(f"Katalogversion {version_id} hat keine aktiven Anforderungen; es gibt nichts zu prüfen.")


def prepare_catalog(state: ScanState, *, services: ScanServices) -> dict[str, Any]:
    """Resolve the catalogue version and make sure its clause index is current, before any chunk is searched.

    The index is rebuilt here, not during retrieval, on the first scan after a Qdrant wipe or an embedder change.
    """
    catalogs = services.catalogs
    requested = state.get("catalog_version_id")
    version = catalogs.get_version(requested) if requested is not None else catalogs.latest_version()
    active = catalogs.requirements(version.id, active_only=True)
    if not active:
        raise EmptyCatalog(version.id)
    if not services.clauses.is_current(version.id):
        services.clauses.index_version(version, catalogs.requirements(version.id))
    return {"catalog": CatalogInfo(id=version.id, name=version.name, active_requirements=len(active))}


def retrieve_clauses(state: ScanState, *, services: ScanServices) -> dict[str, Any]:
    """Read-only: search the prepared index once per chunk."""
    catalog = state["catalog"]
    by_id = {
        requirement.id: Clause(
            requirement_id=requirement.id,
            stable_id=requirement.stable_id,
            clause_path=requirement.clause_path,
            title=requirement.title,
            requirement_text=requirement.requirement_text,
        )
        for requirement in services.catalogs.requirements(catalog.id, active_only=True)
    }
    clauses = {
        chunk.chunk_id: [
            by_id[found]
            for found in services.clauses.search(catalog.id, chunk.text, limit=CLAUSES_PER_CHUNK)
            if found in by_id
        ]
        for chunk in state["chunks"]
    }
    return {"clauses": clauses}
