"""State of the ``scan`` graph and the domain records that flow through it."""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, NotRequired

from pydantic import BaseModel, ConfigDict
from typing_extensions import TypedDict

from stores.scan.audit import AuditedFinding, AuditHeader, AuditRecord, Bucket, ReportedSeverity, Severity

SEVERITY_ORDER: dict[Severity, int] = {"MAJOR": 0, "MINOR": 1, "HINT": 2}
CriticVerdict = Literal["confirmed", "downgraded", "rejected", "unchecked"]


class Segment(BaseModel):
    """A contiguous piece of one page inside a chunk, verbatim from the page text."""

    model_config = ConfigDict(frozen=True)

    page_number: int
    text: str


class Chunk(BaseModel):
    """Page-aware unit of review: it may span pages, and then every segment says which page it is from."""

    model_config = ConfigDict(frozen=True)

    chunk_id: str
    segments: tuple[Segment, ...]

    @property
    def pages(self) -> list[int]:
        return sorted({segment.page_number for segment in self.segments})

    @property
    def text(self) -> str:
        return "\n\n".join(segment.text for segment in self.segments)


class Clause(BaseModel):
    """A requirement the model may reference."""

    model_config = ConfigDict(frozen=True)

    requirement_id: int
    stable_id: str
    clause_path: str
    title: str
    requirement_text: str


class DocumentInfo(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    file_name: str
    sha256: str
    page_count: int
    uncitable_pages: tuple[int, ...]


class CatalogInfo(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    name: str
    active_requirements: int


class FindingDraft(BaseModel):
    """A finding as the model recorded it, already checked against the chunk's schema."""

    model_config = ConfigDict(frozen=True)

    finding_id: str
    chunk_id: str
    clause: Clause
    page_number: int
    exact_quote: str
    severity: Severity
    confidence: float
    finding_text: str


class NotAssessed(BaseModel):
    """A chunk whose answers broke the schema twice; nobody looked at it."""

    model_config = ConfigDict(frozen=True)

    chunk_id: str
    pages: tuple[int, ...]
    reason: str


class RejectedQuote(BaseModel):
    """A finding the database refused to store (its quote is not on the page, …)."""

    model_config = ConfigDict(frozen=True)

    finding_id: str
    stable_id: str
    page_number: int
    exact_quote: str
    reason: str


class Critique(BaseModel):
    model_config = ConfigDict(frozen=True)

    finding_id: str
    verdict: CriticVerdict
    severity: Severity
    confidence: float
    note: str


class RoutedFinding(BaseModel):
    """A verified, critiqued finding in its bucket: the report, or the human-review bucket as UNCERTAIN."""

    model_config = ConfigDict(frozen=True)

    draft: FindingDraft
    proposed_severity: Severity
    severity: ReportedSeverity
    bucket: Bucket
    confidence: float
    critic_note: str
    human_reviewed: bool = False
    reviewed_by: str | None = None

    def quoted(self) -> dict[str, Any]:
        """What every view of the finding shows: clause, page, quote, text, proposed severity, confidence."""
        return {
            "stable_id": self.draft.clause.stable_id,
            "page_number": self.draft.page_number,
            "exact_quote": self.draft.exact_quote,
            "finding_text": self.draft.finding_text,
            "proposed_severity": self.proposed_severity,
            "confidence": self.confidence,
        }


class ReportedFinding(AuditedFinding):
    """A stored finding as the report shows it; ``hash`` is its link in the audit chain."""

    clause_path: str
    title: str
    critic_note: str
    hash: str


class ReportCounts(BaseModel):
    model_config = ConfigDict(frozen=True)

    pages: int
    uncitable_pages: int
    chunks: int
    chunks_not_assessed: int
    findings_recorded: int
    quotes_rejected: int
    critic_rejected: int
    dismissed_in_review: int
    major: int
    minor: int
    hint: int
    human_review: int
    llm_calls: int


class ScanReport(BaseModel):
    """The scan's result: findings grouped by severity, the review bucket, what was not assessed, the audit."""

    model_config = ConfigDict(frozen=True)

    scan_id: str
    document: DocumentInfo
    catalog: CatalogInfo
    model_ids: dict[str, str]
    prompt_version: str
    confidence_threshold: float
    findings: dict[Severity, list[ReportedFinding]]
    human_review: list[ReportedFinding]
    not_assessed: list[NotAssessed]
    rejected_quotes: list[RejectedQuote]
    counts: ReportCounts
    audit_algorithm: str
    audit_hash: str

    def ordered_findings(self) -> list[ReportedFinding]:
        """All stored findings in audit order: MAJOR, MINOR, HINT, then the review bucket."""
        grouped = [finding for severity in SEVERITY_ORDER for finding in self.findings.get(severity, [])]
        return grouped + list(self.human_review)

    def audit_record(self) -> AuditRecord:
        """What the report claims, in the form the database's record is compared with."""
        ordered = self.ordered_findings()
        return AuditRecord(
            header=AuditHeader(
                scan_id=self.scan_id,
                document_sha256=self.document.sha256,
                catalog_version_id=self.catalog.id,
                model_ids=self.model_ids,
                prompt_version=self.prompt_version,
            ),
            findings=tuple(
                AuditedFinding.model_validate(finding.model_dump(include=set(AuditedFinding.model_fields)))
                for finding in ordered
            ),
            finding_hashes=tuple(finding.hash for finding in ordered),
            audit_hash=self.audit_hash,
        )


class ChunkTask(TypedDict):
    """What ``record_findings`` gets for one chunk (a Send payload)."""

    chunk: Chunk
    clauses: list[Clause]


class FindingTask(TypedDict):
    """What ``critique_finding`` gets for one finding (a Send payload)."""

    finding: FindingDraft


class ScanInput(TypedDict):
    scan_id: str
    document_id: str
    catalog_version_id: NotRequired[int | None]


class ScanOutput(TypedDict):
    report: ScanReport


class ScanState(ScanInput, total=False):
    model_ids: dict[str, str]
    document: DocumentInfo
    catalog: CatalogInfo
    chunks: list[Chunk]
    clauses: dict[str, list[Clause]]
    drafts: Annotated[list[FindingDraft], operator.add]
    not_assessed: Annotated[list[NotAssessed], operator.add]
    llm_calls: Annotated[int, operator.add]
    verified: list[FindingDraft]
    rejected_quotes: list[RejectedQuote]
    critiques: Annotated[list[Critique], operator.add]
    routed: list[RoutedFinding]
    confidence_threshold: float  # as the buckets were assigned; later nodes must not read a resume's context
    dismissed: list[RoutedFinding]
    audit: AuditRecord
    report: ScanReport
