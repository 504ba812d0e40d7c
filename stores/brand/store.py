"""Brand DNA versions in SQL: stored as validated JSON documents, ordered by semver."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Connection, text
from sqlalchemy.exc import IntegrityError

from stores.brand.json_columns import read_json
from stores.brand.models import BrandDNA, ChangeKind
from stores.sql.engine import Database


class DnaVersionInfo(BaseModel):
    """One entry of a brand's version history."""

    model_config = ConfigDict(frozen=True)

    brand_id: str
    dna_version: str
    change_kind: ChangeKind | None
    imported_at: datetime


class SavedVersion(NamedTuple):
    info: DnaVersionInfo
    created: bool  # False: this version was already stored with the same content


class BrandSummary(BaseModel):
    """A brand with its newest DNA version."""

    model_config = ConfigDict(frozen=True)

    brand_id: str
    versions: int
    latest_version: str
    latest_imported_at: datetime


class BrandNotFound(LookupError):
    def __init__(self, brand_id: str) -> None:
        super().__init__(f"Für die Marke '{brand_id}' ist keine DNA gespeichert.")
        self.brand_id = brand_id


class DnaVersionNotFound(LookupError):
    def __init__(self, brand_id: str, version: str) -> None:
        super().__init__(f"Die Marke '{brand_id}' hat keine DNA-Version {version}.")
        self.brand_id = brand_id
        self.version = version


class DnaVersionRejected(ValueError):
    """The version cannot be stored: duplicate, not newer than the latest, or missing change kind."""


_ORDER = "version_major, version_minor, version_patch"
_ORDER_DESC = "version_major DESC, version_minor DESC, version_patch DESC"


class BrandStore:
    """Append-only history of DNA versions per brand; a new version must be newer than the latest."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def save(self, dna: BrandDNA, *, source_name: str | None = None) -> SavedVersion:
        """Store a new version; the same version with the same content again is a no-op (idempotent import)."""
        try:
            with self._db.transaction() as connection:
                stored = connection.execute(
                    text("SELECT document FROM brand_dna_versions WHERE brand_id = :brand AND dna_version = :version"),
                    {"brand": dna.brand_id, "version": dna.dna_version},
                ).scalar_one_or_none()
                if stored is None:
                    self._insert(connection, dna, source_name)
                elif BrandDNA.model_validate(read_json(stored)) != dna:
                    raise DnaVersionRejected(
                        f"DNA-Version {dna.dna_version} der Marke '{dna.brand_id}' ist schon mit anderem Inhalt"
                        " gespeichert; eine Änderung braucht eine neue Version."
                    )
        except IntegrityError as exc:  # a concurrent import of the same version won the race
            raise DnaVersionRejected(
                f"DNA-Version {dna.dna_version} der Marke '{dna.brand_id}' ist schon gespeichert."
            ) from exc
        info = next(info for info in self.history(dna.brand_id) if info.dna_version == dna.dna_version)
        return SavedVersion(info, created=stored is None)

    def _insert(self, connection: Connection, dna: BrandDNA, source_name: str | None) -> None:
        latest = self._latest_version(connection, dna.brand_id)
        if latest is not None:
            self._check_successor(dna, latest)
        major, minor, patch = dna.version_key
        connection.execute(
            text(
                "INSERT INTO brand_dna_versions (brand_id, dna_version, version_major, version_minor,"
                " version_patch, change_kind, document, source_name)"
                " VALUES (:brand, :version, :major, :minor, :patch, :kind, :document, :source)"
            ),
            {
                "brand": dna.brand_id,
                "version": dna.dna_version,
                "major": major,
                "minor": minor,
                "patch": patch,
                "kind": dna.change_kind,
                "document": dna.model_dump_json(),
                "source": source_name,
            },
        )

    def get(self, brand_id: str, version: str | None = None) -> BrandDNA:
        """The given version, or the newest one."""
        query = "SELECT document FROM brand_dna_versions WHERE brand_id = :brand"
        params = {"brand": brand_id}
        if version is None:
            query += f" ORDER BY {_ORDER_DESC} LIMIT 1"
        else:
            query += " AND dna_version = :version"
            params["version"] = version
        with self._db.transaction() as connection:
            document = connection.execute(text(query), params).scalar_one_or_none()
        if document is None:
            if version is not None and self.history(brand_id):
                raise DnaVersionNotFound(brand_id, version)
            raise BrandNotFound(brand_id)
        return BrandDNA.model_validate(read_json(document))

    def history(self, brand_id: str) -> list[DnaVersionInfo]:
        """All versions of a brand, oldest first."""
        with self._db.transaction() as connection:
            rows = connection.execute(
                text(
                    "SELECT brand_id, dna_version, change_kind, imported_at FROM brand_dna_versions"
                    f" WHERE brand_id = :brand ORDER BY {_ORDER}"
                ),
                {"brand": brand_id},
            ).mappings()
            return [DnaVersionInfo.model_validate(dict(row)) for row in rows]

    def brands(self) -> list[BrandSummary]:
        """Every brand with a stored DNA, by id."""
        with self._db.transaction() as connection:
            rows = connection.execute(
                text(
                    "SELECT brand_id, dna_version, imported_at, COUNT(*) OVER (PARTITION BY brand_id) AS versions,"
                    f" ROW_NUMBER() OVER (PARTITION BY brand_id ORDER BY {_ORDER_DESC}) AS newest_first"
                    " FROM brand_dna_versions ORDER BY brand_id"
                )
            ).mappings()
            return [
                BrandSummary(
                    brand_id=row["brand_id"],
                    versions=row["versions"],
                    latest_version=row["dna_version"],
                    latest_imported_at=row["imported_at"],
                )
                for row in rows
                if row["newest_first"] == 1
            ]

    @staticmethod
    def _latest_version(connection: Connection, brand_id: str) -> tuple[int, int, int] | None:
        row = connection.execute(
            text(f"SELECT {_ORDER} FROM brand_dna_versions WHERE brand_id = :brand ORDER BY {_ORDER_DESC} LIMIT 1"),
            {"brand": brand_id},
        ).first()
        return None if row is None else (row[0], row[1], row[2])

    @staticmethod
    def _check_successor(dna: BrandDNA, latest: tuple[int, int, int]) -> None:
        latest_text = ".".join(str(part) for part in latest)
        if dna.version_key == latest:
            raise DnaVersionRejected(f"DNA-Version {dna.dna_version} der Marke '{dna.brand_id}' ist schon gespeichert.")
        if dna.version_key < latest:
            raise DnaVersionRejected(
                f"DNA-Version {dna.dna_version} ist nicht neuer als die gespeicherte {latest_text}"
                f" der Marke '{dna.brand_id}'."
            )
        if dna.change_kind is None:
            raise DnaVersionRejected(
                f"DNA-Version {dna.dna_version} folgt auf {latest_text}: Feld change_kind fehlt"
                " (editorial | methodical | structural)."
            )
