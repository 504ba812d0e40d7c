"""Concurrent first starts: 8 processes open one empty database at once; every one must come up migrated."""

from __future__ import annotations

import multiprocessing
from multiprocessing.synchronize import Barrier

import pytest
from sqlalchemy import text

from stores.sql import engine
from stores.sql.engine import available_migrations, open_database

PROCESSES = 8


def _first_start(url: str, barrier: Barrier, results: multiprocessing.Queue[str]) -> None:
    barrier.wait()
    try:
        database = open_database(url)
        database.dispose()
        results.put("ok")
    except Exception as exc:  # reported to the parent, which asserts on it
        results.put(f"{type(exc).__name__}: {exc}")


def _start_concurrently(url: str) -> list[str]:
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(PROCESSES)
    results: multiprocessing.Queue[str] = context.Queue()
    workers = [context.Process(target=_first_start, args=(url, barrier, results)) for _ in range(PROCESSES)]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=30)
    return outcomes


def _assert_migrated_once(url: str) -> None:
    database = open_database(url, migrate=False)
    try:
        with database.transaction() as connection:
            rows = connection.execute(text("SELECT version FROM schema_migrations ORDER BY version"))
            versions = list(rows.scalars())
    finally:
        database.dispose()
    assert versions == [version for version, _, _ in available_migrations(database.dialect)]


def test_eight_first_starts_on_empty_sqlite(sqlite_url: str) -> None:
    outcomes = _start_concurrently(sqlite_url)
    assert outcomes == ["ok"] * PROCESSES
    _assert_migrated_once(sqlite_url)


@pytest.mark.postgres
def test_eight_first_starts_on_empty_postgresql(empty_postgres_url: str) -> None:
    outcomes = _start_concurrently(empty_postgres_url)
    assert outcomes == ["ok"] * PROCESSES
    _assert_migrated_once(empty_postgres_url)


@pytest.mark.postgres
def test_pending_migrations_under_the_application_role_say_what_to_do(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The application role owns nothing: a due migration is a clear error, not a half-applied schema."""
    due = (9999, "9999_due_later.sql", "CREATE TABLE due_later (id integer);")
    real = engine.available_migrations
    monkeypatch.setattr(engine, "available_migrations", lambda dialect: [*real(dialect), due])
    with pytest.raises(engine.MigrationsPending, match="1 Migration\\(en\\) ausstehend \\(9999_due_later.sql\\)"):
        open_database(postgres_url)
