"""The complete ``belegt`` command line: the graphs' commands plus ``eval`` and ``bench``.

It is composed here, at the top of the dependency order (stores ← nodes ← graphs ← evals), because those
two commands run eval and benchmark code; nothing under graphs imports evals.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from graphs.cli import app as graphs_app
from graphs.cli.runtime import console, fail, run_guarded, settings_or_exit
from graphs.settings import SettingsError, load_settings

if TYPE_CHECKING:
    from evals.suite import Tracker

app = typer.Typer(
    name="belegt",
    help=graphs_app.info.help,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(graphs_app)
eval_app = typer.Typer(help="Eval-Suiten offline ausführen.", no_args_is_help=True)
bench_app = typer.Typer(help="Benchmarks, die Kennzahlen ausgeben (mit --json maschinenlesbar).", no_args_is_help=True)


@eval_app.command("eval")
def run_evals(
    suite: Annotated[
        str,
        typer.Argument(
            metavar="SUITE",
            help="retrieval, refusal, grounding, invariants, poisoning, critic, scorecard, scan, law_answers, "
            "demo_answers, law_typing, demo_typing, all.",
        ),
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
        int | None,
        typer.Option(
            "--limit",
            help="Höchstens so viele Beispiele je Suite (invariants: Modellausgaben; poisoning: vergiftete Einträge).",
        ),
    ] = None,
    split: Annotated[
        str, typer.Option("--split", help="Fragensätze: dev (zum Abstimmen) oder report (für Berichte).")
    ] = "report",
    out: Annotated[Path | None, typer.Option("--out", help="Ergebnisordner; Vorgabe evals/results.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Ergebnisse als JSON auf stdout ausgeben.")] = False,
) -> None:
    """Eval-Suiten ausführen: Bericht (JSON, Markdown, Abbildungen) je Suite, Vergleich mit den Baselines."""
    # imported on use: plotting and data loading would slow every other command's start
    from evals.baselines import BaselineFileError
    from evals.run import build_settings, exit_code, outcomes_json, run_suites, select_suites
    from nodes.shared.llm import ProviderError

    try:
        suites = select_suites(suite)
        settings = build_settings(
            provider=provider, data_dir=data_dir, out=out, strictness=strictness, limit=limit, split=split
        )
    except (ValueError, SettingsError, ProviderError) as exc:  # UnknownSuite is a ValueError
        fail(escape(str(exc)), code=2)
    try:
        outcomes = run_suites(suites, settings, Console(stderr=True))
    except BaselineFileError as exc:
        fail(escape(str(exc)), code=2)
    if as_json:
        typer.echo(outcomes_json(outcomes))
    raise typer.Exit(exit_code(outcomes))


def _measure(
    run: Callable[[Tracker], dict[str, Any]],
    print_report: Callable[[dict[str, Any], Console], None],
    as_json: bool,
    failures: tuple[type[Exception], ...] = (),
) -> None:
    """Run a benchmark with progress bars on stderr, then print its report as tables or as one JSON object."""
    from evals.progress import tracker

    try:
        with tracker() as progress:
            report = run(progress)
    except failures as exc:
        fail(escape(str(exc)))
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False))
    else:
        print_report(report, console)


@bench_app.command("retrieval")
def bench_retrieval(
    data: Annotated[
        Path, typer.Option("--data", help="BEIR-Ordner (corpus.jsonl, queries.jsonl, qrels/*.tsv) oder SQuAD-JSON.")
    ] = Path("../shared/data/xquad_de/derived"),
    split: Annotated[str, typer.Option("--split", help="qrels-Split eines BEIR-Ordners (qrels/<split>.tsv).")] = "test",
    laws: Annotated[
        Path | None,
        typer.Option("--laws", help="kb_paragraphs.jsonl (Ingest-Zeit, Latenz); Standard: neben --data."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Ein JSON-Objekt statt Tabellen ausgeben.")] = False,
) -> None:
    """Retrieval messen: Recall@1/5/10, nDCG@10, MRR, Latenz für BM25-Baseline, sparse, dense, hybrid.

    Ablehnungs-Split (refusal_split_*.jsonl neben dem Korpus) und Gesetze-KB sind optional."""
    from evals.bench.retrieval import BenchmarkDataError, print_report, run_retrieval_benchmark

    settings = settings_or_exit()
    laws_path = laws or data.parent.parent / "de_gesetze" / "kb_paragraphs.jsonl"
    _measure(
        lambda progress: run_retrieval_benchmark(settings, data, laws_path, progress, split=split),
        print_report,
        as_json,
        failures=(BenchmarkDataError,),
    )


@bench_app.command("scale")
def bench_scale(
    passages: Annotated[str, typer.Option("--passages", help="Größen, kommagetrennt.")] = "1000,10000,100000",
    data_root: Annotated[Path, typer.Option("--data", help="Ordner der geteilten Daten (deutscher Text).")] = Path(
        "../shared/data"
    ),
    engines: Annotated[str, typer.Option("--engines", help="edge, qdrant-local, numpy.")] = "edge,qdrant-local,numpy",
    qdrant_local_max: Annotated[
        int, typer.Option("--qdrant-local-max", help="Größte Größe für qdrant-client lokal (Brute Force).")
    ] = 10_000,
    as_json: Annotated[bool, typer.Option("--json", help="Ein JSON-Objekt statt Tabellen ausgeben.")] = False,
) -> None:
    """Store-Kosten bei wachsender KB: Aufbauzeit, Passagen/s, Spitzenspeicher, Suche p50/p95 hybrid und sparse."""
    from evals.bench.data import BenchmarkDataError
    from evals.bench.scale import print_report, run_scale_benchmark

    try:
        sizes = [int(size) for size in passages.split(",") if size.strip()]
    except ValueError:
        fail(escape(f"--passages erwartet ganze Zahlen, kommagetrennt, nicht {passages!r}"), code=2)
    if not sizes or min(sizes) < 100:
        fail("--passages: jede Größe muss mindestens 100 sein", code=2)
    kinds = [e.strip() for e in engines.split(",") if e.strip()]
    _measure(
        lambda progress: run_scale_benchmark(
            sizes, data_root, progress, engines=kinds, qdrant_local_max=qdrant_local_max
        ),
        print_report,
        as_json,
        failures=(BenchmarkDataError,),
    )


@bench_app.command("answer")
def bench_answer(
    laws: Annotated[
        Path | None,
        typer.Option("--laws", help="Auch die Bundesgesetze-KB messen (kb_paragraphs.jsonl; dauert Minuten)."),
    ] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Höchstens so viele Fragen je KB.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Ein JSON-Objekt statt Tabellen ausgeben.")] = False,
) -> None:
    """Answer-Graph messen (sofort antwortendes Skript-LLM): Latenz, LLM-Aufrufe je Frage, Overhead.

    Ohne --laws nur die Demo-KB (unter einer Minute)."""
    from evals.bench.answer import print_report, run_answer_benchmark

    if laws is not None and not laws.is_file():
        fail(escape(f"{laws}: Datei nicht gefunden"), code=2)
    _measure(lambda progress: run_answer_benchmark(laws, limit, progress), print_report, as_json)


@bench_app.command("cli")
def bench_cli(
    runs: Annotated[int, typer.Option("--runs", min=1, max=50, help="Läufe je Befehl (Median).")] = 7,
    baseline: Annotated[
        Path | None,
        typer.Option("--baseline", help="Anderer Checkout (z. B. ein älterer Stand), abwechselnd mitgemessen."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Ein JSON-Objekt statt Tabellen ausgeben.")] = False,
) -> None:
    """Startzeit der Kommandozeile messen: belegt --help, belegt check, belegt ask --help (je eigener Prozess)."""
    from evals.bench.cli_start import print_report, run_cli_benchmark

    if baseline is not None and not (baseline / "evals" / "cli.py").is_file():
        fail(escape(f"{baseline}: kein belegt-Checkout (evals/cli.py fehlt)"), code=2)
    _measure(
        lambda progress: run_cli_benchmark(runs, progress, baseline), print_report, as_json, failures=(RuntimeError,)
    )


@bench_app.command("critic")
def bench_critic(
    claims: Annotated[int, typer.Option("--claims", min=1, max=50, help="Behauptungen, die das LLM prüft.")] = 5,
    delay: Annotated[float, typer.Option("--delay", min=0.0, help="Antwortzeit des Testservers je Aufruf, s.")] = 1.0,
    runs: Annotated[int, typer.Option("--runs", min=1, max=20, help="Läufe (Median).")] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Ein JSON-Objekt statt Tabellen ausgeben.")] = False,
) -> None:
    """Kritik-Latenz gegen einen lokalen Ollama-Testserver mit fester Antwortzeit: parallel gegen nacheinander."""
    from evals.bench.critic import print_report, run_critic_benchmark

    _measure(lambda progress: run_critic_benchmark(claims, delay, runs, progress), print_report, as_json)


def _fit_arguments(data_dir: Path | None, *, write: bool, as_json: bool) -> list[str]:
    """The fitting scripts' own arguments (they also run as ``python -m``)."""
    return [*(["--data-dir", str(data_dir)] if data_dir else []), *(["--write"] * write), *(["--json"] * as_json)]


@bench_app.command("calibration")
def bench_calibration(
    data_dir: Annotated[Path | None, typer.Option("--data-dir", help="Eval-Daten; Vorgabe ../shared/data.")] = None,
    write: Annotated[bool, typer.Option("--write", help="stores/vector/calibration.json neu schreiben.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Ein JSON-Objekt statt Text ausgeben.")] = False,
) -> None:
    """Relevanz-Kalibrierung über mehrere Datensätze anpassen: ROC AUC und ECE je ausgelassenem Datensatz."""
    from evals.bench.calibrate import main

    main(_fit_arguments(data_dir, write=write, as_json=as_json))


@bench_app.command("confidence")
def bench_confidence(
    data_dir: Annotated[Path | None, typer.Option("--data-dir", help="Eval-Daten; Vorgabe ../shared/data.")] = None,
    write: Annotated[bool, typer.Option("--write", help="nodes/answer/confidence.json neu schreiben.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Ein JSON-Objekt statt Text ausgeben.")] = False,
) -> None:
    """Antwort-Konfidenz auf den Dev-Splits anpassen: ROC AUC und ECE je Datensatz (angepasst und ausgelassen)."""
    from evals.bench.confidence import main

    main(_fit_arguments(data_dir, write=write, as_json=as_json))


app.command("eval")(run_evals)
app.add_typer(bench_app, name="bench")


def main() -> None:
    """The ``belegt`` entry point: the settings are checked before any command runs, ``--help`` included;
    whatever a command leaves unhandled ends as one German line."""
    try:
        load_settings()
    except SettingsError as exc:
        sys.stderr.write(f"Fehler: {exc}\n")
        raise SystemExit(2) from None
    run_guarded(app)


if __name__ == "__main__":
    main()
