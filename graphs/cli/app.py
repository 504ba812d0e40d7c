"""Root of the ``belegt`` CLI; each command group lives in its own module."""

from __future__ import annotations

import typer

from graphs.cli import ask, bench, bots, brand, check, kb, scan
from graphs.cli import eval as eval_suites

app = typer.Typer(
    name="belegt",
    help="Belegte Antworten, Dokumentprüfungen und Marken-Scorecards auf Basis eigener Quellen.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("check")(check.check)
app.command("ask")(ask.ask)
app.command("ingest")(kb.ingest)
app.add_typer(bots.app, name="bots")
app.add_typer(kb.app, name="kb")
app.add_typer(scan.app)
app.add_typer(brand.app, name="brand")
app.command("scorecard")(brand.scorecard)
app.command("eval")(eval_suites.run_evals)
kb.bench_app.command("answer")(bench.bench_answer)
app.add_typer(kb.bench_app, name="bench")
