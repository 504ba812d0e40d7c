"""``belegt bench scale`` on a tiny German data root: passages, queries, figures per engine, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from evals.bench.scale import TENANTS, german_sentences, measure, scale_passages, scale_queries
from evals.cli import bench_scale
from tests.kb_support import write_jsonl

SENTENCES = [
    f"Der Arbeitgeber gewährt im Fall {n} einen Zuschuss von {n} Euro für die Beschäftigten." for n in range(300)
]


@pytest.fixture
def data_root(tmp_path: Path) -> Path:
    laws = [{"text": " ".join(SENTENCES[n : n + 3])} for n in range(0, 150, 3)]
    (tmp_path / "de_gesetze").mkdir()
    write_jsonl(tmp_path / "de_gesetze" / "kb_paragraphs.jsonl", laws)
    corpus = [{"text": " ".join(SENTENCES[n : n + 3])} for n in range(150, 300, 3)]
    (tmp_path / "xquad_de" / "derived").mkdir(parents=True)
    write_jsonl(tmp_path / "xquad_de" / "derived" / "corpus.jsonl", corpus)
    (tmp_path / "at_gesetze_lawat" / "files").mkdir(parents=True)
    (tmp_path / "at_gesetze_lawat" / "files" / "x.md").write_text("# Titel\nKurz.", encoding="utf-8")
    return tmp_path


def test_passages_and_queries_are_german_text_and_deterministic(data_root: Path) -> None:
    sentences = german_sentences(data_root)
    assert sorted(sentences) == sorted(SENTENCES)
    passages = scale_passages(sentences, 50)
    assert passages == scale_passages(sentences, 50) and len({p.text for p in passages}) == 50
    assert {p.payload["tenant"] for p in passages} == {f"t{n}" for n in range(TENANTS)}
    queries = scale_queries(sentences)
    assert len(queries) == 100 and all(6 <= len(q.split()) <= 10 for q in queries)


@pytest.mark.parametrize("kind", ["edge", "numpy"])
def test_measure_reports_build_memory_and_latency(kind: str, data_root: Path) -> None:
    figures = measure(kind, 200, data_root)
    assert figures["build_s"] >= 0 and figures["peak_rss_mb"] > 0
    searches = ["dense"] if kind == "numpy" else ["hybrid", "sparse"]
    for search in searches:
        assert 0 < figures[search]["p50_ms"] <= figures[search]["p95_ms"]


def test_bad_sizes_are_a_german_error(tmp_path: Path) -> None:
    cli = typer.Typer()
    cli.command("scale")(bench_scale)
    cli.command("other")(lambda: None)
    result = CliRunner().invoke(cli, ["scale", "--passages", "1000,zehn"])
    assert result.exit_code == 2 and "ganze Zahlen" in result.output
    result = CliRunner().invoke(cli, ["scale", "--passages", "1000", "--data", str(tmp_path)])
    assert result.exit_code == 1 and "Datei fehlt" in result.output
