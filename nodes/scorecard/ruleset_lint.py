"""Lint the rule set itself: contradictions, exceptions that can never fire, risky or over-broad regexes."""

from __future__ import annotations

from dataclasses import dataclass, field

from nodes.shared.brand.boundaries import BoundaryMatcher, compile_guardrails
from stores.brand.models import BrandDNA, Guardrails, compile_pattern

_UNBOUNDED = ("+", "*")


@dataclass
class _Group:
    unbounded: bool = False
    anchors: int = 0  # literal characters that occur exactly once per round
    last_was_literal: bool = False
    alternatives: list[str | None] = field(default_factory=lambda: [""])

    def add_atom(self, literal: str | None) -> None:
        current = self.alternatives[-1]
        self.alternatives[-1] = None if current is None or literal is None else current + literal
        self.anchors += literal is not None
        self.last_was_literal = literal is not None

    def quantify(self, unbounded: bool, optional: bool) -> None:
        self.anchors -= self.last_was_literal
        self.last_was_literal = False
        self.unbounded |= unbounded
        if optional or unbounded:
            self.alternatives[-1] = None

    @property
    def anchored(self) -> bool:
        return self.anchors > 0 and len(self.alternatives) == 1

    def overlapping_alternatives(self) -> bool:
        literal = [a for a in self.alternatives if a is not None]
        return len(self.alternatives) > 1 and any(a != b and b.startswith(a) for a in literal for b in literal)


def _quantifier(pattern: str, i: int) -> tuple[bool, int] | None:
    """(unbounded, length) when a quantifier starts at i."""
    char = pattern[i]
    if char in "+*?":
        length = 1
    elif (
        char == "{"
        and (close := pattern.find("}", i)) > i
        and all(c.isdigit() or c == "," for c in pattern[i + 1 : close])
    ):
        body = pattern[i + 1 : close]
        if not body or body == ",":
            return None
        return body.endswith(","), close - i + 1 + _modifier(pattern, close + 1)
    else:
        return None
    return char in _UNBOUNDED, length + _modifier(pattern, i + 1)


def _modifier(pattern: str, i: int) -> int:
    return 1 if i < len(pattern) and pattern[i] in "?+" else 0


def backtracking_risk(pattern: str) -> bool:
    """Heuristic: an unbounded repeat of a group whose alternatives overlap (``(a|aa)+``), or that itself
    repeats without bound (``(\\w+\\s?)+``) unless a literal character occurring once per round anchors it
    (``(\\.\\d+)*`` is fine). The regex timeout at match time remains the safety net."""
    stack = [_Group()]
    closed: _Group | None = None
    i = 0
    while i < len(pattern):
        quantifier = _quantifier(pattern, i)
        if quantifier is not None:
            unbounded, length = quantifier
            if unbounded and closed is not None:
                if closed.overlapping_alternatives() or (closed.unbounded and not closed.anchored):
                    return True
            stack[-1].quantify(unbounded, optional=pattern[i] in "?*{")
            closed, i = None, i + length
            continue
        closed = None
        char = pattern[i]
        if char == "\\":
            escaped = pattern[i + 1 : i + 2]
            if escaped in ("p", "P") and pattern[i + 2 : i + 3] == "{":
                i = pattern.index("}", i) + 1
                stack[-1].add_atom(None)
                continue
            stack[-1].add_atom(None if escaped.isalnum() else escaped)
            i += 2
        elif char == "[":
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("]", "^") else i + 1)
            stack[-1].add_atom(None)
            i = (end if end > 0 else len(pattern) - 1) + 1
        elif char == "(":
            stack.append(_Group())
            if pattern.startswith("(?", i):
                i = i + 2 + len(pattern[i + 2 :]) - len(pattern[i + 2 :].lstrip(":=!<>P"))
            else:
                i += 1
        elif char == ")" and len(stack) > 1:
            closed = stack.pop()
            stack[-1].unbounded |= closed.unbounded
            stack[-1].add_atom(None)
            i += 1
        elif char == "|":
            stack[-1].alternatives.append("")
            i += 1
        elif char in "^$":  # zero-width: neither an atom nor an anchor character
            i += 1
        else:
            stack[-1].add_atom(None if char == "." else char)
            i += 1
    return False


def lint_ruleset(dna: BrandDNA) -> list[str]:
    """German findings; an empty list means the rule set is consistent."""
    guardrails = dna.guardrails
    matcher = compile_guardrails(guardrails.model_copy(update={"allowed_exceptions": ()}))
    findings: list[str] = []
    wanted = [("Pflichtbegriff", term) for term in dna.tone_rules.required_terms]
    wanted += [(f"Schlüsselwort des Kern-Themas {t.id}", k) for t in dna.topic_corridor.core for k in t.keywords]
    for label, term in wanted:
        for violation in matcher.check(term).violations:
            findings.append(f"„{term}“ ist zugleich {label} und verboten ({violation.rule_id}).")
    findings += _dead_exceptions(guardrails, matcher)
    for rule in guardrails.forbidden_patterns:
        if backtracking_risk(rule.pattern):
            findings.append(
                f"{rule.id}: Muster „{rule.pattern}“ wiederholt verschachtelt und riskiert katastrophales Backtracking."
            )
        if compile_pattern(rule.pattern).fullmatch("") is not None:
            findings.append(f"{rule.id}: Muster „{rule.pattern}“ trifft auch leeren Text und damit jede Stelle.")
    return findings


def _dead_exceptions(guardrails: Guardrails, matcher: BoundaryMatcher) -> list[str]:
    findings = []
    for exception in guardrails.allowed_exceptions:
        unknown = [r for r in exception.rules if r not in guardrails.rule_ids]
        if unknown:
            findings.append(
                f"{exception.id}: verweist auf unbekannte Regel(n) {', '.join(unknown)} und greift dort nie."
            )
        if not exception.in_quotes and not exception.phrase:
            findings.append(f"{exception.id}: weder in_quotes noch phrase gesetzt – die Ausnahme greift nie.")
        if exception.phrase:
            covered = {v.rule_id for v in matcher.check(exception.phrase).violations}
            relevant = covered & set(exception.rules) if exception.rules else covered
            if not relevant:
                findings.append(
                    f"{exception.id}: die Wendung „{exception.phrase}“ enthält keinen Treffer der betroffenen Regeln"
                    " – die Ausnahme greift nie."
                )
    return findings
