"""The kind of value a question asks for, and whether a KB sentence gives one (number words included)."""

from __future__ import annotations

import pytest

from nodes.answer.answer_type import (
    asks_lead_time,
    asks_who_acts,
    expected_answer_type,
    gives,
    names_who_may_be_chosen,
    values,
)
from nodes.answer.answerability import _choose
from nodes.answer.evidence import candidates, rank
from tests.unit.test_premise import hit


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Wie lange hab ich Zeit, eine Entschädigung geltend zu machen?", "duration"),
        ("Für wie viele Jahre wird der Bundestag gewählt?", "duration"),
        ("Wie oft darf ein Bundespräsident wiedergewählt werden?", "frequency"),
        ("Darf der Bundespräsident mehrmals gewählt werden?", "frequency"),
        ("Kann man die Prüfung mehrfach wiederholen?", "frequency"),
        ("Ab welchem Alter kann ich in Altersteilzeit gehen?", "age"),
        ("Wie alt muss man sein?", "age"),
        ("Bis wann muss ich die Reise abrechnen?", "deadline"),
        ("Mit welcher Frist kann ich kündigen?", "deadline"),
        ("Bis zu welchem Zeitpunkt muss ich widersprechen?", "deadline"),
        ("Bis zu welchem Betrag haftet der Hersteller?", "sum"),
        ("Wann erlischt die Produkthaftung?", "time"),
        ("Wann verjährt ein Medieninhaltsdelikt?", "deadline"),
        ("Wann verfällt mein Resturlaub?", "deadline"),
        ("Bis wann verfallen Überstunden nicht, und wann werden sie ausgezahlt?", "deadline"),
        ("Ab wie vielen Leuten braucht eine Firma einen Datenschutzbeauftragten?", "amount"),
        ("Wie hoch ist das Weihnachtsgeld?", "money"),
        ("In welcher Höhe wird das Weihnachtsgeld gezahlt?", "money"),
        ("Wie viel kostet das Jobticket?", "money"),
        ("Wie viel verdient der Bundespräsident?", "money"),
        ("Wie viel zahlt die Krankenkasse dazu?", "money"),
        ("Wie hoch darf die Vertragsstrafe sein?", "sum"),
        # a count of people or days is asked „Wie viele …", even about money
        ("Wie viele Mitarbeiter bekommen einen Zuschuss?", "amount"),
        ("Wie viel Urlaub bekomme ich?", "amount"),
        ("Welche Mehrheit braucht man, um das Grundgesetz zu ändern?", "majority"),
        ("Mit welcher qualifizierten Mehrheit beschließt der Rat?", "majority"),
        ("Wer muss was beweisen?", None),
        ("Darf ich in meine Personalakte schauen?", None),
    ],
)
def test_the_question_word_says_what_kind_of_value_is_asked(question: str, expected: str | None) -> None:
    assert expected_answer_type(question) == expected


def test_number_words_are_values_and_references_are_not() -> None:
    assert values("Die Frist beträgt sechs Monaten nach § 15 Abs. 2.") == [("sechs", "Monaten")]
    assert values("wer das vierzigste Lebensjahr vollendet hat") == [("vierzigste", "Lebensjahr")]
    assert values("Geldbuße bis zu fünfzigtausend Euro oder 3 Jahre") == [("fünfzigtausend", "Euro"), ("3", "Jahre")]
    assert values("Er darf nur einmal wiedergewählt werden.") == [("einmal", "wiedergewählt")]
    # an article before a unit of time counts one of it; before any other noun it is no number
    assert values("Die Verjährungsfrist beträgt ein Jahr.") == [("ein", "Jahr")]
    assert values("Sie entscheidet innerhalb eines Monats über ein Gesuch.") == [("eines", "Monats")]
    assert values("Er wählt einen Präsidenten.") == []
    # "Zweifel", the verb "achten", articles and provisions are no numbers
    statute = "Im Zweifel ist darauf zu achten, dass eine Frist nach Art. 5 Nr. 3 der Verordnung 2016/679 gilt."
    assert values(statute) == []
    assert values("Artikel 3") == values("") == []  # nothing left once the reference is taken out
    assert not gives("duration", "Artikel 3", lead_times=False)
    # a part of a code named by its ordinal („des Sechsten Buches Sozialgesetzbuch") is no amount
    assert values("§ 41 des Sechsten Buches Sozialgesetzbuch bleibt unberührt.") == []
    assert values("Die Vorschriften des Dritten Abschnitts gelten für sechs Monate.") == [("sechs", "Monate")]


@pytest.mark.parametrize(
    ("answer_type", "sentence", "expected"),
    [
        ("duration", "Der Anspruch verjährt in drei Jahren.", True),
        ("duration", "Der Anspruch muss schriftlich geltend gemacht werden.", False),
        ("duration", "Festgehaltene sind spätestens bis zum Ende des Tages nach dem Ergreifen vorzuführen.", True),
        ("duration", "Es gilt Gleitzeit mit einer Kernarbeitszeit von 9:30 bis 14:30 Uhr.", True),
        ("duration", "Der Gleitzeitrahmen liegt zwischen 6:30 und 20:00 Uhr.", True),
        ("duration", "Die Kantine öffnet um 12 Uhr.", False),
        # the event that ends it says how long: „bis zur Vollendung des dritten Lebensjahres"
        ("duration", "Jeder Elternteil kann bis zur Vollendung des dritten Lebensjahres Elternzeit nehmen.", True),
        ("duration", "Der Anspruch besteht bis zum Abschluss des Verfahrens.", True),
        ("age", "Wählbar ist, wer das vierzigste Lebensjahr vollendet hat.", True),
        ("age", "Die Amtszeit dauert fünf Jahre.", False),
        ("frequency", "Anschließende Wiederwahl ist nur einmal zulässig.", True),
        ("frequency", "Die Kontrollen sind spätestens alle zwei Jahre durchzuführen.", True),
        ("frequency", "An bis zu 3 Tagen pro Woche kann mobil gearbeitet werden.", True),
        ("frequency", "Es gibt bis zu 5 Arbeitstage Bildungsurlaub je Kalenderjahr.", True),
        ("frequency", "Die Amtszeit dauert fünf Jahre.", False),
        ("frequency", "Der Bundestag wird auf vier Jahre gewählt.", True),  # a term of office: how often one is chosen
        ("deadline", "Resturlaub verfällt am 31. März des Folgejahres.", True),
        ("deadline", "Die Stellungnahme ist unverzüglich abzugeben.", True),
        ("deadline", "Seit 2019 gilt die Regel.", True),
        ("deadline", "Die Regel steht im BDSG 2018.", False),
        ("deadline", "Ein Produkt hat einen Fehler, wenn es nicht die Sicherheit bietet.", False),
        ("time", "Ein Produkt hat einen Fehler, wenn es nicht die Sicherheit bietet.", True),
        ("time", "Es gilt Gleitzeit mit einer Kernarbeitszeit von 9:30 bis 14:30 Uhr.", True),
        ("time", "Die Kantine öffnet um 12 Uhr.", True),
        ("time", "Das Entgelt ist am letzten Bankarbeitstag des Monats auf dem Konto.", True),
        ("time", "Das Entgelt wird auf das Konto gezahlt.", False),
        # a day counted from an event, the event's start and the pay period say when: „Wann muss ich mich krankmelden?"
        ("time", "Wer erkrankt, meldet sich am ersten Tag vor Dienstbeginn krank.", True),
        ("time", "Die Meldung erfolgt vor Dienstbeginn.", True),
        ("time", "Mit dem Novemberentgelt wird ein Weihnachtsgeld ausgezahlt.", True),
        ("time", "Anspruch haben Beschäftigte, deren Arbeitsverhältnis ungekündigt besteht.", False),
        ("time", "Der Juniorpartner erhält ein Gehalt.", False),
        # the event something ends or begins with: „Wann endet das Amt eines Bundesministers?"
        ("time", "Das Amt eines Bundesministers endigt mit dem Zusammentritt eines neuen Bundestages.", True),
        ("time", "Das Amtsverhältnis endet außer durch Tod mit der Entlassung.", True),
        ("time", "Mit dem Ende der Probezeit beginnt der Kündigungsschutz.", True),
        ("time", "Der Bundestag wählt mit der Mehrheit seiner Mitglieder einen Nachfolger.", False),
        ("time", "Er kann mit dem Antrag das Verfahren beenden.", False),
        ("deadline", "Änderungen müssen bis zum 15. des Monats eingetragen sein.", True),
        ("deadline", "Die Pauschale beträgt 15 Euro je Arbeitsstunde.", False),
        ("amount", "Die Geldbuße beträgt bis zu dreihunderttausend Euro.", True),
        ("amount", "Das Nähere regelt § 43 Abs. 2.", False),
        ("amount", "Es gelten die §§ 8, 9 und 13 sowie Artikel 83 Absatz 4 bis 6 der Verordnung.", False),
        # „Wie viele Abgeordnete …?": an ordinal says which one, not how many
        ("amount", "Der Nationalrat wählt den Präsidenten, den zweiten und dritten Präsidenten.", False),
        ("amount", "Der Bundesrat besteht aus zwei Dritteln der Mitglieder.", True),
        # „Wie hoch darf die Vertragsstrafe sein?" asks for a sum: a head count gives none, a count of people does
        ("sum", "Sie ist ausgeschlossen, wenn der Abgemahnte weniger als 100 Mitarbeiter beschäftigt.", False),
        ("amount", "Sie ist ausgeschlossen, wenn der Abgemahnte weniger als 100 Mitarbeiter beschäftigt.", True),
        ("sum", "Vertragsstrafen dürfen eine Höhe von 1 000 Euro nicht überschreiten.", True),
        # a number glued to letters is a label („Entgeltgruppe E13"), no value
        ("sum", "Führungskräfte ab Entgeltgruppe E13 können einen Dienstwagen auch privat nutzen.", False),
        ("sum", "Der Arbeitgeberzuschuss beträgt 20 %.", True),
        # money: a currency, a share or a number of salaries — no term of office, no head count
        ("money", "Die Geldbuße beträgt bis zu fünfzigtausend Euro.", True),
        ("money", "Die Entschädigung darf drei Monatsgehälter nicht übersteigen.", True),
        ("money", "Der Arbeitgeberzuschuss beträgt 20 %.", True),
        ("money", "Die Kilometerpauschale beträgt 0,30 € je Kilometer.", True),
        ("money", "Die Firma übernimmt die Hälfte der Kosten.", True),
        ("money", "Der Bau kostete 2,5 Millionen Dollar.", True),
        ("money", "Die Stiftung erhielt $5 Millionen.", True),
        ("money", "Der Markt wuchs um 3 Marktanteile.", False),
        ("money", "Das Amt des Bundespräsidenten dauert sechs Jahre.", False),
        ("money", "Der Ausschuss besteht zu zwei Dritteln aus Abgeordneten des Bundestages.", False),
        ("money", "Sie ist ausgeschlossen, wenn der Abgemahnte weniger als 100 Mitarbeiter beschäftigt.", False),
        ("majority", "Das Gesetz bedarf der Zustimmung von zwei Dritteln der Mitglieder.", True),
        ("majority", "Die Hälfte der Mitglieder wird vom Bundestag gewählt.", True),
        ("majority", "Gewählt ist, wer die Stimmen der Mehrheit der Mitglieder auf sich vereinigt.", True),
        ("majority", "Der Beschluss ergeht einstimmig.", True),
        # a majority that is not measured says no more than the question's own word
        ("majority", "Stimmt eine Mehrheit der Änderung zu, so ist ein Bundesgesetz zu erlassen.", False),
    ],
)
def test_a_sentence_gives_a_value_of_the_kind(answer_type: str, sentence: str, expected: bool) -> None:
    assert gives(answer_type, sentence, lead_times=False) is expected  # type: ignore[arg-type]


def test_a_lead_time_is_no_length_unless_the_question_asks_one() -> None:
    """„Die Bundesversammlung tritt spätestens dreißig Tage vor Ablauf der Amtszeit … zusammen" says when it meets,
    not how long the term lasts; asked „Wie lange vorher …?", it answers."""
    meeting = "Die Bundesversammlung tritt spätestens dreißig Tage vor Ablauf der Amtszeit zusammen."
    notice = "Die Ankündigung muss zehn Arbeitstage vor Beginn der Pflegezeit erfolgen."
    for sentence in (meeting, notice):
        assert not gives("duration", sentence, lead_times=False)
        assert gives("duration", sentence, lead_times=True)
        assert gives("deadline", sentence, lead_times=False)  # when it happens is what a deadline question asks
    assert not gives("amount", notice, lead_times=False)
    assert gives("amount", "Beschäftigte können bis zu 10 Arbeitstage der Arbeit fernbleiben.", lead_times=False)
    # the lead time is a value, not a unit: the same unit as a length in the same sentence still is one
    both = "Bis zu 10 Arbeitstage stehen zu; die Freistellung ist zehn Arbeitstage vor Beginn anzukündigen."
    assert gives("duration", both, lead_times=False) and gives("amount", both, lead_times=False)
    # a period after an event is how long one has: „Wie lange hat die Kommission Zeit?"
    period = "Die Ethik-Kommission nimmt innerhalb von 30 Tagen nach Eingang des Antrags Stellung."
    assert gives("duration", period, lead_times=False)
    term = "Die Amtszeit endet neun Monate nach Beendigung des Verteidigungsfalles."
    assert gives("duration", term, lead_times=False)
    assert not asks_lead_time("Wie lange ist die Amtszeit des Bundespräsidenten?")
    assert asks_lead_time("Wie lange vorher muss ich die Pflegezeit ankündigen?")
    assert asks_lead_time("Wie lange vor der Geburt beginnt der Mutterschutz?")
    assert not asks_lead_time("Wie lange bekomme ich nach der Geburt Mutterschutz?")


def test_a_count_given_by_another_count_answers_how_many() -> None:
    """„Wie viele Mitglieder hat die Bundesversammlung?": GG Art. 54 gives the number as the Bundestag's members and
    „einer gleichen Anzahl" more, no digit; the sentence on whom it elects gives none."""
    composition = (
        "Die Bundesversammlung besteht aus den Mitgliedern des Bundestages und einer gleichen Anzahl von "
        "Mitgliedern, die von den Volksvertretungen der Länder gewählt werden."
    )
    election = "Gewählt ist, wer die Stimmen der Mehrheit der Mitglieder der Bundesversammlung erhält."
    assert gives("amount", composition, lead_times=False)
    assert gives("amount", "Der Rat hat doppelt so viele Sitze wie der Ausschuss.", lead_times=False)
    assert not gives("amount", election, lead_times=False)


def test_who_chooses_is_not_answered_by_who_may_be_chosen() -> None:
    assert asks_who_acts("Wer wählt den Bundespräsidenten?")
    assert asks_who_acts("Von wem wird der Bundeskanzler gewählt?")
    assert not asks_who_acts("Wer kann Bundeskanzler werden?")  # who may be the one chosen
    assert not asks_who_acts("Wie lange dauert die Amtszeit?")
    assert names_who_may_be_chosen(
        "Zum Bundespräsidenten kann nur gewählt werden, wer das 35. Lebensjahr vollendet hat."
    )
    assert names_who_may_be_chosen("Wählbar ist jeder Deutsche, der das Wahlrecht zum Bundestage besitzt.")
    assert not names_who_may_be_chosen("Der Bundespräsident wird von der Bundesversammlung gewählt.")
    article = hit(
        "B-VG Art60",
        "(1) Der Bundespräsident wird vom Bundesvolk auf Grund des gleichen, unmittelbaren, persönlichen, freien und "
        "geheimen Wahlrechtes der zum Nationalrat wahlberechtigten Männer und Frauen gewählt.\n\n"
        "(3) Zum Bundespräsidenten kann nur gewählt werden, wer das 35. Lebensjahr vollendet hat.",
    )
    for question, first in [
        ("Wer wählt den Bundespräsidenten?", "Der Bundespräsident wird vom Bundesvolk"),
        ("Wer kann zum Bundespräsidenten gewählt werden?", "Zum Bundespräsidenten kann nur"),
    ]:
        assert rank(question, candidates([article]), None)[0].text.startswith(first)


def test_when_a_claim_lapses_is_answered_by_its_period_not_by_the_event_it_starts_with() -> None:
    section = hit(
        "MedienG §32",
        "Die Frist der Verjährung der Strafbarkeit eines Medieninhaltsdelikts beginnt zu der Zeit, da mit der "
        "Verbreitung im Inland begonnen wird. Die Verjährungsfrist beträgt ein Jahr.",
        title="§ 32 Verjährung",
    )
    question = "Wann verjährt ein Medieninhaltsdelikt?"
    evidence, _, _, outcome = _choose(question, rank(question, candidates([section]), None), survey=False)
    assert outcome == "answerable"
    assert evidence[0].text == "Die Verjährungsfrist beträgt ein Jahr."


def test_a_term_of_one_year_answers_how_long_and_is_not_shown_beside_another_period() -> None:
    term = hit("GG Art52", "(1) Der Bundesrat wählt seinen Präsidenten auf ein Jahr.", title="Art 52")
    defence = hit(
        "GG Art115h",
        "(1) Die im Verteidigungsfalle ablaufende Amtszeit des Bundespräsidenten sowie bei vorzeitiger Erledigung "
        "seines Amtes die Wahrnehmung seiner Befugnisse durch den Präsidenten des Bundesrates enden neun Monate nach "
        "Beendigung des Verteidigungsfalles.",
        title="Art 115h",
        rank=2,
    )
    question = "Für wie lange wird der Präsident des Bundesrates gewählt?"
    evidence, _, _, _ = _choose(question, rank(question, candidates([term, defence]), None), survey=False)
    assert [c.hit.entry_id for c in evidence] == ["GG Art52"]
