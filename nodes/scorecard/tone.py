"""K3 deterministic tone metrics: sentence length, passive share, filler share, hype words and superlatives.

Reusable outside the scorecard graph::

    report = measure_tone(answer_text, dna.tone_rules)
    report.verdict, report.reasons, report.metrics  # metrics: avg/max sentence words, passive/filler share …
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

import regex
import simplemma
from pydantic import BaseModel, ConfigDict

from nodes.scorecard.results import Verdict
from nodes.shared.brand.evidence import evidence_for
from nodes.shared.brand.quotes import QuotedSpans
from nodes.shared.brand.reasons import Reason
from nodes.shared.brand.terms import TermEntry, TermMatcher
from nodes.shared.brand.vocabulary import FILLER_WORDS, HYPE_WORDS, IRREGULAR_SUPERLATIVES, WERDEN_FORMS
from stores.brand.models import ToneRules
from stores.text import Sentence, count_words, split_sentences

_TOKEN = regex.compile(r"\w+")
_SUPERLATIVE_CANDIDATE = regex.compile(r"\b\p{Ll}\w+?(?:e?st)(?:e|en|er|es|em)\b")
_SUPERLATIVE_ENDING = regex.compile(r"(?:e?st|(?<=[szx])t)(?:e|en|er|es|em)")
_PARTICIPLE_SHAPE = regex.compile(r"^(?:\w*ge\w+|be\w+|ver\w+|er\w+|zer\w+|ent\w+|emp\w+|miss\w+|\w+ier)(?:t|en)$")
_VERB_LEMMA = regex.compile(r"(?:en|ern|eln)$")
_PLAIN_VOWELS = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "ss"})


class StyleCheck(NamedTuple):
    rule_id: str
    limit: str  # field of StyleParameters
    metric: str  # key of the measured metrics
    severe_factor: float  # beyond limit × factor the deviation alone fails K3
    rule_text: str
    explanation: str
    fix: str


STYLE_CHECKS = (
    StyleCheck(
        "TONE-LEN-001", "max_sentence_words", "max_sentence_words", 1.5, "Sätze höchstens {limit} Wörter",
        "Der längste Satz hat {value} Wörter.", "Den Satz teilen: eine Aussage pro Satz.",
    ),
    StyleCheck(
        "TONE-LEN-002", "max_avg_sentence_words", "avg_sentence_words", 1.5,
        "Mittlere Satzlänge höchstens {limit:g} Wörter", "Die Sätze sind im Mittel {value:g} Wörter lang.",
        "Lange Sätze teilen, Einschübe streichen.",
    ),
    StyleCheck(
        "TONE-PASSIVE-001", "max_passive_share", "passive_share", 2.0, "Passivanteil höchstens {limit:.0%}",
        "{value:.0%} der Sätze stehen im Passiv.", "Aktiv formulieren: Wer tut was?",
    ),
    StyleCheck(
        "TONE-FILLER-001", "max_filler_share", "filler_share", 2.0, "Füllwortanteil höchstens {limit:.0%}",
        "{value:.0%} der Wörter sind Füllwörter.", "Füllwörter streichen; die Aussage trägt ohne sie.",
    ),
)  # fmt: skip


class ToneReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    verdict: Verdict
    reasons: tuple[Reason, ...]
    metrics: dict[str, Any]


@lru_cache(maxsize=1)
def _filler_matcher() -> TermMatcher:
    return TermMatcher(TermEntry(word, word, inflect=False) for word in FILLER_WORDS)


@lru_cache(maxsize=32)
def _hype_matcher(brand_words: tuple[str, ...]) -> TermMatcher:
    entries = [TermEntry(w, w) for w in (*HYPE_WORDS, *brand_words)]
    return TermMatcher(entries + [TermEntry(w, w, inflect=False) for w in IRREGULAR_SUPERLATIVES])


def is_past_participle(token: str) -> bool:
    """'geprüft', 'eingeführt', 'bezahlt', 'optimiert': a participle whose lemma is an infinitive."""
    lowered = token.lower()
    if not _PARTICIPLE_SHAPE.match(lowered):
        return False
    lemma = simplemma.lemmatize(token, lang="de").lower()  # as written: 'Gebiet' is a noun, 'gebiet' no word
    return lemma != lowered and bool(_VERB_LEMMA.search(lemma))


def is_passive(sentence: Sentence) -> bool:
    words = sentence.words
    return any(w.lower() in WERDEN_FORMS for w in words) and any(is_past_participle(w) for w in words)


def is_superlative(token: str) -> bool:
    lemma = simplemma.lemmatize(token, lang="de").lower().translate(_PLAIN_VOWELS)
    plain = token.lower().translate(_PLAIN_VOWELS)
    return lemma != plain and plain.startswith(lemma) and bool(_SUPERLATIVE_ENDING.fullmatch(plain, len(lemma)))


def _span(sentence: Sentence) -> tuple[int, int]:
    return sentence.start, sentence.end


def measure_tone(text: str, tone_rules: ToneRules) -> ToneReport:
    """Deterministic K3 metrics and the findings against the DNA's style parameters."""
    style = tone_rules.style
    sentences = split_sentences(text)
    lengths = [len(s.words) for s in sentences]
    words = count_words(text)
    passive = [s for s in sentences if is_passive(s)]
    fillers = _filler_matcher().find(text)
    quoted = QuotedSpans(text)  # quoted words are someone else's tone, not the brand's
    hype = [(h.start, h.end) for h in _hype_matcher(style.hype_words).find(text)]
    hype += [
        (m.start(), m.end())
        for m in _SUPERLATIVE_CANDIDATE.finditer(text)
        if is_superlative(m.group()) and not any(s <= m.start() < e for s, e in hype)
    ]
    hype = sorted(span for span in hype if not quoted.covers(*span))
    metrics: dict[str, Any] = {
        "sentences": len(sentences),
        "words": words,
        "avg_sentence_words": round(sum(lengths) / len(lengths), 2) if lengths else 0.0,
        "max_sentence_words": max(lengths, default=0),
        "passive_share": round(len(passive) / len(sentences), 3) if sentences else 0.0,
        "filler_share": round(len(fillers) / words, 3) if words else 0.0,
        "hype_hits": [text[s:e] for s, e in hype],
    }
    spans: dict[str, tuple[int, int] | None] = {
        "TONE-LEN-001": _span(sentences[lengths.index(max(lengths))]) if sentences else None,
        "TONE-LEN-002": None,
        "TONE-PASSIVE-001": _span(passive[0]) if passive else None,
        "TONE-FILLER-001": (fillers[0].start, fillers[0].end) if fillers else None,
    }
    findings: list[tuple[Reason, bool]] = []  # (reason, severe)
    for check in STYLE_CHECKS:
        limit, value = getattr(style, check.limit), metrics[check.metric]
        if limit is not None and value > limit:
            span = spans[check.rule_id]
            reason = Reason(
                rule_id=check.rule_id,
                rule_text=check.rule_text.format(limit=limit),
                criterion="K3",
                explanation=check.explanation.format(value=value),
                evidence=evidence_for(text, sentences, *span) if span else None,
                fix_suggestion=check.fix,
            )
            findings.append((reason, value > check.severe_factor * limit))
    for start, end in hype:
        reason = Reason(
            rule_id="TONE-HYPE-001",
            rule_text="Keine Superlative und Hype-Wörter",
            criterion="K3",
            explanation=f"„{text[start:end]}“ ist ein Superlativ oder Hype-Wort.",
            evidence=evidence_for(text, sentences, start, end),
            fix_suggestion="Durch eine prüfbare Angabe ersetzen (Zahl, Beispiel, Vergleichsmaßstab).",
        )
        findings.append((reason, len(hype) > 1))
    categories = {reason.rule_id for reason, _ in findings}
    verdict: Verdict = "pass"
    if findings:
        verdict = "fail" if len(categories) > 1 or any(severe for _, severe in findings) else "warn"
    return ToneReport(verdict=verdict, reasons=tuple(r for r, _ in findings), metrics=metrics)
