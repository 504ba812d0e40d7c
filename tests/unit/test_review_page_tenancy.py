"""The review page inside the server: a key reviews its own bot's answers and the bot-less scan/scorecard items."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from graphs.review.items import ReviewItem
from graphs.review_web.app import reviewer_of, signed_in_bot, visible
from graphs.server.auth import Tenant


def _item(bot_id: str | None) -> ReviewItem:
    return ReviewItem(
        id="answer:1", graph="answer", origin="bucket", created_at=None, bot_id=bot_id, summary="", request={}
    )


def _request(user: Any) -> Request:
    return Request({"type": "http", "method": "GET", "path": "/review", "headers": [], "user": user})


def test_the_signed_in_bot_comes_from_the_authenticated_user() -> None:
    tenant = Tenant(identity="k1", bot_id="hr-demo", kb_id="demo", role="reviewer")
    assert signed_in_bot(_request(tenant.as_user())) == "hr-demo"
    assert signed_in_bot(_request(None)) is None  # the app without the server's auth (embedded, tests)


def test_a_key_sees_its_own_bot_and_bot_less_items_only() -> None:
    assert visible(_item("hr-demo"), "hr-demo") and visible(_item(None), "hr-demo")
    assert not visible(_item("secret-bot"), "hr-demo")
    assert visible(_item("secret-bot"), None)


def test_the_signed_in_key_is_the_reviewer_and_cannot_be_typed_over() -> None:
    tenant = Tenant(identity="k1", bot_id="hr-demo", kb_id="demo", role="reviewer", label="Eva Prüfer")
    assert reviewer_of(_request(tenant.as_user()), {"reviewer": "Mallory"}) == "Eva Prüfer (Schlüssel k1)"
    unlabelled = Tenant(identity="k2", bot_id="hr-demo", kb_id="demo", role="admin")
    assert reviewer_of(_request(unlabelled.as_user()), {}) == "Schlüssel k2"
    assert reviewer_of(_request(None), {"reviewer": " Eva "}) == "Eva"  # without the server: the typed name
