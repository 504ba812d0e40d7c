"""ChatOllama with the two penalties Ollama accepts in ``options`` but langchain-ollama has no field for.

There is no public route: an ``options=`` argument replaces the whole field-built dict (temperature,
num_ctx, seed …), and a ``.bind(options=…)`` is lost again by ``bind_tools``. So the private
``ChatOllama._chat_params`` is extended here, in this one module; langchain-ollama is pinned in
pyproject.toml (``LANGCHAIN_OLLAMA_VERSIONS``) and tests/unit/test_private_api.py fails when an upgrade
changes the method.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import BaseMessage
from langchain_ollama import ChatOllama

LANGCHAIN_OLLAMA_VERSIONS = ">=1.1.0,<1.2"  # the range in pyproject.toml that this module was checked against


class ChatOllamaWithPenalties(ChatOllama):
    frequency_penalty: float | None = None
    presence_penalty: float | None = None

    def _chat_params(self, messages: list[BaseMessage], stop: list[str] | None = None, **kwargs: Any) -> dict[str, Any]:
        params = super()._chat_params(messages, stop, **kwargs)
        options = dict(params.get("options") or {})
        for name in ("frequency_penalty", "presence_penalty"):
            value = getattr(self, name)
            if value is not None:
                options.setdefault(name, value)
        params["options"] = options
        return params
