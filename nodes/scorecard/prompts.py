"""Prompts of the scorecard's LLM judges (German; the judges only check, they never invent facts)."""

from __future__ import annotations

JUDGE_RULES = (
    "Du bist ein Prüfstand für Markentexte, kein Texter. Du prüfst nur gegen die vorgegebenen Regeln der "
    "Marken-DNA, erfindest keine Regeln und keine Fakten und zitierst ausschließlich wörtlich aus dem Text. "
    "Antworte nur mit dem geforderten JSON."
)

TONE_SYSTEM = JUDGE_RULES + " Deine Aufgabe: die Tonalität gegen die Do/Don't-Regeln der Marke bewerten."
TONE_USER = """Ton-Regeln der Marke (Do):
{do_rules}

Ton-Regeln der Marke (Don't):
{dont_rules}

Gemessene Stilwerte (deterministisch, zur Orientierung):
{metrics}

<text>
{text}
</text>

Bewerte, wie gut der Text die Ton-Regeln einhält (score 0–100; 100 = alle eingehalten). Belege jede Abweichung
mit einem wörtlichen Zitat und der Regel-ID und gib je Abweichung einen konkreten Umformulierungs-Hinweis."""

DECISION_SYSTEM = JUDGE_RULES + " Deine Aufgabe: prüfen, ob der Text handlungsfähig ist oder nur vage bleibt."
DECISION_USER = """Enthält der Text eine klare Konsequenz, These oder Entscheidung, die Leser übernehmen oder
ablehnen können?

Heuristisch gefundene Weichmacher (zur Orientierung): {hedges}

<text>
{text}
</text>

Gib decision_strength (0–100) an, markiere vage Stellen wörtlich (vagueness_flags) und nenne in einem Satz, wie der
Text schärfer würde (suggested_sharpening)."""

IDENTITY_SYSTEM = JUDGE_RULES + " Deine Aufgabe: die Kohärenz eines Textes mit dem Identitätskern der Marke beurteilen."
IDENTITY_USER = """Identitätskern der Marke:
{identity_core}

Grenzregeln der Marke (Auszug):
{guardrails}

Embedding-Nähe der Sätze zum Kern (1 = sehr nah): {similarity}

<text>
{text}
</text>

Ist der Text kohärent mit dem Identitätskern? verdict = coherent, mixed oder contradicts. Nenne 1–2 wörtliche
Stellen, die passen, und 1–2, die widersprechen (falls vorhanden), begründe knapp und gib deine Konfidenz (0–1) an."""

POSITIONING_SYSTEM = (
    JUDGE_RULES + " Deine Aufgabe: prüfen, ob ein Text die Positionierung der Marke schärft oder nivelliert."
)
POSITIONING_USER = """Positionierung der Marke:
Problem: {problem}
Logik: {logic}
Abgrenzung:
{delimitations}

Deterministische Hinweise: {hints}

<text>
{text}
</text>

Stärkt der Text diese Abgrenzung (strengthens), lässt er sie offen (neutral) oder nivelliert er sie (levels)?
Nivellierend sind z. B. „wir sind flexibel für alle“, „wir machen alles“ oder Preis-/Feature-Vergleiche ohne
Begründungslogik. Markiere solche Stellen wörtlich, begründe knapp und gib deine Konfidenz (0–1) an."""
