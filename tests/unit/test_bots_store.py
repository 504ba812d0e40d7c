"""Bot store contract, run against SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from stores.sql.bots import BotExists, BotNotFound, BotStore, InvalidStrictness, InvalidVoice
from stores.sql.engine import Database, apply_migrations


def test_new_bot_defaults_to_balanced(database: Database) -> None:
    bot = BotStore(database).create("hr", name="HR-Bot", kb_id="demo")
    assert bot.knowledge_strictness == 3
    assert bot.kb_id == "demo"
    assert bot.refusal_message is None


def test_set_strictness_round_trips(database: Database) -> None:
    store = BotStore(database)
    store.create("hr", name="HR-Bot", kb_id="demo", refusal_message="Nein.")
    assert store.set_strictness("hr", 1).knowledge_strictness == 1
    assert [b.id for b in store.list()] == ["hr"]
    assert store.get("hr").refusal_message == "Nein."


@pytest.mark.parametrize("level", [0, 6, -1, 99])
def test_store_rejects_out_of_range_strictness(database: Database, level: int) -> None:
    store = BotStore(database)
    store.create("hr", name="HR-Bot", kb_id="demo")
    with pytest.raises(InvalidStrictness):
        store.set_strictness("hr", level)
    with pytest.raises(InvalidStrictness):
        store.create("other", name="x", kb_id="demo", knowledge_strictness=level)
    assert store.get("hr").knowledge_strictness == 3


def test_database_itself_rejects_strictness_six(database: Database) -> None:
    """The CHECK constraint holds even for SQL that bypasses the store."""
    with pytest.raises(IntegrityError, match="chk_bot_strictness|CHECK constraint failed"):
        with database.transaction() as connection:
            connection.execute(
                text("INSERT INTO bots (id, name, kb_id, knowledge_strictness) VALUES ('x', 'x', 'kb', 6)")
            )
    with database.transaction() as connection:
        assert connection.execute(text("SELECT count(*) FROM bots")).scalar_one() == 0


def test_duplicate_and_missing_bots_are_explained(database: Database) -> None:
    store = BotStore(database)
    store.create("hr", name="HR-Bot", kb_id="demo")
    with pytest.raises(BotExists):
        store.create("hr", name="again", kb_id="demo")
    with pytest.raises(BotNotFound):
        store.get("nobody")
    with pytest.raises(BotNotFound):
        store.set_strictness("nobody", 2)


def test_migrations_are_applied_once(database: Database) -> None:
    assert apply_migrations(database) == []
    with database.transaction() as connection:
        versions = connection.execute(text("SELECT version FROM schema_migrations ORDER BY version")).scalars()
        assert list(versions)[0] == 1


def test_voice_defaults_to_sie_and_du_with_contact_round_trips(database: Database) -> None:
    store = BotStore(database)
    assert (store.create("law", name="Gesetze", kb_id="gesetze").voice, store.get("law").contact) == ("sie", None)
    bot = store.create("hr", name="HR", kb_id="demo", voice="du", contact="  die Personalabteilung ")
    assert (bot.voice, bot.contact) == ("du", "die Personalabteilung")
    assert store.create("blank", name="x", kb_id="demo", contact="   ").contact is None


def test_database_rejects_an_unknown_voice(database: Database) -> None:
    with pytest.raises(InvalidVoice, match="'ihr'"):
        BotStore(database).create("x", name="x", kb_id="demo", voice="ihr")
    with pytest.raises(IntegrityError, match="chk_bot_voice"):
        with database.transaction() as connection:
            connection.execute(text("INSERT INTO bots (id, name, kb_id, voice) VALUES ('y', 'y', 'kb', 'Sie')"))
