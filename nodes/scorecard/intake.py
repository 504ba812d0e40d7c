"""First steps of a run: load the DNA and its history, measure the DNA's maturity, fan out to the criteria."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Send

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.maturity import assess_dna_maturity
from nodes.scorecard.results import CRITERIA
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardState
from nodes.shared.brand.reasons import CriterionId

CRITERION_NODES: dict[CriterionId, str] = {
    "K1": "check_identity",
    "K2": "check_positioning",
    "K3": "check_tone",
    "K4": "check_topics",
    "K5": "check_decision_strength",
    "K6": "check_boundaries",
    "K7": "check_dna_version",
}


class ScorecardInputError(ValueError):
    """The run cannot start: no brand, empty text."""


def input_hash(state: Mapping[str, object]) -> str:
    """Hash of everything the verdict depends on besides DNA and settings (those are logged separately)."""
    keys = ("text", "content_type", "audience", "topic", "channel", "dna_version_ref")
    payload = json.dumps({k: state.get(k) for k in keys}, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def load_brand_dna(
    state: ScorecardState, runtime: Runtime[ScorecardContext], *, services: ScorecardServices
) -> dict[str, Any]:
    ctx = runtime.context or ScorecardContext()
    if not ctx.brand_id:
        raise ScorecardInputError("Keine Marke angegeben: brand_id im Kontext fehlt.")
    if not state.get("text", "").strip():
        raise ScorecardInputError("Der zu prüfende Text ist leer.")
    brands = services.brands
    dna = brands.get(ctx.brand_id, ctx.dna_version)
    digest = input_hash(state)
    return {
        "dna": dna,
        "dna_history": brands.history(ctx.brand_id),
        "input_hash": digest,
        "content_id": state.get("content_id") or f"sha256:{digest[:16]}",
        "content_type": state.get("content_type", "other"),
        "started_at": time.time(),
    }


def assess_maturity(state: ScorecardState) -> dict[str, Any]:
    return {"maturity": assess_dna_maturity(state["dna"])}


def fan_out_criteria(state: ScorecardState, runtime: Runtime[ScorecardContext]) -> list[Send]:
    """One parallel branch per enabled criterion; disabled ones are reported as not assessed later."""
    ctx = runtime.context or ScorecardContext()
    branches = [Send(CRITERION_NODES[c], state) for c in CRITERIA if c in ctx.criteria]
    return branches or [Send("decide_status", state)]
