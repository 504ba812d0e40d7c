"""Level 1: how sharp the DNA itself is, per building block (maturity_score 0–100, gaps, standard_ref).

The output names the symptom and the standard, never a replacement text: the system does not write the DNA.
"""

from __future__ import annotations

from functools import lru_cache

import regex

from nodes.scorecard.results import BlockMaturity, DnaMaturity
from nodes.scorecard.ruleset_lint import lint_ruleset
from nodes.shared.brand.reasons import Block
from nodes.shared.brand.terms import TermEntry, TermMatcher
from nodes.shared.brand.vocabulary import BENEFIT_PROMISES, MARKET_TERMS, SOFTENERS
from stores.brand.models import BrandDNA, ToneRule
from stores.text import split_sentences

STANDARD_REFS: dict[Block, str] = {
    "identity_core": "Dok. 002 §3.1 – Gilt der Kern auch bei Produkt- oder Marktwechsel? (ohne Markt-/Nutzenbegriffe)",
    "positioning_logic": "Dok. 002 §3.2 – Ist die Abgrenzung ein Ausschluss („Wir sind NICHT …“) oder eine Anpreisung?",
    "tone_rules": "Dok. 002 §3.3 – Hat jede Ton-Regel eine erkennbare Verletzungsbedingung?",
    "topic_corridor": "Dok. 002 §3.4 – Höchstens drei Kern-Themen und gesetzte Tabu-Themen",
    "guardrails": "Dok. 002 §3.5 – Explizite No-Go-Listen für Begriffe, Formulierungen und Claims",
}
_EXCLUSION = regex.compile(r"\b(?:nicht|kein\w*|niemals|nie)\b", regex.IGNORECASE)
_CONCRETE = regex.compile(r"\d|[„“\"»«‚‘']")


@lru_cache(maxsize=1)
def _vocabulary_matcher() -> TermMatcher:
    return TermMatcher(
        [TermEntry("market", t) for t in MARKET_TERMS]
        + [TermEntry("benefit", t) for t in BENEFIT_PROMISES]
        + [TermEntry("softener", t, inflect=" " not in t) for t in SOFTENERS]
    )


def _hits(text: str, key: str) -> list[str]:
    return [text[h.start : h.end] for h in _vocabulary_matcher().find(text) if h.key == key]


def _block(block: Block, score: float, gaps: list[str]) -> BlockMaturity:
    return BlockMaturity(
        block=block, maturity_score=round(min(max(score, 0), 100)), gaps=tuple(gaps), standard_ref=STANDARD_REFS[block]
    )


def _identity(dna: BrandDNA) -> BlockMaturity:
    core = dna.identity_core
    text = " ".join((core.statement, *core.claims))
    gaps: list[str] = []
    market, benefit = _hits(text, "market"), _hits(text, "benefit")
    if market:
        gaps.append(f"Marktbegriffe im Kern: {', '.join(sorted(set(market)))}")
    if benefit:
        gaps.append(f"Nutzenversprechen im Kern: {', '.join(sorted(set(benefit)))}")
    sentences = len(split_sentences(core.statement))
    if sentences > 2:
        gaps.append(f"Kern hat {sentences} Sätze statt 1–2")
    return _block(
        "identity_core", 100 - min(50, 25 * len(market)) - min(50, 25 * len(benefit)) - 15 * (sentences > 2), gaps
    )


def _positioning(dna: BrandDNA) -> BlockMaturity:
    logic = dna.positioning_logic
    gaps: list[str] = []
    score = 100.0
    if not any(_EXCLUSION.search(d) for d in logic.delimitations):
        gaps.append("keine ausdrückliche Abgrenzung („Wir sind NICHT …“)")
        score -= 40
    softeners = _hits(" \n".join((logic.problem, logic.logic, *logic.delimitations)), "softener")
    if softeners:
        gaps.append(f"Weichmacher statt Abgrenzung: {', '.join(sorted(set(softeners)))}")
        score -= min(45, 15 * len(softeners))
    return _block("positioning_logic", score, gaps)


def is_testable(rule: ToneRule) -> bool:
    """A rule is testable when a violation is recognisable: examples, a number or a quoted term."""
    return bool(rule.examples) or bool(_CONCRETE.search(rule.rule))


def _tone(dna: BrandDNA) -> BlockMaturity:
    tone = dna.tone_rules
    rules = (*tone.do, *tone.dont)
    gaps = [
        f"{r.id}: keine erkennbare Verletzungsbedingung (Beispiel, Zahl oder Begriff fehlt)"
        for r in rules
        if not is_testable(r)
    ]
    if not tone.dont:
        gaps.append("keine Don't-Regeln")
    style = tone.style
    parameters = (
        style.max_sentence_words,
        style.max_avg_sentence_words,
        style.max_passive_share,
        style.max_filler_share,
    )
    missing = sum(p is None for p in parameters)
    if missing:
        gaps.append(f"{missing} von 4 Stilparametern nicht gesetzt")
    share = sum(is_testable(r) for r in rules) / len(rules) if rules else 0.0
    return _block("tone_rules", 70 * share + 30 * (4 - missing) / 4 - 10 * (not tone.dont), gaps)


def _topics(dna: BrandDNA) -> BlockMaturity:
    corridor = dna.topic_corridor
    gaps: list[str] = []
    score = 100.0
    if not corridor.core:
        gaps.append("keine Kern-Themen")
        score -= 50
    elif len(corridor.core) > 3:
        gaps.append(f"{len(corridor.core)} Kern-Themen statt höchstens 3")
        score -= 30
    if not corridor.taboo:
        gaps.append("keine Tabu-Themen")
        score -= 30
    vague = [t.id for t in (*corridor.core, *corridor.adjacent, *corridor.taboo) if not t.keywords and not t.snippet]
    if vague:
        gaps.append(f"Themen ohne Schlüsselwörter und Snippet: {', '.join(vague)}")
        score -= min(20, 5 * len(vague))
    return _block("topic_corridor", score, gaps)


def _guardrails(dna: BrandDNA, lint: list[str]) -> BlockMaturity:
    guardrails = dna.guardrails
    gaps: list[str] = []
    score = 100.0
    for present, label, weight in (
        (guardrails.forbidden_terms, "keine verbotenen Begriffe", 30),
        (guardrails.forbidden_phrases, "keine verbotenen Formulierungen", 15),
        (guardrails.forbidden_patterns, "keine verbotenen Claims (Muster)", 30),
    ):
        if not present:
            gaps.append(label)
            score -= weight
    gaps += lint
    return _block("guardrails", score - min(30, 10 * len(lint)), gaps)


def assess_dna_maturity(dna: BrandDNA) -> DnaMaturity:
    lint = lint_ruleset(dna)
    blocks = [_identity(dna), _positioning(dna), _tone(dna), _topics(dna), _guardrails(dna, lint)]
    overall = round(sum(b.maturity_score for b in blocks) / len(blocks))
    return DnaMaturity(overall=overall, blocks={b.block: b for b in blocks}, lint=tuple(lint))
