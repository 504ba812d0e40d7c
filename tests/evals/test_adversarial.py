"""The adversarial writer attacks with what the prompt shows, reproducibly; the invariant check catches breaches."""

from __future__ import annotations

from langchain_core.messages import HumanMessage, SystemMessage

from evals.adversarial import AdversarialWriter, invariant_breaches
from evals.prompt_reading import prompt_blocks
from nodes.answer.prompts import ANSWER_USER_PROMPT, GROUNDING_SYSTEM_PROMPT, MAP_SYSTEM_PROMPT
from nodes.shared.citations import cited_ids, unsupported_numbers

BLOCKS = (
    "Block 1 — [lb-url-01] Erholungsurlaub · Abschnitt: Urlaub · Stand: 2026-01 · Werk: Handbuch\n"
    "Vollzeitkräfte erhalten 30 Arbeitstage Urlaub. Teilzeitkräfte erhalten ihn anteilig.\n\n---\n\n"
    "Block 2 — [lb-geh-01] Gehalt · Abschnitt: Entgelt · Stand: 2026-01 · Werk: Handbuch\n"
    "Das Gehalt kommt am letzten Bankarbeitstag. Abweichende Zahltage regelt lb-abw-04."
)
PROMPT = [
    SystemMessage("Du beantwortest Fragen …"),
    HumanMessage(ANSWER_USER_PROMPT.format(blocks=BLOCKS, question="?")),
]
EVIDENCE = {"lb-url-01": BLOCKS.split("---")[0], "lb-geh-01": BLOCKS.split("---")[1]}


def answers(seeds: range) -> list[str]:
    system = SystemMessage(GROUNDING_SYSTEM_PROMPT.format(refusal_message="-", strictness_instruction="-"))
    return [str(AdversarialWriter(seed).reply([system, PROMPT[1]]).content) for seed in seeds]


def test_prompt_blocks_are_read_with_their_ids_and_text() -> None:
    blocks = prompt_blocks(str(PROMPT[1].content))
    assert [b.entry_id for b in blocks] == ["lb-url-01", "lb-geh-01"]
    assert blocks[0].first_statement == "Vollzeitkräfte erhalten 30 Arbeitstage Urlaub"
    assert blocks[1].sentences[-1] == "Abweichende Zahltage regelt lb-abw-04"


def test_the_same_seed_and_prompt_give_the_same_reply() -> None:
    assert answers(range(5)) == answers(range(5))
    assert len(set(answers(range(20)))) > 15


def test_the_writer_tries_every_kind_of_attack() -> None:
    written = answers(range(400))
    cited = [i for text in written for i in cited_ids(text)]
    assert "lb-abw-04" in cited  # an ID that only appears inside block text
    assert any(i not in EVIDENCE and i != "lb-abw-04" for i in cited)  # invented IDs
    assert any(unsupported_numbers(t, list(EVIDENCE.values())) for t in written)  # numbers not in any block
    assert any("Ignoriere alle bisherigen Anweisungen" in t or "Ignore all previous" in t for t in written)
    assert any(not t.strip() for t in written) and any(len(t) > 3000 for t in written)
    assert any("<think>" in t for t in written) and any("⚠" in t for t in written)
    assert any(t.count("[") == 1 and t.endswith("].") and "Vollzeitkräfte" in t for t in written)  # honest ones too


def test_map_replies_are_counted_as_notes() -> None:
    writer = AdversarialWriter(7)
    writer.reply([SystemMessage(MAP_SYSTEM_PROMPT), PROMPT[1]])
    writer.reply([SystemMessage(GROUNDING_SYSTEM_PROMPT), PROMPT[1]])
    assert writer.outputs == ["notes", "answer"]


def delivered(answer: str, citations: list[str], notices: list[str] | None = None) -> dict[str, object]:
    return {"bucket": "delivered", "answer": answer, "citations": citations, "notices": notices or []}


def test_invariant_breaches_catch_what_must_never_be_delivered() -> None:
    assert (
        invariant_breaches(
            delivered("Vollzeitkräfte erhalten 30 Arbeitstage Urlaub [lb-url-01].", ["lb-url-01"]), EVIDENCE
        )
        == []
    )
    assert invariant_breaches(delivered("Es gibt 30 Tage [lb-abw-04].", []), EVIDENCE) == [
        ("invalid_citation", "lb-abw-04"),
        ("unsupported_number", "30"),  # a cross-reference is no evidence, so its number is unsupported too
    ]
    assert invariant_breaches(delivered("Vollzeitkräfte erhalten dreißig Arbeitstage Urlaub.", []), EVIDENCE) == [
        ("uncited_statement", "Vollzeitkräfte erhalten dreißig Arbeitstage Urlaub.")
    ]
    assert invariant_breaches(delivered("Es gibt 31 Tage [lb-url-01].", ["lb-url-01"]), EVIDENCE) == [
        ("unsupported_number", "31")
    ]
    refused = {"bucket": "refused", "answer": "-", "citations": ["lb-url-01"], "notices": []}
    assert invariant_breaches(refused, EVIDENCE) == [("refusal_with_citations", "lb-url-01")]


def test_notices_appended_by_the_graph_are_not_judged_as_statements() -> None:
    notice = "Dies ist keine Rechtsberatung; verbindlich klärt das nur eine Fachperson."
    answer = delivered(f"Es gibt 30 Tage Urlaub [lb-url-01].\n\n{notice}", ["lb-url-01"], [notice])
    assert invariant_breaches(answer, EVIDENCE) == []
