"""Audit hash of a scan: HMAC-SHA256 over a canonical header, then each finding chained to the one before.

``h0 = hmac(key, canonical(header))``, ``h_i = hmac(key, h_{i-1} + canonical(finding_i))``; the audit hash is
the last link (``h0`` for a scan without findings). Canonical means JSON with sorted keys, no spaces, UTF-8,
and confidences written with four decimals, so the same scan hashes the same on every machine and database.
The key (``BELEGT_AUDIT_KEY``) never enters the database: whoever rewrites database and report together
without it cannot produce hashes that verify.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

AUDIT_ALGORITHM = "hmac-sha256-chain-v2"

Severity = Literal["MAJOR", "MINOR", "HINT"]
ReportedSeverity = Literal["MAJOR", "MINOR", "HINT", "UNCERTAIN"]
Bucket = Literal["report", "human_review"]


class AuditHeader(BaseModel):
    """What a scan was: which document, which catalogue version, which models and prompts."""

    model_config = ConfigDict(frozen=True)

    scan_id: str
    document_sha256: str
    catalog_version_id: int
    model_ids: dict[str, str]
    prompt_version: str


class FindingContent(BaseModel):
    """What a finding says: clause, page, quote, text, severities, bucket, confidence, review."""

    model_config = ConfigDict(frozen=True)

    stable_id: str
    page_number: int
    exact_quote: str
    finding_text: str
    proposed_severity: Severity
    severity: ReportedSeverity
    bucket: Bucket
    confidence: float = Field(ge=0, le=1)
    human_reviewed: bool = False
    reviewed_by: str | None = None

    @model_validator(mode="after")
    def _reviewer_named(self) -> FindingContent:
        if self.human_reviewed != bool(self.reviewed_by and self.reviewed_by.strip()):
            raise ValueError("a human-reviewed finding names its reviewer (reviewed_by), and only such a finding")
        return self


class AuditedFinding(FindingContent):
    """A finding's content at its place in the report: exactly what the audit hash covers."""

    position: int = Field(ge=1)


class AuditRecord(BaseModel):
    """A scan as a report states it or as the database holds it, with the hashes stored alongside."""

    model_config = ConfigDict(frozen=True)

    header: AuditHeader
    findings: tuple[AuditedFinding, ...]
    finding_hashes: tuple[str, ...]
    audit_hash: str


class AuditVerdict(BaseModel):
    model_config = ConfigDict(frozen=True)

    valid: bool
    differences: tuple[str, ...]


def _canonical(value: dict[str, Any]) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _finding_payload(finding: AuditedFinding) -> dict[str, Any]:
    return finding.model_dump() | {"confidence": f"{finding.confidence:.4f}"}


def _mac(key: bytes, data: bytes) -> str:
    return hmac.new(key, data, hashlib.sha256).hexdigest()


def _header_hash(header: AuditHeader, key: bytes) -> str:
    return _mac(key, _canonical(header.model_dump() | {"algorithm": AUDIT_ALGORITHM}))


def chain_hashes(header: AuditHeader, findings: Sequence[AuditedFinding], *, key: bytes) -> list[str]:
    """The keyed hash of each finding, each one covering the header and every finding before it."""
    previous = _header_hash(header, key)
    hashes = []
    for finding in findings:
        previous = _mac(key, previous.encode("ascii") + _canonical(_finding_payload(finding)))
        hashes.append(previous)
    return hashes


def audit_hash(header: AuditHeader, findings: Sequence[AuditedFinding], *, key: bytes) -> str:
    hashes = chain_hashes(header, findings, key=key)
    return hashes[-1] if hashes else _header_hash(header, key)


def seal(header: AuditHeader, findings: list[AuditedFinding], *, key: bytes) -> AuditRecord:
    """Findings numbered 1..n in the given order, with their chained hashes and the audit hash."""
    numbered = [finding.model_copy(update={"position": index}) for index, finding in enumerate(findings, start=1)]
    return AuditRecord(
        header=header,
        findings=tuple(numbered),
        finding_hashes=tuple(chain_hashes(header, numbered, key=key)),
        audit_hash=audit_hash(header, numbered, key=key),
    )


def find_differences(report: AuditRecord, stored: AuditRecord, *, key: bytes) -> list[str]:
    """Everything that keeps the report from matching the database, in German; empty means valid."""
    differences = _self_check("Bericht", report, key) + _self_check("Datenbank", stored, key)
    for field in AuditHeader.model_fields:
        ours, theirs = getattr(report.header, field), getattr(stored.header, field)
        if ours != theirs:
            differences.append(f"Kopf, {field}: Bericht {ours!r} ≠ Datenbank {theirs!r}")
    differences += _order_differences(report, stored)
    if len(report.findings) != len(stored.findings):
        differences.append(f"Anzahl der Befunde: Bericht {len(report.findings)} ≠ Datenbank {len(stored.findings)}")
    for index, (ours_finding, theirs_finding) in enumerate(zip(report.findings, stored.findings, strict=False), 1):
        for field in AuditedFinding.model_fields:
            ours, theirs = getattr(ours_finding, field), getattr(theirs_finding, field)
            if ours != theirs:
                differences.append(f"Befund an Stelle {index}, {field}: Bericht {ours!r} ≠ Datenbank {theirs!r}")
    if report.audit_hash != stored.audit_hash:
        differences.append(f"Audit-Hash: Bericht {report.audit_hash} ≠ Datenbank {stored.audit_hash}")
    return differences


def _self_check(source: str, record: AuditRecord, key: bytes) -> list[str]:
    """Does the record's content still produce the hashes stored with it, under this installation's key?"""
    problems = []
    recomputed = chain_hashes(record.header, record.findings, key=key)
    if len(recomputed) != len(record.finding_hashes):
        problems.append(f"{source}: {len(record.finding_hashes)} Hashes für {len(recomputed)} Befunde")
    for index, (expected, claimed) in enumerate(zip(recomputed, record.finding_hashes, strict=False), start=1):
        if expected != claimed:
            problems.append(f"{source}: Befund an Stelle {index} passt nicht mehr zu seinem Hash (verändert)")
            break
    if audit_hash(record.header, record.findings, key=key) != record.audit_hash:
        problems.append(f"{source}: Audit-Hash lässt sich aus dem Inhalt nicht nachrechnen")
    for index, finding in enumerate(record.findings, start=1):
        if finding.position != index:
            problems.append(f"{source}: an Stelle {index} steht Befund Nr. {finding.position} (Reihenfolge)")
    return problems


def _order_differences(report: AuditRecord, stored: AuditRecord) -> list[str]:
    def key(finding: AuditedFinding) -> tuple[str, int, str]:
        return finding.stable_id, finding.page_number, finding.exact_quote

    report_keys = [key(finding) for finding in report.findings]
    stored_keys = [key(finding) for finding in stored.findings]
    if report_keys != stored_keys and sorted(report_keys) == sorted(stored_keys):
        return ["Reihenfolge der Befunde weicht von der gespeicherten ab"]
    return []
