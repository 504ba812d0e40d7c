"""A mistyped command line ends as one German line with exit code 2, through the CLI's real entry boundary."""

from __future__ import annotations

import sys

import pytest
import typer

from evals.cli import app
from graphs.cli.runtime import explain_unexpected, run_guarded
from graphs.cli.usage import german


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["belegt", *args])
    with pytest.raises(SystemExit) as stopped:
        run_guarded(app)
    code = stopped.value.code
    assert isinstance(code, int)
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["ask", "--bogus", "x"], "Fehler: Unbekannte Option --bogus. Gemeint: --bot? Hilfe: belegt ask --help"),
        (["ask"], "Fehler: Es fehlt die Angabe QUESTION. Hilfe: belegt ask --help"),
        (
            ["ask", "--strictness", "drei", "x"],
            "Fehler: Ungültiger Wert für --strictness: Erwartet wird eine ganze Zahl. Hilfe: belegt ask --help",
        ),
        (["frag", "x"], "Fehler: Unbekannter Befehl „frag“. Hilfe: belegt --help"),
        (["ask", "x", "y"], "Fehler: Überzählige Angabe: y. Hilfe: belegt ask --help"),
        (["ask", "x", "--as-of"], "Fehler: Die Option --as-of braucht einen Wert."),
        (["bots", "create"], "Fehler: Es fehlt die Angabe BOT_ID. Hilfe: belegt bots create --help"),
    ],
)
def test_a_mistyped_command_line_is_one_german_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    code, err = _run(monkeypatch, capsys, *args)
    assert code == 2
    assert err.strip() == said


def test_a_group_called_without_a_command_shows_its_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["belegt", "bots"])
    with pytest.raises(SystemExit) as stopped:
        run_guarded(app)
    captured = capsys.readouterr()
    assert stopped.value.code == 2
    assert "set-strictness" in captured.out and "Fehler" not in captured.err


def test_a_commands_own_exit_code_and_an_unhandled_error_keep_their_meaning(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    small = typer.Typer()

    @small.command()
    def stop(code: int) -> None:
        if code < 0:
            raise RuntimeError("Storage folder var/qdrant is already accessed by another instance of Qdrant client.")
        raise typer.Exit(code)

    @small.command()
    def done() -> None:
        typer.echo("fertig")

    for args, expected in ((["stop", "3"], 3), (["done"], 0), (["stop", "--", "-1"], 1)):
        monkeypatch.setattr(sys, "argv", ["belegt", *args])
        with pytest.raises(SystemExit) as stopped:
            run_guarded(small)
        assert stopped.value.code == expected
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Server beenden" in err and len(err.strip().splitlines()) == 1
    assert "BELEGT_DEBUG" in explain_unexpected(KeyError("x"))


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("File '/tmp/fehlt.jsonl' does not exist.", "Die Datei „/tmp/fehlt.jsonl“ gibt es nicht."),
        ("Directory 'var/x' does not exist.", "Den Ordner „var/x“ gibt es nicht."),
        ("Input should be 'dev' or 'report'", "Möglich: 'dev' oder 'report'."),
        ("Input should be greater than or equal to 1", "Der Wert muss mindestens 1 sein."),
        ("Got unexpected extra arguments (a b)", "Überzählige Angabe: a b."),
        # a wording the table does not know stays readable rather than lost
        ("Something new went wrong.", "Something new went wrong."),
    ],
)
def test_clicks_messages_read_in_german(message: str, expected: str) -> None:
    assert german(message) == expected
