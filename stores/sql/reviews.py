"""The review inbox's SQL: open bucket items of the three graphs, and the decisions reviewers made on them.

Stored results are never rewritten (scan findings are sealed by their audit hash); a decision is a row of its
own in ``review_decisions``, and an item is open while no decision names it.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from stores.brand.json_columns import read_json
from stores.sql.engine import Database

GraphName = Literal["answer", "scan", "scorecard"]
Origin = Literal["bucket", "interrupt"]
DecisionAction = Literal["approve", "edit", "reject"]


class OpenAnswer(BaseModel):
    model_config = ConfigDict(frozen=True)

    record_id: int
    created_at: datetime
    bot_id: str | None
    kb_id: str | None
    record: dict[str, Any]


class OpenFinding(BaseModel):
    """An UNCERTAIN finding of a stored scan, with what the reviewer and the quote check need."""

    model_config = ConfigDict(frozen=True)

    scan_id: str
    position: int
    created_at: datetime
    document_id: str
    catalog_version_id: int
    requirement_id: int
    stable_id: str
    title: str
    requirement_text: str
    page_number: int
    exact_quote: str
    finding_text: str
    proposed_severity: Literal["MAJOR", "MINOR", "HINT"]
    confidence: float
    threshold: float


class DecisionRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    item_id: str
    graph: GraphName
    origin: Origin
    action: DecisionAction
    reviewer: str
    note: str | None = None
    before: dict[str, Any]
    after: dict[str, Any]


class StoredDecision(DecisionRecord):
    id: int
    decided_at: datetime


class AlreadyDecided(ValueError):
    def __init__(self, item_id: str) -> None:
        super().__init__(f"Über {item_id} wurde bereits entschieden.")
        self.item_id = item_id


_OPEN_ANSWERS = (
    "SELECT a.id AS record_id, a.created_at, a.bot_id, a.kb_id, a.record FROM answer_records a"
    " LEFT JOIN review_decisions d ON d.item_id = 'answer:' || a.id"
    " WHERE a.bucket = 'human_review' AND d.id IS NULL"
)
_OPEN_FINDINGS = (
    "SELECT f.scan_id, f.position, s.created_at, s.document_id, s.catalog_version_id, f.requirement_id,"
    " r.stable_id, r.title, r.requirement_text, f.page_number, f.exact_quote, f.finding_text,"
    " f.proposed_severity, f.confidence, s.confidence_threshold AS threshold"
    " FROM findings f JOIN scans s ON s.id = f.scan_id JOIN requirements r ON r.id = f.requirement_id"
    " LEFT JOIN review_decisions d ON d.item_id = 'scan:' || f.scan_id || ':' || f.position"
    " WHERE f.bucket = 'human_review' AND d.id IS NULL"
)
_OPEN_SCORECARDS = (
    "SELECT a.id FROM scorecard_audit a LEFT JOIN review_decisions d ON d.item_id = 'scorecard:' || a.id"
    " WHERE a.requires_owner_approval AND a.owner_decision IS NULL AND d.id IS NULL"
)


class ReviewStore:
    def __init__(self, database: Database) -> None:
        self._db = database

    def open_answers(self, *, bot_id: str | None = None, record_id: int | None = None) -> list[OpenAnswer]:
        query, params = _OPEN_ANSWERS, dict[str, Any]()
        if bot_id is not None:
            query += " AND a.bot_id = :bot"
            params["bot"] = bot_id
        if record_id is not None:
            query += " AND a.id = :id"
            params["id"] = record_id
        with self._db.transaction() as connection:
            rows = connection.execute(text(query + " ORDER BY a.id"), params).mappings().all()
        return [OpenAnswer.model_validate(dict(row) | {"record": read_json(row["record"])}) for row in rows]

    def open_findings(self, *, scan_id: str | None = None, position: int | None = None) -> list[OpenFinding]:
        query, params = _OPEN_FINDINGS, dict[str, Any]()
        if scan_id is not None and position is not None:
            query += " AND f.scan_id = :scan AND f.position = :position"
            params |= {"scan": scan_id, "position": position}
        with self._db.transaction() as connection:
            rows = connection.execute(text(query + " ORDER BY s.created_at, f.scan_id, f.position"), params)
            return [OpenFinding.model_validate(dict(row)) for row in rows.mappings()]

    def open_scorecards(self) -> list[int]:
        with self._db.transaction() as connection:
            return [int(i) for i in connection.execute(text(_OPEN_SCORECARDS + " ORDER BY a.id")).scalars()]

    def record(self, decision: DecisionRecord) -> StoredDecision:
        """Store one decision; a second decision on the same item is refused (AlreadyDecided)."""
        values = decision.model_dump()
        values["before"] = json.dumps(values["before"], ensure_ascii=False, default=str)
        values["after"] = json.dumps(values["after"], ensure_ascii=False, default=str)
        cast = "CAST({} AS jsonb)" if self._db.dialect == "postgresql" else "{}"
        try:
            with self._db.transaction() as connection:
                new_id = connection.execute(
                    text(
                        "INSERT INTO review_decisions (item_id, graph, origin, action, reviewer, note, before, after)"
                        f" VALUES (:item_id, :graph, :origin, :action, :reviewer, :note,"
                        f" {cast.format(':before')}, {cast.format(':after')}) RETURNING id"
                    ),
                    values,
                ).scalar_one()
        except IntegrityError as exc:
            if "UNIQUE" in str(exc.orig).upper() or "duplicate key" in str(exc.orig):
                raise AlreadyDecided(decision.item_id) from None
            raise
        return self.decisions(ids=[int(new_id)])[0]

    def decisions(self, *, ids: list[int] | None = None, limit: int = 50) -> list[StoredDecision]:
        query, params = "SELECT * FROM review_decisions", dict[str, Any](limit=limit)
        if ids is not None:
            query += " WHERE id IN (" + ", ".join(str(int(i)) for i in ids) + ")"
        with self._db.transaction() as connection:
            rows = connection.execute(text(query + " ORDER BY id DESC LIMIT :limit"), params).mappings().all()
        return [
            StoredDecision.model_validate(
                dict(row) | {"before": read_json(row["before"]), "after": read_json(row["after"])}
            )
            for row in rows
        ]
