"""K1 node: identity coherence in two stages, embedding similarity per sentence, then an LLM adjudicator."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.judge import consult_judge
from nodes.scorecard.judgements import IdentityJudgement
from nodes.scorecard.prompts import IDENTITY_SYSTEM, IDENTITY_USER
from nodes.scorecard.results import CriterionResult, Method, ReasonTemplate, Verdict
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardState
from nodes.scorecard.vectors import dna_passage_vectors, similarities
from nodes.scorecard.verdicts import elapsed_ms
from nodes.shared.brand.evidence import evidence_for, locate_passage
from nodes.shared.brand.reasons import Reason
from stores.brand.models import BrandDNA
from stores.text import Sentence, split_sentences
from stores.vector.embedders import Embedder

RULE_TEXT = "Der Text ist kohärent mit dem Identitätskern der Marke"
PARTIAL = ReasonTemplate("ID-COH-001", RULE_TEXT, "K1")
CONTRADICTION = ReasonTemplate(
    "ID-COH-002", RULE_TEXT, "K1", "Die Stelle so fassen, dass sie aus dem Identitätskern folgt, oder streichen."
)
DISTANT = ReasonTemplate("ID-COH-003", RULE_TEXT, "K1", "Den Bezug zum Identitätskern ausdrücklich machen.")
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
    methods: tuple[Method, ...] = ()
    metrics: dict[str, Any] = {}
    similarity: float | None = None
    embedder = services.embedder if ctx.use_embeddings else None
    if embedder is not None and sentences:
        methods = ("embedding",)
        sims = sentence_similarities(embedder, identity_core_text(dna), sentences)
        similarity = round(float(np.mean(sorted(sims, reverse=True)[:3])), 4)
        weakest = int(np.argmin(sims))
        metrics |= {"similarity": similarity, "sentence_similarities": sims, "weakest_sentence": weakest}
    measured = "nicht gemessen" if similarity is None else f"{similarity:.2f}"
    outcome = consult_judge(
        services,
        ctx,
        IdentityJudgement,
        criterion="K1",
        system=IDENTITY_SYSTEM,
        user=IDENTITY_USER.format(
            identity_core=identity_core_text(dna),
            guardrails=", ".join(t.term for t in dna.guardrails.forbidden_terms) or "(keine)",
            similarity=f"{measured} (Schwelle {ctx.thresholds.identity_similarity:.2f})",
            text=text,
        ),
    )
    reasons = list(outcome.missing)
    confidence: float | None = None
    verdict: Verdict = "not_assessed"
    if outcome.judgement is not None:
        judgement = outcome.judgement
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
        methods=(*methods, *outcome.methods),
        reasons=tuple(reasons),
        metrics=metrics,
        latency_ms=elapsed_ms(started),
    )
    return {"criteria": {"K1": result}, "llm_calls": outcome.calls}


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
        CONTRADICTION.reason(f"Widerspricht dem Identitätskern: {judgement.explanation}", evidence)
        for passage in judgement.contradicting_passages[:2]
        if (evidence := locate_passage(text, sentences, passage)) is not None
    ]
    if judgement.verdict == "mixed" and not reasons:
        reasons.append(PARTIAL.reason(judgement.explanation))
    if judgement.verdict == "contradicts" and not reasons:  # no cited passage was found in the text
        reasons.append(CONTRADICTION.reason(f"Widerspricht dem Identitätskern: {judgement.explanation}"))
    if judgement.verdict == "coherent" and similarity is not None and similarity < threshold:
        weakest = sentences[metrics["weakest_sentence"]]
        explanation = (
            "Der LLM-Richter hält den Text für kohärent, die Embedding-Nähe zum Kern ist aber gering"
            f" ({similarity:.2f} < {threshold:.2f}); am fernsten ist dieser Satz."
        )
        reasons.append(DISTANT.reason(explanation, evidence_for(text, sentences, weakest.start, weakest.end)))
    return reasons
