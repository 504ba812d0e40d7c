"""Run one measurement in a fresh process: its peak memory is its own, and process-wide settings (OpenMP
thread counts, loaded models) cannot leak from one configuration into the next."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any

from evals.bench.data import BenchmarkDataError


def _child(measure: Callable[..., dict[str, Any]], args: tuple[Any, ...], connection: Any) -> None:
    connection.send(measure(*args))
    connection.close()


def measure_in_child(measure: Callable[..., dict[str, Any]], *args: Any, what: str) -> dict[str, Any]:
    """``measure(*args)`` in a spawned process (``measure`` must be a module-level function); ``what`` names
    the run in the error raised when the child dies without an answer."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(measure, args, sender))
    child.start()
    sender.close()
    try:
        result: dict[str, Any] = receiver.recv()
    except EOFError:
        raise BenchmarkDataError(f"{what} abgebrochen (Exit-Code {child.exitcode})") from None
    finally:
        child.join()
    return result
