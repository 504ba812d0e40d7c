"""The knowledge-base read API the answer graph uses: multi-query hybrid search, conflicts, entries by id.

Every method takes a ``kb_id`` and every index query carries it as a mandatory filter; there is no path
that reads across knowledge bases.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import regex

from stores.kb.layout import (
    NO_END,
    NO_START,
    TENANT_KEY,
    checked_kb_id,
    chunk_number,
    day_number,
    day_of,
    kb_alias,
)
from stores.kb.models import Hit, KBConflict, KBEntry
from stores.settings import StoreSettings
from stores.sql.engine import Database
from stores.sql.kb import KBRecords
from stores.text.thesaurus import synonyms
from stores.vector.analyzer import nouns
from stores.vector.embedders import Embedder
from stores.vector.engine import VectorEngine
from stores.vector.index import FilterValue, HybridIndex, MissingIndex, ScoredPoint, index_from_settings

RRF_K = 60


class KnowledgeBaseNotFound(LookupError):
    def __init__(self, kb_id: str) -> None:
        super().__init__(f"Wissensbasis '{kb_id}' gibt es nicht (noch nichts eingelesen?).")
        self.kb_id = kb_id


@dataclass(frozen=True)
class _Ranked:
    point: ScoredPoint
    fused: float


class KnowledgeBase:
    """Read access to ingested KBs: one index alias per KB plus the SQL records of entries and conflicts."""

    def __init__(
        self,
        index: HybridIndex,
        database: Database,
        *,
        prefix: str = "belegt",
        cross_ref_extras: int = 3,
        chunks_per_hit: int = 2,
    ):
        self.index = index
        self.records = KBRecords(database)
        self.prefix = prefix
        self.cross_ref_extras = cross_ref_extras
        self.chunks_per_hit = chunks_per_hit

    @classmethod
    def from_settings(
        cls, settings: StoreSettings, *, engine: VectorEngine, database: Database, embedder: Embedder | None
    ) -> KnowledgeBase:
        return cls(
            build_index(settings, engine=engine, embedder=embedder),
            database,
            prefix=settings.qdrant_prefix,
            cross_ref_extras=settings.kb_cross_ref_extras,
            chunks_per_hit=settings.kb_chunks_per_hit,
        )

    def alias(self, kb_id: str) -> str:
        return kb_alias(self.prefix, kb_id)

    def search(
        self,
        kb_id: str,
        queries: Sequence[str],
        *,
        limit: int = 10,
        stand: str | None = None,
        valid_on: date | None = None,
        work: str | None = None,
        entries: Sequence[str] | None = None,
        expand_cross_refs: bool = True,
    ) -> list[Hit]:
        """Hits for several sub-queries fused into one list, one hit per entry.

        Sub-query rankings are fused by reciprocal rank; an entry's score is its best calibrated score over all
        sub-queries. Where a noun of the first query is said by no entry and the thesaurus knows words of the same
        meaning that entries say, that query in the KB's words is one more sub-query (not among given ``entries``,
        which are only scored). A hit's text is its entry's best chunk joined, in text order, with the entry's next
        best retrieved chunks (``chunks_per_hit`` in all): a long section's answer often sits in a chunk beside the
        one that matched best. ``stand`` keeps only entries of exactly that stand, ``valid_on`` only entries valid
        on that day, ``work`` only entries of that work (one act of a law KB), ``entries`` only those entries (to
        score them for a query). With ``expand_cross_refs``, up to ``cross_ref_extras`` entries referenced by the
        hits (and not hits themselves) follow the ``limit`` hits, marked ``cross_ref_extra``.
        """
        alias = self.alias(kb_id)
        texts = [q for q in queries if q.strip()]
        if not texts:
            if not self.index.exists(alias):
                raise KnowledgeBaseNotFound(kb_id)
            return []
        conditions = self._conditions(kb_id, stand, valid_on, work)
        if entries is not None:
            conditions["entry_id"] = list(entries)
        try:
            # a question noun the KB never uses is searched once more in the KB's words, as one more sub-query
            reworded = self._in_kb_words(alias, texts[0], conditions) if entries is None else None
            texts = texts if reworded is None else [*texts, reworded]
            rankings = self.index.search_many(alias, texts, filter=conditions, limit=limit * 3)
        except MissingIndex:
            raise KnowledgeBaseNotFound(kb_id) from None
        best: dict[str, _Ranked] = {}
        retrieved: dict[str, dict[str, ScoredPoint]] = defaultdict(dict)  # entry → chunk → its best point
        for chunks in rankings:
            for point in chunks:
                seen = retrieved[str(point.payload["entry_id"])]
                chunk = str(point.payload["chunk_id"])
                if chunk not in seen or point.score > seen[chunk].score:
                    seen[chunk] = point
            for position, point in enumerate(_best_chunk_per_entry(chunks), start=1):
                entry_id = str(point.payload["entry_id"])
                previous = best.get(entry_id)
                fused = 1.0 / (RRF_K + position) + (previous.fused if previous else 0.0)
                keep = point if previous is None or point.score > previous.point.score else previous.point
                best[entry_id] = _Ranked(keep, fused)
        ordered = sorted(best.values(), key=lambda r: (-r.fused, -r.point.score, r.point.payload["entry_id"]))[:limit]
        hits = [
            _hit(r.point, rank, text=self._hit_text(r.point, retrieved[str(r.point.payload["entry_id"])]))
            for rank, r in enumerate(ordered, start=1)
        ]
        if expand_cross_refs and self.cross_ref_extras > 0:
            hits += self._cross_ref_hits(alias, kb_id, texts[0], hits, conditions)
        return hits

    def _in_kb_words(self, alias: str, question: str, conditions: Mapping[str, FilterValue]) -> str | None:
        """The question with each noun that no entry says replaced by the words of the same meaning that entries say
        (thesaurus): „… wenn mir ein Medikament geschadet hat?" where the acts say „Arzneimittel"; None where there is
        none. A word said only inside a compound counts as said: the index keeps compound parts as terms."""
        written = {term: word for word, term in reversed(nouns(question))}  # as the question first writes it
        indexed = self.index.indexed_terms(alias, list(written), filter=conditions)
        other_words = {term: sorted(synonyms(term)) for term in written if term not in indexed}
        said = self.index.indexed_terms(alias, [w for words in other_words.values() for w in words], filter=conditions)
        kb_words = {written[term]: " ".join(w for w in words if w in said) for term, words in other_words.items()}
        kb_words = {word: said_so for word, said_so in kb_words.items() if said_so}
        if not kb_words:
            return None
        pattern = r"\b(?:" + "|".join(map(regex.escape, kb_words)) + r")\b"
        return str(regex.sub(pattern, lambda m: kb_words[m.group(0)], question))

    def _hit_text(self, best: ScoredPoint, chunks: Mapping[str, ScoredPoint]) -> str:
        others = sorted((p for c, p in chunks.items() if c != best.payload["chunk_id"]), key=lambda p: -p.score)
        shown = sorted([best, *others[: self.chunks_per_hit - 1]], key=lambda p: chunk_number(p.payload["chunk_id"]))
        # neighbouring chunks were cut at a sentence end; a gap between them becomes a paragraph break, and a
        # chunk right after its neighbour leaves out the list lead-in it repeats
        text = str(shown[0].payload["text"])
        for previous, point in zip(shown, shown[1:], strict=False):
            adjacent = chunk_number(point.payload["chunk_id"]) == chunk_number(previous.payload["chunk_id"]) + 1
            own = str(point.payload["text"])
            text += "\n" + own[int(point.payload.get("repeated_chars", 0)) :] if adjacent else "\n\n" + own
        return text

    def conflicts(self, kb_id: str) -> list[KBConflict]:
        return self.records.conflicts(checked_kb_id(kb_id))

    def works(self, kb_id: str) -> dict[str, list[str]]:
        """The KB's works (the acts of a law KB), each with its entries' ids."""
        return self.records.works(checked_kb_id(kb_id))

    def get_entries(self, kb_id: str, ids: Sequence[str]) -> list[KBEntry]:
        """The entries with these ids in this KB, in the order asked; unknown ids are left out."""
        found = {s.entry.id: s.entry for s in self.records.stored(checked_kb_id(kb_id), list(ids))}
        return [found[i] for i in dict.fromkeys(ids) if i in found]

    @staticmethod
    def _conditions(kb_id: str, stand: str | None, valid_on: date | None, work: str | None) -> dict[str, FilterValue]:
        conditions: dict[str, FilterValue] = {TENANT_KEY: kb_id}
        if stand is not None:
            conditions["stand"] = stand
        if work is not None:
            conditions["work"] = work
        if valid_on is not None:
            day = day_number(valid_on, NO_START)
            conditions["valid_from_n"] = {"lte": day}
            conditions["valid_until_n"] = {"gte": min(day, NO_END)}
        return conditions

    def _cross_ref_hits(
        self, alias: str, kb_id: str, query: str, hits: list[Hit], conditions: dict[str, FilterValue]
    ) -> list[Hit]:
        present = {h.entry_id for h in hits}
        wanted = [ref for h in hits for ref in h.cross_refs if ref not in present]
        wanted = list(dict.fromkeys(wanted))[: self.cross_ref_extras]
        if not wanted:
            return []
        # Scored against the query like any hit, so their score says how relevant they are themselves.
        scored = self.index.search(alias, query, filter={**conditions, "entry_id": wanted}, limit=len(wanted) * 8)
        best: dict[str, ScoredPoint] = {}
        for point in scored:
            best.setdefault(str(point.payload["entry_id"]), point)
        extras = [best[ref] for ref in wanted if ref in best]
        return [_hit(point, rank, cross_ref_extra=True) for rank, point in enumerate(extras, start=len(hits) + 1)]


def build_index(settings: StoreSettings, *, engine: VectorEngine, embedder: Embedder | None) -> HybridIndex:
    """The KB's hybrid index configured from settings, with the KB id as tenant key."""
    return index_from_settings(settings, engine=engine, embedder=embedder, tenant_key=TENANT_KEY)


def _best_chunk_per_entry(chunks: Sequence[ScoredPoint]) -> list[ScoredPoint]:
    seen: dict[str, ScoredPoint] = {}
    for point in chunks:
        seen.setdefault(str(point.payload["entry_id"]), point)
    return list(seen.values())


def _hit(point: ScoredPoint, rank: int, *, cross_ref_extra: bool = False, text: str | None = None) -> Hit:
    payload: dict[str, Any] = point.payload
    return Hit(
        entry_id=payload["entry_id"],
        chunk_id=payload["chunk_id"],
        kb_id=payload[TENANT_KEY],
        title=payload["title"],
        section=payload["section"],
        text=payload["text"] if text is None else text,
        stand=payload["stand"],
        work=payload["work"],
        official=payload["official"],
        source_ref=payload["source_ref"],
        cross_refs=tuple(payload["cross_refs"]),
        score=point.score,
        rank=rank,
        cross_ref_extra=cross_ref_extra,
        valid_from=day_of(int(payload.get("valid_from_n", NO_START))),
        valid_until=day_of(int(payload.get("valid_until_n", NO_END))),
    )
