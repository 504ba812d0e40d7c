"""Child process of the crash test: ingest a KB file and SIGKILL itself at the K-th write step (0: never).

Steps are the vector engine's writes (create, write, seal, switch, drop, unlink), every fsync and rename, and
the SQL statements and commit: every place where a crash leaves different bytes on disk. Writes the number
of steps taken to ``steps_file`` when it was not killed.
"""

from __future__ import annotations

import functools
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event

from stores.ingest.kb import ingest_kb
from stores.kb.store import KnowledgeBase
from stores.settings import StoreSettings
from stores.sql.engine import open_database
from stores.vector.analyzer import GermanAnalyzer
from stores.vector.edge import EdgeEngine

PATTERN = r"^[a-z]{2,4}-[a-z0-9]+-[0-9]{2,}$"
# Imported by the fork server once: the lemma dictionary (seconds to load) is then shared by every child.
GermanAnalyzer().document_vector("Aufwärmen")
ENGINE_STEPS = ("create", "write", "seal", "switch", "drop", "unlink")


class KillSwitch:
    def __init__(self, kill_at: int) -> None:
        self.kill_at = kill_at
        self.steps = 0

    def step(self) -> None:
        self.steps += 1
        if self.steps == self.kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    def wrap(self, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def stepped(*args: Any, **kwargs: Any) -> Any:
            self.step()
            result = function(*args, **kwargs)
            self.step()
            return result

        return stepped


def main(folder: Path, source: Path, kill_at: int, steps_file: Path) -> None:
    switch = KillSwitch(kill_at)
    for name in ENGINE_STEPS:
        setattr(EdgeEngine, name, switch.wrap(getattr(EdgeEngine, name)))
    os.fsync = switch.wrap(os.fsync)
    os.replace = switch.wrap(os.replace)
    settings = StoreSettings(data_dir=folder, embedder="none")
    database = open_database(settings.resolved_database_url)
    event.listen(database.engine, "before_execute", lambda *_: switch.step())
    event.listen(database.engine, "commit", lambda *_: switch.step())
    kb = KnowledgeBase.from_settings(
        settings, engine=EdgeEngine(settings.resolved_edge_path), database=database, embedder=None
    )
    ingest_kb(source, "demo", kb=kb, default_id_pattern=PATTERN, chunk_chars=1500, prune=True)
    steps_file.write_text(str(switch.steps), encoding="utf-8")
