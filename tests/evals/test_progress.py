"""Progress of suites and benchmarks: a live bar on a terminal, one line per step in a log or a pipe."""

from __future__ import annotations

import io

from rich.console import Console

from evals.progress import tracker


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
