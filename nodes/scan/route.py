"""Step 6: route by confidence. At or above the threshold a finding goes into the report; below it (or when
the critic could not judge it) into the human-review bucket as UNCERTAIN, which a reviewer can resolve."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import interrupt
from pydantic import BaseModel, ConfigDict, RootModel, ValidationError

from nodes.scan.context import ScanContext, context_of
from nodes.scan.prompts import REVIEW_QUESTION
from nodes.scan.state import RoutedFinding, ScanState

ReviewVerdict = Literal["MAJOR", "MINOR", "HINT", "DISMISS"]


class ReviewDecisions(RootModel[dict[str, ReviewVerdict]]):
    """The reviewer's answer to the interrupt: finding id → verdict."""


class ReviewItem(BaseModel):
    """One finding as the reviewer sees it in the interrupt payload."""

    model_config = ConfigDict(frozen=True)

    finding_id: str
    stable_id: str
    page_number: int
    exact_quote: str
    finding_text: str
    proposed_severity: str
    confidence: float
    critic_note: str


class InvalidReview(ValueError):
    """A resume value that does not fit the open findings; the message names what is wrong."""


def assign_buckets(state: ScanState, runtime: Runtime[ScanContext]) -> dict[str, Any]:
    ctx = context_of(runtime)
    critiques = {critique.finding_id: critique for critique in state.get("critiques", [])}
    routed = []
    for draft in state.get("verified", []):
        critique = critiques[draft.finding_id]
        if critique.verdict == "rejected":
            continue
        confident = critique.verdict != "unchecked" and critique.confidence >= ctx.confidence_threshold
        routed.append(
            RoutedFinding(
                draft=draft,
                proposed_severity=critique.severity,
                severity=critique.severity if confident else "UNCERTAIN",
                bucket="report" if confident else "human_review",
                confidence=critique.confidence,
                critic_note=critique.note,
            )
        )
    return {"routed": routed}


def route_after_assign_buckets(
    state: ScanState, runtime: Runtime[ScanContext]
) -> Literal["review_findings", "store_findings"]:
    ctx = context_of(runtime)
    if ctx.human_review and any(finding.bucket == "human_review" for finding in state.get("routed", [])):
        return "review_findings"
    return "store_findings"


def _decisions(answer: object, open_ids: set[str]) -> dict[str, ReviewVerdict]:
    try:
        decisions = ReviewDecisions.model_validate(answer).root
    except ValidationError:
        raise InvalidReview("Prüfentscheidung unlesbar: erwartet {Befund-ID: MAJOR | MINOR | HINT | DISMISS}") from None
    unknown = sorted(set(decisions) - open_ids)
    if unknown:
        raise InvalidReview(f"Diese Befund-IDs stehen nicht zur Prüfung an: {', '.join(unknown)}")
    return decisions


def review_findings(state: ScanState, runtime: Runtime[ScanContext]) -> dict[str, Any]:
    """Pause for a reviewer (needs a checkpointer); resume with ``Command(resume={finding_id: verdict})``.

    The reviewer's identity comes from the run context (``reviewer``; the server sets it from the
    authenticated user) and is stored with every decided finding. An answer that does not fit is not an
    error: the reviewer is asked again, with the problem named.
    """
    reviewer = (context_of(runtime).reviewer or "").strip()
    routed = state.get("routed", [])
    open_items = [finding for finding in routed if finding.bucket == "human_review"]
    payload: dict[str, Any] = {
        "question": REVIEW_QUESTION,
        "problem": None,
        "findings": [
            ReviewItem(
                finding_id=finding.draft.finding_id,
                stable_id=finding.draft.clause.stable_id,
                page_number=finding.draft.page_number,
                exact_quote=finding.draft.exact_quote,
                finding_text=finding.draft.finding_text,
                proposed_severity=finding.proposed_severity,
                confidence=finding.confidence,
                critic_note=finding.critic_note,
            ).model_dump()
            for finding in open_items
        ],
    }
    while True:
        try:
            decisions = _decisions(interrupt(payload), {finding.draft.finding_id for finding in open_items})
            if decisions and not reviewer:
                raise InvalidReview("Prüfer unbekannt: der Lauf braucht im Kontext 'reviewer' die Kennung des Prüfers")
            break
        except InvalidReview as exc:
            payload = payload | {"problem": str(exc)}
    kept, dismissed = [], []
    for finding in routed:
        verdict = decisions.get(finding.draft.finding_id)
        if verdict == "DISMISS":
            dismissed.append(finding)
        elif verdict is not None:
            reviewed = {"severity": verdict, "bucket": "report", "human_reviewed": True, "reviewed_by": reviewer}
            kept.append(finding.model_copy(update=reviewed))
        else:
            kept.append(finding)
    return {"routed": kept, "dismissed": dismissed}
