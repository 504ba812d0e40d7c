"""The application's one settings object: every layer's settings, validated together at start-up."""

from __future__ import annotations

from pydantic import ValidationError

from nodes.settings import ModelSettings
from stores.settings import StoreSettings


class Settings(StoreSettings, ModelSettings):
    """All ``BELEGT_*`` variables; stores and nodes each receive only their own part."""


class SettingsError(Exception):
    """Raised at start-up when a variable has an invalid value; the message names the variable."""


def load_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            field = ".".join(str(part) for part in error["loc"]) or "settings"
            variable = f"BELEGT_{field.upper()}" if field != "settings" else "BELEGT_*"
            problems.append(f"{variable}: {error['msg']} (got {error.get('input')!r})")
        raise SettingsError("Ungültige Einstellung — " + "; ".join(problems)) from None
