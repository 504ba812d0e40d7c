"""German sentence splitting with offsets, quotation spans and lemma-aware term spellings."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nodes.shared.brand.evidence import locate_passage
from nodes.shared.brand.quotes import QuotedSpans
from nodes.shared.brand.terms import TermEntry, TermMatcher, fold_case, inflections, spellings
from stores.text import count_words, sentence_at, split_sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Wir sind Nr. 1 im Markt. Danach kommt nichts.", ["Wir sind Nr. 1 im Markt.", "Danach kommt nichts."]),
        (
            "Das gilt z. B. für Abs. 2 der Regel. Neu ist das nicht.",
            ["Das gilt z. B. für Abs. 2 der Regel.", "Neu ist das nicht."],
        ),
        ("Wir sind die Nr. 1. Unsere Kunden wissen das.", ["Wir sind die Nr. 1.", "Unsere Kunden wissen das."]),
        ("Es steht in § 5. Mehr nicht.", ["Es steht in § 5.", "Mehr nicht."]),
        ("Am 3. Mai und im 2. Quartal startet es.", ["Am 3. Mai und im 2. Quartal startet es."]),
        ("Seit 2019. Das ist lange her.", ["Seit 2019.", "Das ist lange her."]),
        ("Es kostet ca. 1.500 Euro, d. h. wenig.", ["Es kostet ca. 1.500 Euro, d. h. wenig."]),
        ("Wirklich? ja. Dr. Meier u. a. sind da!", ["Wirklich? ja.", "Dr. Meier u. a. sind da!"]),
        ("Er sagte: „Wir sind bereit.“ Dann ging er.", ["Er sagte: „Wir sind bereit.“", "Dann ging er."]),
        (
            "Liste:\n- Punkt eins\n- Punkt zwei\nweiter im Satz",
            ["Liste:", "- Punkt eins", "- Punkt zwei\nweiter im Satz"],
        ),
        ("Absatz eins\n\nAbsatz zwei", ["Absatz eins", "Absatz zwei"]),
    ],
)
def test_german_sentences(text: str, expected: list[str]) -> None:
    sentences = split_sentences(text)
    assert [s.text for s in sentences] == expected
    assert all(text[s.start : s.end] == s.text for s in sentences)
    assert [s.index for s in sentences] == list(range(len(expected)))


def test_sentence_lookup_and_word_count() -> None:
    text = "Eins zwei. Drei vier fünf."
    sentences = split_sentences(text)
    assert [sentence_at(sentences, o) for o in (0, 9, 10, 11, len(text) - 1)] == [0, 0, 0, 1, 1]
    assert count_words("Nr.-1-Anbieter sind Hype, z. B. 100 %.") == 7  # Nr | 1-Anbieter | sind | Hype | z | B | 100
    assert sentences[1].words == ["Drei", "vier", "fünf"]


def test_quoted_spans() -> None:
    text = 'Er sagte „a ‚b‘ c“, sie »d« und "e"; ‚f‘ und “g”.'
    quotes = QuotedSpans(text)
    assert [text[s:e] for s, e in quotes.spans] == ["„a ‚b‘ c“", "»d«", '"e"', "‚f‘", "“g”"]
    assert quotes.covers(text.index("b"), text.index("b") + 1)
    assert not quotes.covers(text.index("sagte"), text.index("sagte") + 5)


def test_fold_case_keeps_offsets() -> None:
    for text in ("İstanbul GROSS", "Straße\tund\u00a0mehr", "Kund’innen‐Zahl"):
        assert len(fold_case(text)) == len(text)
    assert fold_case("Kund’innen\u2010Zahl\nX") == "kund'innen-zahl x"


def test_inflections_come_from_the_lemma_and_keep_the_stem() -> None:
    assert {"garantiert", "garantierte", "garantierst", "garantieren"} <= inflections("garantiert")
    assert {"märkte", "marktes", "markt"} <= inflections("Markt")
    forms = inflections("beste")
    assert "besten" in forms and "gut" not in forms and "gute" not in forms
    assert {"disruptive", "disruptiven"} <= inflections("disruptiv")  # regular endings fill dictionary gaps


def test_spellings_add_transliterations_and_inflect_phrases() -> None:
    assert {"größe", "groesse", "grösse"} <= spellings("Größe", inflect=False)
    phrase = spellings("ganzheitlicher Ansatz", inflect=True)
    assert {"ganzheitlicher ansatz", "ganzheitlichen ansatz", "ganzheitliche ansätze"} <= phrase


def test_matcher_reports_entry_and_form() -> None:
    matcher = TermMatcher([TermEntry("K", "Kunde"), TermEntry("F", "für alle", inflect=False)])
    text = "Die Kunden, für alle Kundinnen: FÜR ALLE."
    hits = matcher.find(text)
    assert [(h.key, text[h.start : h.end], h.form) for h in hits] == [
        ("K", "Kunden", "kunden"),
        ("F", "für alle", "für alle"),
        ("F", "FÜR ALLE", "für alle"),
    ]
    assert matcher.size >= 8


def test_llm_quotes_are_located_or_dropped() -> None:
    text = "Wir prüfen Annahmen.\nDie Entscheidung  fällt später."
    sentences = split_sentences(text)
    exact = locate_passage(text, sentences, "„Wir prüfen Annahmen.“")
    assert exact is not None and (exact.start, exact.sentence_index) == (0, 0)
    loose = locate_passage(text, sentences, "die entscheidung fällt später")
    assert loose is not None and loose.quote == "Die Entscheidung  fällt später" and loose.sentence_index == 1
    assert locate_passage(text, sentences, "Wir garantieren Erfolg") is None
    assert locate_passage(text, sentences, "„“") is None


_WORDS = ["ohne", "Risiko", "alles", "aus", "einer", "Hand", "Paket", "rund", "um"]
_GAPS = ["", " ", "  ", "   ", "\n  ", "\t", " \u00a0 "]
_ENTRIES = ["ohne Risiko", "Risiko", "alles aus einer Hand", "rund um"]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_GAPS)), max_size=30))
def test_hits_across_whitespace_runs_map_back_to_the_original(parts: list[tuple[str, str]]) -> None:
    text = "".join(gap + word for word, gap in parts)
    matcher = TermMatcher(TermEntry(entry, entry, inflect=False) for entry in _ENTRIES)
    expected = sorted(
        (m.start(), m.end(), entry)
        for entry in _ENTRIES
        for m in re.finditer(r"(?<!\w)" + r"\s+".join(entry.split()) + r"(?!\w)", text, re.IGNORECASE)
    )
    assert sorted((hit.start, hit.end, hit.key) for hit in matcher.find(text)) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Wir liefern alles  aus einer Hand.",
        "Wir liefern alles aus einer\n    Hand.",
        "alles\taus\u00a0 einer  Hand",
        "Wir liefern alles aus einer Hand.  Seit 1990.",  # a run elsewhere in the text
    ],
)
def test_a_phrase_spans_runs_of_whitespace_at_any_gap(text: str) -> None:
    matcher = TermMatcher([TermEntry("GR-PHRASE-001", "alles aus einer Hand", inflect=False)])
    hits = matcher.find(text)
    assert [" ".join(text[h.start : h.end].split()) for h in hits] == ["alles aus einer Hand"]
