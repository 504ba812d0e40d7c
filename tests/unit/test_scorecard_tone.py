"""K3 deterministic tone metrics: sentence length, passive, fillers, hype words and superlatives."""

from __future__ import annotations

import pytest

from nodes.scorecard.tone import is_passive, is_past_participle, is_superlative, measure_tone
from stores.brand.models import ToneRules
from stores.text import split_sentences

STRICT = ToneRules.model_validate(
    {
        "style": {
            "max_sentence_words": 12,
            "max_avg_sentence_words": 10,
            "max_passive_share": 0.34,
            "max_filler_share": 0.05,
            "hype_words": ["Erfolgsgarant"],
        }
    }
)


@pytest.mark.parametrize(
    ("token", "expected"),
    [("geprüft", True), ("eingeführt", True), ("bezahlt", True), ("optimiert", True), ("gemacht", True),
     ("gehen", False), ("Gesetz", False), ("entscheiden", False), ("Gebiet", False)],
)  # fmt: skip
def test_past_participles(token: str, expected: bool) -> None:
    assert is_past_participle(token) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Die Annahmen werden geprüft.", True),
        ("Es wurde ein Prüfprotokoll erstellt.", True),
        ("…, dass die Entscheidung vorher dokumentiert wird.", True),
        ("Die Geschäftsführung wird morgen entscheiden.", False),  # future tense, not passive
        ("Wir prüfen die Annahmen.", False),
        ("Das Ergebnis ist geprüft.", False),  # state passive with 'sein' is not counted
    ],
)
def test_passive_heuristic(sentence: str, expected: bool) -> None:
    assert is_passive(split_sentences(sentence)[0]) is expected


@pytest.mark.parametrize(
    ("token", "expected"),
    [("schnellsten", True), ("größten", True), ("günstigste", True), ("neuesten", True),
     ("Kosten", False), ("Dienstes", False), ("ersten", False), ("Fenster", False), ("besten", False)],
)  # fmt: skip
def test_superlative_heuristic(token: str, expected: bool) -> None:
    assert is_superlative(token) is expected


def test_clean_text_passes_with_metrics() -> None:
    report = measure_tone("Wir prüfen die Annahme. Die Geschäftsführung entscheidet bis Freitag.", STRICT)
    assert report.verdict == "pass" and report.reasons == ()
    assert report.metrics == {
        "sentences": 2,
        "words": 9,
        "avg_sentence_words": 4.5,
        "max_sentence_words": 5,
        "passive_share": 0.0,
        "filler_share": 0.0,
        "hype_hits": [],
    }


def test_single_deviation_warns_with_evidence() -> None:
    text = "Wir prüfen jede Annahme, die eine Investition trägt, mit allen Daten und Gegenbeispielen. Dann gehen Sie."
    report = measure_tone(text, STRICT)
    assert report.verdict == "warn"
    (reason,) = report.reasons
    assert reason.rule_id == "TONE-LEN-001" and reason.criterion == "K3"
    assert reason.evidence is not None and reason.evidence.sentence_index == 0
    assert reason.explanation == "Der längste Satz hat 13 Wörter."


def test_hype_inflection_superlatives_and_quotes() -> None:
    text = (
        "Unsere innovativsten Ideen sind die schnellsten. Ein Kunde nannte uns „einzigartig“. Wir sind Erfolgsgaranten."
    )
    report = measure_tone(text, STRICT)
    assert report.metrics["hype_hits"] == ["innovativsten", "schnellsten", "Erfolgsgaranten"]
    assert report.verdict == "fail"  # more than one hype word is a clear violation
    assert [r.rule_id for r in report.reasons] == ["TONE-HYPE-001"] * 3


def test_passive_fillers_and_length_together_fail() -> None:
    text = (
        "Es wird eigentlich halt einfach alles ganz genau geprüft. "
        "Dann wird eben wirklich noch einmal alles sehr sorgfältig dokumentiert."
    )
    report = measure_tone(text, STRICT)
    assert report.verdict == "fail"
    assert {r.rule_id for r in report.reasons} == {"TONE-PASSIVE-001", "TONE-FILLER-001"}
    assert report.metrics["passive_share"] == 1.0
    assert report.metrics["filler_share"] == pytest.approx(5 / 19, abs=0.001)  # eigentlich halt einfach eben wirklich


def test_unset_style_parameters_are_measured_but_not_enforced() -> None:
    text = (
        "Es wird eigentlich alles geprüft, dokumentiert, abgelegt, freigegeben und anschließend noch einmal archiviert."
    )
    report = measure_tone(text, ToneRules())
    assert report.verdict == "pass"
    assert report.metrics["passive_share"] == 1.0 and report.metrics["max_sentence_words"] == 13
