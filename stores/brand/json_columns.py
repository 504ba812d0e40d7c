"""JSON columns: text on SQLite, jsonb on PostgreSQL (psycopg already decodes those)."""

from __future__ import annotations

import json
from typing import Any


def read_json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value
