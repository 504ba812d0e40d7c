"""KB tables: ingested entries with content hashes, declared conflicts and each KB's ID pattern."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, bindparam, text

from stores.kb.models import KBConflict, KBEntry
from stores.sql.engine import Database


@dataclass(frozen=True)
class StoredEntry:
    entry: KBEntry
    content_hash: str
    chunk_count: int


@dataclass(frozen=True)
class KBChanges:
    """One ingestion's writes; applied in a single transaction."""

    kb_id: str
    id_pattern: str
    upserts: Sequence[StoredEntry] = ()
    removals: Sequence[str] = ()
    conflicts: Sequence[KBConflict] = ()
    prune_conflicts: bool = False


def conflict_key(ids: Sequence[str]) -> str:
    return "|".join(sorted(ids))


class KBRecords:
    """Reads and writes the KB tables; every read is scoped to one ``kb_id``."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def id_pattern(self, kb_id: str) -> str | None:
        with self._db.transaction() as connection:
            found = connection.execute(
                text("SELECT id_pattern FROM knowledge_bases WHERE kb_id = :kb"), {"kb": kb_id}
            ).scalar_one_or_none()
        return None if found is None else str(found)

    def known_ids(self) -> list[str]:
        with self._db.transaction() as connection:
            return list(connection.execute(text("SELECT kb_id FROM knowledge_bases ORDER BY kb_id")).scalars())

    def hashes(self, kb_id: str) -> dict[str, str]:
        with self._db.transaction() as connection:
            rows = connection.execute(
                text("SELECT entry_id, content_hash FROM kb_entries WHERE kb_id = :kb"), {"kb": kb_id}
            )
            return {str(entry_id): str(digest) for entry_id, digest in rows}

    def stored(self, kb_id: str, ids: Sequence[str] | None = None) -> list[StoredEntry]:
        """Entries of one KB, ordered by id; only those in ``ids`` when given."""
        sql = "SELECT entry, content_hash, chunk_count FROM kb_entries WHERE kb_id = :kb"
        params: dict[str, object] = {"kb": kb_id}
        statement = text(sql + " ORDER BY entry_id")
        if ids is not None:
            if not ids:
                return []
            statement = text(sql + " AND entry_id IN :ids ORDER BY entry_id").bindparams(
                bindparam("ids", expanding=True)
            )
            params["ids"] = list(ids)
        with self._db.transaction() as connection:
            rows = connection.execute(statement, params).all()
        return [
            StoredEntry(KBEntry.model_validate_json(entry), str(digest), int(chunks)) for entry, digest, chunks in rows
        ]

    def works(self, kb_id: str) -> dict[str, list[str]]:
        """Each work of one KB with its entries' ids, both in id order."""
        with self._db.transaction() as connection:
            rows = connection.execute(
                text("SELECT entry_id, entry FROM kb_entries WHERE kb_id = :kb ORDER BY entry_id"), {"kb": kb_id}
            ).all()
        works: dict[str, list[str]] = {}
        for entry_id, entry in rows:
            works.setdefault(str(json.loads(entry)["work"]), []).append(str(entry_id))
        return dict(sorted(works.items()))

    def conflicts(self, kb_id: str) -> list[KBConflict]:
        with self._db.transaction() as connection:
            rows = connection.execute(
                text("SELECT topic, ids, sides FROM kb_conflicts WHERE kb_id = :kb ORDER BY conflict_key"),
                {"kb": kb_id},
            ).all()
        return [
            KBConflict(kb_id=kb_id, topic=topic, ids=tuple(json.loads(ids)), sides=json.loads(sides))
            for topic, ids, sides in rows
        ]

    def apply(self, changes: KBChanges, *, before_commit: Callable[[], None] = lambda: None) -> list[str]:
        """Write the changes; ``before_commit`` (the index update) runs inside the transaction, so if it
        fails nothing is recorded. Returns the keys of conflicts removed by pruning."""
        with self._db.transaction() as connection:
            self._upsert_kb(connection, changes.kb_id, changes.id_pattern)
            for stored in changes.upserts:
                self._upsert_entry(connection, stored)
            if changes.removals:
                connection.execute(
                    text("DELETE FROM kb_entries WHERE kb_id = :kb AND entry_id IN :ids").bindparams(
                        bindparam("ids", expanding=True)
                    ),
                    {"kb": changes.kb_id, "ids": list(changes.removals)},
                )
            removed = self._write_conflicts(connection, changes)
            before_commit()
        return removed

    @staticmethod
    def _upsert_kb(connection: Connection, kb_id: str, id_pattern: str) -> None:
        connection.execute(
            text(
                "INSERT INTO knowledge_bases (kb_id, id_pattern) VALUES (:kb, :pattern) "
                "ON CONFLICT (kb_id) DO UPDATE SET id_pattern = excluded.id_pattern, updated_at = CURRENT_TIMESTAMP"
            ),
            {"kb": kb_id, "pattern": id_pattern},
        )

    @staticmethod
    def _upsert_entry(connection: Connection, stored: StoredEntry) -> None:
        connection.execute(
            text(
                "INSERT INTO kb_entries (kb_id, entry_id, content_hash, chunk_count, entry) "
                "VALUES (:kb, :id, :digest, :chunks, :entry) "
                "ON CONFLICT (kb_id, entry_id) DO UPDATE SET content_hash = excluded.content_hash, "
                "chunk_count = excluded.chunk_count, entry = excluded.entry, updated_at = CURRENT_TIMESTAMP"
            ),
            {
                "kb": stored.entry.kb_id,
                "id": stored.entry.id,
                "digest": stored.content_hash,
                "chunks": stored.chunk_count,
                "entry": stored.entry.model_dump_json(),
            },
        )

    @staticmethod
    def _write_conflicts(connection: Connection, changes: KBChanges) -> list[str]:
        keys = {conflict_key(c.ids) for c in changes.conflicts}
        removed: list[str] = []
        if changes.prune_conflicts:
            existing = connection.execute(
                text("SELECT conflict_key FROM kb_conflicts WHERE kb_id = :kb"), {"kb": changes.kb_id}
            ).scalars()
            removed = sorted(set(existing) - keys)
            for key in removed:
                connection.execute(
                    text("DELETE FROM kb_conflicts WHERE kb_id = :kb AND conflict_key = :key"),
                    {"kb": changes.kb_id, "key": key},
                )
        for conflict in changes.conflicts:
            connection.execute(
                text(
                    "INSERT INTO kb_conflicts (kb_id, conflict_key, topic, ids, sides) "
                    "VALUES (:kb, :key, :topic, :ids, :sides) "
                    "ON CONFLICT (kb_id, conflict_key) DO UPDATE SET topic = excluded.topic, "
                    "ids = excluded.ids, sides = excluded.sides"
                ),
                {
                    "kb": changes.kb_id,
                    "key": conflict_key(conflict.ids),
                    "topic": conflict.topic,
                    "ids": json.dumps(list(conflict.ids), ensure_ascii=False),
                    "sides": json.dumps(conflict.sides, ensure_ascii=False, sort_keys=True),
                },
            )
        return removed
