"""K4 node: topic corridor from keyword sets and embedding similarity to per-topic snippets.

Keywords decide when they hit (taboo first, then core over adjacent); otherwise the most similar topic
counts if it clears the threshold, else the text is out of scope.
"""

from __future__ import annotations

import time
from collections import Counter
from functools import lru_cache
from typing import Any, Literal

import numpy as np
from langgraph.runtime import Runtime

from nodes.scorecard.context import ScorecardContext
from nodes.scorecard.results import CriterionResult, Method, ReasonTemplate, Verdict
from nodes.scorecard.services import ScorecardServices
from nodes.scorecard.state import ScorecardState
from nodes.scorecard.vectors import dna_passage_vectors, similarities
from nodes.scorecard.verdicts import elapsed_ms
from nodes.shared.brand.evidence import evidence_for
from nodes.shared.brand.reasons import Reason
from nodes.shared.brand.terms import TermEntry, TermHit, TermMatcher
from stores.brand.models import Topic, TopicCorridor
from stores.text import split_sentences
from stores.vector.embedders import Embedder

Group = Literal["core", "adjacent", "taboo"]
Label = Literal["core", "adjacent", "out_of_scope", "taboo"]
LABEL_VERDICTS: dict[Label, Verdict] = {"core": "pass", "adjacent": "warn", "out_of_scope": "fail", "taboo": "fail"}
RULE_TEXT = "Der Inhalt liegt im Themenkorridor der Marke"
ADJACENT = ReasonTemplate("TOPIC-001", RULE_TEXT, "K4", "Den Bezug zu einem Kern-Thema der Marke herstellen.")
OUT_OF_SCOPE = ReasonTemplate(
    "TOPIC-002", RULE_TEXT, "K4", "Auf ein Kern-Thema der Marke ausrichten oder nicht veröffentlichen."
)
TABOO = ReasonTemplate("TOPIC-003", RULE_TEXT, "K4", "Das Tabu-Thema streichen; die Marke äußert sich dazu nicht.")


def _topics(corridor: TopicCorridor) -> list[tuple[Group, Topic]]:
    groups: tuple[tuple[Group, tuple[Topic, ...]], ...] = (
        ("core", corridor.core),
        ("adjacent", corridor.adjacent),
        ("taboo", corridor.taboo),
    )
    return [(group, topic) for group, topics in groups for topic in topics]


@lru_cache(maxsize=32)
def _keyword_matcher(corridor: TopicCorridor) -> TermMatcher:
    return TermMatcher(
        TermEntry(topic.id, keyword, inflect=" " not in keyword)
        for _, topic in _topics(corridor)
        for keyword in topic.keywords
    )


def topic_similarities(embedder: Embedder, text: str, corridor: TopicCorridor) -> dict[str, float]:
    """Similarity of the text (as query) to each topic's snippet, or its name and keywords without one."""
    topics = [topic for _, topic in _topics(corridor)]
    if not topics:
        return {}
    passages = tuple(t.snippet or f"{t.name}: {', '.join(t.keywords)}" for t in topics)
    query = np.asarray(embedder.embed_query(text), dtype=np.float32)
    scores = similarities(dna_passage_vectors(embedder, passages), query)
    return {t.id: score for t, score in zip(topics, scores, strict=True)}


def classify(
    corridor: TopicCorridor, hits: Counter[str], similarities: dict[str, float], threshold: float
) -> tuple[Label, Topic | None]:
    groups = _topics(corridor)

    def strongest(group: Group) -> tuple[int, Topic | None]:
        found = [(hits[t.id], t) for g, t in groups if g == group and hits[t.id]]
        return sum(count for count, _ in found), max(found, key=lambda c: c[0])[1] if found else None

    taboo, core, adjacent = strongest("taboo"), strongest("core"), strongest("adjacent")
    if taboo[0]:
        return "taboo", taboo[1]
    if core[0] or adjacent[0]:
        return ("core", core[1]) if core[0] >= adjacent[0] else ("adjacent", adjacent[1])
    if similarities:
        group, topic = max(groups, key=lambda gt: similarities[gt[1].id])
        if similarities[topic.id] >= threshold:
            return group, topic
    return "out_of_scope", None


def check_topics(
    state: ScorecardState, runtime: Runtime[ScorecardContext], *, services: ScorecardServices
) -> dict[str, Any]:
    ctx = runtime.context or ScorecardContext()
    started = time.perf_counter()
    text, corridor = state["text"], state["dna"].topic_corridor
    keyword_hits = _keyword_matcher(corridor).find(text)
    hits = Counter(h.key for h in keyword_hits)
    methods: list[Method] = ["rules"]
    similarities: dict[str, float] = {}
    embedder = services.embedder if ctx.use_embeddings else None
    if embedder is not None:
        methods.append("embedding")
        similarities = topic_similarities(embedder, text, corridor)
    label, topic = classify(corridor, hits, similarities, ctx.thresholds.topic_similarity)
    reasons = _reasons(text, label, topic, keyword_hits, similarities, ctx.thresholds.topic_similarity)
    result = CriterionResult(
        criterion="K4",
        verdict=LABEL_VERDICTS[label],
        methods=tuple(methods),
        reasons=tuple(reasons),
        suggestions=tuple(r.fix_suggestion for r in reasons[:1] if r.fix_suggestion),
        metrics={
            "label": label,
            "topic": None if topic is None else topic.id,
            "keyword_hits": dict(hits),
            "terms": sorted({text[h.start : h.end] for h in keyword_hits}),
            "similarities": similarities,
        },
        latency_ms=elapsed_ms(started),
    )
    return {"criteria": {"K4": result}}


def _reasons(
    text: str,
    label: Label,
    topic: Topic | None,
    keyword_hits: list[TermHit],
    similarities: dict[str, float],
    threshold: float,
) -> list[Reason]:
    if label == "core":
        return []
    if label == "taboo" and topic is not None:
        sentences = split_sentences(text)
        found = [evidence_for(text, sentences, h.start, h.end) for h in keyword_hits if h.key == topic.id]
        if not found:
            return [TABOO.reason(f"Tabu-Thema „{topic.name}“ (Embedding-Nähe {similarities[topic.id]:.2f}).")]
        return [TABOO.reason(f"Tabu-Thema „{topic.name}“: „{e.quote}“.", e) for e in found]
    if label == "adjacent" and topic is not None:
        return [ADJACENT.reason(f"Nur Nachbar-Thema „{topic.name}“, kein Kern-Thema.")]
    best = max(similarities.values(), default=None)
    measured = "" if best is None else f" (höchste Embedding-Nähe {best:.2f} < {threshold:.2f})"
    return [OUT_OF_SCOPE.reason(f"Kein Thema des Korridors erkannt{measured}.")]
