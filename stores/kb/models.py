"""Knowledge-base records: entries (what answers cite), declared source conflicts, and retrieval hits."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict, Field


class KBEntry(BaseModel):
    """One citable entry. ``id`` is what answers cite; ``official`` False marks a non-official work."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    kb_id: str
    title: str
    section: str = ""
    text: str
    stand: str = Field(description="As-of date of the content, YYYY-MM or YYYY-MM-DD.")
    work: str = Field(description="The source work the entry is taken from.")
    official: bool
    source_ref: str | None = None
    cross_refs: tuple[str, ...] = ()
    valid_from: date | None = None
    valid_until: date | None = None


class KBConflict(BaseModel):
    """A known contradiction between entries, declared in the KB data: ``sides`` maps entry id → neutral summary."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kb_id: str
    ids: tuple[str, ...]
    topic: str
    sides: dict[str, str]


class Hit(BaseModel):
    """One retrieved entry (its best chunk), ranked.

    ``score`` is calibrated: the estimated probability, in [0, 1], that the KB holds an answer to the query
    given this hit's dense cosine and BM25 evidence (see ``stores.vector.calibration``). It is monotone in
    both and comparable to the strictness levels' ``min_score``. ``cross_ref_extra`` marks entries added
    only because a retrieved entry references them; they rank after all retrieved hits.
    """

    model_config = ConfigDict(frozen=True)

    entry_id: str
    chunk_id: str
    kb_id: str
    title: str
    section: str
    text: str
    stand: str
    work: str
    official: bool
    source_ref: str | None
    cross_refs: tuple[str, ...]
    score: float = Field(ge=0.0, le=1.0)
    rank: int = Field(ge=1)
    cross_ref_extra: bool = False
    valid_from: date | None = None
    valid_until: date | None = None

    def in_force(self, first: date, last: date) -> bool:
        """Whether the entry is valid on some day from ``first`` to ``last``."""
        return (self.valid_from is None or self.valid_from <= last) and (
            self.valid_until is None or self.valid_until >= first
        )
