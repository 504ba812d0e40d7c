"""In-text references to provisions of the same work, and the KB ids they resolve to."""

from __future__ import annotations

import pytest

from stores.text.references import (
    cases_by_paragraph,
    named_by_reference,
    provision_references,
    qualified_by_reference,
    referenced_ids,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Die Ansprüche aus den §§ 8, 9 und 13 Absatz 3 verjähren in sechs Monaten.", ["§8", "§9", "§13"]),
        ("wegen eines in § 1 genannten Grundes", ["§1"]),
        ("nach § 35 Absatz 3 Satz 1 bis zum Eingang", ["§35"]),
        ("Artikel 54 und Art. 61a gelten entsprechend.", ["Art54", "Art61a"]),
        ("nach § 3 oder § 7 und nach § 3", ["§3", "§7"]),
        ("im Sinne des § 5 dieses Gesetzes", ["§5"]),
        # another act's provisions
        ("§ 13 des Unterlassungsklagengesetzes ist entsprechend anzuwenden", []),
        ("die §§ 15 bis 17 und 21a Absatz 5 des Bundesministergesetzes", []),
        ("nach Artikel 62 Absatz 4 Buchstabe b der Verordnung (EU) 2017/745", []),
        ("Die Frist beträgt 30 Tage.", []),
    ],
)
def test_references_to_the_same_work_are_found_and_to_another_act_left_out(text: str, expected: list[str]) -> None:
    assert [kind + number for kind, number in provision_references(text)] == expected


def test_a_reference_resolves_to_the_entry_of_the_same_work_the_kb_holds() -> None:
    known = {"UWG 2004 §8", "UWG 2004 §9", "UWG 2004 §11", "GG Art54", "GG Art61"}
    text = "Die Ansprüche aus den §§ 8, 9 und 13 Absatz 3 verjähren. § 11 gilt."
    assert referenced_ids(provision_references(text), "UWG 2004 §11", known) == ["UWG 2004 §8", "UWG 2004 §9"]
    assert referenced_ids([("Art", "61")], "GG Art54", known) == ["GG Art61"]
    # an id without a provision at its end names no work to resolve in
    assert referenced_ids([("§", "8")], "lb-url-01", known | {"lb-url-8"}) == []


def test_a_noun_named_only_by_reference_comes_with_its_provisions() -> None:
    text = "Beschäftigte dürfen nicht wegen eines in § 1 genannten Grundes benachteiligt werden."
    assert named_by_reference(text) == [("Grundes", [("§", "1")])]
    assert named_by_reference("der in den §§ 8 und 9 bezeichneten sonstigen Stellen") == [
        ("Stellen", [("§", "8"), ("§", "9")])
    ]
    # a reference that narrows down a noun which says what it is about, or stands alone
    assert named_by_reference("Voraussetzung für den Zugang zur Ausbildung nach § 4 ist der Hauptschulabschluss.") == []
    assert named_by_reference("§ 5 gilt entsprechend.") == []


def test_a_noun_narrowed_down_by_a_reference_comes_with_its_provisions() -> None:
    text = "Die Ansprüche aus den §§ 8, 9 und 13 Absatz 3 verjähren in sechs Monaten."
    assert qualified_by_reference(text) == [("Ansprüche", [("§", "8"), ("§", "9"), ("§", "13")])]
    assert qualified_by_reference("Unternehmer im Sinne des § 2 Absatz 1 sind …") == [("Unternehmer", [("§", "2")])]
    assert qualified_by_reference("Die Ausbildung nach § 4 dauert drei Jahre.") == [("Ausbildung", [("§", "4")])]
    # a reference after a verb or a preposition alone, or to another act, narrows no noun
    assert qualified_by_reference("wer entgegen § 5 eine Angabe nicht macht") == []
    assert qualified_by_reference("Die Frist nach § 13 des Unterlassungsklagengesetzes gilt.") == []
    assert qualified_by_reference("§ 5 gilt entsprechend.") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Die Ordnungswidrigkeit kann in den Fällen des Absatzes 1 Nummer 1 mit einer Geldbuße", [("1", ("1",))]),
        ("ist in den Fällen des Absatzes 1 Nummer 1 und 2 die Bundesnetzagentur", [("1", ("1", "2"))]),
        ("Ein Anspruch nach Absatz 1 oder 2 muss innerhalb einer Frist", [("1", ()), ("2", ())]),
        ("Ein Anspruch nach den Absätzen 1 und 2 muss geltend gemacht werden.", [("1", ()), ("2", ())]),
        # a paragraph of a provision the text names, or of another act, is none of its own
        ("entgegen § 7 Absatz 1 Satz 1 in Verbindung mit Absatz 2 Nummer 2 wirbt", []),
        ("im Falle des Absatzes 1 des Gesetzes über Ordnungswidrigkeiten", []),
        # a derogation or an extension changes the cases of a paragraph, it does not apply to them
        ("Abweichend von Absatz 1 kann die Kontrolle entfallen.", []),
        ("Absatz 2 gilt entsprechend.", []),
    ],
)
def test_the_cases_of_a_paragraph_of_the_own_provision_are_found(
    text: str, expected: list[tuple[str, tuple[str, ...]]]
) -> None:
    assert cases_by_paragraph(text) == expected
