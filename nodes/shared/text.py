"""Model-output hygiene shared by the graphs (sentence boundaries live in ``stores.text``)."""

from __future__ import annotations

import re
from typing import Final

_THINK: Final = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)


def strip_think(text: str) -> str:
    """Remove reasoning traces (``<think>…</think>``, also an unclosed one) that some models emit."""
    return _THINK.sub("", text).strip()
