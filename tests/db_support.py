"""The schema owner's connection, for tests that play an administrator with DDL rights."""

from __future__ import annotations

from sqlalchemy.engine import make_url

from stores.sql.engine import Database, open_database
from tests.conftest import POSTGRES_URL


def owner_database(database: Database) -> Database:
    """The same database reached as its owner (PostgreSQL), or the same file (SQLite has no roles)."""
    if database.dialect == "sqlite":
        return database
    url = database.engine.url.set(username=make_url(POSTGRES_URL).username)
    return open_database(url.render_as_string(hide_password=False), migrate=False)
