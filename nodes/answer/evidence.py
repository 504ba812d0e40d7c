"""Sentence evidence for a question: whole KB sentences ranked by how well they cover the question's content.

A question's content words are weighed: nouns, numbers and abbreviations (``AGG``) are its *key* content, the
other content words count half. A word is covered by a sentence when its lemma occurs there, or all parts of a
compound do (``Urlaubstage`` ← ``Arbeitstage … Erholungsurlaub``); the head alone covers half of it. The block's
title, section and id cover a word too (a question naming ``AGG`` is covered by an ``AGG §15`` sentence), but rank
lower than the sentence's own words. The unit of a value the question names („nach einem Jahr") is no content word:
the KB may state the value in another unit. With a dense embedder, the cosine of question and sentence joins the rank.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import groupby
from typing import Final

import numpy as np
import regex

from nodes.answer.answer_type import (
    MAJORITY_TERMS,
    asks_lead_time,
    asks_who_acts,
    expected_answer_type,
    gives,
    names_who_may_be_chosen,
    without_references,
)
from nodes.answer.premise import MONTHS, Quantity, quantities, repeats, says_repeatedly
from nodes.shared.guardrails import PLACEHOLDER
from stores.kb.models import Hit
from stores.text import (
    Sentence,
    closes_sentence,
    goes_on_item,
    list_depth,
    row_statement,
    split_sentences,
    table_caption,
    tables,
)
from stores.text.references import (
    cases_by_paragraph,
    named_by_reference,
    qualified_by_reference,
    referenced_ids,
)
from stores.text.thesaurus import broader, synonyms
from stores.vector.analyzer import analyze, verb_lemma
from stores.vector.embedders import Embedder

_WORD: Final = regex.compile(r"\p{N}+(?:[.,]\p{N}+)*|\p{L}[\p{L}\p{M}\p{N}]*(?:[-'’]\p{L}[\p{L}\p{M}\p{N}]*)*|§")
# A further part of the question: „und" before a question word („… und wie lange bleibt …", „und ab wann …", not „und
# seit 20 Jahren dabei"), or before a verb and its pronoun subject („… und übernimmt er auch die Beerdigungskosten?");
# a conjunction there opens a clause of the first.
_PART_BREAK: Final = regex.compile(
    r"(?i)\?\s+|(?:,\s*|\s+)(?:und|sowie)\s+"
    r"(?=(?:(?:ab|bis|seit)\s+)?(?:wie|wann|wo|wer|was|welche[nmrs]?|ob|warum|wieso)\b)"
    r"|(?:,\s*|\s+)und\s+(?=(?!(?:wenn|falls|dass|weil|da|als|obwohl|sobald|nachdem|bevor|damit|zwar|so|auch|dann|nur"
    r"|noch|nicht)\b)(?-i:\p{Ll}+)\s+(?:er|sie|es|ich|man|wir|du|ihr)\b)"
)
# A sentence that opens by pointing back („In dieser Zeit …", „Er wird …", „Seine Wahlperiode …", „Danach …") reads with
# the one before; „Das" before a verb, not as the article of an attribute („Das von den Behörden anzuwendende …").
_PREPOSITIONS: Final = r"(?:an|auf|aus|bei|bis|durch|für|gegen|in|mit|nach|ohne|über|um|unter|von|vor|zu|zum|zur)"
_POINTS_BACK: Final = regex.compile(
    r"^(?:Er|Sie|Dies|Diese[mnrs]?|Das(?= (?!" + _PREPOSITIONS + r" )\p{Ll}+ \p{Ll})|Danach|Dabei|Dafür|Hierfür|"
    r"Sein(?:e[mnrs]?)?|Ihre[mnrs]?|Deren|Dessen|"
    r"Hierbei|Davon|Daraus|Darüber hinaus|Ferner|Zudem|"
    r"Eine?[mnrs]? solche[mnrs]?|(?:In|Bei|Nach|Während|Von|Mit|Für|Zu) diese[mnrs]? \p{L}+"
    # „er" / „sie" right after the finite verb of a main clause that opens otherwise („Für Kündigungen durch
    # Nordlicht verlängert sie sich …", „Andernfalls gelten sie …"); a comma before it opens another clause
    r"|\p{Lu}[^\s,]*(?: [^\s,]+){0,5}? \p{Ll}+ (?:er|sie))\b"
)
# „Ihre …" of a text that addresses its reader („Ihre Abrechnung finden Sie im Portal") is the reader's: no pointer
_ADDRESSES_READER: Final = regex.compile(r"^Ihre[mnrs]?\b.*\bSie\b")
# „Ein solches Gesetz …", „Diese Frist …": the pointer means the sentence that names the noun, even where another
# stands between (GG Art. 79: „… nur durch ein Gesetz geändert werden …", a long sentence, „(2) Ein solches Gesetz …").
_POINTED_NOUN: Final = regex.compile(
    r"^(?:(?:In|Bei|Nach|Während|Von|Mit|Für|Zu) )?(?:Eine?[mnrs]? solche[mnrs]?|[Dd]iese[mnrs]?) (\p{Lu}\p{Ll}+)"
)
MAX_POINTER_REACH: Final = 3  # sentences back
# „Aus welchen Gründen …", „Welche Unterlagen …": the noun the question asks to have named
_WHICH_NOUN: Final = regex.compile(r"(?i:\bwelche[nmrs]?)\s+(?:\p{Ll}+\s+)?(\p{Lu}[\p{L}-]*)")
# A question of several sentences („… an. Hafte ich, wenn …"): each opens like the first, a verb before its subject.
_SENTENCE_END: Final = regex.compile(r"[.?!]")
# an inflected adjective of a derivational suffix („rechtliche", „gesetzlichen", „kostenlose", „elektronischer")
_ADJECTIVE: Final = regex.compile(r"(?:lich|isch|ig|bar|sam|haft|los)e[mnrs]?$")
# the analyzer leaves an adjective's „-e" where it strips „-en" only: „unbezahlten" → unbezahlte, „unbezahlter" →
# unbezahlt; „gesetzlichen" → gesetzliche, „gesetzliche" → gesetzlich (a participle's „-t" counts as a suffix too)
_ADJECTIVE_LEMMA: Final = regex.compile(r"(?:lich|isch|ig|bar|sam|haft|los|t)e?$")
_SUBJECTS: Final = frozenset("ich er sie es man wir du ihr Sie".split())
# a strong verb names its deed with another vowel: with a prefix, „umziehen" is a „Umzug", „einsehen" an „Einsicht"
_ABLAUT_NOUNS: Final = {
    "ziehen": "zug", "treten": "tritt", "gehen": "gang", "fliegen": "flug", "schliessen": "schluss",
    "fliessen": "fluss", "giessen": "guss", "brechen": "bruch", "sprechen": "spruch", "nehmen": "nahme",
    "geben": "gabe", "greifen": "griff", "steigen": "stieg", "schreiben": "schrift", "fahren": "fahrt",
    "kommen": "kunft", "stehen": "stand", "finden": "fund", "sehen": "sicht", "werfen": "wurf", "liegen": "lage",
    "binden": "bund", "schneiden": "schnitt", "springen": "sprung", "schieben": "schub", "heben": "hub",
    "zwingen": "zwang", "wachsen": "wuchs",
}  # fmt: skip
# … or before the article of its subject („Geht die Ausbildung schneller?"); „des" opens no subject
_SUBJECT_ARTICLES: Final = frozenset(
    """der die das dem den ein eine einen einem einer mein meine meinen meinem meiner unser unsere unseren unserem
    unserer jeder jede jedes jeden""".split()
)
# „Welche Mehrheit braucht der Bundestag dafür?": a pronominal adverb that stands for a matter said elsewhere
# („dafür stimmen" votes, „darüber hinaus" adds: neither points back).
_POINTER: Final = regex.compile(
    r"(?i)\b(?:(?:dafür|dagegen)(?!\s+(?:ge)?stimm)|dabei|davon|danach|darüber(?!\s+hinaus)|damit|daran|darin|hierfür|"
    r"hierzu|hierbei|hiervon)\b"
)
_CLAUSE_JOIN: Final = regex.compile(r"(?i)\b(?:und|oder|sowie|aber)\b|[.;:!?–]\s")  # … or a sentence before it
_REPEALED: Final = "(weggefallen)"
_EMPHASIS: Final = regex.compile(
    r"(\*\*|__)(?P<strong>\S(?:.*?\S)?)\1|(?<![\w*])\*(?P<em>[^\s*](?:[^*]*?[^\s*])?)\*(?![\w*])"
)
_KEY_VALUE: Final = regex.compile(r"^(\p{Lu}[^:]*):\s+\S")  # „Probezeit: 6 Monate"
MAX_LABEL_WORDS: Final = 5
_LINK: Final = regex.compile(r"(?P<image>\s*!)?\[(?P<text>[^\[\]]*)\]\((?P<url>[^()\s]+)\)")
# „an Standorten ohne Kantine", „wer keine Kinder hat": the noun names the case its absence makes
_NEGATED: Final = regex.compile(r"\b(?:ohne|kein(?:e|en|em|er|es)?)\s+(?:\p{Ll}+\s+)?(\p{Lu}[\p{L}-]*)")
# A period named as the time of the case („in der Probezeit", „während der Elternzeit"), and one named only as its
# bound („nach der Probezeit", „vor Ablauf der Kündigungsfrist"): a sentence on the time after it says nothing of it.
# Whatever has an „Ablauf", „Ende" or „Beginn" is a period („nach Ablauf der Entgeltfortzahlung") — but for a span
# of the calendar („nach Ende des Urlaubsjahres"), the time a case is counted in rather than a matter of its own.
_PERIOD: Final = r"(\p{Lu}[\p{L}-]*(?:zeit|frist|phase)(?:en)?)\b"
_RUNNING_OUT: Final = r"(\p{Lu}[\p{L}-]*+)(?<!jahr|jahres|jahrs|monat|monats|quartal|quartals|woche|tag|tages|tags)\b"
_DURING: Final = regex.compile(rf"\b(?:in|während|innerhalb)\s+(?:der|des|dem)\s+{_PERIOD}", regex.IGNORECASE)
_BOUND: Final = regex.compile(
    rf"\b(?:nach|vor)\s+(?:(?:Ablauf|Ende|Beginn)\s+(?:der|des|dem)\s+{_RUNNING_OUT}|(?:der|des|dem)\s+{_PERIOD})",
    regex.IGNORECASE,
)
# A law's short name of word beginnings (``ProdHaftG``, ``HeilMWerbG``, ``MPBetreibV``) in a block's id or title.
# ``ProdHaftG``; or capitals only, four or more, ending in the kind of act (``MPDG``, ``BDSG``, ``MPBetreibV``)
_SHORT_NAME: Final = regex.compile(r"\b(?:(?=\w*\p{Ll})(?=\p{Lu}\w*\p{Lu})\p{L}+|\p{Lu}{3,}[GVO])\b")
_FOLD: Final = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "ss"})
# "§ 43", "Art. 54", "Artikel 54": a provision the question names; the block whose id or title ends with it ranks up.
_PROVISION: Final = regex.compile(r"(?i)(§|\bArt(?:ikel)?\.?)\s*(\d+[a-z]?)\b")
MAX_CONTEXT_WORDS: Final = 40  # a longer sentence before is left out: the answer would grow too long
# a sentence, not a lead-in whose list is missing („… Folgendes enthalten:")
_WHOLE: Final = regex.compile(r"^[\p{Lu}\p{N}§„\"»(].*(?<!:)[.!?][\"“”»)]?$", regex.DOTALL)
# Capitalised words that open questions without being their content.
QUESTION_OPENERS: Final = frozenset(
    """gibt gilt gelten muss müssen kann können darf dürfen habe hat haben bekomme bekommt bekommen steht stehen
    zählt zählen zahlt zahlen brauche braucht sollte soll sind ist wird werden welche welcher welches welchen
    warum wieso weshalb wie wann wo wer was ab bis laut""".split()
)
# Particles that carry a question's attitude, not its content ("Warum zahlt Nordlicht kein Urlaubsgeld?"), modal
# verbs, which statutes use everywhere ("darf", "muss"), and "gelten", a verb as light ("Wann gilt … als …?").
FILLER_WORDS: Final = frozenset(
    """kein keine keinen keinem keiner nicht nur noch schon immer genau eigentlich bitte mal denn etwa überhaupt
    darf dürfen muss müssen kann können soll sollen sollte gilt gelten""".split()
)
# Prepositions the analyzer keeps (BM25 indexes them): in a question they say when or how, not what it is about
# („ab dem nächsten Monat", „pro Woche", „seit Januar").
FUNCTION_WORDS: Final = frozenset("ab seit wegen trotz innerhalb außerhalb pro je".split())
# "Wie lange/oft/hoch/alt …": the word after "wie" names the kind of value asked (``answer_type``), no content.
QUESTION_COMPLEMENTS: Final = frozenset(
    "lange lang oft häufig hoch viel viele vielen alt schnell früh spät weit".split()
)
_HOW_MANY: Final = frozenset({"viel", "viele", "vielen"})
# a condition clause („wenn er verhindert ist", „wenn ich kündige") names the case asked about; its verb is key
# content unless it is too light to name one („wenn es keinen Betriebsrat gibt")
_CONDITIONS: Final = frozenset("wenn falls sofern sobald soweit".split())
# a lead-in that ends in a condition („…, wenn sie", „…, soweit"): its items are the parts of that condition
_CONDITION_LEAD: Final = regex.compile(r"\b(?:wenn|falls|sofern|sobald|soweit|solange)(?:\s+\S+){0,2}$")
_CLAUSE_END: Final = regex.compile(r"[,;:.?!–]")
LIGHT_VERBS: Final = frozenset(
    """geben gehen kommen machen tun bekommen kriegen nehmen passieren stehen bleiben lassen liegen sein haben
    werden""".split()
)
# „wenn ich krank bin": the word a copula closes a condition clause with names the case, as a verb would — unless
# it is an adverb („wenn das Frühstück inklusive ist", „wenn ich wieder da bin")
_COPULAS: Final = frozenset("bin bist ist sind seid war warst waren wäre wären werde wirst wird werden wurde".split())
_ADVERBS: Final = frozenset("inklusive exklusive dabei da dort hier so weg vorbei zurück drin dran mit".split())
# „Bescheid sagen / geben / wissen": the noun is part of the verb („mitteilen"), no matter of its own; a „Bescheid"
# one gets may be an authority's decision
_IDIOM_NOUNS: Final = {"bescheid": frozenset({"sagen", "geben", "wissen"})}
TIME_UNITS: Final = frozenset("tag woche monat quartal jahr".split())
# „zu Hause", „nach Hause": an adverb of place in two words; a sentence need not name a house to answer
# „Darf die Polizei meine Wohnung durchsuchen, wenn ich nicht zu Hause bin?" — unless it is all the question names
# („Wie oft darf ich von zu Hause arbeiten?")
_AT_HOME: Final = frozenset({"zu", "nach"})  # … before „Hause"
# the seasons, like the months, say when the asker's case happens („wenn ich im Sommer angefangen habe")
SEASONS: Final = frozenset("frühling frühjahr sommer herbst winter".split())
RELATIVE_TIMES: Final = frozenset(
    """nächste nächsten nächstes kommende kommenden kommendes folgende folgenden übernächsten letzte letzten
    letztes vorige vorigen voriges vergangene vergangenen vergangenes laufende laufenden laufendes diese diesen
    dieses""".split()
)
# Lemmas too general to be what a question is about ("Welche Regeln gelten …"); "Firma" and "Chef" are how
# askers name the other side, which the KB calls by its name or "Arbeitgeber".
GENERIC_TERMS: Final = frozenset(
    """regel regelung frage information info moglichkeit art uberblick thema fall bestimmung vorschrift sache
    zeit geld betrag summe hohe firma chef""".split()
)
# Suffixes the analyzer's naive compound split takes for a head — of adjectives (fehler|haft) and of the one who holds
# a thing (oberbefehls|haber; no word of its own): the modifier alone says the word („fehlerhaft" ← „einen Fehler
# hat", „Oberbefehlshaber" ← „Den Oberbefehl … führt").
SUFFIX_HEADS: Final = frozenset({"haft", "haber"})
KEY_WEIGHT: Final = 2.0
OTHER_WEIGHT: Final = 1.0
HEADER_RANK_SHARE: Final = 0.6  # a word only the block header covers ranks below one the sentence says
PARAGRAPH_RANK_SHARE: Final = 0.5  # … and so does a word only another sentence of its paragraph says
DENSE_WEIGHT: Final = 0.5
RETRIEVAL_WEIGHT: Final = 0.1
NAMED_WEIGHT: Final = 0.5  # the sentence stands in the provision the question names („nach § 43 BDSG")
TYPE_WEIGHT: Final = 0.3  # the sentence gives the kind of value the question asks for („Wie lange" → a duration)
MAX_EMBEDDED: Final = 32  # sentences embedded per question (the lexically best ones)
MIN_WORDS: Final = 4
FOUND_IN_COMPOUND: Final = 0.6
COMPOSED: Final = 0.85
SYNONYM: Final = 0.85  # the word, or each part of it, said in other words of the same meaning (thesaurus)
HEAD_ONLY: Final = 0.5
COVERED: Final = 0.6  # from here on a word counts as covered (the gate, and what a further sentence adds)
FOCUS_WEIGHT: Final = 0.3  # among equally covering sentences, the one about less else ranks first
SHARED_TERM_DISCOUNT: Final = 0.6  # a word every retrieved block covers (the company name) weighs 40 %
MIN_COMPOUND: Final = 8
SAME_STEM: Final = 0.6
BROADER: Final = 0.6  # the class the word belongs to, said as a word of its own (thesaurus: „Grippe" ← „Erkrankung")
MIN_STEM: Final = 7  # letters two lemmas share at least to count as one stem …
MAX_ENDING: Final = 3  # … and differ in endings of at most this many letters ("-en", "-ung")
_ADJECTIVE_NOUNS: Final = ("heit", "keit", "igkeit", "schaft")  # „Krankheit", „Arbeitslosigkeit", „Schwangerschaft"
_ADJECTIVE_VERBS: Final = ("en", "t", "ung")  # „erkranken", „erkrankt", „Erkrankung"
BACK: Final = "zuruck"  # „zurücktreten" names its deed „Rücktritt" (folded: the analyzer's form)
BACK_NOUN: Final = "ruck"
NEGATION: Final = "un"  # „ungekündigt": a participle the analyzer does not reduce to its verb
_UNSTRESSED: Final = ("be", "ge", "er", "ver", "zer", "ent", "emp", "miss")
MIN_VERB_STEM: Final = 4  # a shorter stem may be a verb's and its noun's („zahlen" / „Zahlung", „dauern" / „Dauer")
MIN_PART: Final = 3
# the closing capital of a law's short name: the kind of act (ProdHaftG, MPBetreibV, StVO)
ACT_KINDS: Final = {"g": "gesetz", "v": "verordnung", "o": "ordnung"}
_LINKING: Final = ("s", "es", "n", "en")  # between a modifier and its head: „Amt|s|zeit", „Frau|en|frage"
# what the employer provides, each modifier names alike („Firmenwagen" / „Dienstwagen", „Geschäftsreise" /
# „Dienstreise", „Firmenjubiläum" / „Dienstjubiläum"): the modifier's lemma, and its form inside a compound
EMPLOYER_MODIFIERS: Final = {
    "firma": "firmen", "dienst": "dienst", "betrieb": "betriebs", "geschaft": "geschafts", "unternehmen": "unternehmens"
}  # fmt: skip
VALUE_UNITS: Final = frozenset({"euro", "percent", "people", "share"})  # units whose word names no matter of their own


@dataclass(frozen=True)
class QuestionWord:
    """One content word of the question: its terms (lemma first, compound parts after) and its role."""

    word: str
    terms: tuple[str, ...]
    key: bool
    number: bool
    asked: bool = False  # it names the kind of value asked („wie viele Jahre"), not what the question is about
    by_class: bool = True  # its class may say it („Grippe" ← „Erkrankung"); not where the KB names it (``named_by_kb``)

    @property
    def weight(self) -> float:
        return KEY_WEIGHT if self.key else OTHER_WEIGHT


@dataclass(frozen=True)
class RowPlace:
    """Where a table row stands: its table (where the table starts in the block) and the caption it reads after."""

    table: int
    caption: str  # „Für Dienstreisen zahlt die Firma Verpflegungspauschalen nach Abwesenheitsdauer", or ""

    def unit(self, statement: str) -> str:
        """The row as a sentence: „<caption> (Abwesenheit: 24 Stunden; Pauschale: 28 €)." or, without a caption,
        „Abwesenheit: 24 Stunden; Pauschale: 28 €."."""
        statement = statement.rstrip(" .")  # a cell's own period („1 Monat.") ends no sentence inside the unit
        return f"{self.caption} ({statement})." if self.caption else f"{statement}."

    def statement(self, unit: str) -> str:
        """The row's own words in its ``unit``, as a sentence („Abwesenheit: 24 Stunden; Pauschale: 28 €.")."""
        return f"{unit[len(self.caption) + 2 : -2]}." if self.caption else unit


@dataclass(frozen=True)
class Candidate:
    """A whole KB sentence (or a list item joined to its lead-in) from one retrieved block."""

    hit: Hit
    text: str
    position: int
    terms: frozenset[str]
    lemmas: frozenset[str]
    header_terms: frozenset[str]
    short_names: tuple[tuple[str, ...], ...] = ()  # the word beginnings of the law short names in its header
    paragraph_terms: frozenset[str] = field(default_factory=frozenset)  # the terms of its paragraph's sentences
    paragraph: int = 0  # which paragraph of its block it stands in
    row: RowPlace | None = None  # a table row: which table of its block, and the caption it reads after
    absatz: str | None = None  # the number of the statute paragraph it stands in („2" under „(2) …"), where known
    item: str | None = None  # the number of the numbered list item it reads („1" for „1. entgegen § 7 …")
    referred_terms: frozenset[str] = field(default_factory=frozenset)  # the terms of its ``referred`` sentences
    case_terms: frozenset[str] = field(default_factory=frozenset)  # … and of its ``applied_cases``
    negated_terms: frozenset[str] = field(default_factory=frozenset)  # said only as absent („ohne Kantine")
    bound_terms: frozenset[str] = field(default_factory=frozenset)  # said only as a bound („nach der Probezeit")
    framed_terms: frozenset[str] = field(default_factory=frozenset)  # … or as the time of a case („in der Probezeit")
    named_laws: frozenset[str] = field(default_factory=frozenset)  # question words that name its law in full
    header_lemmas: frozenset[str] | None = None  # the header's words of their own (None: read its terms as such)
    # key words it covers in form only: another law of the hits, or what a „Welche …?" asks named by a provision
    unsaid: frozenset[str] = field(default_factory=frozenset)
    lexical: float = 0.0
    key_coverage: float = 0.0
    dense: float | None = None
    cosine: float | None = None
    score: float = 0.0
    covered_keys: frozenset[str] = field(default_factory=frozenset)
    said_keys: frozenset[str] = field(default_factory=frozenset)  # key words (no numbers) its own text covers
    said_words: frozenset[str] = field(default_factory=frozenset)  # content words (no numbers) it covers
    gives_type: bool | None = None  # None: the question asks for no particular kind of value

    @property
    def content_score(self) -> float:
        """The score without the answer-type bonus: how well the sentence matches the question's content."""
        return self.score - TYPE_WEIGHT * bool(self.gives_type)


def _closed_by_copula(text: str, found: Sequence[regex.Match[str]], position: int) -> bool:
    """The word is the last before a copula that ends its clause („wenn ich krank bin", „falls sie schwanger ist")."""
    if found[position].group(0).casefold() in _ADVERBS:
        return False
    if position + 1 >= len(found) or found[position + 1].group(0).casefold() not in _COPULAS:
        return False
    ends = found[position + 1].end()
    following = found[position + 2].start() if position + 2 < len(found) else len(text)
    return position + 2 >= len(found) or bool(_CLAUSE_END.search(text, ends, following))


def _idiom_verb(found: Sequence[regex.Match[str]], position: int, verbs: frozenset[str]) -> bool:
    """The noun's verb of the idiom follows it („Bescheid sagen", „Bescheid geben")."""
    after = found[position + 1].group(0) if position + 1 < len(found) else ""
    return after[:1].islower() and verb_lemma(after.casefold()) in verbs


def question_words(question: str, *, with_units: bool = False) -> list[QuestionWord]:
    """The question's content words; stopwords, question openers and (unless ``with_units``) the units of its
    values are left out — with a value written in words („fünf Jahre"); a value in digits stays key content. So is
    the noun of a majority question („Welche Mehrheit …"): the answer gives its measure („zwei Dritteln"). Key
    content: the nouns and numbers, and the verb of a condition clause („wenn ich kündige"), the case asked about."""
    words: list[QuestionWord] = []
    previous = before_previous = ""
    text = PLACEHOLDER.sub(" ", question)
    asked_nouns = MAJORITY_TERMS if expected_answer_type(question) == "majority" else frozenset()
    units = [] if with_units else _unit_spans(text)
    found = list(_WORD.finditer(text))
    condition = False
    at_home_words: list[int] = []
    for position, match in enumerate(found):
        word, after_wie = match.group(0), previous == "wie"
        if position and _CLAUSE_END.search(text, found[position - 1].end(), match.start()):
            condition = False
        condition = condition or word.casefold() in _CONDITIONS
        asked = before_previous == "wie" and previous in _HOW_MANY
        before_previous, previous = previous, word.casefold()
        terms = tuple(analyze(word))
        opens = position == 0 or bool(_SENTENCE_END.search(text, found[position - 1].end(), match.start()))
        if (
            not terms
            or word.casefold() in FILLER_WORDS | FUNCTION_WORDS
            or (opens and word.casefold() in QUESTION_OPENERS)
        ):
            continue
        if word.casefold() in RELATIVE_TIMES and _names_time_unit(found, position + 1):
            continue  # „nächsten" of „ab dem nächsten Monat": when the asker's case happens (see the unit below)
        if not word[0].isdigit() and any(start <= match.start() < end for start, end in units):
            continue
        if (after_wie and word.casefold() in QUESTION_COMPLEMENTS) or terms[0] in asked_nouns:
            continue
        number = word[0].isdigit()
        # a sentence that opens with a verb and its subject („Hafte ich, wenn …", „Stimmt es, dass …"): no noun
        verb_first = opens and _verb_before_subject(text, found, position)
        # … or with an adjective before its noun („Wettbewerbsrechtliche Unterlassungsansprüche verjähren …")
        attribute = opens and _attribute_before_noun(text, found, position)
        # a month („wenn ich im Oktober kündige"), a season or a time from now („ab dem nächsten Monat") is when the
        # asker's case happens, not what the question is about
        relative_time = terms[0] in TIME_UNITS and before_previous in RELATIVE_TIMES
        at_home = word.casefold() == "hause" and before_previous in _AT_HOME
        key = (
            (number or word[0].isupper() or word.isupper())
            and terms[0] not in GENERIC_TERMS
            and word.casefold() not in MONTHS
            and word.casefold() not in SEASONS
            and not relative_time
            and not at_home
            and not verb_first
            and not attribute
        )
        if word.casefold() in QUESTION_OPENERS and not number:
            key = False
        elif condition and word[0].islower():
            verb = verb_lemma(word)
            key = (verb is not None and verb not in LIGHT_VERBS) or (
                verb is None and _closed_by_copula(text, found, position)
            )
        elif terms[0] in _IDIOM_NOUNS:
            key = key and not _idiom_verb(found, position, _IDIOM_NOUNS[terms[0]])
        words.append(QuestionWord(word, terms, key, number, asked))
        if at_home:
            at_home_words.append(len(words) - 1)
    if not any(w.key for w in words):
        for index in at_home_words:
            words[index] = replace(words[index], key=True)
    return list({w.terms[0]: w for w in words}.values())


def _names_time_unit(found: Sequence[regex.Match[str]], position: int) -> bool:
    terms = analyze(found[position].group(0)) if position < len(found) else []
    return bool(terms) and terms[0] in TIME_UNITS


def _verb_before_subject(text: str, found: Sequence[regex.Match[str]], position: int) -> bool:
    """The word at ``position`` stands right before a subject pronoun or a subject's article (no comma between)."""
    if position + 1 >= len(found) or text[found[position].end() : found[position + 1].start()].strip():
        return False
    after = found[position + 1].group(0)
    return after in _SUBJECTS or after.casefold() in _SUBJECT_ARTICLES and after[0].islower()


def _attribute_before_noun(text: str, found: Sequence[regex.Match[str]], position: int) -> bool:
    """The word at ``position`` has an adjective's ending and stands right before a capitalised word: mid-sentence
    only nouns are capitalised, so at the start of a sentence only its form tells an adjective."""
    if position + 1 >= len(found) or text[found[position].end() : found[position + 1].start()].strip():
        return False
    return bool(_ADJECTIVE.search(found[position].group(0))) and found[position + 1].group(0)[0].isupper()


def _unit_spans(text: str) -> list[tuple[int, int]]:
    """Where the question's values stand whose unit only says what kind of value they are („nach einem Jahr",
    „60 Tage", „50 Euro", „ab 50 Mitarbeitern"): the KB may state the value in another unit („in sechs Monaten",
    „20 Personen"), so the unit is no content word — a sentence saying „Jahren" is no closer to the question."""
    spans = []
    for quantity in quantities(text):
        start = text.find(quantity.text)
        if start >= 0 and _unit_only(quantity):
            spans.append((start, start + len(quantity.text)))
    return spans


def asks_a_unit(word: QuestionWord) -> bool:
    """The word names the kind of value asked and nothing but its unit („wie viele Tage", „wie viel Euro"), no matter
    of its own („wie viel Zuschuss", „wie viele Urlaubstage")."""
    return word.asked and any(_unit_only(q) for q in quantities(f"2 {word.word}"))  # read as a value of that unit


def _unit_only(quantity: Quantity) -> bool:
    """A plain length of time, an amount of money, a percentage or a head count; „30 Urlaubstage" counts a thing."""
    return quantity.unit in VALUE_UNITS or (bool(quantity.written_in) and quantity.noun == quantity.written_in)


def points_back(question: str) -> bool:
    """The question points back to a matter it does not name („Welche Mehrheit braucht der Bundestag dafür?"):
    a pronominal adverb in a question of one clause. After a comma, „und" or „oder", a sentence of its own, or in a
    later part („… und wie alt muss man dafür sein?", „… fortgezahlt und gibt es danach …?", „Was bekomme ich dafür,
    wenn …?", „Ich nehme Elternzeit. Was muss ich dabei beachten?") it points to what the question itself says."""
    if "," in question or len(_PART_BREAK.split(question.strip().rstrip("?"))) > 1:
        return False
    pointer = _POINTER.search(question)
    return pointer is not None and not _CLAUSE_JOIN.search(question, 0, pointer.start())


def question_parts(question: str) -> list[tuple[str, list[QuestionWord]]]:
    """The parts of a multi-part question („Wie lange … und wie alt …?") with their content words; a part
    without key words of its own („und wann erlöschen sie?") borrows the key words of the parts before it, as
    words of less weight. A question of one part gives one."""
    texts = [t.strip(" ,?") for t in _PART_BREAK.split(question) if len(t.strip(" ,?").split()) >= 2]
    if len(texts) < 2:
        return [(question, question_words(question))]
    parts: list[tuple[str, list[QuestionWord]]] = []
    earlier: list[QuestionWord] = []
    for text in texts:
        words = question_words(text)
        if not any(w.key for w in words):  # borrowed key words name the topic; they weigh less than the part's own
            borrowed = [replace(w, key=False) for w in earlier]
            words = list({w.terms[0]: w for w in [*words, *borrowed]}.values())
        earlier += [w for w in words if w.key and not w.asked]  # „Jahren" of „Ab wie vielen Jahren" is no topic
        parts.append((f"{text}?", words))
    return parts


def coverage(word: QuestionWord, available: frozenset[str], lemmas: frozenset[str] | None = None) -> float:
    """How well ``available`` terms cover the word: 1 for its lemma (as a word of its own when ``lemmas`` are
    given), 0.85 for a modifier and a head that together make it (``Urlaubstage`` ← ``Arbeitstage … Urlaub``),
    0.85 for a synonym of it or of its modifiers (``Gehalt`` ← ``Entgelt``; ``zweimal`` ← ``mehrmals``), 0.6 for the
    lemma inside a longer compound, a word of the same stem (``wiedergewählt`` ← ``Wiederwahl``) or of a synonym's
    stem, or the class the word belongs to (``Grippe`` ← „erkrankt"), 0.5 for the head alone. A general head
    (``Reisekostenregeln``; ``Amtszeit``, too short for the analyzer to split) needs only its modifier — as a word of
    its own where ``lemmas`` tell —, and alone it covers nothing."""
    lemma, *parts = word.terms
    if lemma in available:
        return 1.0 if lemmas is None or lemma in lemmas else FOUND_IN_COMPOUND
    if word.word[:1].islower() and not _adjective_forms(lemma).isdisjoint(lemmas if lemmas is not None else available):
        return 1.0
    if parts and all(p in available for p in parts):
        return COMPOSED
    # a general head needs its modifier said as a word („Kilometer" for „Kilometergeld"): inside another compound
    # it names another thing („Krankenkasse" is no „Krankengeld")
    said = available if lemmas is None else lemmas
    if parts and parts[-1] in GENERIC_TERMS | SUFFIX_HEADS and all(p in said for p in parts[:-1]):
        return COMPOSED
    if not parts and not _general_head_modifiers(lemma).isdisjoint(said):
        return COMPOSED
    if any(repeats(q) for q in quantities(word.word)) and any(says_repeatedly(t) for t in available):
        return SYNONYM
    if word.number:
        return 0.0
    prefix = lemma[:MIN_VERB_STEM]
    negated = lemma.startswith(NEGATION)
    stem = (
        SAME_STEM
        if any(_same_stem(lemma, t) for t in available if t.startswith(prefix) or negated or t.startswith(NEGATION))
        or _ablaut_noun(lemma) in available
        or any(_ablaut_noun(t) == lemma for t in available)
        or not _back_nouns(lemma).isdisjoint(available)
        or any(lemma in _back_nouns(t) for t in available)
        or any(_adjective_and_derived(lemma, t) or _adjective_and_derived(t, lemma) for t in available)
        else 0.0
    )
    # … each part as it is or in a form of its stem, as the word in a form of its stem: „Werbeanrufe" ← „Werbung mit
    # einem Telefonanruf"
    if parts and all(p in available or any(_same_stem(p, t) for t in available) for p in parts):
        stem = SAME_STEM
    otherwise = _said_otherwise(lemma, parts, available, said)
    if otherwise:
        stem = max(stem, otherwise)
    elif not stem and _synonym_derived(lemma, available):
        stem = SAME_STEM
    elif not stem and word.by_class and _broader_said(lemma, said):
        stem = BROADER
    if len(lemma) < MIN_COMPOUND:
        return stem
    # a general head alone („Regelungen" for „Kleinunternehmerregelung", „Geld" for „Krankengeld") says nothing of it
    heads = [t for t in available if len(t) >= MIN_PART and lemma.endswith(t) and t not in GENERIC_TERMS | SUFFIX_HEADS]
    if not heads:
        return stem
    modifiers = [t for t in available if len(t) >= MIN_PART and lemma.startswith(t) and t != lemma]
    return max(
        stem, COMPOSED if any(len(m) + len(h) >= len(lemma) - 1 for m in modifiers for h in heads) else HEAD_ONLY
    )


def _adjective_forms(lemma: str) -> frozenset[str]:
    """The other lemma the analyzer gives the same adjective: ``unbezahlt`` / ``unbezahlte``."""
    if not _ADJECTIVE_LEMMA.search(lemma) or len(lemma) < MIN_COMPOUND:
        return frozenset()
    return frozenset({lemma.removesuffix("e") if lemma.endswith("e") else f"{lemma}e"})


def _general_head_modifiers(lemma: str) -> frozenset[str]:
    """The modifier of a compound too short for the analyzer to split, with a general head: „amt" of „amtszeit"
    (``Amtszeit`` ← „Das Amt … dauert fünf Jahre"), as a split one („Arbeitszeit") needs only its modifier."""
    heads = [t for t in GENERIC_TERMS if lemma.endswith(t) and len(lemma) - len(t) >= MIN_PART]
    modifiers = [lemma[: -len(h)] for h in heads]
    return frozenset(
        form
        for modifier in modifiers
        for form in (modifier, *(modifier.removesuffix(j) for j in _LINKING if modifier.endswith(j)))
        if len(form) >= MIN_PART
    )


def _said_otherwise(lemma: str, parts: Sequence[str], available: frozenset[str], said: frozenset[str]) -> float:
    """How well the word is said in other words: ``SYNONYM`` for a synonym said as a word (``Gehalt`` ← ``Entgelt``),
    or of a compound's modifiers with its head said as it is (``Lohnfortzahlung`` ← ``Entgeltfortzahlung``); a head
    in other words is another thing more often than not (``Nichteinstellung`` is no ``Unterbrechung``, though
    ``Einstellung`` can mean one). A synonym inside a longer compound says the word as little as the word itself
    would there (``Zeugnis`` ← „Anerkennungsbescheinigung"): ``FOUND_IN_COMPOUND``."""
    if lemma in GENERIC_TERMS:  # „Zeit" said otherwise is anything from „Dauer" to „Epoche"
        return 0.0
    found = synonyms(lemma)
    if not found.isdisjoint(said) or _employer_compound(parts, said):
        return SYNONYM
    if not found.isdisjoint(available):
        return FOUND_IN_COMPOUND
    if not parts or parts[-1] not in available:
        return 0.0
    # a general modifier must be said itself too
    modifiers = all(p in available or (p not in GENERIC_TERMS and not synonyms(p).isdisjoint(available)) for p in parts)
    return SYNONYM if modifiers else 0.0


def _employer_compound(parts: Sequence[str], said: frozenset[str]) -> bool:
    """The compound said with another employer modifier and its head or a synonym of it: ``Firmenauto`` ←
    „Dienstwagen". With its own modifier, a head in other words is another thing („Dienstfahrt" is no
    „Dienstreise": the one is paid by the kilometre, the other by the day)."""
    if len(parts) != 2 or parts[0] not in EMPLOYER_MODIFIERS or parts[1] in GENERIC_TERMS:
        return False
    heads = {parts[1], *synonyms(parts[1])}
    forms = [form for modifier, form in EMPLOYER_MODIFIERS.items() if modifier != parts[0]]
    return any(f"{form}{head}" in said for form in forms for head in heads)


def _synonym_derived(lemma: str, available: frozenset[str]) -> bool:
    """A synonym of the word said in a form of its stem (``Konkurrenz`` ← ``Wettbewerber``, the person of
    ``Wettbewerb``)."""
    if lemma in GENERIC_TERMS:
        return False
    return any(
        _same_stem(synonym, term)
        for synonym in synonyms(lemma)
        for term in available
        if term.startswith(synonym[:MIN_VERB_STEM])
    )


def named_by_kb(words: Sequence[QuestionWord], found: Sequence[Candidate]) -> list[QuestionWord]:
    """The words, those a retrieved sentence or its block's header names itself no longer said by their class: where
    the KB speaks of the „Weihnachtsgeld", its sentences on „Entgelt" are not about it (nor is any „Gesetz" the
    „AGG")."""
    named = frozenset(t for c in found for t in c.terms | c.header_terms)
    return [replace(w, by_class=False) if w.terms[0] in named else w for w in words]


def _broader_said(lemma: str, said: frozenset[str]) -> bool:
    """The class the word belongs to is said, or a form of its stem (``Grippe`` ← „erkrankt", of ``Erkrankung``): a
    rule for the class holds for the asker's case."""
    if lemma in GENERIC_TERMS | TIME_UNITS:  # „Jahr" is a „Zeitpunkt", „Monat" a „Zeitraum": no matter of its own
        return False
    return any(
        term in said or any(_same_stem(term, t) for t in said if t.startswith(term[:MIN_VERB_STEM]))
        for term in broader(lemma)
        if not lemma.endswith(term)  # its own head („Ausschuss" of „Untersuchungsausschuss") says half of it
    )


def _same_stem(lemma: str, term: str) -> bool:
    """Verb and noun of one stem: ``wiederwählen`` / ``Wiederwahl``, ``verjähren`` / ``Verjährung``; they differ
    in their endings only (``Weiterbildungsbudget`` is no ``Weiterbildung``); a shorter verb only with its noun
    (``zahlen`` / ``Zahlung``, ``arbeiten`` / ``Arbeit``)."""
    if lemma == term:
        return False
    if _verb_and_noun(lemma, term) or _verb_and_noun(term, lemma):
        return True
    if _negated_participle(lemma, term) or _negated_participle(term, lemma):
        return True
    if len(lemma) < MIN_STEM or len(term) < MIN_STEM:
        return False
    shared = len(os.path.commonprefix([lemma, term]))
    return shared >= MIN_STEM and max(len(lemma), len(term)) - shared <= MAX_ENDING


def _ablaut_noun(verb: str) -> str | None:
    """The noun of a strong verb with a prefix: ``umziehen`` → ``umzug``, ``teilnehmen`` → ``teilnahme``; None for
    any other word (alone, „gehen" is no „Gang")."""
    for infinitive, noun in _ABLAUT_NOUNS.items():
        if verb.endswith(infinitive) and len(verb) > len(infinitive):
            return f"{verb[: -len(infinitive)]}{noun}"
    return None


def _back_nouns(verb: str) -> frozenset[str]:
    """The nouns of a „zurück-" verb, which name the deed with „Rück-": ``zurücktreten`` → ``Rücktritt``,
    ``zurückgeben`` → ``Rückgabe``, ``zurückzahlen`` → ``Rückzahlung``; empty for any other word."""
    if not verb.startswith(BACK) or len(verb) - len(BACK) < MIN_VERB_STEM:
        return frozenset()
    deed = f"{BACK_NOUN}{verb.removeprefix(BACK)}"
    stem = deed.removesuffix("en") if deed.endswith("en") else deed.removesuffix("n")
    return frozenset(n for n in (_ablaut_noun(deed), stem, f"{stem}ung") if n is not None and n != deed)


def _negated_participle(verb: str, word: str) -> bool:
    """The word is the verb's participle negated with „un-", which the analyzer leaves as it is: ``ungekündigt`` /
    ``kündigen``, ``ungeachtet`` / ``achten``, ``unbezahlten`` / ``bezahlen`` (an unstressed prefix takes no „ge-")."""
    stem = verb.removesuffix("en") if verb.endswith("en") else verb.removesuffix("n")
    if stem == verb or len(stem) < MIN_VERB_STEM or not word.startswith(NEGATION):
        return False
    base = stem if stem.startswith(_UNSTRESSED) else f"ge{stem}"
    return bool(regex.fullmatch(rf"{NEGATION}{regex.escape(base)}e?t(?:e[mnrs]?)?", word))


def _adjective_and_derived(adjective: str, term: str) -> bool:
    """A noun or verb made from the adjective: ``krank`` / ``Krankheit``, ``erkranken``, ``Erkrankung``;
    ``arbeitslos`` / ``Arbeitslosigkeit``."""
    if len(adjective) < MIN_VERB_STEM + 1:  # „tot" / „Tod" are no derivation of each other
        return False
    return term in {f"{adjective}{suffix}" for suffix in _ADJECTIVE_NOUNS} | {
        f"er{adjective}{ending}" for ending in _ADJECTIVE_VERBS
    }


def _verb_and_noun(verb: str, noun: str) -> bool:
    """The noun is the verb's stem, alone or with „-ung" (the analyzer gives verbs as infinitives)."""
    for ending in ("en", "n"):
        stem = verb.removesuffix(ending)
        if stem != verb and len(stem) >= MIN_VERB_STEM and noun in (stem, f"{stem}ung"):
            return True
    return False


def candidates(hits: Sequence[Hit]) -> list[Candidate]:
    """Every whole sentence of the blocks; list items read with their lead-in, fragments and titles dropped."""
    found: list[Candidate] = []
    for hit in hits:
        header_text = f"{hit.title} {hit.section} {hit.entry_id} {hit.work}"
        header, header_lemmas = frozenset(analyze(header_text)), _lemmas(header_text)
        names = short_names(f"{hit.entry_id} {hit.title}")
        earlier: list[str | None] = []  # the block's units so far; None where one is no whole sentence
        paragraphs: list[list[Candidate]] = [[]]
        numbers, items = _paragraph_numbers(hit.text), _item_numbers(hit.text)
        for index, body, opens, row in _readable_units(hit.text):
            if opens:
                paragraphs.append([])
            if not _WHOLE.match(body) or (len(body.split()) < MIN_WORDS and not _KEY_VALUE.match(body)):
                earlier.append(None)
                continue
            meant = _pointed_to(body, earlier) if row is None else None  # a row reads after its caption
            earlier.append(body)
            if meant is not None:
                body = f"{meant} {body}"
            lemmas = _lemmas(body)
            paragraphs[-1].append(
                Candidate(
                    hit,
                    body,
                    index,
                    _terms(body),
                    lemmas,
                    header,
                    names,
                    absatz=numbers[index],
                    item=items[index],
                    row=row,
                    negated_terms=negated_terms(body),
                    bound_terms=_named_only(_BOUND, body),
                    framed_terms=_named_only(_DURING, body),
                    header_lemmas=header_lemmas,
                )
            )
        for number, paragraph in enumerate(paragraphs):
            terms = frozenset().union(*(c.terms for c in paragraph))
            found += [replace(c, paragraph_terms=terms, paragraph=number) for c in paragraph]
    blocks = by_block(found)
    return [
        replace(
            c,
            referred_terms=frozenset().union(*(r.terms for r in referred(c, blocks))),
            case_terms=frozenset().union(*(r.terms for r in applied_cases(c, blocks))),
        )
        for c in found
    ]


def by_block(found: Sequence[Candidate]) -> dict[str, list[Candidate]]:
    """The candidates of each block, in their order."""
    blocks: dict[str, list[Candidate]] = {}
    for candidate in found:
        blocks.setdefault(candidate.hit.entry_id, []).append(candidate)
    return blocks


def referred(candidate: Candidate, blocks: Mapping[str, Sequence[Candidate]]) -> list[Candidate]:
    """The sentences of the retrieved provisions the candidate names a noun by („Die Ansprüche aus den §§ 8, 9 …",
    „wegen eines in § 1 genannten Grundes") that say that noun: what the noun stands for, in the provision's own
    words („Der Anspruch auf Unterlassung besteht …"; AGG §1's list of the Gründe)."""
    found: list[Candidate] = []
    for noun, provisions in named_by_reference(candidate.text) + qualified_by_reference(candidate.text):
        lemma = analyze(noun)[:1]
        for ref in referenced_ids(provisions, candidate.hit.entry_id, blocks) if lemma else []:
            found += [c for c in blocks[ref] if lemma[0] in c.terms and c not in found]
    return found


def applied_cases(candidate: Candidate, blocks: Mapping[str, Sequence[Candidate]]) -> list[Candidate]:
    """The sentences of its own provision whose cases the candidate applies to by their paragraph or item: „Die
    Ordnungswidrigkeit kann in den Fällen des Absatzes 1 Nummer 1 mit einer Geldbuße bis zu dreihunderttausend Euro
    … geahndet werden" → Absatz 1 Nummer 1, „Ordnungswidrig handelt, wer … mit einem Telefonanruf … wirbt"."""
    found: list[Candidate] = []
    for absatz, items in cases_by_paragraph(candidate.text):
        found += [
            c
            for c in blocks[candidate.hit.entry_id]
            if c.absatz == absatz and (not items or c.item in items) and c != candidate and c not in found
        ]
    return found


def _pointed_to(body: str, earlier: Sequence[str | None]) -> str | None:
    """The sentence a sentence that opens by pointing back reads with: the nearest one before that names the noun
    it points with, else the one right before; none that is too long to show along."""
    if not _points_back(body) or not earlier:
        return None
    meant = earlier[-1]
    # a run of sentences that open alike („Das kann der Fall sein, wenn … Das kann der Fall sein, wenn …") all
    # point to what the first of them points to
    if meant is not None and meant.split()[0] == body.split()[0] and _points_back(meant):
        return _pointed_to(meant, earlier[:-1])
    noun = _POINTED_NOUN.match(body)
    lemma = analyze(noun.group(1))[:1] if noun is not None else []
    # „In diesem Fall", „In diesem Jahr" mean the condition or time right before, not a sentence that says „Fall"
    if lemma and lemma[0] not in GENERIC_TERMS | TIME_UNITS:
        named = [s for s in reversed(earlier[-MAX_POINTER_REACH:]) if s and lemma[0] in _lemmas(s)]
        meant = named[0] if named else meant
    return meant if meant is not None and len(meant.split()) <= MAX_CONTEXT_WORDS else None


def _points_back(sentence: str) -> bool:
    return bool(_POINTS_BACK.match(sentence)) and not _ADDRESSES_READER.match(sentence)


def _lemmas(text: str) -> frozenset[str]:
    """The lemma of each word (no compound parts): what the text says in words of their own."""
    return frozenset(t for w in _WORD.findall(text) for t in analyze(w)[:1])


def _paragraph_numbers(text: str) -> list[str | None]:
    """For each sentence, the number of the statute paragraph it stands in (None before the first „(1)")."""
    numbers: list[str | None] = []
    current: str | None = None
    for sentence in split_sentences(text):
        current = sentence.paragraph_number or current
        numbers.append(current)
    return numbers


def _item_numbers(text: str) -> list[str | None]:
    """For each sentence, the number of the numbered list item it is or stands in (a lettered item of a numbered
    one: „3." + „a) …" → „3"); None outside such a list."""
    numbers: list[str | None] = []
    current: str | None = None
    for sentence in split_sentences(text):
        if sentence.item_number is not None:
            current = sentence.item_number
        elif sentence.list_kind is None or sentence.list_kind == "-":
            current = None
        numbers.append(current)
    return numbers


def _terms(sentence: str) -> frozenset[str]:
    """The sentence's terms; a number only where it is a value: „21" in „§§ 15 bis 17 und 21a" names a provision,
    and covers no „mindestens 21" of a question."""
    words = frozenset(t for t in analyze(sentence) if not t[0].isdigit())
    return words | frozenset(t for t in analyze(without_references(sentence)) if t[0].isdigit())


def negated_terms(text: str) -> frozenset[str]:
    """The terms of the nouns the text names only as absent („Beschäftigte an Standorten ohne Kantine"): a sentence
    on the case without them says nothing of the case with them."""
    return _named_only(_NEGATED, text)


def periods_during(question: str) -> frozenset[str]:
    """The terms of the periods a question names as the time of its case („Wie ist die Kündigungsfrist in der
    Probezeit?")."""
    return frozenset(t for match in _DURING.finditer(question) for t in analyze(match.group(1)))


def _named_only(phrase: regex.Pattern[str], text: str) -> frozenset[str]:
    """The terms of the nouns the text names only within ``phrase``, nowhere else."""
    nouns = (next(g for g in match.groups() if g) for match in phrase.finditer(text))
    found = frozenset(t for noun in nouns for t in analyze(noun))
    return found - frozenset(analyze(phrase.sub(" ", text))) if found else found


def _readable_units(text: str) -> Iterator[tuple[int, str, bool, RowPlace | None]]:
    """The block's sentences as a reader takes them: a list item with its lead-in („… ist nur zulässig, soweit
    sie" + „1. zur Aufgabenerfüllung öffentlicher Stellen,") and, where the sentence goes on after the list
    („erforderlich ist und …", „gilt der Schutz …"), with those closing words; a lead-in is no unit of its own.
    A table row reads under its column headings, after the table's caption (``RowPlace.unit``). Each unit comes with its
    sentence index, whether it opens a paragraph and, for a row, its place."""
    lead_in: str | None = None
    opening = False  # the lead-in opens a sentence the items go on, unlike a heading
    # the list's items with their lead-in, waiting for words that may close their sentence
    items: list[tuple[int, str, str, bool]] = []
    resumed: str | None = None  # the lead-in of an item that ended with a period, for the item's next sentence
    levels: list[tuple[str | None, str]] = []  # the open lists, outermost first: their item kind and lead-in
    parent = ""  # the last item, which opens a nested list if the next item is of another kind
    listed = False  # the lead-in is an item itself
    lead_item: Sentence | None = None  # … that item
    end = 0
    sentences = split_sentences(text)
    inside = goes_on_item(text, sentences)
    found_tables = tables(text)
    for sentence in sentences:
        opens = "\n\n" in text[end : sentence.start] or sentence.opens_paragraph
        end = sentence.end
        table = next((t for t in found_tables if t.start <= sentence.start < t.end), None)
        if table is not None:  # a row is read under its column headings; the heading row is no unit
            yield from _item_units(items)
            items, lead_in, resumed = [], None, None
            row = table.row_at(sentence.start)
            if row is not None:
                place = RowPlace(table.start, _caption(table_caption(text, sentences, table)))
                yield sentence.index, place.unit(row_statement(table.headings, row.cells)), opens, place
            continue
        body = _plain(sentence.body)
        if body.startswith(_REPEALED):  # a repealed item: the lead-in opens the items after it
            continue
        # a further sentence of an item is read on its own; where it ends as an item does („5. … (Lockangebote). Ist
        # die Bevorratung kürzer …, nachzuweisen;") the list goes on, and its lead-in with it
        if resumed and inside[sentence.index] and body[:1].isupper() and not body.endswith(":"):
            yield from _item_units(items)
            items = []
            if closes_sentence(body):
                yield sentence.index, body, opens, None
            else:
                lead_in, opening = resumed, True
                yield sentence.index, f"{body.rstrip(' ,;')}.", opens, None
            continue
        resumed = None
        # an item beside the item whose words a nested list went on („- Für Vollzeitkräfte gilt" + „  - Nachtarbeit: 25
        # Prozent" + „- Teilzeitkräfte …"): the nested list has ended, and this item is none of it
        sibling = lead_item is not None and _bare(lead_item) and _siblings(text, lead_item, sentence)
        if sibling and lead_item is not None and lead_in == _plain(lead_item.body):
            yield from _item_units(items)
            items, lead_in, levels, lead_item = [], None, [], None
        # an item of the list; one that starts with a noun („Fahrzeugen und …") ends without a period and follows
        # a lead-in that opens a sentence („Bei der Videoüberwachung von"), not a heading („Allgemeine Vorschriften")
        # an item that ends with a period ends the lead-in's sentence („28. Wirtschaftsakteur der Hersteller, …
        # unterliegt."), unless items of whole sentences follow a line of their own („… gilt:", a table's bullet)
        sentences_follow = lead_in is not None and (lead_in.endswith(":") or listed)
        item = sentence.is_list_item and lead_in is not None and opening
        item = item and not (closes_sentence(body) and sentences_follow)
        if lead_in is not None and (item or body[:1].islower()):
            if sentence.is_item:
                nests = bool(items) and items[-1][0] == sentence.index - 1 and not closes_sentence(parent)
                depth = list_depth([k for k, _ in levels], sentence.list_kind, nests=nests)
                if depth is None:
                    levels = [(sentence.list_kind, lead_in)]
                elif depth == len(levels) or depth < len(levels) - 1:
                    # words that close a sentence after a nested list close only its items („3. wenn unwahre
                    # Angaben" + „a) über …" + „gemacht werden."), so the items before are whole without them
                    opener = items.pop() if depth == len(levels) else None
                    yield from _item_units(items)
                    items = []
                    if opener is not None:
                        # the item before opens a nested list („15. Hersteller … als Hersteller gilt auch jeder,
                        # der" + „a) geschäftsmäßig …"): it is no unit of its own, but the lead-in of its items
                        lead_in = f"{lead_in} {parent}"
                        levels.append((sentence.list_kind, lead_in))
                    else:  # an item of an outer list closes the lists nested in the item before
                        del levels[depth + 1 :]
                        lead_in = levels[-1][1]
                parent = body
                items.append((sentence.index, lead_in, body, opens))
                if closes_sentence(body):  # its further sentences are its own; the list may go on after them
                    resumed = lead_in
                continue
            if items and body.endswith((".", "!", "?")):  # the sentence ends after its list
                yield from _item_units(items, closing=body)
                items, lead_in = [], None
                continue
            yield from _item_units(items)
            items = []
            yield sentence.index, f"{_continued(lead_in, body)}.", opens, None
            continue
        yield from _item_units(items)
        items = []
        if sentence.is_list_item and lead_in is not None and opening:
            resumed = lead_in
        following = sentences[sentence.index + 1].body if sentence.index + 1 < len(sentences) else ""
        # „Probezeit: 6 Monate" in a list of key facts; „- Urlaub wird im Portal beantragt" in a list of sentences
        # written without periods, under a heading
        untitled = lead_in is None or not opening
        if _states_a_value(body, following) or (untitled and _item_without_period(text, sentences, sentence)):
            lead_in = None
            yield sentence.index, f"{body}.", opens, None
            continue
        if body.endswith(":") or not closes_sentence(body):
            lead_in, levels, listed = body, [], sentence.is_list_item  # "… in Bezug auf:" opens the items that follow
            lead_item = sentence if sentence.is_list_item else None
            # a numbered paragraph is no heading: „(1) Wer eine der Berufsbezeichnungen" + „1. „Masseurin …""
            opening = _opens_sentence(body) or sentence.opens_paragraph
            continue
        lead_in = None
        yield sentence.index, body, opens, None
    yield from _item_units(items)


def _states_a_value(body: str, following: str) -> bool:
    """A line that gives a value under a short label without a sentence of its own („Probezeit: 6 Monate", „Kontakt:
    Personalabteilung, Raum 101"), unless the next line goes on its words („Voraussetzung ist:" …, „Sie müssen" +
    „volljährig sein")."""
    label = _KEY_VALUE.match(body)
    if label is None or len(label.group(1).split()) > MAX_LABEL_WORDS or closes_sentence(body):
        return False
    if body.endswith((":", ",", ";")):
        return False
    return not following[:1].islower()


def _item_without_period(text: str, sentences: Sequence[Sentence], item: Sentence) -> bool:
    """An item of a list of sentences written without periods: it opens in capitals, ends in no punctuation, opens no
    nested list, and the item of the same list before or after it (past the items nested in between) is written so."""
    if not _bare(item):
        return False
    after = sentences[item.index + 1] if item.index + 1 < len(sentences) else None
    if after is not None and after.is_list_item and _indent(text, after) >= _indent(text, item):
        if not _siblings(text, item, after):
            return False  # it opens a nested list
    siblings = (_sibling(text, sentences, item, -1), _sibling(text, sentences, item, 1))
    return any(other is not None and _bare(other) for other in siblings)


def _sibling(text: str, sentences: Sequence[Sentence], item: Sentence, step: int) -> Sentence | None:
    """The nearest item of the same list before (``step`` -1) or after (+1) ``item``, past the items nested deeper."""
    index = item.index + step
    while 0 <= index < len(sentences) and sentences[index].is_list_item:
        other = sentences[index]
        if _indent(text, other) <= _indent(text, item):
            return other if _siblings(text, item, other) else None
        index += step
    return None


def _bare(item: Sentence) -> bool:
    """A list item that opens in capitals and ends in no punctuation."""
    body = item.body
    return item.is_list_item and body[:1].isupper() and not body.endswith((".", "!", "?", ":", ",", ";"))


def _siblings(text: str, item: Sentence, other: Sentence) -> bool:
    return other.is_list_item and other.list_kind == item.list_kind and _indent(text, other) == _indent(text, item)


def _indent(text: str, sentence: Sentence) -> int:
    return sentence.start - (text.rfind("\n", 0, sentence.start) + 1)


def _plain(body: str) -> str:
    """The sentence as plain text: Markdown emphasis dropped, a link as its text and address („im Personalportal
    (https://portal.example.de)"; a mail address once), an image left out (its description would break the
    sentence), and any other square bracket as a parenthesis — the answer keeps square brackets for its citations."""
    text: str = _EMPHASIS.sub(lambda m: m.group("strong") or m.group("em"), body)
    text = _LINK.sub(_link_text, text)
    return text.replace("[", "(").replace("]", ")")


def _link_text(link: regex.Match[str]) -> str:
    text, url = str(link.group("text")), str(link.group("url"))
    if link.group("image"):
        return ""
    return text if url.removeprefix("mailto:") == text else f"{text} ({url})"


def _caption(sentence: Sentence | None) -> str:
    """The words a table's rows read after: its caption without the closing punctuation, unless too long to repeat."""
    if sentence is None or len(sentence.clean.split()) > MAX_CONTEXT_WORDS:
        return ""
    return sentence.clean.rstrip(".:").rstrip()


def _opens_sentence(lead_in: str) -> bool:
    """A lead-in that the items go on (it ends in a lower-case word, a colon or a comma), unlike a heading."""
    words = lead_in.split()
    return lead_in.endswith((":", ",")) or bool(words and words[-1][:1].islower())


def _item_units(
    items: Sequence[tuple[int, str, str, bool]], closing: str | None = None
) -> Iterator[tuple[int, str, bool, RowPlace | None]]:
    """Each item read with its lead-in (and the words that close the list's sentence), except the items of a condition
    that holds only as a whole („…, wenn" + „1. der Anspruch entstanden ist und" + „2. der Gläubiger … Kenntnis
    erlangt"): they are one unit, since one of them alone states a condition the statute does not."""
    end = f" {closing}" if closing else "."
    for lead_in, group in groupby(items, key=lambda item: item[1]):
        listed = list(group)
        if len(listed) > 1 and _CONDITION_LEAD.search(lead_in) and _joined_by_and(listed[-2][2]):
            parts = " ".join(body.rstrip() for _, _, body, _ in listed[:-1])
            yield listed[0][0], f"{lead_in} {parts} {listed[-1][2].rstrip(' ,;.')}{end}", listed[0][3], None
            continue
        yield from ((index, f"{_continued(lead_in, body)}{end}", opens, None) for index, _, body, opens in listed)


def _joined_by_and(body: str) -> bool:
    return body.rstrip(" ,;").endswith(" und")


def _continued(lead_in: str, part: str) -> str:
    """The lead-in with one item or closing part, without the item's own joiner („…, oder")."""
    return f"{lead_in} {part.rstrip(' ,;.')}".removesuffix(" und").removesuffix(" oder").rstrip(" ,;")


def rank(
    question: str, found: Sequence[Candidate], embedder: Embedder | None, words: Sequence[QuestionWord] | None = None
) -> list[Candidate]:
    """Candidates scored and sorted best first (ties: retrieval rank, then position in the block)."""
    words = named_by_kb(words if words is not None else question_words(question), found)
    weights = word_weights(words, found)
    asked = expected_answer_type(question)
    lead_times = asks_lead_time(question)
    who_acts = asks_who_acts(question)
    named = provisions(question)
    total = sum(weights.values()) or 1.0
    names = frozenset(n for c in found for n in c.short_names)
    spelled = {w.terms[0]: spelled_names(w.terms[0], names) for w in words}
    absent = negated_terms(question)
    during = periods_during(question)
    framed = during | _named_only(_BOUND, question)  # the periods the question sets its case in
    distinct = distinct_synonyms(words, found)
    law_words = frozenset(lemma for lemma, spelled_ones in spelled.items() if spelled_ones)
    which = which_asked(question)
    scored: list[Candidate] = []
    for candidate in found:
        # a noun the sentence names only as absent is said by it only for a question about its absence
        # … and a period the question asks about is not said by a sentence on the time after or before it, nor by
        # its paragraph („Nach der Probezeit beträgt die Kündigungsfrist …" for „… in der Probezeit?")
        bound = candidate.bound_terms & during
        # … nor is a period the question asks about itself („Wie lange ist die Probezeit?") by a sentence that names it
        # only as the time of another case („Kündigungsfrist in der Probezeit", „Nach der Probezeit gelten …"), unless
        # the question asks how long before it („Wie lange vorher …?": „zehn Arbeitstage vor Beginn der Pflegezeit")
        bound |= (candidate.framed_terms | (frozenset() if lead_times else candidate.bound_terms)) - framed
        unsaid_here = (candidate.negated_terms - absent) | bound | distinct
        terms, lemmas = candidate.terms - unsaid_here, candidate.lemmas - unsaid_here
        # a law the question names in full counts as said by each of its sentences, and by no sentence of another law
        # („Preisangabenverordnung" is not half said by the „Verordnung" of a ProdSG sentence)
        laws = frozenset(w.terms[0] for w in words if not spelled[w.terms[0]].isdisjoint(candidate.short_names))
        # „Aus welchen Gründen …?": „wegen eines in § 1 genannten Grundes" does not say which (§ 1 does)
        by_reference = which & frozenset(t for noun, _ in named_by_reference(candidate.text) for t in analyze(noun)[:1])
        unsaid = (law_words - laws) | by_reference | bound
        terms, lemmas = terms - by_reference, lemmas - by_reference
        # a key word the sentence names by a provision is said by it („Ansprüche aus § 8" → Unterlassungsanspruch)
        # … and so is one the cases it applies to say („in den Fällen des Absatzes 1 Nummer 1"), though it ranks as one
        # of its paragraph: the sentence is about what holds in them, not about what they are
        # the header counts with its words of their own: „Elternzeit" names no „Eltern", so no „Elterngeld"
        besides = [candidate.referred_terms, candidate.case_terms, laws]
        header_words = (candidate.header_terms, candidate.header_lemmas)
        lexical = matched = 0.0
        for word in words:
            own = coverage(word, terms, lemmas)
            header = 1.0 if word.terms[0] in laws else HEADER_RANK_SHARE * coverage(word, candidate.header_terms)
            paragraph = PARAGRAPH_RANK_SHARE * coverage(
                word, (candidate.paragraph_terms - bound) | candidate.case_terms
            )
            referring = coverage(word, candidate.referred_terms) if word.key and word.terms[0] not in unsaid else 0.0
            lexical += weights[word.terms[0]] * max(own, header, paragraph, referring)
            matched += own
        focus = min(1.0, matched / max(1, len(candidate.lemmas)) * 3)
        typed = None if asked is None else gives(asked, candidate.text, lead_times=lead_times)
        # who may be chosen answers another question than who chooses: it ranks as a sentence of the wrong kind
        other_role = who_acts and names_who_may_be_chosen(candidate.text)
        said = [w for w in words if not w.number and coverage(w, terms, lemmas) >= COVERED]
        scored.append(
            replace(
                candidate,
                lexical=lexical / total,
                key_coverage=key_coverage(
                    words, weights, besides, uncovered=unsaid, sentences=[(terms, lemmas), header_words]
                ),
                covered_keys=frozenset(
                    w.terms[0]
                    for w in words
                    if w.key
                    and w.terms[0] not in unsaid
                    and max(coverage(w, terms, lemmas), coverage(w, *header_words), *(coverage(w, t) for t in besides))
                    >= COVERED
                ),
                said_keys=frozenset(w.terms[0] for w in said if w.key and w.terms[0] not in unsaid),
                said_words=frozenset(w.terms[0] for w in said),
                score=lexical / total
                + FOCUS_WEIGHT * focus
                + TYPE_WEIGHT * (bool(typed) - other_role)
                + NAMED_WEIGHT * bool(named & provisions(f"{candidate.hit.entry_id} {candidate.hit.title}")),
                gives_type=typed,
                named_laws=laws,
                unsaid=unsaid,
            )
        )
    scored.sort(key=lambda c: -c.score)
    cosines = _cosines(question, scored[:MAX_EMBEDDED], embedder)
    low, high = (min(cosines), max(cosines)) if cosines else (0.0, 0.0)
    ranked = []
    for index, candidate in enumerate(scored):
        cosine = cosines[index] if index < len(cosines) else None
        # e5 cosines crowd into a narrow band: rescaled to [0, 1] over this question's candidates
        similarity = None if cosine is None else (cosine - low) / (high - low) if high - low > 1e-6 else 1.0
        score = candidate.score + RETRIEVAL_WEIGHT * candidate.hit.score
        if similarity is not None:
            score += DENSE_WEIGHT * similarity
        ranked.append(replace(candidate, dense=similarity, cosine=cosine, score=score))
    ranked.sort(key=lambda c: (-c.score, c.hit.rank, c.position))
    return ranked


def which_asked(question: str) -> frozenset[str]:
    """The lemmas of the nouns a „Welche …?" question asks to be named („Aus welchen Gründen …" → grund)."""
    return frozenset(t for m in _WHICH_NOUN.finditer(question) for t in analyze(m.group(1))[:1])


def distinct_synonyms(words: Sequence[QuestionWord], found: Sequence[Candidate]) -> frozenset[str]:
    """The thesaurus synonyms of question words that a retrieved sentence names beside the word itself: this KB
    tells them apart („Die Bundesversammlung besteht aus den Mitgliedern des Bundestages"), so neither says the
    other here."""
    asked = {t for w in words for t in w.terms}
    return frozenset(
        synonym
        for word in words
        for synonym in synonyms(word.terms[0]) - asked
        if any(word.terms[0] in c.lemmas and synonym in c.lemmas for c in found)
    )


def lead(ranked: Sequence[Candidate]) -> float:
    """How far the best sentence leads the best sentence of any other block, as a share of its score (1.0 where
    no other block has one). A close runner-up elsewhere means the ranking was unsure which provision answers;
    on the dev answers this separated right from wrong ones better than the cosine (ROC AUC 0.71 against 0.50)."""
    if not ranked or ranked[0].score <= 0:
        return 0.0
    best = ranked[0]
    other = next((c for c in ranked if c.hit.entry_id != best.hit.entry_id and not _names_by(c, best)), None)
    return 1.0 if other is None else max(0.0, (best.score - other.score) / best.score)


def _names_by(candidate: Candidate, provision: Candidate) -> bool:
    """Whether the candidate names a noun only by the other's provision („wegen eines in § 1 genannten Grundes"
    beside AGG § 1's list of the Gründe): it says that noun through it, and is no rival to it."""
    known = {provision.hit.entry_id}
    return any(referenced_ids(p, candidate.hit.entry_id, known) for _, p in named_by_reference(candidate.text))


def short_names(text: str) -> tuple[tuple[str, ...], ...]:
    """Law short names made of word beginnings, as their parts: ``ProdHaftG`` → ``("prod", "haft", "g")``. Names of
    capitals only count from four letters on, with the kind of act last (``MPDG``): shorter ones (``GG``, ``AGG``)
    would match too many words („Gleichbehandlungsgesetz" holds g … gesetz)."""
    found = []
    for name in _SHORT_NAME.findall(text):
        parts = tuple(p.casefold().translate(_FOLD) for p in regex.findall(r"\p{Lu}\p{Ll}*", name))
        if len(parts) > 1 and (any(len(p) >= MIN_PART for p in parts) or name.isupper()):
            found.append(parts)
    return tuple(found)


def shortens(name: Sequence[str], lemma: str) -> bool:
    """Whether the short name's parts begin the lemma and follow in it in order (``Produkthaftungsgesetz``). A
    closing „G", „V" or „O" stands for the act's kind, which the lemma must say: „Kostenvoranschlag" holds K, sch
    and g in order, but no „gesetz" for ``KSchG``."""
    if not name or not lemma.startswith(name[0]):
        return False
    rest = [*name[1:-1], ACT_KINDS.get(name[-1], name[-1])] if len(name) > 1 else []
    position = len(name[0])
    for part in rest:
        position = lemma.find(part, position)
        if position < 0:
            return False
        position += len(part)
    return True


def spelled_names(lemma: str, names: Iterable[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    """The short names the lemma spells out, only those whose parts say most of it: „Produkthaftungsgesetz" spells
    ProdHaftG (prod, haft, gesetz), not ProdSG (prod, s, gesetz), though both parts follow in it in order."""
    found = [n for n in names if shortens(n, lemma)]
    said = {n: sum(map(len, n[:-1])) + len(ACT_KINDS.get(n[-1], n[-1])) for n in found}
    most = max(said.values(), default=0)
    return frozenset(n for n in found if said[n] == most)


def provisions(text: str) -> frozenset[str]:
    """The provisions a text names, as ``§43`` / ``art54``."""
    return frozenset(f"{'§' if kind == '§' else 'art'}{number.casefold()}" for kind, number in _PROVISION.findall(text))


def _cosines(question: str, found: Sequence[Candidate], embedder: Embedder | None) -> list[float]:
    if embedder is None or not found:
        return []
    query = np.asarray(embedder.embed_query(question))
    passages = np.asarray(embedder.embed_passages([c.text for c in found]))
    return [float(c) for c in passages @ query]


def word_weights(words: Sequence[QuestionWord], found: Sequence[Candidate]) -> dict[str, float]:
    """Key words weigh double; a word that most retrieved blocks cover says little about which one answers."""
    blocks: dict[str, frozenset[str]] = {}
    for candidate in found:
        blocks[candidate.hit.entry_id] = blocks.get(candidate.hit.entry_id, frozenset()) | candidate.terms
    weights = {}
    for word in words:
        share = sum(coverage(word, terms) >= COVERED for terms in blocks.values()) / len(blocks) if blocks else 0.0
        shared = SHARED_TERM_DISCOUNT if share > 0.5 and len(blocks) > 2 else 0.0
        weights[word.terms[0]] = max(word.weight * (1 - shared), OTHER_WEIGHT if word.key else 0.0)
    return weights


def key_coverage(
    words: Sequence[QuestionWord],
    weights: dict[str, float],
    available: Sequence[frozenset[str]],
    *,
    uncovered: frozenset[str] = frozenset(),
    sentences: Sequence[tuple[frozenset[str], frozenset[str] | None]] = (),
) -> float:
    """Weighted share of the question's key words (numbers aside) that some of the term sets cover — ``available``
    (a reference's) or ``sentences`` (a sentence's or header's terms with its words' lemmas, see ``coverage``); a
    word in ``uncovered`` (``Candidate.unsaid``: another law, a noun asked for but named by a provision) counts as
    not covered."""
    keys = [w for w in words if w.key and not w.number]
    if not keys or not (available or sentences):
        return 0.0
    total = sum(weights[w.terms[0]] for w in keys) or 1.0
    covered = 0.0
    for word in keys:
        found = [coverage(word, terms) for terms in available]
        found += [coverage(word, terms, lemmas) for terms, lemmas in sentences]
        best = 0.0 if word.terms[0] in uncovered else max(found)
        covered += weights[word.terms[0]] * (1.0 if best >= COVERED else best)
    return covered / total
