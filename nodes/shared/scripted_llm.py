"""A scripted chat model for tests and evals: answers from a script, records every call.

It stands at the LLM boundary only. ``bind_tools`` works (it returns the model), so
``with_structured_output`` can be scripted with ``AIMessage(tool_calls=[...])``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, PrivateAttr, SkipValidation

ScriptStep = AIMessage | str | Callable[[list[BaseMessage]], AIMessage | str]


class ScriptExhausted(AssertionError):
    """The graph asked the model more often than the script allows."""


class ScriptedChatModel(GenericFakeChatModel):
    """Returns the next scripted step per call; a callable step sees the prompt and builds the reply."""

    messages: Iterator[AIMessage | str] = Field(default_factory=lambda: iter(()))
    script: SkipValidation[list[ScriptStep]] = Field(default_factory=list)
    model_name: str = "scripted"
    repeat_last: bool = False
    _calls: list[list[BaseMessage]] = PrivateAttr(default_factory=list)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)  # parallel calls take distinct steps

    @property
    def calls(self) -> list[list[BaseMessage]]:
        return self._calls

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        with self._lock:
            index = len(self._calls)
            self._calls.append(list(messages))
        if index >= len(self.script):
            if not (self.repeat_last and self.script):
                raise ScriptExhausted(f"call {index + 1} but the script has {len(self.script)} steps")
            index = len(self.script) - 1
        step = self.script[index]
        reply = step(messages) if callable(step) else step
        message = reply if isinstance(reply, AIMessage) else AIMessage(content=reply)
        if message.usage_metadata is None:
            prompt_chars = sum(len(str(m.content)) for m in messages)
            message.usage_metadata = {
                "input_tokens": prompt_chars // 4,
                "output_tokens": len(str(message.content)) // 4,
                "total_tokens": (prompt_chars + len(str(message.content))) // 4,
            }
        message.response_metadata = {"model_name": self.model_name, "done_reason": "stop"} | dict(
            message.response_metadata
        )
        return ChatResult(generations=[ChatGeneration(message=message)])
