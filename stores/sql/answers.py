"""Answer records: the output of every answer-graph run, for audit and the human-review bucket."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import text

from stores.sql.engine import Database


class AnswerRecordStore:
    def __init__(self, database: Database) -> None:
        self._db = database

    def write(self, record: dict[str, Any]) -> None:
        payload = json.dumps(record, ensure_ascii=False, default=str)
        cast = "CAST(:record AS jsonb)" if self._db.dialect == "postgresql" else ":record"
        with self._db.transaction() as connection:
            connection.execute(
                text(f"INSERT INTO answer_records (bot_id, kb_id, bucket, record) VALUES (:bot, :kb, :bucket, {cast})"),
                {"bot": record.get("bot_id"), "kb": record.get("kb_id"), "bucket": record["bucket"], "record": payload},
            )

    def latest(self, limit: int = 20, *, bucket: str | None = None) -> list[dict[str, Any]]:
        query = "SELECT record FROM answer_records"
        params: dict[str, Any] = {"limit": limit}
        if bucket is not None:
            query += " WHERE bucket = :bucket"
            params["bucket"] = bucket
        with self._db.transaction() as connection:
            rows = connection.execute(text(query + " ORDER BY id DESC LIMIT :limit"), params).scalars().all()
        return [row if isinstance(row, dict) else json.loads(row) for row in rows]
