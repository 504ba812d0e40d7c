"""``belegt bench answer``: the answer graph's own cost, measured with an instant scripted LLM."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from graphs.cli.runtime import console

LAWS = Path("../shared/data/de_gesetze/kb_paragraphs.jsonl")


def bench_answer(
    laws: Annotated[Path | None, typer.Option("--laws", help="kb_paragraphs.jsonl der Bundesgesetze.")] = LAWS,
    as_json: Annotated[bool, typer.Option("--json", help="Ein JSON-Objekt statt Tabellen ausgeben.")] = False,
) -> None:
    """Answer-Graph messen (sofort antwortendes Skript-LLM): Latenz, LLM-Aufrufe je Frage, Overhead."""
    from evals.bench.answer import print_report, run_answer_benchmark

    report = run_answer_benchmark(laws)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False))
    else:
        print_report(report, console)
