"""The scripted chat model: structured output works through bind_tools, calls are recorded, scripts end."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from pydantic import BaseModel

from nodes.shared.scripted_llm import ScriptedChatModel, ScriptExhausted


class Plan(BaseModel):
    queries: list[str]


def test_structured_output_is_scripted_as_a_tool_call() -> None:
    model = ScriptedChatModel(
        script=[AIMessage(content="", tool_calls=[{"name": "Plan", "args": {"queries": ["Urlaub"]}, "id": "1"}])]
    )
    assert model.with_structured_output(Plan).invoke("Plan?") == Plan(queries=["Urlaub"])


def test_callable_step_sees_the_prompt_and_calls_are_recorded() -> None:
    model = ScriptedChatModel(script=["erste", lambda messages: f"Echo: {messages[-1].content}"])
    assert model.invoke("a").content == "erste"
    assert model.invoke([HumanMessage("zweite Frage")]).content == "Echo: zweite Frage"
    assert [str(call[-1].content) for call in model.calls] == ["a", "zweite Frage"]


def test_reply_carries_usage_and_model_name() -> None:
    reply = ScriptedChatModel(script=["Antwort mit Inhalt"], model_name="fake-1").invoke("Frage")
    assert reply.response_metadata["model_name"] == "fake-1"
    assert reply.usage_metadata is not None and reply.usage_metadata["output_tokens"] > 0


def test_running_past_the_script_fails_loudly() -> None:
    model = ScriptedChatModel(script=["nur eine"])
    model.invoke("1")
    with pytest.raises(ScriptExhausted):
        model.invoke("2")


def test_repeat_last_serves_endless_calls() -> None:
    model = ScriptedChatModel(script=["immer"], repeat_last=True)
    assert [model.invoke(str(i)).content for i in range(3)] == ["immer"] * 3
