"""``belegt bench retrieval --json`` on a tiny XQuAD-shaped data set (the real run is a script, not a test)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from evals.bench.answer import limited
from evals.cli import bench_answer, bench_cli, bench_retrieval
from tests.kb_support import write_jsonl

TOPICS = [
    ("Urlaub", "Beschäftigte erhalten 30 Urlaubstage im Jahr."),
    ("Dienstwagen", "Die Privatnutzung wird mit 1 % des Listenpreises versteuert."),
    ("Kantine", "Die Kantine öffnet um 11:30 Uhr."),
    ("Jobticket", "Das Deutschlandticket wird voll bezahlt."),
    ("Elternzeit", "Elternzeit ist sieben Wochen vorher anzumelden."),
    ("Reisekosten", "Pro Kilometer werden 0,30 € erstattet."),
    ("Weihnachtsgeld", "Das Weihnachtsgeld beträgt 55 % eines Monatsgehalts."),
    ("Probezeit", "Die Probezeit dauert sechs Monate."),
    ("Altersteilzeit", "Die Aufstockung beträgt 28,5 % des Regelentgelts."),
    ("Zeitkonto", "Das Zeitkonto erlaubt 40 Plusstunden."),
    ("Bildungsurlaub", "Es gibt fünf Tage Bildungsurlaub."),
    ("Rufbereitschaft", "Rufbereitschaft wird mit 30 € am Tag vergütet."),
]
QUESTIONS = {
    "Urlaub": "Wie viele Urlaubstage gibt es?",
    "Dienstwagen": "Wie wird der Dienstwagen versteuert?",
    "Kantine": "Wann öffnet die Kantine?",
    "Jobticket": "Wird das Deutschlandticket bezahlt?",
    "Elternzeit": "Wann muss Elternzeit angemeldet werden?",
    "Reisekosten": "Was wird pro Kilometer erstattet?",
    "Weihnachtsgeld": "Wie hoch ist das Weihnachtsgeld?",
    "Probezeit": "Wie lange dauert die Probezeit?",
    "Altersteilzeit": "Wie hoch ist die Aufstockung in der Altersteilzeit?",
    "Zeitkonto": "Wie viele Plusstunden erlaubt das Zeitkonto?",
    "Bildungsurlaub": "Wie viele Tage Bildungsurlaub gibt es?",
    "Rufbereitschaft": "Wie wird Rufbereitschaft vergütet?",
}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    derived = tmp_path / "xquad_de" / "derived"
    derived.mkdir(parents=True)
    corpus = [{"_id": f"p{i}", "title": title, "text": text} for i, (title, text) in enumerate(TOPICS)]
    queries = [
        {"_id": f"q{i}", "text": QUESTIONS[title], "article": title, "gold_passage": f"p{i}"}
        for i, (title, _) in enumerate(TOPICS)
    ]
    held_out = {sorted(QUESTIONS)[0], sorted(QUESTIONS)[6]}  # one article in each fold
    write_jsonl(derived / "corpus.jsonl", corpus)
    write_jsonl(derived / "queries.jsonl", queries)
    write_jsonl(derived / "refusal_split_kb_corpus.jsonl", [c for c in corpus if c["title"] not in held_out])
    write_jsonl(
        derived / "refusal_split_queries.jsonl",
        [{**q, "answerable_in_kb": q["article"] not in held_out} for q in queries],
    )
    laws = tmp_path / "de_gesetze"
    laws.mkdir()
    write_jsonl(
        laws / "kb_paragraphs.jsonl",
        [
            {
                "id": "AGG §1",
                "law": "AGG",
                "law_title": "Gleichbehandlungsgesetz",
                "heading": "§ 1 Ziel",
                "text": "Ziel.",
                "source": "bundestag/gesetze:agg/index.md",
            },
            {
                "id": "GG Art1",
                "law": "GG",
                "law_title": "Grundgesetz",
                "heading": "Art 1",
                "text": "Die Würde.",
                "source": "bundestag/gesetze:gg/index.md",
            },
        ],
    )
    return derived


def test_bench_retrieval_prints_one_json_object(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")
    cli = typer.Typer()
    cli.command("retrieval")(bench_retrieval)
    cli.command("other")(lambda: None)  # keeps 'retrieval' a sub-command
    result = CliRunner().invoke(cli, ["retrieval", "--data", str(data), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)  # progress lines go to stderr
    assert report["dataset"] == "xquad_de"
    assert set(report["methods"]) == {"bm25_baseline", "sparse"}  # no dense without an embedder
    for figures in report["methods"].values():
        assert set(figures) == {"recall@1", "recall@5", "recall@10", "ndcg@10", "mrr", "p50_ms", "p95_ms"}
        assert 0.0 <= figures["recall@1"] <= figures["recall@5"] <= figures["recall@10"] <= 1.0
    assert report["methods"]["sparse"]["recall@1"] >= 0.75
    assert 0.0 <= report["refusal"]["roc_auc"] <= 1.0 and report["refusal"]["unanswerable"] == 1
    assert report["laws"]["entries"] == 2 and report["laws"]["queries"] == 2
    tables = CliRunner().invoke(cli, ["retrieval", "--data", str(data)], terminal_width=200)
    assert tables.exit_code == 0, tables.output
    assert "bm25_baseline" in tables.output and "Ablehnung: ROC AUC" in tables.output
    assert "Gesetze-KB: 2 Einträge" in tables.output


def test_missing_data_is_a_german_error(tmp_path: Path) -> None:
    cli = typer.Typer()
    cli.command("retrieval")(bench_retrieval)
    cli.command("other")(lambda: None)
    result = CliRunner().invoke(cli, ["retrieval", "--data", str(tmp_path / "fehlt")])
    assert result.exit_code == 1 and "Datei fehlt" in result.output


def run_bench(*args: str) -> dict[str, object]:
    cli = typer.Typer()
    cli.command("retrieval")(bench_retrieval)
    cli.command("other")(lambda: None)
    result = CliRunner().invoke(cli, ["retrieval", *args, "--json"])
    assert result.exit_code == 0, result.output
    loaded: dict[str, object] = json.loads(result.stdout)  # progress lines go to stderr
    return loaded


def test_a_plain_beir_folder_needs_no_refusal_split_or_laws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")
    beir = tmp_path / "mini"
    (beir / "qrels").mkdir(parents=True)
    write_jsonl(beir / "corpus.jsonl", [{"_id": f"d{i}", "title": t, "text": x} for i, (t, x) in enumerate(TOPICS)])
    write_jsonl(beir / "queries.jsonl", [{"_id": f"q{i}", "text": QUESTIONS[t]} for i, (t, _) in enumerate(TOPICS)])
    rows = ["query-id\tcorpus-id\tscore"] + [f"q{i}\td{i}\t1" for i in range(len(TOPICS) - 1)]
    rows.append(f"q{len(TOPICS) - 1}\tmissing\t1")  # a judgment on a passage the corpus lacks
    (beir / "qrels" / "test.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (beir / "qrels" / "dev.tsv").write_text("query-id\tcorpus-id\tscore\nq0\td1\t1\n", encoding="utf-8")
    report = run_bench("--data", str(beir), "--laws", str(tmp_path / "keine.jsonl"))
    assert report["dataset"] == "mini" and report["queries"] == len(TOPICS) - 1
    assert report["layout"] == "BEIR (qrels/test.tsv)"
    methods = report["methods"]
    assert isinstance(methods, dict) and methods["sparse"]["recall@1"] >= 0.75
    assert "refusal" not in report and "laws" not in report
    notes = " | ".join(report["notes"])  # type: ignore[arg-type]
    assert "Ablehnungs-Split übersprungen" in notes and "Gesetze-KB-Zeitmessung übersprungen" in notes
    assert "1 Fragen ohne relevante Passage" in notes and "1 Relevanzurteile" in notes
    dev = run_bench("--data", str(beir), "--split", "dev", "--laws", str(tmp_path / "keine.jsonl"))
    assert dev["queries"] == 1 and dev["methods"]["sparse"]["recall@1"] == 0.0  # type: ignore[index]


def test_squad_json_is_read_directly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")
    paragraphs: list[dict[str, Any]] = [
        {"context": text, "qas": [{"id": f"q{i}", "question": QUESTIONS[title], "answers": [{"text": "x"}]}]}
        for i, (title, text) in enumerate(TOPICS)
    ]
    paragraphs[0]["qas"].append({"id": "unanswerable", "question": "Gibt es Sabbaticals?", "answers": []})
    squad = tmp_path / "squad.de.json"
    squad.write_text(json.dumps({"version": "1.1", "data": [{"title": "HR", "paragraphs": paragraphs}]}))
    report = run_bench("--data", str(squad), "--laws", str(tmp_path / "keine.jsonl"))
    assert report["layout"] == "SQuAD-JSON" and report["passages"] == len(TOPICS)
    assert report["methods"]["sparse"]["recall@5"] >= 0.9  # type: ignore[index]
    assert any("1 Fragen ohne Antwort" in note for note in report["notes"])  # type: ignore[attr-defined]


def test_ids_that_match_no_passage_are_an_error_not_zero_metrics(tmp_path: Path) -> None:
    beir = tmp_path / "kaputt"
    beir.mkdir()
    write_jsonl(beir / "corpus.jsonl", [{"_id": "d1", "text": "Urlaub"}])
    write_jsonl(beir / "queries.jsonl", [{"_id": "q1", "text": "Urlaub?"}])
    (beir / "qrels.tsv").write_text("q1\tD-1\t1\n", encoding="utf-8")
    cli = typer.Typer()
    cli.command("retrieval")(bench_retrieval)
    cli.command("other")(lambda: None)
    result = CliRunner().invoke(cli, ["retrieval", "--data", str(beir)])
    assert result.exit_code == 1 and "keine Frage hat eine relevante Passage" in result.output


def test_bench_answer_limit_keeps_every_question_kind() -> None:
    questions = {"simple": ["a", "b", "c", "d"], "complex": ["e", "f"], "survey": ["g"]}
    assert limited(questions, None) == questions
    picked = limited(questions, 3)
    assert all(picked[kind] for kind in questions) and sum(map(len, picked.values())) <= 4


def test_bench_answer_with_a_missing_law_file_stops_before_any_work(tmp_path: Path) -> None:
    cli = typer.Typer()
    cli.command("answer")(bench_answer)
    cli.command("other")(lambda: None)
    result = CliRunner().invoke(cli, ["answer", "--laws", str(tmp_path / "fehlt.jsonl")])
    assert result.exit_code == 2 and "nicht gefunden" in result.output


def test_bench_cli_baseline_must_be_a_checkout(tmp_path: Path) -> None:
    cli = typer.Typer()
    cli.command("cli")(bench_cli)
    cli.command("other")(lambda: None)
    result = CliRunner().invoke(cli, ["cli", "--baseline", str(tmp_path)])
    assert result.exit_code == 2 and "kein belegt-Checkout" in result.output
