"""What ``HybridIndex`` needs from a vector engine: immutable versions behind a name that switches atomically.

An alias names the live version of an index. Writers fill a fresh version, ``seal`` it and ``switch`` the alias
to it in one atomic step, so readers see the old version or the new one, never a half-written one. Engines:
``stores.vector.edge`` (embedded Qdrant Edge, the default) and ``stores.vector.qdrant`` (qdrant-client: a
server or cluster, or its pure-Python local mode).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from stores.vector.analyzer import SparseTerms

FilterValue = str | int | bool | Sequence[str | int] | Mapping[str, float | int]
Conditions = Mapping[str, FilterValue]
VectorName = Literal["dense", "sparse"]

DENSE: VectorName = "dense"
SPARSE: VectorName = "sparse"
RANGE_KEYS = frozenset({"gt", "gte", "lt", "lte"})


class IndexUsageError(ValueError):
    """A misuse of the index API (missing tenant filter, unknown alias, bad filter value)."""


class MissingIndex(IndexUsageError):
    def __init__(self, alias: str) -> None:
        super().__init__(f"Index {alias!r} gibt es nicht")
        self.alias = alias


@dataclass(frozen=True)
class StoredPoint:
    """One point as the engine keeps it: engine id (an unsigned integer), both vectors and the payload."""

    id: int
    sparse: SparseTerms
    dense: Sequence[float] | None
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class VectorQuery:
    """One nearest-neighbour list: which vector, the query vector, the payload filter and the list length.

    With ``within``, the list is that query's hits re-scored by this vector, which gives the dense score of
    every BM25 candidate without moving vectors to Python.
    """

    using: VectorName
    vector: Sequence[float] | SparseTerms
    conditions: Conditions
    limit: int
    within: VectorQuery | None = None


@dataclass(frozen=True)
class HitList:
    """One nearest-neighbour list, best first, as two parallel lists (no object per hit)."""

    ids: list[int]
    scores: list[float]


@dataclass(frozen=True)
class BatchAnswer:
    """One list of hits per query, and the payloads of chosen hits from the same version that answered.

    Ranking needs only ids and scores, so an engine may leave payloads where they are until the few final
    hits are known (converting every candidate's payload to Python costs more than the search).
    """

    lists: list[HitList]
    payloads: Callable[[Sequence[int]], dict[int, Mapping[str, Any]]]


class VectorEngine(Protocol):
    """Versions are written once (create → write → seal) and then only read, switched to and dropped."""

    name: str

    def resolve(self, alias: str) -> str | None:
        """The version the alias points at, or None."""
        ...

    def metadata(self, version: str) -> dict[str, Any]: ...

    def versions(self, alias: str) -> list[str]:
        """Every version stored for this alias, live or not (orphans of interrupted builds included)."""
        ...

    def writing(self, alias: str) -> AbstractContextManager[None]:
        """Held by a writer from creating a version until switching to it (one writer per alias)."""
        ...

    def create(self, alias: str, *, dense_dim: int | None, tenant_key: str, metadata: Mapping[str, Any]) -> str: ...

    def write(self, version: str, points: Sequence[StoredPoint]) -> None: ...

    def seal(self, version: str) -> None:
        """Make the version durable and fast to read before anyone can see it."""
        ...

    def switch(self, alias: str, version: str) -> None:
        """Point the alias at the version in one atomic step."""
        ...

    def unlink(self, alias: str) -> None: ...

    def drop(self, version: str) -> None: ...

    def query_batch(self, alias: str, queries: Sequence[VectorQuery]) -> BatchAnswer:
        """All lists in one request against the alias's live version; MissingIndex if there is none."""
        ...

    def count(self, alias: str, conditions: Conditions) -> int: ...

    def scroll(self, version: str, *, with_vectors: bool) -> Iterator[StoredPoint]: ...

    def close(self) -> None: ...


def checked_conditions(conditions: Conditions) -> Conditions:
    """Range filters name only gt/gte/lt/lte; everything else is a value or a list of values."""
    for key, value in conditions.items():
        if isinstance(value, Mapping) and (not value or not set(value) <= RANGE_KEYS):
            raise IndexUsageError(f"Bereichsfilter {key!r} erlaubt nur {sorted(RANGE_KEYS)}")
    return conditions


def stored_dense(vectors: Any) -> list[float] | None:
    """The dense vector of a point as both engines return it (a mapping by vector name), or None."""
    dense = vectors.get(DENSE) if isinstance(vectors, Mapping) else None
    return list(dense) if isinstance(dense, Sequence) else None
