"""Build ``synonyms_de.txt.gz`` and ``broader_de.txt.gz`` from OpenThesaurus as Debian ships it
(``apt-get install mythes-de``).

``python -m stores.text.thesaurus_build /usr/share/mythes/th_de_DE_v2.dat``. Each meaning line of the MyThes
file becomes one set of lemmas, and its terms marked „(Oberbegriff)" the broader terms of each member. Only nouns
are kept (capitalised single words, hyphens allowed): verbs and adjectives share the analyzer's lemmas with nouns
of other meanings („lohnen" / „Lohn"), and the key content of a question is its nouns. Broader terms are kept only
for words of one meaning („Stimme" is a voice, a vote and a musical part). Left out too: words the
analyzer drops or leaves shorter than four letters (but for abbreviations of three capitals: „PKW", „KFZ",
„MHD"), terms marked as narrower terms, figurative, vulgar, dated or jocular — they name another meaning, not the
same one —, colloquial broader terms, and broader terms of ``MAX_NARROWER`` meanings or more („Person", „Land",
„Raum", „Handlung"): they would stand for nearly anything.
"""

from __future__ import annotations

import gzip
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

from stores.text.thesaurus import BROADER_FILE, HEADER_PREFIX, SYNONYMS_FILE
from stores.vector.analyzer import ANALYZER_VERSION, analyze

_BROADER: Final = "(Oberbegriff)"
_OTHER_MEANING: Final = re.compile(
    r"\([^)]*\b(?:Unterbegriff|fig\.|derb|vulgär|veraltet|scherzh\.|ironisch|Antonym)[^)]*\)"
)
_COLLOQUIAL: Final = re.compile(r"\([^)]*\bugs\.[^)]*\)")  # a KB names the class in standard words
_NOTE: Final = re.compile(r"\([^)]*\)")
_SINGLE_WORD: Final = re.compile(r"^[\w-]+$")
MIN_LEMMA: Final = 4
ABBREVIATION_LETTERS: Final = 3  # „PKW" for „Auto": three capitals name one thing; two („AU") too many
MAX_NARROWER: Final = 140  # persons (~290 meanings), states (~210), regions and rooms (~145); diseases (131) stay


def meanings(lines: Iterable[str]) -> Iterator[tuple[frozenset[str], frozenset[str]]]:
    """The lemmas of each meaning line of a MyThes data file (``-|Grippe|Influenza|Erkrankung (Oberbegriff)|…``):
    its members, and its broader terms."""
    for line in lines:
        if not line.startswith("-|"):
            continue
        members, broader = set(), set()
        for term in line.rstrip("\n").split("|")[1:]:
            lemma = _noun_lemma(term)
            if lemma is None or _OTHER_MEANING.search(term):
                continue
            if _BROADER not in term:
                members.add(lemma)
            elif not _COLLOQUIAL.search(term):
                broader.add(lemma)
        yield frozenset(members), frozenset(broader - members)


def _noun_lemma(term: str) -> str | None:
    word = _NOTE.sub("", term).strip()
    if not _SINGLE_WORD.match(word) or not word[:1].isupper():
        return None
    terms = analyze(word)
    if terms and (len(terms[0]) >= MIN_LEMMA or (word.isupper() and len(word) == ABBREVIATION_LETTERS)):
        return terms[0]
    return None


def build(
    source: Path,
    target: Path = SYNONYMS_FILE,
    broader_target: Path = BROADER_FILE,
    *,
    max_narrower: int = MAX_NARROWER,
) -> tuple[int, int]:
    """Write the synonym sets of ``source`` to ``target`` and each lemma's broader terms to ``broader_target``
    (sorted, so a rebuild changes only what changed); returns how many sets and lemmas with broader terms."""
    with source.open(encoding="utf-8", errors="replace") as lines:
        found = set(meanings(lines))  # the file repeats each meaning under every one of its words
    sets = {" ".join(sorted(members)) for members, _ in found if len(members) > 1}
    narrower = Counter(term for _, broader in found for term in broader)
    general = {term for term, count in narrower.items() if count >= max_narrower}
    meanings_of = Counter(lemma for members, _ in found for lemma in members)
    broader_of: dict[str, set[str]] = {}
    for members, broader in found:
        for lemma in members:
            if meanings_of[lemma] == 1:  # a word of several meanings would get the classes of all of them
                broader_of.setdefault(lemma, set()).update(broader - general - {lemma})
    lines_of_broader = {" ".join([lemma, *sorted(terms)]) for lemma, terms in broader_of.items() if terms}
    _write(target, sets)
    _write(broader_target, lines_of_broader)
    return len(sets), len(lines_of_broader)


def _write(target: Path, lines: Iterable[str]) -> None:
    partial = target.with_suffix(".partial")
    try:
        with gzip.GzipFile(partial, "wb", mtime=0) as raw:
            raw.write(f"{HEADER_PREFIX}{ANALYZER_VERSION}\n".encode())
            raw.write("".join(f"{line}\n" for line in sorted(lines)).encode())
        partial.replace(target)  # a failed build leaves the shipped file as it was, and no partial file
    finally:
        partial.unlink(missing_ok=True)


if __name__ == "__main__":
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_file():
        sys.exit("Aufruf: python -m stores.text.thesaurus_build /usr/share/mythes/th_de_DE_v2.dat")
    sets, broader = build(Path(sys.argv[1]))
    print(f"{sets} Synonymgruppen nach {SYNONYMS_FILE}, Oberbegriffe zu {broader} Wörtern nach {BROADER_FILE}")
