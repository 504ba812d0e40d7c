"""A generic hybrid index in Qdrant: named dense + sparse vectors, addressed through aliases.

Every collection is reached through an alias, so a full rebuild (``build``) fills a fresh collection and
then moves the alias in one atomic call: readers see the old index or the new one, never a half-built one.
Points carry a stable string id (stored in the payload; Qdrant gets its uuid5) and a free payload dict.
``search`` demands a payload filter that names the tenant key: there is no unfiltered query path.

Ranking fuses a BM25 list (German analyzer, IDF from Qdrant) with a dense list client-side, so that each
hit keeps its raw scores; the calibrated score in [0, 1] comes from ``stores.vector.calibration``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from qdrant_client import QdrantClient, models

from stores.settings import StoreSettings
from stores.vector.analyzer import GermanAnalyzer, SparseTerms
from stores.vector.calibration import LogisticCalibration, calibration_for
from stores.vector.embedders import Embedder
from stores.vector.qdrant import collection_layout

Fusion = Literal["weighted", "rrf"]
FilterValue = str | int | bool | Sequence[str | int] | Mapping[str, float | int]
Progress = Callable[[int], None]

DENSE = "dense"
SPARSE = "sparse"
POINT_ID_KEY = "point_id"
RRF_K = 60
_POINT_NAMESPACE = uuid.UUID("6f1c9a52-8f0e-4f55-9a8e-2b7d0c5e4a11")
_RANGE_KEYS = frozenset({"gt", "gte", "lt", "lte"})


class IndexUsageError(ValueError):
    """A misuse of the index API (missing tenant filter, unknown alias, bad filter value)."""


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


@dataclass(frozen=True)
class _Candidate:
    id: str
    payload: dict[str, Any]
    sparse: float = 0.0
    dense: float | None = None


def qdrant_point_id(point_id: str) -> str:
    """Qdrant accepts only unsigned integers and UUIDs; a uuid5 keeps string ids stable across runs."""
    return str(uuid.uuid5(_POINT_NAMESPACE, point_id))


class HybridIndex:
    """Hybrid dense + sparse search over aliased collections; sparse-only when ``embedder`` is None."""

    def __init__(
        self,
        client: QdrantClient,
        *,
        embedder: Embedder | None,
        tenant_key: str,
        analyzer: GermanAnalyzer | None = None,
        fusion: Fusion = "weighted",
        dense_weight: float = 0.5,
        candidates: int = 50,
        layout: Mapping[str, Any] | None = None,
        calibration: LogisticCalibration | None = None,
        batch_size: int = 32,
    ) -> None:
        if not 0.0 <= dense_weight <= 1.0:
            raise IndexUsageError("dense_weight muss zwischen 0 und 1 liegen")
        self.client = client
        self.embedder = embedder
        self.tenant_key = tenant_key
        self.analyzer = analyzer or GermanAnalyzer()
        self.fusion = fusion
        self.dense_weight = dense_weight if embedder is not None else 0.0
        self.candidates = candidates
        self.layout = dict(layout or {})
        self.batch_size = batch_size
        shipped, uses_dense = calibration_for(embedder.name if embedder else None)
        self.calibration = calibration or shipped
        self._calibrate_dense = uses_dense or calibration is not None

    # --- layout -----------------------------------------------------------------------------------

    @property
    def signature(self) -> dict[str, Any]:
        """What the vectors depend on; a collection built with another signature must be rebuilt."""
        return {
            "embedder": self.embedder.name if self.embedder else None,
            "dim": self.embedder.dim if self.embedder else None,
            "analyzer": self.analyzer.version,
        }

    def exists(self, alias: str) -> bool:
        return any(a.alias_name == alias for a in self.client.get_aliases().aliases)

    def is_current(self, alias: str) -> bool:
        """The alias exists and its collection was built with this index's embedder and analyzer."""
        if not self.exists(alias):
            return False
        metadata = self.client.get_collection(alias).config.metadata or {}
        return all(metadata.get(key) == value for key, value in self.signature.items())

    def collection_of(self, alias: str) -> str | None:
        for a in self.client.get_aliases().aliases:
            if a.alias_name == alias:
                return a.collection_name
        return None

    def _create_collection(self, alias: str) -> str:
        name = f"{alias}__{uuid.uuid4().hex[:12]}"
        vectors = {}
        if self.embedder is not None:
            vectors[DENSE] = models.VectorParams(size=self.embedder.dim, distance=models.Distance.COSINE)
        self.client.create_collection(
            name,
            vectors_config=vectors,
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
            metadata=self.signature,
            **self.layout,
        )
        return name

    # --- writing ----------------------------------------------------------------------------------

    def build(self, alias: str, points: Sequence[IndexPoint], *, progress: Progress | None = None) -> str:
        """Index all points into a new collection, then switch the alias to it atomically; returns its name.

        If anything fails before the switch, the new collection is dropped and the alias is untouched.
        """
        structs = self._point_structs(points, progress)
        name = self._create_collection(alias)
        try:
            self._write(name, structs)
            previous = self.collection_of(alias)
            operations: list[models.AliasOperations] = []
            if previous is not None:
                operations.append(models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name=alias)))
            operations.append(
                models.CreateAliasOperation(create_alias=models.CreateAlias(collection_name=name, alias_name=alias))
            )
            self.client.update_collection_aliases(change_aliases_operations=operations)
        except BaseException:
            self.client.delete_collection(name)
            raise
        if previous is not None:
            self.client.delete_collection(previous)
        return name

    def upsert(self, alias: str, points: Sequence[IndexPoint], *, progress: Progress | None = None) -> None:
        """Add or replace points in place; creates the aliased collection on first use.

        Vectors are computed for every point before the first write, so a failing embedder writes nothing.
        """
        if not self.exists(alias):
            self.build(alias, points, progress=progress)
            return
        self._write(alias, self._point_structs(points, progress))

    def delete(self, alias: str, ids: Iterable[str]) -> None:
        selector = [qdrant_point_id(i) for i in ids]
        if selector and self.exists(alias):
            self.client.delete(alias, points_selector=models.PointIdsList(points=selector))

    def drop(self, alias: str) -> None:
        """Remove the alias and its collection."""
        collection = self.collection_of(alias)
        if collection is not None:
            self.client.update_collection_aliases(
                change_aliases_operations=[
                    models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name=alias))
                ]
            )
            self.client.delete_collection(collection)

    def count(self, alias: str, *, filter: Mapping[str, FilterValue]) -> int:
        return self.client.count(alias, count_filter=self._filter(filter), exact=True).count

    def _point_structs(self, points: Sequence[IndexPoint], progress: Progress | None) -> list[models.PointStruct]:
        structs: list[models.PointStruct] = []
        for start in range(0, len(points), self.batch_size):
            batch = points[start : start + self.batch_size]
            dense = self.embedder.embed_passages([p.text for p in batch]) if self.embedder else None
            for offset, point in enumerate(batch):
                if self.tenant_key not in point.payload:
                    raise IndexUsageError(f"Punkt {point.id!r} hat kein Feld {self.tenant_key!r} in der Payload")
                vector: dict[str, Any] = {SPARSE: _sparse_vector(self.analyzer.document_vector(point.text))}
                if dense is not None:
                    vector[DENSE] = dense[offset]
                payload = {**point.payload, POINT_ID_KEY: point.id}
                structs.append(models.PointStruct(id=qdrant_point_id(point.id), vector=vector, payload=payload))
            if progress is not None:
                progress(len(batch))
        return structs

    def _write(self, collection: str, structs: Sequence[models.PointStruct]) -> None:
        for start in range(0, len(structs), 256):
            self.client.upsert(collection, points=list(structs[start : start + 256]), wait=True)

    # --- reading ----------------------------------------------------------------------------------

    def search(
        self, alias: str, query: str, *, filter: Mapping[str, FilterValue], limit: int = 10
    ) -> list[ScoredPoint]:
        """The best ``limit`` points for ``query`` among those matching ``filter`` (which must name the tenant)."""
        query_filter = self._filter(filter)
        if not self.exists(alias):
            raise IndexUsageError(f"Index {alias!r} gibt es nicht")
        terms = self.analyzer.query_vector(query)
        dense_query = self.embedder.embed_query(query) if self.embedder else None
        pool = max(limit, self.candidates)
        # One round trip: the BM25 list brings its points' dense vectors along, so every candidate gets its
        # exact cosine; a dense-only candidate outside the (twice as long) BM25 list counts as BM25 score 0.
        requests = []
        if terms.indices:
            requests.append(
                models.QueryRequest(
                    query=_sparse_vector(terms),
                    using=SPARSE,
                    filter=query_filter,
                    limit=2 * pool,
                    with_payload=True,
                    with_vector=[DENSE] if dense_query is not None else False,
                )
            )
        if dense_query is not None:
            requests.append(
                models.QueryRequest(query=dense_query, using=DENSE, filter=query_filter, limit=pool, with_payload=True)
            )
        if not requests:
            return []
        responses = self.client.query_batch_points(alias, requests=requests)
        found: dict[str, dict[str, Any]] = {}
        sparse_scores: dict[str, float] = {}
        dense_scores: dict[str, float] = {}
        for request, response in zip(requests, responses, strict=True):
            for point in response.points:
                qid = str(point.id)
                found[qid] = point.payload or {}
                if request.using == DENSE:
                    dense_scores[qid] = float(point.score)
                    continue
                sparse_scores[qid] = float(point.score)
                if dense_query is not None and isinstance(point.vector, dict):
                    dense_scores[qid] = _dot(dense_query, point.vector[DENSE])
        candidates = [
            _Candidate(
                id=str(payload.get(POINT_ID_KEY, qid)),
                payload={k: v for k, v in payload.items() if k != POINT_ID_KEY},
                sparse=sparse_scores.get(qid, 0.0),
                dense=dense_scores.get(qid, 0.0) if dense_query is not None else None,
            )
            for qid, payload in found.items()
        ]
        return self._rank(candidates, query_terms=len(terms.indices), limit=limit)

    def _rank(self, candidates: list[_Candidate], *, query_terms: int, limit: int) -> list[ScoredPoint]:
        fused = fuse(
            [c.sparse for c in candidates],
            [c.dense for c in candidates] if self.embedder else None,
            method=self.fusion,
            dense_weight=self.dense_weight,
        )
        order = sorted(range(len(candidates)), key=lambda i: (-fused[i], candidates[i].id))[:limit]
        return [
            ScoredPoint(
                id=candidates[i].id,
                payload=candidates[i].payload,
                score=self.relevance(sparse=candidates[i].sparse, dense=candidates[i].dense, query_terms=query_terms),
                fused=fused[i],
                sparse=candidates[i].sparse,
                dense=candidates[i].dense,
                rank=rank,
            )
            for rank, i in enumerate(order, start=1)
        ]

    def relevance(self, *, sparse: float, dense: float | None, query_terms: int) -> float:
        """The calibrated score of one hit from its raw scores."""
        return self.calibration.probability(
            dense=dense if self._calibrate_dense else None, sparse_per_term=sparse / max(1, query_terms)
        )

    def _filter(self, conditions: Mapping[str, FilterValue]) -> models.Filter:
        tenant = conditions.get(self.tenant_key)
        if not isinstance(tenant, str) or not tenant:
            raise IndexUsageError(f"Jede Suche braucht einen Filter auf {self.tenant_key!r} (Mandantentrennung)")
        return payload_filter(conditions)


def payload_filter(conditions: Mapping[str, FilterValue]) -> models.Filter:
    """``{"kb": "x", "tags": ["a", "b"], "year": {"gte": 2020}}`` → a Qdrant filter where all must hold."""
    must: list[models.Condition] = []
    for key, value in conditions.items():
        if isinstance(value, Mapping):
            if not value or not set(value) <= _RANGE_KEYS:
                raise IndexUsageError(f"Bereichsfilter {key!r} erlaubt nur {sorted(_RANGE_KEYS)}")
            must.append(models.FieldCondition(key=key, range=models.Range(**value)))
        elif isinstance(value, str | int | bool):
            must.append(models.FieldCondition(key=key, match=models.MatchValue(value=value)))
        else:
            must.append(models.FieldCondition(key=key, match=models.MatchAny(any=list(value))))
    return models.Filter(must=must)


def fuse(
    sparse: Sequence[float], dense: Sequence[float | None] | None, *, method: Fusion, dense_weight: float
) -> list[float]:
    """Fused ranking scores of candidates that carry both raw scores.

    ``weighted``: min-max-normalise each score over the candidates, then mix with ``dense_weight``.
    ``rrf``: reciprocal rank fusion (k = 60) of the two orders.
    """
    if dense is None:
        return list(sparse)
    dense_values = [d or 0.0 for d in dense]
    if method == "rrf":
        return [a + b for a, b in zip(_reciprocal_ranks(sparse), _reciprocal_ranks(dense_values), strict=True)]
    return [
        (1 - dense_weight) * s + dense_weight * d for s, d in zip(_min_max(sparse), _min_max(dense_values), strict=True)
    ]


def _min_max(values: Sequence[float]) -> list[float]:
    low, high = min(values), max(values)
    if high <= low:
        return [1.0 if high > 0 else 0.0 for _ in values]
    return [(v - low) / (high - low) for v in values]


def _reciprocal_ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: -values[i])
    ranks = [0.0] * len(values)
    for rank, i in enumerate(order, start=1):
        ranks[i] = 1.0 / (RRF_K + rank)
    return ranks


def _sparse_vector(terms: SparseTerms) -> models.SparseVector:
    return models.SparseVector(indices=terms.indices, values=terms.values)


def _dot(left: Sequence[float], right: Any) -> float:
    """Cosine of two unit vectors (Qdrant normalises stored cosine vectors; embedders normalise queries)."""
    return float(np.dot(np.asarray(left, dtype=np.float32), np.asarray(right, dtype=np.float32)))


def index_from_settings(
    settings: StoreSettings, *, client: QdrantClient, embedder: Embedder | None, tenant_key: str
) -> HybridIndex:
    """A hybrid index configured from settings (fusion, weight, candidates, cluster layout)."""
    return HybridIndex(
        client,
        embedder=embedder,
        tenant_key=tenant_key,
        fusion=settings.kb_fusion,
        dense_weight=settings.kb_dense_weight,
        candidates=settings.kb_candidates,
        layout=collection_layout(settings),
    )
