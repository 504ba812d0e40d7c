"""The private parts of ``re`` and ``regex`` that claim-pattern prefiltering needs, and nothing else.

Neither library has a public route for these: the stdlib's regex parser (``re._parser``, ``re._constants``;
public ``sre_parse`` is only a deprecated alias of it) proves which literals a pattern needs, and
``regex``'s own full case folding is the equivalence its compiled patterns match by (``str.casefold``
follows Python's older Unicode tables). Both are confined to this module, the ``regex`` version is pinned in
pyproject.toml (``REGEX_VERSIONS``), and tests/unit/test_private_api.py fails when an upgrade moves them.
"""

from __future__ import annotations

import re
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

from regex import _regex as regex_engine
from regex._regex_core import FULL_CASE_FOLDING

REGEX_VERSIONS = ">=2026.11,<2027"  # the range in pyproject.toml that this module was checked against

LITERAL = sre.LITERAL
IN = sre.IN
SUBPATTERN = sre.SUBPATTERN
ATOMIC_GROUP = sre.ATOMIC_GROUP
BRANCH = sre.BRANCH
REPEATS = frozenset({sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT})


def parse_pattern(pattern: str) -> Any:
    """The stdlib's parse tree of a case-insensitive Unicode pattern: a sequence of (opcode, argument)."""
    return sre_parse.parse(pattern, re.IGNORECASE | re.UNICODE)


def regex_fold_case(text: str) -> str:
    """Full case folding exactly as the ``regex`` engine applies it (ß ≡ ẞ ≡ ss)."""
    folded: str = regex_engine.fold_case(FULL_CASE_FOLDING, text)
    return folded
