"""The Austrian acts of ``../shared/data/at_gesetze_lawat`` as a KB input nobody tuned for: one JSONL record per
section, cut from each act's Markdown by the line ranges of its index, for ``belegt ingest`` with the mapping
``evals/datasets/lawat.mapping.yaml``.

    .venv/bin/python -m evals.datasets.lawat ../shared/data/at_gesetze_lawat/files at.jsonl [--acts KSchG,B-VG]
    .venv/bin/belegt ingest at.jsonl --kb at --mapping evals/datasets/lawat.mapping.yaml \\
        --id-pattern '^\\S+ (§|Art)\\S+$'

The act's Markdown sets its text as block quotes with numbers in code spans („> `(1)` Dieses Hauptstück …") and
escapes punctuation („Abs\\. 1"); a record keeps the text with neither (the KB's text engine reads the numbers and
lists). Its ``stand`` is the act's „Fassung vom" date. Structure headings inside a range (Hauptstück, Abschnitt) and
sections repealed or without a sentence are left out. The records are written only when every act was read.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final

_SECTION: Final = re.compile(r"^(?:Art\. \d+ )?(§|Art\.)\s*(\S+)\s+(\S+)$")  # „§ 3a KSchG", „Art. 2 § 4 DSG"
_RANGE: Final = re.compile(r":(\d+)-(\d+)$")
_VERSION: Final = re.compile(r"Fassung vom:\*\*\s*(\d{2}\.\d{2}\.\d{4})")
_QUOTE: Final = re.compile(r"^(?:>\s*)+")
_ESCAPE: Final = re.compile(r"\\(.)")
_BLANK_RUN: Final = re.compile(r"\n{3,}")
_REPEALED: Final = re.compile(r"^\(?(?:Anm\.: )?aufgehoben", re.IGNORECASE)
MIN_TEXT_CHARS: Final = 20


class LawAtError(ValueError):
    """An act the folder lacks or whose files do not have the LawAT shape; the message is German."""


@dataclass(frozen=True)
class Act:
    abbreviation: str
    index: Path
    markdown: Path


def acts_in(folder: Path, wanted: Sequence[str] | None = None) -> list[Act]:
    """The acts of a LawAT ``files`` folder (``BG.KSchG.index.json`` + ``BG.KSchG.md``), all or those named."""
    found = {
        path.name.removesuffix(".index.json").split(".", 1)[1]: path
        for path in sorted(folder.glob("*.index.json"))
        if "." in path.name.removesuffix(".index.json")
    }
    if not found:
        raise LawAtError(f"In {folder} liegt kein Gesetz des LawAT-Datensatzes (*.index.json mit *.md).")
    names = list(wanted) if wanted else list(found)
    missing = [name for name in names if name not in found]
    if missing:
        raise LawAtError(f"In {folder} fehlen die Gesetze {', '.join(missing)} (vorhanden: {', '.join(found)}).")
    return [
        Act(name, found[name], found[name].with_name(found[name].name.replace(".index.json", ".md"))) for name in names
    ]


def act_records(act: Act) -> Iterator[dict[str, Any]]:
    """The act's sections as KB records: ``id`` („KSchG §3", „B-VG Art60"), ``heading``, ``law_title``, ``text``,
    ``stand``, ``source``."""
    try:
        index = json.loads(act.index.read_text(encoding="utf-8"))
        lines = act.markdown.read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError) as exc:
        raise LawAtError(f"{act.index.name}: nicht lesbar ({exc}).") from exc
    title = next((line[2:] for line in lines if line.startswith("# ")), act.abbreviation).split(" — ", 1)[-1]
    version = _VERSION.search("\n".join(lines[:40]))
    if version is None:
        raise LawAtError(f"{act.markdown.name}: keine Angabe „Fassung vom“ im Kopf.")
    stand = datetime.strptime(version.group(1), "%d.%m.%Y").date().isoformat()
    toc = index.get("toc") if isinstance(index, dict) else None
    if not isinstance(toc, list):
        raise LawAtError(f"{act.index.name}: kein Inhaltsverzeichnis „toc“.")
    for entry in toc:
        if not isinstance(entry, list):
            continue  # a structure heading of the table of contents
        if len(entry) < 4 or not all(isinstance(part, str) for part in entry[:4]):
            raise LawAtError(f"{act.index.name}: Eintrag {entry!r} hat nicht Abschnitt, Zeilen, Datei, Titel.")
        section, place, _, label = entry[:4]
        number, lines_range = _SECTION.match(section), _RANGE.search(place)
        if number is None or lines_range is None:
            continue  # an annex („Anl. 1 B-VG"), no section
        first, last = int(lines_range.group(1)), int(lines_range.group(2))
        text = _plain(lines[first - 1 : last])
        if len(text) < MIN_TEXT_CHARS or _REPEALED.match(text):
            continue
        kind = "Art" if number.group(1) == "Art." else "§"
        name = label.split(" # ", 1)[1] if " # " in label else ""
        yield {
            "id": f"{number.group(3)} {kind}{number.group(2)}",
            "heading": f"{kind} {number.group(2)} {name}".strip(),
            "law_title": title,
            "text": text,
            "stand": stand,
            "source": f"LawAT:{act.markdown.stem}",
        }


def _plain(lines: Sequence[str]) -> str:
    """The section's text without its headings, quote marks, code spans and escapes."""
    kept = [
        _ESCAPE.sub(r"\1", _QUOTE.sub("", line).replace("`", "")).rstrip() for line in lines if not line.startswith("#")
    ]
    return _BLANK_RUN.sub("\n\n", "\n".join(kept)).strip()


def write_records(folder: Path, out: Path, wanted: Sequence[str] | None = None) -> int:
    """All records of the acts, written to ``out`` only once every act was read; returns their number."""
    records = [record for act in acts_in(folder, wanted) for record in act_records(act)]
    # written beside the target and moved over it: a failed write leaves no half file, an earlier one stays whole
    partial = out.with_name(f"{out.name}.part")
    try:
        partial.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        os.replace(partial, out)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise LawAtError(f"{out}: nicht schreibbar ({exc.strerror or exc}).") from exc
    return len(records)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="der Ordner files/ des LawAT-Datensatzes")
    parser.add_argument("out", type=Path, help="die JSONL-Datei, die geschrieben wird")
    parser.add_argument("--acts", help="Kurztitel, durch Kommas getrennt (Vorgabe: alle)")
    args = parser.parse_args(argv)
    try:
        count = write_records(args.folder, args.out, args.acts.split(",") if args.acts else None)
    except LawAtError as exc:
        raise SystemExit(str(exc)) from exc
    print(f"{count} Abschnitte nach {args.out} geschrieben.")


if __name__ == "__main__":
    main()
