"""The review page as a Starlette app; ``langgraph.json`` mounts ``app`` into the LangGraph server (``http.app``).

Inside the server the inbox reads the database of the process-wide resources and the server's own pending
interrupts through ``langgraph_sdk.get_client()`` (in-process, no URL).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any
from urllib.parse import parse_qsl, quote

from langgraph_sdk import get_client
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route, Router
from starlette.types import ASGIApp, Receive, Scope, Send

from graphs.resources import app_resources
from graphs.review.inbox import ReviewInbox
from graphs.review.items import EDITABLE, ItemNotFound, ReviewItem
from graphs.review.served import ServedReviews
from graphs.review_web.pages import error_page, item_page, list_page, login_page
from graphs.server.auth import REVIEW_COOKIE, REVIEW_LOGIN_PATH, REVIEW_PATH, REVIEWER_PATH, cached_tenant
from nodes.shared.review import ReviewerDecision
from stores.sql.reviews import AlreadyDecided, GraphName

GRAPHS: tuple[GraphName, ...] = ("answer", "scan", "scorecard")
# A problem with a key presented at the login, or None when it may review.
KeyCheck = Callable[[str], Awaitable[str | None]]


async def form_of(request: Request) -> dict[str, str]:
    """The posted form (application/x-www-form-urlencoded, all this page sends)."""
    return dict(parse_qsl((await request.body()).decode("utf-8"), keep_blank_values=True))


def reviewer_of(request: Request, form: dict[str, str]) -> str:
    """Who decides: the signed-in key inside the server; the name entered in the form where no key signs in."""
    return signed_in_reviewer(request) or str(form.get("reviewer") or "").strip()


def signed_in_bot(request: Request) -> str | None:
    """The bot of the key the server authenticated; None where the app runs without the server's auth."""
    get = getattr(request.scope.get("user"), "get", None)
    return get("bot_id") if callable(get) else None


def signed_in_reviewer(request: Request) -> str | None:
    """The signed-in key's display name (label and key id); None where no key signed in."""
    user = request.scope.get("user")
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return str(user.display_name)


def visible(item: ReviewItem, bot: str | None) -> bool:
    """A key reviews its own bot's answers; scan and scorecard items belong to no bot."""
    return bot is None or item.bot_id in (None, bot)


def create_app(inbox: Callable[[], ReviewInbox], check_key: KeyCheck) -> Starlette:
    async def opened() -> ReviewInbox:
        return await asyncio.to_thread(inbox)  # the first call opens the database: not on the event loop

    async def visible_item(request: Request) -> ReviewItem:
        item = await (await opened()).item(request.path_params["item_id"])
        if not visible(item, signed_in_bot(request)):
            raise ItemNotFound(item.id)
        return item

    async def login_form(request: Request) -> Response:
        return HTMLResponse(login_page(problem=None))

    async def login(request: Request) -> Response:
        key = (await form_of(request)).get("key", "").strip()
        problem = await check_key(key) if key else "Bitte einen API-Schlüssel eingeben."
        if problem:
            return HTMLResponse(login_page(problem=problem), status_code=401)
        response = RedirectResponse(REVIEW_PATH, status_code=303)
        response.set_cookie(
            REVIEW_COOKIE, key, path=REVIEW_PATH, httponly=True, samesite="strict", secure=request.url.scheme == "https"
        )
        return response

    async def reviewer(request: Request) -> Response:
        """The signed-in key's name, as resumes are signed with it (``belegt review … --server`` records it)."""
        name = signed_in_reviewer(request)
        if name is None:
            return JSONResponse({"detail": "Kein Prüferschlüssel angemeldet."}, status_code=401)
        return JSONResponse({"reviewer": name})

    async def list_items(request: Request) -> Response:
        graph = request.query_params.get("graph")
        bot = request.query_params.get("bot") or None
        chosen = graph if graph in GRAPHS else None
        own = signed_in_bot(request)
        items = [i for i in await (await opened()).items(graph=chosen, bot_id=bot) if visible(i, own)]
        return HTMLResponse(list_page(items, graph=chosen, bot=bot, notice=request.query_params.get("entschieden")))

    async def show_item(request: Request) -> Response:
        try:
            item = await visible_item(request)
        except ItemNotFound as exc:
            return HTMLResponse(error_page(str(exc)), status_code=404)
        reviewer = signed_in_reviewer(request)
        return HTMLResponse(item_page(item, problems=[], reviewer=reviewer or "", values={}, signed_in=bool(reviewer)))

    async def decide(request: Request) -> Response:
        item_id = request.path_params["item_id"]
        form = await form_of(request)
        reviewer = reviewer_of(request, form)
        try:
            item = await visible_item(request)
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
        signed_in = signed_in_reviewer(request) is not None
        page = item_page(item, problems=problems, reviewer=reviewer, values=values, signed_in=signed_in)
        return HTMLResponse(page, status_code=422)

    return Starlette(
        routes=[
            Route(REVIEW_LOGIN_PATH, login_form),
            Route(REVIEW_LOGIN_PATH, login, methods=["POST"]),
            Route(REVIEW_PATH, list_items),
            Route(REVIEWER_PATH, reviewer),
            Route("/review/items/{item_id:path}/decision", decide, methods=["POST"]),
            Route("/review/items/{item_id:path}", show_item),
        ]
    )


ACTION_NAMES = {"approve": "freigegeben", "edit": "bearbeitet freigegeben", "reject": "abgelehnt"}


@cache
def served_inbox() -> ReviewInbox:
    """The inbox of the server this app runs in: its database and its own pending interrupts."""
    return ReviewInbox(app_resources().database, ServedReviews(get_client()))


async def reviewer_key_problem(key: str) -> str | None:
    """The server's own key check: a known, unrevoked key of a reviewer or an admin."""
    tenant = await cached_tenant(key)
    if tenant is None:
        return "Dieser API-Schlüssel ist unbekannt oder widerrufen."
    return "Nur Schlüssel mit der Rolle reviewer oder admin dürfen prüfen." if tenant.role == "user" else None


class LifespanToRouter:
    """Hands the server's start-up and shutdown straight to the router, past the server's global middleware.

    langgraph-api 0.11.1 adds ``EnsureStoreAccessible`` to a custom app's middleware; it asks for the store on
    every scope, the lifespan included, which is before the runtime's lifespan has opened anything. The
    in-memory store exists at import, the PostgreSQL runtime's raises ("Store requires setup_store()/
    start_pool() first"), so without this the production server stops at start-up.
    """

    def __init__(self, app: ASGIApp, router: Router) -> None:
        self.app = app
        self.router = router

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await (self.router if scope["type"] == "lifespan" else self.app)(scope, receive, send)


app: Any = create_app(served_inbox, reviewer_key_problem)
# The server puts a custom app's own middleware outermost (before its global middleware and the store's).
app.user_middleware.insert(0, Middleware(LifespanToRouter, router=app.router))
