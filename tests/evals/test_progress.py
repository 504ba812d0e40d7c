"""Progress of suites and benchmarks: a live bar on a terminal, one line per step in a log or a pipe."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console

from evals.answering import ingest_step
from evals.progress import tracker
from evals.suite import Counter


def test_a_log_gets_a_line_when_each_step_starts_and_ends() -> None:
    log = io.StringIO()
    with tracker(Console(file=log, width=200)) as progress:
        assert list(progress.track(range(3), "Fragen beantworten")) == [0, 1, 2]
        with progress.counter("KB einlesen") as bar:
            bar.start(2)
            bar.advance(2)
    lines = log.getvalue().splitlines()
    assert lines[0] == "Fragen beantworten (3) …"
    assert lines[1].startswith("Fragen beantworten: fertig nach ")
    assert lines[2] == "KB einlesen …" and lines[3].startswith("KB einlesen: fertig nach ")


def test_a_terminal_gets_the_live_bar_only() -> None:
    screen = io.StringIO()
    with tracker(Console(file=screen, width=200, force_terminal=True)) as progress:
        list(progress.track(range(2), "Fragen beantworten"))
    assert "fertig nach" not in screen.getvalue()


def test_the_ingest_step_ends_when_the_ingest_does_and_the_kb_stays_open() -> None:
    log = io.StringIO()
    events: list[str] = []

    @contextmanager
    def open_kb(bar: Counter) -> Iterator[str]:
        bar.start(1)
        bar.advance(1)
        events.append("ingested")
        yield "kb"
        events.append("closed")

    with tracker(Console(file=log, width=200)) as progress:
        with ingest_step(progress, "KB einlesen", open_kb) as kb:
            events.append(f"step ended: {'fertig nach' in log.getvalue()}")
            list(progress.track([kb], "Fragen beantworten"))
    assert events == ["ingested", "step ended: True", "closed"]
    lines = log.getvalue().splitlines()
    assert lines[1].startswith("KB einlesen: fertig nach ") and lines[2] == "Fragen beantworten (1) …"
