"""Answer confidence: a calibrated probability that the delivered answer is correct and supported.

Three features of the answer the graph is about to deliver, each in [0, 1]:

- ``coverage``: share of the question's content terms (lemmatised, folded, stopwords out) that the answer's
  sentences contain — an answer whose sentences do not address the question scores low here;
- ``focus``: the same share for the answer's best single sentence (one sentence that answers, not words
  gathered from unrelated ones);
- ``best_score``: the best calibrated retrieval score among the blocks the answer cites.

A logistic model with non-negative weights (monotone in every feature) turns them into a probability,
fitted on the dev splits of the project's question sets by ``belegt bench confidence --write`` and shipped
in ``confidence.json``. It is multiplied by the critic's mean claim score (deterministic support 1.0,
"partially" half the critic's confidence, unconfirmed 0.5): offline answers carry no LLM verdicts to fit
on, and a claim the LLM critic doubts must still pull the confidence down.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

from nodes.shared.citations import without_citations
from nodes.shared.text import split_sentences
from stores.kb.models import Hit
from stores.vector.analyzer import analyze

FEATURES = ("coverage", "focus", "best_score")


class ConfidenceModel(BaseModel):
    """``p = σ(intercept + Σ weight·feature)``; weights ≥ 0 keep it monotone."""

    model_config = ConfigDict(frozen=True)

    intercept: float
    coverage: float = Field(0.0, ge=0.0)
    focus: float = Field(0.0, ge=0.0)
    best_score: float = Field(0.0, ge=0.0)

    def probability(self, features: Mapping[str, float]) -> float:
        logit = self.intercept + sum(getattr(self, name) * features[name] for name in FEATURES)
        return round(1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, logit)))), 4)


class ConfidenceFile(BaseModel):
    model_config = ConfigDict(frozen=True)

    description: str
    model: ConfidenceModel


@lru_cache(maxsize=1)
def shipped_model() -> ConfidenceModel:
    text = (resources.files("nodes.answer") / "confidence.json").read_text(encoding="utf-8")
    return ConfidenceFile.model_validate(json.loads(text)).model


def question_coverage(question: str, text: str) -> float:
    """Share of the question's content terms that the text (citations aside) contains."""
    wanted = set(analyze(question))
    if not wanted:
        return 1.0
    return round(len(wanted & set(analyze(without_citations(text)))) / len(wanted), 4)


def confidence_features(question: str, answer: str, cited: Sequence[Hit]) -> dict[str, float]:
    sentences = split_sentences(answer)
    return {
        "coverage": question_coverage(question, answer),
        "focus": max((question_coverage(question, s) for s in sentences), default=0.0),
        "best_score": max((hit.score for hit in cited), default=0.0),
    }


def answer_confidence(question: str, answer: str, cited: Sequence[Hit], claim_support: float) -> float:
    """The calibrated probability that this answer is correct and supported, times its claims' support."""
    return round(shipped_model().probability(confidence_features(question, answer, cited)) * claim_support, 4)
