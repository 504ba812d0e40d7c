"""German synonyms: which lemmas share a meaning („Gehalt" / „Entgelt", „Hochzeit" / „Eheschließung"), and which
name the broader class a word belongs to („Grippe" → „Erkrankung", „Handy" → „Telefon").

Both come from OpenThesaurus (www.openthesaurus.de, LGPL-2.1; see ``synonyms_de.LICENSE``), read from Debian's
``mythes-de`` by ``python -m stores.text.thesaurus_build`` and shipped as ``synonyms_de.txt.gz`` (one set per line)
and ``broader_de.txt.gz`` (a lemma, then its broader terms), written as the analyzer's lemmas. A user asks in
everyday words („Krankschreibung", „Gehalt") what a KB states in its own („Arbeitsunfähigkeitsbescheinigung",
„Entgelt"), and about their own case („Mein Kind hat Grippe") what a KB states for the class („erkrankt").
The classes of family words („Sohn" → „Kind", „Mutter" → „Elternteil"), which OpenThesaurus lacks, are written by
hand in ``kinship_de.txt``, and so are synonyms of working life it does not link („Chef" / „Führungskraft") in
``workplace_de.txt``.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Final

from stores.vector.analyzer import ANALYZER_VERSION, analyze

SYNONYMS_FILE: Final = Path(__file__).with_name("synonyms_de.txt.gz")
BROADER_FILE: Final = Path(__file__).with_name("broader_de.txt.gz")
KINSHIP_FILE: Final = Path(__file__).with_name("kinship_de.txt")
WORKPLACE_FILE: Final = Path(__file__).with_name("workplace_de.txt")
HEADER_PREFIX: Final = "# analyzer="


class ThesaurusOutdated(RuntimeError):
    """The shipped synonym sets were written with another analyzer version than the running one."""


def synonyms(lemma: str) -> frozenset[str]:
    """The lemmas that share a meaning with ``lemma`` (without it); empty for a word the thesaurus lacks."""
    return _index(SYNONYMS_FILE).get(lemma, frozenset()) | _workplace_index(WORKPLACE_FILE).get(lemma, frozenset())


def broader(lemma: str) -> frozenset[str]:
    """The lemmas of the broader terms of ``lemma`` (``grippe`` → erkrankung, krankheit, …; ``sohn`` → kind, …); empty
    where it has none."""
    return _broader_index(BROADER_FILE).get(lemma, frozenset()) | _kinship_index(KINSHIP_FILE).get(lemma, frozenset())


@lru_cache(maxsize=2)
def _index(path: Path) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for members in _lines(path):
        for lemma in members:
            found.setdefault(lemma, set()).update(members)
    return {lemma: frozenset(others - {lemma}) for lemma, others in found.items()}


@lru_cache(maxsize=2)
def _broader_index(path: Path) -> dict[str, frozenset[str]]:
    return {lemma: frozenset(terms) for lemma, *terms in _lines(path)}


@lru_cache(maxsize=2)
def _kinship_index(path: Path) -> dict[str, frozenset[str]]:
    """The hand-written classes of family words (``Sohn: Kind, Angehöriger``), as the analyzer's lemmas."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            word, classes = line.split(":")
            found[_lemma(word)] = frozenset(_lemma(c) for c in classes.split(","))
    return found


@lru_cache(maxsize=2)
def _workplace_index(path: Path) -> dict[str, frozenset[str]]:
    """The hand-written synonym sets of working life (``Chef, Vorgesetzter, Führungskraft``), as the analyzer's
    lemmas."""
    found: dict[str, frozenset[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            members = frozenset(_lemma(word) for word in line.split(","))
            for lemma in members:
                found[lemma] = found.get(lemma, frozenset()) | (members - {lemma})
    return found


def _lemma(word: str) -> str:
    return analyze(word.strip())[0]


def _lines(path: Path) -> Iterator[list[str]]:
    """The lemmas of each line of a shipped file, once its header shows the running analyzer wrote it."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        header = next(lines).strip()
        if header != f"{HEADER_PREFIX}{ANALYZER_VERSION}":
            raise ThesaurusOutdated(
                f"{path.name} passt nicht zur Analyse {ANALYZER_VERSION} ({header}): neu bauen mit "
                "python -m stores.text.thesaurus_build /usr/share/mythes/th_de_DE_v2.dat"
            )
        for line in lines:
            yield line.split()
