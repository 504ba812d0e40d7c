"""Structured answers from a chat model, with exactly one retry when the answer breaks the schema.

Mistral (and the scripted test model) answer through a forced tool call (function calling, tool_choice
"any" with one tool); Ollama cannot force a tool, so it gets the JSON schema as its output format.
Either way the answer is validated client-side against the pydantic model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_ollama import ChatOllama
from pydantic import BaseModel

from nodes.scan.prompts import SCHEMA_RETRY
from nodes.shared.llm import provider_errors

Answer = TypeVar("Answer", bound=BaseModel)
MAX_ATTEMPTS = 2
_PROBLEM_CHARS = 600


@dataclass(frozen=True)
class StructuredResult(Generic[Answer]):
    answer: Answer | None
    calls: int
    problem: str | None


def ask_structured(
    model: BaseChatModel, schema: type[Answer], messages: list[BaseMessage], *, provider: str
) -> StructuredResult[Answer]:
    """The parsed answer, or None with the last problem after two schema violations."""
    method = "json_schema" if isinstance(model, ChatOllama) else "function_calling"
    runnable = model.with_structured_output(schema, method=method, include_raw=True)
    conversation = list(messages)
    problem = ""
    for attempt in range(1, MAX_ATTEMPTS + 1):
        with provider_errors(provider):
            result = cast(dict[str, Any], runnable.invoke(conversation))  # include_raw=True: a dict
        parsed = result["parsed"]
        if isinstance(parsed, schema) and result["parsing_error"] is None:
            return StructuredResult(answer=parsed, calls=attempt, problem=None)
        error = result["parsing_error"]
        problem = (str(error) if error is not None else "keine Antwort über das Werkzeug")[:_PROBLEM_CHARS]
        conversation = [*messages, HumanMessage(SCHEMA_RETRY.format(problem=problem))]
    return StructuredResult(answer=None, calls=MAX_ATTEMPTS, problem=problem)
