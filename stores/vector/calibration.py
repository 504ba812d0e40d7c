"""Calibrated relevance: a logistic model that turns raw retrieval scores into an estimate in [0, 1].

The score of a hit is the estimated probability that the knowledge base holds an answer to the query,
given that hit's dense cosine and its BM25 score per query term. It is monotone (non-decreasing) in both,
so thresholds such as the strictness levels' ``min_score`` 0.80 / 0.70 / 0.50 / 0.40 keep their meaning.
The coefficients are fitted per embedder by ``python -m evals.bench.calibrate`` and shipped in
``calibration.json``; an embedder without fitted coefficients is scored on its BM25 evidence alone.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

SPARSE_ONLY = "none"


def logistic(logit: float) -> float:
    """The probability of a logit, clamped so that no score overflows ``exp``."""
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, logit))))


class LogisticCalibration(BaseModel):
    """``p = σ(intercept + dense·cosine + sparse·bm25_per_term)``; both weights ≥ 0 keep it monotone."""

    model_config = ConfigDict(frozen=True)

    intercept: float
    dense: float = Field(0.0, ge=0.0)
    sparse: float = Field(ge=0.0)

    def probability(self, *, dense: float | None, sparse_per_term: float) -> float:
        return logistic(self.intercept + self.sparse * sparse_per_term + self.dense * (dense or 0.0))


class CalibrationFile(BaseModel):
    model_config = ConfigDict(frozen=True)

    description: str
    models: dict[str, LogisticCalibration]


@lru_cache(maxsize=1)
def shipped_calibrations() -> CalibrationFile:
    text = (resources.files("stores.vector") / "calibration.json").read_text(encoding="utf-8")
    return CalibrationFile.model_validate(json.loads(text))


def calibration_for(embedder_name: str | None) -> tuple[LogisticCalibration, bool]:
    """The model for an embedder, and whether it uses the dense cosine (False: sparse-only fallback)."""
    models = shipped_calibrations().models
    if embedder_name is not None and embedder_name in models:
        return models[embedder_name], True
    return models[SPARSE_ONLY], False
