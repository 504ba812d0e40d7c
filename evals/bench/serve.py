"""Load benchmark of the served answer graph on loopback: throughput, p50, p95 and errors per concurrency.

Run ``python -m evals.bench.serve [--runtime embedded|production|both] [--requests-per-level N] [--json]``.
For each runtime it ingests the demo KB into a temporary folder, starts ``belegt serve`` (``--prod``: its own
PostgreSQL database, dropped afterwards, and Redis), creates two bots with API keys and sends stateless
``/runs/wait`` requests with the extractive provider at concurrency 1, 4, 16 and 64. ``graph_p50_ms`` is the
graph's own ``latency_ms``; ``overhead_p50_ms`` is what the server adds at concurrency 1.

Hung-provider scenario: a loopback socket accepts LLM requests and never answers; one tenant starts 4 runs
against it, and meanwhile another tenant's extractive runs are timed and compared with their latency alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langgraph_sdk import get_client
from langgraph_sdk.client import LangGraphClient
from rich.console import Console
from rich.table import Table

from evals.bench.retrieval import latency_figures
from evals.bench.served import REPO, ServedApi, bot_with_keys, ingest_into
from graphs.server.launch import Runtime

LEVELS = (1, 4, 16, 64)
HUNG_RUNS = 4
QUESTIONS = (
    "Wie viele Urlaubstage habe ich in Vollzeit?",
    "Wann wird das Gehalt überwiesen?",
    "Wie hoch ist die Verpflegungspauschale bei Dienstreisen?",
    "Wie beantrage ich Elternzeit?",
    "Welche Kernarbeitszeit gilt?",
    "Gibt es einen Zuschuss zum Jobticket?",
)


class HungProvider:
    """Accepts connections and never answers: an LLM endpoint that hangs."""

    def __init__(self) -> None:
        self._socket = socket.socket()
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(64)
        self._held: list[socket.socket] = []
        self.url = f"http://127.0.0.1:{self._socket.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self._socket.accept()
            except OSError:
                return
            self._held.append(connection)

    def close(self) -> None:
        self._socket.close()
        for connection in self._held:
            connection.close()


async def timed_run(client: LangGraphClient, question: str, context: dict[str, Any]) -> tuple[float, int | None]:
    """Seconds for one stateless run and the graph's own latency_ms; None as latency marks an error."""
    started = time.perf_counter()
    try:
        output = await client.runs.wait(None, "answer", input={"question": question}, context=context)
    except Exception:  # every failure counts as an error, whatever layer raised it
        return time.perf_counter() - started, None
    seconds = time.perf_counter() - started
    if not isinstance(output, dict) or output.get("bucket") not in ("delivered", "refused", "human_review"):
        return seconds, None
    return seconds, int(output["latency_ms"])


async def load_level(client: LangGraphClient, concurrency: int, requests: int) -> dict[str, Any]:
    gate = asyncio.Semaphore(concurrency)

    async def one(index: int) -> tuple[float, int | None]:
        async with gate:
            return await timed_run(client, QUESTIONS[index % len(QUESTIONS)], {})

    started = time.perf_counter()
    results = await asyncio.gather(*(one(i) for i in range(requests)))
    wall = time.perf_counter() - started
    ok = [seconds for seconds, latency in results if latency is not None]
    graph = [latency for _, latency in results if latency is not None]
    return {
        "concurrency": concurrency,
        "requests": requests,
        "errors": requests - len(ok),
        "throughput_rps": round(len(ok) / wall, 2),
        **(latency_figures(ok) if ok else {"p50_ms": None, "p95_ms": None}),
        "graph_p50_ms": statistics.median(graph) if graph else None,
    }


async def hung_scenario(url: str, extractive_key: str, hung_key: str, runs: int) -> dict[str, Any]:
    """The extractive tenant alone, then again while the other tenant's 4 runs wait on a hung provider."""
    client = get_client(url=url, api_key=extractive_key)
    hung_client = get_client(url=url, api_key=hung_key)
    alone = await load_level(client, 4, runs)
    hung = [asyncio.create_task(timed_run(hung_client, QUESTIONS[i], {"provider": "ollama"})) for i in range(HUNG_RUNS)]
    await asyncio.sleep(1.0)  # the hung runs have reached their LLM call
    during = await load_level(client, 4, runs)
    for task in hung:
        task.cancel()
    await asyncio.gather(*hung, return_exceptions=True)
    ratio = during["p50_ms"] / alone["p50_ms"] if during["p50_ms"] and alone["p50_ms"] else None
    return {"alone": alone, "during_hung_provider": during, "p50_ratio": round(ratio, 2) if ratio else None}


async def measure(api: ServedApi, keys: Sequence[str], requests: int) -> dict[str, Any]:
    client = get_client(url=api.url, api_key=keys[0])
    await timed_run(client, QUESTIONS[0], {})  # warm-up: first retrieval opens the stores
    levels = [await load_level(client, c, max(requests, 2 * c)) for c in LEVELS]
    single = levels[0]
    overhead = single["p50_ms"] - single["graph_p50_ms"] if single["p50_ms"] and single["graph_p50_ms"] else None
    return {
        "levels": levels,
        "overhead_p50_ms": round(overhead, 1) if overhead is not None else None,
        "hung_provider": await hung_scenario(api.url, keys[0], keys[1], requests),
    }


def bench_runtime(runtime: Runtime, requests: int, postgres_url: str, redis_url: str) -> dict[str, Any]:
    provider = HungProvider()
    with tempfile.TemporaryDirectory(prefix="belegt-serve-bench-") as folder:
        data_dir = Path(folder)
        ingest_into(data_dir, REPO / "demo" / "kb", "demo")
        keys = [
            *bot_with_keys(data_dir, "hr-demo", "demo", ("user",)),
            *bot_with_keys(data_dir, "hr-other", "demo", ("user",)),
        ]
        env = {
            "BELEGT_OLLAMA_BASE_URL": provider.url,
            "BELEGT_REQUEST_TIMEOUT_S": "60",
            "BELEGT_SERVER_RATE_LIMIT_PER_MINUTE": "1000000",
            "BELEGT_SERVER_RATE_LIMIT_BURST": "100000",
        }
        api = ServedApi(data_dir, runtime, postgres_url=postgres_url, redis_url=redis_url, extra_env=env)
        try:
            with api:
                figures = asyncio.run(measure(api, keys, requests))
        finally:
            provider.close()
    return {"runtime": runtime, "server_jobs": 8, **figures}


def print_report(report: dict[str, Any], console: Console) -> None:
    table = Table("Laufzeit", "Parallel", "Anfragen", "Fehler", "Durchsatz/s", "p50 ms", "p95 ms", "Graph p50 ms")
    for result in report["runtimes"]:
        for level in result["levels"]:
            table.add_row(
                result["runtime"],
                str(level["concurrency"]),
                str(level["requests"]),
                str(level["errors"]),
                f"{level['throughput_rps']}",
                f"{level['p50_ms']}",
                f"{level['p95_ms']}",
                f"{level['graph_p50_ms']}",
            )
    console.print(table)
    for result in report["runtimes"]:
        hung = result["hung_provider"]
        console.print(
            f"{result['runtime']}: Overhead bei 1 paralleler Anfrage {result['overhead_p50_ms']} ms; "
            f"mit {HUNG_RUNS} hängenden LLM-Aufrufen p50 {hung['during_hung_provider']['p50_ms']} ms statt "
            f"{hung['alone']['p50_ms']} ms (×{hung['p50_ratio']}), Fehler {hung['during_hung_provider']['errors']}"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runtime", choices=("embedded", "production", "both"), default="both")
    parser.add_argument("--requests-per-level", type=int, default=24, help="at least 2x the concurrency is sent")
    parser.add_argument("--postgres-url", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    args = parser.parse_args(argv)
    runtimes: list[Runtime] = ["embedded", "production"] if args.runtime == "both" else [args.runtime]
    report = {
        "runtimes": [bench_runtime(r, args.requests_per_level, args.postgres_url, args.redis_url) for r in runtimes]
    }
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print_report(report, Console())


if __name__ == "__main__":
    main()
