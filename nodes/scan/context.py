"""Per-run settings of the ``scan`` graph."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from nodes.shared.review import ReviewMode, review_field

if TYPE_CHECKING:
    from langgraph.runtime import Runtime

CONFIDENCE_THRESHOLD = 0.70
CLAUSES_PER_CHUNK = 5


class ScanContext(BaseModel):
    model_config = ConfigDict(frozen=True)

    confidence_threshold: float = Field(
        CONFIDENCE_THRESHOLD, ge=0.0, le=1.0, description="Findings below it go to the human-review bucket."
    )
    chunk_chars: int = Field(1000, ge=300, le=8000, description="Longest chunk sent to the model, in characters.")
    review: ReviewMode = review_field()


def context_of(runtime: Runtime[ScanContext]) -> ScanContext:
    """The run's context; LangGraph passes None when the caller gave none."""
    return runtime.context or ScanContext()
