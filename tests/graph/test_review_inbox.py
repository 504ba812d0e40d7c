"""The review inbox over stored bucket items of all three graphs: list, show, approve, edit, reject, audit."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from graphs.review.inbox import ReviewInbox
from graphs.review.items import DecisionOutcome, ItemNotFound, ReviewItem
from nodes.answer.review import StoredReview
from nodes.shared.review import ReviewerDecision
from stores.brand.audit import AuditStore
from stores.kb.store import KnowledgeBase
from stores.sql.engine import Database, open_database
from stores.sql.reviews import AlreadyDecided, DecisionRecord, ReviewStore
from tests.review_support import GOOD_ANSWER, QUESTION, seed_all, seed_answer


@pytest.fixture
def inbox(database: Database, sparse_kb: tuple[Database, KnowledgeBase]) -> ReviewInbox:
    seed_all(database, sparse_kb[1])
    return ReviewInbox(database)


def _items(inbox: ReviewInbox, **filters: Any) -> list[ReviewItem]:
    return asyncio.run(inbox.items(**filters))


def _decide(inbox: ReviewInbox, item_id: str, action: str, **fields: Any) -> DecisionOutcome:
    return asyncio.run(inbox.decide(item_id, ReviewerDecision(action=action, **fields), "Eva Prüfer"))


def _by_graph(inbox: ReviewInbox, graph: str) -> list[ReviewItem]:
    return _items(inbox, graph=graph)


def test_every_graph_has_its_open_items_listed_with_a_reason(inbox: ReviewInbox) -> None:
    items = _items(inbox)
    assert [item.graph for item in items] == ["answer", "scan", "scan", "scorecard"]
    assert all(item.origin == "bucket" and "Grund der Prüfung" in item.description for item in items)
    answer, finding, _, scorecard = items
    assert answer.summary == QUESTION and answer.reason == "Konfidenz 0.20 liegt unter der Schwelle 0.70."
    assert "[lb-url-01]" in answer.description and "### Quellen" in answer.description
    assert finding.args["exact_quote"] == "Die Nachweisgrenze ist sehr niedrig" and finding.editable == (
        "severity",
        "exact_quote",
        "finding_text",
    )
    assert scorecard.editable == () and "nur der Marken-Owner" in scorecard.reason
    assert [r["rule_id"] for r in scorecard.args["top_reasons"]] == ["ID-COH-001", "TONE-DO-002", "DEC-002"]
    assert _items(inbox, graph="scan") == items[1:3]
    assert _items(inbox, bot_id="kein-bot") == []


def test_approving_records_reviewer_time_before_and_after(inbox: ReviewInbox, database: Database) -> None:
    (answer,) = _by_graph(inbox, "answer")
    outcome = _decide(inbox, answer.id, "approve")
    assert outcome.carried_out and outcome.after["bucket"] == "delivered"
    (decision,) = ReviewStore(database).decisions()
    assert (decision.item_id, decision.reviewer, decision.action, decision.origin) == (
        answer.id,
        "Eva Prüfer",
        "approve",
        "bucket",
    )
    assert decision.before["bucket"] == "human_review" and decision.after["answer"] == decision.before["answer"]
    assert decision.decided_at is not None
    assert _by_graph(inbox, "answer") == []
    with pytest.raises(ItemNotFound):
        _decide(inbox, answer.id, "reject")


def test_edited_answer_that_breaks_a_rule_is_refused_and_stays_open(inbox: ReviewInbox, database: Database) -> None:
    (answer,) = _by_graph(inbox, "answer")
    outcome = _decide(inbox, answer.id, "edit", changes={"answer": "Urlaub wird immer ausgezahlt."})
    assert not outcome.carried_out and outcome.problems == ["Die Antwort belegt keine Aussage mit einer ID."]
    assert ReviewStore(database).decisions() == [] and _by_graph(inbox, "answer") == [answer]
    assert _decide(inbox, answer.id, "edit", changes={"answer": GOOD_ANSWER}).after["answer"] == GOOD_ANSWER


def test_edited_scan_quote_must_pass_the_database_quote_check(inbox: ReviewInbox, database: Database) -> None:
    finding = _by_graph(inbox, "scan")[0]
    refused = _decide(inbox, finding.id, "edit", changes={"exact_quote": "Die Nachweisgrenze ist winzig"})
    assert refused.problems == ["Zitat abgelehnt: Zitat steht nicht wörtlich auf der angegebenen Seite"]
    kept = _decide(inbox, finding.id, "edit", changes={"severity": "MINOR", "exact_quote": "Nachweisgrenze ist sehr"})
    assert kept.after | {"bucket": "report"} == kept.after and kept.after["severity"] == "MINOR"
    assert _decide(inbox, _by_graph(inbox, "scan")[0].id, "reject").after == {"dismissed": True}
    assert [d.action for d in ReviewStore(database).decisions()] == ["reject", "edit"]
    with database.transaction() as connection:  # the sealed findings are never rewritten
        severities = connection.execute(text("SELECT severity FROM findings WHERE bucket = 'human_review'")).scalars()
        assert list(severities) == ["UNCERTAIN", "UNCERTAIN"]


@pytest.mark.parametrize(("action", "status"), [("approve", "PASS"), ("reject", "REVISE")])
def test_owner_decision_from_the_inbox_reaches_the_scorecard_audit(
    inbox: ReviewInbox, database: Database, action: str, status: str
) -> None:
    (item,) = _by_graph(inbox, "scorecard")
    assert not _decide(inbox, item.id, "edit", changes={"x": "y"}).carried_out
    assert _decide(inbox, item.id, action, note="bewusst entschieden").carried_out
    stored = AuditStore(database).get(int(item.id.removeprefix("scorecard:")))
    assert (stored.status, stored.validated_by) == (status, "human")
    assert stored.owner_decision == {"approved": status == "PASS", "owner": "Eva Prüfer", "note": "bewusst entschieden"}
    assert _by_graph(inbox, "scorecard") == []


def test_a_second_decision_on_the_same_item_is_refused(database: Database) -> None:
    record = DecisionRecord(
        item_id="answer:1", graph="answer", origin="bucket", action="approve", reviewer="A", before={}, after={}
    )
    ReviewStore(database).record(record)
    with pytest.raises(AlreadyDecided):
        ReviewStore(database).record(record.model_copy(update={"reviewer": "B"}))


def test_unknown_items_are_named(inbox: ReviewInbox) -> None:
    for item_id in ("answer:999", "scan:nix:1", "scorecard:x", "live:abc", "quatsch"):
        with pytest.raises(ItemNotFound, match=item_id):
            asyncio.run(inbox.item(item_id))


# Words that make random edits: citations inside and outside the context, numbers, and plain German text.
EDIT_PARTS = st.sampled_from(
    [
        "[lb-url-01]",
        "[lb-zzz-99]",
        "Vollzeitbeschäftigte erhalten 30 Arbeitstage Erholungsurlaub",
        "pro Kalenderjahr",
        "(Stand 2026-01)",
        "45 Tage",
        "Urlaub wird ausgezahlt",
        "laut interner Vorgabe Block 3",
        ".",
        "\n",
    ]
)


VALID_EDIT = ["Vollzeitbeschäftigte erhalten 30 Arbeitstage Erholungsurlaub", "(Stand 2026-01)", "[lb-url-01]", "."]


@pytest.fixture(scope="module")
def answer_material(tmp_path_factory: pytest.TempPathFactory, sparse_kb: tuple[Database, KnowledgeBase]) -> Any:
    database = open_database(f"sqlite:///{tmp_path_factory.mktemp('property') / 'review.db'}")
    seed_answer(database, sparse_kb[1])
    yield database
    database.dispose()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(EDIT_PARTS, min_size=0, max_size=8))
@example(parts=VALID_EDIT)
def test_no_delivered_edit_breaks_a_validator_rule(
    answer_material: Database, sparse_kb: tuple[Database, KnowledgeBase], parts: list[str]
) -> None:
    """Whatever the reviewer writes: an edit is delivered only when the deterministic validator finds nothing."""
    inbox = ReviewInbox(answer_material)
    (item,) = _by_graph(inbox, "answer")
    edited = " ".join(parts)
    (record,) = ReviewStore(answer_material).open_answers()
    violations = StoredReview.model_validate(record.record["review"]).violations(edited)
    outcome = _decide(inbox, item.id, "edit", changes={"answer": edited})
    assert outcome.carried_out == (violations == [])
    if parts == VALID_EDIT:
        assert outcome.carried_out  # the explicit example: a valid edit is delivered
    if outcome.carried_out:
        assert outcome.after["answer"] == edited
        seed_answer(answer_material, sparse_kb[1])  # decisions are append-only: a fresh item for the next example
    else:
        assert outcome.problems == violations
