"""Latency is measured from wall-clock time, so a run resumed in another worker process still adds up."""

from __future__ import annotations

import time
from typing import Any

from nodes.answer.finalize import finalize_answer
from nodes.answer.services import StaticServices
from nodes.answer.state import AnswerState


class _Records:
    def __init__(self) -> None:
        self.written: list[dict[str, Any]] = []

    def write(self, record: dict[str, Any]) -> None:
        self.written.append(record)


def test_a_run_started_elsewhere_reports_the_time_since_its_start(services: StaticServices) -> None:
    records = _Records()
    services.answer_records = records
    # started 1.5 s ago, as another worker would have recorded it before the run was resumed here
    state: AnswerState = {"question": "?", "error": "Die Frage ist leer.", "started_at": time.time() - 1.5}
    output = finalize_answer(state, services=services)
    assert 1500 <= output["latency_ms"] < 60_000
    assert records.written[0]["latency_ms"] == output["latency_ms"]
