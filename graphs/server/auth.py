"""Authentication and tenancy of the served graphs (langgraph.json ``auth``), for ``langgraph dev`` and production.

A request carries an API key (``x-api-key`` or ``Authorization: Bearer``); the key names one bot, so the
tenant — bot, KB and strictness — comes from the identity, never from the run's context. Every thread, run
and assistant is tagged with its owner and bot, and every read or search is filtered by them.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from dataclasses import dataclass
from functools import lru_cache
from http.cookies import SimpleCookie
from typing import Any

from langgraph_sdk import Auth
from starlette.authentication import BaseUser
from starlette.exceptions import HTTPException  # the server passes only 401/403 of Auth's own exception on

from graphs.resources import app_resources
from graphs.server.limits import RateLimiter, clamp_answer_context
from graphs.server.settings import ServerSettings
from stores.sql.api_keys import ApiKeyStore, Role
from stores.sql.bots import BotNotFound, BotStore

KEY_CACHE_TTL_S = 5.0  # a revoked key stops working within this many seconds
KEY_CACHE_SIZE = 10_000
REVIEW_PATH = "/review"  # the review page (langgraph.json http.app), for reviewer and admin keys
REVIEW_LOGIN_PATH = "/review/login"  # where a browser hands over its key once; the page checks it itself
REVIEWER_PATH = "/review/reviewer"  # the name a reviewer key decides under (the CLI asks it before a decision)
# A browser cannot send x-api-key: the login keeps the key in an HttpOnly, SameSite=Strict cookie that is
# valid for the review page only, never for the API (so no other site can make a browser call the API).
REVIEW_COOKIE = "belegt_review_key"
# Health probes expose no tenant data; the login form is open so that a browser can reach it at all.
OPEN_PATHS = frozenset({"/ok", "/info", REVIEW_LOGIN_PATH})
DEV_ROLE: Role = "admin"  # the development key drives Studio, which also edits assistants

MISSING_KEY = "missing_api_key: Bitte einen API-Schlüssel im Header x-api-key senden."
INVALID_KEY = "invalid_api_key: Der API-Schlüssel ist unbekannt oder widerrufen."
BODY_TOO_LARGE = "body_too_large: Die Anfrage ist größer als {limit} Bytes."
RATE_LIMITED = "rate_limited: Zu viele Anfragen mit diesem Schlüssel; bitte in {seconds} s erneut versuchen."
FOREIGN_TENANT = "foreign_tenant: Dieser Schlüssel gehört zu Bot '{bot_id}'; {field}={value!r} ist nicht erlaubt."
QUESTION_TOO_LONG = "question_too_long: Die Frage hat {length} Zeichen; erlaubt sind höchstens {limit}."
REVIEWERS_ONLY = "reviewers_only: Die Prüfseite ist nur für Prüfer- und Admin-Schlüssel."
DECIDERS_ONLY = "reviewers_only: Nur Prüfer- und Admin-Schlüssel entscheiden pausierte Läufe."
STATE_WRITERS_ONLY = "reviewers_only: Nur Prüfer- und Admin-Schlüssel ändern den Zustand eines Laufs."
ADMIN_ONLY = "admin_only: Nur Admin-Schlüssel dürfen Assistenten anlegen oder ändern."
CRONS_DISABLED = "crons_disabled: Zeitgesteuerte Läufe sind über die API nicht freigegeben."
FOREIGN_NAMESPACE = "foreign_namespace: Store-Einträge liegen unter dem Namensraum ('{identity}', …)."

auth = Auth()


class TenantUser(dict[str, Any], BaseUser):
    """The authenticated user as a plain dict too: the PostgreSQL runtime stores it in the run's config as JSON."""

    @property
    def identity(self) -> str:
        return str(self["identity"])

    @property
    def is_authenticated(self) -> bool:
        return bool(self["is_authenticated"])

    @property
    def display_name(self) -> str:
        return str(self["display_name"])


@dataclass(frozen=True)
class Tenant:
    """Who is asking: the key's id (owner), its bot, the bot's KB, the key's role and its label."""

    identity: str
    bot_id: str
    kb_id: str
    role: Role
    label: str | None = None

    @property
    def reviewer(self) -> str:
        """The name a review decision records: the key's label (who it was issued to) and its id."""
        return f"{self.label} (Schlüssel {self.identity})" if self.label else f"Schlüssel {self.identity}"

    def as_user(self) -> TenantUser:
        return TenantUser(
            {
                "identity": self.identity,
                "display_name": self.reviewer,  # who decides a review: the page shows it, resumes are signed with it
                "is_authenticated": True,
                "permissions": [self.role],
                "bot_id": self.bot_id,
                "kb_id": self.kb_id,
                "role": self.role,
            }
        )

    @property
    def tags(self) -> dict[str, str]:
        return {"owner": self.identity, "bot_id": self.bot_id}

    @property
    def read_filter(self) -> dict[str, str]:
        """Users see their own threads and runs; reviewers and admins all of their bot's."""
        return {"owner": self.identity} if self.role == "user" else {"bot_id": self.bot_id}


def tenant_of(ctx: Auth.types.AuthContext) -> Tenant:
    user = ctx.user
    return Tenant(identity=user.identity, bot_id=user["bot_id"], kb_id=user["kb_id"], role=user["role"])


@lru_cache(maxsize=1)
def server_settings() -> ServerSettings:
    return app_resources().settings


@lru_cache(maxsize=1)
def rate_limiter() -> RateLimiter:
    settings = server_settings()
    return RateLimiter(per_minute=settings.server_rate_limit_per_minute, burst=settings.server_rate_limit_burst)


_verified: dict[str, tuple[float, Tenant | None]] = {}


def lookup_tenant(presented: str) -> Tenant | None:
    """The tenant of a key text (development key included), or None; blocking, so called in a thread."""
    resources = app_resources()
    dev_key = resources.settings.dev_api_key
    label: str | None
    if dev_key is not None and hmac.compare_digest(presented.encode(), dev_key.get_secret_value().encode()):
        identity, bot_id, role, label = "dev", resources.settings.dev_bot, DEV_ROLE, "Entwicklung"
    else:
        key = ApiKeyStore(resources.database).verify(presented)
        if key is None:
            return None
        identity, bot_id, role, label = key.id, key.bot_id, key.role, key.label
    try:
        kb_id = BotStore(resources.database).get(bot_id).kb_id
    except BotNotFound:
        return None
    return Tenant(identity=identity, bot_id=bot_id, kb_id=kb_id, role=role, label=label)


async def cached_tenant(presented: str) -> Tenant | None:
    now = time.monotonic()
    hit = _verified.get(presented)
    if hit is not None and hit[0] > now:
        return hit[1]
    tenant = await asyncio.to_thread(lookup_tenant, presented)
    if len(_verified) >= KEY_CACHE_SIZE:  # random wrong keys must not grow the cache without bound
        _verified.clear()
    _verified[presented] = (now + KEY_CACHE_TTL_S, tenant)
    return tenant


def presented_key(headers: dict[bytes, bytes], path: str) -> str | None:
    if key := headers.get(b"x-api-key"):
        return key.decode("latin-1").strip()
    authorization = headers.get(b"authorization", b"").decode("latin-1")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    if path.startswith(REVIEW_PATH):
        cookies = SimpleCookie()
        cookies.load(headers.get(b"cookie", b"").decode("latin-1"))
        if REVIEW_COOKIE in cookies and cookies[REVIEW_COOKIE].value.strip():
            return cookies[REVIEW_COOKIE].value.strip()
    return None


@auth.authenticate
async def authenticate(headers: dict[bytes, bytes], path: str) -> TenantUser:
    if path in OPEN_PATHS:
        return TenantUser(identity="anonymous", display_name="anonymous", is_authenticated=False, permissions=[])
    settings = server_settings()
    declared = headers.get(b"content-length", b"0").decode("latin-1")
    if declared.isdigit() and int(declared) > settings.server_max_body_bytes:
        raise HTTPException(413, BODY_TOO_LARGE.format(limit=settings.server_max_body_bytes))
    key = presented_key(headers, path)
    if key is None:
        raise Auth.exceptions.HTTPException(401, MISSING_KEY)
    tenant = await cached_tenant(key)
    if tenant is None:
        raise Auth.exceptions.HTTPException(401, INVALID_KEY)
    if path.startswith(REVIEW_PATH) and tenant.role == "user":
        raise Auth.exceptions.HTTPException(403, REVIEWERS_ONLY)
    wait = rate_limiter().retry_after(tenant.identity)
    if wait is not None:
        raise HTTPException(429, RATE_LIMITED.format(seconds=wait), headers={"Retry-After": str(wait)})
    return tenant.as_user()


def pinned_context(tenant: Tenant, context: dict[str, Any], settings: ServerSettings) -> dict[str, Any]:
    """403 for a context naming another bot or KB; else the bot pinned, KB and strictness left to the bot and
    every limit clamped. Set explicitly, because an assistant's context is merged underneath the run's."""
    for field, allowed in (("bot_id", tenant.bot_id), ("kb_id", tenant.kb_id)):
        value = context.get(field)
        if value is not None and value != allowed:
            raise Auth.exceptions.HTTPException(
                403, FOREIGN_TENANT.format(bot_id=tenant.bot_id, field=field, value=value)
            )
    return clamp_answer_context(context, settings) | {"bot_id": tenant.bot_id, "kb_id": None, "strictness": None}


def pin_run(tenant: Tenant, kwargs: dict[str, Any], settings: ServerSettings) -> None:
    """The run's question length checked, its context pinned in ``context`` and ``config.configurable`` alike
    (the server copies one into the other, and a client may use either)."""
    run_input = kwargs.get("input")
    question = run_input.get("question") if isinstance(run_input, dict) else None
    if isinstance(question, str) and len(question) > settings.server_max_question_chars:
        raise Auth.exceptions.HTTPException(
            422, QUESTION_TOO_LONG.format(length=len(question), limit=settings.server_max_question_chars)
        )
    config = kwargs.setdefault("config", {})  # mutated in place: the runtime already holds this dict
    configurable = config.setdefault("configurable", {})
    pinned_context(tenant, configurable, settings)
    context = kwargs.get("context")
    if not isinstance(context, dict):
        context = kwargs["context"] = {}
    replace_contents(context, pinned_context(tenant, context, settings))
    configurable.update(context)


def signed_resume(resume: Any, reviewer: str) -> Any:
    """The resume value with every ``HumanResponse`` in it signed by the key that sends it (over any name typed
    in). The signature travels with the value: a node that pauses several times (the scan, once per finding)
    replays earlier answers on each resume, so the user of the latest run cannot say who gave them."""
    if isinstance(resume, list):
        return [signed_resume(item, reviewer) for item in resume]
    if isinstance(resume, dict):
        if "type" in resume:
            return resume | {"reviewer": reviewer}
        return {interrupt_id: signed_resume(item, reviewer) for interrupt_id, item in resume.items()}
    return resume


def tag(value: Any, tags: dict[str, str]) -> None:
    """Merge tags into the value's metadata in place: the runtime keeps a reference to that very dict."""
    metadata = value.get("metadata")
    if metadata is None:
        metadata = value["metadata"] = {}
    metadata.update(tags)


def replace_contents(target: dict[str, Any], source: dict[str, Any]) -> None:
    target.clear()
    target.update(source)


@auth.on.threads.create
async def on_thread_create(ctx: Auth.types.AuthContext, value: Auth.types.ThreadsCreate) -> None:
    tag(value, tenant_of(ctx).tags)


@auth.on.threads.update
async def on_thread_update(ctx: Auth.types.AuthContext, value: Auth.types.ThreadsUpdate) -> Auth.types.FilterType:
    tenant = tenant_of(ctx)
    if value.get("metadata") is None and tenant.role == "user":
        # a state update (POST /threads/{id}/state) could write a held answer past its review
        raise Auth.exceptions.HTTPException(403, STATE_WRITERS_ONLY)
    if value.get("metadata") is not None:
        value["metadata"].pop("owner", None)  # a thread keeps its owner; reviewers must not take it over
        tag(value, {"bot_id": tenant.bot_id})
    return tenant.read_filter


@auth.on.threads.create_run
async def on_run_create(ctx: Auth.types.AuthContext, value: Auth.types.RunsCreate) -> Auth.types.FilterType:
    tenant = tenant_of(ctx)
    command = value["kwargs"].get("command")
    if isinstance(command, dict):
        if tenant.role == "user":  # resume, goto or update steer a paused run: a user cannot release its own content
            raise Auth.exceptions.HTTPException(403, DECIDERS_ONLY)
        if command.get("resume") is not None:
            command["resume"] = signed_resume(command["resume"], ctx.user.display_name)
    tag(value, tenant.tags)
    pin_run(tenant, value["kwargs"], server_settings())
    return tenant.read_filter


@auth.on.threads
async def on_thread_access(ctx: Auth.types.AuthContext, value: Any) -> Auth.types.FilterType:
    """Read, search, delete and the rest: only the tenant's own threads and their runs."""
    return tenant_of(ctx).read_filter


@auth.on.assistants
async def on_assistant_access(ctx: Auth.types.AuthContext, value: Any) -> Auth.types.FilterType:
    """Everyone reads the built-in assistants and their bot's; only admins create, change or delete."""
    tenant = tenant_of(ctx)
    if ctx.action in ("read", "search"):
        return {"$or": [{"bot_id": tenant.bot_id}, {"created_by": "system"}]}  # type: ignore[return-value]
    if tenant.role != "admin":
        raise Auth.exceptions.HTTPException(403, ADMIN_ONLY)
    if ctx.action == "create" or value.get("metadata") is not None:
        tag(value, {"bot_id": tenant.bot_id, "created_by": tenant.identity})
    if isinstance(value.get("context"), dict):
        replace_contents(value["context"], pinned_context(tenant, value["context"], server_settings()))
    return {"bot_id": tenant.bot_id}


@auth.on.crons
async def on_cron_access(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Cron rows carry no owner this runtime lets a handler set, so scheduled runs stay closed."""
    raise Auth.exceptions.HTTPException(403, CRONS_DISABLED)


@auth.on.store()
async def on_store_access(ctx: Auth.types.AuthContext, value: Any) -> None:
    """Store items live under the owner's namespace: ``(key id, …)``."""
    identity = ctx.user.identity
    namespace = tuple(value.get("namespace") or ())
    if not namespace or namespace[0] != identity:
        raise Auth.exceptions.HTTPException(403, FOREIGN_NAMESPACE.format(identity=identity))
