"""LangGraph's response shape and belegt's reviewer decisions map onto each other both ways."""

from __future__ import annotations

import pytest

from graphs.server.auth import signed_resume
from nodes.shared.review import Refused, ReviewerDecision, human_response, review_request, reviewer_decision


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


def test_the_server_signs_every_response_of_a_resume_with_the_key_over_a_typed_name() -> None:
    eva = "Eva Brandt (Schlüssel k1)"
    typed = {"type": "accept", "args": None, "reviewer": "Chefin"}
    plain = {"type": "ignore", "args": None}  # what the Agent Inbox sends
    assert signed_resume([typed], eva) == [typed | {"reviewer": eva}]
    assert signed_resume(plain, eva) == plain | {"reviewer": eva}
    assert signed_resume({"interrupt-1": [plain]}, eva) == {"interrupt-1": [plain | {"reviewer": eva}]}
    assert signed_resume("ja", eva) == "ja"  # not a response: the graph refuses it and asks again
    assert reviewer_decision(signed_resume([plain], eva)) == ReviewerDecision(action="reject", reviewer=eva)
