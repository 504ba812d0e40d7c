"""Shared CLI plumbing: settings loaded once, German error exits.

The CLI modules import only typer, rich and the settings at the top; everything heavier (graphs, stores,
LLM clients, Qdrant) is imported inside the command that uses it, so ``belegt --help`` starts fast.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from graphs.cli.usage import command_line_error
from graphs.settings import Settings, SettingsError, load_settings

if TYPE_CHECKING:
    from stores.sql.engine import Database

console = Console()
errors = Console(stderr=True)


def progress_bar(console: Console) -> Progress:
    """The one progress display of the CLI: done/total, elapsed time and the estimate of what remains."""
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("noch"),
        TimeRemainingColumn(),
    )
    return Progress(*columns, console=console, transient=True)


def fail(message: str, code: int = 1) -> NoReturn:
    errors.print(f"[bold red]Fehler:[/] {message}", soft_wrap=True)  # one line, however narrow the terminal
    raise typer.Exit(code)


def settings_or_exit() -> Settings:
    try:
        return load_settings()
    except SettingsError as exc:
        fail(str(exc), code=2)


def database_or_exit(settings: Settings) -> Database:
    from stores.sql.engine import open_database

    try:
        return open_database(settings.resolved_database_url)
    except Exception as exc:  # any driver error becomes one readable line
        fail(f"Datenbank {settings.resolved_database_url} nicht nutzbar: {exc}")


def explain_unexpected(exc: Exception) -> str:
    """One German line for an error no command handled: what happened and what to do."""
    detail = (str(exc).strip().splitlines() or [""])[0]
    if "already accessed by another instance" in detail:
        return (
            "Der Vektorspeicher wird gerade von einem anderen Prozess genutzt (meist dem laufenden Server): "
            "den Server beenden oder BELEGT_QDRANT_URL auf einen Qdrant-Server setzen."
        )
    if "database is locked" in detail:
        return "Die SQLite-Datenbank ist gerade gesperrt: gleich erneut versuchen oder PostgreSQL nutzen."
    return f"Unerwarteter Fehler ({type(exc).__name__}: {detail}); BELEGT_DEBUG=1 zeigt die Einzelheiten."


def run_guarded(app: typer.Typer, prog_name: str = "belegt") -> None:
    """The CLI's outermost boundary: a mistyped command line ends as one German line with click's exit code (2),
    whatever a command did not handle as one line with exit code 1, never a traceback."""
    try:
        code = app(prog_name=prog_name, standalone_mode=False)
    except Exception as exc:
        ended = command_line_error(exc)
        if ended is None and os.environ.get("BELEGT_DEBUG"):
            raise
        message, code = ended or (explain_unexpected(exc), 1)
        if message:
            errors.print(f"[bold red]Fehler:[/] {escape(message)}", soft_wrap=True)
        raise SystemExit(code) from None
    # outside standalone mode click returns the exit code of a ``typer.Exit`` instead of leaving
    raise SystemExit(code if isinstance(code, int) else 0)
