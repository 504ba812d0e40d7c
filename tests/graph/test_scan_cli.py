"""``belegt catalog`` / ``scan`` / ``verify`` end to end: real Mistral and Ollama clients against the loopback fake."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader, PdfWriter
from typer.testing import CliRunner

from graphs.cli.scan import app
from stores.sql.engine import open_database
from tests.fakes.llm_server import FakeLLMServer, Reply, running_fake_llm_server
from tests.fakes.pdf import pdf_bytes
from tests.scan_support import DEMO

runner = CliRunner()
PAGE = "Leistungsdaten\n\nSensitivität: 96,4 % bei 250 positiven Proben, ohne Konfidenzintervall.\n"
QUOTE = "Sensitivität: 96,4 %"
CHAT = {"mistral": "/v1/chat/completions", "ollama": "/api/chat"}


@pytest.fixture
def llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLMServer]:
    with running_fake_llm_server() as fake:
        monkeypatch.setenv("BELEGT_EMBEDDER", "none")
        monkeypatch.setenv("BELEGT_LLM_PROVIDER", "mistral")
        monkeypatch.setenv("MISTRAL_API_KEY", "test-key")
        monkeypatch.setenv("MISTRAL_BASE_URL", fake.base_url + "/v1")
        monkeypatch.setenv("OLLAMA_BASE_URL", fake.base_url)
        yield fake


def _table_count(table: str) -> int:
    database = open_database("sqlite:///var/belegt.db")
    with database.transaction() as connection:
        from sqlalchemy import text

        count = int(connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())
    database.dispose()
    return count


def _document(content: str = PAGE, name: str = "flyer.md") -> Path:
    path = Path(name)
    path.write_text(content, encoding="utf-8")
    return path


def _finding(**change: Any) -> dict[str, Any]:
    return {
        "requirement_id": "DEMO-LA-1.1",
        "exact_quote": QUOTE,
        "page_number": 1,
        "severity": "MAJOR",
        "confidence": 0.9,
        "finding_text": "Das Konfidenzintervall fehlt.",
    } | change


def _verdict(confidence: float = 0.85) -> Reply:
    args = {"supported": True, "severity": "MAJOR", "confidence": confidence, "note": "Trifft zu."}
    return Reply(tool_calls=[{"name": "assess_finding", "arguments": args}])


def _import_demo() -> None:
    result = runner.invoke(app, ["catalog", "import", str(DEMO / "katalog.yaml")])
    assert result.exit_code == 0, result.output


def _scan(*args: str) -> tuple[int, dict[str, Any] | str]:
    result = runner.invoke(app, ["scan", *args, "--json"])
    if result.exit_code != 0:
        return result.exit_code, result.output
    return 0, json.loads(result.stdout)


def test_scan_without_a_model_stops_before_any_work() -> None:
    result = runner.invoke(app, ["scan", str(DEMO / "produktinfo.md")])
    assert result.exit_code == 2
    assert "Sprachmodell" in result.output and "nichts geprüft oder gespeichert" in " ".join(result.output.split())
    assert not Path("var").exists()


def test_catalog_import_creates_a_new_version_each_time(llm: FakeLLMServer) -> None:
    _import_demo()
    _import_demo()
    listing = runner.invoke(app, ["catalog", "list"])
    assert listing.exit_code == 0 and listing.output.count("katalog.yaml") == 2
    bad = Path("kaputt.jsonl")
    bad.write_text('{"stable_id": "A-1", "title": "T", "requirement_text": "R"}\n', encoding="utf-8")
    result = runner.invoke(app, ["catalog", "import", str(bad)])
    assert result.exit_code == 1 and "Zeile 1: Feld 'clause_path' fehlt" in " ".join(result.output.split())
    assert _table_count("catalog_versions") == 2


def test_scan_with_mistral_forced_tool_then_verify(llm: FakeLLMServer) -> None:
    _import_demo()
    llm.queue(CHAT["mistral"], Reply(tool_calls=[{"name": "record_finding", "arguments": {"findings": [_finding()]}}]))
    llm.queue(CHAT["mistral"], _verdict())
    code, report = _scan(str(_document()), "--out", "berichte")
    assert code == 0, report
    assert isinstance(report, dict)
    assert [f["exact_quote"] for f in report["findings"]["MAJOR"]] == [QUOTE]

    first = llm.bodies(CHAT["mistral"])[0]
    assert first["tool_choice"] == "any" and [t["function"]["name"] for t in first["tools"]] == ["record_finding"]
    item = first["tools"][0]["function"]["parameters"]["properties"]["findings"]["items"]["properties"]
    assert len(item["requirement_id"]["enum"]) == 5 and "DEMO-LA-1.1" in item["requirement_id"]["enum"]
    report_file = Path("berichte") / f"{report['scan_id']}.json"
    assert {p.suffix for p in Path("berichte").iterdir()} == {".json", ".md", ".html"}

    verified = runner.invoke(app, ["verify", str(report_file), "--document", "flyer.md"])
    assert verified.exit_code == 0 and verified.output.strip() == "valid"

    tampered = json.loads(report_file.read_text(encoding="utf-8"))
    tampered["findings"]["MAJOR"][0]["exact_quote"] = QUOTE.replace("96", "69")
    Path("tampered.json").write_text(json.dumps(tampered), encoding="utf-8")
    result = runner.invoke(app, ["verify", "tampered.json"])
    assert result.exit_code == 1 and "ungültig" in result.output
    assert "exact_quote: Bericht 'Sensitivität: 69,4 %' ≠ Datenbank 'Sensitivität: 96,4 %'" in result.output

    other = _document("anderer Text", "anders.md")
    wrong_document = runner.invoke(app, ["verify", str(report_file), "--document", str(other)])
    assert wrong_document.exit_code == 1 and "Dokument anders.md: SHA-256" in wrong_document.output


def test_scan_with_ollama_sends_the_json_schema(llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_LLM_PROVIDER", "ollama")
    _import_demo()
    llm.queue(CHAT["ollama"], Reply(content=json.dumps({"findings": []})))
    code, report = _scan(str(_document()))
    assert code == 0, report
    assert isinstance(report, dict) and report["counts"]["llm_calls"] == 1
    schema = llm.bodies(CHAT["ollama"])[0]["format"]
    assert (
        schema["title"] == "record_finding"
        and len(schema["$defs"]["Finding"]["properties"]["requirement_id"]["enum"]) == 5
    )


def test_reviewer_decides_uncertain_findings_in_the_terminal(llm: FakeLLMServer) -> None:
    _import_demo()
    llm.queue(CHAT["mistral"], Reply(tool_calls=[{"name": "record_finding", "arguments": {"findings": [_finding()]}}]))
    llm.queue(CHAT["mistral"], _verdict(confidence=0.4))
    result = runner.invoke(app, ["scan", str(_document()), "--review", "--out", "r"], input="edit\nAnna\nMINOR\n\n\n")
    assert result.exit_code == 0, result.output
    (report_file,) = Path("r").glob("*.json")
    report = json.loads(report_file.read_text(encoding="utf-8"))
    assert [(f["severity"], f["human_reviewed"], f["reviewed_by"]) for f in report["findings"]["MINOR"]] == [
        ("MINOR", True, "Anna")
    ]
    assert runner.invoke(app, ["verify", str(report_file)]).output.strip() == "valid"


def _encrypted_pdf() -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes(["Geheim"]))))
    writer.encrypt(user_password="geheim", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "args", "message"),
    [
        ("leer.md", b"", [], "die Datei ist leer"),
        ("kaputt.pdf", b"%PDF-1.4\nkaputt", [], "beschädigt oder unlesbar"),
        ("geheim.pdf", _encrypted_pdf(), [], "passwortgeschützt"),
        ("lang.md", b"eins\fzwei\fdrei", ["--max-pages", "2"], "3 Seiten, erlaubt sind höchstens 2"),
        ("flyer.md", PAGE.encode(), ["--catalog-version", "9"], "Katalogversion 9 gibt es nicht"),
    ],
)
def test_bad_input_is_refused_and_nothing_is_stored(
    llm: FakeLLMServer, name: str, data: bytes, args: list[str], message: str
) -> None:
    _import_demo()
    Path(name).write_bytes(data)
    code, output = _scan(name, *args)
    assert code == 1 and message in " ".join(str(output).split())
    assert (_table_count("documents"), _table_count("scans"), llm.requests) == (0, 0, [])


def test_catalogue_without_active_requirements_is_refused(llm: FakeLLMServer) -> None:
    retired = Path("alt.jsonl")
    retired.write_text(
        '{"stable_id": "A-1", "clause_path": "A", "title": "T", "requirement_text": "R", "clause_status": "RETIRED"}\n',
        encoding="utf-8",
    )
    assert runner.invoke(app, ["catalog", "import", str(retired)]).exit_code == 0
    code, output = _scan(str(_document()))
    assert code == 1 and "Katalogversion 1 hat keine aktiven Anforderungen" in " ".join(str(output).split())
    assert (_table_count("documents"), llm.requests) == (0, [])


def test_scan_without_any_catalogue_is_refused(llm: FakeLLMServer) -> None:
    code, output = _scan(str(_document()))
    assert code == 1 and "noch kein Anforderungskatalog importiert" in " ".join(str(output).split())


def test_unreachable_model_leaves_no_scan(llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _import_demo()
    llm.queue(CHAT["mistral"], Reply(status=400))
    code, output = _scan(str(_document()))
    assert code == 1 and "Sprachmodell nicht nutzbar" in str(output)
    assert _table_count("scans") == 0


def test_verify_rejects_a_file_that_is_no_report(llm: FakeLLMServer) -> None:
    Path("x.json").write_text('{"scan_id": 1}', encoding="utf-8")
    result = runner.invoke(app, ["verify", "x.json"])
    assert result.exit_code == 1 and "kein gültiger belegt-Prüfbericht" in result.output
