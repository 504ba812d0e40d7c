"""Embedding helpers for K1 and K4: DNA-side vectors (identity core, topic snippets) are computed once."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from stores.vector.embedders import Embedder

MAX_CACHED = 256
_dna_vectors: dict[tuple[str, tuple[str, ...]], NDArray[np.float32]] = {}


def dna_passage_vectors(embedder: Embedder, passages: tuple[str, ...]) -> NDArray[np.float32]:
    """Vectors of DNA texts, cached per embedding model: a DNA version never changes."""
    key = (embedder.name, passages)
    if key not in _dna_vectors:
        if len(_dna_vectors) >= MAX_CACHED:
            _dna_vectors.clear()
        _dna_vectors[key] = np.asarray(embedder.embed_passages(list(passages)), dtype=np.float32)
    return _dna_vectors[key]


def similarities(vectors: NDArray[np.float32], reference: NDArray[np.float32]) -> list[float]:
    """Cosine similarities (the embedders return L2-normalised vectors)."""
    return [round(float(s), 4) for s in vectors @ reference]
