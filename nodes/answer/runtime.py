"""Small helpers every answer node uses: the run's context and the LLM calls with usage accounting."""

from __future__ import annotations

from langchain_core.messages import AIMessage, BaseMessage
from langgraph.runtime import Runtime

from nodes.answer.context import AnswerContext
from nodes.answer.services import AnswerServices
from nodes.answer.state import NodeUsage, ResolvedPolicy
from nodes.shared.llm import finish_reason, provider_errors
from nodes.shared.text import strip_think


def context_of(runtime: Runtime[AnswerContext]) -> AnswerContext:
    """The run's context; LangGraph passes None when the caller gave none."""
    return runtime.context or AnswerContext()


def usage_of(message: AIMessage) -> NodeUsage:
    usage = message.usage_metadata or {"input_tokens": 0, "output_tokens": 0}
    return NodeUsage(calls=1, input_tokens=usage["input_tokens"], output_tokens=usage["output_tokens"])


def add_usage(total: NodeUsage | None, more: NodeUsage) -> NodeUsage:
    if total is None:
        return more
    return NodeUsage(
        calls=total["calls"] + more["calls"],
        input_tokens=total["input_tokens"] + more["input_tokens"],
        output_tokens=total["output_tokens"] + more["output_tokens"],
    )


def generate_text(
    services: AnswerServices, policy: ResolvedPolicy, messages: list[BaseMessage]
) -> tuple[str, NodeUsage]:
    """One answer-length generation; a reply cut off at the token limit is retried once with double budget."""
    model = services.chat_model(policy.provider, policy.strictness, model=policy.model)
    if model is None:
        raise RuntimeError("generate_text needs a chat model; the extractive provider has none")
    with provider_errors(policy.provider):
        reply = model.invoke(messages)
    usage = usage_of(reply)
    if finish_reason(reply.response_metadata) == "length":
        longer = services.chat_model(
            policy.provider, policy.strictness, model=policy.model, max_tokens=2 * policy.strictness.max_tokens
        )
        assert longer is not None
        with provider_errors(policy.provider):
            reply = longer.invoke(messages)
        usage = add_usage(usage, usage_of(reply))
    assert isinstance(reply, AIMessage)
    return strip_think(str(reply.content)), usage
