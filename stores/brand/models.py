"""Brand DNA as a versioned, immutable entity (semver), validated on the way in.

Collections are tuples so a DNA (and each of its blocks) is hashable: compiled matchers are cached per block.
"""

from __future__ import annotations

import re
from typing import Literal

import regex
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ChangeKind = Literal["editorial", "methodical", "structural"]
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")
RULE_ID = r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*$"
BRAND_ID = r"^[a-z0-9][a-z0-9_-]{0,63}$"
PATTERN_FLAGS = regex.IGNORECASE | regex.UNICODE | regex.VERSION1


def parse_semver(version: str) -> tuple[int, int, int]:
    match = SEMVER.match(version)
    if match is None:
        raise ValueError(f"'{version}' ist keine Semver-Version (MAJOR.MINOR.PATCH, z. B. 1.2.0)")
    major, minor, patch = (int(part) for part in match.groups())
    return major, minor, patch


def compile_pattern(pattern: str) -> regex.Pattern[str]:
    """How brand-authored patterns are compiled everywhere: case-insensitive, Unicode, `regex` V1 syntax."""
    return regex.compile(pattern, PATTERN_FLAGS)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class IdentityCore(_Frozen):
    statement: str = Field(min_length=1, description="Identitätskern in 1–2 Sätzen.")
    claims: tuple[str, ...] = Field((), description="Optionale Kernaussagen als Stichpunkte.")


class PositioningLogic(_Frozen):
    problem: str = Field(min_length=1, description="Welches Problem die Marke löst.")
    logic: str = Field(min_length=1, description="Wie sie es löst (Wir lösen X durch Y).")
    delimitations: tuple[str, ...] = Field((), description="Abgrenzung, u. a. „Wir sind NICHT …“-Sätze.")


class ToneRule(_Frozen):
    id: str = Field(pattern=RULE_ID)
    rule: str = Field(min_length=1)
    examples: tuple[str, ...] = Field(
        (), description="Beispiele, an denen man einen Verstoß (bzw. die Einhaltung) sieht."
    )


class StyleParameters(_Frozen):
    max_sentence_words: int | None = Field(None, ge=3, description="Längster erlaubter Satz in Wörtern.")
    max_avg_sentence_words: float | None = Field(None, ge=3, description="Höchste mittlere Satzlänge in Wörtern.")
    max_passive_share: float | None = Field(None, ge=0, le=1, description="Höchster Anteil Passivsätze.")
    max_filler_share: float | None = Field(None, ge=0, le=1, description="Höchster Anteil Füllwörter.")
    hype_words: tuple[str, ...] = Field((), description="Zusätzliche Hype-/Superlativwörter der Marke.")


class ToneRules(_Frozen):
    do: tuple[ToneRule, ...] = ()
    dont: tuple[ToneRule, ...] = ()
    style: StyleParameters = StyleParameters()
    required_terms: tuple[str, ...] = Field(
        (), description="Markenvokabular, das statt anderer Begriffe verwendet wird."
    )


class Topic(_Frozen):
    id: str = Field(pattern=RULE_ID)
    name: str = Field(min_length=1)
    keywords: tuple[str, ...] = ()
    snippet: str | None = Field(None, description="Ein definierender Satz für den Embedding-Vergleich.")


class TopicCorridor(_Frozen):
    core: tuple[Topic, ...] = Field((), description="Kern-Themen (Standard: höchstens drei).")
    adjacent: tuple[Topic, ...] = ()
    taboo: tuple[Topic, ...] = ()


class TermRule(_Frozen):
    id: str = Field(pattern=RULE_ID)
    term: str = Field(min_length=1)
    lemma_match: bool = Field(True, description="Auch gebeugte Formen treffen (ganzheitliche, ganzheitlichen …).")
    fix: str | None = None


class PhraseRule(_Frozen):
    id: str = Field(pattern=RULE_ID)
    phrase: str = Field(min_length=1)
    lemma_match: bool = False
    fix: str | None = None


class PatternRule(_Frozen):
    id: str = Field(pattern=RULE_ID)
    pattern: str = Field(min_length=1)
    description: str = Field(min_length=1, description="Regeltext, der in der Begründung erscheint.")
    fix: str | None = None

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        try:
            compile_pattern(value)
        except regex.error as exc:
            raise ValueError(f"regulärer Ausdruck lässt sich nicht kompilieren: {exc}") from None
        return value


class AllowedException(_Frozen):
    id: str = Field(pattern=RULE_ID)
    rules: tuple[str, ...] = Field((), description="Regel-IDs, für die die Ausnahme gilt; leer = alle.")
    in_quotes: bool = Field(False, description="Fundstellen in Anführungszeichen sind erlaubt.")
    phrase: str | None = Field(None, description="Fundstellen innerhalb dieser Wendung sind erlaubt.")
    note: str | None = None


class Guardrails(_Frozen):
    forbidden_terms: tuple[TermRule, ...] = ()
    forbidden_phrases: tuple[PhraseRule, ...] = ()
    forbidden_patterns: tuple[PatternRule, ...] = ()
    allowed_exceptions: tuple[AllowedException, ...] = ()

    @model_validator(mode="after")
    def _unique_ids(self) -> Guardrails:
        seen: set[str] = set()
        rules: tuple[TermRule | PhraseRule | PatternRule | AllowedException, ...] = (
            *self.forbidden_terms,
            *self.forbidden_phrases,
            *self.forbidden_patterns,
            *self.allowed_exceptions,
        )
        for rule in rules:
            if rule.id in seen:
                raise ValueError(f"Regel-ID {rule.id} ist doppelt vergeben")
            seen.add(rule.id)
        return self

    @property
    def rule_ids(self) -> frozenset[str]:
        terms = {r.id for r in self.forbidden_terms} | {r.id for r in self.forbidden_phrases}
        return frozenset(terms | {r.id for r in self.forbidden_patterns})


class BrandDNA(_Frozen):
    brand_id: str = Field(pattern=BRAND_ID)
    dna_version: str
    change_kind: ChangeKind | None = Field(
        None, description="Art der Änderung gegenüber der Vorversion; nur bei der ersten Version leer."
    )
    change_note: str | None = None
    identity_core: IdentityCore
    positioning_logic: PositioningLogic
    tone_rules: ToneRules = ToneRules()
    topic_corridor: TopicCorridor = TopicCorridor()
    guardrails: Guardrails = Guardrails()

    @field_validator("dna_version")
    @classmethod
    def _semver(cls, value: str) -> str:
        parse_semver(value)
        return value

    @property
    def version_key(self) -> tuple[int, int, int]:
        return parse_semver(self.dna_version)
