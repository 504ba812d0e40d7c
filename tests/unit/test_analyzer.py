"""German analyzer: tokens, folding, lemmas, stopwords, compounds, numbers, and the BM25 sparse vectors."""

from __future__ import annotations

import pytest

from stores.vector.analyzer import GermanAnalyzer, analyze, fold, nouns, term_index


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("Führerschein", "Fuehrerschein"),
        ("Straße", "STRASSE"),
        ("Kündigungsfrist", "kundigungsfrist"),
        ("Gehälter", "Gehalt"),
        ("Arbeitnehmerinnen", "Arbeitnehmerin"),
        ("Urlaubstage", "urlaubstag"),
    ],
)
def test_spelling_variants_and_inflections_share_their_first_term(left: str, right: str) -> None:
    assert analyze(left)[0] == analyze(right)[0]


def test_folding_handles_umlauts_sharp_s_and_case() -> None:
    assert fold("ÄÖÜäöüß") == "aouaouss"
    assert fold("Quelle") == "quelle"  # "ue" after q is no transliterated umlaut


def test_stopwords_are_dropped_and_content_words_kept() -> None:
    terms = analyze("Wie viele Tage habe ich für den Urlaub, und wann muss ich ihn nehmen?")
    assert "urlaub" in terms and "tag" in terms
    assert not {"wie", "ich", "fur", "den", "und", "wann"} & set(terms)


def test_a_lower_case_infinitive_stays_the_verb_that_its_other_forms_are() -> None:
    # looked up capitalised, „zwingen“ was the noun „Zwinge“ while „gezwungen“ was the verb „zwingen“
    assert analyze("Darf mich der Staat zwingen?")[-1] == analyze("Niemand darf gezwungen werden.")[-1] == "zwingen"
    assert analyze("bleiben") == analyze("bleibt") == ["bleiben"]
    assert analyze("Wer soll zahlen?") == ["zahlen"] != analyze("Zahlen")
    # written as a noun, the same letters stay the noun; a lower-case noun still finds its lemma
    assert analyze("aus wichtigen Gründen")[-1] == "grund"
    assert analyze("urlaub") == analyze("Urlaub") == ["urlaub"]
    assert analyze("die konjunkturellen Folgen")[0] == analyze("Konjunkturellen")[0]  # no verb, no change


def test_percentages_keep_decimal_comma_and_become_words() -> None:
    assert analyze("Der Satz beträgt 28,5 % ab 2026.") == ["satz", "betragen", "28,5", "prozent", "ab", "2026"]
    assert analyze("28,5 %") == analyze("28,5 Prozent") == ["28,5", "prozent"]
    assert analyze("1.234,56 €") == ["1.234,56", "euro"]
    assert analyze("28,5 %") != analyze("28 5 %")


def test_hyphenated_words_index_the_whole_and_the_parts() -> None:
    terms = analyze("Sachbezugs-Verordnung")
    assert terms[0] == "sachbezugsverordnung"
    assert {"sachbezug", "verordnung"} <= set(terms)
    assert analyze("E-Mail")[0] == "email"


def test_long_compounds_add_their_parts() -> None:
    terms = analyze("Lohnsteuerbescheinigung")
    assert terms[0] == "lohnsteurbescheinigung"
    assert {"lohnsteur", "bescheinigung"} <= set(terms)
    assert set(analyze("Führerschein")) >= {"fuhrer", "schein"}  # the balanced cut, not führ|erschein


@pytest.mark.parametrize(
    ("word", "head"),
    [
        # the linking „s" belongs to the modifier …
        ("Arbeitstage", "tag"),
        ("Krankheitstag", "tag"),
        ("Bundestages", "tag"),
        ("Aufenthaltsorte", "ort"),
        ("Monatsende", "ende"),
        ("Prüfungsteil", "teil"),
        # … unless the head that keeps it is the commoner noun
        ("Gegenstand", "stand"),
        ("Zeitspanne", "spann"),  # „Panne" is commoner, but not by far
        ("Wirbelstürme", "sturm"),
        ("Lohnsteuer", "steur"),  # „teuer" is no noun
    ],
)
def test_a_linking_s_goes_where_the_head_is_the_commoner_noun(word: str, head: str) -> None:
    """„Arbeitstage" shares „Tag" with „Kalendertag", not „Stag" (word frequencies from ``wordfreq``)."""
    assert analyze(word)[-1] == head


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("Stellungnahme", ["stellung", "nehmen"]),  # was stellung|ahmen: a linking „n" after „Stellung"
        ("Kenntnisnahme", ["kenntnis", "nehmen"]),
        ("Stellungnahmen", ["stellung", "nehmen"]),
        ("Kundendienst", ["kunde", "dienst"]),  # a stem in „e" takes the linking „n"
        ("Unantastbar", []),  # not una|tastbar
        ("Schuldners", []),  # not schuld|er
    ],
)
def test_a_linking_n_follows_only_a_stem_in_e_and_nahme_is_the_noun_of_nehmen(word: str, parts: list[str]) -> None:
    """„Stellung zu nehmen" in the statute shares the words of „Stellungnahme" in the question."""
    assert analyze(word)[1:] == parts


def test_query_and_document_vectors_follow_bm25() -> None:
    analyzer = GermanAnalyzer()
    doc = analyzer.document_vector("Urlaub Urlaub Urlaub Gehalt")
    assert doc.indices == sorted(set(doc.indices))
    weights = dict(zip(doc.indices, doc.values, strict=True))
    assert weights[term_index("urlaub")] > weights[term_index("gehalt")]
    assert all(0 < w < analyzer.k1 + 1 for w in doc.values)  # saturation bound
    query = analyzer.query_vector("Urlaub Urlaub Gehalt")
    assert query.values == [1.0, 1.0]


def test_longer_documents_weigh_a_term_less() -> None:
    analyzer = GermanAnalyzer(avg_length=4)
    short = analyzer.document_vector("Urlaub Gehalt")
    long = analyzer.document_vector("Urlaub Gehalt Kantine Parkplatz Dienstwagen Kita Fahrrad Jobticket")
    index = term_index("urlaub")
    assert (
        dict(zip(short.indices, short.values, strict=True))[index]
        > dict(zip(long.indices, long.values, strict=True))[index]
    )


def test_term_index_is_stable_across_processes() -> None:
    assert term_index("urlaub") == 759_620_451  # blake2b, not Python's per-process salted hash()
    assert term_index("urlaub") != term_index("gehalt")


def test_empty_and_symbol_only_text_has_no_terms() -> None:
    assert analyze("") == []
    assert analyze("… – !!") == []
    assert GermanAnalyzer().query_vector("und oder aber").indices == []


def test_nouns_are_the_capitalised_words_as_written_with_their_whole_word_term() -> None:
    assert nouns("Wie lange sind Fotos urheberrechtlich geschützt? Mein Chef-Fahrer fragt.") == [
        ("Fotos", "foto"),
        ("Chef-Fahrer", "cheffahrer"),
    ]
    assert nouns("") == []
