"""Drawing functions for the suites' plots; each returns what ``Plot.draw`` expects (it fills given axes)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from matplotlib.axes import Axes

from evals.suite import Plot

Draw = Callable[[Axes], None]


def line_chart(
    series: Mapping[str, Sequence[float]], x: Sequence[float], *, xlabel: str, ylabel: str, ylim: tuple[float, float]
) -> Draw:
    def draw(axes: Axes) -> None:
        for label, values in series.items():
            axes.plot(list(x), list(values), marker="o", label=label)
        axes.set_xlabel(xlabel)
        axes.set_ylabel(ylabel)
        axes.set_xticks(list(x))
        axes.set_ylim(*ylim)
        axes.grid(alpha=0.3)
        axes.legend()

    return draw


def share_plot(
    filename: str, title: str, series: Mapping[str, Sequence[float]], x: Sequence[float], *, xlabel: str, ylabel: str
) -> Plot:
    """Lines of shares (0–1) over ``x``, one per series."""
    return Plot(filename, title, line_chart(series, x, xlabel=xlabel, ylabel=ylabel, ylim=(0.0, 1.0)))


def grouped_bars(groups: Sequence[str], series: Mapping[str, Sequence[float]], *, ylabel: str) -> Draw:
    def draw(axes: Axes) -> None:
        width = 0.8 / max(1, len(series))
        for offset, (label, values) in enumerate(series.items()):
            positions = [i + offset * width - 0.4 + width / 2 for i in range(len(groups))]
            axes.bar(positions, list(values), width=width, label=label)
        axes.set_xticks(range(len(groups)), list(groups), rotation=20, ha="right")
        axes.set_ylabel(ylabel)
        axes.set_ylim(0, 1.05)
        axes.grid(axis="y", alpha=0.3)
        axes.legend()

    return draw


def confusion_matrix(labels: Sequence[str], counts: Sequence[Sequence[int]], *, xlabel: str, ylabel: str) -> Draw:
    """Rows: expected label, columns: predicted label; each cell shows its count."""

    def draw(axes: Axes) -> None:
        axes.imshow([list(row) for row in counts], cmap="Blues")
        axes.set_xticks(range(len(labels)), list(labels))
        axes.set_yticks(range(len(labels)), list(labels))
        axes.set_xlabel(xlabel)
        axes.set_ylabel(ylabel)
        peak = max((max(row) for row in counts if row), default=0)
        for i, row in enumerate(counts):
            for j, count in enumerate(row):
                colour = "white" if peak and count > peak / 2 else "black"
                axes.text(j, i, str(count), ha="center", va="center", color=colour)

    return draw
