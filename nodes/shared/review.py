"""Human review shared by all three graphs: the one review switch and LangGraph's ``HumanInterrupt`` shape.

The TypedDicts mirror ``langgraph.prebuilt.interrupt`` (deprecated there and moved to ``langchain.agents``, which
belegt does not depend on), so Studio, the Agent Inbox and the Agent Chat UI render belegt's review requests.
A graph pauses with ``interrupt([request])`` and resumes with a ``HumanResponse`` (or a list holding one);
:func:`reviewer_decision` maps it onto the reviewer decisions approve / edit / reject.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from typing_extensions import TypedDict

T = TypeVar("T")
ReviewMode = Literal["bucket", "interrupt"]
REVIEW_HELP = (
    "bucket: unsichere Ergebnisse gehen in die Prüfablage (belegt review); "
    "interrupt: der Lauf pausiert, bis ein Prüfer entscheidet (braucht einen Checkpointer)."
)


def review_field() -> Any:
    """The ``review`` field every graph context declares, with the same default and meaning."""
    return Field("bucket", description=REVIEW_HELP)


class ActionRequest(TypedDict):
    action: str
    args: dict[str, Any]


class HumanInterruptConfig(TypedDict):
    allow_ignore: bool
    allow_respond: bool
    allow_edit: bool
    allow_accept: bool


class HumanInterrupt(TypedDict):
    action_request: ActionRequest
    config: HumanInterruptConfig
    description: str | None


class EditedAction(BaseModel):
    """``args`` of an ``edit`` response: the action request with the reviewer's changed arguments."""

    action: str = ""
    args: dict[str, Any]


class HumanResponse(BaseModel):
    """LangGraph's response shape; ``reviewer`` is belegt's optional addition (names who decided). On the served
    API the server writes the signed-in key there (``graphs/server/auth.py``), so the Agent Inbox's plain
    responses carry it too; in-process the caller names the reviewer."""

    type: Literal["accept", "ignore", "response", "edit"]
    args: None | str | EditedAction = None
    reviewer: str | None = None


UNREADABLE_RESPONSE = 'Antwort unlesbar: erwartet {"type": "accept" | "edit" | "response" | "ignore", "args": …}'
ReviewAction = Literal["approve", "edit", "reject"]


class ReviewerDecision(BaseModel):
    """What a reviewer decided: approve as proposed, edit (changed arguments) or reject (with an optional note)."""

    model_config = ConfigDict(frozen=True)

    action: ReviewAction
    changes: dict[str, Any] = {}
    note: str | None = None
    reviewer: str | None = None


class Refused(ValueError):
    """The reviewer's answer cannot be carried out; the problems are shown when the reviewer is asked again."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def review_request(action: str, args: dict[str, Any], description: str, *, allow_edit: bool = True) -> HumanInterrupt:
    """A review request; ignore means reject, a text response means reject with that note."""
    return HumanInterrupt(
        action_request=ActionRequest(action=action, args=args),
        config=HumanInterruptConfig(allow_ignore=True, allow_respond=True, allow_edit=allow_edit, allow_accept=True),
        description=description,
    )


def reviewer_decision(value: object) -> ReviewerDecision:
    """Map a resume value (a ``HumanResponse`` or a list holding one) onto the reviewer's decision."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    try:
        response = HumanResponse.model_validate(value)
    except ValidationError:
        raise Refused([UNREADABLE_RESPONSE]) from None
    if response.type == "accept":
        return ReviewerDecision(action="approve", reviewer=response.reviewer)
    if response.type == "edit":
        if not isinstance(response.args, EditedAction):
            raise Refused(['Bearbeitung ohne Inhalt: erwartet "args": {"action": …, "args": {…}}'])
        return ReviewerDecision(action="edit", changes=response.args.args, reviewer=response.reviewer)
    note = response.args if isinstance(response.args, str) and response.args.strip() else None
    return ReviewerDecision(action="reject", note=note, reviewer=response.reviewer)


def human_response(decision: ReviewerDecision, action: str) -> dict[str, Any]:
    """The ``HumanResponse`` that carries ``decision`` back into a paused graph (the inverse of the mapping)."""
    if decision.action == "approve":
        response: dict[str, Any] = {"type": "accept", "args": None}
    elif decision.action == "edit":
        response = {"type": "edit", "args": {"action": action, "args": decision.changes}}
    elif decision.note:
        response = {"type": "response", "args": decision.note}
    else:
        response = {"type": "ignore", "args": None}
    return response | {"reviewer": decision.reviewer}


def decide(request_for: Callable[[list[str]], HumanInterrupt], carry_out: Callable[[ReviewerDecision], T]) -> T:
    """Pause with a request until ``carry_out`` accepts the reviewer's decision (needs a checkpointer).

    An answer that does not fit is no error: the reviewer is asked again, with the problems named.
    """
    from langgraph.types import interrupt  # on use: the CLI imports this module's types for its options

    problems: list[str] = []
    while True:
        try:
            return carry_out(reviewer_decision(interrupt([request_for(problems)])))
        except Refused as exc:
            problems = exc.problems


def markdown_section(title: str, body: str) -> str:
    return f"### {title}\n\n{body.strip() or '–'}\n"


def problems_section(problems: list[str]) -> list[str]:
    """Why the reviewer's last answer was refused, as a section (none when nothing was refused)."""
    return [markdown_section("Bearbeitung abgelehnt", "\n".join(f"- {p}" for p in problems))] if problems else []


def quoted(text: str) -> str:
    """Text as a Markdown block quote (every line)."""
    return "\n".join(f"> {line}" if line else ">" for line in text.strip().splitlines()) or "> –"
