"""The answer graph as Studio and the real providers see it (its edges: tests/graph/test_topology.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
import typer
from langchain_core.language_models import BaseChatModel

from graphs.answer import build_answer_graph
from graphs.cli.ask import ask_with_review
from nodes.answer.context import AnswerContext
from nodes.answer.services import StaticServices
from nodes.settings import ModelSettings, ProviderName
from nodes.shared.llm import create_chat_model
from nodes.shared.scripted_llm import ScriptedChatModel
from nodes.shared.strictness import StrictnessConfig, get_strictness_config
from tests.fakes.llm_server import Reply, running_fake_llm_server
from tests.graph.answer_fixtures import KB_ID, tool_call

EXPECTED_EDGES = {
    ("screen_input", "plan_queries"),
    ("screen_input", "finalize_answer"),
    ("assess_retrieval", "trim_context"),
    ("assess_retrieval", "finalize_answer"),
    ("trim_context", "assess_answerability"),
    ("assess_answerability", "summarize_blocks"),
    ("assess_answerability", "draft_answer"),
    ("assess_answerability", "finalize_answer"),
    ("validate_answer", "critique_answer"),
    ("validate_answer", "regenerate_answer"),
    ("validate_answer", "withhold_answer"),
    ("regenerate_answer", "validate_answer"),
    ("critique_answer", "review_answer"),
    ("critique_answer", "finalize_answer"),
}


def test_studio_draws_every_route(services: StaticServices) -> None:
    drawn = build_answer_graph(services).compile().get_graph()
    edges = {(e.source, e.target) for e in drawn.edges}
    assert EXPECTED_EDGES <= edges
    assert "regenerate_answer" in drawn.draw_mermaid()


def test_context_schema_names_the_strictness_levels(services: StaticServices) -> None:
    schema = build_answer_graph(services).compile().get_context_jsonschema()
    assert schema is not None
    strictness = schema["properties"]["strictness"]
    assert "kb_only" in strictness["description"] and "creative" in strictness["description"]


@dataclass(eq=False)
class OllamaServices(StaticServices):
    settings: ModelSettings | None = None

    def model_name(self, provider: ProviderName) -> str:
        assert self.settings is not None
        return self.settings.model_for(provider)

    def chat_model(
        self, provider: ProviderName, strictness: StrictnessConfig, *, model: str | None, max_tokens: int | None = None
    ) -> BaseChatModel | None:
        assert self.settings is not None
        return create_chat_model(provider, strictness, self.settings, model=model, max_tokens=max_tokens)


def test_real_chat_ollama_client_sends_the_level_parameters(services: StaticServices) -> None:
    answer = (
        "Vollzeitbeschäftigte erhalten 30 Arbeitstage Erholungsurlaub pro Kalenderjahr (Stand 2026-01) [lb-url-01]."
    )
    with running_fake_llm_server() as server:
        server.queue("/api/chat", Reply(content=answer))
        ollama = OllamaServices(
            services.knowledge_base,
            services.bots,
            services.answer_records,
            settings=ModelSettings(ollama_base_url=server.base_url, ollama_model="qwen3:8b", ollama_num_ctx=4096),
        )
        out = (
            build_answer_graph(ollama)
            .compile()
            .invoke(
                {"question": "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?"},
                context=AnswerContext(kb_id=KB_ID, strictness=2),
            )
        )
        (request,) = server.bodies("/api/chat")
    level = get_strictness_config(2)
    assert request["model"] == "qwen3:8b"
    assert request["options"] == {
        "temperature": level.temperature,
        "top_p": level.top_p,
        "num_predict": level.max_tokens,
        "num_ctx": 4096,
        "frequency_penalty": level.frequency_penalty,
        "presence_penalty": level.presence_penalty,
    }
    assert request["messages"][0]["role"] == "system" and "[lb-url-01]" in request["messages"][1]["content"]
    assert out["bucket"] == "delivered" and out["citations"] == ["lb-url-01"]
    assert out["token_usage"]["draft_answer"]["input_tokens"] == 11


@pytest.mark.parametrize(("action", "bucket"), [("approve", "delivered"), ("reject", "refused")])
def test_cli_review_pauses_and_resumes_with_a_sqlite_checkpointer(
    services: StaticServices, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, action: str, bucket: str
) -> None:
    weak = "Vollzeitbeschäftigte können ungenutzten Erholungsurlaub komplett auszahlen lassen [lb-url-01]."
    critic = tool_call("ClaimCheck", verdict="partially", confidence=0.4, reason="unklar")
    services.model = ScriptedChatModel(script=[weak, critic])
    monkeypatch.setattr(typer, "prompt", lambda *args, **kwargs: action)
    context = AnswerContext(kb_id=KB_ID, review="interrupt")
    out = ask_with_review(services, "Kann ich Urlaub auszahlen lassen?", context, tmp_path / "cp.sqlite")
    assert out["bucket"] == bucket and "__interrupt__" not in out
