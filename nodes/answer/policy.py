"""resolve_policy: bot → KB, strictness level, model and the bot's own sentences."""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime

from nodes.answer.context import AnswerContext
from nodes.answer.prompts import NO_BRAND_RULES, NO_KB_CHOSEN, UNKNOWN_BOT
from nodes.answer.runtime import context_of
from nodes.answer.services import AnswerServices
from nodes.answer.state import AnswerState, ResolvedPolicy, StrictnessRecord
from nodes.shared.strictness import get_strictness_config
from nodes.shared.voice import BotVoice
from stores.sql.bots import Bot, BotNotFound

# A thread keeps its state between runs: the previous run's outcome must not decide this one's path.
FRESH_OUTCOME: dict[str, Any] = {"error": None, "provider_failure": None, "bucket": None, "refused": False}


def resolve_policy(state: AnswerState, runtime: Runtime[AnswerContext], *, services: AnswerServices) -> dict[str, Any]:
    """The context's strictness wins over the bot's; a missing bot or KB becomes an error output."""
    started_at = time.time()  # wall clock: a run resumed in another worker measures from the same origin
    ctx = context_of(runtime)
    bot: Bot | None = None
    if ctx.bot_id is not None:
        try:
            bot = services.bots.get(ctx.bot_id)
        except BotNotFound:
            return {"started_at": started_at, "error": UNKNOWN_BOT.format(bot_id=ctx.bot_id)}
    kb_id = ctx.kb_id or (bot.kb_id if bot else None)
    if kb_id is None:
        return {"started_at": started_at, "error": NO_KB_CHOSEN}
    strictness = get_strictness_config(
        ctx.strictness if ctx.strictness is not None else getattr(bot, "knowledge_strictness", None)
    )
    guardrails = None
    if ctx.brand_id is not None:
        if services.brands is None:
            return {"started_at": started_at, "error": NO_BRAND_RULES}
        try:
            guardrails = services.brands.get(ctx.brand_id, ctx.brand_dna_version).guardrails
        except LookupError as exc:
            return {"started_at": started_at, "error": str(exc)}
    provider = ctx.provider or services.default_provider
    voice = BotVoice(voice=bot.voice, contact=bot.contact) if bot else BotVoice()
    policy = ResolvedPolicy(
        bot_id=bot.id if bot else None,
        kb_id=kb_id,
        strictness=strictness,
        provider=provider,
        model=ctx.model or services.model_name(provider),
        refusal_message=(bot.refusal_message if bot else None) or voice.refusal,
        disclaimer_message=(bot.disclaimer_message if bot else None) or voice.disclaimer,
        uncertain_message=ctx.uncertain_message,
        brand_guardrails=guardrails,
        voice=voice,
    )
    return {
        **{key: value for key, value in FRESH_OUTCOME.items() if key in state},
        "started_at": started_at,
        "policy": policy,
        "model": policy.model,
        "strictness": StrictnessRecord(level=strictness.level, key=strictness.key, name=strictness.name),
        "regenerations": 0,
    }
