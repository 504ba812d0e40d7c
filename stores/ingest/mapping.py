"""A declared field mapping: ingest a KB whose records name their fields differently, as it is.

``--map title=heading,section=law_title`` takes each KB field from a source field; ``--set stand=2022-03``
gives a field one value for every record; a mapping file (YAML) declares both::

    fields: {title: heading, section: law_title, work: law_title, source_ref: source}
    values: {stand: "2022-03", official: true}

With a mapping, a record consists of the mapped fields, the set values and the source fields that already
carry a KB field's name (``id``, ``text``); its other fields are not read. Every mistake in the mapping
itself is one German line (``FieldMappingError``), raised before anything is read or written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from stores.kb.layout import TENANT_KEY
from stores.kb.models import KBEntry

TARGETS: tuple[str, ...] = tuple(name for name in KBEntry.model_fields if name != TENANT_KEY)


class FieldMappingError(ValueError):
    """The mapping itself is wrong (unknown field, malformed pair, field given twice); one German line."""


@dataclass(frozen=True)
class FieldMapping:
    """``fields``: KB field → source field; ``values``: KB field → the value every record gets."""

    fields: Mapping[str, str] = field(default_factory=dict)
    values: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for target in [*self.fields, *self.values]:
            if target not in TARGETS:
                raise FieldMappingError(f"Unbekanntes Zielfeld „{target}“; möglich: {', '.join(TARGETS)}.")
        both = sorted(set(self.fields) & set(self.values))
        if both:
            raise FieldMappingError(f"Zielfeld „{both[0]}“ ist zugleich zugeordnet und fest gesetzt.")
        for target, source in self.fields.items():
            if not isinstance(source, str) or not source:
                raise FieldMappingError(f"Zielfeld „{target}“: Quellfeld muss ein Feldname sein, nicht {source!r}.")

    def apply(self, record: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """The record in KB fields, and the mapped source fields it lacks."""
        missing = [source for source in self.fields.values() if source not in record]
        mapped = {name: value for name, value in record.items() if name in TARGETS and name not in self.fields}
        mapped |= {target: record[source] for target, source in self.fields.items() if source in record}
        return mapped | dict(self.values), missing


def parse_pairs(options: Iterable[str], *, option: str) -> dict[str, str]:
    """``ziel=quelle`` pairs from repeated or comma-separated command-line values."""
    pairs: dict[str, str] = {}
    for text in options:
        for part in (p.strip() for p in text.split(",")):
            target, sign, value = part.partition("=")
            target, value = target.strip(), value.strip()
            if not sign or not target or not value:
                raise FieldMappingError(f"{option}: „{part}“ ist kein Paar der Form ziel=wert.")
            if target in pairs:
                raise FieldMappingError(f"{option}: Zielfeld „{target}“ ist doppelt angegeben.")
            pairs[target] = value
    return pairs


def read_mapping_file(path: Path) -> FieldMapping:
    """A YAML mapping file with ``fields`` and/or ``values``."""
    try:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise FieldMappingError(f"{path}: Zuordnungsdatei nicht lesbar ({exc.strerror}).") from None
    except (UnicodeDecodeError, yaml.YAMLError) as exc:
        reason = getattr(exc, "problem", None) or "keine gültige UTF-8-YAML-Datei"
        raise FieldMappingError(f"{path}: Zuordnungsdatei ist kein gültiges YAML ({reason}).") from None
    if not isinstance(loaded, dict) or not loaded or set(loaded) - {"fields", "values"}:
        raise FieldMappingError(f"{path}: erwartet die Schlüssel „fields“ und/oder „values“ (je feld: wert).")
    fields, values = loaded.get("fields") or {}, loaded.get("values") or {}
    if not isinstance(fields, dict) or not isinstance(values, dict):
        raise FieldMappingError(f"{path}: „fields“ und „values“ müssen aus feld: wert-Zeilen bestehen.")
    try:
        return FieldMapping(
            fields={str(k): v for k, v in fields.items()}, values={str(k): v for k, v in values.items()}
        )
    except FieldMappingError as exc:
        raise FieldMappingError(f"{path}: {exc}") from None


def field_mapping(
    *, mapping_file: Path | None = None, pairs: Iterable[str] = (), values: Iterable[str] = ()
) -> FieldMapping | None:
    """The mapping of the command line: the file's, overridden field by field by ``--map`` and ``--set``."""
    base = read_mapping_file(mapping_file) if mapping_file is not None else FieldMapping()
    mapped, fixed = parse_pairs(pairs, option="--map"), parse_pairs(values, option="--set")
    if mapping_file is None and not mapped and not fixed:
        return None
    fields = {k: v for k, v in base.fields.items() if k not in fixed} | mapped
    return FieldMapping(fields=fields, values={k: v for k, v in base.values.items() if k not in mapped} | fixed)
