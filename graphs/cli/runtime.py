"""Shared CLI plumbing: settings loaded once, German error exits."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console

from graphs.settings import Settings, SettingsError, load_settings
from stores.sql.engine import Database, open_database

console = Console()
errors = Console(stderr=True)


def fail(message: str, code: int = 1) -> NoReturn:
    errors.print(f"[bold red]Fehler:[/] {message}", soft_wrap=True)  # one line, however narrow the terminal
    raise typer.Exit(code)


def settings_or_exit() -> Settings:
    try:
        return load_settings()
    except SettingsError as exc:
        fail(str(exc), code=2)


def database_or_exit(settings: Settings) -> Database:
    try:
        return open_database(settings.resolved_database_url)
    except Exception as exc:  # any driver error becomes one readable line
        fail(f"Datenbank {settings.resolved_database_url} nicht nutzbar: {exc}")
