"""Critique latency with a remote-like provider: N claims, each model call answered after a fixed delay.

Run ``belegt bench critic [--claims 5] [--delay 1.0] [--runs 3] [--json]``. A loopback server speaks
Ollama's ``/api/chat`` and answers every request after ``--delay`` seconds; the real ChatOllama client
talks to it. The answer critic's parallel round (``ask_critic_parallel``) is timed side by side with the
same claims asked one after another, the way the critic worked before.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from rich.console import Console
from rich.table import Table

from evals.suite import Tracker
from nodes.answer.critique import ask_critic, ask_critic_parallel
from nodes.settings import ModelSettings
from nodes.shared.llm import create_chat_model
from nodes.shared.strictness import get_strictness_config
from stores.kb.models import Hit

VERDICT = json.dumps({"verdict": "supported", "confidence": 0.9, "reason": "belegt"})


@contextmanager
def slow_ollama(delay_s: float) -> Iterator[str]:
    """A loopback Ollama that answers every chat request with one supported verdict after ``delay_s``."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
            time.sleep(delay_s)
            frame = {
                "model": body.get("model", ""),
                "message": {"role": "assistant", "content": VERDICT},
                "done": True,
                "done_reason": "stop",
            }
            payload = json.dumps(frame).encode() + b"\n"
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def run_critic_benchmark(claims: int, delay_s: float, runs: int, progress: Tracker) -> dict[str, Any]:
    texts: list[tuple[str, list[Hit]]] = [
        (f"Regel {n} gilt ab dem 1. Januar 2026 [hr-reg-{n:02d}].", []) for n in range(1, claims + 1)
    ]
    seconds: dict[str, list[float]] = {"parallel": [], "sequential": []}
    with slow_ollama(delay_s) as base_url:
        model = create_chat_model("ollama", get_strictness_config(3), ModelSettings(ollama_base_url=base_url))
        for _ in progress.track(range(runs), "Kritik parallel und nacheinander"):
            start = time.perf_counter()
            parallel = ask_critic_parallel(texts, model, "ollama")
            seconds["parallel"].append(time.perf_counter() - start)
            start = time.perf_counter()
            sequential = [ask_critic(claim, hits, model, "ollama") for claim, hits in texts]
            seconds["sequential"].append(time.perf_counter() - start)
            if any(v.verdict != "supported" for v, _ in [*parallel, *sequential]):
                raise RuntimeError("Der Kritiker hat die Antwort des Testservers nicht gelesen.")
    medians = {name: round(statistics.median(values), 3) for name, values in seconds.items()}
    return {
        "claims": claims,
        "delay_per_call_s": delay_s,
        "runs": runs,
        "median_s": medians,
        "speedup": round(medians["sequential"] / medians["parallel"], 2),
    }


def print_report(report: dict[str, Any], console: Console) -> None:
    table = Table("Kritik", "Behauptungen", "Verzögerung je Aufruf s", "Median s")
    for name, seconds in report["median_s"].items():
        label = "parallel (jetzt)" if name == "parallel" else "nacheinander (vorher)"
        table.add_row(label, str(report["claims"]), str(report["delay_per_call_s"]), str(seconds))
    console.print(table)
    console.print(f"Beschleunigung: {report['speedup']}× (Median aus {report['runs']} Läufen)")
