"""Strictness table, value by value, and every clamping case of get_strictness_config."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nodes.shared.strictness import (
    DEFAULT_DISCLAIMER_MESSAGE,
    DEFAULT_REFUSAL_MESSAGE,
    STRICTNESS_LEVELS,
    get_strictness_config,
    render_prompt_instruction,
)

# level, name, key, temperature, top_p, max_tokens, min_score, action, guardrails, freq, pres, seed, safe
SEED_TABLE = [
    (
        1,
        "Nur KB-Wissen",
        "kb_only",
        0.1,
        0.7,
        300,
        0.80,
        "refuse",
        {"financial", "law", "health", "pii"},
        0.3,
        0.0,
        42,
        True,
    ),
    (
        2,
        "Streng faktisch",
        "strict",
        0.2,
        0.8,
        500,
        0.70,
        "disclaimer",
        {"financial", "law", "pii"},
        0.2,
        0.0,
        None,
        True,
    ),
    (3, "Ausgewogen", "balanced", 0.4, 0.9, 800, 0.50, "disclaimer", {"pii"}, 0.0, 0.0, None, True),
    (4, "Gesprächig", "conversational", 0.6, 0.95, 1000, 0.40, "soft_hint", {"pii"}, 0.0, 0.2, None, True),
    (5, "Kreativ", "creative", 0.8, 1.0, 1200, 0.0, "none", set(), 0.0, 0.3, None, True),
]


@pytest.mark.parametrize("row", SEED_TABLE, ids=[str(r[0]) for r in SEED_TABLE])
def test_level_matches_seed_table(row: tuple[Any, ...]) -> None:
    level, name, key, temp, top_p, max_tokens, min_score, action, guards, freq, pres, seed, safe = row
    config = get_strictness_config(level)
    assert config.level == level
    assert config.name == name
    assert config.key == key
    assert config.temperature == temp
    assert config.top_p == top_p
    assert config.max_tokens == max_tokens
    assert config.min_score == min_score
    assert config.low_score_action == action
    assert config.guardrail_categories == frozenset(guards)
    assert config.frequency_penalty == freq
    assert config.presence_penalty == pres
    assert config.random_seed == seed
    assert config.safe_prompt is safe
    assert config.prompt_instruction


def test_table_has_exactly_five_levels() -> None:
    assert sorted(STRICTNESS_LEVELS) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(("given_level", "expected"), [(0, 1), (-7, 1), (6, 5), (10**9, 5), (1, 1), (5, 5)])
def test_integers_are_clamped(given_level: int, expected: int) -> None:
    assert get_strictness_config(given_level).level == expected


@pytest.mark.parametrize("invalid", [None, "abc", "2", 2.7, 1.0, True, False, [], {}, object()])
def test_non_integers_fall_back_to_balanced(invalid: object) -> None:
    assert get_strictness_config(invalid).key == "balanced"


@given(st.integers())
def test_any_integer_lands_in_range(level: int) -> None:
    assert 1 <= get_strictness_config(level).level <= 5


def test_config_is_immutable() -> None:
    config = get_strictness_config(1)
    with pytest.raises(ValueError):
        config.temperature = 0.9  # type: ignore[misc]


def test_bot_sentences_fill_the_instruction() -> None:
    default = render_prompt_instruction(get_strictness_config(1))
    assert DEFAULT_REFUSAL_MESSAGE in default
    custom = render_prompt_instruction(get_strictness_config(2), disclaimer_message="Fragen Sie die Personalabteilung.")
    assert "Fragen Sie die Personalabteilung." in custom
    assert DEFAULT_DISCLAIMER_MESSAGE not in custom
