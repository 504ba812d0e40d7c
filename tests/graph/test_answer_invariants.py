"""Property test: whatever the model writes, no delivered answer carries an invalid citation,
an uncited factual statement or a number its cited blocks do not contain.

The adversarial writer and the invariants are shared with the ``invariants`` eval suite, which runs
10,000 outputs on the demo KB; here hypothesis explores 1,000 runs (about 2,000 outputs) on the test KB.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evals.adversarial import AdversarialWriter, invariant_breaches
from evals.answering import MemoisedKnowledgeBase
from graphs.answer import build_answer_graph
from nodes.answer.blocks import evidence_text
from nodes.answer.context import AnswerContext
from nodes.answer.services import StaticServices
from tests.graph.answer_fixtures import KB_ID

QUESTIONS = [
    "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?",
    "Ist die Mitarbeiterprämie 2026 sozialversicherungspflichtig?",
    "Welche Arten von Urlaub gibt es?",
    "Wie hoch ist der Zuschuss zur Entgeltumwandlung?",
    "Wann wird das Gehalt gezahlt und welche Zahltage weichen ab?",
]


@lru_cache(maxsize=1)
def answer_graph(services: StaticServices) -> Any:
    return build_answer_graph(services).compile()


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(
    question=st.sampled_from(QUESTIONS),
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    level=st.sampled_from([1, 2, 3, 4, 5]),
)
def test_no_delivered_answer_breaks_the_citation_invariants(
    graph_services: StaticServices, question: str, seed: int, level: int
) -> None:
    writer = AdversarialWriter(seed)
    graph_services.model = writer.model()
    out: dict[str, Any] = answer_graph(graph_services).invoke(
        {"question": question}, context=AnswerContext(kb_id=KB_ID, strictness=level)
    )
    assert isinstance(graph_services.knowledge_base, MemoisedKnowledgeBase)
    context = {h.entry_id: evidence_text(h) for h in graph_services.knowledge_base.last_hits}
    assert invariant_breaches(out, context) == []
