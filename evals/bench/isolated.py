"""Run one measurement in a fresh process: its peak memory is its own, and process-wide settings (OpenMP
thread counts, loaded models) cannot leak from one configuration into the next."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from evals.bench.data import BenchmarkDataError


def _child(measure: Callable[..., dict[str, Any]], args: tuple[Any, ...], connection: Any) -> None:
    connection.send(measure(*args))
    connection.close()


@contextmanager
def _environment(variables: Mapping[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in variables}
    os.environ.update(variables)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def measure_in_child(
    measure: Callable[..., dict[str, Any]], *args: Any, what: str, environment: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """``measure(*args)`` in a spawned process (``measure`` must be a module-level function); ``what`` names
    the run in the error raised when the child dies without an answer. ``environment`` is set for the child
    from its start (libraries such as OpenBLAS read their thread count when they load)."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(measure, args, sender))
    with _environment(environment or {}):
        child.start()
    sender.close()
    try:
        result: dict[str, Any] = receiver.recv()
    except EOFError:
        child.join()  # the exit code is known only once the child is reaped
        raise BenchmarkDataError(f"{what} abgebrochen (Exit-Code {child.exitcode})") from None
    finally:
        child.join()
    return result
