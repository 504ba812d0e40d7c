"""Every vector engine belegt keeps, opened in a test folder: the conformance tests run against each."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from stores.vector.edge import EdgeEngine
from stores.vector.engine import VectorEngine
from stores.vector.qdrant import ClientEngine

ENGINE_KINDS = ("edge", "qdrant-local")


def open_engine(kind: str, folder: Path) -> VectorEngine:
    if kind == "edge":
        return EdgeEngine(folder / "edge")
    return ClientEngine(QdrantClient(path=str(folder / "qdrant")))


@pytest.fixture(params=ENGINE_KINDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[VectorEngine]:
    opened = open_engine(request.param, tmp_path)
    yield opened
    opened.close()
