"""Per-bot strictness levels 1–5: decoding parameters, retrieval floor and guardrails as immutable data."""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict

from nodes.shared.voice import DEFAULT_VOICE

StrictnessKey = Literal["kb_only", "strict", "balanced", "conversational", "creative"]
LowScoreAction = Literal["refuse", "disclaimer", "soft_hint", "none"]
GuardrailCategory = Literal["financial", "law", "health", "pii"]

DEFAULT_LEVEL: Final = 3
DEFAULT_REFUSAL_MESSAGE: Final = DEFAULT_VOICE.refusal
DEFAULT_DISCLAIMER_MESSAGE: Final = DEFAULT_VOICE.disclaimer


class StrictnessConfig(BaseModel):
    """One strictness level; field names follow the Mistral API, providers map them (see nodes.shared.llm)."""

    model_config = ConfigDict(frozen=True)

    level: int
    name: str
    key: StrictnessKey
    temperature: float
    top_p: float
    max_tokens: int
    frequency_penalty: float
    presence_penalty: float
    random_seed: int | None
    safe_prompt: bool
    min_score: float
    low_score_action: LowScoreAction
    guardrail_categories: frozenset[GuardrailCategory]
    prompt_instruction: str


STRICTNESS_LEVELS: Final[dict[int, StrictnessConfig]] = {
    1: StrictnessConfig(
        level=1,
        name="Nur KB-Wissen",
        key="kb_only",
        temperature=0.1,
        top_p=0.7,
        max_tokens=300,
        frequency_penalty=0.3,
        presence_penalty=0.0,
        random_seed=42,
        safe_prompt=True,
        min_score=0.80,
        low_score_action="refuse",
        guardrail_categories=frozenset({"financial", "law", "health", "pii"}),
        prompt_instruction=(
            "Verwende ausschließlich Angaben aus den Kontextblöcken. Findest du dort nichts Passendes, "
            'antworte nur mit: "{refusal_message}" Ergänze nichts, deute nichts um und erfinde nichts; '
            "gib wieder, was die Blöcke sagen."
        ),
    ),
    2: StrictnessConfig(
        level=2,
        name="Streng faktisch",
        key="strict",
        temperature=0.2,
        top_p=0.8,
        max_tokens=500,
        frequency_penalty=0.2,
        presence_penalty=0.0,
        random_seed=None,
        safe_prompt=True,
        min_score=0.70,
        low_score_action="disclaimer",
        guardrail_categories=frozenset({"financial", "law", "pii"}),
        prompt_instruction=(
            "Stütze dich in erster Linie auf die Kontextblöcke. Bist du dir unsicher, schließe mit dem Satz: "
            '"{disclaimer_message}" Preise, Zahlen und Fakten, die nicht in den Blöcken stehen, nennst du nicht.'
        ),
    ),
    3: StrictnessConfig(
        level=3,
        name="Ausgewogen",
        key="balanced",
        temperature=0.4,
        top_p=0.9,
        max_tokens=800,
        frequency_penalty=0.0,
        presence_penalty=0.0,
        random_seed=None,
        safe_prompt=True,
        min_score=0.50,
        low_score_action="disclaimer",
        guardrail_categories=frozenset({"pii"}),
        prompt_instruction=(
            "Die Kontextblöcke sind deine Hauptquelle. Allgemein bekanntes Wissen darfst du ergänzen, "
            "aber keine konkreten Fakten, Preise oder Produkte hinzuerfinden."
        ),
    ),
    4: StrictnessConfig(
        level=4,
        name="Gesprächig",
        key="conversational",
        temperature=0.6,
        top_p=0.95,
        max_tokens=1000,
        frequency_penalty=0.0,
        presence_penalty=0.2,
        random_seed=None,
        safe_prompt=True,
        min_score=0.40,
        low_score_action="soft_hint",
        guardrail_categories=frozenset({"pii"}),
        prompt_instruction=(
            "Antworte freundlich und im Gesprächston. Nutze die Kontextblöcke und ergänze gern "
            "allgemeines Wissen und einfühlsame Formulierungen."
        ),
    ),
    5: StrictnessConfig(
        level=5,
        name="Kreativ",
        key="creative",
        temperature=0.8,
        top_p=1.0,
        max_tokens=1200,
        frequency_penalty=0.0,
        presence_penalty=0.3,
        random_seed=None,
        safe_prompt=True,
        min_score=0.0,
        low_score_action="none",
        guardrail_categories=frozenset(),
        prompt_instruction=(
            "Sei kreativ und inspirierend. Die Kontextblöcke sind dein Ausgangspunkt; denke frei weiter "
            "und biete eigene Ideen und Vorschläge an."
        ),
    ),
}


def get_strictness_config(level: object) -> StrictnessConfig:
    """Return the level's config: integers are clamped to 1..5, anything else (None, str, float, bool) is 3."""
    if isinstance(level, bool) or not isinstance(level, int):
        return STRICTNESS_LEVELS[DEFAULT_LEVEL]
    return STRICTNESS_LEVELS[min(5, max(1, level))]


def render_prompt_instruction(
    config: StrictnessConfig,
    *,
    refusal_message: str = DEFAULT_REFUSAL_MESSAGE,
    disclaimer_message: str = DEFAULT_DISCLAIMER_MESSAGE,
) -> str:
    """Fill the bot's own refusal / disclaimer sentences into the level's instruction."""
    return config.prompt_instruction.format(refusal_message=refusal_message, disclaimer_message=disclaimer_message)
