"""Ingest a knowledge base from JSONL or a folder of Markdown files: validate everything, then sync.

Input is checked completely before anything is written; one error report names every problem (file,
line, field). The sync is idempotent (content hashes): unchanged entries are not touched, changed ones are
replaced, ``prune`` removes entries missing from the input. Every index write is one new version switched to
atomically (copy-on-write), so readers see the KB before or after an ingest, never a mix. Each point carries
its entry's content hash: if the index was built with another embedder or analyzer, or any point differs
from the SQL records (a crash between the index switch and the SQL commit, a lost store), the whole KB is
re-indexed from the input and the records. SQL is committed only after the index switch succeeded.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any, Protocol

import yaml
from pydantic import ValidationError

from stores.ingest.mapping import FieldMapping, FieldMappingError
from stores.ingest.screening import ScreeningFlag, screen_entries
from stores.kb.layout import TENANT_KEY, checked_kb_id, chunk_id, content_hash, entry_points, point_id
from stores.kb.models import KBConflict, KBEntry
from stores.kb.store import KnowledgeBase, KnowledgeBaseNotFound
from stores.sql.kb import KBChanges, StoredEntry, conflict_key
from stores.text.references import provision_references, referenced_ids
from stores.vector.embedders import Embedder, TokenLimited
from stores.vector.index import IndexPoint

REQUIRED_FIELDS = ("id", "title", "text", "stand", "work", "official")
CONFLICT_FIELDS = ("ids", "topic", "sides")
CONFLICT_FILES = ("conflicts.yaml", "conflicts.yml")
STAND = re.compile(r"^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$")
MAX_REPORTED = 25
HASH_KEY = "content_hash"
MIN_CHUNK_CHARS = 200


class KBInputError(ValueError):
    """Bad input: every problem with its place; nothing has been written."""

    def __init__(self, problems: Sequence[str]) -> None:
        shown = list(problems[:MAX_REPORTED])
        more = len(problems) - len(shown)
        lines = "\n".join(f"  - {p}" for p in shown) + (f"\n  … und {more} weitere" if more else "")
        super().__init__(f"Eingabe ungültig, nichts geschrieben ({len(problems)} Problem(e)):\n{lines}")
        self.problems = list(problems)


class ProgressReporter(Protocol):
    def start(self, total: int) -> None: ...

    def advance(self, done: int) -> None: ...


@dataclass(frozen=True)
class KBInput:
    entries: list[KBEntry]
    conflicts: list[KBConflict]
    places: dict[str, str]
    """Entry id → ``file:line`` where it was read."""


@dataclass
class IngestSummary:
    kb_id: str
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    conflicts: int = 0
    rebuilt: bool = False
    warnings: list[str] = field(default_factory=list)
    flagged: list[ScreeningFlag] = field(default_factory=list)
    """Entries that read like instructions to an assistant; held back unless ingested with allow_flagged."""
    flagged_held_back: bool = True

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed or self.rebuilt)


# --- reading and validating --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Record:
    place: str
    data: dict[str, Any]


def read_kb_input(source: Path, kb_id: str, id_pattern: str, mapping: FieldMapping | None = None) -> KBInput:
    """Parse and validate a ``.jsonl`` file or a folder of ``.md`` files (plus ``conflicts.yaml``).

    A ``mapping`` renames each entry record's fields first (``stores.ingest.mapping``); a source field it
    names that no record has is a FieldMappingError.
    """
    checked_kb_id(kb_id)
    try:
        pattern = re.compile(id_pattern)
    except re.error as exc:
        raise KBInputError([f"ID-Muster {id_pattern!r} ist kein gültiger regulärer Ausdruck: {exc}"]) from None
    problems: list[str] = []
    if source.is_dir():
        entry_records, conflict_records = _markdown_records(source, problems)
    elif source.is_file():
        entry_records, conflict_records = _jsonl_records(source, problems)
    else:
        raise KBInputError([f"{source}: Datei oder Ordner gibt es nicht"])
    if mapping is not None:
        entry_records = _mapped(entry_records, mapping, problems)
    entries, places = _entries(entry_records, kb_id, pattern, problems)
    entries = _with_text_references(entries)
    if not entries and not problems:
        problems.append(f"{source}: enthält keine Einträge")
    conflicts = _conflicts(conflict_records, kb_id, problems)
    if problems:
        raise KBInputError(problems)
    return KBInput(entries=entries, conflicts=conflicts, places=places)


def _mapped(records: list[_Record], mapping: FieldMapping, problems: list[str]) -> list[_Record]:
    applied = [(record.place, *mapping.apply(record.data)) for record in records]
    if applied:
        nowhere = set.intersection(*(set(missing) for _, _, missing in applied))
        if nowhere:
            target = next(t for t, s in mapping.fields.items() if s in nowhere)
            raise FieldMappingError(
                f"Quellfeld „{mapping.fields[target]}“ (für {target}) kommt in keinem Eintrag vor; nichts geschrieben."
            )
    problems += [
        f"{place}: Quellfeld(er) laut Zuordnung fehlen: {', '.join(missing)}"
        for place, _, missing in applied
        if missing
    ]
    return [_Record(place, data) for place, data, missing in applied if not missing]


def _decoded(path: Path, problems: list[str]) -> str | None:
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        problems.append(f"{path}:{line}: keine gültige UTF-8-Kodierung (Byte {raw[exc.start]:#04x})")
        return None


def _jsonl_records(path: Path, problems: list[str]) -> tuple[list[_Record], list[_Record]]:
    if path.suffix.lower() != ".jsonl":
        raise KBInputError([f"{path}: erwartet eine .jsonl-Datei oder einen Ordner mit .md-Dateien"])
    text = _decoded(path, problems)
    entries: list[_Record] = []
    conflicts: list[_Record] = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        place = f"{path}:{number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{place}: kein gültiges JSON ({exc.msg}, Spalte {exc.colno})")
            continue
        if not isinstance(data, dict):
            problems.append(f"{place}: erwartet ein JSON-Objekt, nicht {type(data).__name__}")
            continue
        kind = data.pop("type", "entry")
        if kind == "conflict":
            conflicts.append(_Record(place, data))
        elif kind == "entry":
            entries.append(_Record(place, data))
        else:
            problems.append(f"{place}: unbekannter type {kind!r} (erlaubt: entry, conflict)")
    return entries, conflicts


def _markdown_records(folder: Path, problems: list[str]) -> tuple[list[_Record], list[_Record]]:
    entries: list[_Record] = []
    files = sorted(folder.rglob("*.md"))
    for path in files:
        text = _decoded(path, problems)
        if text is None:
            continue
        match = re.match(r"^---[ \t]*\n(.*?)\n---[ \t]*(?:\n|$)(.*)$", text, re.DOTALL)
        if match is None:
            problems.append(f"{path}:1: Front Matter fehlt (Datei muss mit '---' beginnen und es schließen)")
            continue
        front = _yaml(path, match.group(1), problems, line_offset=1)
        if front is None:
            continue
        if not isinstance(front, dict):
            problems.append(f"{path}:2: Front Matter muss aus 'feld: wert'-Zeilen bestehen")
            continue
        if "text" in front:
            problems.append(f"{path}: 'text' gehört in den Rumpf, nicht ins Front Matter")
            continue
        entries.append(_Record(f"{path}:1", {**front, "text": match.group(2).strip()}))
    conflicts: list[_Record] = []
    for name in CONFLICT_FILES:
        path = folder / name
        if not path.is_file():
            continue
        text = _decoded(path, problems)
        loaded = _yaml(path, text, problems) if text is not None else None
        if loaded is None:
            continue
        if not isinstance(loaded, list):
            problems.append(f"{path}: erwartet eine Liste von Konflikten")
            continue
        conflicts += [_Record(f"{path} (Konflikt {n})", item) for n, item in enumerate(loaded, start=1)]
    if not files:
        problems.append(f"{folder}: keine .md-Dateien gefunden")
    return entries, conflicts


def _yaml(path: Path, text: str, problems: list[str], *, line_offset: int = 0) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 + line_offset if mark is not None else 1
        problems.append(f"{path}:{line}: kein gültiges YAML ({getattr(exc, 'problem', exc)})")
        return None


def _entries(
    records: list[_Record], kb_id: str, pattern: re.Pattern[str], problems: list[str]
) -> tuple[list[KBEntry], dict[str, str]]:
    entries: list[KBEntry] = []
    places: dict[str, str] = {}
    for record in records:
        entry = _entry(record, kb_id, pattern, problems)
        if entry is None:
            continue
        if entry.id in places:
            problems.append(f"{record.place}: ID {entry.id!r} doppelt, zuerst in {places[entry.id]}")
            continue
        places[entry.id] = record.place
        entries.append(entry)
    for entry in entries:
        for ref in entry.cross_refs:
            if not pattern.match(ref):
                problems.append(f"{places[entry.id]}: Querverweis {ref!r} passt nicht zum ID-Muster {pattern.pattern}")
    return entries, places


def _with_text_references(entries: list[KBEntry]) -> list[KBEntry]:
    """Each entry's declared cross references, then the entries of the same work its text refers to („wegen eines
    in § 1 genannten Grundes" → ``AGG §1``): retrieval adds them beside a hit that names its matter only so."""
    ids = {e.id for e in entries}

    def with_refs(entry: KBEntry) -> KBEntry:
        found = referenced_ids(provision_references(entry.text), entry.id, ids)
        return entry.model_copy(update={"cross_refs": tuple(dict.fromkeys([*entry.cross_refs, *found]))})

    return [with_refs(e) for e in entries]


def _entry(record: _Record, kb_id: str, pattern: re.Pattern[str], problems: list[str]) -> KBEntry | None:
    data = {k: (v.isoformat() if k == "stand" and isinstance(v, date) else v) for k, v in record.data.items()}
    missing = [name for name in REQUIRED_FIELDS if data.get(name) in (None, "")]
    if missing:
        problems.append(f"{record.place}: Pflichtfelder fehlen: {', '.join(missing)}")
        return None
    unknown = sorted(set(data) - set(KBEntry.model_fields))
    if unknown:
        problems.append(f"{record.place}: unbekannte Felder: {', '.join(unknown)}")
        return None
    if data.setdefault(TENANT_KEY, kb_id) != kb_id:
        problems.append(f"{record.place}: kb_id {data[TENANT_KEY]!r} passt nicht zu --kb {kb_id!r}")
        return None
    if not isinstance(data["id"], str) or not pattern.match(data["id"]):
        problems.append(f"{record.place}: ID {data['id']!r} passt nicht zum ID-Muster {pattern.pattern}")
        return None
    # Markdown writes characters as HTML references („&nbsp;", „&sect;", „&amp;"): the KB stores the characters
    data.update({k: html.unescape(data[k]) for k in ("title", "text") if isinstance(data[k], str)})
    try:
        entry = KBEntry.model_validate(data)
    except ValidationError as exc:
        for error in exc.errors():
            name = ".".join(str(part) for part in error["loc"])
            problems.append(f"{record.place}: Feld {name}: {error['msg']}")
        return None
    if not STAND.match(entry.stand):
        problems.append(f"{record.place}: Feld stand {entry.stand!r} ist kein Datum der Form JJJJ-MM oder JJJJ-MM-TT")
        return None
    if entry.valid_from and entry.valid_until and entry.valid_from > entry.valid_until:
        problems.append(f"{record.place}: valid_from liegt nach valid_until")
        return None
    return entry


def _conflicts(records: list[_Record], kb_id: str, problems: list[str]) -> list[KBConflict]:
    conflicts: list[KBConflict] = []
    for record in records:
        missing = [name for name in CONFLICT_FIELDS if not record.data.get(name)]
        if missing:
            problems.append(f"{record.place}: Konflikt ohne Pflichtfelder: {', '.join(missing)}")
            continue
        try:
            conflict = KBConflict.model_validate({**record.data, TENANT_KEY: kb_id})
        except ValidationError as exc:
            problems += [
                f"{record.place}: Konflikt, Feld {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()
            ]
            continue
        if len(set(conflict.ids)) < 2 or set(conflict.sides) != set(conflict.ids):
            problems.append(f"{record.place}: ein Konflikt braucht ≥ 2 verschiedene IDs und je eine Seite pro ID")
            continue
        conflicts.append(conflict)
    return conflicts


# --- syncing -----------------------------------------------------------------------------------------


def ingest_kb(
    source: Path,
    kb_id: str,
    *,
    kb: KnowledgeBase,
    default_id_pattern: str,
    chunk_chars: int,
    prune: bool = False,
    id_pattern: str | None = None,
    mapping: FieldMapping | None = None,
    allow_flagged: bool = False,
    progress: ProgressReporter | None = None,
) -> IngestSummary:
    """Validate ``source`` (its fields renamed by ``mapping``) and bring KB ``kb_id`` in line with it."""
    pattern = id_pattern or kb.records.id_pattern(kb_id) or default_id_pattern
    parsed = read_kb_input(source, kb_id, pattern, mapping)
    summary = IngestSummary(kb_id=kb_id, flagged=screen_entries(parsed.entries), flagged_held_back=not allow_flagged)
    if summary.flagged and not allow_flagged:
        held = {flag.entry_id for flag in summary.flagged}
        parsed = replace(parsed, entries=[e for e in parsed.entries if e.id not in held])
    stored = {s.entry.id: s for s in kb.records.stored(kb_id)}
    embedder = kb.index.embedder
    points_of: dict[str, list[IndexPoint]] = {}

    def points(entry: KBEntry) -> list[IndexPoint]:
        """Input entries carry their new hash, entries kept from the records their recorded one."""
        if entry.id not in points_of:
            digest = content_hash(entry, chunk_chars) if entry.id in input_ids else stored[entry.id].content_hash
            points_of[entry.id] = index_points(entry, digest, chunk_chars, embedder)
        return points_of[entry.id]

    input_ids = {e.id for e in parsed.entries}
    upserts: list[StoredEntry] = []
    for entry in parsed.entries:
        digest = content_hash(entry, chunk_chars)
        old = stored.get(entry.id)
        if old is not None and old.content_hash == digest:
            summary.unchanged.append(entry.id)
            continue
        (summary.updated if old is not None else summary.added).append(entry.id)
        upserts.append(StoredEntry(entry, digest, len(points(entry))))
    summary.removed = sorted(set(stored) - input_ids) if prune else []
    final_ids = input_ids | (set(stored) - set(summary.removed))
    _check_conflicts(parsed, final_ids)
    summary.conflicts = len(parsed.conflicts)
    summary.warnings = [
        f"{parsed.places[e.id]}: Querverweis {ref!r} zeigt auf keinen Eintrag der KB"
        for e in parsed.entries
        for ref in e.cross_refs
        if ref not in final_ids
    ]
    alias = kb.alias(kb_id)
    kb.index.remove_orphans(alias)
    exists = kb.index.exists(alias)
    # A version built with another embedder/analyzer, or out of step with SQL in any point, is rebuilt whole.
    full_build = not exists or not kb.index.is_current(alias) or _drifted(kb, alias, kb_id, stored.values())
    summary.rebuilt = full_build and (exists or bool(stored))
    kept = [s.entry for s in stored.values() if s.entry.id not in input_ids and s.entry.id in final_ids]
    if full_build:  # chunk counts follow the embedder's input limit: keep the records in step with the index
        upserted = {s.entry.id for s in upserts}
        upserts += [
            StoredEntry(e, stored[e.id].content_hash, len(points(e)))
            for e in [*parsed.entries, *kept]
            if e.id in stored and e.id not in upserted and stored[e.id].chunk_count != len(points(e))
        ]
    old_conflicts = {conflict_key(c.ids): c for c in kb.records.conflicts(kb_id)}
    new_conflicts = {conflict_key(c.ids): c for c in parsed.conflicts}
    conflicts_changed = any(old_conflicts.get(k) != c for k, c in new_conflicts.items()) or (
        prune and set(old_conflicts) != set(new_conflicts)
    )
    if not (summary.changed or conflicts_changed or pattern != kb.records.id_pattern(kb_id)):
        return summary

    def write_index() -> None:
        if full_build:
            _build(kb, alias, [p for e in [*parsed.entries, *kept] for p in points(e)], progress)
            return
        changed = [p for s in upserts for p in points(s.entry)]
        if progress is not None:
            progress.start(len(changed))
        stale = [
            point_id(kb_id, chunk_id(s.entry.id, n))
            for s in upserts
            if s.entry.id in stored
            for n in range(s.chunk_count + 1, stored[s.entry.id].chunk_count + 1)
        ]
        stale += [point_id(kb_id, chunk_id(i, n)) for i in summary.removed for n in range(1, stored[i].chunk_count + 1)]
        kb.index.update(alias, changed, delete=stale, progress=progress.advance if progress else None)

    kb.records.apply(
        KBChanges(
            kb_id=kb_id,
            id_pattern=pattern,
            upserts=upserts,
            removals=summary.removed,
            conflicts=parsed.conflicts,
            prune_conflicts=prune,
        ),
        before_commit=write_index,
    )
    return summary


def reindex_kb(kb_id: str, *, kb: KnowledgeBase, chunk_chars: int, progress: ProgressReporter | None = None) -> int:
    """Rebuild a KB's index from its SQL records into a new collection (alias switch); returns the entry count."""
    stored = kb.records.stored(checked_kb_id(kb_id))
    if not stored:
        raise KnowledgeBaseNotFound(kb_id)
    embedder = kb.index.embedder
    points = [p for s in stored for p in index_points(s.entry, s.content_hash, chunk_chars, embedder)]
    _build(kb, kb.alias(kb_id), points, progress)
    return len(stored)


def index_points(entry: KBEntry, digest: str, chunk_chars: int, embedder: Embedder | None) -> list[IndexPoint]:
    """The entry's index points, each carrying the entry's content hash for per-point drift checks.

    Chunks shrink until each fits the embedder's input limit (e5: 512 tokens), so no chunk is embedded as
    an average over windows or cut off by the model.
    """
    size = chunk_chars
    while True:
        chunks = entry_points(entry, size)
        if (
            not isinstance(embedder, TokenLimited)
            or size <= MIN_CHUNK_CHARS
            or all(embedder.token_count(p.text) <= embedder.max_tokens for p in chunks)
        ):
            return [IndexPoint(id=p.id, text=p.text, payload={**p.payload, HASH_KEY: digest}) for p in chunks]
        size = max(MIN_CHUNK_CHARS, size * 3 // 4)


def _drifted(kb: KnowledgeBase, alias: str, kb_id: str, stored: Iterable[StoredEntry]) -> bool:
    """Does any point of the live index differ from what the SQL records say (id set or content hash)?"""
    expected = {
        point_id(kb_id, chunk_id(s.entry.id, n)): s.content_hash for s in stored for n in range(1, s.chunk_count + 1)
    }
    return kb.index.payload_values(alias, HASH_KEY) != expected


def _build(kb: KnowledgeBase, alias: str, points: Sequence[IndexPoint], progress: ProgressReporter | None) -> None:
    if progress is not None:
        progress.start(len(points))
    kb.index.build(alias, points, progress=progress.advance if progress else None)


def _check_conflicts(parsed: KBInput, final_ids: set[str]) -> None:
    problems = [
        f"Konflikt {c.topic!r}: ID {i!r} gibt es in der KB nicht"
        for c in parsed.conflicts
        for i in c.ids
        if i not in final_ids
    ]
    if problems:
        raise KBInputError(problems)
