"""Per-run settings of the answer graph (LangGraph ``context_schema``), editable in Studio."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from nodes.settings import ProviderName
from nodes.shared.review import ReviewMode, review_field

STRICTNESS_HELP = (
    "1 kb_only (Nur KB-Wissen) · 2 strict (Streng faktisch) · 3 balanced (Ausgewogen) · "
    "4 conversational (Gesprächig) · 5 creative (Kreativ). Leer: die Stufe des Bots."
)


class AnswerContext(BaseModel):
    """Which bot or KB answers, how strictly, with which model and within which budgets."""

    model_config = ConfigDict(frozen=True)

    bot_id: str | None = Field(None, description="Bot aus der Datenbank: liefert KB und Strictness-Stufe.")
    kb_id: str | None = Field(None, description="Wissensbasis direkt wählen (ohne Bot oder statt dessen KB).")
    strictness: Literal[1, 2, 3, 4, 5] | None = Field(None, description=STRICTNESS_HELP)
    provider: ProviderName | None = Field(None, description="LLM-Anbieter für diesen Lauf; leer: Einstellungen.")
    model: str | None = Field(None, description="Modellname für diesen Lauf; leer: Einstellungen.")
    confidence_threshold: float = Field(0.70, ge=0.0, le=1.0, description="Darunter: menschliche Prüfung.")
    prompt_budget_tokens: int = Field(3000, ge=200, description="Höchstens so viele Tokens Kontextblöcke.")
    min_context_blocks: int = Field(6, ge=1, description="So viele Blöcke bleiben beim Kürzen mindestens.")
    as_of: date | None = Field(
        None, description="Stichtag: Einträge, die an diesem Tag nicht gelten, antworten nicht; leer: heute."
    )
    retrieval_limit: int = Field(8, ge=1, le=50, description="Treffer pro Frage.")
    survey_retrieval_limit: int = Field(14, ge=1, le=50, description="Treffer für Überblicksfragen.")
    max_sub_queries: int = Field(4, ge=1, le=8, description="Höchstens so viele Teilfragen plant der Planer.")
    map_group_size: int = Field(3, ge=1, le=10, description="Blöcke pro Map-Schritt bei Überblicksfragen.")
    max_question_chars: int = Field(2000, ge=10, description="Längere Fragen werden abgewiesen.")
    review: ReviewMode = review_field()
    brand_id: str | None = Field(None, description="Marken-DNA, deren Grenzen (K6) jede Antwort einhalten muss.")
    brand_dna_version: str | None = Field(None, description="DNA-Version; leer: die neueste.")
    uncertain_message: str = Field(
        "⚠ Zu dieser Frage kann ich keine verlässlich belegte Antwort aus der Wissensbasis geben.",
        description="Wird gezeigt, wenn eine Antwort nicht belegt werden konnte oder geprüft wird.",
    )
