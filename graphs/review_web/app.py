"""The review page as a Starlette app; ``langgraph.json`` mounts ``app`` into the LangGraph server (``http.app``).

Inside the server the inbox reads the database of the process-wide resources and the server's own pending
interrupts through ``langgraph_sdk.get_client()`` (in-process, no URL).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import cache
from typing import Any
from urllib.parse import parse_qsl, quote

from langgraph_sdk import get_client
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from graphs.resources import app_resources
from graphs.review.inbox import ReviewInbox
from graphs.review.items import EDITABLE, ItemNotFound
from graphs.review.served import ServedReviews
from graphs.review_web.pages import error_page, item_page, list_page
from nodes.shared.review import ReviewerDecision
from stores.sql.reviews import AlreadyDecided, GraphName

GRAPHS: tuple[GraphName, ...] = ("answer", "scan", "scorecard")


async def form_of(request: Request) -> dict[str, str]:
    """The posted form (application/x-www-form-urlencoded, all this page sends)."""
    return dict(parse_qsl((await request.body()).decode("utf-8"), keep_blank_values=True))


def reviewer_of(request: Request, form: dict[str, str]) -> str:
    """Who decides: the name entered in the form (the one place to take it from the signed-in user later)."""
    return str(form.get("reviewer") or "").strip()


def create_app(inbox: Callable[[], ReviewInbox]) -> Starlette:
    async def opened() -> ReviewInbox:
        return await asyncio.to_thread(inbox)  # the first call opens the database: not on the event loop

    async def list_items(request: Request) -> Response:
        graph = request.query_params.get("graph")
        bot = request.query_params.get("bot") or None
        chosen = graph if graph in GRAPHS else None
        items = await (await opened()).items(graph=chosen, bot_id=bot)
        return HTMLResponse(list_page(items, graph=chosen, bot=bot, notice=request.query_params.get("entschieden")))

    async def show_item(request: Request) -> Response:
        try:
            item = await (await opened()).item(request.path_params["item_id"])
        except ItemNotFound as exc:
            return HTMLResponse(error_page(str(exc)), status_code=404)
        return HTMLResponse(item_page(item, problems=[], reviewer="", values={}))

    async def decide(request: Request) -> Response:
        item_id = request.path_params["item_id"]
        form = await form_of(request)
        reviewer = reviewer_of(request, form)
        try:
            item = await (await opened()).item(item_id)
        except ItemNotFound as exc:
            return HTMLResponse(error_page(str(exc)), status_code=404)
        values = {name: str(form.get(name) or "") for name in EDITABLE[item.graph]}
        action = str(form.get("action"))
        problems = [] if reviewer else ["Bitte Ihren Namen als Prüfer angeben."]
        if action not in ("approve", "edit", "reject"):
            problems.append("Unbekannte Entscheidung.")
        if not problems:
            decision = ReviewerDecision(
                action=action,
                changes={name: value for name, value in values.items() if value} if action == "edit" else {},
                note=str(form.get("note") or "").strip() or None,
            )
            try:
                outcome = await (await opened()).decide(item_id, decision, reviewer)
            except (ItemNotFound, AlreadyDecided) as exc:
                return HTMLResponse(error_page(str(exc)), status_code=409)
            if outcome.carried_out:
                notice = quote(f"{item_id} entschieden ({ACTION_NAMES[action]}).")
                return RedirectResponse(f"/review?entschieden={notice}", status_code=303)
            problems = outcome.problems
        return HTMLResponse(item_page(item, problems=problems, reviewer=reviewer, values=values), status_code=422)

    return Starlette(
        routes=[
            Route("/review", list_items),
            Route("/review/items/{item_id:path}/decision", decide, methods=["POST"]),
            Route("/review/items/{item_id:path}", show_item),
        ]
    )


ACTION_NAMES = {"approve": "freigegeben", "edit": "bearbeitet freigegeben", "reject": "abgelehnt"}


@cache
def served_inbox() -> ReviewInbox:
    """The inbox of the server this app runs in: its database and its own pending interrupts."""
    return ReviewInbox(app_resources().database, ServedReviews(get_client()))


app: Any = create_app(served_inbox)
