"""Property test of the auth handlers, in process: random (identity, bot, KB, context, resource) attempts.

Each example creates resources through the handlers as their owners would (so they carry the handlers' tags),
then lets a random identity try to read, change or run against them. The filters the handlers return are
applied with the runtime's metadata semantics (equality, ``$or``). Expected: no cross-tenant read or write of
threads, runs, assistants, store items or KB entries, and 401 without a key. A bounded live sample of the
same attempts runs against the PostgreSQL server in tests/integration/test_served_api.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph_sdk import Auth

from graphs.resources import app_resources
from graphs.server import auth
from graphs.server.auth import Tenant
from graphs.server.settings import ServerSettings
from stores.sql.api_keys import ROLES, ApiKeyStore
from stores.sql.bots import BotStore
from stores.sql.engine import open_database

BOTS = {"hr": "kb-hr", "fin": "kb-fin", "ops": "kb-ops"}
TENANTS = [Tenant(f"{bot}-{role}-{n}", bot, kb, role) for bot, kb in BOTS.items() for role in ROLES for n in (1, 2)]
SETTINGS = ServerSettings()


def matches(metadata: dict[str, Any], flt: dict[str, Any] | None) -> bool:
    """The runtime's filter semantics for the operators our handlers return."""
    if not flt:
        return True
    for key, expected in flt.items():
        if key == "$or":
            if not any(matches(metadata, branch) for branch in expected):
                return False
        elif metadata.get(key) != expected:
            return False
    return True


def ctx(tenant: Tenant, resource: str, action: str) -> Auth.types.AuthContext:
    return Auth.types.AuthContext(
        user=tenant.as_user(),  # type: ignore[arg-type]
        permissions=[tenant.role],
        resource=resource,  # type: ignore[arg-type]
        action=action,  # type: ignore[arg-type]
    )


def call(handler: Any, tenant: Tenant, resource: str, action: str, value: dict[str, Any]) -> tuple[int, Any]:
    """(status, filter): 200 and the returned filter, or the HTTP status the handler raised."""
    try:
        return 200, asyncio.run(handler(ctx(tenant, resource, action), value))
    except Auth.exceptions.HTTPException as exc:
        return exc.status_code, None


def created_thread(owner: Tenant, client_metadata: dict[str, str]) -> dict[str, Any]:
    value: dict[str, Any] = {"thread_id": None, "metadata": dict(client_metadata), "if_exists": "raise"}
    status, _ = call(auth.on_thread_create, owner, "threads", "create", value)
    assert status == 200
    return dict(value["metadata"])


def may_see(reader: Tenant, owner: Tenant) -> bool:
    return reader.identity == owner.identity or (reader.role != "user" and reader.bot_id == owner.bot_id)


tenants = st.sampled_from(TENANTS)
names = st.sampled_from([*BOTS, *BOTS.values(), "unbekannt", None])
forged = st.fixed_dictionaries({}, optional={"owner": st.sampled_from([t.identity for t in TENANTS]), "bot_id": names})
limits = st.fixed_dictionaries(
    {},
    optional={
        "max_question_chars": st.integers(10, 10**7),
        "prompt_budget_tokens": st.integers(200, 10**6),
        "retrieval_limit": st.integers(1, 50),
        "survey_retrieval_limit": st.integers(1, 50),
        "confidence_threshold": st.floats(0, 1),
    },
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(owner=tenants, reader=tenants, metadata=forged, action=st.sampled_from(["read", "search", "update", "delete"]))
def test_threads_and_their_runs_are_seen_only_by_their_tenant(
    owner: Tenant, reader: Tenant, metadata: dict[str, str], action: str
) -> None:
    stored = created_thread(owner, metadata)
    assert stored["owner"] == owner.identity and stored["bot_id"] == owner.bot_id  # forged tags are overwritten
    handler = auth.on_thread_update if action == "update" else auth.on_thread_access
    value: dict[str, Any] = {"thread_id": "t", "metadata": {"owner": reader.identity, "bot_id": "fin"}}
    status, flt = call(handler, reader, "threads", action, value)
    assert status == 200 and matches(stored, flt) == may_see(reader, owner)
    if action == "update":
        assert "owner" not in value["metadata"] and value["metadata"]["bot_id"] == reader.bot_id


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    actor=tenants,
    thread_owner=tenants,
    context=st.fixed_dictionaries({}, optional={"bot_id": names, "kb_id": names, "strictness": st.integers(1, 5)}),
    limits=limits,
    in_configurable=st.booleans(),
)
def test_runs_use_the_identitys_bot_or_get_403_and_limits_are_clamped(
    actor: Tenant, thread_owner: Tenant, context: dict[str, Any], limits: dict[str, Any], in_configurable: bool
) -> None:
    stored = created_thread(thread_owner, {})
    sent = context | limits
    kwargs: dict[str, Any] = {"input": {"question": "Frage?"}, "config": {"configurable": {}}, "context": {}}
    kwargs["config" if in_configurable else "context"] = {"configurable": dict(sent)} if in_configurable else dict(sent)
    value: dict[str, Any] = {"thread_id": "t", "assistant_id": "answer", "metadata": {}, "kwargs": kwargs}
    status, flt = call(auth.on_run_create, actor, "threads", "create_run", value)
    foreign = any(
        sent.get(f) not in (None, allowed) for f, allowed in (("bot_id", actor.bot_id), ("kb_id", actor.kb_id))
    )
    if foreign:
        assert status == 403
        return
    assert status == 200 and matches(stored, flt) == may_see(actor, thread_owner)
    for pinned in (kwargs["context"], kwargs["config"]["configurable"]):
        assert pinned["bot_id"] == actor.bot_id and pinned["kb_id"] is None and pinned["strictness"] is None
        assert BOTS[pinned["bot_id"]] == actor.kb_id  # the KB the graph will read is the identity's own
        assert pinned["max_question_chars"] <= SETTINGS.server_max_question_chars
        assert pinned["prompt_budget_tokens"] <= SETTINGS.server_max_prompt_budget_tokens
        assert max(pinned["retrieval_limit"], pinned["survey_retrieval_limit"]) <= SETTINGS.server_max_candidates
        assert pinned["confidence_threshold"] >= SETTINGS.server_min_confidence_threshold
    assert value["metadata"] == actor.tags


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actor=tenants, creator=tenants, action=st.sampled_from(["create", "update", "delete", "read", "search"]))
def test_assistants_are_changed_only_by_admins_and_read_within_the_bot(
    actor: Tenant, creator: Tenant, action: str
) -> None:
    system = {"created_by": "system"}
    created: dict[str, Any] = {"graph_id": "answer", "metadata": {}, "context": {}}
    if creator.role == "admin":
        assert call(auth.on_assistant_access, creator, "assistants", "create", created)[0] == 200
    value: dict[str, Any] = {"assistant_id": "a", "metadata": {"bot_id": "fin"}, "context": {}}
    status, flt = call(auth.on_assistant_access, actor, "assistants", action, value)
    if action in ("read", "search"):
        assert status == 200 and matches(system, flt)
        if creator.role == "admin":
            assert matches(created["metadata"], flt) == (actor.bot_id == creator.bot_id)
        return
    if actor.role != "admin":
        assert status == 403
        return
    assert status == 200 and not matches(system, flt)  # built-in assistants stay unchanged
    if creator.role == "admin":
        assert matches(created["metadata"], flt) == (actor.bot_id == creator.bot_id)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    actor=tenants,
    owner=tenants,
    rest=st.lists(st.text(min_size=1, max_size=5), max_size=2),
    action=st.sampled_from(["put", "get", "search", "delete", "list_namespaces"]),
)
def test_store_items_live_only_under_the_owners_namespace(
    actor: Tenant, owner: Tenant, rest: list[str], action: str
) -> None:
    value = {"namespace": (owner.identity, *rest), "key": "k"}
    status, _ = call(auth.on_store_access, actor, "store", action, value)
    assert (status == 200) == (actor.identity == owner.identity)


@pytest.fixture
def key_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ApiKeyStore, dict[str, str]]]:
    monkeypatch.setenv("BELEGT_DATA_DIR", str(tmp_path))
    app_resources.cache_clear()
    auth.server_settings.cache_clear()
    auth.rate_limiter.cache_clear()
    auth._verified.clear()
    database = open_database(f"sqlite:///{tmp_path / 'belegt.db'}")
    bots = BotStore(database)
    store = ApiKeyStore(database)
    keys = {}
    for bot, kb in BOTS.items():
        bots.create(bot, name=bot, kb_id=kb)
        keys[bot] = store.create(bot, "user")[1]
    yield store, keys
    app_resources().close()
    app_resources.cache_clear()
    auth.server_settings.cache_clear()
    auth._verified.clear()
    database.dispose()


def authenticate(headers: dict[bytes, bytes]) -> int | dict[str, Any]:
    try:
        return dict(asyncio.run(auth.authenticate(headers=headers, path="/threads/search")))
    except Auth.exceptions.HTTPException as exc:
        return exc.status_code


def test_without_a_valid_key_every_request_gets_401(key_store: tuple[ApiKeyStore, dict[str, str]]) -> None:
    store, keys = key_store
    assert authenticate({}) == 401
    assert authenticate({b"x-api-key": b"blg_nope_nope"}) == 401
    assert authenticate({b"authorization": b"Basic " + keys["hr"].encode()}) == 401
    tampered = keys["hr"][:-2] + ("aa" if not keys["hr"].endswith("aa") else "bb")
    assert authenticate({b"x-api-key": tampered.encode()}) == 401
    user = authenticate({b"authorization": b"Bearer " + keys["fin"].encode()})
    assert isinstance(user, dict) and user["bot_id"] == "fin" and user["kb_id"] == "kb-fin"
    revoked = store.revoke(keys["ops"].split("_")[1])
    assert revoked.revoked_at is not None
    assert authenticate({b"x-api-key": keys["ops"].encode()}) == 401


@pytest.mark.parametrize("command", [{"resume": [{"type": "accept", "args": None}]}, {"goto": "finalize_answer"}])
@pytest.mark.parametrize("tenant", [t for t in TENANTS if t.bot_id == "hr" and t.identity.endswith("-1")])
def test_only_reviewers_and_admins_steer_a_paused_run_or_write_its_state(
    tenant: Tenant, command: dict[str, Any]
) -> None:
    kwargs: dict[str, Any] = {"command": dict(command), "config": {"configurable": {}}, "context": {}}
    value: dict[str, Any] = {"thread_id": "t", "assistant_id": "answer", "metadata": {}, "kwargs": kwargs}
    steered, _ = call(auth.on_run_create, tenant, "threads", "create_run", value)
    state, _ = call(auth.on_thread_update, tenant, "threads", "update", {"thread_id": "t"})  # POST …/state
    expected = 403 if tenant.role == "user" else 200
    assert (steered, state) == (expected, expected)
    renamed, _ = call(auth.on_thread_update, tenant, "threads", "update", {"thread_id": "t", "metadata": {}})
    assert renamed == 200  # metadata updates stay open to every key of the thread
