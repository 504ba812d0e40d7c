"""A loopback HTTP server that speaks enough of Ollama's and Mistral's APIs to drive their real clients.

Every request is recorded (path + JSON body); replies come from a per-path script so tests can
provoke streaming answers, ``done_reason: length``, HTTP errors, malformed JSON and slow answers. When the
script for a path is empty, ``respond`` (if set) answers from the request itself: for graphs whose calls
depend on the prompt (the scan asks once per chunk, then once per finding).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted reply. ``status`` ≠ 200 sends an error; ``raw`` sends a body that is not JSON."""

    content: str = ""
    done_reason: str = "stop"
    status: int = 200
    raw: str | None = None
    delay_s: float = 0.0
    tool_calls: list[dict[str, Any]] | None = None
    hold_until_in_flight: int = 0  # answer only once this many requests are open at once (5 s at most)


@dataclass
class RecordedRequest:
    path: str
    body: dict[str, Any]


@dataclass
class FakeLLMServer:
    base_url: str = ""
    requests: list[RecordedRequest] = field(default_factory=list)
    script: dict[str, deque[Reply]] = field(default_factory=lambda: defaultdict(deque))
    respond: Callable[[str, dict[str, Any]], Reply] | None = None  # (path, body) → reply once the script is empty
    embedding_dim: int = 16
    max_in_flight: int = 0  # the most requests that were open at the same time
    _in_flight: int = 0
    _changed: threading.Condition = field(default_factory=threading.Condition)

    def queue(self, path: str, *replies: Reply) -> None:
        self.script[path].extend(replies)

    def next_reply(self, path: str, body: dict[str, Any]) -> Reply:
        queued = self.script[path]
        if queued:
            return queued.popleft()
        return self.respond(path, body) if self.respond is not None else Reply(content="OK")

    @contextmanager
    def responding(self, respond: Callable[[str, dict[str, Any]], Reply]) -> Iterator[None]:
        """Answer with ``respond`` for the duration of the block (a module-wide fake serves other tests too)."""
        self.respond = respond
        try:
            yield
        finally:
            self.respond = None

    def bodies(self, path: str) -> list[dict[str, Any]]:
        return [r.body for r in self.requests if r.path == path]

    @contextmanager
    def open_request(self, hold_until: int) -> Iterator[None]:
        with self._changed:
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
            self._changed.notify_all()
            if hold_until:
                self._changed.wait_for(lambda: self._in_flight >= hold_until, timeout=5.0)
        try:
            yield
        finally:
            with self._changed:
                self._in_flight -= 1


def fake_embedding(text: str, dim: int) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    raw = [digest[i % len(digest)] / 255.0 - 0.5 for i in range(dim)]
    norm = sum(v * v for v in raw) ** 0.5 or 1.0
    return [v / norm for v in raw]


def _handler(server_state: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_GET(self) -> None:
            self._send_json(200, {"models": [], "version": "0.30.0"})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            path = self.path
            server_state.requests.append(RecordedRequest(path=path, body=body))
            if path == "/api/embed":
                inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                embeddings = [fake_embedding(t, server_state.embedding_dim) for t in inputs]
                self._send_json(200, {"model": body["model"], "embeddings": embeddings})
                return
            if path == "/v1/embeddings":
                data = [
                    {
                        "object": "embedding",
                        "index": i,
                        "embedding": fake_embedding(t, server_state.embedding_dim),
                    }
                    for i, t in enumerate(body["input"])
                ]
                usage = {"prompt_tokens": 1, "total_tokens": 1}
                self._send_json(
                    200, {"id": "e", "object": "list", "data": data, "model": body["model"], "usage": usage}
                )
                return
            reply = server_state.next_reply(path, body)
            with server_state.open_request(reply.hold_until_in_flight):
                self._reply(path, body, reply)

        def _reply(self, path: str, body: dict[str, Any], reply: Reply) -> None:
            if reply.delay_s:
                time.sleep(reply.delay_s)
            if reply.status != 200:
                self._send_json(reply.status, {"error": f"scripted {reply.status}"})
                return
            if reply.raw is not None:
                self._send_raw(200, reply.raw.encode(), "application/json")
                return
            if path == "/api/chat":
                self._send_ollama_stream(body, reply)
            elif path == "/v1/chat/completions":
                self._send_mistral(body, reply)
            else:
                self._send_json(404, {"error": "unknown path"})

        def _send_ollama_stream(self, body: dict[str, Any], reply: Reply) -> None:
            frames: list[dict[str, Any]] = []
            words = reply.content.split(" ")
            for i, word in enumerate(words):
                piece = word if i == 0 else " " + word
                frames.append(
                    {
                        "model": body["model"],
                        "message": {"role": "assistant", "content": piece},
                        "done": False,
                    }
                )
            final: dict[str, Any] = {
                "model": body["model"],
                "message": {"role": "assistant", "content": ""},
                "done": True,
                "done_reason": reply.done_reason,
                "prompt_eval_count": 11,
                "eval_count": len(words),
            }
            if reply.tool_calls:
                final["message"]["tool_calls"] = [{"function": c} for c in reply.tool_calls]
            frames.append(final)
            payload = b"".join(json.dumps(f).encode() + b"\n" for f in frames)
            self._send_raw(200, payload, "application/x-ndjson")

        def _send_mistral(self, body: dict[str, Any], reply: Reply) -> None:
            message: dict[str, Any] = {"role": "assistant", "content": reply.content}
            if reply.tool_calls:
                message["tool_calls"] = [
                    {
                        "id": f"call{i}",
                        "type": "function",
                        "function": {**c, "arguments": json.dumps(c["arguments"])},
                    }
                    for i, c in enumerate(reply.tool_calls)
                ]
            self._send_json(
                200,
                {
                    "id": "cmpl-1",
                    "object": "chat.completion",
                    "model": body["model"],
                    "created": 0,
                    "choices": [{"index": 0, "message": message, "finish_reason": reply.done_reason}],
                    "usage": {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14},
                },
            )

        def _send_json(self, status: int, payload: dict[str, Any]) -> None:
            self._send_raw(status, json.dumps(payload).encode(), "application/json")

        def _send_raw(self, status: int, payload: bytes, content_type: str) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout tests); nothing left to tell it

    return Handler


@contextmanager
def running_fake_llm_server() -> Iterator[FakeLLMServer]:
    """Start the fake on a free loopback port for the duration of the block."""
    state = FakeLLMServer()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.base_url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
