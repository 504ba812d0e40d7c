"""Build ``synonyms_de.txt.gz`` from OpenThesaurus as Debian ships it (``apt-get install mythes-de``).

``python -m stores.text.thesaurus_build /usr/share/mythes/th_de_DE_v2.dat``. Each meaning line of the MyThes
file becomes one set of lemmas. Only nouns are kept (capitalised single words, hyphens allowed): verbs and
adjectives share the analyzer's lemmas with nouns of other meanings („lohnen" / „Lohn"), and the key content of a
question is its nouns. Left out too: words the analyzer drops or leaves shorter than four letters (but for
abbreviations of three capitals: „PKW", „KFZ", „MHD"), and terms marked as broader or narrower terms, figurative,
vulgar, dated or jocular — they name another meaning, not the same one.
"""

from __future__ import annotations

import gzip
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

from stores.text.thesaurus import HEADER_PREFIX, SYNONYMS_FILE
from stores.vector.analyzer import ANALYZER_VERSION, analyze

_OTHER_MEANING: Final = re.compile(
    r"\([^)]*\b(?:Oberbegriff|Unterbegriff|fig\.|derb|vulgär|veraltet|scherzh\.|ironisch|Antonym)[^)]*\)"
)
_NOTE: Final = re.compile(r"\([^)]*\)")
_SINGLE_WORD: Final = re.compile(r"^[\w-]+$")
MIN_LEMMA: Final = 4
ABBREVIATION_LETTERS: Final = 3  # „PKW" for „Auto": three capitals name one thing; two („AU") too many


def synonym_sets(lines: Iterable[str]) -> Iterator[frozenset[str]]:
    """The lemma sets of a MyThes data file's meaning lines (``-|Heirat (Hauptform)|Eheschließung|…``)."""
    for line in lines:
        if not line.startswith("-|"):
            continue
        lemmas = set()
        for term in line.rstrip("\n").split("|")[1:]:
            word = _NOTE.sub("", term).strip()
            if _OTHER_MEANING.search(term) or not _SINGLE_WORD.match(word) or not word[:1].isupper():
                continue
            terms = analyze(word)
            if terms and (len(terms[0]) >= MIN_LEMMA or (word.isupper() and len(word) == ABBREVIATION_LETTERS)):
                lemmas.add(terms[0])
        if len(lemmas) > 1:
            yield frozenset(lemmas)


def build(source: Path, target: Path = SYNONYMS_FILE) -> int:
    """Write the synonym sets of ``source`` to ``target`` (sorted, so a rebuild changes only what changed)."""
    with source.open(encoding="utf-8", errors="replace") as lines:
        found = {" ".join(sorted(s)) for s in synonym_sets(lines)}
    partial = target.with_suffix(".partial")
    try:
        with gzip.GzipFile(partial, "wb", mtime=0) as raw:
            raw.write(f"{HEADER_PREFIX}{ANALYZER_VERSION}\n".encode())
            raw.write("".join(f"{line}\n" for line in sorted(found)).encode())
        partial.replace(target)  # a failed build leaves the shipped file as it was, and no partial file
    finally:
        partial.unlink(missing_ok=True)
    return len(found)


if __name__ == "__main__":
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_file():
        sys.exit("Aufruf: python -m stores.text.thesaurus_build /usr/share/mythes/th_de_DE_v2.dat")
    print(f"{build(Path(sys.argv[1]))} Synonymgruppen nach {SYNONYMS_FILE} geschrieben")
