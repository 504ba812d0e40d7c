"""``langgraph dev`` with auth from langgraph.json: the graphs and their review through langgraph_sdk, the CLI and
the page, with the development key and keys from the key store. The server's default provider is Ollama (the
scan takes it from the server), answered by a scripted fake; answer runs choose ``extractive`` per run."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from langgraph_sdk import get_client, get_sync_client
from langgraph_sdk.schema import Command
from typer.testing import CliRunner

from graphs.cli.review import app as review_cli
from graphs.review.inbox import ReviewInbox
from graphs.review.served import ServedReviews
from graphs.server.auth import REVIEW_COOKIE
from nodes.shared.review import ReviewerDecision
from stores.ingest.catalog import import_catalog
from stores.ingest.documents import read_document
from stores.ingest.kb import ingest_kb
from stores.kb.store import KnowledgeBase
from stores.scan.catalog import CatalogStore
from stores.scan.clause_index import ClauseIndex
from stores.scan.documents import DocumentStore
from stores.settings import StoreSettings
from stores.sql.api_keys import ApiKeyStore, Role
from stores.sql.bots import BotStore
from stores.sql.engine import open_database
from stores.sql.reviews import ReviewStore
from stores.vector.embedders import create_embedder
from stores.vector.qdrant import open_vector_engine
from tests.brand_support import UNIVERSAL_JUDGEMENT, import_demo
from tests.fakes.llm_server import FakeLLMServer, Reply, running_fake_llm_server
from tests.graph.answer_fixtures import ID_PATTERN, KB_ID, WEAK_CLAIM, write_kb_jsonl
from tests.scan_support import (
    DEMO,
    DETECTION_LIMIT,
    DOCTOR,
    SENSITIVITY,
    CriticVerdict,
    allowed_ids,
    critic_verdict,
    planted_findings,
)

REPO = Path(__file__).resolve().parents[2]
DEV_KEY = "belegt-dev-test"
DEV_BOT = "hr-dev"
DEV_HEADERS = {"x-api-key": DEV_KEY}
DEV_REVIEWER = "Entwicklung (Schlüssel dev)"  # the development key's label and id, as decisions record it
STARTUP_TIMEOUT_S = 120


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _ingest(data_dir: Path) -> None:
    """Fill the embedded stores the server will open (KB, demo brand DNA, demo scan catalogue)."""
    settings = StoreSettings(data_dir=data_dir, embedder="none")
    database = open_database(settings.resolved_database_url)
    import_demo(database)
    engine = open_vector_engine(settings)
    kb = KnowledgeBase.from_settings(settings, engine=engine, database=database, embedder=create_embedder(settings))
    ingest_kb(write_kb_jsonl(data_dir), KB_ID, kb=kb, default_id_pattern=ID_PATTERN, chunk_chars=1500)
    clauses = ClauseIndex.from_settings(settings, engine=engine, embedder=None)
    import_catalog(DEMO / "katalog.yaml", catalogs=CatalogStore(database), clauses=clauses)
    BotStore(database).create(DEV_BOT, name=DEV_BOT, kb_id=KB_ID)
    engine.close()
    database.dispose()


@pytest.fixture(scope="module")
def fake_llm() -> Iterator[FakeLLMServer]:
    """A scripted Ollama for runs that choose ``provider: ollama`` in their context (the default stays extractive)."""
    with running_fake_llm_server() as server:
        yield server


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The served stores' folder; tests open its database beside the server."""
    folder = tmp_path_factory.mktemp("served")
    _ingest(folder)
    return folder


@pytest.fixture(scope="module")
def server_url(data_dir: Path, fake_llm: FakeLLMServer) -> Iterator[str]:
    port = _free_port()
    env = {
        **os.environ,
        "BELEGT_DATA_DIR": str(data_dir),
        "BELEGT_EMBEDDER": "none",
        "BELEGT_LLM_PROVIDER": "ollama",
        "BELEGT_DEV_API_KEY": DEV_KEY,
        "BELEGT_DEV_BOT": DEV_BOT,
        "OLLAMA_BASE_URL": fake_llm.base_url,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
        "HF_HUB_OFFLINE": "1",
    }
    command = [str(Path(sys.executable).with_name("langgraph")), "dev", "--host", "127.0.0.1", "--port", str(port)]
    log = (data_dir / "server.log").open("w")
    server = subprocess.Popen(
        [*command, "--no-browser", "--no-reload"], cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while time.monotonic() < deadline:
            if server.poll() is not None:
                pytest.fail(f"langgraph dev exited: {(data_dir / 'server.log').read_text()[-3000:]}")
            try:
                if httpx.get(url + "/ok", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        else:
            pytest.fail(f"langgraph dev did not start: {(data_dir / 'server.log').read_text()[-3000:]}")
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()


QUESTION = {"question": "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?"}
CONTEXT: dict[str, Any] = {"kb_id": KB_ID, "strictness": 3, "provider": "extractive"}


@pytest.mark.slow
def test_answer_graph_runs_to_completion_through_the_sdk(server_url: str) -> None:
    assert httpx.post(server_url + "/assistants/search", json={}).status_code == 401  # auth from langgraph.json
    client = get_sync_client(url=server_url, api_key=DEV_KEY)
    assert "answer" in {a["graph_id"] for a in client.assistants.search()}
    output = client.runs.wait(None, "answer", input=QUESTION, context=CONTEXT)
    assert isinstance(output, dict)
    assert output["bucket"] == "delivered" and output["model"] == "extractive"
    assert "lb-url-01" in output["citations"]
    assert "30 Arbeitstage" in output["answer"]


@pytest.mark.slow
def test_answer_graph_streams_its_node_updates(server_url: str) -> None:
    client = get_sync_client(url=server_url, api_key=DEV_KEY)
    thread = client.threads.create()
    nodes = [
        node
        for part in client.runs.stream(
            thread["thread_id"], "answer", input=QUESTION, context=CONTEXT, stream_mode="updates"
        )
        if part.event == "updates"
        for node in part.data
    ]
    assert nodes[:3] == ["resolve_policy", "screen_input", "plan_queries"]
    assert {"draft_answer", "validate_answer", "critique_answer", "finalize_answer"} <= set(nodes)
    final = client.threads.get_state(thread["thread_id"])["values"]
    assert isinstance(final, dict) and final["bucket"] == "delivered"


GATE_TEXT = "Wir prüfen die tragende Annahme Ihrer Investitionsentscheidung in drei Wochen. Dann entscheiden Sie."
GATE_CONTEXT: dict[str, Any] = {"brand_id": "kantwerk", "provider": "ollama", "review": "interrupt"}


def _paused_scorecard(server_url: str, fake_llm: FakeLLMServer) -> str:
    """Start a borderline scorecard run that pauses at the owner gate; returns its thread id."""
    fake_llm.queue("/api/chat", *[Reply(content=json.dumps(UNIVERSAL_JUDGEMENT)) for _ in range(4)])
    client = get_sync_client(url=server_url, api_key=DEV_KEY)
    thread = client.threads.create()
    client.runs.wait(thread["thread_id"], "scorecard", input={"text": GATE_TEXT}, context=GATE_CONTEXT)
    assert client.threads.get(thread["thread_id"])["status"] == "interrupted"
    return str(thread["thread_id"])


@pytest.mark.slow
def test_pending_interrupt_is_listed_and_resolved_through_the_inbox(
    server_url: str, data_dir: Path, fake_llm: FakeLLMServer
) -> None:
    thread_id = _paused_scorecard(server_url, fake_llm)
    database = open_database(StoreSettings(data_dir=data_dir).resolved_database_url)

    def inbox() -> ReviewInbox:  # one client per event loop: each asyncio.run below opens a new loop
        return ReviewInbox(database, ServedReviews(get_client(url=server_url, api_key=DEV_KEY)))

    (item,) = [i for i in asyncio.run(inbox().items(graph="scorecard")) if i.id == f"live:{thread_id}"]
    assert item.id == f"live:{thread_id}" and item.request["config"]["allow_edit"] is False
    assert "### Text" in item.description and GATE_TEXT in item.description
    refused = asyncio.run(inbox().decide(item.id, ReviewerDecision(action="edit", changes={"x": "y"}), "Eva"))
    assert refused.problems == ["Der Inhalt kann hier nicht bearbeitet werden: freigeben oder ablehnen."]
    outcome = asyncio.run(inbox().decide(item.id, ReviewerDecision(action="approve"), "Eva Brandt"))
    assert outcome.carried_out and outcome.after["status"] == "PASS"
    decision = ReviewStore(database).decisions()[0]
    assert (decision.origin, decision.reviewer, decision.before["status"]) == ("interrupt", "Eva Brandt", "REVISE")
    final = get_sync_client(url=server_url, api_key=DEV_KEY).threads.get(thread_id)
    values = final["values"]
    assert isinstance(values, dict) and final["status"] == "idle"
    assert values["validation"]["owner_decision"]["owner"] == DEV_REVIEWER  # the key that resumed, not a typed name
    database.dispose()


def _key(data_dir: Path, role: Role, label: str) -> str:
    database = open_database(StoreSettings(data_dir=data_dir).resolved_database_url)
    try:
        return ApiKeyStore(database).create(DEV_BOT, role, label=label)[1]
    finally:
        database.dispose()


@pytest.mark.slow
def test_an_agent_inbox_response_releases_the_owner_gate_as_the_signed_in_key(
    server_url: str, data_dir: Path, fake_llm: FakeLLMServer
) -> None:
    """The Agent Inbox sends only ``{"type", "args"}``: on the served API the key that resumes is the owner."""
    thread_id = _paused_scorecard(server_url, fake_llm)
    accept = Command(resume=[{"type": "accept", "args": None}])
    asker = get_sync_client(url=server_url, api_key=_key(data_dir, "user", "Fragesteller"))
    with pytest.raises(httpx.HTTPStatusError) as refused:  # a user key cannot release (its own) content
        asker.runs.wait(thread_id, "scorecard", command=accept)
    assert refused.value.response.status_code in (403, 404)  # 404: a user key does not even see the dev thread
    reviewer_key = _key(data_dir, "reviewer", "Eva Brandt")
    reviewer = get_sync_client(url=server_url, api_key=reviewer_key)
    impostor = Command(resume=[{"type": "accept", "args": None, "reviewer": "Chefin"}])
    values = reviewer.runs.wait(thread_id, "scorecard", command=impostor)
    assert isinstance(values, dict) and values["validation"]["status"] == "PASS"
    key_id = reviewer_key.split("_")[1]
    assert values["validation"]["owner_decision"] == {
        "approved": True,
        "owner": f"Eva Brandt (Schlüssel {key_id})",  # the signed-in key; the typed name does not count
        "note": None,
    }
    assert reviewer.threads.get(thread_id)["status"] == "idle"


@pytest.mark.slow
def test_a_user_key_cannot_decide_a_review_even_on_its_own_thread(server_url: str, data_dir: Path) -> None:
    asker = get_sync_client(url=server_url, api_key=_key(data_dir, "user", "Fragesteller"))
    thread_id = asker.threads.create()["thread_id"]
    with pytest.raises(httpx.HTTPStatusError) as refused:
        asker.runs.wait(thread_id, "answer", command=Command(resume=[{"type": "accept", "args": None}]))
    assert refused.value.response.status_code == 403 and "reviewers_only" in refused.value.response.text


SCAN_ISSUES = (SENSITIVITY, DETECTION_LIMIT, DOCTOR)
SCAN_DOUBT = {  # two findings under the 0.70 threshold: one for the CLI, one for the page
    "Nachweisgrenze": CriticVerdict(confidence=0.6, note="Wert fehlt vielleicht nur hier."),
    "Arztbesuch": CriticVerdict(confidence=0.65),
}


def scripted_scan(path: str, body: dict[str, Any]) -> Reply:
    """The scan's two Ollama models, per prompt: planted findings per chunk, the critic per finding (JSON mode)."""
    prompt = str(body["messages"][1]["content"])
    if allowed_ids(prompt):
        return Reply(content=json.dumps(planted_findings(SCAN_ISSUES, prompt)))
    return Reply(content=json.dumps(critic_verdict(SCAN_DOUBT, prompt)))


@pytest.mark.slow
def test_uncertain_scan_findings_are_decided_through_the_cli_and_the_page_and_audited(
    server_url: str, data_dir: Path, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = open_database(StoreSettings(data_dir=data_dir).resolved_database_url)
    document = DocumentStore(database).store(read_document(DEMO / "produktinfo.md"))
    client = get_sync_client(url=server_url, api_key=DEV_KEY)
    thread_id = client.threads.create()["thread_id"]
    scan = {"scan_id": "served-scan", "document_id": document.id}
    with fake_llm.responding(scripted_scan):
        client.runs.wait(thread_id, "scan", input=scan, context={"review": "interrupt"})
    assert client.threads.get(thread_id)["status"] == "interrupted"

    monkeypatch.setenv("BELEGT_DATA_DIR", str(data_dir))
    monkeypatch.setenv("COLUMNS", "250")  # the table keeps the whole ID and reason on one line
    served = ["--server", server_url, "--api-key", DEV_KEY]
    cli = CliRunner()
    listing = cli.invoke(review_cli, ["list", "--graph", "scan", *served])
    assert listing.exit_code == 0, listing.output
    assert f"live:{thread_id}" in listing.output and "Konfidenz 0.60 liegt unter der Schwelle 0.70" in listing.output
    item = f"live:{thread_id}"
    shown = cli.invoke(review_cli, ["show", item, *served])
    assert "Die Nachweisgrenze ist sehr niedrig" in shown.output and "Wert fehlt vielleicht nur hier." in shown.output

    edit = ["edit", item, "--severity", "MINOR", *served]
    invented = cli.invoke(review_cli, [*edit, "--quote", "Die Nachweisgrenze ist winzig"])
    assert invented.exit_code == 1  # the database's quote check refuses a quote that is not on the page
    assert "Zitat abgelehnt: Zitat steht nicht wörtlich auf der angegebenen Seite" in " ".join(invented.output.split())
    assert client.threads.get(thread_id)["status"] == "interrupted"
    decided = cli.invoke(review_cli, [*edit, "--quote", "Nachweisgrenze ist sehr niedrig", "--reviewer", "Eva Prüfer"])
    assert decided.exit_code == 0, decided.output
    assert "es entscheidet der Schlüssel" in " ".join(decided.output.split())  # the server names the reviewer

    # the run pauses again for the second finding: the page lists it, shows it and dismisses it
    listing_page = httpx.get(f"{server_url}/review?graph=scan", headers=DEV_HEADERS)
    assert listing_page.status_code == 200 and item in listing_page.text
    shown_page = httpx.get(f"{server_url}/review/items/{item}", headers=DEV_HEADERS)
    assert "Mit CoviQuick sparen Sie sich den Arztbesuch." in shown_page.text
    dismissed = httpx.post(
        f"{server_url}/review/items/{item}/decision",
        data={"action": "reject", "note": "kein Befund"},
        headers=DEV_HEADERS,
    )
    assert dismissed.status_code == 303 and "entschieden" in dismissed.headers["location"]

    final = client.threads.get(thread_id)
    report = cast(dict[str, Any], final["values"])["report"]
    assert final["status"] == "idle" and report["human_review"] == []
    assert [(f["exact_quote"], f["human_reviewed"], f["reviewed_by"]) for f in report["findings"]["MINOR"]] == [
        ("Nachweisgrenze ist sehr niedrig", True, DEV_REVIEWER)  # the key that resumed the run
    ]
    assert report["counts"]["dismissed_in_review"] == 1
    assert [f["exact_quote"] for f in report["findings"]["MAJOR"]] == ["Sensitivität: 96,4 %"]
    decisions = {d.action: d for d in ReviewStore(database).decisions() if d.item_id.startswith(item)}
    assert decisions.keys() == {"edit", "reject"}
    edited, rejected = decisions["edit"], decisions["reject"]
    assert (edited.graph, edited.action, edited.reviewer) == ("scan", "edit", DEV_REVIEWER)  # as the graph says
    assert edited.before["exact_quote"] == "Die Nachweisgrenze ist sehr niedrig"
    assert edited.after["changes"] == {"severity": "MINOR", "exact_quote": "Nachweisgrenze ist sehr niedrig"}
    assert (rejected.action, rejected.reviewer, rejected.note) == ("reject", DEV_REVIEWER, "kein Befund")
    assert rejected.before["exact_quote"] == "Mit CoviQuick sparen Sie sich den Arztbesuch."
    database.dispose()


@pytest.mark.slow
def test_review_page_is_served_by_the_same_server(server_url: str, fake_llm: FakeLLMServer) -> None:
    thread_id = _paused_scorecard(server_url, fake_llm)
    assert httpx.get(f"{server_url}/review").status_code == 401  # the page needs a reviewer or admin key
    listing = httpx.get(f"{server_url}/review?graph=scorecard", headers=DEV_HEADERS)
    assert listing.status_code == 200 and f"live:{thread_id}" in listing.text
    decided = httpx.post(
        f"{server_url}/review/items/live:{thread_id}/decision",
        data={"action": "reject", "reviewer": "Eva Brandt", "note": "zu vage"},
        headers=DEV_HEADERS,
    )
    assert decided.status_code == 303 and "entschieden" in decided.headers["location"]
    values = get_sync_client(url=server_url, api_key=DEV_KEY).threads.get(thread_id)["values"]
    assert isinstance(values, dict) and values["validation"]["status"] == "REVISE"
    assert values["validation"]["owner_decision"] == {  # the signed-in key decides, not the typed name
        "approved": False,
        "owner": "Entwicklung (Schlüssel dev)",
        "note": "zu vage",
    }


@pytest.mark.slow
def test_paused_answer_is_edited_through_the_validator_and_released(
    server_url: str, data_dir: Path, fake_llm: FakeLLMServer
) -> None:
    critic = {"verdict": "partially", "confidence": 0.4, "reason": "Auszahlung steht nicht im Block."}
    fake_llm.queue("/api/chat", Reply(content=WEAK_CLAIM), Reply(content=json.dumps(critic)))
    client = get_sync_client(url=server_url, api_key=DEV_KEY)
    thread_id = client.threads.create()["thread_id"]
    context = {"kb_id": KB_ID, "provider": "ollama", "review": "interrupt"}
    client.runs.wait(thread_id, "answer", input={"question": "Kann ich Urlaub auszahlen lassen?"}, context=context)
    database = open_database(StoreSettings(data_dir=data_dir).resolved_database_url)

    def inbox() -> ReviewInbox:
        return ReviewInbox(database, ServedReviews(get_client(url=server_url, api_key=DEV_KEY)))

    (item,) = [i for i in asyncio.run(inbox().items(graph="answer")) if i.id == f"live:{thread_id}"]
    assert item.args["answer"] == WEAK_CLAIM and "Auszahlung steht nicht im Block." in item.description
    broken = ReviewerDecision(action="edit", changes={"answer": "Urlaub wird immer ausgezahlt [lb-zzz-00]."})
    refused = asyncio.run(inbox().decide(item.id, broken, "Eva"))
    assert refused.problems == ["Zitierte IDs, die nicht im Kontext stehen: lb-zzz-00."]
    assert client.threads.get(thread_id)["status"] == "interrupted"  # nothing delivered, still open
    released = asyncio.run(inbox().decide(item.id, ReviewerDecision(action="approve"), "Eva"))
    assert (released.after["bucket"], released.after["review_decision"]) == ("delivered", "approved")
    assert released.after["answer"].startswith(WEAK_CLAIM)  # plus the strictness level's notice
    database.dispose()


def test_a_browser_signs_in_to_the_review_page_with_a_cookie_that_opens_nothing_else(server_url: str) -> None:
    with httpx.Client(base_url=server_url) as browser:
        assert browser.get("/review/login").status_code == 200  # open: a browser cannot send x-api-key
        refused = browser.post("/review/login", data={"key": "blg_unbekannt_0000"})
        assert refused.status_code == 401 and "unbekannt" in refused.text and REVIEW_COOKIE not in browser.cookies
        signed_in = browser.post("/review/login", data={"key": DEV_KEY})
        assert signed_in.status_code == 303 and browser.cookies[REVIEW_COOKIE] == DEV_KEY
        cookie = signed_in.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie and "path=/review" in cookie
        assert browser.get("/review").status_code == 200
    # the cookie is read for the review page only: the API still needs the header
    stolen = {"cookie": f"{REVIEW_COOKIE}={DEV_KEY}"}
    assert httpx.post(f"{server_url}/threads/search", json={}, headers=stolen).status_code == 401
    assert httpx.get(f"{server_url}/review", headers={"cookie": f"{REVIEW_COOKIE}=blg_falsch"}).status_code == 401
