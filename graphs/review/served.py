"""Pending interrupts on the served API (``langgraph_sdk``): threads paused with a ``HumanInterrupt`` request."""

from __future__ import annotations

from typing import Any, cast

import httpx
from langgraph_sdk.client import LangGraphClient
from langgraph_sdk.schema import Command, Thread

from graphs.review.items import ItemNotFound, ReviewItem, summary_of
from stores.sql.reviews import GraphName

THREADS_PER_PAGE = 100
_GRAPHS: tuple[GraphName, ...] = ("answer", "scan", "scorecard")
_RESULT_KEYS = ("bucket", "answer", "review_decision")


def _request(value: Any) -> dict[str, Any] | None:
    """The ``HumanInterrupt`` inside an interrupt value (``interrupt([request])``), if it is one."""
    request = value[0] if isinstance(value, list) and len(value) == 1 else value
    if isinstance(request, dict) and {"action_request", "config"} <= request.keys():
        return request
    return None


class ServedReviews:
    """Lists and resumes paused threads; an item's id is ``live:<thread id>`` (one open request per thread)."""

    def __init__(self, client: LangGraphClient) -> None:
        self._client = client

    async def items(self, *, graph: GraphName | None = None, bot_id: str | None = None) -> list[ReviewItem]:
        items: list[ReviewItem] = []
        offset = 0
        while True:
            page = await self._client.threads.search(status="interrupted", limit=THREADS_PER_PAGE, offset=offset)
            for thread in page:
                item = _item(thread)
                if item and graph in (None, item.graph) and bot_id in (None, item.bot_id):
                    items.append(item)
            if len(page) < THREADS_PER_PAGE:
                return items
            offset += THREADS_PER_PAGE

    async def item(self, item_id: str) -> tuple[ReviewItem, str]:
        """The open item and the id of the interrupt it answers."""
        thread_id = item_id.removeprefix("live:")
        try:
            thread = await self._client.threads.get(thread_id)
        except httpx.HTTPStatusError as exc:  # 404, or 422 for a malformed id: no such item either way
            if exc.response.status_code not in (404, 422):
                raise
            raise ItemNotFound(item_id) from None
        item, pending = _item(thread), _pending(thread)
        if item is None or pending is None:
            raise ItemNotFound(item_id)
        return item, pending[0]

    async def resume(self, item: ReviewItem, response: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """Resume the thread with ``response``; returns the run's result and the problems if it asked again."""
        thread_id = item.id.removeprefix("live:")
        values = await self._client.runs.wait(thread_id, item.graph, command=Command(resume=[response]))
        thread = await self._client.threads.get(thread_id)
        again = _pending(thread)
        problems: list[str] = []
        if again and again[1]["action_request"]["action"] == item.request["action_request"]["action"]:
            problems = list(again[1]["action_request"]["args"].get("violations") or [])
        result = values if isinstance(values, dict) else {}
        after = {key: result[key] for key in _RESULT_KEYS if key in result}
        if "validation" in result:
            after["status"] = result["validation"].get("status")
        return after, problems


def _pending(thread: Thread) -> tuple[str, dict[str, Any]] | None:
    for interrupts in (thread.get("interrupts") or {}).values():
        for pending in interrupts:
            request = _request(pending["value"])
            if request is not None:
                return pending["id"], request
    return None


def _item(thread: Thread) -> ReviewItem | None:
    pending = _pending(thread)
    graph = (thread.get("metadata") or {}).get("graph_id")
    if not pending or graph not in _GRAPHS:
        return None
    values = cast(dict[str, Any], thread.get("values") or {})
    policy = values.get("policy") or {}
    request = pending[1]
    args = request["action_request"]["args"]
    summary = args.get("question") or args.get("content_id") or f"{args.get('stable_id')}: {args.get('finding_text')}"
    return ReviewItem(
        id=f"live:{thread['thread_id']}",
        graph=graph,
        origin="interrupt",
        created_at=thread.get("updated_at"),
        bot_id=policy.get("bot_id") if isinstance(policy, dict) else None,
        summary=summary_of(str(summary)),
        request=request,
    )
