"""The process-wide Qdrant client: local mode (a folder) by default, a server or cluster with ``qdrant_url``.

Local mode holds an exclusive file lock on its folder, so one process owns it; reuse the client.
"""

from __future__ import annotations

from typing import Any

from qdrant_client import QdrantClient

from stores.settings import StoreSettings


def open_qdrant(settings: StoreSettings) -> QdrantClient:
    """Open the configured Qdrant; the folder is created for local mode."""
    if settings.qdrant_url:
        api_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        return QdrantClient(url=settings.qdrant_url, api_key=api_key)
    path = settings.resolved_qdrant_path
    path.mkdir(parents=True, exist_ok=True)
    return QdrantClient(path=str(path))


def collection_layout(settings: StoreSettings) -> dict[str, Any]:
    """Cluster parameters passed through at collection creation (local mode ignores them)."""
    layout: dict[str, Any] = {}
    if settings.qdrant_shard_number is not None:
        layout["shard_number"] = settings.qdrant_shard_number
    if settings.qdrant_replication_factor is not None:
        layout["replication_factor"] = settings.qdrant_replication_factor
    if settings.qdrant_write_consistency_factor is not None:
        layout["write_consistency_factor"] = settings.qdrant_write_consistency_factor
    return layout


def describe_qdrant(settings: StoreSettings) -> str:
    if settings.qdrant_url:
        return f"server {settings.qdrant_url}"
    return f"lokal {settings.resolved_qdrant_path}"
