"""One review item as the CLI and the web page show it, whatever graph and origin it has."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from stores.sql.reviews import GraphName, Origin

# What a reviewer may change per graph when editing (the scorecard gate only releases or rejects).
EDITABLE: dict[GraphName, tuple[str, ...]] = {
    "answer": ("answer",),
    "scan": ("severity", "exact_quote", "finding_text"),
    "scorecard": (),
}
SUMMARY_CHARS = 90
GRAPH_TITLES: dict[GraphName, str] = {"answer": "Antwort", "scan": "Befund", "scorecard": "Freigabe"}


def summary_of(text: str) -> str:
    """One line of at most SUMMARY_CHARS characters for the inbox list."""
    text = " ".join(text.split())
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"


class ItemNotFound(LookupError):
    def __init__(self, item_id: str) -> None:
        super().__init__(f"Kein offener Prüffall {item_id}.")
        self.item_id = item_id


class ReviewItem(BaseModel):
    """An open review item: the ``HumanInterrupt`` request plus where it comes from."""

    model_config = ConfigDict(frozen=True)

    id: str
    graph: GraphName
    origin: Origin
    created_at: datetime | None
    bot_id: str | None
    summary: str
    request: dict[str, Any]

    @property
    def args(self) -> dict[str, Any]:
        args: dict[str, Any] = self.request["action_request"]["args"]
        return args

    @property
    def reason(self) -> str:
        return str(self.args.get("reason", ""))

    @property
    def description(self) -> str:
        return str(self.request.get("description") or "")

    @property
    def editable(self) -> tuple[str, ...]:
        return EDITABLE[self.graph] if self.request["config"]["allow_edit"] else ()


class DecisionOutcome(BaseModel):
    """What became of a decision: carried out (and recorded), or refused with the problems named."""

    model_config = ConfigDict(frozen=True)

    item_id: str
    carried_out: bool
    problems: list[str] = []
    after: dict[str, Any] = {}
