"""LangGraph's response shape and belegt's reviewer decisions map onto each other both ways."""

from __future__ import annotations

from typing import cast

import pytest
from langgraph.runtime import Runtime, ServerInfo
from langgraph_sdk.auth.types import BaseUser

from graphs.server.auth import TenantUser
from nodes.shared.review import (
    Refused,
    ReviewerDecision,
    human_response,
    review_request,
    reviewer_decision,
    signed_in_reviewer,
)


@pytest.mark.parametrize(
    "decision",
    [
        ReviewerDecision(action="approve", reviewer="Eva"),
        ReviewerDecision(action="edit", changes={"answer": "Neu [lb-url-01]."}, reviewer="Eva"),
        ReviewerDecision(action="reject", note="nicht belegt", reviewer="Eva"),
        ReviewerDecision(action="reject"),
    ],
)
def test_decisions_survive_the_round_trip(decision: ReviewerDecision) -> None:
    response = human_response(decision, "Antwort freigeben")
    assert reviewer_decision([response]) == decision == reviewer_decision(response)


@pytest.mark.parametrize(
    ("response", "action", "note"),
    [
        ({"type": "accept", "args": None}, "approve", None),
        ({"type": "ignore", "args": None}, "reject", None),
        ({"type": "response", "args": "zu vage"}, "reject", "zu vage"),
        ({"type": "response", "args": "  "}, "reject", None),
    ],
)
def test_agent_inbox_responses_map_onto_decisions(response: dict[str, object], action: str, note: str | None) -> None:
    decision = reviewer_decision([response])
    assert (decision.action, decision.note, decision.reviewer) == (action, note, None)


@pytest.mark.parametrize("value", [{"action": "approve"}, "ja", [], [{"type": "edit", "args": "Text"}]])
def test_unreadable_responses_are_refused_with_a_german_reason(value: object) -> None:
    with pytest.raises(Refused) as refused:
        reviewer_decision(value)
    assert refused.value.problems[0].startswith(("Antwort unlesbar", "Bearbeitung ohne Inhalt"))


def test_request_has_the_human_interrupt_keys() -> None:
    request = review_request("Befund übernehmen", {"severity": "MINOR"}, "### Grund", allow_edit=False)
    assert request == {
        "action_request": {"action": "Befund übernehmen", "args": {"severity": "MINOR"}},
        "config": {"allow_ignore": True, "allow_respond": True, "allow_edit": False, "allow_accept": True},
        "description": "### Grund",
    }


def _served(user: TenantUser | None) -> Runtime[None]:
    info = ServerInfo(assistant_id="a", graph_id="scorecard", user=cast(BaseUser | None, user))
    return Runtime(context=None, server_info=info)


def test_on_the_served_api_the_signed_in_key_decides_not_a_typed_name() -> None:
    eva = TenantUser(identity="k1", display_name="Eva Brandt (Schlüssel k1)", is_authenticated=True, permissions=[])
    signed_in = signed_in_reviewer(_served(eva))
    assert signed_in == "Eva Brandt (Schlüssel k1)"
    typed = {"type": "accept", "args": None, "reviewer": "Chefin"}
    assert reviewer_decision([typed], signed_in).reviewer == "Eva Brandt (Schlüssel k1)"
    assert reviewer_decision([{"type": "accept", "args": None}], signed_in).reviewer == "Eva Brandt (Schlüssel k1)"
    # in-process (no server) and the server's own unauthenticated calls: the response names the reviewer
    anonymous = TenantUser(identity="anonymous", display_name="anonymous", is_authenticated=False, permissions=[])
    assert signed_in_reviewer(Runtime(context=None)) is None
    assert signed_in_reviewer(_served(anonymous)) is None and signed_in_reviewer(_served(None)) is None
    assert reviewer_decision([typed], None).reviewer == "Chefin"
