"""Write the audit record of a run: input hash, DNA version, feature flags, models, results, tokens, latency."""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.judge import judge_id
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardState
from stores.brand.audit import AuditEntry


def record_audit(
    state: ScorecardState, runtime: Runtime[ScorecardContext], *, services: ScorecardServices
) -> dict[str, Any]:
    ctx = runtime.context or ScorecardContext()
    validation = state["validation"]
    calls = state.get("llm_calls", [])
    embedder = services.embedder if ctx.use_embeddings else None
    judge = judge_id(services, ctx)
    entry = AuditEntry(
        brand_id=validation.brand_id,
        dna_version=validation.dna_version,
        content_id=validation.content_id,
        input_hash=state["input_hash"],
        status=validation.status,
        score=validation.score,
        validated_by=validation.validated_by,
        requires_owner_approval=validation.requires_owner_approval,
        feature_flags={
            "criteria_enabled": sorted(ctx.criteria),
            "methods": {c: list(r.methods) for c, r in validation.criteria.items()},
            "llm": judge is not None,
            "embeddings": embedder is not None,
            "thresholds": ctx.thresholds.model_dump(),
        },
        model_ids={
            "llm_configured": judge,
            "llm_responded": sorted({c.model for c in calls}),
            "embedder": None if embedder is None else embedder.name,
        },
        criteria={c: r.model_dump(mode="json") for c, r in validation.criteria.items()},
        maturity=validation.maturity.model_dump(mode="json"),
        token_usage={
            "input_tokens": sum(c.input_tokens for c in calls),
            "output_tokens": sum(c.output_tokens for c in calls),
            "total_tokens": sum(c.total_tokens for c in calls),
            "calls": [c.model_dump() for c in calls],
        },
        latency_ms=round((time.time() - state["started_at"]) * 1000, 2),
    )
    audit_id = services.scorecard_audit.record(entry)
    return {"audit_id": audit_id, "validation": validation.model_copy(update={"audit_id": audit_id})}
