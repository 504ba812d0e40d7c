"""Guardrail categories of the strictness levels: PII redaction and German topic lexicons."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

import regex

from nodes.shared.strictness import GuardrailCategory


@dataclass(frozen=True)
class PiiPattern:
    kind: str
    placeholder: str
    pattern: regex.Pattern[str]


# Placeholders use ‹…› so they can never be mistaken for a citation in [brackets].
PLACEHOLDER: Final = regex.compile(r"‹[^›]*›")
PII_PATTERNS: Final = (
    PiiPattern("email", "‹E-Mail›", regex.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")),
    PiiPattern("iban", "‹IBAN›", regex.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){3,7}(?:[ ]?[A-Z0-9]{1,3})?\b")),
    PiiPattern("social_security", "‹SV-Nummer›", regex.compile(r"\b\d{2}[ ]?\d{6}[ ]?[A-Z][ ]?\d{3}\b")),
    PiiPattern("card", "‹Kartennummer›", regex.compile(r"\b(?:\d{4}[ -]?){3}\d{4}\b")),
    PiiPattern("tax_id", "‹Steuer-ID›", regex.compile(r"\b\d{2}[ ]?\d{3}[ ]?\d{3}[ ]?\d{3}\b")),
    PiiPattern(
        "phone",
        "‹Telefonnummer›",
        regex.compile(r"(?<![\w.,])(?:\+49|0049|0)[ ]?\(?\d{2,5}\)?[ /-]?\d{3,}(?:[ -]?\d+)*"),
    ),
    PiiPattern(
        "birth_date",
        "‹Geburtsdatum›",
        regex.compile(r"(?i)(?:geboren|geb\.|geburtsdatum:?)\s*(?:am\s*)?\d{1,2}\.\s?\d{1,2}\.\s?\d{2,4}"),
    ),
)

TOPIC_LEXICONS: Final[dict[GuardrailCategory, regex.Pattern[str]]] = {
    "financial": regex.compile(
        r"(?i)\b(?:geldanlage|anlegen|investier\w*|aktie\w*|rendite|kredit\w*|darlehen|zinsen?|krypto\w*|"
        r"altersvorsorge|fonds|etf|vermögensberat\w*|steuer(?:spar|tipp|trick)\w*|steuererklärung)\b"
    ),
    "law": regex.compile(
        r"(?i)\b(?:klage\w*|verklag\w*|anwalt\w*|anwält\w*|gericht\w*|rechtsberat\w*|rechtlich\w*|abmahnung\w*|"
        r"kündigungsschutz\w*|widerspruch einlegen|rechtsstreit\w*|arbeitsgericht\w*)\b"
    ),
    "health": regex.compile(
        r"(?i)\b(?:diagnose\w*|symptom\w*|medikament\w*|therapie\w*|krankheit\w*|erkrank\w*|schwanger\w*|"
        r"depression\w*|burn-?out|arzt|ärztin|behandlung\w*|dosierung)\b"
    ),
}

CAUTION_NOTES: Final[dict[GuardrailCategory, str]] = {
    "financial": "Dies ist keine Finanz- oder Steuerberatung.",
    "law": "Dies ist keine Rechtsberatung; verbindlich klärt das nur eine Fachperson.",
    "health": "Dies ersetzt keinen ärztlichen Rat.",
    "pii": "Persönliche Daten wurden vor der Verarbeitung entfernt.",
}


def find_pii(text: str) -> list[str]:
    """Kinds of personal data found in the text (each match counted once, as redaction would see it)."""
    kinds = []
    for pii in PII_PATTERNS:
        text, count = pii.pattern.subn(pii.placeholder, text)
        if count:
            kinds.append(pii.kind)
    return kinds


def redact_pii(text: str) -> str:
    """Replace personal data by placeholders; order matters (IBAN before phone numbers)."""
    for pii in PII_PATTERNS:
        text = pii.pattern.sub(pii.placeholder, text)
    return text


def detect_categories(text: str, active: Iterable[GuardrailCategory]) -> list[GuardrailCategory]:
    """Active guardrail categories whose lexicon (or, for pii, whose patterns) match the text."""
    flags: list[GuardrailCategory] = []
    for category in sorted(active):
        if category == "pii":
            if find_pii(text):
                flags.append("pii")
        elif TOPIC_LEXICONS[category].search(text):
            flags.append(category)
    return flags
