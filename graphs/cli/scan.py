"""``belegt catalog``, ``belegt scan`` and ``belegt verify``: closed-world document review with audit hashes."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from graphs.cli.runtime import console, database_or_exit, errors, fail, progress_bar, settings_or_exit
from graphs.settings import Settings
from nodes.scan.context import CONFIDENCE_THRESHOLD
from stores.ingest.documents import DEFAULT_MAX_PAGES

if TYPE_CHECKING:
    from graphs.resources import AppResources, ScanResources
    from nodes.scan.context import ScanContext
    from nodes.scan.state import ScanInput, ScanReport
    from stores.scan.catalog import CatalogVersion
    from stores.sql.engine import Database

app = typer.Typer(help="Dokumente gegen einen versionierten Anforderungskatalog prüfen.")
catalog_app = typer.Typer(help="Anforderungskataloge importieren (jede Datei wird eine neue Version).")
app.add_typer(catalog_app, name="catalog", no_args_is_help=True)


@contextmanager
def _resources(settings: Settings) -> Iterator[AppResources]:
    """This command's resources, closed afterwards (Qdrant local mode locks its folder)."""
    from graphs.resources import AppResources
    from stores.vector.embedders import EmbedderUnavailable

    resources = AppResources(settings)
    try:
        yield resources
    except EmbedderUnavailable as exc:
        fail(str(exc))
    finally:
        resources.close()


@catalog_app.command("import")
def import_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="Katalog als .jsonl, .yaml oder .yml.")],
    name: Annotated[
        str | None, typer.Option(help="Name der Version; Standard: 'name' in der Datei oder Dateiname.")
    ] = None,
) -> None:
    """Einen Katalog als neue Version importieren und indexieren; frühere Versionen bleiben abfragbar."""
    from stores.ingest.catalog import CatalogFileError, import_catalog
    from stores.scan.catalog import CatalogStore

    settings = settings_or_exit()
    database = database_or_exit(settings)
    try:
        with _resources(settings) as resources:
            version = import_catalog(file, catalogs=CatalogStore(database), clauses=resources.clauses, name=name)
    except CatalogFileError as exc:
        fail(str(exc))
    console.print(
        f"Katalogversion [bold]{version.id}[/] angelegt: {version.name} – {version.requirement_count} "
        f"Anforderungen, davon {version.active_count} aktiv."
    )


@catalog_app.command("list")
def list_command() -> None:
    """Alle Katalogversionen zeigen."""
    from stores.scan.catalog import CatalogStore

    settings = settings_or_exit()
    table = Table("Version", "Name", "Datei", "Anforderungen", "aktiv", "importiert")
    for version in CatalogStore(database_or_exit(settings)).list_versions():
        table.add_row(
            str(version.id),
            version.name,
            version.source_file,
            str(version.requirement_count),
            str(version.active_count),
            f"{version.created_at:%Y-%m-%d %H:%M}",
        )
    console.print(table)


def _catalog_version(database: Database, version_id: int | None) -> CatalogVersion:
    from stores.scan.catalog import CatalogStore, CatalogVersionNotFound, NoCatalog

    catalogs = CatalogStore(database)
    try:
        version = catalogs.get_version(version_id) if version_id is not None else catalogs.latest_version()
    except (CatalogVersionNotFound, NoCatalog) as exc:
        fail(str(exc))
    if version.active_count == 0:
        fail(f"Katalogversion {version.id} hat keine aktiven Anforderungen; es gibt nichts zu prüfen.")
    return version


def _run_graph(services: ScanResources, scan_input: ScanInput, context: ScanContext) -> ScanReport:
    """Run the scan with a progress bar on stderr; on a review interrupt, ask about each uncertain finding."""
    from langchain_core.runnables import RunnableConfig
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    from graphs.cli.review import prompt_response
    from graphs.scan import build_scan_graph

    graph = build_scan_graph(services).compile(checkpointer=InMemorySaver(), name="scan")
    config: RunnableConfig = {"configurable": {"thread_id": scan_input["scan_id"]}}
    command: ScanInput | Command[Any] = scan_input
    while True:
        pending: list[Any] = []
        with progress_bar(errors) as progress:
            task = progress.add_task("Dokument vorbereiten", total=None)
            for update in graph.stream(command, config, context=context, stream_mode="updates"):
                for node, values in update.items():
                    if node == "__interrupt__":
                        pending = list(values)
                    elif node == "chunk_pages":
                        progress.update(task, description="Abschnitte prüfen", total=len(values["chunks"]))
                    elif node == "verify_quotes":
                        total = len(values["verified"])
                        progress.update(task, description="Befunde gegenprüfen", total=total, completed=0)
                    elif node in ("record_findings", "critique_finding"):
                        progress.advance(task)
        if not pending:
            report: ScanReport = graph.get_state(config).values["report"]
            return report
        (request,) = pending[0].value
        command = Command(resume=[prompt_response(request, "scan")])


def _write_reports(report: ScanReport, folder: Path) -> list[Path]:
    from nodes.scan.report import render_html, render_markdown

    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{report.scan_id}.{suffix}" for suffix in ("json", "md", "html")]
    paths[0].write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    paths[1].write_text(render_markdown(report), encoding="utf-8")
    paths[2].write_text(render_html(report), encoding="utf-8")
    return paths


@app.command("scan")
def scan(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="Zu prüfendes Dokument: .pdf, .md oder .txt.")],
    catalog_version: Annotated[
        int | None, typer.Option("--catalog-version", help="Katalogversion; Standard: die neueste.")
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Den Bericht als JSON ausgeben.")] = False,
    out: Annotated[Path | None, typer.Option(help="Ordner für die Berichte; Standard: <data_dir>/reports.")] = None,
    threshold: Annotated[
        float,
        typer.Option(min=0.0, max=1.0, envvar="BELEGT_SCAN_CONFIDENCE_THRESHOLD", help="Konfidenzschwelle."),
    ] = CONFIDENCE_THRESHOLD,
    max_pages: Annotated[
        int, typer.Option(min=1, envvar="BELEGT_SCAN_MAX_PAGES", help="Längstes zulässiges Dokument in Seiten.")
    ] = DEFAULT_MAX_PAGES,
    review: Annotated[bool, typer.Option("--review", help="Unsichere Befunde gleich hier entscheiden.")] = False,
) -> None:
    """Ein Dokument gegen den Katalog prüfen: belegte Befunde, Kritik, Konfidenz-Routing, Audit-Hash."""
    from graphs.resources import ScanResources
    from nodes.scan.context import ScanContext
    from nodes.scan.models import model_ids
    from nodes.scan.services import NoScanModel
    from nodes.scan.state import ScanInput
    from nodes.shared.llm import ProviderError
    from stores.ingest.documents import DocumentError, read_document
    from stores.scan.documents import DocumentStore
    from stores.scan.findings import FindingRejected

    settings = settings_or_exit()
    with _resources(settings) as resources:
        services = ScanResources(resources)
        try:
            models = model_ids(services)  # creates both models: without an LLM nothing is opened or stored
        except NoScanModel as exc:
            fail(str(exc), code=2)
        try:
            database = resources.database
        except Exception as exc:  # any driver error becomes one readable line
            fail(f"Datenbank {settings.resolved_database_url} nicht nutzbar: {exc}")
        version = _catalog_version(database, catalog_version)
        try:
            draft = read_document(file, max_pages=max_pages)
        except DocumentError as exc:
            fail(str(exc))
        document = DocumentStore(database).store(draft)
        scan_input = ScanInput(
            scan_id=f"scan-{uuid.uuid4().hex[:16]}", document_id=document.id, catalog_version_id=version.id
        )
        errors.print(f"Prüfe {file.name} gegen Katalogversion {version.id} mit {', '.join(models.values())}")
        try:
            context = ScanContext(confidence_threshold=threshold, review="interrupt" if review else "bucket")
            report = _run_graph(services, scan_input, context)
        except FindingRejected as exc:
            fail(f"Scan nicht gespeichert: {exc}")
        except ProviderError as exc:
            fail(f"Sprachmodell nicht nutzbar ({exc}); der Scan wurde nicht gespeichert.")
    paths = _write_reports(report, out or settings.data_dir / "reports")
    if json_output:
        typer.echo(report.model_dump_json(indent=2))
        return
    _print_summary(report, paths)


def _print_summary(report: ScanReport, paths: list[Path]) -> None:
    counts = report.counts
    table = Table("MAJOR", "MINOR", "HINT", "zur Prüfung", "Zitat abgelehnt", "verworfen", "nicht bewertet")
    table.add_row(
        *(str(n) for n in (counts.major, counts.minor, counts.hint, counts.human_review, counts.quotes_rejected)),
        str(counts.critic_rejected + counts.dismissed_in_review),
        f"{counts.chunks_not_assessed}/{counts.chunks}",
    )
    console.print(table)
    if report.document.uncitable_pages:
        pages = ", ".join(map(str, report.document.uncitable_pages))
        console.print(f"[yellow]Seiten ohne Textebene (nicht geprüft): {pages}[/]")
    console.print(f"Audit-Hash: {report.audit_hash}")
    for path in paths:
        console.print(f"Bericht: {path}")


@app.command("verify")
def verify(
    report_file: Annotated[Path, typer.Argument(metavar="REPORT", help="JSON-Bericht von 'belegt scan'.")],
    document: Annotated[
        Path | None, typer.Option(help="Auch prüfen, ob diese Datei das geprüfte Dokument ist (SHA-256).")
    ] = None,
) -> None:
    """Den Audit-Hash eines Berichts aus Datenbank und Bericht nachrechnen: 'valid' oder was abweicht."""
    from pydantic import ValidationError

    from nodes.scan.state import ScanReport
    from stores.scan.findings import FindingStore
    from stores.scan.trail import AuditTrail

    settings = settings_or_exit()
    try:
        report = ScanReport.model_validate_json(report_file.read_text(encoding="utf-8"))
    except OSError as exc:
        fail(f"{report_file}: nicht lesbar ({exc.strerror})")
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"]) or "Datei"
        fail(f"{report_file.name}: kein gültiger belegt-Prüfbericht ({where}: {error['msg']})")
    trail = AuditTrail.from_settings(settings)
    verdict = FindingStore(database_or_exit(settings), trail=trail).verify(report.audit_record())
    differences = list(verdict.differences)
    if document is not None:
        digest = hashlib.sha256(document.read_bytes()).hexdigest()
        if digest != report.document.sha256:
            differences.append(f"Dokument {document.name}: SHA-256 {digest} ≠ Bericht {report.document.sha256}")
    if not differences:
        typer.echo("valid")
        return
    typer.echo("ungültig")  # plain lines, never wrapped: people grep and diff this output
    for difference in differences:
        typer.echo(f"- {difference}")
    raise typer.Exit(1)
