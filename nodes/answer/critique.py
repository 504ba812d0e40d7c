"""critique_answer: claim-level check; deterministic first, the LLM critic only for what that cannot confirm."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field, ValidationError

from nodes.answer.blocks import evidence_text, format_evidence
from nodes.answer.context import AnswerContext
from nodes.answer.extractive import conflict_side_line
from nodes.answer.premise import CORRECTION
from nodes.answer.prompts import CRITIC_SYSTEM_PROMPT, CRITIC_USER_PROMPT
from nodes.answer.runtime import add_usage, context_of, usage_of
from nodes.answer.services import AnswerServices
from nodes.answer.state import AnswerState, ClaimVerdict, NodeUsage
from nodes.answer.validate import NON_OFFICIAL_MENTION, is_factual, is_refusal
from nodes.settings import ProviderName
from nodes.shared.citations import cited_ids, unsupported_numbers, without_citations
from nodes.shared.llm import ProviderError, classify_provider_error
from stores.kb.models import Hit, KBConflict
from stores.text import split_sentences
from stores.vector.analyzer import analyze

log = logging.getLogger(__name__)

UNSUPPORTED_TERM_SHARE = 0.15
UNCONFIRMED_SCORE = 0.5
MAX_PARALLEL_CRITIC_CALLS = 8  # claims checked at once; a provider's rate limit is the bound, not the CPU


class ClaimCheck(BaseModel):
    """Structured output of the LLM critic."""

    verdict: Literal["supported", "partially", "unsupported"]
    confidence: float = Field(ge=0.0, le=1.0)
    reason: str = ""


def unsupported_terms(claim: str, evidence: Sequence[str]) -> tuple[set[str], int]:
    """Content terms of the claim (lemmatised, folded) that its evidence lacks, and how many terms it has."""
    claim_terms = set(analyze(without_citations(claim)))
    return claim_terms - set(analyze(" ".join(evidence))), len(claim_terms)


def lexically_supported(claim: str, evidence: Sequence[str]) -> bool:
    """At most one new term, or up to 15 % of them: paraphrase passes, new information does not."""
    missing, total = unsupported_terms(claim, evidence)
    return len(missing) <= max(1, int(UNSUPPORTED_TERM_SHARE * total))


def check_claim_deterministically(claim: str, hits: Sequence[Hit], conflicts: Sequence[KBConflict]) -> bool:
    """True when the cited blocks (or their metadata) plainly carry the claim."""
    ids = set(cited_ids(claim))
    if NON_OFFICIAL_MENTION.search(claim) and hits and all(not h.official for h in hits):
        return True
    for conflict in conflicts:
        if ids <= set(conflict.ids) and (
            "⚠" in claim or any(claim.strip() == conflict_side_line(conflict, i) for i in ids)
        ):
            return True
    evidence = [evidence_text(h) for h in hits]
    asserted = CORRECTION.sub("", claim)  # a premise correction asserts only what follows "sondern"
    if unsupported_numbers(asserted, evidence):
        return False
    return lexically_supported(asserted, evidence)


def critique_answer(state: AnswerState, runtime: Runtime[AnswerContext], *, services: AnswerServices) -> dict[str, Any]:
    policy = state["policy"]
    answer = state["answer"]
    if is_refusal(answer, policy):
        return {"claims": [], "confidence": 1.0, "refused": True, "verified": True}
    by_id = {hit.entry_id: hit for hit in state["context_blocks"]}
    claims = [s.text for s in split_sentences(answer) if is_factual(s.text)]  # verbatim, so removal finds them
    verdicts: dict[int, ClaimVerdict] = {}
    for_critic: dict[int, tuple[str, list[Hit]]] = {}
    for position, claim in enumerate(claims):
        hits = [by_id[i] for i in cited_ids(claim) if i in by_id]
        if check_claim_deterministically(claim, hits, state["conflicts"]):
            verdicts[position] = ClaimVerdict(
                claim=claim,
                cited_ids=tuple(cited_ids(claim)),
                verdict="supported",
                confidence=1.0,
                method="deterministic",
            )
        else:
            for_critic[position] = (claim, hits)
    usage: NodeUsage | None = None
    if for_critic:  # one parallel round: the step costs about one model call, however many claims need it
        model = services.chat_model(policy.provider, policy.strictness, model=policy.model)
        for position, (verdict, call_usage) in zip(
            for_critic, ask_critic_parallel(list(for_critic.values()), model, policy.provider), strict=True
        ):
            verdicts[position] = verdict
            usage = add_usage(usage, call_usage) if call_usage else usage
    verdicts_in_order = [verdicts[position] for position in range(len(claims))]
    kept = answer
    for verdict in verdicts_in_order:
        if verdict.verdict == "unsupported":
            kept = kept.replace(verdict.claim, "", 1)
    remaining = [v for v in verdicts_in_order if v.verdict != "unsupported"]
    update: dict[str, Any] = {"claims": verdicts_in_order, "confidence": answer_confidence(remaining), "verified": True}
    if usage is not None:
        update["token_usage"] = {"critique_answer": usage}
    if kept != answer:  # unsupported claims leave the answer; the original stays in the record as draft
        update["draft"] = answer
        update["answer"] = "\n".join(line for line in kept.splitlines() if line.strip()) if remaining else ""
        if not remaining:
            update["confidence"] = 0.0
    return update


def answer_confidence(verdicts: Sequence[ClaimVerdict]) -> float:
    """Mean claim score: supported = its confidence, partially = half of it, unconfirmed = 0.5."""
    if not verdicts:
        return 1.0
    return round(sum(_claim_score(v) for v in verdicts) / len(verdicts), 4)


def _claim_score(verdict: ClaimVerdict) -> float:
    match verdict.verdict:
        case "supported":
            return verdict.confidence
        case "partially":
            return 0.5 * verdict.confidence
        case "unconfirmed":
            return UNCONFIRMED_SCORE
        case "unsupported":
            return 0.0


def ask_critic(
    claim: str, hits: Sequence[Hit], model: BaseChatModel | None, provider: ProviderName
) -> tuple[ClaimVerdict, NodeUsage | None]:
    """The LLM critic's verdict on one claim against its cited hits; "unconfirmed" without a model or answer."""
    return ask_critic_parallel([(claim, hits)], model, provider)[0]


def ask_critic_parallel(
    claims: Sequence[tuple[str, Sequence[Hit]]], model: BaseChatModel | None, provider: ProviderName
) -> list[tuple[ClaimVerdict, NodeUsage | None]]:
    """``ask_critic`` for several claims at once: the calls run concurrently (``.batch``), results keep order."""
    if model is None:
        return [(_unconfirmed(claim), None) for claim, _ in claims]
    critic = model.with_structured_output(ClaimCheck, include_raw=True)
    prompts: list[LanguageModelInput] = [
        [
            SystemMessage(CRITIC_SYSTEM_PROMPT),
            HumanMessage(CRITIC_USER_PROMPT.format(claim=claim, evidence=_evidence(hits))),
        ]
        for claim, hits in claims
    ]
    config: RunnableConfig = {"max_concurrency": MAX_PARALLEL_CRITIC_CALLS}
    results = critic.batch(prompts, config, return_exceptions=True)
    return [_verdict(claim, result, provider) for (claim, _), result in zip(claims, results, strict=True)]


def _evidence(hits: Sequence[Hit]) -> str:
    return "\n\n".join(format_evidence(h) for h in hits) or "(keine)"


def _unconfirmed(claim: str) -> ClaimVerdict:
    return ClaimVerdict(
        claim=claim,
        cited_ids=tuple(cited_ids(claim)),
        verdict="unconfirmed",
        confidence=UNCONFIRMED_SCORE,
        method="none",
        reason="Deterministisch nicht bestätigt; kein LLM-Kritiker verfügbar.",
    )


def _verdict(claim: str, result: object, provider: ProviderName) -> tuple[ClaimVerdict, NodeUsage | None]:
    """One batch result as a verdict; a failed call leaves its claim unconfirmed, anything unexpected is raised."""
    if isinstance(result, BaseException):
        failure = classify_provider_error(provider, result) or result
        if not isinstance(failure, ProviderError | ValueError | ValidationError):
            raise result
        log.warning("critic failed; claim stays unconfirmed: %s", failure)
        return _unconfirmed(claim), None
    assert isinstance(result, dict)
    raw = result.get("raw")
    usage = usage_of(raw) if isinstance(raw, AIMessage) else None
    check = result.get("parsed")
    if not isinstance(check, ClaimCheck):
        return _unconfirmed(claim), usage
    return ClaimVerdict(
        claim=claim,
        cited_ids=tuple(cited_ids(claim)),
        verdict=check.verdict,
        confidence=check.confidence,
        method="llm",
        reason=check.reason,
    ), usage


def route_after_critique_answer(
    state: AnswerState, runtime: Runtime[AnswerContext]
) -> Literal["finalize_answer", "review_answer", "hold_for_review"]:
    ctx = context_of(runtime)
    if state.get("refused") or state["confidence"] >= ctx.confidence_threshold:
        return "finalize_answer"
    return "review_answer" if ctx.review == "interrupt" else "hold_for_review"
