"""Suite ``scan``: the demo document against the demo catalogue, compared with the expected findings.

Finding precision and recall by (requirement id, page) against ``evals/datasets/scan_demo.jsonl``, the
share of stored quotes that stand verbatim on their page (checked here again, independently of the
database trigger; must be 1.0), and the share of stored findings in the human-review bucket.

The scan needs a model. With ``ollama`` or ``mistral`` the configured models review and critique.
Offline (``extractive``) a scripted *oracle* reviewer stands in: it reports each expected finding whose
quote is in the chunk and whose requirement retrieval offered, plus tempting wrong quotes (paraphrased,
or on another page of the chunk) that the database must refuse. Its metrics carry the prefix
``oracle.``: they measure what chunking, closed-world clause retrieval and quote verification let
through, not a model's judgement.
"""

from __future__ import annotations

import json
import re
import secrets
import tempfile
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel, ConfigDict

from evals.evaluators.sets import set_agreement
from evals.suite import REPO_ROOT, Dataset, Metric, Suite, SuiteContext, SuiteResult, Table, dataset_version, rate
from graphs.scan import build_scan_graph
from nodes.scan.context import ScanContext
from nodes.scan.services import (
    CRITIC_MAX_TOKENS,
    FINDINGS_MAX_TOKENS,
    SCAN_STRICTNESS_LEVEL,
    StaticScanServices,
    require_model,
)
from nodes.scan.state import ScanInput, ScanReport
from nodes.shared.llm import create_chat_model
from nodes.shared.scripted_llm import ScriptedChatModel
from nodes.shared.strictness import get_strictness_config
from stores.ingest.catalog import import_catalog
from stores.ingest.documents import read_document
from stores.scan.catalog import CatalogStore
from stores.scan.clause_index import ClauseIndex
from stores.scan.documents import DocumentStore
from stores.scan.trail import AuditTrail
from stores.scan.whitespace import canonical_whitespace
from stores.sql.engine import open_database
from stores.vector.embedders import create_embedder
from stores.vector.qdrant import memory_engine

DEMO = REPO_ROOT / "demo" / "scan"
EXPECTED = REPO_ROOT / "evals" / "datasets" / "scan_demo.jsonl"
_OFFERED = re.compile(r'<anforderung id="([^"]+)"')
_PAGE = re.compile(r'<seite nummer="(\d+)">\n(.*?)\n</seite>', re.S)
_CRITIC_QUOTE = re.compile(r'Zitat \(Seite (\d+)\): "(.*)"')


class ExpectedFinding(BaseModel):
    """A finding the demo document should get; ``clear`` False marks a judgement call."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    requirement_id: str
    page: int
    quote: str
    clear: bool


def load_expected(path: Path = EXPECTED) -> list[ExpectedFinding]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [ExpectedFinding.model_validate(json.loads(line)) for line in lines if line.strip()]


class OracleReviewer:
    """Scripted finding model and critic that know the expected findings (offline stand-in for the LLM)."""

    def __init__(self, expected: list[ExpectedFinding]) -> None:
        self.expected = expected

    def finding_model(self) -> ScriptedChatModel:
        return ScriptedChatModel(script=[self._review], repeat_last=True, model_name="oracle-reviewer")

    def critic_model(self) -> ScriptedChatModel:
        return ScriptedChatModel(script=[self._critique], repeat_last=True, model_name="oracle-critic")

    def _review(self, messages: list[BaseMessage]) -> AIMessage:
        prompt = str(messages[1].content)
        offered = set(_OFFERED.findall(prompt))
        pages = {int(n): canonical_whitespace(text) for n, text in _PAGE.findall(prompt)}
        findings = []
        for item in self.expected:
            if item.requirement_id in offered and canonical_whitespace(item.quote) in pages.get(item.page, ""):
                findings.append(_finding(item.requirement_id, item.quote, item.page, 0.9 if item.clear else 0.6))
        if findings and offered:  # temptations the database must refuse
            first = findings[0]
            paraphrase = first["exact_quote"].replace(" ", "  ").replace("e", "é", 1) + " (sinngemäß)"
            findings.append(_finding(first["requirement_id"], paraphrase, first["page_number"], 0.9))
            other_pages = [p for p in pages if p != first["page_number"] and first["exact_quote"] not in pages[p]]
            if other_pages:
                findings.append(_finding(first["requirement_id"], first["exact_quote"], other_pages[0], 0.9))
        return _tool_call("record_finding", {"findings": findings})

    def _critique(self, messages: list[BaseMessage]) -> AIMessage:
        match = _CRITIC_QUOTE.search(str(messages[1].content))
        quote = canonical_whitespace(match.group(2)) if match else ""
        clear = any(canonical_whitespace(e.quote) == quote and e.clear for e in self.expected)
        verdict = {"supported": True, "severity": "MAJOR" if clear else "MINOR", "confidence": 0.9 if clear else 0.6}
        return _tool_call("assess_finding", {**verdict, "note": "Orakel: erwarteter Befund."})


def _finding(requirement_id: str, quote: str, page: int, confidence: float) -> dict[str, Any]:
    return {
        "requirement_id": requirement_id,
        "exact_quote": quote,
        "page_number": page,
        "severity": "MAJOR" if confidence >= 0.7 else "MINOR",
        "confidence": confidence,
        "finding_text": "Erwarteter Befund laut Datensatz.",
    }


def _tool_call(name: str, args: dict[str, Any]) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": "oracle"}])


def configured_models(ctx: SuiteContext) -> tuple[BaseChatModel, BaseChatModel]:
    strictness = get_strictness_config(SCAN_STRICTNESS_LEVEL)
    provider, app = ctx.settings.provider, ctx.settings.app
    finding = create_chat_model(provider, strictness, app, max_tokens=FINDINGS_MAX_TOKENS)
    critic = create_chat_model(provider, strictness, app, max_tokens=CRITIC_MAX_TOKENS)
    return require_model(finding), require_model(critic)


def run(ctx: SuiteContext) -> SuiteResult:
    expected = load_expected()
    app = ctx.settings.app
    if ctx.settings.llm_configured:
        (finding_model, critic_model), prefix = configured_models(ctx), ""
    else:
        oracle = OracleReviewer(expected)
        (finding_model, critic_model), prefix = (oracle.finding_model(), oracle.critic_model()), "oracle."
    with tempfile.TemporaryDirectory(prefix="belegt-eval-") as tmp:
        database = open_database(f"sqlite:///{Path(tmp) / 'scan.db'}")
        engine = memory_engine()
        try:
            clauses = ClauseIndex.from_settings(app, engine=engine, embedder=create_embedder(app))
            version = import_catalog(DEMO / "katalog.yaml", catalogs=CatalogStore(database), clauses=clauses)
            draft = read_document(DEMO / "produktinfo.md")
            document = DocumentStore(database).store(draft)
            services = StaticScanServices.on_database(
                database,
                clauses,
                finding_model=finding_model,
                critic_model=critic_model,
                audit_trail=AuditTrail(key=secrets.token_bytes(32)),  # a throwaway database, a throwaway key
                provider=ctx.settings.provider if ctx.settings.llm_configured else "scripted",
            )
            graph = build_scan_graph(services).compile(name="scan")
            scan = ScanInput(scan_id="eval-scan", document_id=document.id, catalog_version_id=version.id)
            reports: list[ScanReport] = [
                graph.invoke(item, context=ScanContext())["report"]
                for item in ctx.progress.track([scan], "Demo-Dokument prüfen")
            ]
            report = reports[0]
        finally:
            engine.close()
            database.dispose()
    pages = {p.page_number: canonical_whitespace(p.raw_text) for p in draft.pages}
    stored = report.ordered_findings()
    verified = [f for f in stored if canonical_whitespace(f.exact_quote) in pages.get(f.page_number, "")]
    found = {(f.stable_id, f.page_number) for f in stored}
    wanted = {(e.requirement_id, e.page) for e in expected}
    precision, recall = set_agreement([{}], [{"found": found}], [{"expected": wanted}])
    counts = report.counts
    metrics = [
        Metric(f"{prefix}finding_precision", precision["score"], len(found), precision["comment"], True),
        Metric(f"{prefix}finding_recall", recall["score"], len(wanted), recall["comment"], True),
        Metric(
            f"{prefix}quotes_verified_share",
            rate(len(verified), len(stored)),
            len(stored),
            "Zitat steht wörtlich auf der Seite",
            True,
        ),
        Metric(
            f"{prefix}review_bucket_share",
            rate(len(report.human_review), len(stored)),
            len(stored),
            "zur Prüfung",
            True,
        ),
        Metric(
            f"{prefix}quotes_rejected", counts.quotes_rejected, counts.findings_recorded, "von der Datenbank abgelehnt"
        ),
        Metric(
            f"{prefix}chunks_not_assessed", counts.chunks_not_assessed, counts.chunks, "Antwort zweimal schemawidrig"
        ),
    ]
    return SuiteResult(
        dataset=Dataset(
            "demo/scan (produktinfo.md, katalog.yaml) + evals/datasets/scan_demo.jsonl",
            dataset_version(DEMO, EXPECTED),
            len(expected),
        ),
        metrics=metrics,
        settings={"reviewer": "oracle (scripted)" if prefix else f"{ctx.settings.provider}:{ctx.settings.model}"},
        tables=[
            Table(
                "Gespeicherte Befunde",
                ("Anforderung", "Seite", "Bucket", "Schwere", "erwartet", "Zitat"),
                [
                    (
                        f.stable_id,
                        f.page_number,
                        f.bucket,
                        f.severity,
                        "✓" if (f.stable_id, f.page_number) in wanted else "✗",
                        f.exact_quote[:80],
                    )
                    for f in stored
                ],
            ),
            Table(
                "Erwartet, aber nicht gespeichert",
                ("Anforderung", "Seite", "Zitat"),
                [(e.requirement_id, e.page, e.quote[:80]) for e in expected if (e.requirement_id, e.page) not in found],
            ),
            Table(
                "Von der Datenbank abgelehnte Zitate",
                ("Anforderung", "Seite", "Grund", "Zitat"),
                [(q.stable_id, q.page_number, q.reason, q.exact_quote[:80]) for q in report.rejected_quotes],
            ),
        ],
        notes=[
            "Offline prüft ein Orakel-Prüfer (Skript), nicht ein Modell: Präzision und Recall zeigen, was Chunking, "
            "Klausel-Retrieval (Top-5 je Chunk) und die Zitatprüfung durchlassen."
            if prefix
            else f"Prüfer und Kritiker: {ctx.settings.provider}:{ctx.settings.model} (Stufe {SCAN_STRICTNESS_LEVEL}).",
            "--limit und --strictness gelten hier nicht (ein Dokument, die Dokumentprüfung nutzt immer Stufe 1).",
        ],
    )


SUITE = Suite(
    name="scan",
    description="Demo-Dokument gegen Demo-Katalog: Befund-Präzision/-Recall je (Anforderung, Seite), geprüfte Zitate",
    run=run,
    requires_repo=("demo/scan/produktinfo.md", "demo/scan/katalog.yaml", "evals/datasets/scan_demo.jsonl"),
)
