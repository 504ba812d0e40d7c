"""Read a brand DNA from YAML or JSON; every problem is reported with file, line and field, in German."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from stores.brand.models import BrandDNA


class DnaImportError(ValueError):
    """The file cannot become a DNA version; ``problems`` lists one German line per finding."""

    def __init__(self, path: Path, problems: Sequence[str]) -> None:
        super().__init__(f"{path.name}: DNA ungültig\n" + "\n".join(f"  - {p}" for p in problems))
        self.problems = list(problems)


def load_dna_file(path: Path) -> BrandDNA:
    """Parse and validate; raises DnaImportError (nothing is stored by this function)."""
    if not path.is_file():
        raise DnaImportError(path, [f"{path}: Datei nicht gefunden"])
    suffix = path.suffix.lower()
    if suffix not in (".yaml", ".yml", ".json"):
        raise DnaImportError(
            path, [f"{path.name}: Dateiformat {suffix or '(ohne Endung)'} wird nicht unterstützt (YAML oder JSON)"]
        )
    try:
        source = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DnaImportError(path, [f"{path.name}: keine UTF-8-Datei ({exc.reason} an Byte {exc.start})"]) from None
    data = _parse(path, source, json_syntax=suffix == ".json")
    if not isinstance(data, dict):
        raise DnaImportError(path, [f"{path.name}, Zeile 1: die Datei muss ein Objekt (Schlüssel: Wert) enthalten"])
    try:
        return BrandDNA.model_validate(data)
    except ValidationError as exc:
        lines = _line_index(source)
        raise DnaImportError(path, [_describe(path, error, lines) for error in exc.errors()]) from None


def _parse(path: Path, source: str, *, json_syntax: bool) -> Any:
    try:
        return json.loads(source) if json_syntax else yaml.safe_load(source)
    except json.JSONDecodeError as exc:
        raise DnaImportError(path, [f"{path.name}, Zeile {exc.lineno}: kein gültiges JSON ({exc.msg})"]) from None
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else 1
        raise DnaImportError(path, [f"{path.name}, Zeile {line}: kein gültiges YAML ({exc.problem})"]) from None


def _line_index(source: str) -> yaml.Node | None:
    """The YAML node tree (JSON is valid YAML here) so that a field path can be turned into a line."""
    try:
        return yaml.compose(source, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None


def _line_of(root: yaml.Node | None, location: tuple[int | str, ...]) -> int | None:
    node, line = root, None
    for part in location:
        if isinstance(node, yaml.MappingNode):
            child = next(((k, v) for k, v in node.value if k.value == part), None)
            if child is None:
                break
            line, node = child[0].start_mark.line + 1, child[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    if line is None and root is not None:
        line = root.start_mark.line + 1
    return line


def _field_path(location: tuple[int | str, ...]) -> str:
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(Wurzel)"


def _describe(path: Path, error: ErrorDetails, root: yaml.Node | None) -> str:
    location = tuple(error["loc"])
    line = _line_of(root, location)
    where = f"{path.name}, Zeile {line}" if line is not None else path.name
    return f"{where}, Feld {_field_path(location)}: {_german_message(error)}"


def _german_message(error: ErrorDetails) -> str:
    context = error.get("ctx") or {}
    kind = error["type"]
    messages = {
        "missing": "Pflichtfeld fehlt",
        "extra_forbidden": "unbekanntes Feld",
        "string_type": "muss ein Text sein",
        "string_too_short": "darf nicht leer sein",
        "string_pattern_mismatch": f"hat nicht das erwartete Format ({context.get('pattern')})",
        "int_type": "muss eine ganze Zahl sein",
        "int_parsing": "muss eine ganze Zahl sein",
        "int_from_float": "muss eine ganze Zahl sein",
        "float_type": "muss eine Zahl sein",
        "float_parsing": "muss eine Zahl sein",
        "bool_type": "muss true oder false sein",
        "bool_parsing": "muss true oder false sein",
        "greater_than_equal": f"muss mindestens {context.get('ge'):g} sein" if "ge" in context else "",
        "less_than_equal": f"darf höchstens {context.get('le'):g} sein" if "le" in context else "",
        "literal_error": f"muss einer dieser Werte sein: {context.get('expected')}",
        "tuple_type": "muss eine Liste sein",
        "list_type": "muss eine Liste sein",
        "model_type": "muss ein Objekt (Schlüssel: Wert) sein",
        "model_attributes_type": "muss ein Objekt (Schlüssel: Wert) sein",
        "dict_type": "muss ein Objekt (Schlüssel: Wert) sein",
    }
    if kind == "value_error":
        return str(error["msg"]).removeprefix("Value error, ")
    return messages.get(kind, str(error["msg"]))
