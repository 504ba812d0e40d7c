"""Scorecard audit log: one row per validation run, plus the brand owner's decision where one was needed."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import text

from stores.brand.json_columns import read_json
from stores.sql.engine import Database

_JSON_FIELDS = ("feature_flags", "model_ids", "criteria", "maturity", "token_usage")


class AuditEntry(BaseModel):
    """What a run is recorded with; the JSON parts are written by the scorecard nodes."""

    model_config = ConfigDict(frozen=True)

    brand_id: str
    dna_version: str
    content_id: str
    input_hash: str
    status: str
    score: float
    validated_by: str
    requires_owner_approval: bool
    feature_flags: dict[str, Any]
    model_ids: dict[str, Any]
    criteria: dict[str, Any]
    maturity: dict[str, Any]
    token_usage: dict[str, Any]
    latency_ms: float


class StoredAudit(AuditEntry):
    id: int
    owner_decision: dict[str, Any] | None
    created_at: datetime
    decided_at: datetime | None


class AuditNotFound(LookupError):
    def __init__(self, audit_id: int) -> None:
        super().__init__(f"Audit-Eintrag {audit_id} gibt es nicht.")
        self.audit_id = audit_id


class AuditStore:
    def __init__(self, database: Database) -> None:
        self._db = database

    def record(self, entry: AuditEntry) -> int:
        values = entry.model_dump()
        for field in _JSON_FIELDS:
            values[field] = json.dumps(values[field], ensure_ascii=False)
        columns = ", ".join(values)
        placeholders = ", ".join(f":{name}" for name in values)
        with self._db.transaction() as connection:
            new_id = connection.execute(
                text(f"INSERT INTO scorecard_audit ({columns}) VALUES ({placeholders}) RETURNING id"), values
            ).scalar_one()
        return int(new_id)

    def record_owner_decision(self, audit_id: int, *, status: str, decision: dict[str, Any]) -> StoredAudit:
        """The owner released or rejected the content, once; a row already decided keeps its first decision."""
        with self._db.transaction() as connection:
            connection.execute(
                text(
                    "UPDATE scorecard_audit SET status = :status, validated_by = 'human',"
                    " owner_decision = :decision, decided_at = CURRENT_TIMESTAMP"
                    " WHERE id = :id AND owner_decision IS NULL"
                ),
                {"status": status, "decision": json.dumps(decision, ensure_ascii=False), "id": audit_id},
            )
        return self.get(audit_id)

    def get(self, audit_id: int) -> StoredAudit:
        with self._db.transaction() as connection:
            row = connection.execute(text("SELECT * FROM scorecard_audit WHERE id = :id"), {"id": audit_id})
            found = row.mappings().first()
        if found is None:
            raise AuditNotFound(audit_id)
        values = dict(found)
        for field in (*_JSON_FIELDS, "owner_decision"):
            values[field] = read_json(values[field])
        return StoredAudit.model_validate(values)
