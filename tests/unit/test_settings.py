"""Settings: defaults, provider resolution, and one clear message naming a bad variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphs.settings import SettingsError, load_settings


def test_nothing_configured_means_extractive_and_embedded_stores() -> None:
    settings = load_settings()
    assert settings.provider == "extractive"
    assert settings.resolved_database_url == "sqlite:///var/belegt.db"
    assert settings.resolved_qdrant_path == Path("var/qdrant")
    assert settings.qdrant_url is None


def test_provider_follows_the_configured_service(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_BASE_URL", "http://127.0.0.1:11434")
    assert load_settings().provider == "ollama"
    monkeypatch.setenv("MISTRAL_API_KEY", "secret")
    assert load_settings().provider == "mistral"
    monkeypatch.setenv("BELEGT_LLM_PROVIDER", "extractive")
    assert load_settings().provider == "extractive"


def test_dotenv_file_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("BELEGT_EMBEDDER=none\nBELEGT_QDRANT_SHARD_NUMBER=3\n", encoding="utf-8")
    settings = load_settings()
    assert settings.embedder == "none"
    assert settings.qdrant_shard_number == 3


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("BELEGT_LLM_PROVIDER", "openai"),
        ("BELEGT_EMBEDDER", "word2vec"),
        ("BELEGT_DATABASE_URL", "mysql://root@localhost/x"),
        ("BELEGT_QDRANT_URL", "localhost:6333"),
        ("BELEGT_QDRANT_REPLICATION_FACTOR", "0"),
        ("BELEGT_OLLAMA_NUM_CTX", "viel"),
    ],
)
def test_invalid_value_names_the_variable(monkeypatch: pytest.MonkeyPatch, variable: str, value: str) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    message = str(caught.value)
    assert variable in message
    assert value in message
    assert message.count("\n") == 0


def test_mistral_without_key_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_LLM_PROVIDER", "mistral")
    with pytest.raises(SettingsError, match="MISTRAL_API_KEY"):
        load_settings()


def test_unprefixed_alias_keeps_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_BASE_URL", "localhost")
    with pytest.raises(
        SettingsError, match=r"^Ungültige Einstellung — BELEGT_OLLAMA_BASE_URL / OLLAMA_BASE_URL: muss eine http"
    ):
        load_settings()


def test_a_short_audit_key_is_refused_without_showing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELEGT_AUDIT_KEY", "zu-kurz-und-geheim")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert str(caught.value) == (
        "Ungültige Einstellung — BELEGT_AUDIT_KEY: braucht mindestens 32 Zeichen (Wert verborgen)"
    )
