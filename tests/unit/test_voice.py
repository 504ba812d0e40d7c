"""The bot's own sentences: formal by default, "du" on request, contact sentences only with a contact."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from nodes.shared.strictness import DEFAULT_DISCLAIMER_MESSAGE, DEFAULT_REFUSAL_MESSAGE
from nodes.shared.voice import KB_REFUSAL, BotVoice

INFORMAL = ("kontaktiere", "prüfe ", "stelle ", "fasse ", "möchtest", "bist ", "dich", "arbeitest")


def _all_texts(voice: BotVoice) -> list[str]:
    dimensions = ("bundesland", "branche", "zeitraum", "arbeitszeit", "ort", "fall", "bezug")
    return [
        voice.refusal,
        voice.disclaimer,
        voice.soft_hint,
        voice.empty_question,
        voice.question_too_long(3000, 2000),
        *(voice.follow_up(d) for d in dimensions),  # type: ignore[arg-type]
        voice.follow_up("fall", personal=False),
    ]


def test_default_texts_are_formal_and_never_invite_contact() -> None:
    texts = _all_texts(BotVoice())
    assert DEFAULT_REFUSAL_MESSAGE == KB_REFUSAL == "Dazu enthält die Wissensbasis keine Aussage."
    assert DEFAULT_DISCLAIMER_MESSAGE == BotVoice().disclaimer
    for text in texts:
        assert not any(word in text for word in INFORMAL), text
        assert "kontakt" not in text.lower() and "wenden Sie sich" not in text
    assert any(" Sie " in text or text.endswith(" Sie?") for text in texts)


def test_du_voice_is_informal() -> None:
    voice = BotVoice(voice="du")
    assert voice.disclaimer == "Bitte prüfe die Angaben im Einzelfall."
    assert voice.follow_up("bundesland") == "Für welches Bundesland möchtest du es wissen?"
    assert voice.follow_up("fall", personal=False) == "Welchen dieser Fälle meinst du?"
    assert not any(" Sie " in text for text in _all_texts(voice))


@pytest.mark.parametrize(
    ("voice", "refusal"),
    [
        ("sie", "Dazu enthält die Wissensbasis keine Aussage. Bitte wenden Sie sich an die Personalabteilung."),
        ("du", "Dazu enthält die Wissensbasis keine Aussage. Bitte wende dich an die Personalabteilung."),
    ],
)
def test_contact_sentence_only_with_a_contact(voice: str, refusal: str) -> None:
    with_contact = BotVoice(voice=voice, contact="die Personalabteilung")
    assert with_contact.refusal == refusal
    assert "die Personalabteilung" in with_contact.disclaimer


def test_cli_creates_a_du_bot_with_contact(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    from evals.cli import app

    monkeypatch.setenv("BELEGT_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")
    runner = CliRunner()
    created = runner.invoke(app, ["bots", "create", "hr", "--kb", "demo", "--voice", "du", "--contact", "HR"])
    assert created.exit_code == 0, created.output
    assert "Anrede du" in created.output
    listed = runner.invoke(app, ["bots", "list"])
    assert "du" in listed.output and "HR" in listed.output
    wrong = runner.invoke(app, ["bots", "create", "x", "--kb", "demo", "--voice", "ihr"])
    assert wrong.exit_code != 0 and "Anrede muss 'sie' oder 'du' sein" in wrong.output
    assert "Traceback" not in wrong.output
