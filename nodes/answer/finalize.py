"""finalize_answer: notices, PII redaction of the output, and the output record (returned and stored)."""

from __future__ import annotations

import time
from typing import Any

from nodes.answer.review import StoredReview
from nodes.answer.services import AnswerServices
from nodes.answer.state import AnswerState, SourceRecord
from nodes.shared.citations import cited_ids
from nodes.shared.guardrails import CAUTION_NOTES, redact_pii

OUTPUT_KEYS = (
    "question",
    "answer",
    "refused",
    "verified",
    "citations",
    "sources",
    "n_context",
    "model",
    "strictness",
    "regenerations",
    "planned_queries",
    "confidence",
    "bucket",
    "violations",
    "latency_ms",
    "token_usage",
    "guardrail_flags",
    "draft",
    "error",
    "low_score_action",
    "notices",
    "review_decision",
    "reviewed_by",
)


def finalize_answer(state: AnswerState, *, services: AnswerServices) -> dict[str, Any]:
    latency_ms = round((time.time() - state["started_at"]) * 1000)
    if state.get("error"):
        output: dict[str, Any] = {
            "answer": state["error"],
            "refused": True,
            "verified": False,
            "bucket": "invalid_input",
            "citations": [],
            "sources": [],
            "n_context": 0,
            "confidence": 0.0,
            "latency_ms": latency_ms,
        }
        services.answer_records.write(_record({**state, **output}))
        return output
    policy = state["policy"]
    flags = state.get("guardrail_flags", [])
    refused = state.get("refused", False)
    answer = state["answer"]
    notices = []
    if not refused:
        if state.get("low_score_action") == "disclaimer":
            notices.append(policy.disclaimer_message)
        elif state.get("low_score_action") == "soft_hint":
            notices.append(policy.voice.soft_hint)
        notices += [CAUTION_NOTES[flag] for flag in flags if flag != "pii"]
    if "pii" in flags:
        answer = redact_pii(answer)
        notices.append(CAUTION_NOTES["pii"])
    follow_up = None if refused else state.get("follow_up")  # the one follow-up question ends the answer
    blocks = {hit.entry_id: hit for hit in state.get("context_blocks", [])}
    citations = [] if refused else [i for i in cited_ids(answer) if i in blocks]
    output = {
        "question": state["question_for_model"] if "pii" in flags else state["question"],
        "answer": "\n\n".join(part for part in (answer, " ".join(notices), follow_up) if part),
        "notices": notices,
        "refused": refused,
        "verified": state.get("verified", not state.get("violations")),
        "citations": citations,
        "sources": [
            SourceRecord(
                id=i,
                title=blocks[i].title,
                section=blocks[i].section,
                stand=blocks[i].stand,
                work=blocks[i].work,
                official=blocks[i].official,
            )
            for i in citations
        ],
        "n_context": len(blocks),
        "confidence": state.get("confidence", 1.0 if refused else 0.0),
        "bucket": state.get("bucket") or ("refused" if refused else "delivered"),
        "violations": state.get("violations", []),
        "regenerations": state.get("regenerations", 0),
        "latency_ms": latency_ms,
    }
    if state.get("provider_failure"):
        output["error"] = state["provider_failure"]
    services.answer_records.write(_record({**state, **output}))
    return output


def _record(values: dict[str, Any]) -> dict[str, Any]:
    """The stored record: output keys only, pydantic values as plain JSON data."""
    record: dict[str, Any] = {}
    for key in OUTPUT_KEYS:
        if key in values:
            value = values[key]
            if isinstance(value, list):
                value = [v.model_dump() if hasattr(v, "model_dump") else v for v in value]
            elif hasattr(value, "model_dump"):
                value = value.model_dump()
            record[key] = value
    if "policy" in values:
        record["bot_id"] = values["policy"].bot_id
        record["kb_id"] = values["policy"].kb_id
    if "review_request" in values:
        record["review"] = StoredReview(
            request=values["review_request"],
            question_for_model=values["question_for_model"],
            context_blocks=values["context_blocks"],
            conflicts=values["conflicts"],
            policy=values["policy"],
        ).model_dump(mode="json")
    return record
