"""Vector engines from settings: embedded Qdrant Edge by default, qdrant-client for a server or cluster.

``BELEGT_QDRANT_URL`` selects a Qdrant server or cluster through qdrant-client (aliases, shards, replicas,
write consistency). ``BELEGT_VECTOR_ENGINE=qdrant-local`` keeps qdrant-client's pure-Python local mode, which
holds an exclusive lock on its folder (one process) and searches by brute force.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import nullcontext
from typing import Any

from qdrant_client import QdrantClient, models
from qdrant_client.http.exceptions import UnexpectedResponse

from stores.settings import StoreSettings
from stores.vector.analyzer import SparseTerms
from stores.vector.edge import EdgeEngine
from stores.vector.engine import (
    DENSE,
    SPARSE,
    BatchAnswer,
    Conditions,
    HitList,
    MissingIndex,
    StoredPoint,
    VectorEngine,
    VectorQuery,
    checked_conditions,
    stored_dense,
)

_WRITE_BATCH = 256
_SCROLL_BATCH = 1024


class ClientEngine:
    """qdrant-client: a version is a collection ``<alias>__<hex>``, the alias a Qdrant alias."""

    name = "qdrant"

    def __init__(self, client: QdrantClient, *, layout: Mapping[str, Any] | None = None) -> None:
        self.client = client
        self.layout = dict(layout or {})

    def resolve(self, alias: str) -> str | None:
        for found in self.client.get_aliases().aliases:
            if found.alias_name == alias:
                return found.collection_name
        return None

    def metadata(self, version: str) -> dict[str, Any]:
        return dict(self.client.get_collection(version).config.metadata or {})

    def versions(self, alias: str) -> list[str]:
        prefix = f"{alias}__"
        return sorted(c.name for c in self.client.get_collections().collections if c.name.startswith(prefix))

    def writing(self, alias: str) -> nullcontext[None]:
        return nullcontext()  # the server serialises alias changes; local mode is one process

    def create(self, alias: str, *, dense_dim: int | None, tenant_key: str, metadata: Mapping[str, Any]) -> str:
        name = f"{alias}__{uuid.uuid4().hex[:12]}"
        vectors: dict[str, models.VectorParams] = (
            {DENSE: models.VectorParams(size=dense_dim, distance=models.Distance.COSINE)} if dense_dim else {}
        )
        self.client.create_collection(
            name,
            vectors_config=vectors,
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
            metadata=dict(metadata),
            **self.layout,
        )
        return name

    def write(self, version: str, points: Sequence[StoredPoint]) -> None:
        for start in range(0, len(points), _WRITE_BATCH):
            batch = [_point_struct(p) for p in points[start : start + _WRITE_BATCH]]
            self.client.upsert(version, points=batch, wait=True)

    def seal(self, version: str) -> None:
        """Writes were made with ``wait=True``; the server indexes in the background."""

    def switch(self, alias: str, version: str) -> None:
        operations: list[models.AliasOperations] = []
        if self.resolve(alias) is not None:
            operations.append(models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name=alias)))
        operations.append(
            models.CreateAliasOperation(create_alias=models.CreateAlias(collection_name=version, alias_name=alias))
        )
        self.client.update_collection_aliases(change_aliases_operations=operations)

    def unlink(self, alias: str) -> None:
        self.client.update_collection_aliases(
            change_aliases_operations=[models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name=alias))]
        )

    def drop(self, version: str) -> None:
        self.client.delete_collection(version)

    def query_batch(self, alias: str, queries: Sequence[VectorQuery]) -> BatchAnswer:
        requests = [_request(query) for query in queries]
        # The alias itself is queried (the server resolves it), so a rebuild elsewhere is never stale here.
        try:
            responses = self.client.query_batch_points(alias, requests=requests)
        except (ValueError, UnexpectedResponse) as exc:
            missing = exc.status_code == 404 if isinstance(exc, UnexpectedResponse) else "not found" in str(exc)
            if not missing:
                raise
            raise MissingIndex(alias) from None
        # Payloads come along with the lists: one round trip to a server matters more than their size.
        found = {int(p.id): p.payload or {} for response in responses for p in response.points if p.payload}
        lists = [HitList([int(p.id) for p in r.points], [float(p.score) for p in r.points]) for r in responses]
        return BatchAnswer(lists, lambda ids: {i: found[i] for i in ids if i in found})

    def count(self, alias: str, conditions: Conditions) -> int:
        if self.resolve(alias) is None:
            raise MissingIndex(alias)
        return self.client.count(alias, count_filter=payload_filter(conditions), exact=True).count

    def scroll(self, version: str, *, with_vectors: bool) -> Iterator[StoredPoint]:
        offset: Any = None
        while True:
            records, offset = self.client.scroll(
                version, limit=_SCROLL_BATCH, offset=offset, with_payload=True, with_vectors=with_vectors
            )
            for record in records:
                vectors = record.vector if isinstance(record.vector, dict) else {}
                sparse = vectors.get(SPARSE)
                yield StoredPoint(
                    id=int(record.id),
                    sparse=SparseTerms(list(sparse.indices), list(sparse.values))
                    if isinstance(sparse, models.SparseVector)
                    else SparseTerms([], []),
                    dense=stored_dense(vectors),
                    payload=dict(record.payload or {}),
                )
            if offset is None:
                return

    def close(self) -> None:
        self.client.close()


def payload_filter(conditions: Conditions) -> models.Filter:
    """``{"kb": "x", "tags": ["a", "b"], "year": {"gte": 2020}}`` → a Qdrant filter where all must hold."""
    must: list[models.Condition] = []
    for key, value in checked_conditions(conditions).items():
        if isinstance(value, Mapping):
            must.append(models.FieldCondition(key=key, range=models.Range(**value)))
        elif isinstance(value, str | int | bool):
            must.append(models.FieldCondition(key=key, match=models.MatchValue(value=value)))
        else:
            must.append(models.FieldCondition(key=key, match=models.MatchAny(any=list(value))))
    return models.Filter(must=must)


def _request(query: VectorQuery) -> models.QueryRequest:
    if query.within is None:
        return models.QueryRequest(
            query=_query_vector(query.vector),
            using=query.using,
            filter=payload_filter(query.conditions),
            limit=query.limit,
            with_payload=True,
        )
    within = query.within
    prefetch = models.Prefetch(
        query=_query_vector(within.vector),
        using=within.using,
        filter=payload_filter(within.conditions),
        limit=within.limit,
    )
    return models.QueryRequest(
        prefetch=prefetch, query=_query_vector(query.vector), using=query.using, limit=query.limit, with_payload=False
    )


def _query_vector(vector: Sequence[float] | SparseTerms) -> Any:
    if isinstance(vector, SparseTerms):
        return models.SparseVector(indices=vector.indices, values=vector.values)
    return list(vector)


def _point_struct(point: StoredPoint) -> models.PointStruct:
    vector: dict[str, Any] = {SPARSE: models.SparseVector(indices=point.sparse.indices, values=point.sparse.values)}
    if point.dense is not None:
        vector[DENSE] = list(point.dense)
    return models.PointStruct(id=point.id, vector=vector, payload=dict(point.payload))


def open_vector_engine(settings: StoreSettings) -> VectorEngine:
    """The configured engine: a Qdrant server with ``qdrant_url``, else the embedded one chosen by settings."""
    if settings.qdrant_url:
        api_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        return ClientEngine(QdrantClient(url=settings.qdrant_url, api_key=api_key), layout=collection_layout(settings))
    if settings.vector_engine == "qdrant-local":
        path = settings.resolved_qdrant_path
        path.mkdir(parents=True, exist_ok=True)
        return ClientEngine(QdrantClient(path=str(path)))
    return EdgeEngine(settings.resolved_edge_path)


def collection_layout(settings: StoreSettings) -> dict[str, Any]:
    """Cluster parameters passed through at collection creation (local mode ignores them)."""
    layout: dict[str, Any] = {}
    if settings.qdrant_shard_number is not None:
        layout["shard_number"] = settings.qdrant_shard_number
    if settings.qdrant_replication_factor is not None:
        layout["replication_factor"] = settings.qdrant_replication_factor
    if settings.qdrant_write_consistency_factor is not None:
        layout["write_consistency_factor"] = settings.qdrant_write_consistency_factor
    return layout


def describe_vector_engine(settings: StoreSettings) -> str:
    if settings.qdrant_url:
        return f"Qdrant-Server {settings.qdrant_url}"
    if settings.vector_engine == "qdrant-local":
        return f"qdrant-client lokal {settings.resolved_qdrant_path}"
    return f"Qdrant Edge {settings.resolved_edge_path}"


def memory_engine() -> ClientEngine:
    """qdrant-client's in-memory mode: a throwaway engine for tests and small evals."""
    return ClientEngine(QdrantClient(":memory:"))
