"""Bots table: which knowledge base a bot answers from and at which strictness level."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from stores.sql.engine import Database

Voice = Literal["sie", "du"]


class Bot(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    kb_id: str
    knowledge_strictness: int
    refusal_message: str | None
    disclaimer_message: str | None
    voice: Voice = "sie"
    contact: str | None = None
    created_at: datetime
    updated_at: datetime


class InvalidVoice(ValueError):
    def __init__(self, voice: str) -> None:
        super().__init__(f"Anrede muss 'sie' oder 'du' sein, nicht {voice!r}.")
        self.voice = voice


class BotNotFound(LookupError):
    def __init__(self, bot_id: str) -> None:
        super().__init__(f"Bot '{bot_id}' gibt es nicht.")
        self.bot_id = bot_id


class BotExists(ValueError):
    def __init__(self, bot_id: str) -> None:
        super().__init__(f"Bot '{bot_id}' gibt es schon.")
        self.bot_id = bot_id


class InvalidStrictness(ValueError):
    def __init__(self, level: int) -> None:
        super().__init__(f"Strictness muss zwischen 1 und 5 liegen, nicht {level}.")
        self.level = level


_COLUMNS = (
    "id, name, kb_id, knowledge_strictness, refusal_message, disclaimer_message, voice, contact, created_at, updated_at"
)


class BotStore:
    """CRUD for bots; the database's CHECK constraint is the final word on strictness."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def create(
        self,
        bot_id: str,
        *,
        name: str,
        kb_id: str,
        knowledge_strictness: int | None = None,
        refusal_message: str | None = None,
        disclaimer_message: str | None = None,
        voice: str = "sie",
        contact: str | None = None,
    ) -> Bot:
        values = {
            "id": bot_id,
            "name": name,
            "kb_id": kb_id,
            "refusal_message": refusal_message,
            "disclaimer_message": disclaimer_message,
            "voice": voice,
            "contact": contact.strip() if contact and contact.strip() else None,
        }
        columns = "id, name, kb_id, refusal_message, disclaimer_message, voice, contact"
        if knowledge_strictness is not None:
            values["knowledge_strictness"] = knowledge_strictness  # type: ignore[assignment]
            columns += ", knowledge_strictness"
        placeholders = ", ".join(f":{c.strip()}" for c in columns.split(","))
        try:
            with self._db.transaction() as connection:
                connection.execute(text(f"INSERT INTO bots ({columns}) VALUES ({placeholders})"), values)
        except IntegrityError as exc:
            raise self._explain(exc, bot_id, knowledge_strictness, voice) from exc
        return self.get(bot_id)

    def get(self, bot_id: str) -> Bot:
        with self._db.transaction() as connection:
            row = connection.execute(text(f"SELECT {_COLUMNS} FROM bots WHERE id = :id"), {"id": bot_id})
            found = row.mappings().first()
        if found is None:
            raise BotNotFound(bot_id)
        return Bot.model_validate(dict(found))

    def list(self) -> list[Bot]:
        with self._db.transaction() as connection:
            rows = connection.execute(text(f"SELECT {_COLUMNS} FROM bots ORDER BY id")).mappings().all()
        return [Bot.model_validate(dict(row)) for row in rows]

    def set_strictness(self, bot_id: str, level: int) -> Bot:
        try:
            with self._db.transaction() as connection:
                result = connection.execute(
                    text(
                        "UPDATE bots SET knowledge_strictness = :level, updated_at = CURRENT_TIMESTAMP WHERE id = :id"
                    ),
                    {"level": level, "id": bot_id},
                )
                if result.rowcount == 0:
                    raise BotNotFound(bot_id)
        except IntegrityError as exc:
            raise self._explain(exc, bot_id, level) from exc
        return self.get(bot_id)

    @staticmethod
    def _explain(exc: IntegrityError, bot_id: str, level: int | None, voice: str | None = None) -> Exception:
        if "chk_bot_voice" in str(exc.orig):
            return InvalidVoice(str(voice))
        if "chk_bot_strictness" in str(exc.orig) or "CHECK constraint failed" in str(exc.orig):
            return InvalidStrictness(level if level is not None else -1)
        return BotExists(bot_id)
