"""``belegt ingest`` and ``belegt kb …``: fill and inspect knowledge bases."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from graphs.cli.runtime import console, database_or_exit, fail, progress_bar, settings_or_exit
from graphs.settings import Settings

if TYPE_CHECKING:
    from stores.ingest.kb import IngestSummary
    from stores.kb.store import KnowledgeBase

app = typer.Typer(help="Wissensbasen neu indexieren, durchsuchen und ihre Konflikte zeigen.", no_args_is_help=True)

KbOption = Annotated[str, typer.Option("--kb", help="ID der Wissensbasis (Mandant), z. B. 'demo'.")]


class _BarProgress:
    """Adapts a rich progress bar to the ingestion's ProgressReporter."""

    def __init__(self, progress: Progress, label: str) -> None:
        self._progress = progress
        self._task = progress.add_task(label, total=None)

    def start(self, total: int) -> None:
        self._progress.update(self._task, total=total, completed=0)

    def advance(self, done: int) -> None:
        self._progress.advance(self._task, done)


@contextmanager
def _progress_bar(label: str) -> Iterator[_BarProgress]:
    with progress_bar(console) as progress:
        yield _BarProgress(progress, label)


@contextmanager
def _knowledge_base(settings: Settings) -> Iterator[KnowledgeBase]:
    from stores.kb.store import KnowledgeBase
    from stores.vector.embedders import EmbedderUnavailable, create_embedder
    from stores.vector.qdrant import open_vector_engine

    database = database_or_exit(settings)
    try:
        embedder = create_embedder(settings)
    except EmbedderUnavailable as exc:
        fail(escape(str(exc)))
    try:
        engine = open_vector_engine(settings)
    except RuntimeError as exc:  # qdrant-client local mode: another process holds the folder lock
        fail(escape(f"Qdrant nicht nutzbar: {exc}"))
    try:
        yield KnowledgeBase.from_settings(settings, engine=engine, database=database, embedder=embedder)
    finally:
        engine.close()
        database.dispose()


def ingest(
    path: Annotated[
        Path, typer.Argument(metavar="PATH", help="JSONL-Datei oder Ordner mit Markdown-Dateien (Front Matter).")
    ],
    kb: KbOption,
    prune: Annotated[bool, typer.Option("--prune", help="Einträge entfernen, die in der Eingabe fehlen.")] = False,
    id_pattern: Annotated[
        str | None, typer.Option("--id-pattern", help="Regulärer Ausdruck für Eintrags-IDs dieser KB.")
    ] = None,
    field_map: Annotated[
        list[str] | None,
        typer.Option(
            "--map", help="Felder zuordnen: ziel=quelle[,ziel=quelle…], z. B. title=heading,section=law_title."
        ),
    ] = None,
    set_values: Annotated[
        list[str] | None,
        typer.Option("--set", help="Festen Wert für jeden Eintrag setzen: feld=wert, z. B. stand=2022-03."),
    ] = None,
    mapping_file: Annotated[
        Path | None,
        typer.Option("--mapping", help="YAML-Zuordnungsdatei (fields: …, values: …); --map/--set ergänzen sie."),
    ] = None,
    allow_flagged: Annotated[
        bool,
        typer.Option(
            "--allow-flagged", help="Einträge, die wie Anweisungen an den Assistenten klingen, trotzdem einlesen."
        ),
    ] = False,
) -> None:
    """Eine Wissensbasis einlesen: prüfen, dann idempotent abgleichen (neu / geändert / unverändert / entfernt)."""
    from stores.ingest.kb import KBInputError, ingest_kb
    from stores.ingest.mapping import FieldMappingError, field_mapping
    from stores.kb.layout import InvalidKBId

    try:
        mapping = field_mapping(mapping_file=mapping_file, pairs=field_map or [], values=set_values or [])
    except FieldMappingError as exc:
        fail(escape(str(exc)), code=2)
    settings = settings_or_exit()
    with _knowledge_base(settings) as knowledge_base, _progress_bar(f"Indexiere {kb}") as bar:
        try:
            summary = ingest_kb(
                path,
                kb,
                kb=knowledge_base,
                default_id_pattern=settings.kb_id_pattern,
                chunk_chars=settings.kb_chunk_chars,
                prune=prune,
                id_pattern=id_pattern,
                mapping=mapping,
                allow_flagged=allow_flagged,
                progress=bar,
            )
        except (KBInputError, InvalidKBId, FieldMappingError) as exc:
            fail(escape(str(exc)))
    _print_summary(summary)


def _print_summary(summary: IngestSummary) -> None:
    for warning in summary.warnings:
        console.print(f"[yellow]Warnung:[/] {escape(warning)}")
    table = Table("neu", "geändert", "unverändert", "entfernt", "Konflikte", title=f"Wissensbasis {summary.kb_id}")
    table.add_row(
        str(len(summary.added)),
        str(len(summary.updated)),
        str(len(summary.unchanged)),
        str(len(summary.removed)),
        str(summary.conflicts),
    )
    console.print(table)
    if summary.flagged:
        verdict = "zurückgehalten" if summary.flagged_held_back else "trotzdem eingelesen (--allow-flagged)"
        console.print(
            f"[yellow]{len(summary.flagged)} Einträge klingen wie Anweisungen an den Assistenten, {verdict}:[/]"
        )
        for flag in summary.flagged:
            console.print(f"  - {escape(flag.describe())}")
    if summary.rebuilt:
        console.print(
            "Index komplett neu aufgebaut (Embedder/Analyzer geändert oder Index abweichend); Alias umgestellt."
        )


@app.command("reindex")
def reindex(kb_id: Annotated[str, typer.Argument(metavar="KB_ID", help="ID der Wissensbasis.")]) -> None:
    """Den Index einer KB aus den gespeicherten Einträgen neu aufbauen (z. B. nach Embedder-Wechsel)."""
    from stores.ingest.kb import reindex_kb
    from stores.kb.layout import InvalidKBId
    from stores.kb.store import KnowledgeBaseNotFound

    settings = settings_or_exit()
    with _knowledge_base(settings) as knowledge_base, _progress_bar(f"Baue {kb_id} neu auf") as bar:
        try:
            count = reindex_kb(kb_id, kb=knowledge_base, chunk_chars=settings.kb_chunk_chars, progress=bar)
        except (KnowledgeBaseNotFound, InvalidKBId) as exc:
            fail(escape(str(exc)))
    console.print(f"{count} Einträge neu indexiert; der Alias zeigt jetzt auf die neue Collection.")


@app.command("search")
def search(
    kb_id: Annotated[str, typer.Argument(metavar="KB_ID", help="ID der Wissensbasis.")],
    queries: Annotated[list[str], typer.Argument(metavar="QUERY", help="Eine oder mehrere Suchanfragen.")],
    limit: Annotated[int, typer.Option(min=1, max=100, help="Höchstens so viele Treffer.")] = 5,
) -> None:
    """Eine KB durchsuchen und die Treffer mit kalibriertem Score zeigen."""
    from stores.kb.layout import InvalidKBId
    from stores.kb.store import KnowledgeBaseNotFound

    settings = settings_or_exit()
    with _knowledge_base(settings) as knowledge_base:
        try:
            hits = knowledge_base.search(kb_id, queries, limit=limit)
        except (KnowledgeBaseNotFound, InvalidKBId) as exc:
            fail(escape(str(exc)))
    table = Table("#", "ID", "Titel", "Stand", "Score", "Werk")
    for hit in hits:
        work = hit.work + ("" if hit.official else " (nicht amtlich)")
        marker = " ↪" if hit.cross_ref_extra else ""
        table.add_row(str(hit.rank), hit.entry_id + marker, hit.title, hit.stand, f"{hit.score:.2f}", work)
    console.print(table)


@app.command("conflicts")
def conflicts(kb_id: Annotated[str, typer.Argument(metavar="KB_ID", help="ID der Wissensbasis.")]) -> None:
    """Die in einer KB erklärten Quellenkonflikte zeigen."""
    from stores.kb.layout import InvalidKBId

    settings = settings_or_exit()
    with _knowledge_base(settings) as knowledge_base:
        try:
            found = knowledge_base.conflicts(kb_id)
        except InvalidKBId as exc:
            fail(escape(str(exc)))
    for conflict in found:
        console.print(f"[bold]{escape(conflict.topic)}[/]")
        for entry_id in conflict.ids:
            console.print(escape(f"  [{entry_id}] {conflict.sides[entry_id]}"))
    if not found:
        console.print("Keine Konflikte erklärt.")
