"""Shared fixtures: real databases (SQLite file + PostgreSQL schema per test), scripted LLMs, env hygiene."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from stores.sql.engine import Database, open_database

pytest_plugins = ["tests.vector_support"]

POSTGRES_URL = os.environ.get("BELEGT_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
_postgres_skips: list[str] = []


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test reads the developer's .env or BELEGT_* variables, and nothing writes into var/.

    Kept: where the test database and the eval data are (a worktree's data does not sit beside it).
    """
    for name in list(os.environ):
        if name.startswith("BELEGT_") and name not in ("BELEGT_TEST_POSTGRES_URL", "BELEGT_EVAL_DATA_DIR"):
            monkeypatch.delenv(name)
    for name in ("OLLAMA_BASE_URL", "MISTRAL_API_KEY", "MISTRAL_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.chdir(tmp_path)


def _postgres_available() -> str | None:
    try:
        with psycopg.connect(POSTGRES_URL, connect_timeout=3):
            return None
    except psycopg.Error as exc:
        return str(exc).strip().splitlines()[0]


@pytest.fixture(scope="session")
def postgres_server() -> str:
    problem = _postgres_available()
    if problem is not None:
        _postgres_skips.append(problem)
        pytest.skip(f"PostgreSQL at {POSTGRES_URL} does not answer: {problem}")
    return POSTGRES_URL


@pytest.fixture
def empty_postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty schema per test (connecting as its owner), selected through the connection's search_path."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    url = make_url(postgres_server).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with psycopg.connect(postgres_server, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def postgres_url(empty_postgres_url: str, postgres_server: str) -> Iterator[str]:
    """A migrated schema reached as an application role that owns nothing (unique name, dropped afterwards)."""
    database = open_database(empty_postgres_url)
    database.dispose()
    role = f"belegt_app_{uuid.uuid4().hex[:12]}"
    options = make_url(empty_postgres_url).query["options"]
    assert isinstance(options, str)
    schema = options.removeprefix("-csearch_path=")
    with psycopg.connect(postgres_server, autocommit=True) as connection:
        connection.execute(f'CREATE ROLE "{role}" LOGIN')
        connection.execute(f'SET search_path = "{schema}"')
        connection.execute("SELECT grant_application_role(%s)", (role,))
    try:
        yield make_url(empty_postgres_url).set(username=role).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(postgres_server, autocommit=True) as connection:
            connection.execute(f'DROP OWNED BY "{role}"')
            connection.execute(f'DROP ROLE "{role}"')


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'belegt.db'}"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    """Run a contract test once per supported database."""
    fixture = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: str = request.getfixturevalue(fixture)
    return url


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    db = open_database(database_url)
    try:
        yield db
    finally:
        db.dispose()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _postgres_skips:
        terminalreporter.write_sep("!", "POSTGRESQL TESTS WERE SKIPPED", red=True, bold=True)
        terminalreporter.write_line(f"{POSTGRES_URL}: {_postgres_skips[0]}", red=True)
