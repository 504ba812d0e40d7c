"""K1 node: identity coherence in two stages, embedding similarity per sentence, then an LLM adjudicator."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.evidence import evidence_for, locate_passage
from nodes.scorecard.judge import ask_judge
from nodes.scorecard.judgements import IdentityJudgement
from nodes.scorecard.prompts import IDENTITY_SYSTEM, IDENTITY_USER
from nodes.scorecard.results import CriterionResult, Method, Reason, Verdict
from nodes.scorecard.sentences import Sentence, split_sentences
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardState
from nodes.scorecard.vectors import dna_passage_vectors, similarities
from nodes.scorecard.verdicts import NO_LLM, UNPARSEABLE, elapsed_ms, judge_model, not_assessed_reason, provider_of
from stores.brand.models import BrandDNA
from stores.vector.embedders import Embedder

RULE_TEXT = "Der Text ist kohärent mit dem Identitätskern der Marke"
DISAGREEMENT_CONFIDENCE = 0.5


def identity_core_text(dna: BrandDNA) -> str:
    return " ".join((dna.identity_core.statement, *dna.identity_core.claims))


def sentence_similarities(embedder: Embedder, core: str, sentences: list[Sentence]) -> list[float]:
    """Cosine similarity of each sentence to the identity core (symmetric task: both sides as passages)."""
    vectors = np.asarray(embedder.embed_passages([s.text for s in sentences]), dtype=np.float32)
    return similarities(vectors, dna_passage_vectors(embedder, (core,))[0])


def check_identity(
    state: ScorecardState, runtime: Runtime[ScorecardContext], *, services: ScorecardServices
) -> dict[str, Any]:
    ctx = runtime.context or ScorecardContext()
    started = time.perf_counter()
    text, dna = state["text"], state["dna"]
    sentences = split_sentences(text)
    methods: list[Method] = []
    metrics: dict[str, Any] = {}
    similarity: float | None = None
    embedder = services.embedder if ctx.use_embeddings else None
    if embedder is not None and sentences:
        methods.append("embedding")
        sims = sentence_similarities(embedder, identity_core_text(dna), sentences)
        similarity = round(float(np.mean(sorted(sims, reverse=True)[:3])), 4)
        weakest = int(np.argmin(sims))
        metrics |= {"similarity": similarity, "sentence_similarities": sims, "weakest_sentence": weakest}
    update: dict[str, Any] = {}
    reasons: list[Reason] = []
    confidence: float | None = None
    verdict: Verdict = "not_assessed"
    model = judge_model(services, ctx)
    if model is None:
        reasons.append(not_assessed_reason("K1", NO_LLM))
    else:
        methods.append("llm")
        judgement, call = ask_judge(
            model,
            provider_of(services, ctx),
            IdentityJudgement,
            criterion="K1",
            system=IDENTITY_SYSTEM,
            user=IDENTITY_USER.format(
                identity_core=identity_core_text(dna),
                guardrails=", ".join(t.term for t in dna.guardrails.forbidden_terms) or "(keine)",
                similarity="nicht gemessen"
                if similarity is None
                else f"{similarity:.2f} (Schwelle {ctx.thresholds.identity_similarity:.2f})",
                text=text,
            ),
        )
        update["llm_calls"] = [call]
        if judgement is None:
            reasons.append(not_assessed_reason("K1", UNPARSEABLE))
        else:
            verdict, confidence = _adjudicate(judgement, similarity, ctx.thresholds.identity_similarity)
            metrics["llm_verdict"] = judgement.verdict
            metrics["fitting_passages"] = [
                e.model_dump() for p in judgement.fitting_passages[:2] if (e := locate_passage(text, sentences, p))
            ]
            reasons += _reasons(
                text, sentences, judgement, verdict, similarity, metrics, ctx.thresholds.identity_similarity
            )
    result = CriterionResult(
        criterion="K1",
        verdict=verdict,
        confidence=confidence,
        methods=tuple(methods),
        reasons=tuple(reasons),
        metrics=metrics,
        latency_ms=elapsed_ms(started),
    )
    return update | {"criteria": {"K1": result}}


def _adjudicate(judgement: IdentityJudgement, similarity: float | None, threshold: float) -> tuple[Verdict, float]:
    """contradicts ❌, mixed ⚠, coherent ✔ unless the embedding disagrees (then ⚠ with lowered confidence)."""
    if judgement.verdict == "contradicts":
        return "fail", judgement.confidence
    if judgement.verdict == "mixed":
        return "warn", judgement.confidence
    if similarity is not None and similarity < threshold:
        return "warn", min(judgement.confidence, DISAGREEMENT_CONFIDENCE)
    return "pass", judgement.confidence


def _reasons(
    text: str,
    sentences: list[Sentence],
    judgement: IdentityJudgement,
    verdict: Verdict,
    similarity: float | None,
    metrics: dict[str, Any],
    threshold: float,
) -> list[Reason]:
    if verdict == "pass":
        return []
    reasons = [
        Reason(
            rule_id="ID-COH-002",
            rule_text=RULE_TEXT,
            criterion="K1",
            explanation=f"Widerspricht dem Identitätskern: {judgement.explanation}",
            evidence=evidence,
            fix_suggestion="Die Stelle so fassen, dass sie aus dem Identitätskern folgt, oder streichen.",
        )
        for passage in judgement.contradicting_passages[:2]
        if (evidence := locate_passage(text, sentences, passage)) is not None
    ]
    if judgement.verdict == "mixed" and not reasons:
        reasons.append(
            Reason(rule_id="ID-COH-001", rule_text=RULE_TEXT, criterion="K1", explanation=judgement.explanation)
        )
    if judgement.verdict == "coherent" and similarity is not None and similarity < threshold:
        weakest = sentences[metrics["weakest_sentence"]]
        reasons.append(
            Reason(
                rule_id="ID-COH-003",
                rule_text=RULE_TEXT,
                criterion="K1",
                explanation=(
                    f"Der LLM-Richter hält den Text für kohärent, die Embedding-Nähe zum Kern ist aber gering"
                    f" ({similarity:.2f} < {threshold:.2f}); am fernsten ist dieser Satz."
                ),
                evidence=evidence_for(text, sentences, weakest.start, weakest.end),
                fix_suggestion="Den Bezug zum Identitätskern ausdrücklich machen.",
            )
        )
    return reasons
