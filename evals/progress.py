"""Progress bars with the time remaining, for every eval suite and benchmark step that takes more than a moment.

Bars go to stderr and vanish when done, so ``--json`` output on stdout stays clean.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sized
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from rich.console import Console
from rich.progress import Progress, TaskID

from evals.suite import Counter
from graphs.cli.runtime import progress_bar

T = TypeVar("T")


@contextmanager
def progress_display(console: Console | None = None) -> Iterator[Progress]:
    """The CLI's progress display, on stderr unless a console is given."""
    with progress_bar(console or Console(stderr=True)) as progress:
        yield progress


@contextmanager
def tracker(console: Console | None = None) -> Iterator[RichTracker]:
    with progress_display(console) as progress:
        yield RichTracker(progress)


class RichTracker:
    """One progress task per tracked loop, with done/total, elapsed time and the estimate of what remains."""

    def __init__(self, progress: Progress) -> None:
        self._progress = progress

    def track(self, items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
        if total is None and isinstance(items, Sized):
            total = len(items)
        task = self._start(description, total)
        try:
            for item in items:
                yield item
                self._progress.advance(task)
        finally:
            self._finish(task)

    @contextmanager
    def counter(self, description: str) -> Iterator[Counter]:
        task = self._start(description, None)
        try:
            yield _TaskCounter(self._progress, task)
        finally:
            self._finish(task)

    def _start(self, description: str, total: int | None) -> TaskID:
        if not self._progress.console.is_terminal:  # a log or a pipe shows no live bar: one line per step instead
            size = f" ({total})" if total is not None else ""
            self._progress.console.print(f"{description}{size} …", soft_wrap=True)
        return self._progress.add_task(description, total=total)

    def _finish(self, task: TaskID) -> None:
        self._progress.update(task, visible=False)
        if not self._progress.console.is_terminal:
            state = self._progress.tasks[task]
            self._progress.console.print(f"{state.description}: fertig nach {state.elapsed or 0:.1f} s", soft_wrap=True)


@dataclass(frozen=True)
class _TaskCounter:
    progress: Progress
    task: TaskID

    def start(self, total: int) -> None:
        self.progress.update(self.task, total=total, completed=0)

    def advance(self, done: int) -> None:
        self.progress.advance(self.task, done)
