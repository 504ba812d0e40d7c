"""Project-owned eval datasets (written for belegt, committed) and their loaders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

GROUNDING_DEMO = Path(__file__).resolve().parent / "grounding_demo.jsonl"
Category = Literal[
    "simple", "multi_part", "survey", "false_premise", "missing_context", "conflict", "non_official", "out_of_kb"
]
Behaviour = Literal["answer", "refuse", "conflict", "clarify", "correct_premise", "flag_non_official"]


class DatasetError(ValueError):
    """A dataset line is malformed; the message names file, line and field."""


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GoldenInputs(_Strict):
    question: str = Field(min_length=1)


class GoldenReference(_Strict):
    """What a correct answer does: ``citations`` it must carry, ``acceptable`` extra ones, facts it states."""

    behaviour: Behaviour
    citations: list[str]
    acceptable: list[str] = []
    must_contain: list[str] = []


class GoldenExample(_Strict):
    id: str
    category: Category
    inputs: GoldenInputs
    reference_outputs: GoldenReference


Row = TypeVar("Row", bound=BaseModel)


def read_rows(path: Path, model: type[Row]) -> list[Row]:
    """Every line of a JSONL dataset as ``model``; DatasetError names file, line and field, or repeated ids."""
    rows: list[Row] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(model.model_validate(json.loads(line)))
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{path.name}:{number}: kein gültiges JSON ({exc.msg})") from None
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(part) for part in first["loc"]) or "Zeile"
            raise DatasetError(f"{path.name}:{number}: {field}: {first['msg']}") from None
    ids = [str(getattr(row, "id", number)) for number, row in enumerate(rows)]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise DatasetError(f"{path.name}: doppelte IDs {', '.join(duplicates)}")
    return rows


def load_golden_set(path: Path = GROUNDING_DEMO) -> list[GoldenExample]:
    return read_rows(path, GoldenExample)
