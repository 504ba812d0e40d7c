"""``belegt serve``: the LangGraph API with auth and limits, embedded or on the PostgreSQL/Redis runtime."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from graphs.cli.runtime import fail, settings_or_exit


def serve(
    prod: Annotated[
        bool, typer.Option("--prod", help="Produktions-Laufzeit: PostgreSQL (BELEGT_DATABASE_URL) und Redis.")
    ] = False,
    config: Annotated[Path, typer.Option("--config", help="langgraph.json mit Graphen und Auth.")] = Path(
        "langgraph.json"
    ),
) -> None:
    """Die Graphen als API bereitstellen (Adresse: BELEGT_SERVER_HOST / BELEGT_SERVER_PORT)."""
    from graphs.server.launch import LaunchError
    from graphs.server.launch import serve as launch

    if not config.is_file():
        fail(f"{config} nicht gefunden: im Repository-Ordner starten oder --config angeben.", code=2)
    try:
        launch(settings_or_exit(), config, "production" if prod else "embedded")
    except LaunchError as exc:
        fail(str(exc), code=2)
