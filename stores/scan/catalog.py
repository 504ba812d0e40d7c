"""Versioned requirement catalogues: every import is a new, immutable version; old versions stay queryable."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, text

from stores.sql.engine import Database

ClauseStatus = Literal["ACTIVE", "RETIRED"]
STABLE_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"


class RequirementDraft(BaseModel):
    """One requirement as read from a catalogue file, before it belongs to a version."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    stable_id: str = Field(pattern=STABLE_ID_PATTERN)
    clause_path: str = Field(min_length=1)
    title: str = Field(min_length=1)
    requirement_text: str = Field(min_length=1)
    clause_status: ClauseStatus = "ACTIVE"


class Requirement(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    catalog_version_id: int
    stable_id: str
    clause_path: str
    title: str
    requirement_text: str
    normalized_text: str
    clause_status: ClauseStatus


class CatalogVersion(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    name: str
    source_file: str
    source_sha256: str
    created_at: datetime
    requirement_count: int
    active_count: int


class CatalogVersionNotFound(LookupError):
    def __init__(self, version_id: int) -> None:
        super().__init__(f"Katalogversion {version_id} gibt es nicht (belegt catalog list zeigt alle).")
        self.version_id = version_id


class NoCatalog(LookupError):
    def __init__(self) -> None:
        super().__init__("Es ist noch kein Anforderungskatalog importiert (belegt catalog import DATEI).")


def normalize_requirement(draft: RequirementDraft) -> str:
    """Case-folded title and text on one line: the form the clause is compared and indexed in."""
    return " ".join(f"{draft.title}. {draft.requirement_text}".split()).casefold()


_VERSION_COLUMNS = """
    v.id, v.name, v.source_file, v.source_sha256, v.created_at,
    (SELECT count(*) FROM requirements r WHERE r.catalog_version_id = v.id) AS requirement_count,
    (SELECT count(*) FROM requirements r WHERE r.catalog_version_id = v.id AND r.clause_status = 'ACTIVE')
        AS active_count
"""
_REQUIREMENT_COLUMNS = (
    "id, catalog_version_id, stable_id, clause_path, title, requirement_text, normalized_text, clause_status"
)


class CatalogStore:
    """Catalogue versions and their requirements; the database refuses to change a stored version."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def create_version(
        self,
        *,
        name: str,
        source_file: str,
        source_sha256: str,
        requirements: Sequence[RequirementDraft],
        before_commit: Callable[[CatalogVersion, list[Requirement]], None] | None = None,
    ) -> CatalogVersion:
        """Store a new version in one transaction; ``before_commit`` (e.g. indexing) failing rolls it back."""
        with self._db.transaction() as connection:
            version_id = connection.execute(
                text(
                    "INSERT INTO catalog_versions (name, source_file, source_sha256)"
                    " VALUES (:name, :source_file, :sha) RETURNING id"
                ),
                {"name": name, "source_file": source_file, "sha": source_sha256},
            ).scalar_one()
            connection.execute(
                text(
                    "INSERT INTO requirements (catalog_version_id, stable_id, clause_path, title,"
                    " requirement_text, normalized_text, clause_status) VALUES (:version, :stable_id,"
                    " :clause_path, :title, :requirement_text, :normalized_text, :clause_status)"
                ),
                [
                    draft.model_dump() | {"version": version_id, "normalized_text": normalize_requirement(draft)}
                    for draft in requirements
                ],
            )
            version = self._version(connection, version_id)
            if before_commit is not None:
                before_commit(version, self._requirements(connection, version_id, active_only=False))
        return version

    def get_version(self, version_id: int) -> CatalogVersion:
        with self._db.transaction() as connection:
            return self._version(connection, version_id)

    def latest_version(self) -> CatalogVersion:
        with self._db.transaction() as connection:
            latest = connection.execute(text("SELECT max(id) FROM catalog_versions")).scalar_one()
            if latest is None:
                raise NoCatalog()
            return self._version(connection, latest)

    def list_versions(self) -> list[CatalogVersion]:
        with self._db.transaction() as connection:
            rows = connection.execute(text(f"SELECT {_VERSION_COLUMNS} FROM catalog_versions v ORDER BY v.id"))
            return [CatalogVersion.model_validate(dict(row)) for row in rows.mappings()]

    def requirements(self, version_id: int, *, active_only: bool = False) -> list[Requirement]:
        with self._db.transaction() as connection:
            self._version(connection, version_id)
            return self._requirements(connection, version_id, active_only=active_only)

    @staticmethod
    def _version(connection: Connection, version_id: int) -> CatalogVersion:
        row = connection.execute(
            text(f"SELECT {_VERSION_COLUMNS} FROM catalog_versions v WHERE v.id = :id"), {"id": version_id}
        ).mappings()
        found = row.first()
        if found is None:
            raise CatalogVersionNotFound(version_id)
        return CatalogVersion.model_validate(dict(found))

    @staticmethod
    def _requirements(connection: Connection, version_id: int, *, active_only: bool) -> list[Requirement]:
        status = " AND clause_status = 'ACTIVE'" if active_only else ""
        rows = connection.execute(
            text(
                f"SELECT {_REQUIREMENT_COLUMNS} FROM requirements"
                f" WHERE catalog_version_id = :version{status} ORDER BY id"
            ),
            {"version": version_id},
        )
        return [Requirement.model_validate(dict(row)) for row in rows.mappings()]
