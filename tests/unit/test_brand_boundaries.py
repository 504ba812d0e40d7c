"""K6 guardrails with German edge cases: inflection, umlauts and ß, case, compounds, quotes, exceptions, regex."""

from __future__ import annotations

import pytest

from nodes.shared.brand.boundaries import BoundaryReport, compile_guardrails, find_boundary_violations
from stores.brand.models import Guardrails

GUARDRAILS = Guardrails.model_validate(
    {
        "forbidden_terms": [
            {"id": "GR-TERM-001", "term": "ganzheitlich", "fix": "Umfang nennen."},
            {"id": "GR-TERM-002", "term": "Marktführer"},
            {"id": "GR-TERM-003", "term": "Größe"},
            {"id": "GR-TERM-004", "term": "garantieren"},
            {"id": "GR-TERM-005", "term": "Rundum-sorglos-Paket"},
            {"id": "GR-TERM-006", "term": "Lösung", "lemma_match": False},
        ],
        "forbidden_phrases": [{"id": "GR-PHRASE-001", "phrase": "alles aus einer Hand"}],
        "forbidden_patterns": [
            {"id": "GR-CLAIM-001", "pattern": r"\b(?:Nr\.|Nummer)\s?1\b", "description": "Ranking"},
            {"id": "GR-CLAIM-002", "pattern": r"\b100\s?%", "description": "Absolute Zahl"},
        ],
        "allowed_exceptions": [
            {"id": "GR-EXC-001", "rules": ["GR-TERM-001", "GR-CLAIM-001"], "in_quotes": True},
            {"id": "GR-EXC-002", "rules": ["GR-TERM-004"], "phrase": "nicht garantieren"},
        ],
    }
)


def _check(text: str) -> BoundaryReport:
    return find_boundary_violations(text, GUARDRAILS)


def _found(text: str) -> list[tuple[str, str]]:
    return [(v.rule_id, v.evidence.quote) for v in _check(text).violations if v.evidence]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ein ganzheitlicher Ansatz.", [("GR-TERM-001", "ganzheitlicher")]),
        ("GANZHEITLICHE Beratung", [("GR-TERM-001", "GANZHEITLICHE")]),
        (
            "Das garantierte Ergebnis; wir garantieren es.",
            [("GR-TERM-004", "garantierte"), ("GR-TERM-004", "garantieren")],
        ),
        ("Des Marktführers Antwort.", [("GR-TERM-002", "Marktführers")]),
        (
            "Die GRÖSSE zählt, die Grösse auch, die Groesse ebenso.",
            [("GR-TERM-003", "GRÖSSE"), ("GR-TERM-003", "Grösse"), ("GR-TERM-003", "Groesse")],
        ),
        ("Der Marktfuehrer schreibt ohne Umlaut.", [("GR-TERM-002", "Marktfuehrer")]),
        ("Wir sind Branchen-Marktführer.", [("GR-TERM-002", "Marktführer")]),
        ("Zwei Rundum-sorglos-Pakete.", [("GR-TERM-005", "Rundum-sorglos-Pakete")]),
        ("Wir liefern alles aus\neiner Hand.", [("GR-PHRASE-001", "alles aus\neiner Hand")]),
        ("Wir liefern alles  aus einer   Hand.", [("GR-PHRASE-001", "alles  aus einer   Hand")]),
        ("Wir sind Nummer 1 und die Nr. 1.", [("GR-CLAIM-001", "Nummer 1"), ("GR-CLAIM-001", "Nr. 1")]),
        ("Eine Lösung, zwei Lösungen.", [("GR-TERM-006", "Lösung")]),
    ],
)
def test_forbidden_forms_are_found_with_their_surface_form(text: str, expected: list[tuple[str, str]]) -> None:
    assert _found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Marktführerschaft ist ein anderes Wort.",  # a longer compound is another word
        "Die Ganzheitlichkeit bleibt erlaubt.",
        "Die Strassenbahn und der Großeinkauf.",  # 'Größe' must not match inside words
        "Nr. 12 ist kein Ranking.",
        "Wir machen alles aus eigener Hand.",
    ],
)
def test_no_hit_inside_words_or_for_other_words(text: str) -> None:
    assert _check(text).passed


@pytest.mark.parametrize(
    "quoted",
    ["„ganzheitlich“", "»ganzheitlich«", "«ganzheitlich»", "‚ganzheitlich‘", "“ganzheitlich”", '"ganzheitlich"'],
)
def test_quoted_text_is_allowed_for_the_rules_that_say_so(quoted: str) -> None:
    report = _check(f"Ein Kunde nannte uns {quoted}. Wir nennen es prüfbar.")
    assert report.passed
    assert [(e.rule_id, e.exception_id) for e in report.exempted] == [("GR-TERM-001", "GR-EXC-001")]


def test_quote_exception_is_configured_per_rule() -> None:
    text = "Der Kunde schrieb: „Ihr seid die Nr. 1, ihr seid Marktführer und ganzheitlich.“"
    assert _found(text) == [("GR-TERM-002", "Marktführer")]
    assert sorted(e.rule_id for e in _check(text).exempted) == ["GR-CLAIM-001", "GR-TERM-001"]


def test_unclosed_quotes_and_quotes_across_paragraphs_do_not_exempt() -> None:
    assert _found("„Ganzheitlich gedacht, sagte sie.") == [("GR-TERM-001", "Ganzheitlich")]
    assert _found("„Erster Absatz.\n\nGanzheitlich“ geht weiter.") == [("GR-TERM-001", "Ganzheitlich")]


def test_phrase_exception_covers_only_its_phrase() -> None:
    text = "Wir können nicht garantieren, dass es klappt. Aber wir garantieren Fristen."
    report = _check(text)
    assert [(v.rule_id, v.evidence.quote) for v in report.violations if v.evidence] == [("GR-TERM-004", "garantieren")]
    assert report.violations[0].evidence is not None
    assert report.violations[0].evidence.start == text.index("garantieren Fristen")
    assert [(e.exception_id, e.evidence.quote) for e in report.exempted] == [("GR-EXC-002", "garantieren")]


def test_evidence_has_offsets_sentence_index_lemma_trace_and_fix() -> None:
    text = "Wir prüfen z. B. Annahmen nach Abs. 2. Unser ganzheitlicher Blick stört."
    (reason,) = _check(text).violations
    assert reason.evidence is not None
    assert text[reason.evidence.start : reason.evidence.end] == "ganzheitlicher"
    assert reason.evidence.sentence_index == 1
    assert reason.rule_text == "Verbotener Begriff: „ganzheitlich“"
    assert reason.explanation == "„ganzheitlicher“ ist eine Form von „ganzheitlich“."
    assert reason.fix_suggestion == "Umfang nennen."
    assert reason.criterion == "K6"


def test_catastrophic_pattern_times_out_and_is_reported() -> None:
    slow = Guardrails.model_validate(
        {"forbidden_patterns": [{"id": "GR-CLAIM-009", "pattern": r"(a|aa)+$", "description": "riskant"}]}
    )
    report = find_boundary_violations("a" * 40 + "!", slow, regex_timeout_s=0.05)
    assert report.timed_out_rules == ("GR-CLAIM-009",)
    assert not report.passed and not report.violations


def test_compiled_matchers_are_cached_per_guardrails() -> None:
    same = Guardrails.model_validate(GUARDRAILS.model_dump())
    assert compile_guardrails(same) is compile_guardrails(GUARDRAILS)
    assert compile_guardrails(Guardrails()).check("ganzheitlich").passed


def test_a_lone_surrogate_from_malformed_json_neither_fails_nor_shifts_offsets() -> None:
    text = "\ud83d Wir sind Nr. 1 und ganzheitlich \udc00."
    found = _found(text)
    assert found == [("GR-CLAIM-001", "Nr. 1"), ("GR-TERM-001", "ganzheitlich")]
