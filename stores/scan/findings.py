"""Findings of a scan. The database decides which quotes are genuine (trigger in 0003_scan.sql); this store
asks it, stores a whole scan in one transaction and reads a scan back for audit verification."""

from __future__ import annotations

import json
import re
import uuid

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Connection, text
from sqlalchemy.exc import IntegrityError

from stores.scan.audit import (
    AuditedFinding,
    AuditHeader,
    AuditRecord,
    AuditVerdict,
    FindingContent,
    find_differences,
    seal,
)
from stores.scan.trail import AuditTrail, ChainHeadLog, ChainHeadUnreadable
from stores.scan.whitespace import canonical_whitespace
from stores.sql.engine import Database

REJECTION_REASONS: dict[str, str] = {
    "scan_missing": "gehört zu keinem gespeicherten Scan",
    "page_missing": "nennt eine Seite, die das Dokument nicht hat",
    "page_not_citable": "nennt eine Seite ohne Textebene",
    "quote_too_short": "Zitat ist kürzer als 10 Zeichen",
    "quote_not_on_page": "Zitat steht nicht wörtlich auf der angegebenen Seite",
    "requirement_outside_catalog": "Anforderung gehört nicht zur aktiven Katalogversion des Scans",
    "reviewer_missing": "ist als geprüft markiert, nennt aber keinen Prüfer (oder umgekehrt)",
    "constraint": "verletzt eine Tabellenbedingung (Länge oder Steuerzeichen)",
}
_REJECTION = re.compile(r"finding_rejected:([a-z_]+)")
_TRIAL_HASH = "0" * 64


class QuoteCandidate(BaseModel):
    """What the database needs to judge a finding's quote."""

    model_config = ConfigDict(frozen=True)

    requirement_id: int
    page_number: int
    exact_quote: str


class FindingRecord(FindingContent):
    """A finding ready to be stored, with the requirement row and the chunk it came from."""

    requirement_id: int
    chunk_id: str


class FindingRejected(ValueError):
    """The database refused a finding while a scan was being stored; the whole scan is rolled back."""

    def __init__(self, position: int, reason: str) -> None:
        super().__init__(f"Befund {position} abgelehnt: {REJECTION_REASONS.get(reason, reason)}")
        self.reason = reason


class ScanNotFound(LookupError):
    def __init__(self, scan_id: str) -> None:
        super().__init__(f"Scan '{scan_id}' ist in der Datenbank nicht gespeichert.")
        self.scan_id = scan_id


def rejection_reason(exc: IntegrityError) -> str:
    """The trigger's reason code (``quote_not_on_page`` …) or ``constraint`` for any other refusal."""
    match = _REJECTION.search(str(exc.orig))
    return match.group(1) if match else "constraint"


class FindingStore:
    """Findings on one database, sealed and verified with one installation's audit trail (key, head file).

    Without a trail the store only judges quotes (``check_quotes``); sealing and verifying need the key.
    """

    def __init__(self, database: Database, *, trail: AuditTrail | None = None) -> None:
        self._db = database
        self._given_trail = trail

    @property
    def _trail(self) -> AuditTrail:
        if self._given_trail is None:
            raise TypeError("FindingStore without an AuditTrail cannot seal or verify scans")
        return self._given_trail

    def check_quotes(
        self, *, document_id: str, catalog_version_id: int, candidates: list[QuoteCandidate]
    ) -> list[str | None]:
        """Per candidate: None if the database would store it, else the reason code. Nothing is kept.

        Each candidate is inserted for real, trigger included, in a transaction that is always rolled back.
        """
        verdicts: list[str | None] = []
        for candidate in candidates:
            with self._db.engine.connect() as connection:
                transaction = connection.begin()
                try:
                    scan_id = f"trial-{uuid.uuid4().hex}"
                    _insert_scan(
                        connection,
                        scan_id=scan_id,
                        document_id=document_id,
                        catalog_version_id=catalog_version_id,
                        model_ids="{}",
                        prompt_version="trial",
                        confidence_threshold=0.0,
                        audit_hash=_TRIAL_HASH,
                    )
                    _insert_finding(
                        connection,
                        scan_id,
                        position=1,
                        record=FindingRecord(
                            requirement_id=candidate.requirement_id,
                            stable_id="trial",
                            chunk_id="trial",
                            page_number=candidate.page_number,
                            exact_quote=canonical_whitespace(candidate.exact_quote),
                            finding_text="trial",
                            proposed_severity="HINT",
                            severity="HINT",
                            bucket="report",
                            confidence=1.0,
                        ),
                        finding_hash=_TRIAL_HASH,
                    )
                    verdicts.append(None)
                except IntegrityError as exc:
                    verdicts.append(rejection_reason(exc))
                finally:
                    transaction.rollback()
        return verdicts

    def save_scan(
        self,
        header: AuditHeader,
        *,
        document_id: str,
        confidence_threshold: float,
        findings: list[FindingRecord],
    ) -> AuditRecord:
        """Store the scan and all its findings in one transaction and return the sealed audit record.

        Saving a scan id that is already stored returns the stored record (a resumed run writes nothing twice).
        The chain head goes to the trail's head file before the commit: a failed append stores nothing.
        """
        records = [
            finding.model_copy(update={"exact_quote": canonical_whitespace(finding.exact_quote)})
            for finding in findings
        ]
        sealed = seal(header, [_audited(record) for record in records], key=self._trail.key)
        try:
            with self._db.transaction() as connection:
                if _scan_exists(connection, header.scan_id):
                    return _load(connection, header.scan_id)
                _insert_scan(
                    connection,
                    scan_id=header.scan_id,
                    document_id=document_id,
                    catalog_version_id=header.catalog_version_id,
                    model_ids=json.dumps(header.model_ids, sort_keys=True),
                    prompt_version=header.prompt_version,
                    confidence_threshold=confidence_threshold,
                    audit_hash=sealed.audit_hash,
                )
                for position, (record, finding_hash) in enumerate(zip(records, sealed.finding_hashes, strict=True), 1):
                    try:
                        _insert_finding(
                            connection, header.scan_id, position=position, record=record, finding_hash=finding_hash
                        )
                    except IntegrityError as exc:
                        raise FindingRejected(position, rejection_reason(exc)) from exc
                if self._trail.heads is not None:
                    self._trail.heads.append(header.scan_id, sealed.audit_hash, len(records))
        except IntegrityError:
            with self._db.transaction() as connection:
                if _scan_exists(connection, header.scan_id):  # another run stored it between check and insert
                    return _load(connection, header.scan_id)
            raise
        return sealed

    def load_audit(self, scan_id: str) -> AuditRecord:
        with self._db.transaction() as connection:
            return _load(connection, scan_id)

    def verify(self, report: AuditRecord) -> AuditVerdict:
        """Compare a report's audit record with the database, recomputing both keyed hash chains, and with the
        chain head in the trail's head file when there is one."""
        try:
            stored = self.load_audit(report.header.scan_id)
        except ScanNotFound as exc:
            return AuditVerdict(valid=False, differences=(str(exc),))
        differences = find_differences(report, stored, key=self._trail.key)
        if self._trail.heads is not None:
            differences += _head_differences(self._trail.heads, report, stored)
        return AuditVerdict(valid=not differences, differences=tuple(differences))


def _head_differences(log: ChainHeadLog, report: AuditRecord, stored: AuditRecord) -> list[str]:
    try:
        heads = log.heads_of(report.header.scan_id)
    except (ChainHeadUnreadable, OSError) as exc:
        return [str(exc)]
    if not heads:
        return [f"Kettenkopf-Datei {log.path}: kein Eintrag für Scan '{report.header.scan_id}'"]
    if len(set(heads)) > 1:
        return [f"Kettenkopf-Datei: {len(set(heads))} verschiedene Audit-Hashes für denselben Scan"]
    differences = []
    for source, record in (("Bericht", report), ("Datenbank", stored)):
        if record.audit_hash != heads[0]:
            differences.append(f"Kettenkopf: {source} {record.audit_hash} ≠ Kettenkopf-Datei {heads[0]}")
    return differences


def _audited(record: FindingRecord) -> AuditedFinding:
    return AuditedFinding(position=1, **record.model_dump(exclude={"requirement_id", "chunk_id"}))


def _scan_exists(connection: Connection, scan_id: str) -> bool:
    found = connection.execute(text("SELECT 1 FROM scans WHERE id = :id"), {"id": scan_id}).first()
    return found is not None


def _insert_scan(
    connection: Connection,
    *,
    scan_id: str,
    document_id: str,
    catalog_version_id: int,
    model_ids: str,
    prompt_version: str,
    confidence_threshold: float,
    audit_hash: str,
) -> None:
    connection.execute(
        text(
            "INSERT INTO scans (id, document_id, catalog_version_id, model_ids, prompt_version,"
            " confidence_threshold, audit_hash) VALUES (:id, :document_id, :catalog_version_id, :model_ids,"
            " :prompt_version, :confidence_threshold, :audit_hash)"
        ),
        {
            "id": scan_id,
            "document_id": document_id,
            "catalog_version_id": catalog_version_id,
            "model_ids": model_ids,
            "prompt_version": prompt_version,
            "confidence_threshold": confidence_threshold,
            "audit_hash": audit_hash,
        },
    )


def _insert_finding(
    connection: Connection, scan_id: str, *, position: int, record: FindingRecord, finding_hash: str
) -> None:
    connection.execute(
        text(
            "INSERT INTO findings (scan_id, position, requirement_id, chunk_id, page_number, exact_quote,"
            " finding_text, proposed_severity, severity, bucket, confidence, human_reviewed, reviewed_by,"
            " finding_hash) VALUES (:scan_id, :position, :requirement_id, :chunk_id, :page_number, :exact_quote,"
            " :finding_text, :proposed_severity, :severity, :bucket, :confidence, :human_reviewed, :reviewed_by,"
            " :finding_hash)"
        ),
        record.model_dump(exclude={"stable_id"})
        | {"scan_id": scan_id, "position": position, "finding_hash": finding_hash},
    )


def _load(connection: Connection, scan_id: str) -> AuditRecord:
    scan = (
        connection.execute(
            text(
                "SELECT s.id, d.sha256, s.catalog_version_id, s.model_ids, s.prompt_version, s.audit_hash"
                " FROM scans s JOIN documents d ON d.id = s.document_id WHERE s.id = :id"
            ),
            {"id": scan_id},
        )
        .mappings()
        .first()
    )
    if scan is None:
        raise ScanNotFound(scan_id)
    rows = connection.execute(
        text(
            "SELECT f.position, r.stable_id, f.page_number, f.exact_quote, f.finding_text, f.proposed_severity,"
            " f.severity, f.bucket, f.confidence, f.human_reviewed, f.reviewed_by, f.finding_hash"
            " FROM findings f JOIN requirements r ON r.id = f.requirement_id"
            " WHERE f.scan_id = :id ORDER BY f.position"
        ),
        {"id": scan_id},
    ).mappings()
    findings, hashes = [], []
    for row in rows:
        values = dict(row)
        hashes.append(values.pop("finding_hash"))
        findings.append(AuditedFinding.model_validate(values))
    header = AuditHeader(
        scan_id=scan["id"],
        document_sha256=scan["sha256"],
        catalog_version_id=scan["catalog_version_id"],
        model_ids=json.loads(scan["model_ids"]),
        prompt_version=scan["prompt_version"],
    )
    return AuditRecord(
        header=header, findings=tuple(findings), finding_hashes=tuple(hashes), audit_hash=scan["audit_hash"]
    )
