"""What an eval suite is, what it is given and what it hands back to the runner.

A suite reads its data, runs the real graphs or nodes over it and returns metrics (each with its sample
size), tables and plots. The runner (``evals.run``) owns everything around it: data checks, progress,
reports, baselines.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

from matplotlib.axes import Axes

from graphs.settings import Settings
from nodes.settings import ProviderName

T = TypeVar("T")
Split = Literal["dev", "report"]
REPO_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class RunSettings:
    """One eval run: the application settings (embedder, model names, endpoints) plus the run's own choices."""

    app: Settings
    provider: ProviderName
    data_dir: Path
    out: Path
    strictness: int | None = None
    limit: int | None = None
    split: Split = "report"
    """Which half of a question set with dev/report halves to run (tune on dev, report on report)."""

    @property
    def model(self) -> str:
        return self.app.model_for(self.provider)

    @property
    def llm_configured(self) -> bool:
        return self.provider != "extractive"


@dataclass(frozen=True)
class Metric:
    """One figure with the number of examples it was measured on; ``headline`` figures go into the README."""

    name: str
    value: float
    n: int
    description: str = ""
    headline: bool = False


@dataclass(frozen=True)
class Table:
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]


BUCKETS = ("delivered", "refused", "human_review")


def bucket_table(buckets: Mapping[int, Mapping[str, int]]) -> Table:
    """How many answers each strictness level delivered, refused or sent to review."""
    return Table(
        "Buckets je Stufe",
        ("Stufe", *BUCKETS),
        [(lv, *(counts.get(b, 0) for b in BUCKETS)) for lv, counts in buckets.items()],
    )


@dataclass(frozen=True)
class Plot:
    """A PNG the runner draws with matplotlib (Agg) into the run folder."""

    filename: str
    title: str
    draw: Callable[[Axes], None]


@dataclass(frozen=True)
class Dataset:
    name: str
    version: str
    examples: int


@dataclass
class SuiteResult:
    dataset: Dataset
    metrics: list[Metric]
    settings: dict[str, Any] = field(default_factory=dict)
    tables: list[Table] = field(default_factory=list)
    plots: list[Plot] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class Counter(Protocol):
    """Progress of work that reports its own size (the ingestion's ProgressReporter)."""

    def start(self, total: int) -> None: ...

    def advance(self, done: int) -> None: ...


class Tracker(Protocol):
    """Progress display: shows done/total with the time remaining."""

    def track(self, items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]: ...

    def counter(self, description: str) -> AbstractContextManager[Counter]: ...


@dataclass(frozen=True)
class SuiteContext:
    settings: RunSettings
    progress: Tracker

    def data(self, relative: str) -> Path:
        return self.settings.data_dir / relative

    def limited(self, items: Sequence[T]) -> list[T]:
        """The run's ``--limit`` applied: evenly spread over the items, so every part of the data is seen."""
        return evenly_spread(items, self.settings.limit)


@dataclass(frozen=True)
class Suite:
    """``requires``: paths below the data dir; ``requires_repo``: paths below the repository root."""

    name: str
    description: str
    run: Callable[[SuiteContext], SuiteResult]
    requires: tuple[str, ...] = ()
    requires_repo: tuple[str, ...] = ()

    def missing(self, data_dir: Path) -> list[Path]:
        wanted = [data_dir / p for p in self.requires] + [REPO_ROOT / p for p in self.requires_repo]
        return [path for path in wanted if not path.exists()]


def evenly_spread(items: Sequence[T], limit: int | None) -> list[T]:
    """``limit`` items at evenly spaced positions (all of them without a limit); deterministic."""
    if limit is None or limit >= len(items):
        return list(items)
    return [items[i * len(items) // limit] for i in range(limit)]


def stratified(groups: Sequence[Sequence[T]], limit: int | None) -> list[list[T]]:
    """Apply ``limit`` across groups in proportion to their sizes, at least one item per non-empty group."""
    if limit is None:
        return [list(g) for g in groups]
    total = sum(len(g) for g in groups)
    return [evenly_spread(g, max(1, round(limit * len(g) / total)) if g else 0) for g in groups]


def dataset_version(*paths: Path) -> str:
    """Content hash of the files (folders: every file below them, in path order): the dataset's version."""
    digest = hashlib.sha256()
    for path in paths:
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            digest.update(file.name.encode())
            digest.update(file.read_bytes())
    return f"sha256:{digest.hexdigest()[:12]}"


def rate(hits: int, total: int) -> float:
    return round(hits / total, 4) if total else 0.0
