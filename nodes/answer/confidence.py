"""Answer confidence: a calibrated probability that the delivered answer is correct and supported.

The calibrator computes no features of its own: it reads what ``assess_answerability`` measured
(``AnswerFeatures``), each comparable across questions:

- ``key_coverage``: share of the question's key content that the chosen sentences cover;
- ``best_sentence_score``: the best sentence's rank score (lexical cover, focus, retrieval and, with a dense
  embedder, sentence similarity);
- ``best_relevance``: the best calibrated retrieval relevance among the retrieved blocks.

A logistic model with non-negative weights (monotone in every feature) turns them into a probability,
fitted per embedder (the best sentence's score carries the sentence similarity only with a dense embedder)
on the dev splits of the project's question sets and XQuAD-de by ``belegt bench confidence --write`` and
shipped in ``confidence.json``; an embedder without a model of its own gets the sparse-only one. It is
multiplied by the critic's mean claim score (deterministic support 1.0, "partially" half the critic's
confidence, unconfirmed 0.5): offline answers carry no LLM verdicts to fit on, and a claim the LLM critic
doubts must still pull the confidence down.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

from nodes.answer.state import AnswerFeatures
from stores.vector.calibration import SPARSE_ONLY, logistic

FEATURES = ("key_coverage", "best_sentence_score", "best_relevance")


class ConfidenceModel(BaseModel):
    """``p = σ(intercept + Σ weight·feature)``; weights ≥ 0 keep it monotone."""

    model_config = ConfigDict(frozen=True)

    intercept: float
    key_coverage: float = Field(0.0, ge=0.0)
    best_sentence_score: float = Field(0.0, ge=0.0)
    best_relevance: float = Field(0.0, ge=0.0)

    def probability(self, features: Mapping[str, float]) -> float:
        return round(logistic(self.intercept + sum(getattr(self, name) * features[name] for name in FEATURES)), 4)


class ConfidenceFile(BaseModel):
    model_config = ConfigDict(frozen=True)

    description: str
    models: dict[str, ConfidenceModel]


@lru_cache(maxsize=1)
def shipped_models() -> ConfidenceFile:
    text = (resources.files("nodes.answer") / "confidence.json").read_text(encoding="utf-8")
    return ConfidenceFile.model_validate(json.loads(text))


def model_for(embedder_name: str | None) -> ConfidenceModel:
    models = shipped_models().models
    return models.get(embedder_name or SPARSE_ONLY, models[SPARSE_ONLY])


def confidence_features(features: AnswerFeatures) -> dict[str, float]:
    """The calibrator's inputs, taken from the answerability gate's measurements."""
    return {name: float(getattr(features, name)) for name in FEATURES}


def answer_confidence(features: AnswerFeatures, claim_support: float, embedder_name: str | None) -> float:
    """The calibrated probability that this answer is correct and supported, times its claims' support."""
    return round(model_for(embedder_name).probability(confidence_features(features)) * claim_support, 4)
