"""A generic hybrid index: named dense + sparse vectors in immutable versions, addressed through aliases.

Every write fills a fresh version and then switches the alias to it in one atomic step (``build`` from
scratch, ``update`` copy-on-write from the live version), so readers see the old index or the new one, never
a half-written one, and a killed writer leaves an orphan that the next write removes. Points carry a stable
string id (stored in the payload; the engine gets an integer made from its uuid5) and a free payload dict.
``search`` demands a payload filter that names the tenant key: there is no unfiltered query path.

Ranking fuses a BM25 list (German analyzer, IDF from Qdrant) with a dense list client-side, so that each
hit keeps its raw scores; the calibrated score in [0, 1] comes from ``stores.vector.calibration``.
"""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from stores.settings import StoreSettings
from stores.vector.analyzer import GermanAnalyzer
from stores.vector.calibration import LogisticCalibration, calibration_for
from stores.vector.embedders import Embedder, free_cores
from stores.vector.engine import (
    DENSE,
    SPARSE,
    BatchAnswer,
    Conditions,
    FilterValue,
    IndexUsageError,
    MissingIndex,
    StoredPoint,
    VectorEngine,
    VectorQuery,
)

__all__ = ["FilterValue", "HybridIndex", "IndexPoint", "IndexUsageError", "MissingIndex", "ScoredPoint", "fuse"]

Fusion = Literal["weighted", "rrf"]
Progress = Callable[[int], None]
Scores = npt.NDArray[np.float64]
# One query's best hits as parallel lists: engine ids, fused scores, raw sparse and raw dense (None: sparse only).
_Ranked = tuple[list[int], list[float], list[float], list[float] | None]

POINT_ID_KEY = "point_id"
ENGINE_IDS = "uuid5-int63"
RRF_K = 60
DEFAULT_BATCH_SIZE = 32
_POINT_NAMESPACE = uuid.UUID("6f1c9a52-8f0e-4f55-9a8e-2b7d0c5e4a11")


@dataclass(frozen=True)
class IndexPoint:
    """What goes in: a stable id, the text to index, and the payload returned with every hit."""

    id: str
    text: str
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class ScoredPoint:
    """What comes out: payload plus the calibrated score, the fused ranking score and both raw scores."""

    id: str
    payload: dict[str, Any]
    score: float
    fused: float
    sparse: float
    dense: float | None
    rank: int


def engine_point_id(point_id: str) -> int:
    """Qdrant accepts only unsigned integers and UUIDs. The top 63 bits of a uuid5 keep string ids stable
    across runs and come back from a search as plain ints (a UUID costs a Python object per hit, which at
    250 hits was a third of a search). Two of 100,000 ids collide with probability about 5·10⁻¹⁰."""
    return uuid.uuid5(_POINT_NAMESPACE, point_id).int >> 65


class HybridIndex:
    """Hybrid dense + sparse search over aliased versions; sparse-only when ``embedder`` is None."""

    def __init__(
        self,
        engine: VectorEngine,
        *,
        embedder: Embedder | None,
        tenant_key: str,
        analyzer: GermanAnalyzer | None = None,
        fusion: Fusion = "weighted",
        dense_weight: float = 0.5,
        candidates: int = 50,
        calibration: LogisticCalibration | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        workers: int | None = None,
    ) -> None:
        if not 0.0 <= dense_weight <= 1.0:
            raise IndexUsageError("dense_weight muss zwischen 0 und 1 liegen")
        self.engine = engine
        self.embedder = embedder
        self.tenant_key = tenant_key
        self.analyzer = analyzer or GermanAnalyzer()
        self.fusion = fusion
        self.dense_weight = dense_weight if embedder is not None else 0.0
        self.candidates = candidates
        self.batch_size = batch_size
        self.workers = workers
        self._ids_checked: set[str] = set()
        shipped, uses_dense = calibration_for(embedder.name if embedder else None)
        self.calibration = calibration or shipped
        self._calibrate_dense = uses_dense or calibration is not None

    # --- layout -----------------------------------------------------------------------------------

    @property
    def signature(self) -> dict[str, Any]:
        """What the vectors depend on; a version built with another signature must be rebuilt."""
        return {
            "embedder": self.embedder.name if self.embedder else None,
            "dim": self.embedder.dim if self.embedder else None,
            "analyzer": self.analyzer.version,
            "engine_ids": ENGINE_IDS,
        }

    def exists(self, alias: str) -> bool:
        return self.engine.resolve(alias) is not None

    def is_current(self, alias: str) -> bool:
        """The alias exists and its version was built with this index's embedder and analyzer."""
        version = self.engine.resolve(alias)
        return version is not None and self._built_like_this(version)

    def _built_like_this(self, version: str) -> bool:
        metadata = self.engine.metadata(version)
        return all(metadata.get(key) == value for key, value in self.signature.items())

    def version_of(self, alias: str) -> str | None:
        return self.engine.resolve(alias)

    # --- writing ----------------------------------------------------------------------------------

    def build(self, alias: str, points: Sequence[IndexPoint], *, progress: Progress | None = None) -> str:
        """Index all points into a new version, then switch the alias to it atomically; returns the version.

        Vectors are computed before the version is created, so a failing embedder leaves nothing behind.
        """
        return self._publish(alias, self._stored_points(points, progress), copy_live=False)

    def update(
        self,
        alias: str,
        points: Sequence[IndexPoint],
        *,
        delete: Iterable[str] = (),
        progress: Progress | None = None,
    ) -> str:
        """A new version: the live one's points (vectors copied, not recomputed) minus ``delete`` and the
        replaced ids, plus ``points``; then the alias switch. Creates the alias on first use."""
        stored = self._stored_points(points, progress)
        dropped = {engine_point_id(i) for i in delete} | {p.id for p in stored}
        return self._publish(alias, stored, copy_live=True, dropped=dropped)

    def upsert(self, alias: str, points: Sequence[IndexPoint], *, progress: Progress | None = None) -> None:
        """Add or replace points (copy-on-write, see ``update``)."""
        self.update(alias, points, progress=progress)

    def delete(self, alias: str, ids: Iterable[str]) -> None:
        selector = list(ids)
        if selector and self.exists(alias):
            self.update(alias, [], delete=selector)

    def drop(self, alias: str) -> None:
        """Remove the alias and every version of it."""
        with self.engine.writing(alias):
            if self.engine.resolve(alias) is not None:
                self.engine.unlink(alias)
            for version in self.engine.versions(alias):
                self.engine.drop(version)

    def remove_orphans(self, alias: str) -> list[str]:
        """Drop every version of the alias that it does not point at (left by writers that died); returns them."""
        with self.engine.writing(alias):
            return self._remove_orphans(alias, self.engine.resolve(alias))

    def _remove_orphans(self, alias: str, live: str | None) -> list[str]:
        orphans = [version for version in self.engine.versions(alias) if version != live]
        for orphan in orphans:
            self.engine.drop(orphan)
        return orphans

    def count(self, alias: str, *, filter: Mapping[str, FilterValue]) -> int:
        return self.engine.count(alias, self._conditions(filter))

    def payload_values(self, alias: str, key: str) -> dict[str, Any]:
        """Point id → ``payload[key]`` for every point of the live version (drift checks)."""
        version = self.engine.resolve(alias)
        if version is None:
            raise MissingIndex(alias)
        return {
            str(p.payload.get(POINT_ID_KEY, p.id)): p.payload.get(key)
            for p in self.engine.scroll(version, with_vectors=False)
        }

    def _publish(
        self, alias: str, points: Sequence[StoredPoint], *, copy_live: bool, dropped: Set[int] = frozenset()
    ) -> str:
        with self.engine.writing(alias):
            live = self.engine.resolve(alias)
            if copy_live and live is not None and not self._built_like_this(live):
                raise IndexUsageError(
                    f"Index {alias!r} wurde mit einem anderen Embedder, Analyzer oder Id-Schema gebaut: neu aufbauen"
                )
            self._remove_orphans(alias, live)
            dense = self.embedder.dim if self.embedder else None
            version = self.engine.create(alias, dense_dim=dense, tenant_key=self.tenant_key, metadata=self.signature)
            try:
                if copy_live and live is not None:
                    kept = [p for p in self.engine.scroll(live, with_vectors=True) if p.id not in dropped]
                    self.engine.write(version, kept)
                self.engine.write(version, points)
                self.engine.seal(version)
                self.engine.switch(alias, version)
            except BaseException:
                self.engine.drop(version)
                raise
            if live is not None:
                self.engine.drop(live)
            return version

    def _stored_points(self, points: Sequence[IndexPoint], progress: Progress | None) -> list[StoredPoint]:
        """Vectors for every point: dense batches run in worker threads (the models release the GIL) while
        this thread computes the BM25 vectors, so ingest uses the free cores without oversubscribing them."""
        missing = [p.id for p in points if self.tenant_key not in p.payload]
        if missing:
            raise IndexUsageError(f"Punkt {missing[0]!r} hat kein Feld {self.tenant_key!r} in der Payload")
        batches = [points[start : start + self.batch_size] for start in range(0, len(points), self.batch_size)]
        workers = self.workers or free_cores()
        stored: list[StoredPoint] = []
        with ThreadPoolExecutor(max_workers=workers) as pool:
            upcoming = iter(batches)
            pending: deque[Future[list[list[float]]]] = deque()

            def submit_next() -> None:
                batch = next(upcoming, None)
                if batch is not None and self.embedder is not None:
                    pending.append(pool.submit(self.embedder.embed_passages, [p.text for p in batch]))

            for _ in range(workers + 1):  # a bounded window: a failing model stops the ingest soon
                submit_next()
            for batch in batches:
                sparse = [self.analyzer.document_vector(p.text) for p in batch]
                dense: Sequence[list[float] | None] = pending.popleft().result() if pending else [None] * len(batch)
                submit_next()
                stored += [
                    StoredPoint(
                        id=engine_point_id(point.id),
                        sparse=terms,
                        dense=vector,
                        payload={**point.payload, POINT_ID_KEY: point.id},
                    )
                    for point, terms, vector in zip(batch, sparse, dense, strict=True)
                ]
                if progress is not None:
                    progress(len(batch))
        return stored

    # --- reading ----------------------------------------------------------------------------------

    def search(
        self, alias: str, query: str, *, filter: Mapping[str, FilterValue], limit: int = 10
    ) -> list[ScoredPoint]:
        """The best ``limit`` points for ``query`` among those matching ``filter`` (which must name the tenant)."""
        return self.search_many(alias, [query], filter=filter, limit=limit)[0]

    def search_many(
        self, alias: str, queries: Sequence[str], *, filter: Mapping[str, FilterValue], limit: int = 10
    ) -> list[list[ScoredPoint]]:
        """One ranking per query, all lists of all queries sent to the engine as one batch."""
        conditions = self._conditions(filter)
        self._check_engine_ids(alias)
        pool = max(limit, self.candidates)
        plans: list[tuple[int, list[int], list[int], bool]] = []
        requests: list[VectorQuery] = []
        for query in queries:
            terms = self.analyzer.query_vector(query)
            dense_query = self.embedder.embed_query(query) if self.embedder else None
            # The BM25 list is also re-scored by the dense vector, so every candidate gets its exact cosine;
            # a dense-only candidate outside the (twice as long) BM25 list counts as BM25 score 0.
            sparse_lists: list[int] = []
            dense_lists: list[int] = []
            if terms.indices:
                bm25 = VectorQuery(SPARSE, terms, conditions, 2 * pool)
                sparse_lists.append(len(requests))
                requests.append(bm25)
                if dense_query is not None:
                    dense_lists.append(len(requests))
                    requests.append(VectorQuery(DENSE, dense_query, conditions, 2 * pool, within=bm25))
            if dense_query is not None:
                dense_lists.append(len(requests))
                requests.append(VectorQuery(DENSE, dense_query, conditions, pool))
            plans.append((len(terms.indices), sparse_lists, dense_lists, dense_query is not None))
        if not requests:
            return [[] for _ in queries]
        answer = self.engine.query_batch(alias, requests)
        ranked = [
            self._ranked(answer, sparse_lists, dense_lists, hybrid, limit)
            for _, sparse_lists, dense_lists, hybrid in plans
        ]
        payloads = answer.payloads(list({engine_id for top in ranked for engine_id in top[0]}))
        return [self._scored(top, payloads, query_terms=plan[0]) for plan, top in zip(plans, ranked, strict=True)]

    def indexed_terms(self, alias: str, terms: Sequence[str], *, filter: Mapping[str, FilterValue]) -> frozenset[str]:
        """The analyzer terms among ``terms`` that some point matching ``filter`` contains: one BM25 list of at most
        one hit per term, all in one batch (a point shares a term with the query or is no BM25 hit)."""
        conditions = self._conditions(filter)
        self._check_engine_ids(alias)
        asked = list(dict.fromkeys(terms))
        if not asked:
            return frozenset()
        requests = [VectorQuery(SPARSE, self.analyzer.terms_vector([term]), conditions, 1) for term in asked]
        answer = self.engine.query_batch(alias, requests)
        return frozenset(term for term, found in zip(asked, answer.lists, strict=True) if found.ids)

    def _ranked(
        self, answer: BatchAnswer, sparse_lists: list[int], dense_lists: list[int], hybrid: bool, limit: int
    ) -> _Ranked:
        """The best ``limit`` candidates of one query: engine ids, fused, raw sparse and raw dense scores."""
        sparse: dict[int, float] = {}
        for at in sparse_lists:
            sparse.update(zip(answer.lists[at].ids, answer.lists[at].scores, strict=True))
        dense: dict[int, float] = {}
        for at in dense_lists:
            dense.update(zip(answer.lists[at].ids, answer.lists[at].scores, strict=True))
        ids = list(dict.fromkeys([*sparse, *dense]))  # BM25 order first: RRF breaks ties by arrival
        count = len(ids)
        if not count:
            return [], [], [], None
        # A candidate missing from a list scores 0 there (BM25 lists only: the BM25 list is re-scored densely).
        sparse_scores = np.fromiter(map(sparse.get, ids, repeat(0.0)), np.float64, count)
        dense_scores = np.fromiter(map(dense.get, ids, repeat(0.0)), np.float64, count) if hybrid else None
        fused = fuse(sparse_scores, dense_scores, method=self.fusion, dense_weight=self.dense_weight)
        order = np.lexsort((np.array(ids), -fused))[:limit]
        return (
            [ids[i] for i in order.tolist()],
            fused[order].tolist(),
            sparse_scores[order].tolist(),
            None if dense_scores is None else dense_scores[order].tolist(),
        )

    def _scored(
        self, ranked: _Ranked, payloads: Mapping[int, Mapping[str, Any]], *, query_terms: int
    ) -> list[ScoredPoint]:
        ids, fused, sparse, dense = ranked
        hits: list[ScoredPoint] = []
        for at, engine_id in enumerate(ids):
            payload = payloads.get(engine_id)
            if payload is None:  # gone from the version between the search and the payload fetch
                continue
            dense_score = None if dense is None else dense[at]
            hits.append(
                ScoredPoint(
                    id=str(payload.get(POINT_ID_KEY, engine_id)),
                    payload={k: v for k, v in payload.items() if k != POINT_ID_KEY},
                    score=self.relevance(sparse=sparse[at], dense=dense_score, query_terms=query_terms),
                    fused=fused[at],
                    sparse=sparse[at],
                    dense=dense_score,
                    rank=len(hits) + 1,
                )
            )
        return hits

    def _check_engine_ids(self, alias: str) -> None:
        """A version written before engine ids were integers cannot be searched: say how to repair it. Other
        signature differences are allowed here (a sparse-only index may read a hybrid version's BM25 list)."""
        version = self.engine.resolve(alias)
        if version is None or version in self._ids_checked:
            return
        if self.engine.metadata(version).get("engine_ids") != ENGINE_IDS:
            raise IndexUsageError(
                f"Index {alias!r} stammt aus einer älteren Version (Punkt-IDs): neu aufbauen mit "
                "'belegt ingest' oder 'belegt kb reindex'"
            )
        self._ids_checked.add(version)  # versions never change once published

    def relevance(self, *, sparse: float, dense: float | None, query_terms: int) -> float:
        """The calibrated score of one hit from its raw scores."""
        return self.calibration.probability(
            dense=dense if self._calibrate_dense else None, sparse_per_term=sparse / max(1, query_terms)
        )

    def _conditions(self, conditions: Mapping[str, FilterValue]) -> Conditions:
        tenant = conditions.get(self.tenant_key)
        if not isinstance(tenant, str) or not tenant:
            raise IndexUsageError(f"Jede Suche braucht einen Filter auf {self.tenant_key!r} (Mandantentrennung)")
        return conditions


def fuse(sparse: Scores, dense: Scores | None, *, method: Fusion, dense_weight: float) -> Scores:
    """``weighted``: min-max-normalise each score over the candidates, then mix with ``dense_weight``.
    ``rrf``: reciprocal rank fusion (k = 60) of the two orders, ties ranked by position. Sparse only
    (``dense`` None): the BM25 scores."""
    if dense is None:
        return sparse
    if method == "rrf":
        return _reciprocal_ranks(sparse) + _reciprocal_ranks(dense)
    return (1 - dense_weight) * _min_max(sparse) + dense_weight * _min_max(dense)


def _min_max(values: Scores) -> Scores:
    low, high = float(values.min()), float(values.max())
    if high <= low:
        return np.full(len(values), 1.0 if high > 0 else 0.0)
    return (values - low) / (high - low)


def _reciprocal_ranks(values: Scores) -> Scores:
    ranks = np.empty(len(values), dtype=np.float64)
    ranks[np.argsort(-values, kind="stable")] = np.arange(1, len(values) + 1)
    return 1.0 / (RRF_K + ranks)


def index_from_settings(
    settings: StoreSettings, *, engine: VectorEngine, embedder: Embedder | None, tenant_key: str
) -> HybridIndex:
    """A hybrid index configured from settings (fusion, weight, candidates)."""
    return HybridIndex(
        engine,
        embedder=embedder,
        tenant_key=tenant_key,
        fusion=settings.kb_fusion,
        dense_weight=settings.kb_dense_weight,
        candidates=settings.kb_candidates,
        workers=settings.embed_workers,
    )
