"""The graphs' part of the ``belegt`` CLI; each command group lives in its own module (``evals.cli`` adds
``eval`` and ``bench`` on top)."""

from __future__ import annotations

import typer

from graphs.cli import ask, bots, brand, check, kb, keys, review, scan, serve

app = typer.Typer(  # unnamed: ``evals.cli`` merges these commands into the ``belegt`` root
    help="Belegte Antworten, Dokumentprüfungen und Marken-Scorecards auf Basis eigener Quellen.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("check")(check.check)
app.command("ask")(ask.ask)
app.command("ingest")(kb.ingest)
app.add_typer(bots.app, name="bots")
app.add_typer(keys.app, name="keys")
app.command("serve")(serve.serve)
app.add_typer(kb.app, name="kb")
app.add_typer(scan.app)
app.add_typer(brand.app, name="brand")
app.command("scorecard")(brand.scorecard)
app.add_typer(review.app, name="review")
