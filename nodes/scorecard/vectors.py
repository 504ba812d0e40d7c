"""Embedding helpers for K1 and K4: DNA-side vectors (identity core, topic snippets) are computed once."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from stores.vector.embedders import Embedder


@lru_cache(maxsize=256)
def dna_passage_vectors(embedder: Embedder, passages: tuple[str, ...]) -> NDArray[np.float32]:
    """Vectors of DNA texts, cached per embedder; the DNA is immutable per version."""
    return np.asarray(embedder.embed_passages(list(passages)), dtype=np.float32)


def similarities(vectors: NDArray[np.float32], reference: NDArray[np.float32]) -> list[float]:
    """Cosine similarities (the embedders return L2-normalised vectors)."""
    return [round(float(s), 4) for s in vectors @ reference]
