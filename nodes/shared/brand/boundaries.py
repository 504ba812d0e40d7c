"""K6 boundaries, deterministic and absolute: forbidden terms, phrases and claim patterns with exceptions.

Reusable outside the scorecard graph (the answer graph checks a bot's answer with it before delivery)::

    report = find_boundary_violations(answer_text, dna.guardrails)
    if not report.passed: ...  # report.violations: Reason with rule id, evidence span, fix suggestion
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from nodes.shared.brand.claim_patterns import ClaimPatterns
from nodes.shared.brand.evidence import evidence_for
from nodes.shared.brand.quotes import QuotedSpans
from nodes.shared.brand.reasons import Evidence, Reason
from nodes.shared.brand.terms import TermEntry, TermHit, TermMatcher, fold_case, fold_to_utf8
from stores.brand.models import AllowedException, Guardrails
from stores.text import split_sentences

DEFAULT_REGEX_TIMEOUT_S = 0.25
DEFAULT_TERM_FIX = "Streichen oder durch eine konkrete, belegbare Aussage ersetzen (Umfang, Ergebnis, Beispiel)."
DEFAULT_CLAIM_FIX = "Behauptung streichen oder mit Quelle, Zeitraum und Geltungsbereich belegen."


class ExemptedHit(BaseModel):
    """A hit that an allowed exception covers; reported so that a pass is explainable too."""

    model_config = ConfigDict(frozen=True)

    rule_id: str
    exception_id: str
    evidence: Evidence


class BoundaryReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    violations: tuple[Reason, ...] = ()
    exempted: tuple[ExemptedHit, ...] = ()
    timed_out_rules: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        """True only when every rule ran to the end and none was violated."""
        return not self.violations and not self.timed_out_rules


class RuleHit(NamedTuple):
    rule_id: str
    start: int
    end: int
    configured: str | None  # the configured term/phrase, for the lemma trace; None for patterns


class BoundaryMatcher:
    """Guardrails compiled once: one automaton for terms, phrases and the claims' literals, one for exception
    phrases."""

    def __init__(self, guardrails: Guardrails) -> None:
        self._guardrails = guardrails
        self._claims = ClaimPatterns((r.id, r.pattern) for r in guardrails.forbidden_patterns)
        self._terms = TermMatcher(  # one scan per text: the claims' literals ride along as probes
            [TermEntry(r.id, r.term, r.lemma_match) for r in guardrails.forbidden_terms]
            + [TermEntry(r.id, r.phrase, r.lemma_match) for r in guardrails.forbidden_phrases],
            probes=self._claims.needles,
        )
        self._exception_phrases = TermMatcher(
            TermEntry(e.id, e.phrase, inflect=False) for e in guardrails.allowed_exceptions if e.phrase
        )
        self._rule_texts = {r.id: f"Verbotener Begriff: „{r.term}“" for r in guardrails.forbidden_terms}
        self._rule_texts |= {r.id: f"Verbotene Wendung: „{r.phrase}“" for r in guardrails.forbidden_phrases}
        self._rule_texts |= {r.id: f"Verbotene Behauptung: {r.description}" for r in guardrails.forbidden_patterns}
        self._fixes = {r.id: r.fix or DEFAULT_TERM_FIX for r in guardrails.forbidden_terms}
        self._fixes |= {r.id: r.fix or DEFAULT_TERM_FIX for r in guardrails.forbidden_phrases}
        self._fixes |= {r.id: r.fix or DEFAULT_CLAIM_FIX for r in guardrails.forbidden_patterns}

    def rule_text(self, rule_id: str) -> str:
        """The rule as a reason quotes it, e.g. 'Verbotener Begriff: „ganzheitlich“'."""
        return self._rule_texts[rule_id]

    @property
    def spellings(self) -> int:
        """How many spellings (inflections, transliterations) the term automaton holds."""
        return self._terms.size

    def find_hits(
        self, text: str, *, regex_timeout_s: float = DEFAULT_REGEX_TIMEOUT_S
    ) -> tuple[list[RuleHit], list[str]]:
        """Raw rule hits before exceptions, and the ids of patterns that ran out of time."""
        folded = fold_to_utf8(text)
        term_hits, needles_found = self._terms.scan_folded(folded)
        hits = [RuleHit(h.key, h.start, h.end, h.entry) for h in term_hits]  # in text order
        claims, timed_out = self._claims.find(
            text, timeout_s=regex_timeout_s, folded=folded, needles_found=needles_found
        )
        if claims:
            hits.extend(RuleHit(c.rule_id, c.start, c.end, None) for c in claims)
            hits.sort(key=lambda h: (h.start, -h.end))
        return _without_nested(hits), timed_out

    def check(self, text: str, *, regex_timeout_s: float = DEFAULT_REGEX_TIMEOUT_S) -> BoundaryReport:
        hits, timed_out = self.find_hits(text, regex_timeout_s=regex_timeout_s)
        if not hits:
            return BoundaryReport(timed_out_rules=tuple(timed_out))
        sentences = split_sentences(text)
        quotes = QuotedSpans(text)
        allowed_phrases = self._exception_phrases.find(text)
        violations: list[Reason] = []
        exempted: list[ExemptedHit] = []
        for hit in hits:
            evidence = evidence_for(text, sentences, hit.start, hit.end)
            exception = self._covering_exception(hit, quotes, allowed_phrases)
            if exception is not None:
                exempted.append(ExemptedHit(rule_id=hit.rule_id, exception_id=exception.id, evidence=evidence))
            else:
                violations.append(self._reason(hit, evidence))
        return BoundaryReport(violations=tuple(violations), exempted=tuple(exempted), timed_out_rules=tuple(timed_out))

    def _covering_exception(self, hit: RuleHit, quotes: QuotedSpans, phrases: list[TermHit]) -> AllowedException | None:
        for exception in self._guardrails.allowed_exceptions:
            if exception.rules and hit.rule_id not in exception.rules:
                continue
            if exception.in_quotes and quotes.covers(hit.start, hit.end):
                return exception
            if any(p.key == exception.id and p.start <= hit.start and hit.end <= p.end for p in phrases):
                return exception
        return None

    def _reason(self, hit: RuleHit, evidence: Evidence) -> Reason:
        rule_text = self.rule_text(hit.rule_id)
        if hit.configured is None:
            explanation = f"„{evidence.quote}“ ist eine unzulässige Behauptung."
        elif fold_case(evidence.quote) != fold_case(hit.configured):
            explanation = f"„{evidence.quote}“ ist eine Form von „{hit.configured}“."
        else:
            explanation = f"„{evidence.quote}“ steht auf der Verbotsliste."
        return Reason(
            rule_id=hit.rule_id,
            rule_text=rule_text,
            criterion="K6",
            explanation=explanation,
            evidence=evidence,
            fix_suggestion=self._fixes[hit.rule_id],
        )


def _without_nested(hits: list[RuleHit]) -> list[RuleHit]:
    """One hit per rule and place: drop a rule's hit that lies inside another hit of the same rule.
    ``hits`` come in text order, longer first where two start together."""
    kept: list[RuleHit] = []
    reach: dict[str, int] = {}
    for hit in hits:
        if reach.get(hit.rule_id, -1) >= hit.end:
            continue
        kept.append(hit)
        reach[hit.rule_id] = hit.end
    return kept


@lru_cache(maxsize=64)
def compile_guardrails(guardrails: Guardrails) -> BoundaryMatcher:
    return BoundaryMatcher(guardrails)


def find_boundary_violations(
    text: str, guardrails: Guardrails, *, regex_timeout_s: float = DEFAULT_REGEX_TIMEOUT_S
) -> BoundaryReport:
    """Check a text against a DNA's guardrails (matchers are compiled once per guardrails and cached)."""
    return compile_guardrails(guardrails).check(text, regex_timeout_s=regex_timeout_s)
