"""Read a requirement catalogue file (JSONL or YAML) into validated drafts, with errors naming file and line.

YAML: a mapping with ``name`` and ``requirements`` (a list), or just the list. JSONL: one requirement object
per line. Fields per requirement: ``stable_id``, ``clause_path``, ``title``, ``requirement_text`` and
optionally ``clause_status`` (``ACTIVE`` | ``RETIRED``, default ``ACTIVE``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import ErrorDetails

from stores.scan.catalog import CatalogStore, CatalogVersion, RequirementDraft
from stores.scan.clause_index import ClauseIndex

CATALOG_SUFFIXES = {".jsonl": "jsonl", ".yaml": "yaml", ".yml": "yaml"}

_GERMAN_ERRORS = {
    "missing": "fehlt",
    "extra_forbidden": "ist kein bekanntes Feld",
    "string_too_short": "darf nicht leer sein",
    "string_type": "muss Text sein",
    "string_pattern_mismatch": "darf nur Buchstaben, Ziffern, '.', '_' und '-' enthalten (höchstens 100 Zeichen)",
    "literal_error": "muss ACTIVE oder RETIRED sein",
    "model_type": "muss ein Objekt mit Feldern sein",
}


class CatalogFileError(ValueError):
    """A catalogue file that cannot be imported; the message names file, line and field."""


class CatalogFile(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    source_file: str
    sha256: str
    requirements: tuple[RequirementDraft, ...]


def read_catalog_file(path: Path, *, name: str | None = None) -> CatalogFile:
    """Parse and validate the whole file; nothing is returned unless every requirement is valid."""
    kind = CATALOG_SUFFIXES.get(path.suffix.lower())
    if kind is None:
        raise CatalogFileError(f"{path.name}: unbekanntes Format, erwartet .jsonl, .yaml oder .yml")
    try:
        data = path.read_bytes()
        content = data.decode("utf-8-sig")
    except OSError as exc:
        raise CatalogFileError(f"{path}: nicht lesbar ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise CatalogFileError(f"{path.name}: keine UTF-8-Datei (Byte {exc.start})") from exc
    declared_name, entries = _jsonl_entries(path, content) if kind == "jsonl" else _yaml_entries(path, content)
    drafts = [_draft(path, line, entry) for line, entry in entries]
    if not drafts:
        raise CatalogFileError(f"{path.name}: enthält keine Anforderungen")
    _refuse_duplicates(path, entries, drafts)
    return CatalogFile(
        name=name or declared_name or path.stem,
        source_file=path.name,
        sha256=hashlib.sha256(data).hexdigest(),
        requirements=tuple(drafts),
    )


def _jsonl_entries(path: Path, content: str) -> tuple[str | None, list[tuple[int, Any]]]:
    entries = []
    for number, line in enumerate(content.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entries.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            raise CatalogFileError(f"{path.name}, Zeile {number}: kein gültiges JSON ({exc.msg})") from exc
    return None, entries


def _yaml_entries(path: Path, content: str) -> tuple[str | None, list[tuple[int, Any]]]:
    try:
        root = yaml.compose(content, Loader=yaml.SafeLoader)
        data = yaml.safe_load(content)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f", Zeile {mark.line + 1}" if mark is not None else ""
        raise CatalogFileError(f"{path.name}{where}: kein gültiges YAML ({getattr(exc, 'problem', exc)})") from exc
    if root is None:
        return None, []
    name: str | None = None
    items_node, items = root, data
    if isinstance(data, dict):
        unknown = set(data) - {"name", "requirements"}
        if unknown:
            raise CatalogFileError(f"{path.name}: unbekannte Schlüssel {sorted(unknown)}; erlaubt: name, requirements")
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            raise CatalogFileError(f"{path.name}: 'name' muss Text sein")
        items = data.get("requirements")
        items_node = next((value for key, value in root.value if key.value == "requirements"), root)
    if items is None:
        return name, []
    if not isinstance(items, list) or not isinstance(items_node, yaml.SequenceNode):
        line = items_node.start_mark.line + 1
        raise CatalogFileError(f"{path.name}, Zeile {line}: die Anforderungen müssen eine Liste sein")
    return name, [(node.start_mark.line + 1, item) for node, item in zip(items_node.value, items, strict=True)]


def _draft(path: Path, line: int, entry: Any) -> RequirementDraft:
    try:
        return RequirementDraft.model_validate(entry)
    except ValidationError as exc:
        problems = "; ".join(_german(error) for error in exc.errors())
        raise CatalogFileError(f"{path.name}, Zeile {line}: {problems}") from None


def _german(error: ErrorDetails) -> str:
    field = ".".join(str(part) for part in error["loc"]) or "Eintrag"
    return f"Feld '{field}' {_GERMAN_ERRORS.get(error['type'], error['msg'])}"


def _refuse_duplicates(path: Path, entries: list[tuple[int, Any]], drafts: list[RequirementDraft]) -> None:
    first_line: dict[str, int] = {}
    for (line, _), draft in zip(entries, drafts, strict=True):
        if draft.stable_id in first_line:
            raise CatalogFileError(
                f"{path.name}, Zeile {line}: stable_id '{draft.stable_id}' steht schon in Zeile "
                f"{first_line[draft.stable_id]}"
            )
        first_line[draft.stable_id] = line


def import_catalog(
    path: Path, *, catalogs: CatalogStore, clauses: ClauseIndex, name: str | None = None
) -> CatalogVersion:
    """A new catalogue version from the file, stored and indexed together: if either fails, neither stays."""
    catalog = read_catalog_file(path, name=name)
    return catalogs.create_version(
        name=catalog.name,
        source_file=catalog.source_file,
        source_sha256=catalog.sha256,
        requirements=catalog.requirements,
        before_commit=clauses.index_version,
    )
