"""The answer graph, edge by edge: scripted models at the LLM boundary, real Qdrant and SQLite behind it."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from evals.answering import MemoisedKnowledgeBase
from graphs.answer import build_answer_graph
from nodes.answer.context import AnswerContext
from nodes.answer.services import StaticServices
from nodes.shared.llm import ProviderTimeout
from nodes.shared.scripted_llm import ScriptedChatModel, ScriptStep
from nodes.shared.strictness import DEFAULT_DISCLAIMER_MESSAGE, DEFAULT_REFUSAL_MESSAGE, get_strictness_config
from nodes.shared.voice import DEFAULT_VOICE
from stores.brand.importer import load_dna_file
from stores.brand.store import BrandStore
from stores.kb.store import KnowledgeBase
from stores.sql.answers import AnswerRecordStore
from stores.sql.bots import BotStore
from stores.sql.engine import Database
from tests.graph.answer_fixtures import KB_ID, WEAK_CLAIM, length_cut, tool_call

UNCERTAIN = AnswerContext().uncertain_message
REPO = Path(__file__).resolve().parents[2]
URLAUB_ANSWER = (
    "Vollzeitbeschäftigte erhalten 30 Arbeitstage Erholungsurlaub pro Kalenderjahr (Stand 2026-01) [lb-url-01]."
)


class Run:
    """One graph run: its final state, the nodes it passed, and the scripted model it used."""

    def __init__(self, services: StaticServices, question: str, script: list[ScriptStep], **context: Any) -> None:
        self.model = ScriptedChatModel(script=script)
        services.model = self.model
        self.graph = build_answer_graph(services).compile(checkpointer=InMemorySaver())
        self.config: RunnableConfig = {"configurable": {"thread_id": uuid.uuid4().hex}}
        self.context = AnswerContext(**({"kb_id": KB_ID} | context))
        self.path: list[str] = []
        self._stream({"question": question})

    def _stream(self, payload: Any) -> None:
        for update in self.graph.stream(payload, self.config, context=self.context, stream_mode="updates"):
            self.path.extend(update)

    def resume(self, decision: Any) -> None:
        self._stream(Command(resume=decision))

    @property
    def state(self) -> dict[str, Any]:
        return dict(self.graph.get_state(self.config).values)

    @property
    def llm_calls(self) -> int:
        return len(self.model.calls)


def test_simple_question_needs_one_llm_call_and_is_delivered(services: StaticServices) -> None:
    run = Run(services, "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?", [URLAUB_ANSWER])
    out = run.state
    assert run.llm_calls == 1 and "plan_queries" in run.path
    assert out["bucket"] == "delivered" and out["verified"] and not out["refused"]
    assert out["citations"] == ["lb-url-01"]
    assert out["sources"][0].stand == "2026-01"
    assert out["confidence"] >= AnswerContext().confidence_threshold
    assert out["token_usage"]["draft_answer"]["calls"] == 1
    assert out["strictness"].key == "balanced" and out["model"] == "scripted"


def test_complex_question_goes_through_the_planner(services: StaticServices) -> None:
    plan = tool_call(
        "QueryPlan", question_type="specific", queries=[{"text": "Urlaubstage Vollzeit"}, {"text": "Zahltag Gehalt"}]
    )
    answer = URLAUB_ANSWER + " Das Gehalt wird am letzten Bankarbeitstag des Monats überwiesen [lb-geh-01]."
    # the threshold at 0: this is about planning (the calibrated confidence of the paraphrase is its own test)
    question = "Wie viele Urlaubstage habe ich und wann wird das Gehalt gezahlt?"
    run = Run(services, question, [plan, answer], confidence_threshold=0.0)
    out = run.state
    assert run.llm_calls == 2
    assert [q.text for q in out["planned_queries"]][1:] == ["Urlaubstage Vollzeit", "Zahltag Gehalt"]
    assert set(out["citations"]) == {"lb-url-01", "lb-geh-01"}
    assert out["bucket"] == "delivered"


def test_planner_failure_falls_back_to_the_question(services: StaticServices) -> None:
    run = Run(
        services,
        "Wie viele Urlaubstage habe ich und wann wird das Gehalt gezahlt?",
        [AIMessage(content="kein Plan"), URLAUB_ANSWER],
        confidence_threshold=0.0,  # half the question answered: the calibrated confidence would hold it back
    )
    out = run.state
    assert [q.text for q in out["planned_queries"]] == [
        "Wie viele Urlaubstage habe ich und wann wird das Gehalt gezahlt?"
    ]
    assert out["bucket"] == "delivered"


def _map_reply(messages: list[Any]) -> str:
    """A map worker that distils every block it was shown (and tries one foreign citation)."""
    prompt = str(messages[-1].content)
    ids = [line.split("[", 1)[1].split("]", 1)[0] for line in prompt.splitlines() if line.startswith("Block ")]
    return "\n".join([f"- Regelung zu diesem Urlaub [{i}]" for i in ids] + ["- Erfunden [lb-xyz-99]"])


def test_survey_question_maps_blocks_and_keeps_citations(services: StaticServices) -> None:
    plan = tool_call("QueryPlan", question_type="survey", queries=[{"text": "Urlaubsarten"}])

    def synthesize(messages: list[Any]) -> str:
        prompt = str(messages[-1].content)
        assert "[lb-xyz-99]" not in prompt  # bullets citing outside their group never reach the reduce step
        return (
            "Es gibt Erholungsurlaub mit 30 Arbeitstagen pro Kalenderjahr [lb-url-01], "
            "Sonderurlaub von 2 Tagen für die eigene Hochzeit [lb-url-02] und "
            "5 Tage Bildungsurlaub pro Kalenderjahr [lb-url-03]."
        )

    groups = -(-len(_survey_hits(services)) // 3)
    # the threshold at 0: this is about map-reduce, not about the confidence of a survey answer
    question = "Welche Arten von Urlaub gibt es?"
    run = Run(services, question, [plan, *[_map_reply] * groups, synthesize], confidence_threshold=0.0)
    out = run.state
    assert "summarize_blocks" in run.path
    assert out["token_usage"]["summarize_blocks"]["calls"] == groups
    assert {n.entry_id for n in out["notes"]} == {h.entry_id for h in out["context_blocks"]}
    assert set(out["citations"]) == {"lb-url-01", "lb-url-02", "lb-url-03"}
    assert out["bucket"] == "delivered" and out["verified"]


def test_a_survey_whose_provider_is_down_ends_in_the_refusal_with_its_code(services: StaticServices) -> None:
    plan = tool_call("QueryPlan", question_type="survey", queries=[{"text": "Urlaubsarten"}])
    groups = -(-len(_survey_hits(services)) // 3)
    run = Run(services, "Welche Arten von Urlaub gibt es?", [plan, *[_provider_timeout] * (3 * groups + 3)])
    out = run.state
    assert run.llm_calls == 1 + 3 * groups + 3  # every map call and the draft ran their retries first
    assert out["notes"] == [] and out["bucket"] == "refused" and out["error"] == "provider_timeout"
    assert out["answer"] == UNCERTAIN and out["citations"] == []


def test_a_survey_group_whose_map_call_fails_leaves_the_others_notes(services: StaticServices) -> None:
    plan = tool_call("QueryPlan", question_type="survey", queries=[{"text": "Urlaubsarten"}])
    groups = -(-len(_survey_hits(services)) // 3)
    assert groups >= 2
    failing = _survey_hits(services)[0].entry_id

    def map_unless_failing(messages: list[Any]) -> str:  # the map calls run in parallel: fail by content
        return _provider_timeout(messages) if f"[{failing}]" in str(messages[-1].content) else _map_reply(messages)

    synthesis = "Es gibt Erholungsurlaub mit 30 Arbeitstagen pro Kalenderjahr [lb-url-01]."
    replies: list[ScriptStep] = [plan, *[map_unless_failing] * (groups + 2), synthesis]
    # about the failed group; the survey's calibrated confidence would hold the answer for review
    out = Run(services, "Welche Arten von Urlaub gibt es?", replies, confidence_threshold=0.0).state
    noted = {n.entry_id for n in out["notes"]}
    assert noted and failing not in noted and out.get("error") is None and out["bucket"] == "delivered"


def _survey_hits(services: StaticServices) -> list[Any]:
    ctx = AnswerContext(kb_id=KB_ID)
    hits: list[Any] = services.knowledge_base.search(
        KB_ID, ["Welche Arten von Urlaub gibt es?", "Urlaubsarten"], limit=ctx.survey_retrieval_limit
    )
    return hits


def test_invalid_citation_is_regenerated_once_then_valid(services: StaticServices) -> None:
    run = Run(
        services,
        "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?",
        ["Es gibt 30 Arbeitstage Erholungsurlaub [lb-url-77].", URLAUB_ANSWER],
    )
    out = run.state
    assert run.path.count("regenerate_answer") == 1 and out["regenerations"] == 1
    feedback = str(run.model.calls[1][-1].content)
    assert "lb-url-77" in feedback and "[lb-url-01]" in feedback
    assert out["verified"] and out["citations"] == ["lb-url-01"] and out["bucket"] == "delivered"


def test_invalid_twice_gives_the_uncertain_refusal(services: StaticServices) -> None:
    bad = "Vollzeitkräfte erhalten 30 Arbeitstage [lb-url-77]."
    worse = "Vollzeitkräfte erhalten 45 Arbeitstage Urlaub im Jahr [lb-url-01]."
    run = Run(services, "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?", [bad, worse])
    out = run.state
    assert out["answer"] == UNCERTAIN and out["refused"] and out["verified"] is False
    assert out["draft"] == worse
    assert any("45" in v for v in out["violations"])
    assert run.llm_calls == 2 and "critique_answer" not in run.path


def test_empty_retrieval_refuses_without_llm_call(sparse_kb: tuple[Database, KnowledgeBase]) -> None:
    database, kb = sparse_kb
    services = StaticServices(MemoisedKnowledgeBase(kb), BotStore(database), AnswerRecordStore(database))
    run = Run(services, "Xylophon Quasar Zeppelin?", [])
    out = run.state
    assert out["hits"] == [] and run.llm_calls == 0
    assert out["refused"] and out["answer"] == DEFAULT_REFUSAL_MESSAGE and out["bucket"] == "refused"


OFF_TOPIC = "Welche Farbe hat das Logo der Fußballmannschaft aus Bremen?"
PARTLY_COVERED = "Wie viele Tage Homeoffice gibt es für Auszubildende?"  # Auszubildende: not in the KB


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_uncovered_question_is_refused_at_every_level_without_llm_call(services: StaticServices, level: int) -> None:
    run = Run(services, OFF_TOPIC, [], strictness=level)
    out = run.state
    assert run.llm_calls == 0 and out["refused"] and out["answer"] == DEFAULT_REFUSAL_MESSAGE
    assert out["answer_features"].outcome == "unanswerable" and out["answer_features"].key_coverage == 0.0


@pytest.mark.parametrize(
    ("level", "refused", "notice"),
    [
        (1, True, None),
        (2, False, DEFAULT_DISCLAIMER_MESSAGE),
        (4, False, DEFAULT_VOICE.soft_hint),
        (5, False, None),
    ],
)
def test_partial_coverage_follows_the_levels_low_score_action(
    services: StaticServices, level: int, refused: bool, notice: str | None
) -> None:
    reply = "Beschäftigte dürfen bis zu 3 Tage pro Woche im Homeoffice arbeiten [lb-hom-01]."
    # the threshold at 0 shows the level's notice; at the default a partial answer may go to review (test below)
    run = Run(services, PARTLY_COVERED, [] if refused else [reply], strictness=level, confidence_threshold=0.0)
    out = run.state
    features = out["answer_features"]
    assert features.outcome == "partial" and 0.6 <= features.key_coverage < 0.8
    assert run.llm_calls == (0 if refused else 1) and out["refused"] is refused
    if refused:
        assert out["answer"] == DEFAULT_REFUSAL_MESSAGE
    if notice:
        assert out["answer"].endswith(notice) and out["notices"] == [notice]
    else:
        assert not out.get("notices")


def test_unsupported_number_is_a_violation(services: StaticServices) -> None:
    run = Run(
        services,
        "Wie hoch ist die Verpflegungspauschale?",
        [
            "Die Verpflegungspauschale beträgt 32 Euro bei 24 Stunden Abwesenheit [lb-rei-01].",
            "Die Verpflegungspauschale beträgt 28 Euro bei 24 Stunden Abwesenheit (Stand 2026-01) [lb-rei-01].",
        ],
        confidence_threshold=0.0,  # about the violation; without dense similarity its confidence is below 0.70
    )
    out = run.state
    assert out["regenerations"] == 1
    assert "32" in str(run.model.calls[1][-1].content)
    assert out["bucket"] == "delivered" and "28 Euro" in out["answer"]


PRAEMIE = "Ist die Mitarbeiterprämie 2026 sozialversicherungspflichtig?"
CONFLICT_ANSWER = (
    "⚠ Die Quellen widersprechen sich: [lb-pra-02] nennt die Mitarbeiterprämie 2026 bis 3.000 Euro beitragsfrei, "
    "[wk-pra-01] nennt sie sozialversicherungspflichtig. Hinweis: [wk-pra-01] stammt aus einem nicht amtlichen Werk."
)


def test_declared_conflict_must_be_shown_with_both_ids(services: StaticServices) -> None:
    one_sided = "Die Mitarbeiterprämie 2026 bis 3.000 Euro ist beitragsfrei in der Sozialversicherung [lb-pra-02]."
    run = Run(services, PRAEMIE, [one_sided, CONFLICT_ANSWER])
    out = run.state
    assert {"lb-pra-02", "wk-pra-01"} <= {h.entry_id for h in out["context_blocks"]}
    assert "Quellenkonflikt" in str(run.model.calls[1][-1].content)
    assert out["bucket"] == "delivered" and set(out["citations"]) == {"lb-pra-02", "wk-pra-01"}


def test_conflict_resolved_in_favour_of_one_side_is_rejected(services: StaticServices) -> None:
    partial_ = CONFLICT_ANSWER + " Maßgeblich ist [lb-pra-02]."
    run = Run(services, PRAEMIE, [partial_, partial_])
    out = run.state
    assert out["answer"] == UNCERTAIN and any("zugunsten" in v for v in out["violations"])


def test_non_official_work_must_be_named(services: StaticServices) -> None:
    silent = CONFLICT_ANSWER.replace(" Hinweis: [wk-pra-01] stammt aus einem nicht amtlichen Werk.", "")
    run = Run(services, PRAEMIE, [silent, CONFLICT_ANSWER])
    assert "nicht amtlich" in str(run.model.calls[1][-1].content).casefold() or "Nicht amtliche" in str(
        run.model.calls[1][-1].content
    )
    assert run.state["bucket"] == "delivered"


def test_length_cut_answer_is_retried_with_double_budget(services: StaticServices) -> None:
    run = Run(
        services,
        "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?",
        [length_cut("Vollzeitbeschäftigte erhalten"), URLAUB_ANSWER],
    )
    out = run.state
    assert services.requested_budgets[-1] == 2 * get_strictness_config(3).max_tokens
    assert out["answer"] == URLAUB_ANSWER and out["regenerations"] == 0
    assert out["token_usage"]["draft_answer"]["calls"] == 2


def test_think_blocks_are_stripped(services: StaticServices) -> None:
    run = Run(
        services,
        "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?",
        [f"<think>Ich erfinde lieber nichts.</think>{URLAUB_ANSWER}"],
    )
    assert run.state["answer"] == URLAUB_ANSWER


def test_critic_downgrade_sends_answer_to_human_review(services: StaticServices) -> None:
    critic = tool_call("ClaimCheck", verdict="partially", confidence=0.4, reason="Auszahlung steht nicht im Block.")
    run = Run(services, "Kann ich Urlaub auszahlen lassen?", [WEAK_CLAIM, critic])
    out = run.state
    assert out["claims"][0].method == "llm" and out["confidence"] < 0.7
    assert out["bucket"] == "human_review" and out["answer"] == UNCERTAIN and out["draft"] == WEAK_CLAIM


def test_unsupported_claim_is_removed(services: StaticServices) -> None:
    critic = tool_call("ClaimCheck", verdict="unsupported", confidence=0.9, reason="Nicht belegt.")
    run = Run(
        services,
        "Wie viele Urlaubstage habe ich, und kann ich sie auszahlen lassen?",
        [
            tool_call("QueryPlan", question_type="specific", queries=[{"text": "Urlaub"}]),
            URLAUB_ANSWER + "\n" + WEAK_CLAIM,
            critic,
        ],
        confidence_threshold=0.0,  # about the removal; half of the question stays unanswered, so it would go to review
    )
    out = run.state
    assert [c.verdict for c in out["claims"]] == ["supported", "unsupported"]
    assert out["answer"] == URLAUB_ANSWER and out["draft"].endswith(WEAK_CLAIM)
    assert 0.0 < out["confidence"] < AnswerContext().confidence_threshold and out["bucket"] == "delivered"


@pytest.mark.parametrize(
    ("response", "bucket"),
    [
        ({"type": "accept", "args": None}, "delivered"),
        ({"type": "ignore", "args": None}, "refused"),
        ({"type": "response", "args": "Auszahlung ist nicht belegt."}, "refused"),
    ],
)
def test_reviewer_decides_through_interrupt(services: StaticServices, response: dict[str, Any], bucket: str) -> None:
    critic = tool_call("ClaimCheck", verdict="partially", confidence=0.4, reason="unklar")
    run = Run(services, "Kann ich Urlaub auszahlen lassen?", [WEAK_CLAIM, critic], review="interrupt")
    assert run.graph.get_state(run.config).next == ("review_answer",)
    run.resume([response])
    out = run.state
    assert out["bucket"] == bucket
    assert out["answer"] == (WEAK_CLAIM if bucket == "delivered" else UNCERTAIN)


def test_review_request_has_the_human_interrupt_shape(services: StaticServices) -> None:
    critic = tool_call("ClaimCheck", verdict="partially", confidence=0.4, reason="Auszahlung steht nicht im Block.")
    run = Run(services, "Kann ich Urlaub auszahlen lassen?", [WEAK_CLAIM, critic], review="interrupt")
    (pending,) = run.graph.get_state(run.config).interrupts
    (request,) = pending.value
    assert set(request) == {"action_request", "config", "description"}
    assert request["config"] == {"allow_ignore": True, "allow_respond": True, "allow_edit": True, "allow_accept": True}
    assert request["action_request"]["args"]["answer"] == WEAK_CLAIM
    description = request["description"]
    for part in (
        "### Frage",
        "Kann ich Urlaub auszahlen lassen?",
        "### Entwurf",
        "### Aussagen und Belege",
        "[lb-url-01]",
        "Auszahlung steht nicht im Block.",
        "### Grund der Prüfung",
        "unter der Schwelle 0.70",
    ):
        assert part in description, part


def test_reviewer_edit_must_still_pass_validation(services: StaticServices) -> None:
    critic = tool_call("ClaimCheck", verdict="partially", confidence=0.4, reason="unklar")
    run = Run(services, "Kann ich Urlaub auszahlen lassen?", [WEAK_CLAIM, critic], review="interrupt")
    broken = "Urlaub verfällt nie und wird immer ausgezahlt [lb-zzz-00]."
    run.resume([{"type": "edit", "args": {"action": "Antwort freigeben", "args": {"answer": broken}}}])
    (pending,) = run.graph.get_state(run.config).interrupts
    (request,) = pending.value
    assert request["action_request"]["args"]["violations"] == ["Zitierte IDs, die nicht im Kontext stehen: lb-zzz-00."]
    assert "### Bearbeitung abgelehnt" in request["description"]
    assert "bucket" not in run.state
    fixed = "Vollzeitbeschäftigte erhalten 30 Arbeitstage Erholungsurlaub pro Kalenderjahr (Stand 2026-01) [lb-url-01]."
    run.resume([{"type": "edit", "args": {"action": "Antwort freigeben", "args": {"answer": fixed}}}])
    assert (run.state["bucket"], run.state["answer"], run.state["review_decision"]) == ("delivered", fixed, "edited")


def test_unreadable_resume_value_asks_again(services: StaticServices) -> None:
    critic = tool_call("ClaimCheck", verdict="partially", confidence=0.4, reason="unklar")
    run = Run(services, "Kann ich Urlaub auszahlen lassen?", [WEAK_CLAIM, critic], review="interrupt")
    run.resume({"action": "approve"})
    (pending,) = run.graph.get_state(run.config).interrupts
    assert pending.value[0]["action_request"]["args"]["violations"][0].startswith("Antwort unlesbar")


def test_bucket_record_keeps_what_the_reviewer_needs(services: StaticServices) -> None:
    critic = tool_call("ClaimCheck", verdict="partially", confidence=0.4, reason="unklar")
    Run(services, "Kann ich Urlaub auszahlen lassen?", [WEAK_CLAIM, critic])
    assert isinstance(services.answer_records, AnswerRecordStore)
    (record,) = services.answer_records.latest(1, bucket="human_review")
    review = record["review"]
    assert review["request"]["action_request"]["args"]["answer"] == WEAK_CLAIM
    assert [block["entry_id"] for block in review["context_blocks"]][:1] == ["lb-url-01"]
    assert review["policy"]["kb_id"] == KB_ID


def test_pii_never_reaches_the_model_and_is_redacted(services: StaticServices) -> None:
    question = "Ich bin max.muster@example.com, wie viele Urlaubstage erhalten Vollzeitbeschäftigte?"
    with_email = URLAUB_ANSWER.replace(" (Stand", ", Rückfragen an max.muster@example.com (Stand")
    critic = tool_call("ClaimCheck", verdict="supported", confidence=0.9)
    # about redaction; without dense similarity the answer's confidence is below 0.70
    run = Run(services, question, [with_email, critic], strictness=1, confidence_threshold=0.0)
    prompt = " ".join(str(m.content) for call in run.model.calls for m in call)
    assert "max.muster@example.com" not in prompt and "‹E-Mail›" in prompt
    out = run.state
    assert "pii" in out["guardrail_flags"]
    assert "max.muster@example.com" not in out["question"] + out["answer"]
    assert "‹E-Mail›" in out["answer"] and out["bucket"] == "delivered"


@pytest.mark.parametrize(("question", "fragment"), [("   ", "Bitte stellen Sie eine"), ("Urlaub? " * 400, "zu lang")])
def test_unusable_questions_get_an_error_output(services: StaticServices, question: str, fragment: str) -> None:
    run = Run(services, question, [])
    out = run.state
    assert fragment in out["answer"] and out["bucket"] == "invalid_input" and run.llm_calls == 0


def test_unknown_bot_and_missing_kb_are_errors(services: StaticServices) -> None:
    assert "gibt es nicht" in Run(services, "Urlaub?", [], bot_id="nobody", kb_id=None).state["answer"]
    assert "bot_id oder kb_id" in Run(services, "Urlaub?", [], kb_id=None).state["answer"]


def test_bot_strictness_applies_unless_context_overrides(services: StaticServices) -> None:
    assert isinstance(services.bots, BotStore)
    services.bots.create(
        "strenger-bot",
        name="Streng",
        kb_id=KB_ID,
        knowledge_strictness=1,
        refusal_message="Frag bitte die Personalabteilung.",
    )
    from_bot = Run(services, OFF_TOPIC, [], bot_id="strenger-bot", kb_id=None).state
    assert from_bot["strictness"].level == 1 and from_bot["answer"] == "Frag bitte die Personalabteilung."
    override = Run(
        services, OFF_TOPIC, ["Keine Angabe [lb-hom-01]."], bot_id="strenger-bot", kb_id=None, strictness=5
    ).state
    assert override["strictness"].level == 5


def test_extractive_provider_answers_verbatim_with_citations(services: StaticServices) -> None:
    run = Run(services, "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?", [], provider="extractive")
    out = run.state
    assert out["model"] == "extractive" and run.llm_calls == 0
    assert out["answer"] == (
        "Vollzeitbeschäftigte erhalten 30 Arbeitstage Erholungsurlaub pro Kalenderjahr [lb-url-01].\n\n"
        "Stand: 2026-01 [lb-url-01]."
    )
    assert "lb-url-01" in out["citations"] and out["bucket"] == "delivered"
    assert out["confidence"] >= AnswerContext().confidence_threshold


@pytest.mark.parametrize("typed", [str.lower, str.upper])
def test_a_question_typed_without_capitals_is_answered_as_the_written_one(services: StaticServices, typed: Any) -> None:
    """The graph reads key words by their capitals; „wie viele urlaubstage …" and shouting lose none of them."""
    question = "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?"
    written = Run(services, question, [], provider="extractive").state
    out = Run(services, typed(question), [], provider="extractive").state
    assert out["question"] == typed(question) and out["question_for_model"] == question
    assert (out["answer"], out["bucket"]) == (written["answer"], "delivered")


@pytest.mark.parametrize(
    ("as_of", "cited", "value"), [("2026-06-01", "lb-kan-02", "3,50"), ("2025-06-01", "lb-kan-01", "3,00")]
)
def test_an_entry_not_in_force_on_the_day_asked_about_does_not_answer(
    services: StaticServices, as_of: str, cited: str, value: str
) -> None:
    """The old rule ran out at the end of 2025, the new one starts in 2026: each answers only in its own time."""
    out = Run(
        services,
        "Wie viel zahlt das Unternehmen zum Mittagessen in der Kantine zu?",
        [],
        provider="extractive",
        as_of=as_of,
    ).state
    assert out["bucket"] == "delivered" and out["citations"] == [cited] and value in out["answer"]


def test_a_year_the_question_names_is_the_time_asked_about(services: StaticServices) -> None:
    """No „nicht 2025, sondern 2026": the entry in force in 2025 answers, or none does."""
    out = Run(
        services,
        "Wie viel hat das Unternehmen 2025 zum Mittagessen in der Kantine zugezahlt?",
        [],
        provider="extractive",
        as_of="2026-06-01",
    ).state
    assert "lb-kan-02" not in out["citations"] and "2026" not in out["answer"]


def test_a_weakly_matching_extractive_answer_goes_to_review(services: StaticServices) -> None:
    """Offline too: an answer whose key words are covered only by two sentences of two blocks, each about one
    of them (no sentence says whether the Verpflegungspauschale is paid in the Homeoffice), gets a low
    calibrated confidence: the best sentence barely leads the other block's and covers little of the question."""
    question = "Wird die Verpflegungspauschale im Homeoffice gezahlt?"
    out = Run(services, question, [], provider="extractive", strictness=5).state
    assert out["answer_features"].outcome == "answerable"
    assert out["bucket"] == "human_review" and out["refused"] and out["answer"] == UNCERTAIN
    assert out["confidence"] < AnswerContext().confidence_threshold and out["draft"]


def test_extractive_answer_presents_declared_conflict(services: StaticServices) -> None:
    out = Run(services, PRAEMIE, [], provider="extractive").state
    assert "⚠" in out["answer"] and {"lb-pra-02", "wk-pra-01"} <= set(out["citations"])
    assert "nicht amtlich" in out["answer"] and out["verified"]


def test_every_run_writes_an_output_record(services: StaticServices) -> None:
    Run(services, "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?", [URLAUB_ANSWER])
    assert isinstance(services.answer_records, AnswerRecordStore)
    (record,) = services.answer_records.latest(1)
    assert record["citations"] == ["lb-url-01"] and record["kb_id"] == KB_ID and record["bucket"] == "delivered"
    assert record["strictness"]["key"] == "balanced"


def test_brand_boundaries_hold_for_a_bots_answers(
    services: StaticServices, hybrid_kb: tuple[Database, KnowledgeBase]
) -> None:
    brands = BrandStore(hybrid_kb[0])
    brands.save(load_dna_file(REPO / "demo" / "brand" / "kantwerk-1.1.1.yaml"))
    services.brands = brands
    hype = URLAUB_ANSWER.replace(
        "Vollzeitbeschäftigte erhalten", "Als Marktführer garantieren wir Vollzeitbeschäftigten"
    )
    run = Run(
        services, "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?", [hype, URLAUB_ANSWER], brand_id="kantwerk"
    )
    out = run.state
    feedback = str(run.model.calls[1][-1].content)
    assert "GR-CLAIM-002" in feedback and "GR-CLAIM-003" in feedback
    assert out["regenerations"] == 1 and out["answer"] == URLAUB_ANSWER and out["bucket"] == "delivered"


def test_unknown_brand_is_an_error_output(services: StaticServices, hybrid_kb: tuple[Database, KnowledgeBase]) -> None:
    services.brands = BrandStore(hybrid_kb[0])
    out = Run(services, "Urlaub?", [], brand_id="gibtsnicht").state
    assert out["bucket"] == "invalid_input" and "gibtsnicht" in out["answer"]


def _provider_timeout(messages: list[Any]) -> str:
    raise ProviderTimeout("ollama", "Zeitüberschreitung bei der Anfrage")


def test_a_provider_that_keeps_timing_out_ends_in_the_refusal_with_its_code(services: StaticServices) -> None:
    run = Run(services, "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte?", [_provider_timeout] * 3)
    out = run.state
    assert run.llm_calls == 3  # the retries ran first
    assert out["bucket"] == "refused" and out["refused"] and out["error"] == "provider_timeout"
    assert out["answer"] == UNCERTAIN and out["citations"] == []
    assert "finalize_answer" in run.path and "validate_answer" not in run.path
