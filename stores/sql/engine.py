"""One SQL engine for SQLite (embedded default) and PostgreSQL, with versioned per-dialect migrations."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import ProgrammingError

Dialect = Literal["sqlite", "postgresql"]
MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
INSUFFICIENT_PRIVILEGE = "42501"  # SQLSTATE of "permission denied"
_SQLITE_BUSY_TIMEOUT_S = 5


@dataclass(frozen=True)
class Database:
    """An engine plus the dialect it speaks; the only way stores reach SQL."""

    engine: Engine
    dialect: Dialect

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A connection inside one transaction: committed on success, rolled back on any error."""
        with self.engine.begin() as connection:
            yield connection

    def dispose(self) -> None:
        self.engine.dispose()


def normalise_url(url: str) -> str:
    """Use psycopg 3 for ``postgresql://`` URLs."""
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def open_database(url: str, *, migrate: bool = True) -> Database:
    """Connect, and apply pending migrations unless told not to."""
    url = normalise_url(url)
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, future=True)
    dialect: Dialect = "postgresql" if engine.dialect.name == "postgresql" else "sqlite"
    if dialect == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    database = Database(engine=engine, dialect=dialect)
    if migrate:
        try:
            apply_migrations(database)
        except Exception:
            database.dispose()
            raise
    return database


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute(f"PRAGMA busy_timeout = {_SQLITE_BUSY_TIMEOUT_S * 1000}")
    # WAL + NORMAL: commits stay durable against crashes of the process, without an fsync per commit.
    _enable_wal(cursor)
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.close()


def _enable_wal(cursor: Any) -> None:
    """Switch to WAL, waiting for other first starts: this switch is refused at once, busy_timeout is not honoured."""
    deadline = time.monotonic() + _SQLITE_BUSY_TIMEOUT_S
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def available_migrations(dialect: Dialect) -> list[tuple[int, str, str]]:
    """(version, file name, SQL) for every migration of the dialect, in order."""
    folder = resources.files("stores.sql") / "migrations" / dialect
    found = []
    for entry in folder.iterdir():
        match = MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


_MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version integer PRIMARY KEY, name text NOT NULL,"
    " applied_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP)"
)
# Session-level advisory lock per schema: concurrent first starts migrate one after the other.
_PG_LOCK = "SELECT pg_advisory_lock(hashtext('belegt.migrations.' || current_schema()))"
_PG_UNLOCK = "SELECT pg_advisory_unlock(hashtext('belegt.migrations.' || current_schema()))"


def applied_versions(database: Database) -> set[int]:
    """Versions recorded so far; reads only, so the application role (which may not create tables) can ask."""
    with database.engine.connect() as connection:
        return _read_versions(connection, database.dialect)


def _read_versions(connection: Connection, dialect: Dialect) -> set[int]:
    exists = (
        "SELECT to_regclass('schema_migrations') IS NOT NULL"
        if dialect == "postgresql"
        else "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    )
    if not connection.execute(text(exists)).scalar_one():
        return set()
    return set(connection.execute(text("SELECT version FROM schema_migrations")).scalars())


class MigrationsPending(RuntimeError):
    """Migrations are due, but the connected role may not change the schema (the application role)."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(
            f"{len(names)} Migration(en) ausstehend ({', '.join(names)}), aber diese Datenbankrolle darf das Schema "
            "nicht ändern: bitte als Schema-Eigentümer migrieren (etwa `belegt check` mit dessen "
            "BELEGT_DATABASE_URL) und danach grant_application_role(…) aufrufen."
        )


def apply_migrations(database: Database) -> list[str]:
    """Apply the pending migrations and return their names; safe when several processes start at once.

    PostgreSQL: an advisory lock serialises the migrators, each migration is its own transaction.
    SQLite: one ``BEGIN IMMEDIATE`` transaction holds the write lock from the first read to the last migration.
    Nothing pending means nothing is written, so a role without DDL rights starts fine on a migrated schema.
    """
    pending = [m for m in available_migrations(database.dialect) if m[0] not in applied_versions(database)]
    if not pending:
        return []
    if database.dialect == "postgresql":
        try:
            return _migrate_postgresql(database)
        except ProgrammingError as exc:
            if getattr(exc.orig, "sqlstate", None) == INSUFFICIENT_PRIVILEGE:
                raise MigrationsPending([name for _, name, _ in pending]) from None
            raise
    return _migrate_sqlite(database)


def _migrate_postgresql(database: Database) -> list[str]:
    applied = []
    with database.engine.connect() as connection:
        connection.execute(text(_PG_LOCK))
        connection.commit()
        try:
            with connection.begin():
                connection.execute(text(_MIGRATIONS_TABLE))
            done = _read_versions(connection, "postgresql")
            connection.commit()
            for version, name, sql in available_migrations("postgresql"):
                if version in done:
                    continue
                with connection.begin():
                    # psycopg runs a parameterless multi-statement string (PL/pgSQL bodies included) as one script.
                    connection.exec_driver_sql(sql)
                    _record_version(connection, version, name)
                applied.append(name)
        finally:
            connection.rollback()
            connection.execute(text(_PG_UNLOCK))
            connection.commit()
    return applied


def _migrate_sqlite(database: Database) -> list[str]:
    raw = database.engine.raw_connection()
    driver = raw.driver_connection
    previous = driver.isolation_level  # type: ignore[union-attr]
    driver.isolation_level = None  # type: ignore[union-attr]  # we issue BEGIN ourselves
    applied = []
    try:
        cursor = raw.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        try:
            cursor.execute(_MIGRATIONS_TABLE)
            done = {row[0] for row in cursor.execute("SELECT version FROM schema_migrations").fetchall()}
            for version, name, sql in available_migrations("sqlite"):
                if version in done:
                    continue
                for statement in split_sqlite_script(sql):
                    cursor.execute(statement)
                cursor.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)", (version, name))
                applied.append(name)
            cursor.execute("COMMIT")
        except BaseException:
            cursor.execute("ROLLBACK")
            raise
        finally:
            cursor.close()
    finally:
        driver.isolation_level = previous  # type: ignore[union-attr]
        raw.close()
    return applied


def _record_version(connection: Connection, version: int, name: str) -> None:
    connection.execute(text("INSERT INTO schema_migrations (version, name) VALUES (:v, :n)"), {"v": version, "n": name})


def split_sqlite_script(sql: str) -> list[str]:
    """Split on ``;`` at line ends, keeping ``CREATE TRIGGER … BEGIN … END;`` bodies whole."""
    statements: list[str] = []
    current: list[str] = []
    in_trigger = False
    for line in sql.splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("--")):
            continue
        current.append(line)
        upper = stripped.upper()
        if upper.startswith("CREATE TRIGGER") or upper.startswith("CREATE TEMP TRIGGER"):
            in_trigger = True
        if in_trigger:
            if upper == "END;" or upper.endswith(" END;"):
                statements.append("\n".join(current))
                current, in_trigger = [], False
        elif stripped.endswith(";"):
            statements.append("\n".join(current))
            current = []
    if current and "\n".join(current).strip():
        statements.append("\n".join(current))
    return statements
