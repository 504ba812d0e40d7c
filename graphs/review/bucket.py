"""Stored bucket items of the three graphs: read from their own tables, decided through ``review_decisions``."""

from __future__ import annotations

from typing import Any

from graphs.review.items import DecisionOutcome, ItemNotFound, ReviewItem, summary_of
from nodes.answer.review import StoredReview
from nodes.scan.review import FindingUnderReview, checked_decision
from nodes.scorecard.gate import owner_decision, owner_review_request
from nodes.scorecard.results import CRITERIA, CriterionResult
from nodes.scorecard.status import top_levers
from nodes.shared.brand.reasons import CriterionId
from nodes.shared.review import Refused, ReviewerDecision
from stores.brand.audit import AuditStore
from stores.scan.findings import FindingStore
from stores.sql.engine import Database
from stores.sql.reviews import DecisionRecord, GraphName, OpenAnswer, OpenFinding, ReviewStore


class BucketReviews:
    def __init__(self, database: Database) -> None:
        self._reviews = ReviewStore(database)
        self._audit = AuditStore(database)
        self._findings = FindingStore(database)

    def items(self, *, graph: GraphName | None = None, bot_id: str | None = None) -> list[ReviewItem]:
        items: list[ReviewItem] = []
        if graph in (None, "answer"):
            items += [self._answer_item(answer) for answer in self._reviews.open_answers(bot_id=bot_id)]
        if bot_id is None and graph in (None, "scan"):
            items += [self._finding_item(finding) for finding in self._reviews.open_findings()]
        if bot_id is None and graph in (None, "scorecard"):
            items += [self._scorecard_item(audit_id) for audit_id in self._reviews.open_scorecards()]
        return items

    def item(self, item_id: str) -> ReviewItem:
        return self._open(item_id)[0]

    def decide(self, item_id: str, decision: ReviewerDecision, reviewer: str) -> DecisionOutcome:
        """Carry out the decision and record it; a decision that breaks a rule is refused and not recorded."""
        item, source = self._open(item_id)
        try:
            before, after = self._carry_out(item, source, decision, reviewer)
        except Refused as exc:
            return DecisionOutcome(item_id=item_id, carried_out=False, problems=exc.problems)
        self._reviews.record(
            DecisionRecord(
                item_id=item_id,
                graph=item.graph,
                origin="bucket",
                action=decision.action,
                reviewer=reviewer,
                note=decision.note,
                before=before,
                after=after,
            )
        )
        if item.graph == "scorecard":
            verdict = owner_decision(decision.model_copy(update={"reviewer": reviewer}))
            self._audit.record_owner_decision(
                source, status="PASS" if verdict.approved else "REVISE", decision=verdict.model_dump()
            )
        return DecisionOutcome(item_id=item_id, carried_out=True, after=after)

    def _open(self, item_id: str) -> tuple[ReviewItem, Any]:
        graph, _, key = item_id.partition(":")
        found: list[tuple[ReviewItem, Any]] = []
        if graph == "answer" and key.isdigit():
            found = [(self._answer_item(a), a) for a in self._reviews.open_answers(record_id=int(key))]
        elif graph == "scan" and key.rpartition(":")[2].isdigit():
            scan_id, _, position = key.rpartition(":")
            found = [
                (self._finding_item(f), f) for f in self._reviews.open_findings(scan_id=scan_id, position=int(position))
            ]
        elif graph == "scorecard" and key.isdigit() and int(key) in self._reviews.open_scorecards():
            found = [(self._scorecard_item(int(key)), int(key))]
        if not found:
            raise ItemNotFound(item_id)
        return found[0]

    def _carry_out(
        self, item: ReviewItem, source: Any, decision: ReviewerDecision, reviewer: str
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if isinstance(source, OpenAnswer):
            return self._decide_answer(source, decision)
        if isinstance(source, OpenFinding):
            return self._decide_finding(source, decision)
        verdict = owner_decision(decision.model_copy(update={"reviewer": reviewer}))
        before = {"status": item.args["status"], "score": item.args["score"]}
        return before, {"status": "PASS" if verdict.approved else "REVISE", "owner_decision": verdict.model_dump()}

    @staticmethod
    def _decide_answer(answer: OpenAnswer, decision: ReviewerDecision) -> tuple[dict[str, Any], dict[str, Any]]:
        material = StoredReview.model_validate(answer.record["review"])
        draft = str(material.request["action_request"]["args"]["answer"])
        before = {"bucket": "human_review", "answer": draft}
        if decision.action == "reject":
            return before, {"bucket": "refused", "answer": answer.record["answer"]}
        edited = draft if decision.action == "approve" else str(decision.changes.get("answer", ""))
        problems = material.violations(edited)
        if problems:
            raise Refused(problems)
        return before, {"bucket": "delivered", "answer": edited}

    def _decide_finding(
        self, finding: OpenFinding, decision: ReviewerDecision
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        before = finding.model_dump(
            mode="json", include={"stable_id", "page_number", "exact_quote", "finding_text", "proposed_severity"}
        ) | {"severity": "UNCERTAIN", "bucket": "human_review"}
        if decision.action == "reject":
            return before, {"dismissed": True}
        _, edit = checked_decision(
            decision,
            self._findings,
            document_id=finding.document_id,
            catalog_version_id=finding.catalog_version_id,
            requirement_id=finding.requirement_id,
            page_number=finding.page_number,
        )
        after = {
            "stable_id": finding.stable_id,
            "page_number": finding.page_number,
            "exact_quote": edit.exact_quote or finding.exact_quote,
            "finding_text": edit.finding_text or finding.finding_text,
            "severity": edit.severity or finding.proposed_severity,
            "bucket": "report",
            "human_reviewed": True,
        }
        return before, after

    @staticmethod
    def _answer_item(answer: OpenAnswer) -> ReviewItem:
        request = answer.record["review"]["request"]
        return ReviewItem(
            id=f"answer:{answer.record_id}",
            graph="answer",
            origin="bucket",
            created_at=answer.created_at,
            bot_id=answer.bot_id,
            summary=summary_of(str(request["action_request"]["args"]["question"])),
            request=request,
        )

    @staticmethod
    def _finding_item(finding: OpenFinding) -> ReviewItem:
        view = FindingUnderReview.model_validate(finding.model_dump())
        return ReviewItem(
            id=f"scan:{finding.scan_id}:{finding.position}",
            graph="scan",
            origin="bucket",
            created_at=finding.created_at,
            bot_id=None,
            summary=summary_of(f"{finding.stable_id}, S. {finding.page_number}: {finding.finding_text}"),
            request=dict(view.request([])),
        )

    def _scorecard_item(self, audit_id: int) -> ReviewItem:
        audit = self._audit.get(audit_id)
        results: dict[CriterionId, CriterionResult] = {
            c: CriterionResult.model_validate(r) for c, r in audit.criteria.items() if c in CRITERIA
        }
        request = owner_review_request(
            content_id=audit.content_id,
            score=audit.score,
            status=audit.status,
            reasons=top_levers(results, "REVISE"),
            text=None,
            problems=[],
        )
        return ReviewItem(
            id=f"scorecard:{audit_id}",
            graph="scorecard",
            origin="bucket",
            created_at=audit.created_at,
            bot_id=None,
            summary=summary_of(f"{audit.brand_id} {audit.dna_version} · {audit.content_id} · Score {audit.score:g}/7"),
            request=dict(request),
        )
