"""``belegt review``: list, show, approve, edit and reject stored review items from the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from stores.kb.store import KnowledgeBase
from stores.settings import StoreSettings
from stores.sql.engine import Database, open_database
from stores.sql.reviews import ReviewStore
from tests.review_support import GOOD_ANSWER, seed_all

runner = CliRunner()


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sparse_kb: tuple[Database, KnowledgeBase]) -> Path:
    monkeypatch.setenv("BELEGT_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("BELEGT_DATABASE_URL", raising=False)
    database = open_database(StoreSettings(data_dir=tmp_path).resolved_database_url)
    seed_all(database, sparse_kb[1])
    database.dispose()
    return tmp_path


def _decisions(data_dir: Path) -> list[tuple[str, str, str]]:
    database = open_database(StoreSettings(data_dir=data_dir).resolved_database_url)
    try:
        return [(d.item_id, d.action, d.reviewer) for d in ReviewStore(database).decisions()]
    finally:
        database.dispose()


def test_list_show_and_decide_from_the_terminal(data_dir: Path) -> None:
    listed = runner.invoke(app, ["review", "list"])
    assert listed.exit_code == 0, listed.output
    assert "4 offene Prüffälle" in listed.output and "answer:1" in listed.output and "scorecard:1" in listed.output
    assert "scan:scan-test:3" in listed.output  # IDs are never shortened, even on an 80-column terminal
    assert "answer:1" not in runner.invoke(app, ["review", "list", "--graph", "scan"]).output

    shown = runner.invoke(app, ["review", "show", "answer:1"])
    assert shown.exit_code == 0 and "Grund der Prüfung" in shown.output and "lb-url-01" in shown.output

    refused = runner.invoke(app, ["review", "edit", "answer:1", "--reviewer", "Eva", "--answer", "Immer 45 Tage."])
    assert refused.exit_code == 1
    assert "Abgelehnt" in refused.output and "belegt keine Aussage mit einer ID" in refused.output
    edited = runner.invoke(app, ["review", "edit", "answer:1", "--reviewer", "Eva", "--answer", GOOD_ANSWER])
    assert edited.exit_code == 0, edited.output
    assert runner.invoke(app, ["review", "approve", "scorecard:1", "--reviewer", "Eva"]).exit_code == 0
    assert _decisions(data_dir) == [("scorecard:1", "approve", "Eva"), ("answer:1", "edit", "Eva")]


def test_bad_input_gives_one_german_line(data_dir: Path) -> None:
    missing = runner.invoke(app, ["review", "approve", "answer:99", "--reviewer", "Eva"])
    assert missing.exit_code == 1 and "Kein offener Prüffall answer:99" in missing.output
    assert "Traceback" not in missing.output
    assert runner.invoke(app, ["review", "approve", "answer:1"]).exit_code == 2  # --reviewer is required
    nothing = runner.invoke(app, ["review", "edit", "answer:1", "--reviewer", "Eva"])
    assert nothing.exit_code == 2 and "Nichts zu ändern" in nothing.output


def test_unreachable_server_is_one_german_line(data_dir: Path) -> None:
    result = runner.invoke(app, ["review", "list", "--server", "http://127.0.0.1:8399"])
    assert result.exit_code == 1 and "LangGraph-Server http://127.0.0.1:8399 nicht erreichbar" in result.output
    assert "Traceback" not in result.output
