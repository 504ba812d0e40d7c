"""review_findings: a person decides each UNCERTAIN finding, one ``HumanInterrupt`` request per finding.

accept keeps the proposed severity, edit may change severity, quote and text (an edited quote must still pass
the database's quote check), ignore or a text response dismisses the finding.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from nodes.scan.services import FindingSink, ScanServices
from nodes.scan.state import RoutedFinding, ScanState
from nodes.shared.review import (
    HumanInterrupt,
    Refused,
    ReviewerDecision,
    decide,
    markdown_section,
    quoted,
    review_request,
)
from stores.scan.findings import REJECTION_REASONS, QuoteCandidate

REVIEW_ACTION = "Befund übernehmen"
REVIEWER_MISSING = 'Prüfer unbekannt: die Antwort braucht "reviewer" (wer entscheidet).'
KeptSeverity = Literal["MAJOR", "MINOR", "HINT"]


class FindingUnderReview(BaseModel):
    """What the reviewer sees of one uncertain finding, from the run's state or from the stored scan."""

    model_config = ConfigDict(frozen=True)

    stable_id: str
    title: str
    requirement_text: str
    page_number: int
    exact_quote: str
    finding_text: str
    proposed_severity: KeptSeverity
    confidence: float
    threshold: float
    critic_note: str = ""

    def request(self, problems: list[str]) -> HumanInterrupt:
        reason = f"Konfidenz {self.confidence:.2f} liegt unter der Schwelle {self.threshold:.2f}."
        if self.critic_note:
            reason += f" Kritik: {self.critic_note}"
        description = "\n".join(
            [
                markdown_section(f"Textstelle (Seite {self.page_number})", quoted(self.exact_quote)),
                markdown_section(f"Befund (vorgeschlagen: {self.proposed_severity})", self.finding_text),
                markdown_section(f"Anforderung {self.stable_id}: {self.title}", quoted(self.requirement_text)),
                markdown_section("Grund der Prüfung", reason),
                *(
                    [markdown_section("Bearbeitung abgelehnt", "\n".join(f"- {p}" for p in problems))]
                    if problems
                    else []
                ),
            ]
        )
        args = {
            "stable_id": self.stable_id,
            "page_number": self.page_number,
            "severity": self.proposed_severity,
            "exact_quote": self.exact_quote,
            "finding_text": self.finding_text,
            "reason": reason,
            "violations": problems,
        }
        return review_request(REVIEW_ACTION, args, description)


class FindingEdit(BaseModel):
    """The edit a reviewer may make to a finding; missing fields keep their value."""

    severity: KeptSeverity | None = None
    exact_quote: str | None = None
    finding_text: str | None = None


def parse_edit(decision: ReviewerDecision) -> FindingEdit:
    """The reviewer's changes (none unless the decision is an edit); refused when they do not fit."""
    if decision.action != "edit":
        return FindingEdit()
    try:
        return FindingEdit.model_validate(decision.changes)
    except ValidationError:
        raise Refused(["Bearbeitung unlesbar: severity muss MAJOR, MINOR oder HINT sein."]) from None


def checked_decision(
    decision: ReviewerDecision,
    store: FindingSink,
    *,
    document_id: str,
    catalog_version_id: int,
    requirement_id: int,
    page_number: int,
) -> tuple[ReviewerDecision, FindingEdit]:
    """The decision with its edit; refused when the edit does not fit or its quote fails the database's check."""
    edit = parse_edit(decision)
    if edit.exact_quote is None:
        return decision, edit
    (reason,) = store.check_quotes(
        document_id=document_id,
        catalog_version_id=catalog_version_id,
        candidates=[
            QuoteCandidate(requirement_id=requirement_id, page_number=page_number, exact_quote=edit.exact_quote)
        ],
    )
    if reason is not None:
        raise Refused([f"Zitat abgelehnt: {REJECTION_REASONS.get(reason, reason)}"])
    return decision, edit


def route_finding(finding: RoutedFinding, decision: ReviewerDecision, edit: FindingEdit) -> RoutedFinding | None:
    """The finding after the decision, signed with the reviewer's name; None when it is dismissed."""
    if decision.action == "reject":
        return None
    draft_changes = {k: v for k, v in edit.model_dump(exclude={"severity"}).items() if v is not None}
    return finding.model_copy(
        update={
            "draft": finding.draft.model_copy(update=draft_changes),
            "severity": edit.severity or finding.proposed_severity,
            "bucket": "report",
            "human_reviewed": True,
            "reviewed_by": (decision.reviewer or "").strip() or None,
        }
    )


def signed_decision(decision: ReviewerDecision, **where: Any) -> tuple[ReviewerDecision, FindingEdit]:
    """``checked_decision``, and a kept finding must name its reviewer (``HumanResponse.reviewer``; the served
    API writes the key that resumed the run there): the audit trail stores who decided."""
    if decision.action != "reject" and not (decision.reviewer or "").strip():
        raise Refused([REVIEWER_MISSING])
    return checked_decision(decision, **where)


def review_findings(state: ScanState, *, services: ScanServices) -> dict[str, Any]:
    """Pause for each uncertain finding (needs a checkpointer); a reply that does not fit is asked again."""
    store = services.findings
    kept, dismissed = [], []
    for finding in state.get("routed", []):
        if finding.bucket != "human_review":
            kept.append(finding)
            continue
        draft = finding.draft
        view = FindingUnderReview(
            **finding.quoted(),
            title=draft.clause.title,
            requirement_text=draft.clause.requirement_text,
            threshold=state["confidence_threshold"],
            critic_note=finding.critic_note,
        )
        check = partial(
            signed_decision,
            store=store,
            document_id=state["document"].id,
            catalog_version_id=state["catalog"].id,
            requirement_id=draft.clause.requirement_id,
            page_number=draft.page_number,
        )
        routed = route_finding(finding, *decide(view.request, check))
        if routed is None:
            dismissed.append(finding)
        else:
            kept.append(routed)
    return {"routed": kept, "dismissed": dismissed}
