"""``belegt brand import`` and ``belegt scorecard`` through their Typer apps (the lead registers them in app.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from graphs.cli import brand
from tests.brand_support import DEMO_DIR, DEMO_VERSIONS, UNIVERSAL_JUDGEMENT
from tests.fakes.llm_server import Reply, running_fake_llm_server

cli = typer.Typer()
cli.add_typer(brand.app, name="brand")
cli.command("scorecard")(brand.scorecard)
runner = CliRunner()


@pytest.fixture(autouse=True)
def _no_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")


def _import_demo() -> None:
    for version in DEMO_VERSIONS:
        result = runner.invoke(cli, ["brand", "import", str(DEMO_DIR / f"kantwerk-{version}.yaml")])
        assert result.exit_code == 0, result.output


def test_import_stores_versions_and_shows_maturity(tmp_path: Path) -> None:
    result = runner.invoke(cli, ["brand", "import", str(DEMO_DIR / "kantwerk-1.0.0.yaml")])
    assert result.exit_code == 0, result.output
    assert "DNA kantwerk 1.0.0 gespeichert." in result.output
    assert "DNA-Reifegrad 98/100" in result.output and "TONE-DO-004" in result.output
    again = runner.invoke(cli, ["brand", "import", str(DEMO_DIR / "kantwerk-1.0.0.yaml")])
    assert again.exit_code == 0 and "war schon mit gleichem Inhalt gespeichert" in again.output
    changed = tmp_path / "kantwerk-1.0.0.yaml"
    source = (DEMO_DIR / "kantwerk-1.0.0.yaml").read_text(encoding="utf-8")
    changed.write_text(source.replace("brand_id: kantwerk", "brand_id: kantwerk\nchange_note: anders", 1), "utf-8")
    conflict = runner.invoke(cli, ["brand", "import", str(changed)])
    assert conflict.exit_code == 1 and "schon mit anderem Inhalt gespeichert" in conflict.output
    newer = runner.invoke(cli, ["brand", "import", str(DEMO_DIR / "kantwerk-1.1.0.yaml")])
    assert "DNA kantwerk 1.1.0 gespeichert, Änderung: methodical." in newer.output


def test_list_and_show_stored_brands() -> None:
    empty = runner.invoke(cli, ["brand", "list"])
    assert empty.exit_code == 0 and "Noch keine Marken-DNA gespeichert" in empty.output
    _import_demo()
    listed = runner.invoke(cli, ["brand", "list", "--json"])
    assert [(b["brand_id"], b["latest_version"], b["versions"]) for b in json.loads(listed.output)] == [
        ("kantwerk", DEMO_VERSIONS[-1], len(DEMO_VERSIONS))
    ]
    assert "kantwerk" in runner.invoke(cli, ["brand", "list"]).output
    shown = runner.invoke(cli, ["brand", "show", "kantwerk", "--dna-version", "1.0.0"])
    assert shown.exit_code == 0, shown.output
    assert "1.0.0 ◀" in shown.output and "1.1.0" in shown.output and "methodical" in shown.output
    assert "DNA kantwerk 1.0.0" in shown.output and "DNA-Reifegrad 98/100" in shown.output
    document = json.loads(runner.invoke(cli, ["brand", "show", "kantwerk", "--json"]).output)
    assert document["dna"]["dna_version"] == DEMO_VERSIONS[-1]
    assert [v["dna_version"] for v in document["history"]] == list(DEMO_VERSIONS)
    assert set(document["maturity"]["blocks"]) == {
        "identity_core",
        "positioning_logic",
        "tone_rules",
        "topic_corridor",
        "guardrails",
    }


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["show", "niemand"], "Für die Marke 'niemand' ist keine DNA gespeichert."),
        (["show", "kantwerk", "--dna-version", "9.9.9"], "Die Marke 'kantwerk' hat keine DNA-Version 9.9.9."),
    ],
)
def test_show_names_what_is_missing(arguments: list[str], message: str) -> None:
    _import_demo()
    result = runner.invoke(cli, ["brand", *arguments])
    assert result.exit_code == 1 and message in result.output


def test_import_errors_name_file_line_and_field(tmp_path: Path) -> None:
    broken = tmp_path / "kaputt.yaml"
    text = (DEMO_DIR / "kantwerk-1.1.1.yaml").read_text(encoding="utf-8").replace(r"'\bMarktführ\w*'", "'(Marktführ'")
    broken.write_text(text, encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "(Marktführ" in row)
    result = runner.invoke(cli, ["brand", "import", str(broken)])
    assert result.exit_code == 1
    assert f"kaputt.yaml, Zeile {line}, Feld guardrails.forbidden_patterns[1].pattern" in result.output
    assert "Fehler:" in result.output


def test_scorecard_without_llm_from_text_and_file(tmp_path: Path) -> None:
    _import_demo()
    result = runner.invoke(
        cli, ["scorecard", "Wir sind die Nr. 1 für ganzheitliche Entscheidungen.", "--brand", "kantwerk"]
    )
    assert result.exit_code == 0, result.output
    assert "FAIL · Score" in result.output and "GR-CLAIM-001" in result.output and "GR-TERM-001" in result.output
    post = tmp_path / "post.txt"
    post.write_text("Wir prüfen jede Annahme Ihrer Entscheidung in drei Wochen.", encoding="utf-8")
    options = ["--json", "--content-type", "offer", "--ref", "1.0.0", "--audience", "Beirat", "--topic", "Standort"]
    as_json = runner.invoke(cli, ["scorecard", str(post), "--brand", "kantwerk", *options])
    assert as_json.exit_code == 0, as_json.output
    validation = json.loads(as_json.output)
    assert (validation["status"], validation["content_type"], validation["dna_version_ref"]) == (
        "INSUFFICIENT_INFORMATION",
        "offer",
        "1.0.0",
    )
    assert validation["criteria"]["K7"]["reasons"][0]["rule_id"] == "VER-001"
    assert validation["context"] == {"audience": "Beirat", "topic": "Standort", "channel": None}


def test_scorecard_errors_are_german() -> None:
    result = runner.invoke(cli, ["scorecard", "Hallo", "--brand", "niemand"])
    assert result.exit_code == 1 and "Für die Marke 'niemand' ist keine DNA gespeichert." in result.output
    _import_demo()
    result = runner.invoke(cli, ["scorecard", "Hallo", "--brand", "kantwerk", "--dna-version", "9.9.9"])
    assert result.exit_code == 1 and "hat keine DNA-Version 9.9.9" in result.output


@pytest.mark.parametrize(("answer", "status"), [("approve\n", "PASS"), ("reject\nzu vage\n", "REVISE")])
def test_owner_releases_a_borderline_case_at_the_terminal(
    monkeypatch: pytest.MonkeyPatch, answer: str, status: str
) -> None:
    _import_demo()
    with running_fake_llm_server() as server:
        server.queue("/api/chat", *[Reply(content=json.dumps(UNIVERSAL_JUDGEMENT)) for _ in range(4)])
        monkeypatch.setenv("OLLAMA_BASE_URL", server.base_url)
        monkeypatch.setenv("BELEGT_LLM_PROVIDER", "ollama")
        text = "Wir prüfen die tragende Annahme Ihrer Investitionsentscheidung in drei Wochen. Dann entscheiden Sie."
        result = runner.invoke(cli, ["scorecard", text, "--brand", "kantwerk", "--owner", "Eva Brandt"], input=answer)
        assert result.exit_code == 0, result.output
        assert "Prüfung · Freigabe" in result.output and "nur der Marken-Owner darf" in result.output
        assert f"{status} · Score 5.5/7" in result.output
        assert len(server.bodies("/api/chat")) == 4
        assert all("format" in body for body in server.bodies("/api/chat"))  # structured output via JSON schema
    if status == "PASS":
        assert "freigegeben von Eva Brandt" in result.output
