"""The whitespace rule the database enforces on quotes; the migrations 0003_scan.sql implement the same."""

from __future__ import annotations

import re

WHITESPACE_CHARACTERS = "\t\n\v\f\r \u00a0\u2009\u202f"
_WHITESPACE_RUN = re.compile(f"[{re.escape(WHITESPACE_CHARACTERS)}]+")


def canonical_whitespace(text: str) -> str:
    """Every run of whitespace becomes one space, both ends are trimmed (``canonical_whitespace`` in SQL)."""
    return _WHITESPACE_RUN.sub(" ", text).strip(" ")
