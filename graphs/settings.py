"""The application's one settings object: every layer's settings, validated together at start-up."""

from __future__ import annotations

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from graphs.server.settings import ServerSettings
from nodes.settings import ModelSettings
from stores.settings import StoreSettings


class Settings(ServerSettings, StoreSettings, ModelSettings):
    """All ``BELEGT_*`` variables; stores and nodes each receive only their own part."""


class SettingsError(Exception):
    """Raised at start-up when a variable has an invalid value; the message names the variable."""


def load_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as exc:
        raise SettingsError("Ungültige Einstellung — " + "; ".join(_describe(e) for e in exc.errors())) from None


def _describe(error: ErrorDetails) -> str:
    """One problem as 'VARIABLE: reason (got value)'; aliases such as OLLAMA_BASE_URL keep their own name."""
    field = ".".join(str(part) for part in error["loc"])
    message = error["msg"].removeprefix("Value error, ")
    if not field:  # a cross-field rule: its message names the variables itself
        return message
    if field.startswith("BELEGT_"):  # a field that also reads an unprefixed variable such as OLLAMA_BASE_URL
        variable = f"{field} / {field.removeprefix('BELEGT_')}"
    else:
        variable = f"BELEGT_{field.upper()}"
    return f"{variable}: {message} (got {error.get('input')!r})"
