"""One SQL engine for SQLite (embedded default) and PostgreSQL, with versioned per-dialect migrations."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal

from sqlalchemy import Connection, Engine, create_engine, event, text

Dialect = Literal["sqlite", "postgresql"]
MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


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
        apply_migrations(database)
    return database


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA busy_timeout = 5000")
    # WAL + NORMAL: commits stay durable against crashes of the process, without an fsync per commit.
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.close()


def available_migrations(dialect: Dialect) -> list[tuple[int, str, str]]:
    """(version, file name, SQL) for every migration of the dialect, in order."""
    folder = resources.files("stores.sql") / "migrations" / dialect
    found = []
    for entry in folder.iterdir():
        match = MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def applied_versions(database: Database) -> set[int]:
    with database.transaction() as connection:
        connection.execute(
            text(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version integer PRIMARY KEY, name text NOT NULL,"
                " applied_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP)"
            )
        )
        rows = connection.execute(text("SELECT version FROM schema_migrations")).scalars()
        return set(rows)


def apply_migrations(database: Database) -> list[str]:
    """Apply each pending migration in its own transaction; return the names applied."""
    done = applied_versions(database)
    applied = []
    for version, name, sql in available_migrations(database.dialect):
        if version in done:
            continue
        with database.transaction() as connection:
            _execute_script(connection, database.dialect, sql)
            connection.execute(
                text("INSERT INTO schema_migrations (version, name) VALUES (:v, :n)"),
                {"v": version, "n": name},
            )
        applied.append(name)
    return applied


def _execute_script(connection: Connection, dialect: Dialect, sql: str) -> None:
    if dialect == "postgresql":
        # psycopg runs a parameterless multi-statement string (PL/pgSQL bodies included) as one script.
        connection.exec_driver_sql(sql)
        return
    for statement in split_sqlite_script(sql):
        connection.exec_driver_sql(statement)


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
