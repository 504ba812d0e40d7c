"""Claim patterns (brand-authored regexes) run only on texts that contain a literal every match needs.

``\\bohne\\s+Risiko\\b`` cannot match a text without both "ohne" and "risiko" in it, so one Aho-Corasick
scan of the case-folded text for every rule's literals decides which regexes run at all. The literals come
from the pattern's parse tree: every required piece of a sequence, one piece per branch of an alternation.
A pattern without provable literals (syntax only the ``regex`` module knows, optional parts only, fuzzy
matching) runs on every text.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable
from typing import Any, NamedTuple

import regex
from ahocorasick_rs import BytesAhoCorasick

from nodes.shared.brand.regex_internals import (
    ATOMIC_GROUP,
    BRANCH,
    IN,
    LITERAL,
    REPEATS,
    SUBPATTERN,
    parse_pattern,
    regex_fold_case,
)
from nodes.shared.brand.terms import fold_to_utf8
from stores.brand.models import compile_pattern

Anchors = frozenset[str]  # a clause: one of these literals (printable ASCII, case-folded) must occur
_ASCII_PIECE = re.compile(r"[\x21-\x7e]+")
# Characters other than ß whose case folding holds ASCII or nothing (ſ → s, ﬁ → fi, K → k, İ → i, U+0307 → "").
# A lower-cased text without them holds every printable-ASCII run of its `case_key`, up to ß for ss.
_FOLD_INTO_ASCII = "\u0130\u0131\u0149\u017f\u01f0\u0307\u1e96\u1e97\u1e98\u1e99\u1e9a\u1e9e\u212a" + (
    "\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06\U0001df95"
)
Requirement = tuple[Anchors, ...]  # every clause must hold
MAX_S_PER_LITERAL = 8  # its ß spellings then stay in the hundreds
# `regex` folds I, İ and ı to themselves but matches each with i; a combining dot may come with İ
_I_VARIANTS = (("I", "i"), ("İ", "i"), ("ı", "i"), ("\u0307", ""))


def case_key(text: str) -> str:
    """Text folded so that whatever a case-insensitive pattern matches, folded, holds the folded literal.

    Built on the `regex` module's own full case folding rather than ``str.casefold``: it knows the Unicode
    version the patterns are matched by (newer than Python 3.11's), e.g. ß ≡ ẞ ≡ ss ≡ U+1DF95.
    """
    folded = regex_fold_case(text)
    for variant, plain in _I_VARIANTS:
        if variant in folded:
            folded = folded.replace(variant, plain)
    return folded


class UnprovableLiteral(Exception):
    """The stdlib parser reads the pattern differently from ``regex`` or not at all."""


def required_literals(pattern: str) -> Requirement:
    """What every non-empty match needs: each clause names literals (folded by `case_key`) of which the
    text must contain one. Empty when nothing is provable; the pattern then runs on every text."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "possible nested set" etc.: V1 set syntax the stdlib reads differently
        try:
            parsed = parse_pattern(pattern)
        except (re.error, Warning, RecursionError):
            return ()
    try:
        clauses = _sequence(parsed)
    except UnprovableLiteral:
        return ()
    return tuple(sorted(set(clauses), key=_selectivity, reverse=True))  # the rarest literal is tested first


def _selectivity(clause: Anchors) -> tuple[int, int]:
    """A clause whose shortest literal is long rules out more texts; fewer alternatives, too."""
    return min(map(len, clause)), -len(clause)


def _sequence(items: Iterable[tuple[Any, Any]]) -> list[Anchors]:
    clauses: list[Anchors] = []
    run: list[str] = []
    for op, av in items:
        char = _literal_char(op, av)
        if char is not None:
            run.append(char)
            continue
        if run:
            clauses.extend(_ascii_pieces("".join(run)))
            run = []
        clauses.extend(_required(op, av))
    if run:
        clauses.extend(_ascii_pieces("".join(run)))
    return clauses


def _ascii_pieces(literal: str) -> list[Anchors]:
    """The folded literal's runs of printable ASCII, each required on its own ("marktführ": "marktf", "hr")."""
    return [frozenset({piece}) for piece in _ASCII_PIECE.findall(case_key(literal))]


def _literal_char(op: Any, av: Any) -> str | None:
    if op is LITERAL:
        char = chr(av)
    elif op is IN and av and all(o is LITERAL for o, _ in av):  # [Nn]: one letter in any case
        chars = {case_key(chr(v)) for _, v in av}
        if len(chars) != 1:
            return None
        char = chars.pop()
    else:
        return None
    return _checked(char)


def _checked(char: str) -> str:
    if char in "{}":  # `regex` reads {e<=1} as fuzzy matching, the stdlib as literal text
        raise UnprovableLiteral(char)
    return char


def _required(op: Any, av: Any) -> list[Anchors]:
    if op is SUBPATTERN:
        return _sequence(av[-1])
    if op is ATOMIC_GROUP:
        return _sequence(av)
    if op in REPEATS:
        low, _, item = av
        return _sequence(item) if low >= 1 else []
    if op is IN and av and all(o is LITERAL for o, _ in av):  # [%$], or a|b after the parser's merge
        options = frozenset(case_key(_checked(chr(v))) for _, v in av)
        return [options] if all(_ASCII_PIECE.fullmatch(o) for o in options) else []
    if op is BRANCH:  # one clause: any branch's own most selective clause
        branches = [_sequence(branch) for branch in av[1]]
        if not all(branches):
            return []
        return [frozenset().union(*(max(b, key=_selectivity) for b in branches))]
    return []  # sets, classes, assertions, back-references: no literal to require


class PatternHit(NamedTuple):
    rule_id: str
    start: int
    end: int


class _Rule(NamedTuple):
    rule_id: str
    pattern: regex.Pattern[str]
    scanned: Anchors  # the most selective clause, found by the scan; empty: the rule runs on every text
    checked: tuple[tuple[bytes, ...], ...]  # further clauses, tested by substring search on candidates only


class ClaimPatterns:
    """Compiled claim patterns behind one literal scan: a text is folded and scanned once for the most
    selective literals of every rule, and only rules whose clauses all hold run their regex."""

    def __init__(self, patterns: Iterable[tuple[str, str]]) -> None:
        self._rules = [_rule(rule_id, pattern) for rule_id, pattern in patterns]
        self._always = [index for index, rule in enumerate(self._rules) if not rule.scanned]
        rules_by_spelling: dict[bytes, list[int]] = {}
        for index, rule in enumerate(self._rules):
            for spelling in {s for literal in rule.scanned for s in _sharp_s_spellings(literal)}:
                rules_by_spelling.setdefault(spelling, []).append(index)
        spellings = sorted(rules_by_spelling)
        self._rules_by_needle = [rules_by_spelling[spelling] for spelling in spellings]
        # the characters folding into ASCII come last: finding one means a rescan of the fully folded text
        self.needles: list[bytes] = spellings + [char.encode() for char in _FOLD_INTO_ASCII] if spellings else []
        self._scanner = BytesAhoCorasick(self.needles) if self.needles else None

    @property
    def prefiltered(self) -> int:
        """How many patterns have a literal prefilter (the rest run on every text)."""
        return len(self._rules) - len(self._always)

    def find(
        self, text: str, *, timeout_s: float, folded: bytes | None = None, needles_found: list[int] | None = None
    ) -> tuple[list[PatternHit], list[str]]:
        """Non-empty matches of every pattern, and the ids of patterns that ran out of time.

        ``folded`` is ``fold_to_utf8(text)`` where the caller has it already; ``needles_found``, the indices
        of `needles` occurring in it, where the caller's own scan looked for them (K6's term automaton does).
        """
        hits: list[PatternHit] = []
        timed_out: list[str] = []
        for index in self._candidates(text, folded, needles_found):
            rule = self._rules[index]
            try:
                matches = [m.span() for m in rule.pattern.finditer(text, timeout=timeout_s) if m.end() > m.start()]
            except TimeoutError:
                timed_out.append(rule.rule_id)
                continue
            hits.extend(PatternHit(rule.rule_id, start, end) for start, end in matches)
        return hits, timed_out

    def _candidates(self, text: str, folded: bytes | None, needles_found: list[int] | None) -> list[int]:
        """Indices, in rule order, of the rules whose clauses all hold in the text.

        The lower-cased text holds every printable-ASCII run that ``case_key(text)`` holds, with ß for some "ss"
        (the literals are scanned in those spellings too) – unless a character folds into ASCII some other way
        (ſ → s, ﬁ → fi); the same scan looks for those and, finding one, scans the fully folded text again.
        """
        scanner = self._scanner
        if scanner is None:
            return self._always
        scannable = fold_to_utf8(text) if folded is None else folded
        if needles_found is None:
            needles_found = _needles_in(scanner, scannable)
        if not needles_found:
            return self._always
        if any(index >= len(self._rules_by_needle) for index in needles_found):
            scannable = case_key(text).encode("utf-8", "surrogatepass")
            needles_found = _needles_in(scanner, scannable)
        candidates = {rule for index in needles_found for rule in self._rules_by_needle[index]}
        passing = [
            i for i in candidates if all(any(lit in scannable for lit in clause) for clause in self._rules[i].checked)
        ]
        return sorted([*self._always, *passing]) if passing else self._always


def _needles_in(scanner: BytesAhoCorasick, data: bytes) -> list[int]:
    return [index for index, _, _ in scanner.find_matches_as_indexes(data, overlapping=True)]


def _rule(rule_id: str, pattern: str) -> _Rule:
    """A rule with the clauses worth testing: a single letter or digit occurs in nearly every text, and a literal
    with many s would need too many ß spellings."""
    useful = [
        c
        for c in required_literals(pattern)
        if all((len(lit) > 1 or not lit.isalnum()) and lit.count("s") <= MAX_S_PER_LITERAL for lit in c)
    ]
    scanned = useful[0] if useful else frozenset()
    checked = tuple(tuple({s for literal in clause for s in _sharp_s_spellings(literal)}) for clause in useful[1:])
    return _Rule(rule_id, compile_pattern(pattern), scanned, checked)


def _sharp_s_spellings(literal: str) -> set[bytes]:
    """The literal as the lower-cased text may write it: each "ss" may be a ß, and a leading or trailing "s" may
    be half of one (``(?i:s)sicher`` matches "ßicher", whose literal "sicher" starts inside the ß)."""
    heads = [("", literal)] + ([("ß", literal[1:])] if literal.startswith("s") else [])
    spellings: set[str] = set()
    for head, rest in heads:
        tails = [(rest, "")] + ([(rest[:-1], "ß")] if rest.endswith("s") else [])
        spellings.update(head + middle + tail for body, tail in tails for middle in _ss_as_sharp_s(body))
    return {spelling.encode() for spelling in spellings if spelling}


def _ss_as_sharp_s(text: str) -> set[str]:
    position = text.find("ss")
    if position == -1:
        return {text}
    as_sharp_s = {text[:position] + "ß" + rest for rest in _ss_as_sharp_s(text[position + 2 :])}
    return as_sharp_s | {text[: position + 1] + rest for rest in _ss_as_sharp_s(text[position + 1 :])}
