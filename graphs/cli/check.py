"""``belegt check``: which provider, embedder, Qdrant and database are configured, and do they answer."""

from __future__ import annotations

from collections.abc import Callable

import typer
from rich.table import Table

from graphs.cli.runtime import console, errors, settings_or_exit


def _probe(action: Callable[[], str]) -> tuple[bool, str]:
    try:
        return True, action()
    except Exception as exc:  # a self-check reports every failure instead of stopping at the first
        return False, f"{type(exc).__name__}: {exc}"


def check(
    strict: bool = typer.Option(
        False, "--strict", help="Auch ohne eingestelltes LLM (Anbieter 'extractive') mit Fehlercode 1 enden."
    ),
) -> None:
    """Konfiguration zeigen und prüfen, ob LLM, Embedder, Qdrant und Datenbank erreichbar sind.

    Endet mit Code 1, sobald ein eingestellter Baustein nicht nutzbar ist (✘)."""
    from sqlalchemy import text

    from nodes.shared.llm import probe_provider
    from stores.sql.engine import open_database
    from stores.vector.embedders import create_embedder
    from stores.vector.qdrant import describe_vector_engine, open_vector_engine

    settings = settings_or_exit()
    settings.data_dir.mkdir(parents=True, exist_ok=True)

    def database() -> str:
        db = open_database(settings.resolved_database_url)
        with db.transaction() as connection:
            connection.execute(text("SELECT 1"))
        db.dispose()
        return "bereit, Migrationen angewandt"

    def embedder() -> str:
        model = create_embedder(settings)
        if model is None:
            return "keiner: nur Sparse-Suche (BM25)"
        return f"bereit, {len(model.embed_query('Probe'))} Dimensionen"

    def qdrant() -> str:
        engine = open_vector_engine(settings)
        engine.close()
        return f"bereit ({engine.name})"

    provider = settings.provider
    rows = [
        (
            "LLM",
            f"{provider} ({settings.model_for(provider)})",
            _probe(lambda: probe_provider(provider, settings)),
        ),
        ("Embedder", settings.embedder, _probe(embedder)),
        ("Qdrant", describe_vector_engine(settings), _probe(qdrant)),
        ("Datenbank", _redacted(settings.resolved_database_url), _probe(database)),
    ]
    table = Table("Baustein", "Konfiguration", "Status", title="belegt – Selbsttest")
    for name, configured, (ok, detail) in rows:
        table.add_row(name, configured, ("[green]✔ " if ok else "[red]✘ ") + detail)
    console.print(table)
    if not all(ok for _, _, (ok, _) in rows):
        raise typer.Exit(1)
    if strict and provider == "extractive":
        errors.print("Kein LLM eingestellt (--strict): OLLAMA_BASE_URL oder MISTRAL_API_KEY setzen.", soft_wrap=True)
        raise typer.Exit(1)


def _redacted(url: str) -> str:
    """Hide a password in a database URL."""
    if "@" not in url or "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    credentials, host = rest.rsplit("@", 1)
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}{':***' if ':' in credentials else ''}@{host}"
