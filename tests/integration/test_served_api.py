"""The served API on the production runtime (PostgreSQL + Redis) with auth: tenancy, limits, errors, restart.

One server per module: two tenants (bots on different KBs), keys of every role, a fake LLM that never
answers in time. The last test kills the server with SIGKILL during a run and restarts it.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

import httpx
import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient
from langgraph_sdk.schema import Command

from evals.bench.served import ServedApi, bot_with_keys, ingest_into
from tests.fakes.llm_server import FakeLLMServer, Reply, running_fake_llm_server
from tests.graph.answer_fixtures import ID_PATTERN, KB_ID, WEAK_CLAIM, write_kb_jsonl

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

SECRET_KB = "secret"
SECRET_ENTRY = {
    "id": "gp-fal-01",
    "title": "Projekt Falke",
    "section": "Projekte",
    "stand": "2026-01",
    "work": "Geheimakte",
    "official": True,
    "text": "Das Geheimprojekt Falke hat ein Budget von 4,2 Millionen Euro und startet im Herbst.",
}
QUESTION = {"question": "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?"}
SECRET_QUESTION = {"question": "Welches Budget hat das Geheimprojekt Falke?"}
RATE_BURST = 40


@dataclass
class Tenants:
    url: str
    keys: dict[str, str]

    def client(self, name: str) -> SyncLangGraphClient:
        return get_sync_client(url=self.url, api_key=self.keys[name])


@pytest.fixture(scope="module")
def fake_llm() -> Iterator[FakeLLMServer]:
    with running_fake_llm_server() as server:
        yield server


@pytest.fixture(scope="module")
def served(
    tmp_path_factory: pytest.TempPathFactory, fake_llm: FakeLLMServer, postgres_server: str
) -> Iterator[tuple[ServedApi, Tenants]]:
    data_dir = tmp_path_factory.mktemp("served-prod")
    ingest_into(data_dir, write_kb_jsonl(data_dir), KB_ID, id_pattern=ID_PATTERN)
    secret = data_dir / "secret.jsonl"
    secret.write_text(json.dumps(SECRET_ENTRY, ensure_ascii=False) + "\n", encoding="utf-8")
    ingest_into(data_dir, secret, SECRET_KB, id_pattern=ID_PATTERN)
    hr = bot_with_keys(data_dir, "hr", KB_ID, ("user", "user", "reviewer", "admin", "user"))
    other = bot_with_keys(data_dir, "secret-bot", SECRET_KB, ("user", "admin"))
    keys = dict(zip(("a_user", "a_user2", "a_reviewer", "a_admin", "a_rate"), hr, strict=True))
    keys |= dict(zip(("b_user", "b_admin"), other, strict=True))
    env = {
        "BELEGT_OLLAMA_BASE_URL": fake_llm.base_url,
        "BELEGT_REQUEST_TIMEOUT_S": "1.5",
        "BELEGT_SERVER_HEARTBEAT_S": "1",
        "BELEGT_SERVER_RATE_LIMIT_BURST": str(RATE_BURST),
        "BELEGT_SERVER_RATE_LIMIT_PER_MINUTE": "120",
        "BELEGT_SERVER_MAX_BODY_BYTES": "65536",
    }
    api = ServedApi(data_dir, "production", postgres_url=postgres_server, extra_env=env)
    with api:
        yield api, Tenants(api.url, keys)


@pytest.fixture
def tenants(served: tuple[ServedApi, Tenants]) -> Iterator[Tenants]:
    api, tenants = served
    yield tenants
    if api.process is not None and api.process.poll() is not None:  # say why, not just "connection refused" later
        pytest.fail(f"the server exited during the test ({api.process.returncode}):\n{api.log_tail()}")


def test_no_key_or_a_wrong_key_gets_401_with_a_code(tenants: Tenants) -> None:
    assert httpx.get(tenants.url + "/ok").status_code == 200
    missing = httpx.post(tenants.url + "/threads/search", json={})
    assert missing.status_code == 401 and missing.json()["detail"].startswith("missing_api_key:")
    wrong = httpx.post(tenants.url + "/threads/search", json={}, headers={"x-api-key": "blg_abc_def"})
    assert wrong.status_code == 401 and wrong.json()["detail"].startswith("invalid_api_key:")
    studio_bypass = httpx.post(tenants.url + "/threads/search", json={}, headers={"x-auth-scheme": "langsmith"})
    assert studio_bypass.status_code == 401


def test_the_tenant_comes_from_the_key_and_a_foreign_bot_or_kb_gets_403(tenants: Tenants) -> None:
    a = tenants.client("a_user")
    for context in ({"kb_id": SECRET_KB}, {"bot_id": "secret-bot"}, {"bot_id": "secret-bot", "kb_id": SECRET_KB}):
        with pytest.raises(httpx.HTTPStatusError) as denied:
            a.runs.wait(None, "answer", input=SECRET_QUESTION, context=context)
        assert denied.value.response.status_code == 403
        assert denied.value.response.json()["detail"].startswith("foreign_tenant:")
    own = a.runs.wait(None, "answer", input=SECRET_QUESTION, context={"kb_id": KB_ID})
    assert isinstance(own, dict) and "gp-fal-01" not in own["citations"] and "4,2" not in own["answer"]
    assert "gp-fal-01" not in (own.get("draft") or "")
    b = tenants.client("b_user").runs.wait(None, "answer", input=SECRET_QUESTION)
    assert isinstance(b, dict) and b["bucket"] in ("delivered", "human_review")  # delivered or held: its own KB
    assert "[gp-fal-01]" in (b["answer"] if b["bucket"] == "delivered" else b.get("draft") or "")


def test_threads_runs_and_store_items_stay_with_their_owner(tenants: Tenants) -> None:
    a, a2, reviewer, b = (tenants.client(n) for n in ("a_user", "a_user2", "a_reviewer", "b_user"))
    thread = a.threads.create(metadata={"owner": "someone-else", "bot_id": "secret-bot"})
    tags: dict[str, Any] = dict(thread["metadata"] or {})
    assert tags["bot_id"] == "hr" and tags["owner"] != "someone-else"
    output = a.runs.wait(thread["thread_id"], "answer", input=QUESTION)
    assert isinstance(output, dict) and output["bucket"] == "delivered"
    run_ids = [r["run_id"] for r in a.runs.list(thread["thread_id"])]
    assert reviewer.threads.get(thread["thread_id"])["thread_id"] == thread["thread_id"]  # same bot, reviewer
    for stranger in (a2, b):
        assert thread["thread_id"] not in {t["thread_id"] for t in stranger.threads.search(limit=100)}
        with pytest.raises(httpx.HTTPStatusError) as hidden:
            stranger.threads.get(thread["thread_id"])
        assert hidden.value.response.status_code == 404
        with pytest.raises(httpx.HTTPStatusError):
            stranger.runs.get(thread["thread_id"], run_ids[0])
        # refused with a status, or the server drops the connection (before or after the headers)
        with pytest.raises((httpx.HTTPStatusError, httpx.ReadError, httpx.RemoteProtocolError)):
            stranger.runs.wait(thread["thread_id"], "answer", input=QUESTION)
        with pytest.raises(httpx.HTTPStatusError):
            stranger.threads.update(thread["thread_id"], metadata={"owner": "me"})
    assert [r["run_id"] for r in a.runs.list(thread["thread_id"])] == run_ids  # no stranger's run got in
    owner = tags["owner"]
    a.store.put_item((owner, "notizen"), "k1", {"text": "privat"})
    assert a.store.get_item((owner, "notizen"), "k1")["value"] == {"text": "privat"}
    for stranger in (a2, b):
        attempts: tuple[Callable[[], object], ...] = (
            partial(stranger.store.get_item, (owner, "notizen"), "k1"),
            partial(stranger.store.search_items, (owner,)),
            partial(stranger.store.put_item, (owner, "notizen"), "k2", {"text": "fremd"}),
        )
        for attempt in attempts:
            with pytest.raises(httpx.HTTPStatusError) as forbidden:
                attempt()
            assert forbidden.value.response.status_code == 403


def test_only_admins_create_assistants_and_nobody_changes_the_built_in_ones(tenants: Tenants) -> None:
    with pytest.raises(httpx.HTTPStatusError) as user_create:
        tenants.client("a_user").assistants.create("answer", context={"strictness": 1})
    assert user_create.value.response.status_code == 403
    admin = tenants.client("a_admin")
    with pytest.raises(httpx.HTTPStatusError) as foreign:
        admin.assistants.create("answer", context={"kb_id": SECRET_KB})
    assert foreign.value.response.status_code == 403
    built_in = next(
        a for a in admin.assistants.search(graph_id="answer") if (a["metadata"] or {}).get("created_by") == "system"
    )
    with pytest.raises(httpx.HTTPStatusError):
        admin.assistants.update(built_in["assistant_id"], context={"max_question_chars": 10**6})
    own = admin.assistants.create("answer", context={"max_question_chars": 10**6}, name="hr-streng")
    context: dict[str, Any] = cast(dict[str, Any], own["context"])
    assert context["bot_id"] == "hr" and context["max_question_chars"] == 2000
    assert own["assistant_id"] in {a["assistant_id"] for a in tenants.client("a_user").assistants.search()}
    assert own["assistant_id"] not in {a["assistant_id"] for a in tenants.client("b_admin").assistants.search()}
    with pytest.raises(httpx.HTTPStatusError):
        tenants.client("b_admin").assistants.update(own["assistant_id"], context={"strictness": 5})


def test_limits_body_question_rate_and_cors(tenants: Tenants) -> None:
    headers = {"x-api-key": tenants.keys["a_user"]}
    big = httpx.post(
        tenants.url + "/runs/wait",
        headers=headers,
        json={"assistant_id": "answer", "input": {"question": "x" * 70_000}},
    )
    assert big.status_code == 413 and big.json()["detail"].startswith("body_too_large:")
    long = httpx.post(
        tenants.url + "/runs/wait", headers=headers, json={"assistant_id": "answer", "input": {"question": "x" * 3000}}
    )
    assert long.status_code == 422 and long.json()["detail"].startswith("question_too_long:")
    raised = tenants.client("a_user").runs.wait(
        None, "answer", input={"question": "Urlaub? " + "x" * 1990}, context={"max_question_chars": 10**6}
    )
    assert isinstance(raised, dict)
    rate = {"x-api-key": tenants.keys["a_rate"]}
    with httpx.Client() as client:
        statuses = [client.post(tenants.url + "/threads/search", headers=rate, json={}) for _ in range(RATE_BURST + 10)]
    limited = [r for r in statuses if r.status_code == 429]
    assert limited and int(limited[0].headers["retry-after"]) >= 1
    assert limited[0].json()["detail"].startswith("rate_limited:")
    preflight = {"access-control-request-method": "POST", "access-control-request-private-network": "true"}
    evil = httpx.options(tenants.url + "/runs/wait", headers={"origin": "https://evil.example", **preflight})
    assert "access-control-allow-origin" not in evil.headers
    studio = httpx.options(tenants.url + "/runs/wait", headers={"origin": "https://smith.langchain.com", **preflight})
    assert studio.headers["access-control-allow-origin"] == "https://smith.langchain.com"
    assert "access-control-allow-private-network" not in studio.headers


def test_a_live_sample_of_random_cross_tenant_attempts_is_refused(tenants: Tenants) -> None:
    """The bounded live part of the property test; the 1,000+ in-process attempts are in tests/unit."""
    rng = random.Random(12)
    names = list(tenants.keys)
    owned = {n: tenants.client(n).threads.create()["thread_id"] for n in ("a_user", "b_user")}
    for _ in range(40):  # fixed seed: a failure reproduces
        actor = rng.choice(names)
        client = tenants.client(actor)
        target = rng.choice(list(owned))
        privileged = actor.split("_")[1] in ("reviewer", "admin")
        allowed = target == actor or (actor[:2] == target[:2] and privileged)
        kind = rng.choice(["thread", "run", "context"])
        if kind == "thread":
            try:
                client.threads.get(owned[target])
                visible = True
            except httpx.HTTPStatusError:
                visible = False
            assert visible == allowed, (actor, target)
        elif kind == "run":
            if not allowed:
                with pytest.raises((httpx.HTTPStatusError, httpx.ReadError)):
                    client.runs.create(owned[target], "answer", input=QUESTION)
        else:
            foreign = "secret-bot" if actor.startswith("a_") else "hr"
            with pytest.raises(httpx.HTTPStatusError) as denied:
                client.runs.wait(None, "answer", input=QUESTION, context={"bot_id": foreign})
            assert denied.value.response.status_code in (403, 429)
    for name, thread_id in owned.items():
        assert tenants.client(name).runs.list(thread_id) == []  # no refused attempt left a run behind


def _paused_answer(tenants: Tenants, fake_llm: FakeLLMServer) -> str:
    """A user's answer that the critic doubts, paused for review; returns its thread id."""
    critic = {"verdict": "partially", "confidence": 0.4, "reason": "Auszahlung steht nicht im Block."}
    fake_llm.queue("/api/chat", Reply(content=WEAK_CLAIM), Reply(content=json.dumps(critic)))
    asker = tenants.client("a_user")
    thread_id = str(asker.threads.create()["thread_id"])
    question = {"question": "Kann ich Urlaub auszahlen lassen?"}
    asker.runs.wait(thread_id, "answer", input=question, context={"provider": "ollama", "review": "interrupt"})
    assert asker.threads.get(thread_id)["status"] == "interrupted"
    return thread_id


def test_the_review_page_serves_on_the_production_runtime(tenants: Tenants, fake_llm: FakeLLMServer) -> None:
    """Sign in at /review/login, see a paused answer of the bot and release it: the custom app on this runtime."""
    thread_id = _paused_answer(tenants, fake_llm)
    asker = tenants.client("a_user")
    with httpx.Client(base_url=tenants.url) as browser:
        assert browser.get("/review/login").status_code == 200
        assert browser.post("/review/login", data={"key": tenants.keys["a_user"]}).status_code == 401
        assert browser.post("/review/login", data={"key": tenants.keys["a_reviewer"]}).status_code == 303
        listing = browser.get("/review?graph=answer")
        assert listing.status_code == 200 and f"live:{thread_id}" in listing.text
        decided = browser.post(f"/review/items/live:{thread_id}/decision", data={"action": "approve"})
        assert decided.status_code == 303 and "entschieden" in decided.headers["location"]
    values = cast(dict[str, Any], asker.threads.get(thread_id)["values"])
    key_id = tenants.keys["a_reviewer"].split("_")[1]
    assert (values["bucket"], values["review_decision"]) == ("delivered", "approved")
    assert values["reviewed_by"] == f"Schlüssel {key_id}"  # the signed-in key (this one has no label)


def test_an_agent_inbox_accept_is_signed_by_the_reviewer_key_and_a_user_key_cannot_resume(
    tenants: Tenants, fake_llm: FakeLLMServer
) -> None:
    thread_id = _paused_answer(tenants, fake_llm)
    accept = Command(resume=[{"type": "accept", "args": None, "reviewer": "Chefin"}])
    with pytest.raises(httpx.HTTPStatusError) as refused:
        tenants.client("a_user").runs.wait(thread_id, "answer", command=accept)  # the asker's own thread
    assert refused.value.response.status_code == 403 and "reviewers_only" in refused.value.response.text
    values = tenants.client("a_reviewer").runs.wait(thread_id, "answer", command=accept)
    key_id = tenants.keys["a_reviewer"].split("_")[1]
    assert isinstance(values, dict) and (values["bucket"], values["review_decision"]) == ("delivered", "approved")
    assert values["reviewed_by"] == f"Schlüssel {key_id}"  # the key, not the name typed into the response


def test_a_provider_timeout_ends_in_the_refusal_output_not_a_crashed_run(
    tenants: Tenants, fake_llm: FakeLLMServer
) -> None:
    fake_llm.queue("/api/chat", *[Reply(content="spät", delay_s=5.0)] * 6)
    output = tenants.client("a_user2").runs.wait(None, "answer", input=QUESTION, context={"provider": "ollama"})
    assert isinstance(output, dict)
    assert output["bucket"] == "refused" and output["error"] == "provider_timeout" and output["citations"] == []


def test_kill_9_during_a_run_loses_no_run(served: tuple[ServedApi, Tenants], fake_llm: FakeLLMServer) -> None:
    api, tenants = served
    fake_llm.queue("/api/chat", *[Reply(content="spät", delay_s=5.0)] * 30)
    client = tenants.client("a_user")
    thread = client.threads.create()
    running = client.runs.create(thread["thread_id"], "answer", input=QUESTION, context={"provider": "ollama"})
    queued = client.runs.create(
        thread["thread_id"], "answer", input=QUESTION, context={"provider": "ollama"}, multitask_strategy="enqueue"
    )
    deadline = time.monotonic() + 20
    while client.runs.get(thread["thread_id"], running["run_id"])["status"] != "running":
        assert time.monotonic() < deadline
        time.sleep(0.5)
    api.kill_hard()
    api.start()
    client = tenants.client("a_user")
    ids = {running["run_id"], queued["run_id"]}
    deadline = time.monotonic() + 90
    while True:
        runs = {r["run_id"]: r["status"] for r in client.runs.list(thread["thread_id"])}
        assert ids <= set(runs), "a run vanished"
        if all(runs[i] in ("success", "error") for i in ids) or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert {runs[i] for i in ids} <= {"success", "error"}, runs
    values: dict[str, Any] = cast(dict[str, Any], client.threads.get_state(thread["thread_id"])["values"])
    assert values["bucket"] == "refused" and values["error"] == "provider_timeout", values
