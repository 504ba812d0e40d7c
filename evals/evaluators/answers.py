"""Evaluators of answer-graph outputs: refusals, citations, numbers and the expected behaviour.

``outputs`` is the graph's output record plus ``context``: entry id → evidence text of every hit the
graph retrieved for the question. ``reference_outputs`` holds the expectation (golden set or dataset).
An evaluator returns None where it does not apply (a citation precision of a refusal, say).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import regex

from evals.datasets import Behaviour
from evals.evaluators import EvaluationResult, result
from nodes.answer.premise import in_nominative
from nodes.answer.prompts import STAND_LINE
from nodes.answer.validate import NON_OFFICIAL_MENTION, premise_aware_numbers
from nodes.shared.citations import cited_ids, number_vocabulary, numbers_in
from stores.text import sentence_texts

CORRECTION_CUE = regex.compile(
    r"(?i)\b(?:stimmt\s+nicht|trifft\s+nicht\s+zu|nicht\s+(?:ganz\s+)?(?:korrekt|richtig|zutreffend)|falsch\w*|"
    r"irrtum|irrig\w*|annahme\w*|angenommen|tatsächlich|sondern|vielmehr|entgegen|anders\s+als|berichtig\w*|"
    r"korrigier\w*)\b"
)
_SPACE = regex.compile(r"\s+")
STAND_PREFIX = STAND_LINE.split("{")[0]


def delivered(outputs: Mapping[str, Any]) -> bool:
    return bool(outputs["bucket"] == "delivered")


def answer_body(outputs: Mapping[str, Any]) -> str:
    """The answer without the notices the graph appends (disclaimers, caution notes)."""
    body = str(outputs["answer"])
    for notice in outputs.get("notices", []):
        body = body.replace(notice, "")
    return body.strip()


def normalised(text: str) -> str:
    return str(_SPACE.sub(" ", text)).casefold().strip()


def mentions(text: str, expected: str) -> bool:
    """A number in any equivalent notation (``28,5`` ≡ ``28.5``); other text case- and space-insensitively, a unit
    of time as the entry writes it or in the nominative a correction names it in (``zwei Monaten``, ``zwei Monate``)."""
    tokens = numbers_in(expected)
    if len(tokens) == 1 and tokens[0][0] == expected.strip():
        return bool(tokens[0][1] & number_vocabulary([text]))
    flat = normalised(text)
    return normalised(expected) in flat or normalised(in_nominative(expected)) in flat


def refused(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult:
    """Score 1 when the user got no answer: refused, withheld, or waiting for human review."""
    return result("refused", not delivered(outputs), str(outputs["bucket"]))


def low_score_notice(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """Score 1 when a delivered answer carries the level's low-score notice (disclaimer or soft hint)."""
    if not delivered(outputs):
        return None
    action = outputs.get("low_score_action")
    return result("low_score_notice", action in ("disclaimer", "soft_hint"), str(action))


def gold_span_cited(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """Delivered, cites the gold passage and contains one of the gold answer spans (answerable questions)."""
    return _gold_span_in("gold_span_cited", answer_body(outputs), outputs, reference_outputs)


def gold_span_first(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """Delivered, cites the gold passage, and its first statement holds a gold answer span: the fact first."""
    first = next(iter(statements(answer_body(outputs))), "")
    return _gold_span_in("gold_span_first", first, outputs, reference_outputs)


def _gold_span_in(
    key: str, text: str, outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    if not reference_outputs["answerable"]:
        return None
    cites_gold = reference_outputs["gold_passage"] in outputs["citations"]
    has_span = any(mentions(text, span) for span in reference_outputs["answers"])
    return result(key, delivered(outputs) and cites_gold and has_span)


def statements_per_answer(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """How many statements (bullets, sentences; the Stand line aside) a delivered answer makes."""
    if not delivered(outputs):
        return None
    return result("statements", len(statements(answer_body(outputs))))


def citation_precision(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """Share of the delivered citations that the golden set expects or accepts."""
    cited = outputs["citations"]
    if not delivered(outputs) or not cited or reference_outputs["behaviour"] == "refuse":
        return None
    allowed = set(reference_outputs["citations"]) | set(reference_outputs["acceptable"])
    wrong = [c for c in cited if c not in allowed]
    return result("citation_precision", 1 - len(wrong) / len(cited), f"nicht erwartet: {', '.join(wrong)}")


def citation_recall(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """Share of the required citations the delivered answer carries (a refusal carries none)."""
    required = reference_outputs["citations"]
    if not required:
        return None
    cited = set(outputs["citations"]) if delivered(outputs) else set()
    missing = [c for c in required if c not in cited]
    return result("citation_recall", 1 - len(missing) / len(required), f"fehlt: {', '.join(missing)}")


def citation_validity(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """Share of IDs cited in a delivered answer that name a retrieved entry the output record lists."""
    cited = cited_ids(answer_body(outputs))
    if not delivered(outputs) or not cited:
        return None
    valid = set(outputs["citations"]) & set(outputs["context"])
    invalid = [c for c in cited if c not in valid]
    return result("citation_validity", 1 - len(invalid) / len(cited), f"ungültig: {', '.join(invalid)}")


def unsupported_number(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """Score 1 when a delivered answer asserts a number that none of its cited entries contains (a false
    premise of the question that the answer denies, "nicht 25 …, sondern 30 …", asserts nothing)."""
    if not delivered(outputs):
        return None
    body = answer_body(outputs)
    evidence = [outputs["context"][i] for i in cited_ids(body) if i in outputs["context"]]
    unsupported, repeated = premise_aware_numbers(body, str(inputs.get("question", "")), evidence)
    numbers = unsupported + repeated
    return result("unsupported_number", bool(numbers), ", ".join(numbers))


def grounded_fact(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """Delivered, cites an expected entry and states every expected fact (behaviour aside)."""
    required = set(reference_outputs["citations"])
    if not required:
        return None
    body = answer_body(outputs)
    ok = (
        delivered(outputs)
        and bool(required & set(outputs["citations"]))
        and all(mentions(body, fact) for fact in reference_outputs["must_contain"])
    )
    return result("grounded_fact", ok)


def behaviour_matches(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult:
    """Whether the output shows the expected behaviour; the comment names what was missing."""
    expected: Behaviour = reference_outputs["behaviour"]
    body = answer_body(outputs)
    required = set(reference_outputs["citations"])
    fact = grounded_fact(inputs, outputs, reference_outputs)
    has_fact = fact is not None and fact["score"] == 1.0
    match expected:
        case "refuse":
            checks = {"abgelehnt": not delivered(outputs)}
        case "answer":
            checks = {"belegte Antwort": has_fact}
        case "conflict":
            checks = {"ausgeliefert": delivered(outputs), "⚠": "⚠" in body}
            checks["beide IDs"] = required <= set(outputs["citations"])
        case "clarify":
            sentences = sentence_texts(body)
            questions = [s for s in sentences if s.endswith("?")]
            asks_back = len(questions) == 1 and sentences[-1] == questions[0]
            checks = {"belegte Antwort": has_fact, "eine Rückfrage am Ende": asks_back}
        case "correct_premise":
            checks = {"belegte Antwort": has_fact, "Berichtigung": bool(CORRECTION_CUE.search(body))}
        case "flag_non_official":
            checks = {"belegte Antwort": has_fact, "als nicht amtlich benannt": bool(NON_OFFICIAL_MENTION.search(body))}
        case _:
            raise ValueError(f"unbekanntes Verhalten: {expected}")
    missing = [name for name, ok in checks.items() if not ok]
    return result("behaviour", not missing, f"fehlt: {', '.join(missing)}" if missing else "")


# --- whole sentences -------------------------------------------------------------------------------------

_BULLET = regex.compile(r"^\s*(?:[-*•]|\d+\.)\s+")
_TRAILER = regex.compile(r"(?:\s*(?:\(Stand[^()]*\)|\[[^\[\]]+\]))+\s*([.!?:;]?)\s*$")
_ENUMERATOR = regex.compile(r"^(?:\(\d+[a-z]?\)|\d+[a-z]?\.|[a-z]\))\s+")
_STARTS_SENTENCE = regex.compile(r"^[\p{Lu}\d„\"§(«»]")
_BOUNDARY_BEFORE = regex.compile(r"(?:^|[.!?:;]\s*[\"“”)]?|\(\d+[a-z]?\)|(?:^|\s)\d+[a-z]?\.)\s*$")


def answer_units(body: str) -> list[str]:
    """What the reader reads as one statement: each bullet, and each sentence of prose that is no intro line."""
    units: list[str] = []
    for line in body.splitlines():
        if not line.strip():
            continue
        if _BULLET.match(line):
            units.append(_BULLET.sub("", line, count=1).strip())
        else:
            units += [s for s in sentence_texts(line) if not s.rstrip().endswith(":")]
    return units


def statements(body: str) -> list[str]:
    """The answer's units without its Stand line."""
    return [u for u in answer_units(body) if not u.startswith(STAND_PREFIX)]


def whole_sentence(unit: str, evidence: Sequence[str]) -> bool:
    """A unit is a whole sentence: it starts like one, ends with . ! or ?, carries no "(Stand …)" inside,
    and where its words stand verbatim in a cited entry, they start and end there at a sentence boundary
    (a hard-wrapped line cut out of a statute does not)."""
    text = unit.strip()
    trailer = _TRAILER.search(text)
    if trailer is not None:
        text = text[: trailer.start()].rstrip() + trailer.group(1)
    if "(Stand" in text or not text.endswith((".", "!", "?")):
        return False
    if not _STARTS_SENTENCE.match(_ENUMERATOR.sub("", text, count=1)):
        return False
    core = normalised(text[:-1]).rstrip()
    placed = False
    for source in evidence:
        flat = normalised(source)
        at = flat.find(core)
        while at >= 0:
            placed = True
            after = flat[at + len(core) :].lstrip()
            if _BOUNDARY_BEFORE.search(flat[:at]) and (not after or after[0] in ".!?;:"):
                return True
            at = flat.find(core, at + 1)
    return not placed


def not_whole_sentences(outputs: Mapping[str, Any]) -> tuple[int, int]:
    """(units that are no whole sentence, units) of a delivered answer, judged against the texts of its
    cited entries (``outputs["texts"]``: entry id → text)."""
    if not delivered(outputs):
        return 0, 0
    body = answer_body(outputs)
    evidence = [outputs["texts"][i] for i in outputs["citations"] if i in outputs["texts"]]
    units = answer_units(body)
    return sum(not whole_sentence(u, evidence) for u in units), len(units)


# --- the issue-11 question sets -------------------------------------------------------------------------


def facts_in_answer(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """Delivered and every expected fact in the answer text (citations aside)."""
    facts = reference_outputs["expected_facts"]
    if not facts:
        return None
    body = answer_body(outputs)
    missing = [f for f in facts if not mentions(body, f)]
    return result("fact_in_answer", delivered(outputs) and not missing, f"fehlt: {', '.join(missing)}")


def fact_first(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """An answer that states every expected fact states one of them in its first statement: the reader gets the
    fact before its context. None where the answer is missing or lacks a fact (``facts_in_answer`` counts that), and
    for a false premise, whose correction leads by design."""
    facts = reference_outputs["expected_facts"]
    body = answer_body(outputs)
    if reference_outputs.get("correct_value") is not None:
        return None
    if not facts or not delivered(outputs) or not all(mentions(body, f) for f in facts):
        return None
    first = next(iter(statements(body)), "")
    return result("fact_first", any(mentions(first, f) for f in facts), first)


def gold_cited(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """Delivered and a gold entry among the citations."""
    gold = set(reference_outputs["gold_ids"])
    if not gold:
        return None
    return result("gold_cited", delivered(outputs) and bool(gold & set(outputs["citations"])))


def premise_corrected(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """A false premise corrected: delivered, gold cited, the correct value stated in the correction itself."""
    correct = reference_outputs.get("correct_value")
    if correct is None:
        return None
    body = answer_body(outputs)
    correction = correction_text(body, str(reference_outputs.get("wrong_value") or ""))
    checks = {
        "ausgeliefert": delivered(outputs),
        "Goldbeleg": bool(set(reference_outputs["gold_ids"]) & set(outputs["citations"])),
        "Berichtigung": correction is not None,
        "richtiger Wert": mentions(body if correction is None else correction, correct),
    }
    missing = [name for name, ok in checks.items() if not ok]
    return result("premise_corrected", not missing, f"fehlt: {', '.join(missing)}" if missing else "")


def correction_text(body: str, wrong: str) -> str | None:
    """The sentence that corrects the premise: the first with a correction cue; where it names neither the
    wrong value nor any number („Das stimmt nicht."), with the sentence after it. A right value elsewhere in
    the answer (a quoted KB sentence that gives both values) does not make a correction with another one right."""
    sentences = sentence_texts(body)
    for index, sentence in enumerate(sentences):
        if CORRECTION_CUE.search(sentence):
            named = (bool(wrong) and mentions(sentence, wrong)) or bool(numbers_in(sentence))
            return sentence if named else " ".join(sentences[index : index + 2])
    return None


def asks_back_once(
    inputs: Mapping[str, Any], outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]
) -> EvaluationResult | None:
    """Missing context: delivered, a gold entry cited, and exactly one question, at the end."""
    if reference_outputs.get("dimension") is None:
        return None
    sentences = sentence_texts(answer_body(outputs))
    questions = [s for s in sentences if s.endswith("?")]
    ok = (
        delivered(outputs)
        and bool(set(reference_outputs["gold_ids"]) & set(outputs["citations"]))
        and len(questions) == 1
        and sentences[-1] == questions[0]
    )
    return result("asks_back_once", ok)


def supported_answer(outputs: Mapping[str, Any], reference_outputs: Mapping[str, Any]) -> bool:
    """What the answer confidence estimates: a delivered answer that is correct and supported.

    Out of KB: never (the KB holds no answer). False premise: corrected. Otherwise: a gold entry cited and
    every expected fact stated.
    """
    if not delivered(outputs) or not reference_outputs["gold_ids"]:
        return False
    if reference_outputs.get("correct_value") is not None:
        check = premise_corrected({}, outputs, reference_outputs)
        return check is not None and check["score"] == 1.0
    body = answer_body(outputs)
    cites = bool(set(reference_outputs["gold_ids"]) & set(outputs["citations"]))
    return cites and all(mentions(body, fact) for fact in reference_outputs["expected_facts"])
