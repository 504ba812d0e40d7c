"""Scanned documents and their pages; a document is stored once per SHA-256 and never changed."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, text
from sqlalchemy.exc import IntegrityError

from stores.sql.engine import Database

MediaType = Literal["application/pdf", "text/markdown", "text/plain"]


class PageText(BaseModel):
    """One page as extracted from the file; a page without a text layer cannot be cited."""

    model_config = ConfigDict(frozen=True)

    page_number: int = Field(ge=1)
    raw_text: str
    is_citable: bool


class DocumentDraft(BaseModel):
    model_config = ConfigDict(frozen=True)

    file_name: str
    sha256: str = Field(min_length=64, max_length=64)
    media_type: MediaType
    pages: tuple[PageText, ...] = Field(min_length=1)


class StoredDocument(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    sha256: str
    file_name: str
    media_type: MediaType
    page_count: int
    created_at: datetime


class DocumentNotFound(LookupError):
    def __init__(self, document_id: str) -> None:
        super().__init__(f"Dokument '{document_id}' gibt es nicht.")
        self.document_id = document_id


_COLUMNS = "id, sha256, file_name, media_type, page_count, created_at"


class DocumentStore:
    """Stores a document with all its pages in one transaction; storing the same bytes again is a no-op."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def store(self, draft: DocumentDraft) -> StoredDocument:
        """The stored document with this SHA-256, inserting it (pages included) if it is new."""
        try:
            with self._db.transaction() as connection:
                existing = self._by_sha(connection, draft.sha256)
                if existing is not None:
                    return existing
                document_id = uuid.uuid4().hex
                connection.execute(
                    text(
                        "INSERT INTO documents (id, sha256, file_name, media_type, page_count)"
                        " VALUES (:id, :sha256, :file_name, :media_type, :page_count)"
                    ),
                    {
                        "id": document_id,
                        "sha256": draft.sha256,
                        "file_name": draft.file_name,
                        "media_type": draft.media_type,
                        "page_count": len(draft.pages),
                    },
                )
                connection.execute(
                    text(
                        "INSERT INTO document_pages (document_id, page_number, raw_text, is_citable)"
                        " VALUES (:document_id, :page_number, :raw_text, :is_citable)"
                    ),
                    [page.model_dump() | {"document_id": document_id} for page in draft.pages],
                )
                return self._get(connection, document_id)
        except IntegrityError:
            # A concurrent scan stored the same bytes first; its row is as good as ours.
            with self._db.transaction() as connection:
                stored = self._by_sha(connection, draft.sha256)
            if stored is None:
                raise
            return stored

    def get(self, document_id: str) -> StoredDocument:
        with self._db.transaction() as connection:
            return self._get(connection, document_id)

    def pages(self, document_id: str) -> list[PageText]:
        with self._db.transaction() as connection:
            self._get(connection, document_id)
            rows = connection.execute(
                text(
                    "SELECT page_number, raw_text, is_citable FROM document_pages"
                    " WHERE document_id = :id ORDER BY page_number"
                ),
                {"id": document_id},
            ).mappings()
            return [PageText.model_validate(dict(row)) for row in rows]

    @staticmethod
    def _get(connection: Connection, document_id: str) -> StoredDocument:
        row = connection.execute(text(f"SELECT {_COLUMNS} FROM documents WHERE id = :id"), {"id": document_id})
        found = row.mappings().first()
        if found is None:
            raise DocumentNotFound(document_id)
        return StoredDocument.model_validate(dict(found))

    @staticmethod
    def _by_sha(connection: Connection, sha256: str) -> StoredDocument | None:
        row = connection.execute(text(f"SELECT {_COLUMNS} FROM documents WHERE sha256 = :sha"), {"sha": sha256})
        found = row.mappings().first()
        return None if found is None else StoredDocument.model_validate(dict(found))
