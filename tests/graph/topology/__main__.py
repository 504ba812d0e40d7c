"""Rewrite the topology snapshots: ``.venv/bin/python -m tests.graph.topology``."""

from tests.graph.topology import write_all

for path in write_all():
    print(f"geschrieben: {path}")
