"""graphs/resources.py: nothing read or opened at import, stores opened on first use, chat models cached."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphs.resources import AppResources
from graphs.settings import Settings, SettingsError
from nodes.shared.strictness import get_strictness_config

ROOT = Path(__file__).resolve().parents[2]


def test_graph_modules_import_without_reading_settings() -> None:
    """langgraph.json imports the modules: a bad setting must only matter once a run needs a store."""
    env = {**os.environ, "BELEGT_DATABASE_URL": "nonsense", "BELEGT_EMBEDDER": "word2vec"}
    code = "import graphs.answer, graphs.scan, graphs.scorecard; print('ok')"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_settings_and_stores_open_on_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    resources = AppResources()
    monkeypatch.setenv("BELEGT_EMBEDDER", "word2vec")
    with pytest.raises(SettingsError, match="BELEGT_EMBEDDER"):
        _ = resources.default_provider
    monkeypatch.setenv("BELEGT_EMBEDDER", "none")
    assert resources.default_provider == "extractive"
    assert not Path("var").exists()  # nothing opened yet
    assert resources.bots.list() == []
    assert Path("var/belegt.db").exists()
    resources.close()


def test_chat_models_are_cached_per_provider_level_model_and_budget() -> None:
    resources = AppResources(Settings(ollama_base_url="http://127.0.0.1:9", embedder="none"))
    level2, level3 = get_strictness_config(2), get_strictness_config(3)
    first = resources.chat_model("ollama", level2, model=None, max_tokens=100)
    assert first is not None
    assert resources.chat_model("ollama", level2, model=None, max_tokens=100) is first
    assert resources.chat_model("ollama", level2, model="qwen3:8b", max_tokens=100) is first  # the default model
    assert resources.chat_model("ollama", level3, model=None, max_tokens=100) is not first
    assert resources.chat_model("ollama", level2, model=None, max_tokens=200) is not first
    assert resources.chat_model("ollama", level2, model="other", max_tokens=100) is not first
    assert resources.chat_model("extractive", level2, model=None) is None
    resources.close()
    assert resources.chat_model("ollama", level2, model=None, max_tokens=100) is not first


def test_close_forgets_what_was_opened(tmp_path: Path) -> None:
    resources = AppResources(Settings(embedder="none", data_dir=tmp_path / "a"))
    database = resources.database
    resources.close()
    assert resources.database is not database
    resources.close()
