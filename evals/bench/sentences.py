"""Sentence boundaries on a labelled German sample (legal, HR, news): belegt's engine against pySBD and syntok.

    python -m evals.bench.sentences [--rounds N] [--json]

Each record of ``evals/datasets/sentences_de.jsonl`` holds a text (prose, hard-wrapped paragraphs or one item
per line) and its gold sentences. A boundary is the position of a sentence end counted in non-blank characters,
so segmenters that return strings, tokens or spans are compared alike. Precision, recall and F1 are over the
boundaries inside the texts; "exact" is the share of texts segmented without any error. The "dev" records
shaped the engine's rules; the "holdout" records were written afterwards and never tuned on. Segmenters that are not
installed (``pip install pysbd syntok``) are skipped. The maintained ones also run on the text after belegt's
``unwrap`` (``+unwrap``), which separates their boundary rules from line handling. Speed: median of ``--rounds``
passes over the whole sample, in sentences per second.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from stores.text import sentence_texts, unwrap

DATASET = Path(__file__).resolve().parents[1] / "datasets" / "sentences_de.jsonl"
Segmenter = Callable[[str], list[str]]


@dataclass(frozen=True)
class Record:
    split: str
    domain: str
    layout: str
    text: str
    sentences: list[str]


def load_records(path: Path = DATASET) -> list[Record]:
    with path.open(encoding="utf-8") as handle:
        return [Record(**json.loads(line)) for line in handle if line.strip()]


def boundaries(sentences: list[str]) -> set[int]:
    """Sentence ends as counts of non-blank characters, the last one (end of text) left out."""
    ends, count = set(), 0
    for sentence in sentences:
        count += sum(1 for ch in sentence if not ch.isspace())
        ends.add(count)
    return ends - {count}


def pysbd_segmenter() -> Segmenter | None:
    try:
        import pysbd  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    segmenter = pysbd.Segmenter(language="de", clean=False)
    return lambda text: [str(s) for s in segmenter.segment(text)]


def syntok_segmenter() -> Segmenter | None:
    try:
        from syntok import segmenter  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    return lambda text: [
        "".join(token.spacing + token.value for token in sentence)
        for paragraph in segmenter.process(text)
        for sentence in paragraph
    ]


def segmenters() -> dict[str, Segmenter]:
    found: dict[str, Segmenter] = {"belegt": sentence_texts}
    for name, factory in (("pysbd", pysbd_segmenter), ("syntok", syntok_segmenter)):
        segment = factory()
        if segment is not None:
            found[name] = segment
            found[f"{name}+unwrap"] = _after_unwrap(segment)
    return found


def _after_unwrap(segment: Segmenter) -> Segmenter:
    return lambda text: segment(unwrap(text))


def score(segment: Segmenter, records: list[Record], rounds: int) -> dict[str, object]:
    true_pos = false_pos = false_neg = exact = 0
    by_domain: dict[str, list[int]] = {}
    for record in records:
        gold, found = boundaries(record.sentences), boundaries(segment(record.text))
        hits = len(gold & found)
        true_pos += hits
        false_pos += len(found - gold)
        false_neg += len(gold - found)
        exact += gold == found
        counts = by_domain.setdefault(record.domain, [0, 0, 0])
        counts[0] += hits
        counts[1] += len(found - gold)
        counts[2] += len(gold - found)
    n_sentences = sum(len(r.sentences) for r in records)
    timings = []
    for _ in range(rounds):
        started = time.perf_counter()
        for record in records:
            segment(record.text)
        timings.append(time.perf_counter() - started)
    return {
        "precision": round(_ratio(true_pos, true_pos + false_pos), 4),
        "recall": round(_ratio(true_pos, true_pos + false_neg), 4),
        "f1": round(_ratio(2 * true_pos, 2 * true_pos + false_pos + false_neg), 4),
        "exact_texts": round(exact / len(records), 4),
        "false_splits": false_pos,
        "missed": false_neg,
        "f1_by_domain": {d: round(_ratio(2 * c[0], 2 * c[0] + c[1] + c[2]), 4) for d, c in sorted(by_domain.items())},
        "sentences_per_s": round(n_sentences / statistics.median(timings)),
    }


def _ratio(a: int, b: int) -> float:
    return a / b if b else 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    records = load_records()
    report: dict[str, object] = {}
    for split in ("dev", "holdout", "all"):
        chosen = [r for r in records if split in ("all", r.split)]
        sample = {
            "texts": len(chosen),
            "sentences": sum(len(r.sentences) for r in chosen),
            "boundaries": sum(len(boundaries(r.sentences)) for r in chosen),
        }
        results = {name: score(segment, chosen, args.rounds) for name, segment in segmenters().items()}
        report[split] = {"sample": sample, "segmenters": results}
        if args.json:
            continue
        print(f"{split}: {sample['texts']} Texte, {sample['sentences']} Sätze, {sample['boundaries']} Grenzen im Text")
        print(f"{'Segmentierer':<16}{'P':>8}{'R':>8}{'F1':>8}{'exakt':>8}{'falsch':>8}{'fehlt':>8}{'Sätze/s':>10}")
        for name, r in results.items():
            print(
                f"{name:<16}{r['precision']:>8}{r['recall']:>8}{r['f1']:>8}{r['exact_texts']:>8}"
                f"{r['false_splits']:>8}{r['missed']:>8}{r['sentences_per_s']:>10}"
            )
        print()
    if args.json:
        print(json.dumps(report, ensure_ascii=False))


if __name__ == "__main__":
    main()
