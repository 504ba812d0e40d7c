"""The embedded engine: Qdrant Edge (Rust, in process), one shard folder per index version.

Edge has no aliases, so each alias is a folder with immutable version folders and one pointer file::

    <root>/<alias>/CURRENT          the live version's name, replaced atomically (os.replace + fsync)
    <root>/<alias>/<version>/       an Edge shard plus belegt.json (the signature it was built with)
    <root>/<alias>.lock             flock held by the one writer of this alias

Shards are created without a write-ahead log and flushed before the pointer names them; a published version
is never written again. That is what lets several processes read the same folder at once (Edge's WAL lock
would allow only one). A reader re-reads the pointer when its inode or mtime changes (one ``stat`` per
search), so a rebuild by another process is picked up on the next query.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import threading
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import qdrant_edge as q

from stores.vector.analyzer import SparseTerms
from stores.vector.engine import (
    DENSE,
    SPARSE,
    BatchAnswer,
    Conditions,
    HitList,
    MissingIndex,
    StoredPoint,
    VectorQuery,
    checked_conditions,
    stored_dense,
)

POINTER = "CURRENT"
METADATA = "belegt.json"
_WRITE_BATCH = 512
_SCROLL_BATCH = 1024
# Edge's default search pool has a thread per CPU and runs a query's per-segment reads on it. On the shared
# 2-core machine one thread was faster (10,000 passages: hybrid batch p50 0.38 against 0.46–0.52 ms, p95
# 0.58 against 0.77–4.1 ms); concurrent searches of one shard then take turns.
SEARCH_THREADS = 1


class EdgeEngine:
    """Versioned Edge shards under ``root``; open shards and pointer look-ups are cached per process."""

    name = "edge"

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._shards: dict[str, q.EdgeShard] = {}
        self._pointers: dict[str, tuple[tuple[int, int], str]] = {}
        self._pointer_paths: dict[str, str] = {}

    # --- naming ----------------------------------------------------------------------------------

    def _folder(self, version: str) -> Path:
        return self.root / version

    def _pointer(self, alias: str) -> Path:
        return self.root / alias / POINTER

    # --- reading ---------------------------------------------------------------------------------

    def resolve(self, alias: str) -> str | None:
        pointer = self._pointer_paths.get(alias)
        if pointer is None:  # the path as a string, built once: pathlib costs more than the stat itself
            pointer = self._pointer_paths[alias] = str(self._pointer(alias))
        try:
            stat = os.stat(pointer)
        except FileNotFoundError:
            self._pointers.pop(alias, None)
            return None
        key = (stat.st_ino, stat.st_mtime_ns)
        cached = self._pointers.get(alias)
        if cached is not None and cached[0] == key:
            return cached[1]
        version = f"{alias}/{Path(pointer).read_text(encoding='utf-8').strip()}"
        self._pointers[alias] = (key, version)
        return version

    def metadata(self, version: str) -> dict[str, Any]:
        path = self._folder(version) / METADATA
        loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        return loaded

    def versions(self, alias: str) -> list[str]:
        folder = self.root / alias
        if not folder.is_dir():
            return []
        return sorted(f"{alias}/{child.name}" for child in folder.iterdir() if child.is_dir())

    def _live_shard(self, alias: str) -> q.EdgeShard:
        version = self.resolve(alias)
        if version is None:
            raise MissingIndex(alias)
        return self._shard(version)

    def _shard(self, version: str) -> q.EdgeShard:
        with self._lock:
            shard = self._shards.get(version)
            if shard is None:
                shard = q.EdgeShard.load(str(self._folder(version)), _config(dense=None))
                self._shards[version] = shard
            return shard

    def query_batch(self, alias: str, queries: Sequence[VectorQuery]) -> BatchAnswer:
        shard = self._live_shard(alias)
        filters: dict[int, q.Filter] = {}  # the sub-queries of a search share one conditions mapping
        results = shard.query_batch(q.QueryBatchRequest([_request(query, filters) for query in queries]))

        def payloads(ids: Sequence[int]) -> dict[int, Mapping[str, Any]]:
            return {int(r.id): r.payload or {} for r in shard.retrieve(list(ids), True, False)}

        return BatchAnswer(
            [HitList([int(p.id) for p in points], [p.score for p in points]) for points in results], payloads
        )

    def count(self, alias: str, conditions: Conditions) -> int:
        return int(self._live_shard(alias).count(q.CountRequest(exact=True, filter=edge_filter(conditions))))

    def scroll(self, version: str, *, with_vectors: bool) -> Iterator[StoredPoint]:
        shard = self._shard(version)
        offset: Any = None
        while True:
            records, offset = shard.scroll(
                q.ScrollRequest(offset=offset, limit=_SCROLL_BATCH, with_payload=True, with_vector=with_vectors)
            )
            for record in records:
                vectors = record.vector if isinstance(record.vector, dict) else {}
                sparse = vectors.get(SPARSE)
                yield StoredPoint(
                    id=int(record.id),
                    sparse=SparseTerms(list(sparse.indices), list(sparse.values))
                    if isinstance(sparse, q.SparseVector)
                    else SparseTerms([], []),
                    dense=stored_dense(vectors),
                    payload=dict(record.payload or {}),
                )
            if offset is None:
                return

    # --- writing ---------------------------------------------------------------------------------

    @contextmanager
    def writing(self, alias: str) -> Iterator[None]:
        with open(self.root / f"{alias}.lock", "a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def create(self, alias: str, *, dense_dim: int | None, tenant_key: str, metadata: Mapping[str, Any]) -> str:
        version = f"{alias}/{uuid.uuid4().hex[:12]}"
        folder = self._folder(version)
        folder.parent.mkdir(parents=True, exist_ok=True)
        shard = q.EdgeShard.create(str(folder), _config(dense=dense_dim, wal_enabled=False))
        shard.update(q.UpdateOperation.create_field_index(tenant_key, q.KeywordIndexParams(is_tenant=True)))
        (folder / METADATA).write_text(json.dumps(dict(metadata), sort_keys=True), encoding="utf-8")
        with self._lock:
            self._shards[version] = shard
        return version

    def write(self, version: str, points: Sequence[StoredPoint]) -> None:
        shard = self._shard(version)
        for start in range(0, len(points), _WRITE_BATCH):
            batch = [_edge_point(p) for p in points[start : start + _WRITE_BATCH]]
            shard.update(q.UpdateOperation.upsert_points(batch))

    def seal(self, version: str) -> None:
        shard = self._shard(version)
        shard.optimize()
        shard.flush()
        _fsync_tree(self._folder(version))

    def switch(self, alias: str, version: str) -> None:
        pointer = self._pointer(alias)
        temporary = pointer.with_name(f"{POINTER}.{os.getpid()}.tmp")
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(version.partition("/")[2])
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, pointer)
        _fsync_dir(pointer.parent)
        self._pointers.pop(alias, None)

    def unlink(self, alias: str) -> None:
        self._pointer(alias).unlink(missing_ok=True)
        _fsync_dir(self.root / alias)
        self._pointers.pop(alias, None)

    def drop(self, version: str) -> None:
        with self._lock:
            shard = self._shards.pop(version, None)
        if shard is not None:
            shard.close()
        shutil.rmtree(self._folder(version), ignore_errors=True)

    def close(self) -> None:
        with self._lock:
            shards, self._shards = list(self._shards.values()), {}
        for shard in shards:
            shard.close()
        self._pointers.clear()


def _config(*, dense: int | None, wal_enabled: bool | None = None) -> q.EdgeConfig:
    """A new shard's layout, or (``dense`` None) the settings to open one with: its dense vector is inherited."""
    return q.EdgeConfig(
        vectors={DENSE: q.EdgeVectorParams(size=dense, distance=q.Distance.Cosine)} if dense else None,
        sparse_vectors={SPARSE: q.EdgeSparseVectorParams(modifier=q.Modifier.Idf)},
        wal_enabled=wal_enabled,
        max_search_threads=SEARCH_THREADS,
    )


def edge_filter(conditions: Conditions) -> q.Filter:
    """``{"kb": "x", "tags": ["a", "b"], "year": {"gte": 2020}}`` → an Edge filter where all must hold."""
    must: list[Any] = []
    for key, value in checked_conditions(conditions).items():
        if isinstance(value, Mapping):
            must.append(q.FieldCondition(key=key, range=q.RangeFloat(**{k: float(v) for k, v in value.items()})))
        elif isinstance(value, str | int | bool):
            must.append(q.FieldCondition(key=key, match=q.MatchValue(value=value)))
        else:
            values: Any = list(value)
            must.append(q.FieldCondition(key=key, match=q.MatchAny(any=values)))
    return q.Filter(must=must)


def _request(query: VectorQuery, filters: dict[int, q.Filter]) -> q.QueryRequest:
    nearest = q.Query.Nearest(_vector(query.vector), using=query.using)
    if query.within is None:
        return q.QueryRequest(limit=query.limit, query=nearest, filter=_filter(query.conditions, filters))
    within = query.within
    prefetch = q.Prefetch(
        limit=within.limit,
        query=q.Query.Nearest(_vector(within.vector), using=within.using),
        filter=_filter(within.conditions, filters),
    )
    return q.QueryRequest(limit=query.limit, query=nearest, prefetches=[prefetch])


def _filter(conditions: Conditions, filters: dict[int, q.Filter]) -> q.Filter:
    """The Edge filter of a conditions mapping, built once per batch (keyed by identity: it lives as long)."""
    built = filters.get(id(conditions))
    if built is None:
        built = filters[id(conditions)] = edge_filter(conditions)
    return built


def _vector(vector: Sequence[float] | SparseTerms) -> Any:
    if isinstance(vector, SparseTerms):
        return q.SparseVector(indices=vector.indices, values=vector.values)
    return list(vector)


def _edge_point(point: StoredPoint) -> q.Point:
    vector: dict[str, Any] = {SPARSE: q.SparseVector(indices=point.sparse.indices, values=point.sparse.values)}
    if point.dense is not None:
        vector[DENSE] = list(point.dense)
    return q.Point(id=point.id, vector=vector, payload=dict(point.payload))


def _fsync_dir(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _fsync_tree(folder: Path) -> None:
    """Every file and folder of a sealed version reaches the disk before the pointer names it."""
    for current, _, files in os.walk(folder):
        for name in files:
            descriptor = os.open(os.path.join(current, name), os.O_RDONLY)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
        _fsync_dir(Path(current))
