"""Committed thresholds (``evals/baselines.json``) and the comparison of a run against them.

Each suite has profiles; a profile applies to a run whose settings match its ``when`` (embedder, provider,
strictness, limit; split for the question sets), because figures measured under other settings are not
comparable. A threshold names a metric and a ``min`` or ``max``; a metric the run did not produce fails
its check.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from evals.suite import Metric

BASELINES_FILE = Path(__file__).resolve().parent / "baselines.json"
Setting = str | int | None
MATCHED_SETTINGS = ("provider", "embedder", "strictness", "limit", "split")


class BaselineFileError(ValueError):
    """The baselines file is unreadable; the message names the file and the field."""


class Threshold(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _one_bound(self) -> Threshold:
        if (self.min is None) == (self.max is None):
            raise ValueError("genau eines von min oder max angeben")
        return self

    def admits(self, value: float) -> bool:
        if self.min is not None:
            return value >= self.min
        assert self.max is not None
        return value <= self.max

    def describe(self) -> str:
        return f"≥ {self.min:g}" if self.min is not None else f"≤ {self.max:g}"


class Profile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    when: dict[str, Setting]
    note: str = ""
    thresholds: dict[str, Threshold]

    def applies_to(self, settings: Mapping[str, Setting]) -> bool:
        return all(settings.get(key) == value for key, value in self.when.items())


@dataclass(frozen=True)
class Check:
    metric: str
    value: float | None
    n: int
    threshold: Threshold

    @property
    def passed(self) -> bool:
        return self.value is not None and self.threshold.admits(self.value)


@dataclass(frozen=True)
class BaselineVerdict:
    profile: Profile | None
    checks: list[Check]

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    def as_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile.model_dump() if self.profile else None,
            "passed": self.passed,
            "checks": [
                {
                    "metric": c.metric,
                    "value": c.value,
                    "n": c.n,
                    "threshold": c.threshold.describe(),
                    "passed": c.passed,
                }
                for c in self.checks
            ],
        }


def load_baselines(path: Path | None = None) -> dict[str, list[Profile]]:
    path = path or BASELINES_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BaselineFileError(f"{path}: nicht lesbar ({exc})") from None
    suites: dict[str, list[Profile]] = {}
    for suite, profiles in raw.items():
        if suite.startswith("_"):
            continue  # "_comment" and the like
        suites[suite] = []
        for index, profile in enumerate(profiles):
            try:
                suites[suite].append(Profile.model_validate(profile))
            except ValidationError as exc:
                first = exc.errors()[0]
                field = ".".join(str(part) for part in first["loc"])
                message = first["msg"].removeprefix("Value error, ")
                raise BaselineFileError(f"{path}: {suite}[{index}].{field}: {message}") from None
    return suites


def compare(metrics: Sequence[Metric], profiles: Sequence[Profile], settings: Mapping[str, Any]) -> BaselineVerdict:
    """Checks of the first profile that applies to the run's settings (a report's ``settings``; none: no checks)."""
    matched = {key: settings.get(key) for key in MATCHED_SETTINGS}
    profile = next((p for p in profiles if p.applies_to(matched)), None)
    if profile is None:
        return BaselineVerdict(None, [])
    by_name = {m.name: m for m in metrics}
    checks = [
        Check(
            metric=name,
            value=by_name[name].value if name in by_name else None,
            n=by_name[name].n if name in by_name else 0,
            threshold=threshold,
        )
        for name, threshold in profile.thresholds.items()
    ]
    return BaselineVerdict(profile, checks)
