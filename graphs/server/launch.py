"""Start the stock LangGraph API server (``langgraph_api.server:app``) on one of two runtimes.

``embedded``: the in-memory runtime of ``langgraph dev`` (threads and runs kept in ``.langgraph_api/``).
``production``: ``langgraph-runtime-pg`` — threads, runs, checkpoints and the store in PostgreSQL, run
wake-ups and streams through Redis, ``server_jobs`` runs at once.

The server reads its configuration from environment variables at import time; this module derives them from
the settings and langgraph.json. It does not go through ``langgraph_api.cli.run_server`` because that one
always grants browsers private-network access, which we do not want.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from graphs.settings import Settings

Runtime = Literal["embedded", "production"]
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class LaunchError(Exception):
    """The settings do not allow this start; the message says which variable to change."""


def runtime_database_url(settings: Settings) -> str:
    url = settings.server_database_url or settings.database_url
    if url is None or not url.startswith(("postgresql://", "postgres://", "postgresql+")):
        raise LaunchError(
            "Die Produktions-Laufzeit braucht PostgreSQL: BELEGT_SERVER_DATABASE_URL oder BELEGT_DATABASE_URL "
            "auf postgresql://… setzen."
        )
    return url


def server_environment(settings: Settings, config: dict[str, Any], runtime: Runtime) -> dict[str, str]:
    """The environment ``langgraph_api`` reads: graphs, auth and limits from settings and langgraph.json."""
    if settings.dev_api_key is not None and (runtime == "production" or settings.server_host not in LOOPBACK_HOSTS):
        raise LaunchError(
            "BELEGT_DEV_API_KEY ist nur für die lokale Entwicklung (eingebettet, 127.0.0.1) gedacht; "
            "bitte entfernen und Schlüssel mit `belegt keys create` anlegen."
        )
    if runtime == "production":
        stores = {"LANGGRAPH_RUNTIME_EDITION": "pg", "DATABASE_URI": runtime_database_url(settings)}
        stores["REDIS_URI"] = settings.redis_url
        stores["LG_BG_JOB_HEARTBEAT"] = str(settings.server_heartbeat_s)
    else:
        stores = {"LANGGRAPH_RUNTIME_EDITION": "inmem", "DATABASE_URI": ":memory:", "REDIS_URI": "fake"}
        stores["MIGRATIONS_PATH"] = "__inmem"
    url = f"http://{settings.server_host}:{settings.server_port}"
    if http := config.get("http"):
        stores["LANGGRAPH_HTTP"] = json.dumps(http)
    return stores | {
        "LANGSERVE_GRAPHS": json.dumps(config["graphs"]),
        "LANGGRAPH_AUTH": json.dumps(config["auth"]),
        "LANGSMITH_LANGGRAPH_API_VARIANT": "local_dev",
        "LANGGRAPH_API_URL": url,
        "N_JOBS_PER_WORKER": str(settings.server_jobs),
        "LANGGRAPH_ALLOW_BLOCKING": "true",  # sync nodes and stores run in worker threads by design
        "LANGGRAPH_UI_BUNDLER": "false",
        "CORS_ALLOW_ORIGINS": ",".join(o.strip() for o in settings.server_cors_origins.split(",") if o.strip()),
        "ALLOW_PRIVATE_NETWORK": "false",
        "HTTP_MAX_REQUEST_BODY_BYTES": str(settings.server_max_body_bytes),
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
    }


def serve(settings: Settings, config_path: Path, runtime: Runtime) -> None:
    """Run the server in this process until it is stopped."""
    config = json.loads(config_path.read_text(encoding="utf-8"))
    environment = server_environment(settings, config, runtime)
    if runtime == "embedded":
        os.environ.pop("MIGRATIONS_PATH", None)
    os.environ.update(environment)
    import uvicorn  # imported late: the server reads the environment set above when it is imported

    uvicorn.run(
        "langgraph_api.server:app",
        host=settings.server_host,
        port=settings.server_port,
        access_log=False,
        lifespan="on",  # a failing start-up must stop the server, not be taken for "no lifespan"
        log_level=os.environ.get("BELEGT_SERVER_LOG_LEVEL", "warning"),
    )
