"""A measurement in a child process: its answer comes back, its environment is its own, a crash is an error."""

from __future__ import annotations

import os
from typing import Any

import pytest

from evals.bench.data import BenchmarkDataError
from evals.bench.isolated import measure_in_child

VARIABLE = "BELEGT_TEST_ISOLATED"


def child_environment(name: str) -> dict[str, Any]:
    return {"value": os.environ.get(name), "pid": os.getpid()}


def child_crash() -> dict[str, Any]:
    os._exit(3)


def test_the_child_sees_its_environment_and_the_parent_keeps_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(VARIABLE, "parent")
    answer = measure_in_child(child_environment, VARIABLE, what="Umgebung", environment={VARIABLE: "child"})
    assert answer["value"] == "child" and answer["pid"] != os.getpid()
    assert os.environ[VARIABLE] == "parent"
    monkeypatch.delenv(VARIABLE)
    assert measure_in_child(child_environment, VARIABLE, what="Umgebung")["value"] is None


def test_a_child_that_dies_is_a_german_error() -> None:
    with pytest.raises(BenchmarkDataError, match="Absturz abgebrochen .Exit-Code 3"):
        measure_in_child(child_crash, what="Absturz")
