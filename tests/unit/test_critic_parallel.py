"""The answer critic checks the claims that need a model in one parallel round (real ChatOllama, loopback fake)."""

from __future__ import annotations

import json

from langchain_core.language_models import BaseChatModel

from nodes.answer.critique import ask_critic_parallel
from nodes.settings import ModelSettings
from nodes.shared.llm import create_chat_model
from nodes.shared.strictness import get_strictness_config
from stores.kb.models import Hit
from tests.fakes.llm_server import FakeLLMServer, Reply, running_fake_llm_server

CLAIMS: list[tuple[str, list[Hit]]] = [(f"Regel {n} gilt ab 2026 [hr-reg-0{n}].", []) for n in range(1, 6)]


def _check(verdict: str) -> str:
    return json.dumps({"verdict": verdict, "confidence": 0.8, "reason": "geprüft"})


def _ollama(server: FakeLLMServer) -> BaseChatModel:
    model = create_chat_model("ollama", get_strictness_config(3), ModelSettings(ollama_base_url=server.base_url))
    assert model is not None
    return model


def test_five_claims_are_sent_at_once_and_come_back_in_order() -> None:
    """Each reply waits until all five requests are open: sequential calls would never get there."""
    verdicts = ["supported", "partially", "unsupported", "supported", "partially"]
    with running_fake_llm_server() as server:
        server.queue("/api/chat", *(Reply(content=_check(v), hold_until_in_flight=5) for v in verdicts))
        results = ask_critic_parallel(CLAIMS, _ollama(server), "ollama")
    assert server.max_in_flight == 5
    assert len(server.bodies("/api/chat")) == 5
    claims_sent = sorted(body["messages"][-1]["content"] for body in server.bodies("/api/chat"))
    assert all(any(claim in sent for sent in claims_sent) for claim, _ in CLAIMS)
    # replies are taken in arrival order, so only the multiset of verdicts is fixed; each claim keeps its slot
    assert sorted(verdict.verdict for verdict, _ in results) == sorted(verdicts)
    assert [verdict.claim for verdict, _ in results] == [claim for claim, _ in CLAIMS]
    assert all(verdict.method == "llm" and usage is not None for verdict, usage in results)


def test_a_failed_call_leaves_only_its_claim_unconfirmed() -> None:
    with running_fake_llm_server() as server:
        server.queue("/api/chat", Reply(status=500), *(Reply(content=_check("supported")) for _ in range(4)))
        results = ask_critic_parallel(CLAIMS, _ollama(server), "ollama")
    assert sorted(verdict.verdict for verdict, _ in results) == ["supported"] * 4 + ["unconfirmed"]


def test_without_a_model_every_claim_is_unconfirmed() -> None:
    results = ask_critic_parallel(CLAIMS, None, "extractive")
    assert [(verdict.verdict, usage) for verdict, usage in results] == [("unconfirmed", None)] * 5
