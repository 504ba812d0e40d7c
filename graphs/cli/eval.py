"""``belegt eval``: run the offline eval suites, write their reports and compare them with the baselines."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from graphs.cli.runtime import fail
from graphs.settings import SettingsError
from nodes.shared.llm import ProviderError

app = typer.Typer(help="Eval-Suiten offline ausführen.", no_args_is_help=True)


@app.command("eval")
def run_evals(
    suite: Annotated[
        str, typer.Argument(help="retrieval, refusal, grounding, invariants, critic, scorecard, scan oder all.")
    ],
    data_dir: Annotated[
        Path | None, typer.Option("--data-dir", help="Ordner der Eval-Daten; Vorgabe ../shared/data neben dem Repo.")
    ] = None,
    provider: Annotated[str, typer.Option("--provider", help="extractive (ohne LLM), ollama oder mistral.")] = (
        "extractive"
    ),
    strictness: Annotated[
        int | None, typer.Option("--strictness", help="Stufe 1–5; leer: die Vorgabe der Suite.")
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", help="Höchstens so viele Beispiele je Suite (invariants: Modellausgaben).")
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Ergebnisordner; Vorgabe evals/results.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Ergebnisse als JSON auf stdout ausgeben.")] = False,
) -> None:
    """Eval-Suiten ausführen: Bericht (JSON, Markdown, Abbildungen) je Suite, Vergleich mit den Baselines."""
    from evals.baselines import BaselineFileError
    from evals.run import (
        build_settings,
        exit_code,
        outcomes_json,
        run_suites,
        select_suites,
    )

    try:
        suites = select_suites(suite)
        settings = build_settings(provider=provider, data_dir=data_dir, out=out, strictness=strictness, limit=limit)
    except (ValueError, SettingsError, ProviderError) as exc:  # UnknownSuite is a ValueError
        fail(escape(str(exc)), code=2)
    try:
        outcomes = run_suites(suites, settings, Console(stderr=True))
    except BaselineFileError as exc:
        fail(escape(str(exc)), code=2)
    if as_json:
        typer.echo(outcomes_json(outcomes))
    raise typer.Exit(exit_code(outcomes))
