"""Level 1: DNA maturity per building block and the lint of the rule set itself."""

from __future__ import annotations

import pytest

from nodes.scorecard.maturity import STANDARD_REFS, assess_dna_maturity, is_testable
from nodes.scorecard.ruleset_lint import backtracking_risk, lint_ruleset
from stores.brand.models import ToneRule
from tests.brand_support import build_dna, demo_dna

SHARP_TONE = {
    "do": [{"id": "TONE-DO-001", "rule": "Sätze mit höchstens 20 Wörtern."}],
    "dont": [{"id": "TONE-DONT-001", "rule": "Keine Superlative.", "examples": ["die beste Lösung"]}],
    "style": {
        "max_sentence_words": 20,
        "max_avg_sentence_words": 14,
        "max_passive_share": 0.2,
        "max_filler_share": 0.05,
    },
}
SHARP_TOPICS = {
    "core": [{"id": "T-C1", "name": "Annahmen", "keywords": ["Annahme"]}],
    "taboo": [{"id": "T-X1", "name": "Politik", "snippet": "Parteipolitik und Wahlen."}],
}
SHARP_GUARDRAILS = {
    "forbidden_terms": [{"id": "GR-TERM-001", "term": "ganzheitlich"}],
    "forbidden_phrases": [{"id": "GR-PHRASE-001", "phrase": "alles aus einer Hand"}],
    "forbidden_patterns": [{"id": "GR-CLAIM-001", "pattern": r"\bNr\.\s?1\b", "description": "Ranking"}],
}


def test_demo_dna_is_mature_and_names_its_one_gap() -> None:
    maturity = assess_dna_maturity(demo_dna())
    scores = {block: m.maturity_score for block, m in maturity.blocks.items()}
    assert scores == {
        "identity_core": 100,
        "positioning_logic": 100,
        "tone_rules": 90,
        "topic_corridor": 100,
        "guardrails": 100,
    }
    assert maturity.overall == 98 and maturity.lint == ()
    assert maturity.blocks["tone_rules"].gaps == (
        "TONE-DO-004: keine erkennbare Verletzungsbedingung (Beispiel, Zahl oder Begriff fehlt)",
    )
    assert all(m.standard_ref == STANDARD_REFS[b] for b, m in maturity.blocks.items())


def test_sharp_minimal_dna_scores_full_marks() -> None:
    dna = build_dna(tone_rules=SHARP_TONE, topic_corridor=SHARP_TOPICS, guardrails=SHARP_GUARDRAILS)
    assert assess_dna_maturity(dna).overall == 100


def test_identity_core_with_market_terms_and_benefit_promises() -> None:
    dna = build_dna(identity_core={"statement": "Wir steigern den Umsatz unserer Kunden im B2B-Markt und sparen Zeit."})
    block = assess_dna_maturity(dna).blocks["identity_core"]
    assert block.maturity_score == 0
    assert block.gaps == (
        "Marktbegriffe im Kern: B2B, Kunden, Markt, Umsatz",
        "Nutzenversprechen im Kern: sparen, steigern",
    )


def test_positioning_softeners_and_missing_exclusion() -> None:
    dna = build_dna(
        positioning_logic={
            "problem": "Unternehmen brauchen Hilfe.",
            "logic": "Wir beraten ganzheitlich und individuell, flexibel für alle.",
            "delimitations": ["Wir sind offen für jedes Projekt."],
        }
    )
    block = assess_dna_maturity(dna).blocks["positioning_logic"]
    assert block.maturity_score == 15  # 100 − 40 (no exclusion) − 45 (softeners, capped)
    assert block.gaps[0] == "keine ausdrückliche Abgrenzung („Wir sind NICHT …“)"
    assert block.gaps[1].startswith("Weichmacher statt Abgrenzung: ") and "ganzheitlich" in block.gaps[1]


def test_share_of_testable_tone_rules() -> None:
    assert is_testable(ToneRule(id="A", rule="Keine Sätze über 20 Wörter."))
    assert is_testable(ToneRule(id="B", rule="Keine Floskeln.", examples=["Mehrwert schaffen"]))
    assert is_testable(ToneRule(id="C", rule="Nie „innovativ“ schreiben."))
    assert not is_testable(ToneRule(id="D", rule="Sei authentisch und nahbar."))
    vague = {"do": [{"id": "D1", "rule": "Sei authentisch."}, {"id": "D2", "rule": "Klinge menschlich."}]}
    block = assess_dna_maturity(build_dna(tone_rules=vague)).blocks["tone_rules"]
    assert block.maturity_score == 0  # no testable rule, no style parameter, no don'ts (clamped at 0)
    assert "keine Don't-Regeln" in block.gaps and "4 von 4 Stilparametern nicht gesetzt" in block.gaps


def test_topic_corridor_limits() -> None:
    topics = [{"id": f"T-{i}", "name": f"Thema {i}", "keywords": ["x"]} for i in range(4)]
    block = assess_dna_maturity(build_dna(topic_corridor={"core": topics})).blocks["topic_corridor"]
    assert block.maturity_score == 40 and block.gaps == ("4 Kern-Themen statt höchstens 3", "keine Tabu-Themen")
    empty = assess_dna_maturity(build_dna()).blocks["topic_corridor"]
    assert empty.maturity_score == 20


def test_guardrails_without_no_go_lists() -> None:
    block = assess_dna_maturity(build_dna()).blocks["guardrails"]
    assert block.maturity_score == 25
    assert block.gaps == (
        "keine verbotenen Begriffe",
        "keine verbotenen Formulierungen",
        "keine verbotenen Claims (Muster)",
    )


def test_lint_finds_contradictions_dead_exceptions_and_risky_patterns() -> None:
    dna = build_dna(
        tone_rules={"required_terms": ["ganzheitliche Sicht", "Annahme"]},
        topic_corridor={"core": [{"id": "T-C1", "name": "Synergien", "keywords": ["Synergie"]}]},
        guardrails={
            "forbidden_terms": [
                {"id": "GR-TERM-001", "term": "ganzheitlich"},
                {"id": "GR-TERM-002", "term": "Synergie"},
            ],
            "forbidden_patterns": [
                {"id": "GR-CLAIM-001", "pattern": r"(\w+\s?)+!", "description": "verschachtelt"},
                {"id": "GR-CLAIM-002", "pattern": r"(?:Nr\.)?", "description": "leer"},
            ],
            "allowed_exceptions": [
                {"id": "GR-EXC-001", "rules": ["GR-TERM-009"], "in_quotes": True},
                {"id": "GR-EXC-002", "rules": ["GR-TERM-001"]},
                {"id": "GR-EXC-003", "rules": ["GR-TERM-001"], "phrase": "ganz heilsam"},
                {"id": "GR-EXC-004", "rules": ["GR-TERM-001"], "phrase": "ganzheitliche Medizin"},
            ],
        },
    )
    findings = lint_ruleset(dna)
    assert findings == [
        "„ganzheitliche Sicht“ ist zugleich Pflichtbegriff und verboten (GR-TERM-001).",
        "„Synergie“ ist zugleich Schlüsselwort des Kern-Themas T-C1 und verboten (GR-TERM-002).",
        "GR-EXC-001: verweist auf unbekannte Regel(n) GR-TERM-009 und greift dort nie.",
        "GR-EXC-002: weder in_quotes noch phrase gesetzt – die Ausnahme greift nie.",
        "GR-EXC-003: die Wendung „ganz heilsam“ enthält keinen Treffer der betroffenen Regeln"
        " – die Ausnahme greift nie.",
        r"GR-CLAIM-001: Muster „(\w+\s?)+!“ wiederholt verschachtelt und riskiert katastrophales Backtracking.",
        r"GR-CLAIM-002: Muster „(?:Nr\.)?“ trifft auch leeren Text und damit jede Stelle.",
    ]
    block = assess_dna_maturity(dna).blocks["guardrails"]
    assert block.gaps[-len(findings) :] == tuple(findings)


@pytest.mark.parametrize(
    ("pattern", "risky"),
    [
        (r"(a+)+$", True),
        (r"(a|aa)+$", True),
        (r"(\w+\s?)+$", True),
        (r"(x+x+)+y", True),
        (r"(a{1,}){2,}", True),
        (r"((\w+)-)*\w+!", False),
        (r"\d+(\.\d+)*", False),
        (r"\b(?:Nr\.|Nummer)\s?1\b", False),
        (r"\bMarktführ\w*", False),
        (r"(?:\p{L}+-)+Anbieter", False),
        (r"[a-z]+(?:,[a-z]+)*", False),
        (r"(?:ab|cd)+", False),
    ],
)
def test_backtracking_heuristic(pattern: str, risky: bool) -> None:
    assert backtracking_risk(pattern) is risky
