"""The review page in a real browser: Debian's Chromium driven by Playwright (``make test`` installs it).

The page runs on uvicorn over a database holding one open item per graph; the browser works it with the
keyboard where it can: opens an answer, edits it into a rule violation and sees the refusal, then releases
the borderline scorecard.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from playwright.sync_api import Page, expect, sync_playwright

from graphs.review.inbox import ReviewInbox
from graphs.review_web.app import create_app
from stores.kb.store import KnowledgeBase
from stores.sql.engine import Database, open_database
from stores.sql.reviews import ReviewStore
from tests.review_support import seed_all

CHROMIUM = Path("/usr/bin/chromium")
PORTS = range(8300, 8400)  # this project's port range on shared machines


def _free_port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("Kein freier Port zwischen 8300 und 8399.")


async def refuse_every_key(key: str) -> str:
    """Without the server there is no key store here; the served login is tested against langgraph dev."""
    return f"Schlüssel {key} abgelehnt."


@pytest.fixture(scope="module")
def served(
    tmp_path_factory: pytest.TempPathFactory, sparse_kb: tuple[Database, KnowledgeBase]
) -> Iterator[tuple[str, Database]]:
    database = open_database(f"sqlite:///{tmp_path_factory.mktemp('web') / 'review.db'}")
    seed_all(database, sparse_kb[1])
    inbox = ReviewInbox(database)
    port = _free_port()
    app = create_app(lambda: inbox, refuse_every_key)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert httpx.get(url + "/review").status_code == 200
    yield url, database
    server.should_exit = True
    thread.join(timeout=10)
    database.dispose()


@pytest.fixture(scope="module")
def page(served: tuple[str, Database]) -> Iterator[Page]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} fehlt: `make test` installiert chromium und chromium-driver (apt-get).")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield browser.new_page(locale="de-DE", viewport={"width": 1100, "height": 900})
        browser.close()


def test_reviewer_works_the_inbox_in_the_browser(served: tuple[str, Database], page: Page, tmp_path: Path) -> None:
    url, database = served
    page.goto(url + "/review/login")
    page.get_by_label("API-Schlüssel").fill("blg_x_falsch")
    page.get_by_label("API-Schlüssel").press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("Schlüssel blg_x_falsch abgelehnt.")
    page.goto(url + "/review")
    expect(page.get_by_role("heading", name="Offene Prüffälle (4)")).to_be_visible()
    expect(page.get_by_role("row", name="answer:1")).to_contain_text("unter der Schwelle 0.70")

    page.get_by_role("link", name="answer:1").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Antwort answer:1")).to_be_visible()
    expect(page.get_by_role("region", name="Prüfanfrage")).to_contain_text("Aussagen und Belege")
    expect(page.get_by_role("region", name="Prüfanfrage")).to_contain_text("[lb-url-01]")

    edit = page.get_by_role("form", name="Bearbeiten")
    edit.get_by_label("Antwort").fill("Urlaub wird immer vollständig ausgezahlt.")
    edit.get_by_label("Prüfer (Name)").fill("Eva Prüfer")
    edit.get_by_label("Prüfer (Name)").press("Enter")  # submits the form from the keyboard
    expect(page.get_by_role("alert")).to_contain_text("Die Antwort belegt keine Aussage mit einer ID.")
    expect(page.get_by_role("alert")).to_contain_text("Der Prüffall bleibt offen.")
    page.screenshot(path=tmp_path / "review-page.png", full_page=False)

    page.goto(url + "/review/items/scorecard:1")
    expect(page.get_by_role("region", name="Prüfanfrage")).to_contain_text("nur der Marken-Owner darf freigeben")
    expect(page.get_by_role("form", name="Bearbeiten")).to_have_count(0)  # the owner gate only releases or rejects
    release = page.get_by_role("form", name="Freigeben")
    release.get_by_label("Prüfer (Name)").fill("Eva Prüfer")
    release.get_by_role("button", name="Freigeben").click()
    expect(page.get_by_role("status")).to_contain_text("scorecard:1 entschieden (freigegeben).")
    expect(page.get_by_role("heading", name="Offene Prüffälle (3)")).to_be_visible()
    expect(page.get_by_role("link", name="answer:1")).to_be_visible()

    assert [(d.item_id, d.action, d.reviewer) for d in ReviewStore(database).decisions()] == [
        ("scorecard:1", "approve", "Eva Prüfer")
    ]
