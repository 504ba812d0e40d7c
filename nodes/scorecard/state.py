"""Input, state and output of the scorecard graph."""

from __future__ import annotations

import operator
from typing import Annotated, NotRequired

from typing_extensions import TypedDict

from nodes.scorecard.judge import LlmCall
from nodes.scorecard.results import ContentType, CriterionResult, DnaMaturity, Validation
from nodes.shared.brand.reasons import CriterionId
from stores.brand.models import BrandDNA
from stores.brand.store import DnaVersionInfo


def merge_results(
    current: dict[CriterionId, CriterionResult], update: dict[CriterionId, CriterionResult]
) -> dict[CriterionId, CriterionResult]:
    """Criteria run in parallel branches; each writes its own key."""
    return {**current, **update}


class ScorecardInput(TypedDict):
    text: str
    content_id: NotRequired[str]
    content_type: NotRequired[ContentType]
    audience: NotRequired[str]
    topic: NotRequired[str]
    channel: NotRequired[str]
    dna_version_ref: NotRequired[str]


class ScorecardOutput(TypedDict):
    validation: Validation


class ScorecardState(ScorecardInput, total=False):
    validation: Validation
    dna: BrandDNA
    dna_history: list[DnaVersionInfo]
    maturity: DnaMaturity
    criteria: Annotated[dict[CriterionId, CriterionResult], merge_results]
    llm_calls: Annotated[list[LlmCall], operator.add]
    input_hash: str
    started_at: float
    audit_id: int
