"""API keys: store contract on SQLite and PostgreSQL, and the ``belegt keys`` commands."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from graphs.cli import app
from stores.sql.api_keys import ApiKeyNotFound, ApiKeyStore, UnknownBotForKey, hash_secret, split_key
from stores.sql.bots import BotStore
from stores.sql.engine import Database

runner = CliRunner()


def test_a_key_verifies_until_it_is_revoked_and_only_its_hash_is_stored(database: Database) -> None:
    BotStore(database).create("hr", name="HR", kb_id="demo")
    keys = ApiKeyStore(database)
    record, secret = keys.create("hr", "reviewer", label="Intranet")
    assert record.bot_id == "hr" and record.role == "reviewer" and record.revoked_at is None
    with database.transaction() as connection:
        stored = connection.execute(text("SELECT secret_hash FROM api_keys")).scalar_one()
    parts = split_key(secret)
    assert parts is not None and stored == hash_secret(parts[1]) and parts[1] not in stored
    assert keys.verify(secret) == record
    assert keys.verify(secret + "x") is None and keys.verify("blg_" + record.id + "_falsch") is None
    assert keys.verify("kein-schluessel") is None
    assert keys.revoke(record.id).revoked_at is not None
    assert keys.verify(secret) is None
    assert [k.id for k in keys.list()] == [record.id]


def test_keys_need_an_existing_bot_and_a_known_role(database: Database) -> None:
    keys = ApiKeyStore(database)
    with pytest.raises(UnknownBotForKey):
        keys.create("gibt-es-nicht", "user")
    with pytest.raises(ApiKeyNotFound):
        keys.revoke("0000")
    BotStore(database).create("hr", name="HR", kb_id="demo")
    with pytest.raises(Exception, match="chk_api_key_role|CHECK constraint"), database.transaction() as connection:
        connection.execute(text("INSERT INTO api_keys (id, bot_id, role, secret_hash) VALUES ('x', 'hr', 'boss', 'h')"))


def test_keys_cli_creates_lists_and_revokes_with_german_errors() -> None:
    assert runner.invoke(app, ["bots", "create", "hr-demo", "--kb", "demo"]).exit_code == 0
    created = runner.invoke(app, ["keys", "create", "--bot", "hr-demo", "--role", "admin", "--label", "Studio"])
    assert created.exit_code == 0, created.output
    secret = created.output.strip().splitlines()[-1]
    key_id = secret.split("_")[1]
    listed = runner.invoke(app, ["keys", "list"])
    assert key_id in listed.output and secret not in listed.output
    assert runner.invoke(app, ["keys", "revoke", key_id]).exit_code == 0
    unknown_role = runner.invoke(app, ["keys", "create", "--bot", "hr-demo", "--role", "boss"])
    assert unknown_role.exit_code == 2 and "Unbekannte Rolle" in unknown_role.output
    unknown_bot = runner.invoke(app, ["keys", "create", "--bot", "fehlt"])
    assert unknown_bot.exit_code == 1 and "gibt es nicht" in unknown_bot.output
