"""A served API in a child process on a loopback port: data folder, optional PostgreSQL database, keys.

Used by the load benchmark and the integration tests; each instance gets its own data folder and, for the
production runtime, its own PostgreSQL database that is dropped afterwards.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Self

import httpx
import psycopg
from sqlalchemy.engine import make_url

from graphs.server.launch import Runtime
from stores.ingest.kb import ingest_kb
from stores.kb.store import KnowledgeBase
from stores.settings import StoreSettings
from stores.sql.api_keys import ApiKeyStore, Role
from stores.sql.bots import BotStore
from stores.sql.engine import open_database
from stores.vector.embedders import create_embedder
from stores.vector.qdrant import open_vector_engine

REPO = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT_S = 90.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def ingest_into(data_dir: Path, source: Path, kb_id: str, *, id_pattern: str | None = None) -> None:
    """Fill the embedded stores before the server starts."""
    settings = StoreSettings(data_dir=data_dir, embedder="none")
    database = open_database(settings.resolved_database_url)
    engine = open_vector_engine(settings)
    try:
        kb = KnowledgeBase.from_settings(settings, engine=engine, database=database, embedder=create_embedder(settings))
        pattern = id_pattern or settings.kb_id_pattern
        ingest_kb(source, kb_id, kb=kb, default_id_pattern=pattern, chunk_chars=settings.kb_chunk_chars)
    finally:
        engine.close()
        database.dispose()


def bot_with_keys(data_dir: Path, bot_id: str, kb_id: str, roles: tuple[Role, ...]) -> list[str]:
    """Create the bot and one key per role; returns the key texts in the order of ``roles``."""
    database = open_database(StoreSettings(data_dir=data_dir).resolved_database_url)
    try:
        BotStore(database).create(bot_id, name=bot_id, kb_id=kb_id)
        keys = ApiKeyStore(database)
        return [keys.create(bot_id, role)[1] for role in roles]
    finally:
        database.dispose()


@dataclass
class ServedApi:
    """``belegt serve`` (``--prod`` for the production runtime) with its own data folder and database."""

    data_dir: Path
    runtime: Runtime
    postgres_url: str = "postgresql://postgres@127.0.0.1:5432/test"
    redis_url: str = "redis://127.0.0.1:6379/0"
    extra_env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    database_name: str = field(default_factory=lambda: f"belegt_served_{uuid.uuid4().hex[:12]}")
    database_created: bool = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def runtime_database_url(self) -> str:
        return make_url(self.postgres_url).set(database=self.database_name).render_as_string(hide_password=False)

    @property
    def log_path(self) -> Path:
        return self.data_dir / "server.log"

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("BELEGT_") or k == "BELEGT_TEST_POSTGRES_URL"}
        env |= {
            "BELEGT_DATA_DIR": str(self.data_dir),
            "BELEGT_EMBEDDER": "none",
            "BELEGT_LLM_PROVIDER": "extractive",
            "BELEGT_SERVER_PORT": str(self.port),
            "BELEGT_REDIS_URL": self.redis_url,
            "HF_HUB_OFFLINE": "1",
        }
        if self.runtime == "production":
            env["BELEGT_SERVER_DATABASE_URL"] = self.runtime_database_url
        return env | self.extra_env

    def start(self) -> None:
        if self.runtime == "production" and not self.database_created:
            with psycopg.connect(self.postgres_url, autocommit=True) as connection:
                connection.execute(f'CREATE DATABASE "{self.database_name}"')
            self.database_created = True
        command = [str(Path(sys.executable).with_name("belegt")), "serve"]
        if self.runtime == "production":
            command.append("--prod")
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            command, cwd=REPO, env=self.environment(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_tail()}")
            try:
                if httpx.get(self.url + "/ok", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.3)
        raise RuntimeError(f"server did not start: {self.log_tail()}")

    def log_tail(self, chars: int = 3000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:] if self.log_path.exists() else ""

    def kill_hard(self) -> None:
        """``kill -9`` of the whole server process group: no shutdown code runs."""
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            self.process = None

    def drop_database(self) -> None:
        if not self.database_created:
            return
        with psycopg.connect(self.postgres_url, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{self.database_name}" WITH (FORCE)')

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.stop()
            self.drop_database()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()
        self.drop_database()
