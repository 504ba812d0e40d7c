"""The kind of value a question asks for, read from its question word, and whether a sentence gives one.

„Wie lange …" asks for a duration, „Wie alt …" for an age, „Wie oft …" for a frequency, „Wann …" for a time or
a deadline, „Wie hoch …" for a sum (no head count), money where the question names it („Wie viel verdient …",
„Wie hoch ist das Bußgeld?"), „Wie viel/viele …" for any amount, „Welche Mehrheit …" for
a majority (a share of the votes, unanimity, or the majority of the members). German statutes write many
values as words („sechs Monaten", „vierzigste Lebensjahr", „fünfzigtausend Euro"), so number words count as
numbers. References to other provisions (``§ 15 Abs. 2``, ``Nr. 3``) are no values.
"""

from __future__ import annotations

from typing import Final, Literal

import regex

from nodes.answer.premise import PEOPLE
from stores.text.references import NUMBER_RUN
from stores.vector.analyzer import analyze

AnswerType = Literal["age", "frequency", "duration", "deadline", "time", "money", "sum", "majority", "amount"]

# First match wins: "Wie viele Jahre" asks for a duration before it asks for an amount.
_QUESTION_TYPES: Final[tuple[tuple[AnswerType, regex.Pattern[str]], ...]] = (
    ("age", regex.compile(r"\bwie alt\b|\bwelche[nms]? (?:mindest|höchst)?alter|\b(?:mindest|höchst)alter", regex.I)),
    # „Darf er mehrmals gewählt werden?" asks how often as well
    ("frequency", regex.compile(r"\bwie (?:oft|häufig)\b|\bmehr(?:mals|fach)\b|\böfter\b", regex.I)),
    (
        "duration",
        regex.compile(
            r"\bwie lange?\b|\bwie viele (?:jahre|monate|wochen|tage|stunden|minuten)\b|\bwelche (?:dauer|amtszeit)\b",
            regex.I,
        ),
    ),
    # „Bis zu welchem Zeitpunkt …" asks when, „Bis zu welchem Betrag …" how much (below); „Wann verjährt …?" and
    # „Wann verfällt …?" ask for the period or the day a right is lost by, not for the event its period starts with
    (
        "deadline",
        regex.compile(
            r"\b(?:bis|ab|seit) wann\b|\bfrist\b|\bwie schnell\b|\bbis zu welche[mr] (?:zeitpunkt|tag|datum|termin)\b"
            r"|\bwann\b.*\bver(?:jähr|fäll|fall)\w*|\bver(?:jähr|fäll|fall)\w*.*\bwann\b",
            regex.I,
        ),
    ),
    ("time", regex.compile(r"\bwann\b", regex.I)),  # a time, or the condition under which something holds
    # „Wie viel verdient …", „Wie hoch ist das Bußgeld?": money, which no term of office or head count gives
    (
        "money",
        regex.compile(
            r"^(?=.*(?:\bwie ?viel\b|\bwie hoch\b|\bwas kostet\b|\bwelche[mnrs]? (?:höhe|summe|betrag)\b))"
            r".*(?:geld|zuschuss|\bkost|verdien|gehalt|lohn|kaution|bafög|prämie|pauschale|vergütung|entschädigung"
            r"|pension|miete|gebühr|euro\b|\b(?:be)?zahl(?:t|st|en|e)\b)",
            regex.I,
        ),
    ),
    # „Wie hoch …" asks for a sum (money, a share, a measure), „Wie viele …" for any count, of people too
    ("sum", regex.compile(r"\bwie hoch\b|\bwas kostet\b|\bwelche[mnrs]? (?:höhe|summe|betrag)\b", regex.I)),
    ("majority", regex.compile(r"\b(?:welche[nrs]?|mit welcher) (?:\p{L}+ )?(?:mehrheit|quorum)\b", regex.I)),
    ("amount", regex.compile(r"\bwie ?viel\w*|\bwelche[nrs]? anzahl\b", regex.I)),
)
# the noun a majority question asks with: the answer gives its measure („zwei Dritteln"), not the word
MAJORITY_TERMS: Final = frozenset({"mehrheit", "quorum"})
_NUMBER_PART: Final = (
    r"(?:ein|zwei|drei|dritt|vier|fünf|sechs|sieben|sieb|acht|neun|zehn|elf|zwölf|zwanzig|zig|dreißig|ßig|hundert|"
    r"tausend|und)"
)
_NUMBER_WORD: Final = regex.compile(
    rf"(?i)^{_NUMBER_PART}+(?:e|en|er|es|em|n|s|ste|sten|ster|stes|te|ten|ter|tel|teln|el|eln|mal)?$"
)
# „den zweiten und dritten Präsidenten", „am achten Tag": which one, not how many
_ORDINAL: Final = regex.compile(r"(?i)\p{L}t(?:e|en|er|es|em)$")
_ARTICLES: Final = frozenset("ein eine einen einem einer eines und".split())
_INDEFINITE_ARTICLES: Final = _ARTICLES - {"und"}
_REFERENCE: Final = regex.compile(
    r"(?:§§?|\b(?:Abs\.|Absatz|Absätze|Nr\.|Nummer|Satz|Sätze|S\.|Art\.|Artikel|Anhang|Anlage|Buchstabe|Kapitel))"
    rf"\s*{NUMBER_RUN}"
    r"|\(\d+\w?\)|\b\p{Lu}{2,}\w*\s+\d{4}\b|\b\d+/\d+\b"
    # „des Sechsten Buches Sozialgesetzbuch", „im Dritten Abschnitt": a part of a code, no value
    r"|\b\p{Lu}\p{Ll}+(?:te|ste)[nmrs]?\s+(?:Buch|Teil|Kapitel|Abschnitt|Unterabschnitt|Titel)\w*"
)
_TOKEN: Final = regex.compile(r"(?<![\p{L}\d])\d+(?:[.,]\d+)*|\p{L}+")  # „E13", „A4": a label, no number
_TIME_UNIT: Final = regex.compile(
    r"(?i)^(?!lebensjahr)\p{L}*(?:sekunde|minute|stunde|tag|woche|monat|jahr|quartal)(?:e|en|n|s|es)?$"
)
_DATE: Final = regex.compile(
    # a month, also as the pay period something is paid with („mit dem Novemberentgelt")
    r"(?i)\b(?:januar|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember)"
    r"(?:entgelt|gehalt|lohn|abrechnung)?\b"
    r"|\b\d{1,2}\.\s?\d{1,2}\.|\b(?:19|20)\d\d\b|\b(?:spätestens|unverzüglich|binnen|innerhalb|sofort)\b"
    r"|\bbis zu[mr]? (?:ende|ablauf|beginn|schluss)\b|\b(?:vor|nach) (?:ablauf|beginn|ende)\b"
    r"|\b(?:vor|nach) \p{L}+(?:beginn|ende|schluss)\b"  # „vor Dienstbeginn", „nach Schichtende"
    r"|\bam (?:ersten|zweiten|dritten|letzten) \p{L}*tag\b"  # „am ersten Tag", „am dritten Werktag"
    r"|\b\d{1,2}(?:[:.]\d{2})?\s?uhr\b"  # a clock time: „von 9:30 bis 14:30 Uhr"
    r"|\b\d{1,2}\.\s+(?:des|eines|jedes)\s+\p{L}*(?:monats|quartals|jahres)\b"  # „bis zum 15. des Monats"
    r"|\b(?:ersten|letzten)\s+\p{L}*tag\s+(?:des|eines|jedes|im)\b"  # „am letzten Bankarbeitstag des Monats"
)
# „bis zum Ablauf des Jahres", „bis zur Vollendung des dritten Lebensjahres": a length given by the event that ends it
_UNTIL_END: Final = regex.compile(r"(?i)\bbis zu[mr]? (?:ende|ablauf|vollendung|beendigung|abschluss)\b")
# „von 9:30 bis 14:30 Uhr": a span of the clock says how long, as a length does
_CLOCK_SPAN: Final = regex.compile(
    r"(?i)\b(?:von|zwischen)\s+\d{1,2}(?:[:.]\d{2})?\s*(?:uhr\s+)?(?:bis|und)\s+\d{1,2}(?:[:.]\d{2})?\s?uhr\b"
)
# a sum of money: a number with a currency or a share („0,30 €", „fünfzigtausend Euro", „2,5 Millionen Dollar",
# „20 %", „drei Monatsgehälter"), or a share of a sum in words („die Hälfte der Kosten"; „zu zwei Dritteln aus
# Abgeordneten" is none)
_CURRENCY: Final = r"(?:€|\$|£|%|euro|eur|cent|prozent|(?:us-)?dollar|pfund|mark|franken|yen|yuan|rubel|kronen|gulden)"
_MONEY: Final = regex.compile(
    rf"(?i)(?:\d[\d.,]*|\b{_NUMBER_PART}+)\s*(?:(?:tausend|millionen?|milliarden?|mio\.|mrd\.)\s*)?"
    rf"(?:{_CURRENCY}(?!\p{{L}})|\p{{L}}*(?:gehalt|gehält|entgelt|lohn|löhn))"
    r"|[$£€]\s?\d"
    r"|\b(?:hälfte|\p{L}*(?:drittel|viertel))\p{L}* (?:der|des) (?:\p{L}+ )?"
    r"\p{L}*(?:kosten|beitr|betrag|preis|entgelt|gehalt|lohn|rate|miete|gebühr)"
)
_MAJORITY: Final = regex.compile(
    r"(?i)\b(?:hälfte|\p{L}*(?:drittel|viertel|fünftel|sechstel|siebtel|achtel|zehntel)(?:n|s)?)\b|\beinstimmig"
    r"|\bmehrheit (?:der|seiner|ihrer) (?:gesetzlichen |abgegebenen |anwesenden )?(?:mitglieder|stimmen)"
)
# „dreißig Tage vor Ablauf": a length of time before an event says when something must happen (a lead time), not
# how long anything lasts; „innerhalb von 30 Tagen nach Eingang" is a period that a „Wie lange …?" asks for
_LEAD_TIME: Final = regex.compile(r"(?i)\b(\d+(?:[.,]\d+)*|\p{L}+)\s+(\p{L}+)\s+vor\b")
_ASKS_LEAD_TIME: Final = regex.compile(r"(?i)\b(?:vor|vorher|vorab|voraus|früh|rechtzeitig)\b")
# „einer gleichen Anzahl von Mitgliedern", „doppelt so viele": a count given by another one
_RELATIVE_COUNT: Final = regex.compile(
    r"(?i)\b(?:gleiche|doppelte|dreifache|halbe)[nmrs]? (?:Anzahl|Zahl)\b|\b(?:ebenso|doppelt so|halb so) viele\b"
)
# „Wer wählt den Bundespräsidenten?", „Von wem …?": who acts; „Wer kann Bundeskanzler werden?" asks who may be the one
# acted on
_WHO_ACTS: Final = regex.compile(r"(?i)^(?!.*\b(?:werden|wird|wurde|wurden|worden)\b)\W*(?:und\s+)?wer\b|\bvon wem\b")
# … which a sentence on who may be chosen or appointed does not say: „Zum Bundespräsidenten kann nur gewählt werden,
# wer …", „Wählbar ist jeder Deutsche, der …"
_ELIGIBLE: Final = regex.compile(
    r"(?i)\bwerden,\s+wer\b|\b\p{L}+bar\s+(?:ist|sind)\s+(?:nur\s+)?(?:wer|jede[rs]?|alle)\b"
)
_CONDITION: Final = regex.compile(r"(?i)\b(?:wenn|sofern|soweit|falls|solange|sobald)\b")
# the event something begins or ends with answers „Wann …?" too: „… endigt … mit dem Zusammentritt eines neuen
# Bundestages", „Das Amtsverhältnis endet … mit der Entlassung"
_EVENT_VERB: Final = r"\b(?:beginn\w*|begann|begonnen|end(?:e|et|en|ete|igt|igen)|erlisch\w*|erlosch\w*)\b"
_EVENT_NOUN: Final = r"\b[Mm]it (?:dem|der|seinem|seiner|ihrem|ihrer) \p{Lu}"
_EVENT: Final = regex.compile(rf"{_EVENT_VERB}[^.;]*?{_EVENT_NOUN}|{_EVENT_NOUN}[^.;]*?{_EVENT_VERB}")
# a case a provision names for itself: „im Falle einer Auflösung", „im Verteidigungsfalle"
_CASE: Final = regex.compile(r"(?i)\bim\s+\p{L}*falle?\b")
_AGE: Final = regex.compile(r"(?i)lebensjahr|\bjahre alt\b|\balter von\b|\bvolljährig|\bminderjährig")
_FREQUENCY: Final = regex.compile(
    rf"(?i)\b(?:{_NUMBER_PART}+|mehr)mal(?:s|ig)?\b"
    r"|\balle\s+\S+\s+\p{L}*(?:jahre|monate|wochen|tage)\b"
    r"|\b\p{L}*(?:jährlich|monatlich|wöchentlich|täglich)\b"
    r"|\b(?:pro|je)\s+\p{L}*(?:jahr|quartal|monat|woche|tag)\b"  # „an bis zu 3 Tagen pro Woche"
    r"|\bauf\s+\S+\s+(?:jahre|monate)\b"  # a term of office says how often one is chosen: „auf vier Jahre gewählt"
)


def expected_answer_type(question: str) -> AnswerType | None:
    """The value the question's wording asks for, or None where it asks for something else (who, what, why)."""
    for answer_type, pattern in _QUESTION_TYPES:
        if pattern.search(question):
            return answer_type
    return None


def without_references(text: str) -> str:
    """The text with its references to provisions blanked out („§§ 15 bis 17 und 21a", „Absatz 2", „(3)",
    „BDSG 2018", „2016/679"): their numbers are no values."""
    return str(_REFERENCE.sub(" ", text))


def values(sentence: str) -> list[tuple[str, str]]:
    """The sentence's numbers (digits or number words) with the word after each: ``("sechs", "Monaten")``."""
    tokens = _TOKEN.findall(without_references(sentence))
    found = []
    for index, token in enumerate(tokens):
        after = tokens[index + 1] if index + 1 < len(tokens) else ""
        # a number word is a value before a noun („sechs Monaten") or as a count („einmal"); „zu achten" is none
        word = (
            token.casefold() not in _ARTICLES
            and _NUMBER_WORD.match(token)
            and (after[:1].isupper() or token.endswith("mal"))
        )
        # an article before a unit of time is one of it: „beträgt ein Jahr", „innerhalb eines Monats"
        one_unit = token.casefold() in _INDEFINITE_ARTICLES and bool(_TIME_UNIT.match(after))
        if token[0].isdigit() or word or one_unit:
            found.append((token, after))
    return found


def states_a_case(sentence: str) -> bool:
    """The sentence holds only under a condition or in a case it names („…, wenn die festgesetzte Geldbuße …
    übersteigt", „Die im Verteidigungsfalle ablaufende Amtszeit …")."""
    return bool(_CONDITION.search(sentence) or _CASE.search(sentence))


def asks_who_acts(question: str) -> bool:
    """The question asks who does something („Wer wählt …?", „Von wem wird … gewählt?")."""
    return bool(_WHO_ACTS.search(question))


def names_who_may_be_chosen(sentence: str) -> bool:
    """The sentence says who may be chosen or appointed („… kann nur gewählt werden, wer …", „Wählbar ist …")."""
    return bool(_ELIGIBLE.search(sentence))


def asks_lead_time(question: str) -> bool:
    """The question asks how long before something („Wie lange vorher …", „… vor der Geburt?")."""
    return bool(_ASKS_LEAD_TIME.search(question))


def gives(answer_type: AnswerType, sentence: str, *, lead_times: bool) -> bool:
    """Whether the sentence states a value of the type: a number with a time unit for a duration, a date, a
    deadline word or a duration for a deadline (a condition answers a plain „Wann …?" too), and so on. A lead time
    („zehn Arbeitstage vor Beginn") is a length or an amount only where ``lead_times`` (the question asks one)."""
    found = values(sentence)
    sentence = without_references(sentence)
    # a value is the lead time by its number and unit: „bis zu 10 Arbeitstage, zehn Arbeitstage vor Beginn" keeps 10
    leads = set() if lead_times else {m.groups() for m in _LEAD_TIME.finditer(sentence)}
    durations = any(_TIME_UNIT.match(unit) for _, unit in found)
    lengths = any(_TIME_UNIT.match(unit) and (number, unit) not in leads for number, unit in found)
    match answer_type:
        case "amount":  # an ordinal („den dritten Präsidenten") counts nothing
            return any(
                (not _TIME_UNIT.match(unit) or (number, unit) not in leads) and not _ORDINAL.search(number)
                for number, unit in found
            ) or bool(_RELATIVE_COUNT.search(sentence))
        case "money":
            return bool(_MONEY.search(sentence))
        case "sum":  # „weniger als 100 Mitarbeiter" is no sum
            return any((analyze(unit) or [""])[0] not in PEOPLE for _, unit in found)
        case "duration":
            return lengths or bool(_UNTIL_END.search(sentence)) or bool(_CLOCK_SPAN.search(sentence))
        case "deadline":
            return durations or bool(_DATE.search(sentence))
        case "time":
            return durations or any(p.search(sentence) for p in (_DATE, _CONDITION, _EVENT))
        case "age":
            return bool(_AGE.search(sentence))
        case "majority":
            return bool(_MAJORITY.search(sentence))
        case "frequency":
            return bool(_FREQUENCY.search(sentence))
