"""The issue-11 question sets: questions asked the way users ask, on the federal-law KB and the demo KB.

Each line: ``id``, ``question``, ``kind``, ``gold_ids`` (entries that answer it), ``acceptable_ids`` (also
fine to cite), ``expected_facts`` (strings the answer must show, as the entry writes them), ``split``
(``dev`` to tune on, ``report`` to report on; alternating within each kind, and questions written later — the
second batch, ids continuing each kind's numbering — in ``dev`` only), and per kind:
``wrong_value``/``correct_value`` (false premise), ``dimension`` (missing context: what the variants
differ in), ``absent_terms`` (out of KB: words the KB nowhere contains, which the tests check).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from evals.datasets import read_rows

HERE = Path(__file__).resolve().parent
LAW_QUESTIONS = HERE / "questions_law.jsonl"
DEMO_QUESTIONS = HERE / "questions_demo.jsonl"
LAW_KB = "de_gesetze/kb_paragraphs.jsonl"
"""The federal-law KB below the eval data folder (read there, never copied), ingested as it is with:"""
LAW_MAPPING = HERE / "de_gesetze.mapping.yaml"
LAW_ID_PATTERN = r"^\S+( \S+)* (§|Art|Anhang|Anlage)\S*$"

Kind = Literal["specific", "multi_part", "out_of_kb", "false_premise", "missing_context"]
Split = Literal["dev", "report"]
ANSWERABLE: frozenset[str] = frozenset({"specific", "multi_part", "false_premise", "missing_context"})


class Question(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    kind: Kind
    gold_ids: list[str]
    acceptable_ids: list[str] = []
    expected_facts: list[str]
    split: Split
    wrong_value: str | None = None
    correct_value: str | None = None
    dimension: str | None = None
    absent_terms: list[str] = []

    @model_validator(mode="after")
    def _fields_of_the_kind(self) -> Question:
        if (self.kind == "out_of_kb") != (not self.gold_ids):
            raise ValueError("gold_ids: leer genau bei out_of_kb")
        if self.kind == "out_of_kb" and not self.absent_terms:
            raise ValueError("absent_terms: out_of_kb braucht Begriffe, die in der KB fehlen")
        if (self.kind == "false_premise") != (self.wrong_value is not None and self.correct_value is not None):
            raise ValueError("wrong_value/correct_value: genau bei false_premise")
        if (self.kind == "missing_context") != (self.dimension is not None):
            raise ValueError("dimension: genau bei missing_context")
        if self.kind in ("specific", "multi_part") and not self.expected_facts:
            raise ValueError("expected_facts: specific und multi_part brauchen erwartete Fakten")
        return self

    @property
    def cited_ok(self) -> frozenset[str]:
        """Entries whose citation counts as precise."""
        return frozenset(self.gold_ids) | frozenset(self.acceptable_ids)


def load_questions(path: Path, split: Split | None = None) -> list[Question]:
    """The questions of ``path`` (those of one ``split`` when given); DatasetError names file, line and field."""
    questions = read_rows(path, Question)
    return [q for q in questions if split is None or q.split == split]
