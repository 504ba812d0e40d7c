"""The claim-pattern prefilter: which literals a pattern requires, and that it never hides a match."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from regex import _regex as regex_engine
from regex._regex_core import FULL_CASE_FOLDING, IGNORECASE, UNICODE

from nodes.shared.brand.boundaries import BoundaryMatcher
from nodes.shared.brand.claim_patterns import _FOLD_INTO_ASCII, ClaimPatterns, case_key, required_literals
from stores.brand.models import Guardrails, compile_pattern


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        (r"\bNr\.\s?\d+\b", [{"nr."}]),
        (r"\b\d+\s?(?:%|Prozent)", [{"%", "prozent"}]),
        (r"\bMarktführ\w*", [{"marktf"}, {"hr"}]),  # printable-ASCII pieces, each required
        (r"\bohne\s+Risiko\b", [{"risiko"}, {"ohne"}]),  # every required word, the longest first
        (r"[Nn]r\. ?1", [{"nr."}, {"1"}]),
        (r"Straße", [{"strasse"}]),  # case-folded: ß and SS are one literal
        (r"[%$]\s*sicher", [{"sicher"}, {"%", "$"}]),
        (r"[%‰]\s*sicher", [{"sicher"}]),  # a set with a non-ASCII member requires no scannable literal
        (r"x|y", [{"x", "y"}]),
        # the parser factors out the common "e"; each branch then contributes its most selective literal
        (r"\b(?:weltweit|europaweit)\s+(?:erste|einzige)\w*", [{"weltweit", "europaweit"}, {"rste", "inzige"}, {"e"}]),
        (r"(?:Spitzen|Top)-?(?:Qualität|Leistung)?", [{"spitzen", "top"}]),  # the optional part requires nothing
        (r"Größe|Maß", [{"sse", "mass"}]),  # ß folds to ss: "grösse" keeps "gr" and "sse"
    ],
)
def test_required_literals(pattern: str, literals: list[set[str]]) -> None:
    assert required_literals(pattern) == tuple(frozenset(c) for c in literals)


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?:Marktführer)?",  # optional only
        r"\d+\s?%?|Spitze",  # one branch without a literal
        r"Marktf(?:ü){e<=1}hrer",  # `regex` fuzzy matching: the literal need not occur
        r"[[a-z]--[aeiou]]+",  # V1 set difference, read differently by the stdlib parser
        r"\p{Lu}{3,}",  # `regex`-only syntax
        r"(?<claim>Marktführer)",  # group syntax the stdlib parser of Python 3.11 does not know
    ],
)
def test_patterns_without_provable_literals_always_run(pattern: str) -> None:
    assert required_literals(pattern) == ()


def test_a_literal_with_too_many_s_is_not_prefiltered() -> None:
    rules = [("GR-CLAIM-001", "s" * 30), ("GR-CLAIM-002", r"Risiko\s" + "s" * 30)]
    patterns = ClaimPatterns(rules)
    assert patterns.prefiltered == 1  # "risiko" still prefilters the second rule
    text = "ß" * 15 + " Risiko " + "S" * 30
    expected = [(rule_id, m.span()) for rule_id, pattern in rules for m in compile_pattern(pattern).finditer(text)]
    hits, _ = patterns.find(text, timeout_s=1)
    assert [(h.rule_id, (h.start, h.end)) for h in hits] == expected
    assert {rule_id for rule_id, _ in expected} == {"GR-CLAIM-001", "GR-CLAIM-002"}


def test_find_skips_texts_without_the_literal_and_reports_spans() -> None:
    patterns = ClaimPatterns([("GR-CLAIM-001", r"\bNr\.\s?1\b"), ("GR-CLAIM-002", r"\b\d{4}\b")])
    assert patterns.prefiltered == 1
    hits, timed_out = patterns.find("Wir sind NR. 1 seit 2020.", timeout_s=1)
    assert [(h.rule_id, h.start, h.end) for h in hits] == [("GR-CLAIM-001", 9, 14), ("GR-CLAIM-002", 20, 24)]
    assert timed_out == []
    assert patterns.find("Wir sind die Nummer eins.", timeout_s=1) == ([], [])


def test_case_key_agrees_with_the_regex_case_tables() -> None:
    """Every character the engine matches case-insensitively with another one gets the same key (planes 0–1
    hold every cased script; ideographs beyond have no case)."""
    for code in range(0x20000):
        char = chr(code)
        if 0xD800 <= code < 0xE000:
            continue
        key = case_key(char)
        assert case_key(regex_engine.fold_case(FULL_CASE_FOLDING, char)) == key, hex(code)
        for other in regex_engine.get_all_cases(UNICODE | IGNORECASE, code):
            assert case_key(chr(other)) == key, (hex(code), hex(other))


def test_the_characters_folding_into_ascii_are_complete() -> None:
    """The prefilter scans the lower-cased text unless one of these occurs; ß is rewritten as ss instead."""
    folds_into_ascii = {
        chr(code)
        for code in range(0x80, 0x20000)
        if not 0xD800 <= code < 0xE000
        and chr(code) != "ß"
        and ((key := case_key(chr(code))) == "" or any(ord(char) < 0x80 for char in key))
    }
    assert folds_into_ascii == set(_FOLD_INTO_ASCII)


@pytest.mark.parametrize("text", ["Die Straße", "DIE STRASSE", "die Straſſe", "Die STRAẞE"])
def test_sharp_s_and_ss_are_one_literal_in_the_shared_scan(text: str) -> None:
    guardrails = Guardrails.model_validate(
        {"forbidden_patterns": [{"id": "GR-CLAIM-001", "pattern": r"\bStrasse\b", "description": "Test"}]}
    )
    hits, _ = BoundaryMatcher(guardrails).find_hits(text)
    assert [(h.rule_id, text[h.start : h.end].lower()) for h in hits] == [("GR-CLAIM-001", text[4:].lower())]


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (r"(?i:s)sicher", "Maßicher"),  # the literal "sicher" starts with the second half of ß
        (r"kostenlos(?i:s)", "KOSTENLOß"),  # the literal "kostenlos" ends with the first half of ß
    ],
)
def test_a_literal_may_begin_or_end_inside_a_sharp_s(pattern: str, text: str) -> None:
    assert [m.span() for m in compile_pattern(pattern).finditer(text)]  # the engine matches half a ß
    guardrails = Guardrails.model_validate(
        {"forbidden_patterns": [{"id": "GR-CLAIM-001", "pattern": pattern, "description": "Test"}]}
    )
    hits, _ = BoundaryMatcher(guardrails).find_hits(text)
    assert [h.rule_id for h in hits] == ["GR-CLAIM-001"]


# Characters whose case-insensitive matches cross scripts or lengths: ß/ẞ/ss/U+1DF95, ſ/s, K (Kelvin)/k,
# İ/ı/i, ligatures, and ɤ/Ɤ (a pair newer than Python 3.11's Unicode tables).
TRICKY = "aAsSßẞ\U0001df95ſkKKiIİıtTﬆﬅfFﬁﬀlLüÜuUeEɤ\ua7cb .%1-\u0307"
_atom = st.one_of(
    st.sampled_from(TRICKY).map(lambda c: "\\" + c if c in ".%-" else c),
    st.sampled_from(["ss", "st", "fi", "masse", "ist"]),
    st.sampled_from([r"\s", r"\d", r"\w", ".", r"\b", "[sS]", "[ßs]", "[a-f]", "[^a]"]),
)
_pattern = st.recursive(
    _atom,
    lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=4).map("".join),
        st.tuples(inner, inner).map(lambda p: f"(?:{p[0]}|{p[1]})"),
        st.tuples(inner, st.sampled_from(["?", "+", "*", "{1,2}", "{2}"])).map(lambda p: f"(?:{p[0]}){p[1]}"),
    ),
    max_leaves=8,
)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(patterns=st.lists(_pattern, min_size=1, max_size=3), text=st.text(alphabet=TRICKY, max_size=24))
def test_prefilter_never_hides_a_match(patterns: list[str], text: str) -> None:
    rules = [(f"GR-CLAIM-{i:03d}", pattern) for i, pattern in enumerate(patterns)]
    expected = [
        (rule_id, m.span())
        for rule_id, pattern in rules
        for m in compile_pattern(pattern).finditer(text)
        if m.end() > m.start()
    ]
    hits, timed_out = ClaimPatterns(rules).find(text, timeout_s=5)
    assert not timed_out
    assert [(h.rule_id, (h.start, h.end)) for h in hits] == expected
    # the same through K6, which hands the claims its lower-cased text
    guardrails = Guardrails.model_validate(
        {"forbidden_patterns": [{"id": i, "pattern": p, "description": "Test"} for i, p in rules]}
    )
    boundary_hits, _ = BoundaryMatcher(guardrails).find_hits(text)
    assert sorted((h.rule_id, (h.start, h.end)) for h in boundary_hits) == sorted(set(expected))
