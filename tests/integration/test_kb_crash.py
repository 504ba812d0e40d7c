"""Atomic KB updates: an ingest SIGKILLed at every kind of write step leaves a KB that reads as the old
version or the new one, never a mix, and re-ingesting the original file repairs every point."""

from __future__ import annotations

import multiprocessing
import shutil
from pathlib import Path

import pytest

from stores.ingest.kb import IngestSummary, ingest_kb
from stores.kb.store import KnowledgeBase
from stores.settings import StoreSettings
from stores.sql.engine import Database, open_database
from stores.vector.edge import EdgeEngine
from tests import crash_ingest
from tests.crash_ingest import PATTERN
from tests.kb_support import entry, write_jsonl

MIN_KILL_POINTS = 20
QUERIES = ["Urlaub", "Dienstwagen Regel", "Prämie Kantine", "Regelung Nummer"]
TOPICS = ("Urlaub", "Dienstwagen", "Prämie", "Kantine", "Reisekosten")


def version(tag: str, ids: range) -> list[dict[str, object]]:
    """KB entries whose title and text carry the version tag, so every hit tells which version it came from."""
    return [
        entry(f"lb-{tag}x-{n:02d}" if tag == "neu" and n >= 25 else f"lb-reg-{n:02d}", f"{tag}: Regelung {n}",
              f"{tag}: {TOPICS[n % len(TOPICS)]} Regelung Nummer {n} für alle Beschäftigten.")
        for n in ids
    ]  # fmt: skip


OLD = version("alt", range(0, 24))
NEW = version("neu", range(4, 30))  # 4 removed (prune), 20 changed, 6 added
EXPECTED = {"alt": len(OLD), "neu": len(NEW)}


def open_kb(folder: Path) -> tuple[KnowledgeBase, Database]:
    settings = StoreSettings(data_dir=folder, embedder="none")
    database = open_database(settings.resolved_database_url)
    return KnowledgeBase.from_settings(
        settings, engine=EdgeEngine(settings.resolved_edge_path), database=database, embedder=None
    ), database


def ingest(folder: Path, source: Path) -> IngestSummary:
    kb, database = open_kb(folder)
    try:
        return ingest_kb(source, "demo", kb=kb, default_id_pattern=PATTERN, chunk_chars=1500, prune=True)
    finally:
        kb.index.engine.close()
        database.dispose()


def run_child(folder: Path, source: Path, kill_at: int) -> int | None:
    """The ingest in a child process forked from a fresh server that has the modules imported already
    (the server finds ``tests`` through PYTHONPATH: Python 3.11 does not hand it the parent's sys.path)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["tests.crash_ingest"])
    child = context.Process(target=crash_ingest.main, args=(folder, source, kill_at, folder / "steps"))
    child.start()
    child.join(timeout=120)
    return child.exitcode


def observed_version(folder: Path) -> str:
    """The one version every search reads; fails on a mix of versions or a partial point set."""
    kb, database = open_kb(folder)
    try:
        tags = {
            hit.title.split(":")[0]
            for query in QUERIES
            for hit in kb.search("demo", [query], limit=50, expand_cross_refs=False)
        }
        assert len(tags) == 1, f"mixed versions: {tags}"
        tag = tags.pop()
        assert kb.index.count(kb.alias("demo"), filter={"kb_id": "demo"}) == EXPECTED[tag]
        return tag
    finally:
        kb.index.engine.close()
        database.dispose()


@pytest.mark.slow
def test_sigkill_at_every_step_of_an_update_never_mixes_versions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2]))
    old_file = write_jsonl(tmp_path / "old.jsonl", OLD)
    new_file = write_jsonl(tmp_path / "new.jsonl", NEW)
    template = tmp_path / "template"
    ingest(template, old_file)

    dry = tmp_path / "dry"
    shutil.copytree(template, dry)
    assert run_child(dry, new_file, 0) == 0
    steps = int((dry / "steps").read_text(encoding="utf-8"))
    assert observed_version(dry) == "neu"
    # Evenly over the whole update, plus every step from the pointer switch to the SQL commit.
    spread = {1 + (steps - 1) * i // (MIN_KILL_POINTS + 1) for i in range(MIN_KILL_POINTS + 2)}
    kill_points = sorted(spread | set(range(steps - 5, steps + 1)))
    assert len(kill_points) >= MIN_KILL_POINTS

    seen = []
    for kill_at in kill_points:
        folder = tmp_path / f"kill-{kill_at}"
        shutil.copytree(template, folder)
        assert run_child(folder, new_file, kill_at) == -9, f"step {kill_at} of {steps} did not kill"
        seen.append(observed_version(folder))
        ingest(folder, old_file)  # re-ingesting the original repairs whatever the crash left
        assert observed_version(folder) == "alt"
        kb, database = open_kb(folder)
        assert kb.index.engine.versions(kb.alias("demo")) == [kb.index.version_of(kb.alias("demo"))]
        kb.index.engine.close()
        database.dispose()
    assert "alt" in seen and "neu" in seen  # the kill points straddle the switch
