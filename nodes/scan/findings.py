"""Steps 3 and 4: record findings per chunk through ``record_finding``, then let the database verify quotes."""

from __future__ import annotations

import logging
from typing import Any, Literal

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.types import Send
from pydantic import BaseModel, ConfigDict, Field, create_model

from nodes.scan.prompts import CLAUSE_BLOCK, FINDINGS_SYSTEM, FINDINGS_USER, PAGE_BLOCK
from nodes.scan.services import ScanServices
from nodes.scan.state import Chunk, ChunkTask, Clause, FindingDraft, NotAssessed, RejectedQuote, ScanState
from nodes.scan.structured import ask_structured
from stores.scan.audit import Severity
from stores.scan.findings import REJECTION_REASONS, QuoteCandidate
from stores.scan.whitespace import canonical_whitespace

logger = logging.getLogger(__name__)

NO_CLAUSES = "keine Anforderung des Katalogs passt zu diesem Abschnitt"


def finding_schema(clauses: list[Clause], pages: list[int]) -> type[BaseModel]:
    """The ``record_finding`` tool for one chunk: requirement_id is an enum of exactly its clauses' IDs."""
    allowed_ids = tuple(clause.stable_id for clause in clauses)
    # Enums built at run time; a one-value Literal would become "const" in the JSON schema, so "enum" is
    # added explicitly (providers know it better).
    requirement_type: Any = Literal[allowed_ids]
    page_type: Any = Literal[tuple(pages)]
    finding = create_model(
        "Finding",
        __config__=ConfigDict(extra="forbid", str_strip_whitespace=True),
        requirement_id=(
            requirement_type,
            Field(description="ID einer der genannten Anforderungen", json_schema_extra={"enum": list(allowed_ids)}),
        ),
        exact_quote=(str, Field(min_length=10, max_length=2000, description="Wörtlicher Auszug aus einer Seite")),
        page_number=(
            page_type,
            Field(description="Seite, auf der das Zitat steht", json_schema_extra={"enum": list(pages)}),
        ),
        severity=(Severity, Field(description="MAJOR, MINOR oder HINT")),
        confidence=(float, Field(ge=0.0, le=1.0, description="Sicherheit des Befunds, 0 bis 1")),
        finding_text=(str, Field(min_length=1, description="Was fehlt oder falsch ist, auf Deutsch")),
    )
    return create_model(
        "record_finding",
        __doc__="Befunde zu diesem Ausschnitt festhalten; eine leere Liste, wenn es keine gibt.",
        findings=(list[finding], Field(description="Alle Befunde zu diesem Ausschnitt")),
    )


def format_chunk(chunk: Chunk) -> str:
    return "\n".join(
        PAGE_BLOCK.format(page_number=segment.page_number, text=segment.text) for segment in chunk.segments
    )


def format_clauses(clauses: list[Clause]) -> str:
    return "\n".join(CLAUSE_BLOCK.format(**clause.model_dump()) for clause in clauses)


def fan_out_chunks(state: ScanState) -> list[Send]:
    clauses = state.get("clauses", {})
    return [
        Send("record_findings", ChunkTask(chunk=chunk, clauses=clauses.get(chunk.chunk_id, [])))
        for chunk in state["chunks"]
    ]


def record_findings(state: ChunkTask, *, services: ScanServices) -> dict[str, Any]:
    chunk, clauses = state["chunk"], state["clauses"]
    if not clauses:
        return {"not_assessed": [NotAssessed(chunk_id=chunk.chunk_id, pages=tuple(chunk.pages), reason=NO_CLAUSES)]}
    schema = finding_schema(clauses, chunk.pages)
    messages = [
        SystemMessage(FINDINGS_SYSTEM),
        HumanMessage(
            FINDINGS_USER.format(
                clauses=format_clauses(clauses),
                pages=", ".join(str(page) for page in chunk.pages),
                chunk=format_chunk(chunk),
            )
        ),
    ]
    result = ask_structured(services.finding_model, schema, messages, provider=services.provider)
    if result.answer is None:
        reason = f"Antwort zweimal nicht schemagerecht: {result.problem}"
        logger.warning("Abschnitt %s nicht bewertet: %s", chunk.chunk_id, reason)
        return {
            "not_assessed": [NotAssessed(chunk_id=chunk.chunk_id, pages=tuple(chunk.pages), reason=reason)],
            "llm_calls": result.calls,
        }
    by_id = {clause.stable_id: clause for clause in clauses}
    drafts = [
        FindingDraft(
            finding_id=f"{chunk.chunk_id}-f{number}",
            chunk_id=chunk.chunk_id,
            clause=by_id[item.requirement_id],
            page_number=item.page_number,
            exact_quote=canonical_whitespace(item.exact_quote),
            severity=item.severity,
            confidence=round(item.confidence, 4),
            finding_text=item.finding_text,
        )
        for number, item in enumerate(result.answer.findings, start=1)  # type: ignore[attr-defined]
    ]
    return {"drafts": drafts, "llm_calls": result.calls}


def _distinct(drafts: list[FindingDraft]) -> list[FindingDraft]:
    """One draft per (clause, page, quote), the most confident, in chunk order."""
    best: dict[tuple[str, int, str], FindingDraft] = {}
    for draft in sorted(drafts, key=lambda d: d.finding_id):
        key = (draft.clause.stable_id, draft.page_number, draft.exact_quote)
        if key not in best or draft.confidence > best[key].confidence:
            best[key] = draft
    return list(best.values())


def verify_quotes(state: ScanState, *, services: ScanServices) -> dict[str, Any]:
    """The database judges every quote (trigger, rolled back); rejected findings are logged and counted."""
    drafts = _distinct(state.get("drafts", []))
    verdicts = services.findings.check_quotes(
        document_id=state["document"].id,
        catalog_version_id=state["catalog"].id,
        candidates=[
            QuoteCandidate(
                requirement_id=draft.clause.requirement_id,
                page_number=draft.page_number,
                exact_quote=draft.exact_quote,
            )
            for draft in drafts
        ],
    )
    verified, rejected = [], []
    for draft, reason in zip(drafts, verdicts, strict=True):
        if reason is None:
            verified.append(draft)
            continue
        logger.warning("Befund %s von der Datenbank abgelehnt: %s", draft.finding_id, reason)
        rejected.append(
            RejectedQuote(
                finding_id=draft.finding_id,
                stable_id=draft.clause.stable_id,
                page_number=draft.page_number,
                exact_quote=draft.exact_quote,
                reason=REJECTION_REASONS.get(reason, reason),
            )
        )
    return {"verified": verified, "rejected_quotes": rejected}
