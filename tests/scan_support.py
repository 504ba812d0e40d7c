"""Small builders shared by the scan tests: a catalogue, a document and a scan row, stored for real."""

from __future__ import annotations

import hashlib

from sqlalchemy import text

from stores.scan.catalog import CatalogStore, CatalogVersion, RequirementDraft
from stores.scan.documents import DocumentDraft, DocumentStore, PageText, StoredDocument
from stores.sql.engine import Database

PAGE_ONE = "Leistungsdaten\nSensitivität 96,4 %\n(n = 250 Proben)   im Vergleich zur PCR."
PAGE_THREE = "Unser Test ist 100 % sicher und ersetzt jede ärztliche Diagnose."


def requirement(stable_id: str, title: str, status: str = "ACTIVE") -> RequirementDraft:
    return RequirementDraft(
        stable_id=stable_id,
        clause_path=f"Demo › {stable_id}",
        title=title,
        requirement_text=f"{title}: Anforderungstext für {stable_id}.",
        clause_status=status,  # type: ignore[arg-type]
    )


def store_catalog(database: Database, *drafts: RequirementDraft, name: str = "Testkatalog") -> CatalogVersion:
    items = drafts or (
        requirement("REQ-1", "Konfidenzintervall angeben"),
        requirement("REQ-2", "Keine absoluten Sicherheitsversprechen"),
        requirement("REQ-OLD", "Veraltete Klausel", status="RETIRED"),
    )
    digest = hashlib.sha256(name.encode() + b"".join(d.stable_id.encode() for d in items)).hexdigest()
    return CatalogStore(database).create_version(
        name=name, source_file=f"{name}.yaml", source_sha256=digest, requirements=items
    )


def document_draft(*pages: str | None, file_name: str = "prospekt.md") -> DocumentDraft:
    texts = pages or (PAGE_ONE, None, PAGE_THREE)
    page_texts = tuple(
        PageText(page_number=number, raw_text=page or "", is_citable=page is not None)
        for number, page in enumerate(texts, start=1)
    )
    digest = hashlib.sha256("\f".join(page or "" for page in texts).encode()).hexdigest()
    return DocumentDraft(file_name=file_name, sha256=digest, media_type="text/markdown", pages=page_texts)


def store_document(database: Database, *pages: str | None) -> StoredDocument:
    return DocumentStore(database).store(document_draft(*pages))


def requirement_id(database: Database, version: CatalogVersion, stable_id: str) -> int:
    with database.transaction() as connection:
        found = connection.execute(
            text("SELECT id FROM requirements WHERE catalog_version_id = :v AND stable_id = :s"),
            {"v": version.id, "s": stable_id},
        ).scalar_one()
    return int(found)


def insert_scan_row(database: Database, scan_id: str, document_id: str, catalog_version_id: int) -> None:
    """A scan row written with raw SQL, as a forger would."""
    with database.transaction() as connection:
        connection.execute(
            text(
                "INSERT INTO scans (id, document_id, catalog_version_id, model_ids, prompt_version,"
                " confidence_threshold, audit_hash) VALUES (:id, :d, :v, '{}', 'forged', 0.7, :h)"
            ),
            {"id": scan_id, "d": document_id, "v": catalog_version_id, "h": "f" * 64},
        )
