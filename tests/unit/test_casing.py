"""German capitals put back into a question typed without them."""

from __future__ import annotations

import pytest

from nodes.shared.guardrails import PLACEHOLDER, redact_pii
from stores.text.casing import restore_case


@pytest.mark.parametrize(
    ("typed", "restored"),
    [
        ("wie viele urlaubstage habe ich in vollzeit?", "Wie viele Urlaubstage habe ich in Vollzeit?"),
        ("WIE VIELE URLAUBSTAGE HABE ICH IN VOLLZEIT?", "Wie viele Urlaubstage habe ich in Vollzeit?"),
        # only the first letter capitalised, as chat input often is
        ("Gibt es einen zuschuss fürs jobticket?", "Gibt es einen Zuschuss fürs Jobticket?"),
        # a word that is also a verb's form is the noun after an article, a preposition or a number …
        ("kann ich den urlaub ins nächste jahr mitnehmen?", "Kann ich den Urlaub ins nächste Jahr mitnehmen?"),
        ("wann verfallen 30 tage resturlaub?", "Wann verfallen 30 Tage Resturlaub?"),
        # … and the verb elsewhere; an adjective before a certain noun stays an adjective, as does the word after „wie"
        (
            "wie lange muss ich arbeiten, um die volle rente zu bekommen?",
            "Wie lange muss ich arbeiten, um die volle Rente zu bekommen?",
        ),
        # a word the dictionary lacks is a name or a compound noun; two sentences each open with a capital
        (
            "ich habe eine frage. was regelt das produkthaftungsgesetz?",
            "Ich habe eine Frage. Was regelt das Produkthaftungsgesetz?",
        ),
        # an adjective's form before a word that may be a noun is the adjective; a comma ends the noun phrase
        ("gibt es geld für einen ganzen tag?", "Gibt es Geld für einen ganzen Tag?"),
        ("für übernachtungen gibt's 100 € pro nacht, oder?", "Für Übernachtungen gibt's 100 € pro Nacht, oder?"),
        # a word before a subject pronoun is the verb; a short word the dictionary lacks is an abbreviation
        (
            "ab wie vielen beschäftigten brauche ich einen beauftragten?",
            "Ab wie vielen Beschäftigten brauche ich einen Beauftragten?",
        ),
        ("gilt das auch nach dem bgb?", "Gilt das auch nach dem BGB?"),
        # capitals have no „ß": a word the dictionary knows only with it gets it back
        ("WIE HOCH IST DAS BUSSGELD?", "Wie hoch ist das Bußgeld?"),
        # „zu" opens a noun phrase, but an infinitive after it is the verb
        (
            "bekomme ich geld, wenn ich zu hause bleibe, um ihn zu betreuen?",
            "Bekomme ich Geld, wenn ich zu Hause bleibe, um ihn zu betreuen?",
        ),
        # a hyphenated noun gets a capital on each part
        ("darf mein chef mein e-mail-postfach lesen?", "Darf mein Chef mein E-Mail-Postfach lesen?"),
    ],
)
def test_a_question_typed_without_capitals_gets_them_back(typed: str, restored: str) -> None:
    assert restore_case(typed) == restored


@pytest.mark.parametrize(
    "text",
    [
        "Wie viele Urlaubstage habe ich in Vollzeit?",  # its own capitals
        "Wie viel urlaub bekomme ich in Vollzeit?",  # one capitalised noun: the writer uses capitals, if not always
        "urlaub",  # one word says nothing of how its writer types
        "AGG",
    ],
)
def test_a_text_with_its_own_capitals_or_a_single_word_stays_as_it_is(text: str) -> None:
    assert restore_case(text) == text


def test_abbreviations_in_capitals_and_placeholders_stay_as_they_are() -> None:
    assert restore_case("was regelt das AGG zur entschädigung?") == "Was regelt das AGG zur Entschädigung?"
    shouted = redact_pii("MEINE IBAN IST DE89 3704 0044 0532 0130 00. WANN KOMMT DAS GEHALT?")
    assert restore_case(shouted, keep=PLACEHOLDER) == "Meine Iban ist ‹IBAN›. Wann kommt das Gehalt?"
    mail = redact_pii("meine mail ist max@example.org, wie viel urlaub habe ich?")
    assert restore_case(mail, keep=PLACEHOLDER) == "Meine Mail ist ‹E-Mail›, wie viel Urlaub habe ich?"
