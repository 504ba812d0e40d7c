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


# German wording of the pydantic checks the settings use; anything else keeps pydantic's own message.
_REASONS = {
    "literal_error": "erlaubt sind {expected}",
    "int_parsing": "keine ganze Zahl",
    "float_parsing": "keine Zahl",
    "bool_parsing": "kein Wahrheitswert (true/false)",
    "greater_than": "muss größer als {gt} sein",
    "greater_than_equal": "muss mindestens {ge} sein",
    "less_than": "muss kleiner als {lt} sein",
    "less_than_equal": "darf höchstens {le} sein",
    "string_pattern_mismatch": "passt nicht zum Muster {pattern}",
    "too_short": "braucht mindestens {min_length} Zeichen",  # a SecretStr with min_length (the audit key)
}
SECRET_FIELDS = frozenset({"audit_key", "mistral_api_key", "qdrant_api_key"})
"""Their values never appear in an error message."""


def _reason(error: ErrorDetails) -> str:
    template = _REASONS.get(error["type"])
    if template is None:
        return error["msg"].removeprefix("Value error, ")
    context = {key: str(value).replace("' or '", "' oder '") for key, value in error.get("ctx", {}).items()}
    return template.format(**context)


def _describe(error: ErrorDetails) -> str:
    """One problem as 'VARIABLE: reason (got value)'; aliases such as OLLAMA_BASE_URL keep their own name."""
    field = ".".join(str(part) for part in error["loc"])
    message = _reason(error)
    if not field:  # a cross-field rule: its message names the variables itself
        return message
    if field.startswith("BELEGT_"):  # a field that also reads an unprefixed variable such as OLLAMA_BASE_URL
        variable = f"{field} / {field.removeprefix('BELEGT_')}"
    else:
        variable = f"BELEGT_{field.upper()}"
    shown = "verborgen" if field.removeprefix("BELEGT_").lower() in SECRET_FIELDS else repr(error.get("input"))
    return f"{variable}: {message} (Wert {shown})"
