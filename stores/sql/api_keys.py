"""API keys: ``blg_<id>_<secret>``; the table keeps the id, the bot, the role and a SHA-256 hash of the secret.

The secret is 32 random bytes, so a plain SHA-256 is enough (no password stretching needed) and lookups stay
a primary-key read plus one constant-time comparison.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from stores.sql.engine import Database

Role = Literal["user", "reviewer", "admin"]
ROLES: tuple[Role, ...] = get_args(Role)
KEY_PREFIX = "blg_"


class ApiKey(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    bot_id: str
    role: Role
    label: str | None
    created_at: datetime
    revoked_at: datetime | None


class ApiKeyNotFound(LookupError):
    def __init__(self, key_id: str) -> None:
        super().__init__(f"API-Schlüssel '{key_id}' gibt es nicht.")


class UnknownBotForKey(LookupError):
    def __init__(self, bot_id: str) -> None:
        super().__init__(f"Bot '{bot_id}' gibt es nicht; erst `belegt bots create {bot_id} --kb …` ausführen.")


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def split_key(presented: str) -> tuple[str, str] | None:
    """(id, secret) of a well-formed key, None for anything else."""
    if not presented.startswith(KEY_PREFIX):
        return None
    key_id, sep, secret = presented.removeprefix(KEY_PREFIX).partition("_")
    if not sep or not key_id or not secret:
        return None
    return key_id, secret


_COLUMNS = "id, bot_id, role, label, created_at, revoked_at"


class ApiKeyStore:
    def __init__(self, database: Database) -> None:
        self._db = database

    def create(self, bot_id: str, role: Role, *, label: str | None = None) -> tuple[ApiKey, str]:
        """The new key's record and its full text; the text is shown once and never stored."""
        key_id = secrets.token_hex(6)
        secret = secrets.token_urlsafe(32)
        try:
            with self._db.transaction() as connection:
                connection.execute(
                    text(
                        "INSERT INTO api_keys (id, bot_id, role, label, secret_hash)"
                        " VALUES (:id, :bot_id, :role, :label, :secret_hash)"
                    ),
                    {"id": key_id, "bot_id": bot_id, "role": role, "label": label, "secret_hash": hash_secret(secret)},
                )
        except IntegrityError as exc:
            raise UnknownBotForKey(bot_id) from exc
        return self.get(key_id), f"{KEY_PREFIX}{key_id}_{secret}"

    def get(self, key_id: str) -> ApiKey:
        with self._db.transaction() as connection:
            row = connection.execute(text(f"SELECT {_COLUMNS} FROM api_keys WHERE id = :id"), {"id": key_id})
            found = row.mappings().first()
        if found is None:
            raise ApiKeyNotFound(key_id)
        return ApiKey.model_validate(dict(found))

    def verify(self, presented: str) -> ApiKey | None:
        """The active key the text belongs to, or None (malformed, unknown, wrong secret or revoked)."""
        parts = split_key(presented)
        if parts is None:
            return None
        key_id, secret = parts
        with self._db.transaction() as connection:
            row = (
                connection.execute(
                    text(f"SELECT {_COLUMNS}, secret_hash FROM api_keys WHERE id = :id AND revoked_at IS NULL"),
                    {"id": key_id},
                )
                .mappings()
                .first()
            )
        if row is None or not hmac.compare_digest(row["secret_hash"], hash_secret(secret)):
            return None
        return ApiKey.model_validate({k: v for k, v in row.items() if k != "secret_hash"})

    def revoke(self, key_id: str) -> ApiKey:
        with self._db.transaction() as connection:
            result = connection.execute(
                text("UPDATE api_keys SET revoked_at = CURRENT_TIMESTAMP WHERE id = :id AND revoked_at IS NULL"),
                {"id": key_id},
            )
            if result.rowcount == 0:
                exists = connection.execute(text("SELECT 1 FROM api_keys WHERE id = :id"), {"id": key_id}).first()
                if exists is None:
                    raise ApiKeyNotFound(key_id)
        return self.get(key_id)

    def list(self) -> list[ApiKey]:
        with self._db.transaction() as connection:
            rows = connection.execute(text(f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, id")).mappings()
            return [ApiKey.model_validate(dict(row)) for row in rows.all()]
