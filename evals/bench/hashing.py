"""A deterministic hashing embedder: store-cost benchmarks and fast tests measure the engine, not a model."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

_WORD = re.compile(r"\w+")


class HashEmbedder:
    """Bag of hashed lower-case words (signed), L2-normalised: similar wording gives a high cosine."""

    name = "hash"

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)

    def _vector(self, text: str) -> list[float]:
        vector = np.zeros(self.dim, dtype=np.float32)
        for word in _WORD.findall(text.lower()):
            digest = int.from_bytes(hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest(), "little")
            vector[digest % self.dim] += 1.0 if digest >> 63 else -1.0
        norm = float(np.linalg.norm(vector))
        values: list[float] = (vector / norm if norm else vector).tolist()
        return values
