"""validate_answer: deterministic checks that decide whether a draft may go on, be regenerated or withheld."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

import regex

from nodes.answer.acts import repeated_acts
from nodes.answer.blocks import evidence_text
from nodes.answer.instructions import WithheldText
from nodes.answer.premise import quantities
from nodes.answer.prompts import BRAND_RULE_BROKEN, BRAND_RULE_UNCHECKED
from nodes.answer.state import AnswerState, ResolvedPolicy
from nodes.shared.brand.boundaries import find_boundary_violations
from nodes.shared.citations import (
    cited_ids,
    negated_numbers,
    number_forms,
    number_vocabulary,
    numbers_in,
    unsupported_numbers,
    without_citations,
)
from stores.brand.models import Guardrails
from stores.kb.models import Hit, KBConflict
from stores.text import sentence_texts
from stores.vector.analyzer import analyze

MIN_FACTUAL_TERMS = 4
MAX_LISTED = 3
NON_OFFICIAL_MENTION = regex.compile(r"(?i)nicht[\s-]*amtlich|inoffiziell|keine\s+amtliche")
_TAKES_SIDES = regex.compile(
    r"(?i)\b(?:maßgeblich\w*|verbindlicher\w*|aktueller\w*|spezifischer\w*|vorrangig\w*|gilt\s+vorrang|"
    r"ist\s+(?:richtig|korrekt|zutreffend)|setzt\s+sich\s+durch)\b"
)
_LEAK = regex.compile(
    r"(?i)\b(?:regel\s+\d+|gemäß\s+(?:den\s+|meinen\s+)?(?:regeln|vorgaben)|system-?prompt|meine[nr]?\s+"
    r"(?:anweisungen|vorgaben)|kontextbl(?:ock|öcke)\w*|block\s+\d+)\b"
)


def is_factual(sentence: str) -> bool:
    """A statement that needs evidence: not a question, not a lead-in, and a number or enough content words."""
    stripped = sentence.strip()
    if not stripped or stripped.endswith(("?", ":")):
        return False
    body = without_citations(stripped)
    return bool(numbers_in(body)) or len(analyze(body)) >= MIN_FACTUAL_TERMS


def is_refusal(answer: str, policy: ResolvedPolicy) -> bool:
    """Only the refusal (or uncertain) sentence and nothing factual besides it."""
    rest = answer
    for sentence in (policy.refusal_message, policy.uncertain_message):
        rest = rest.replace(sentence, " ")
    if rest == answer:
        return False
    return not any(is_factual(s) for s in sentence_texts(rest))


def find_violations(
    answer: str, question: str, blocks: Sequence[Hit], conflicts: Sequence[KBConflict], policy: ResolvedPolicy
) -> list[str]:
    """Every reason the answer may not be delivered as it stands, in German (they are fed back to the model)."""
    if not answer.strip():
        return ["Die Antwort ist leer."]
    allowed = {hit.entry_id: hit for hit in blocks}
    cited = cited_ids(answer)
    violations = []
    invented = [i for i in cited if i not in allowed]
    if invented:
        violations.append(f"Zitierte IDs, die nicht im Kontext stehen: {', '.join(invented)}.")
    if is_refusal(answer, policy):
        return violations
    sentences = sentence_texts(answer)
    uncited = [s for s in sentences if is_factual(s) and not cited_ids(s)]
    if not cited:
        violations.append("Die Antwort belegt keine Aussage mit einer ID.")
    elif uncited:
        listed = "; ".join(f"„{s[:80]}“" for s in uncited[:MAX_LISTED])
        violations.append(f"Aussagen ohne Beleg: {listed}.")
    evidence = [evidence_text(allowed[i]) for i in cited if i in allowed]
    numbers, repeated = premise_aware_numbers(answer, question, evidence)
    repeated += repeated_acts(answer, question, blocks, [allowed[i] for i in cited if i in allowed])
    if repeated:
        violations.append(f"Die Antwort übernimmt eine falsche Annahme der Frage als Tatsache: {', '.join(repeated)}.")
    if numbers:
        violations.append(f"Zahlen, die in keinem zitierten Block stehen: {', '.join(dict.fromkeys(numbers))}.")
    violations += _conflict_violations(answer, question, sentences, set(allowed), conflicts)
    used_unofficial = [i for i in cited if i in allowed and not allowed[i].official]
    if used_unofficial and not NON_OFFICIAL_MENTION.search(answer):
        violations.append(f"Nicht amtliche Quelle ohne Hinweis darauf verwendet: {', '.join(used_unofficial)}.")
    if _LEAK.search(answer):
        violations.append("Die Antwort erwähnt interne Vorgaben oder Blocknummern.")
    if policy.brand_guardrails is not None:
        violations += brand_violations(answer, policy.brand_guardrails)
    return violations


def premise_aware_numbers(answer: str, question: str, evidence: list[str]) -> tuple[list[str], list[str]]:
    """(unsupported numbers, false-premise numbers repeated as fact).

    A number of the question that no cited block contains is a false premise. The answer may name it only to
    deny it ("Laut Wissensbasis nicht 25 …, sondern 30 … [id]"); every other mention repeats the premise.
    """
    # statutes write values in words („fünfzigtausend Euro", „das vierzigste Lebensjahr"): an answer that writes
    # them in digits states what the block says — the same value of the same thing in the same unit („sechs Wochen"
    # says „6 Wochen", neither „42 Tage" nor „6 Arbeitstage")
    worded = {(q.unit, q.written_in, form) for text in evidence for q in quantities(text) for form in q.stated}
    unsupported = [n for n in unsupported_numbers(answer, evidence) if not number_forms(n) & _in_words(answer, worded)]
    premise = {n for n in unsupported_numbers(question, evidence) if not number_forms(n) & _in_words(question, worded)}
    mentions = Counter(token for token, _ in numbers_in(answer))
    denied = Counter(negated_numbers(answer))
    repeated = sorted(t for t in premise if mentions[t] > denied[t])
    return [n for n in unsupported if n not in premise], repeated


def _in_words(text: str, worded: set[tuple[str, str, str]]) -> frozenset[str]:
    """The values of the text's quantities that a block states in words, as the same kind of quantity."""
    return frozenset(form for q in quantities(text) for form in q.stated if (q.unit, q.written_in, form) in worded)


def brand_violations(answer: str, guardrails: Guardrails) -> list[str]:
    """The bot's brand boundaries (scorecard K6), checked deterministically; a rule that timed out fails closed."""
    report = find_boundary_violations(answer, guardrails)
    problems = [
        BRAND_RULE_BROKEN.format(
            rule_id=reason.rule_id,
            quote=reason.evidence.quote if reason.evidence else "",
            fix=reason.fix_suggestion or reason.explanation,
        )
        for reason in report.violations
    ]
    if report.timed_out_rules:
        problems.append(BRAND_RULE_UNCHECKED.format(rules=", ".join(report.timed_out_rules)))
    return problems


def _conflict_violations(
    answer: str, question: str, sentences: list[str], in_context: set[str], conflicts: Sequence[KBConflict]
) -> list[str]:
    """A declared conflict with both sides in context must be shown openly when the answer touches it."""
    problems = []
    cited = set(cited_ids(answer))
    for conflict in conflicts:
        ids = set(conflict.ids)
        if not conflict_applies(conflict, question, in_context, cited):
            continue
        if "⚠" not in answer or not ids <= cited:
            both = " und ".join(f"[{i}]" for i in conflict.ids)
            problems.append(f"Der Quellenkonflikt „{conflict.topic}“ muss mit ⚠ und {both} offen dargestellt werden.")
        elif any(_TAKES_SIDES.search(s) and set(cited_ids(s)) & ids for s in sentences):
            problems.append(
                f"Der Quellenkonflikt „{conflict.topic}“ darf nicht zugunsten einer Quelle aufgelöst werden."
            )
    return problems


def conflict_applies(conflict: KBConflict, question: str, in_context: set[str], cited: set[str]) -> bool:
    """Both sides are in context and the question asks about the topic or the answer cites a side."""
    topic_terms = set(analyze(conflict.topic))
    asked = bool(topic_terms) and len(topic_terms & set(analyze(question))) * 2 >= len(topic_terms)
    return set(conflict.ids) <= in_context and (asked or bool(set(conflict.ids) & cited))


def executed_instructions(
    answer: str, question: str, blocks: Sequence[Hit], withheld: Sequence[WithheldText]
) -> list[str]:
    """Answer sentences that carry out an instruction found in the context (and withheld from it).

    A sentence carries it out when it states what only the withheld text says: a number that no passed-on
    block or the question contains, or at least two content words found nowhere but in the withheld text.
    """
    if not withheld:
        return []
    clean = [evidence_text(hit) for hit in blocks] + [question]
    clean_terms = {term for text in clean for term in analyze(text)}
    clean_numbers = number_vocabulary(clean)
    withheld_terms = {term for item in withheld for term in analyze(item.text)} - clean_terms
    withheld_numbers = number_vocabulary([item.text for item in withheld]) - clean_numbers
    problems = []
    for sentence in sentence_texts(answer):
        body = without_citations(sentence)
        numbers = [token for token, forms in numbers_in(body) if forms & withheld_numbers]
        words = set(analyze(body)) & withheld_terms
        if numbers or len(words) >= 2:
            problems.append(sentence)
    if not problems:
        return []
    sources = ", ".join(dict.fromkeys(item.entry_id for item in withheld))
    listed = "; ".join(f"„{s[:80]}“" for s in problems[:MAX_LISTED])
    return [f"Die Antwort folgt einer Anweisung aus dem Kontext ({sources}), die kein Beleg ist: {listed}."]


def validate_answer(state: AnswerState) -> dict[str, Any]:
    violations = find_violations(
        state["answer"], state["question_for_model"], state["context_blocks"], state["conflicts"], state["policy"]
    )
    violations += executed_instructions(
        state["answer"], state["question_for_model"], state["context_blocks"], state.get("withheld_instructions", [])
    )
    return {"violations": violations}


def route_after_validate_answer(
    state: AnswerState,
) -> Literal["critique_answer", "regenerate_answer", "withhold_answer"]:
    """Exactly one regeneration; the extractive provider has no model to regenerate with."""
    if not state["violations"]:
        return "critique_answer"
    if state.get("regenerations", 0) < 1 and state["policy"].provider != "extractive":
        return "regenerate_answer"
    return "withhold_answer"
