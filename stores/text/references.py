"""In-text references to provisions of the same work („nach § 8", „die §§ 8, 9 und 13 Absatz 3", „Artikel 54"),
resolved to the KB ids of the entries they name.

A statute names what it regulates often only by reference: „Die Ansprüche aus den §§ 8, 9 … verjähren in sechs
Monaten", „wegen eines in § 1 genannten Grundes". A reference followed by „des"/„der" and another act's name
(„§ 13 des Unterlassungsklagengesetzes", „Artikel 62 … der Verordnung (EU) 2017/745") points outside the work and is
left out; „dieses Gesetzes" stays inside.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from typing import Final

import regex

# A provision's number and the numbers that follow it („8, 9 und 13", „15 bis 17", „21a").
NUMBER_RUN: Final = r"\d+\w*(?:\s*(?:,|bis|und|oder)\s*\d+\w*)*"
_REFERENCE: Final = regex.compile(
    rf"(?P<kind>§§?|\bArt\.|\bArtikel)\s*(?P<numbers>{NUMBER_RUN})"
    # the finer parts of the provision („Absatz 3 Satz 1", „Abs. 2 Nr. 4", „Buchstabe b")
    rf"(?P<parts>(?:\s*(?:Absatz|Absätze|Abs\.|Satz|Sätze|S\.|Nummer|Nr\.|Buchstabe|Halbsatz)\s*(?:{NUMBER_RUN}|\p{{L}}\b))*)"
)
_OTHER_WORK: Final = regex.compile(r"\s*(?:des|der)\s+(?!dieses\b|diese[rs]?\b)")
_NUMBER: Final = regex.compile(r"\d+\w*")
# „in § 1 genannten Grundes", „in § 8 bezeichneten sonstigen Stellen": the noun after the participle
_NAMED: Final = regex.compile(r"\s+(?:genannt|bezeichnet|aufgeführt|vorgesehen)\w*\s+(?:\p{Ll}+\s+)*(\p{Lu}\p{L}+)")
# „Die Ansprüche aus den §§ 8, 9 …", „Ausbildung nach § 4": the noun right before the reference („im Sinne des § 5")
_QUALIFIED: Final = regex.compile(r"(\p{Lu}\p{L}+)\s+(?:aus|nach|gemäß|im Sinne)\s+(?:(?:den|dem|der|des)\s+)?$")
_QUALIFIED_REACH: Final = 60  # characters before the reference the noun and its preposition stand in
# „in den Fällen des Absatzes 1 Nummer 1 und 2", „Die Ordnungswidrigkeit nach Absatz 2": the cases a paragraph of the
# provision itself (or items of it) names; „Abweichend von Absatz 1" or „Absatz 2 gilt entsprechend" only change them
_CASES_OF_PARAGRAPH: Final = regex.compile(
    r"(?:\b(?:in den|im) F[aä]ll(?:en|e)? (?:des|der)|\b\p{Lu}\p{L}+ nach(?:\s+(?:den|dem))?)"
    rf"\s+(?:Absatzes|Absätzen|Absätze|Absatz|Abs\.)\s*(?P<absatz>{NUMBER_RUN})\b"
    rf"(?:\s*(?:Satz|S\.)\s*\d+)?(?:\s*(?:Nummer|Nr\.)\s*(?P<items>{NUMBER_RUN}))?"
)
# The provision at the end of an entry id: „UWG 2004 §11", „GG Art54".
_ID_PROVISION: Final = regex.compile(r"^(?P<work>.*\S)\s*(?P<kind>§|Art)\d+[a-z]?$")


Provision = tuple[str, str]  # (kind, number): ("§", "8"), ("Art", "54")


def provision_references(text: str) -> list[Provision]:
    """The provisions of the same work the text refers to, in text order, each once."""
    return list(dict.fromkeys(p for _, provisions in _references(text) for p in provisions))


def named_by_reference(text: str) -> list[tuple[str, list[Provision]]]:
    """The nouns the text names only by reference, each with the provisions that say what they are: „wegen eines in
    § 1 genannten Grundes" → ``("Grundes", [("§", "1")])``. „Die Ausbildung nach § 4" says what it is about and
    only narrows it down: no such noun."""
    named = []
    for match, provisions in _references(text):
        noun = _NAMED.match(text, match.end())
        if noun is not None:
            named.append((noun.group(1), provisions))
    return named


def qualified_by_reference(text: str) -> list[tuple[str, list[Provision]]]:
    """The nouns the text narrows down by a reference, each with the provisions that say which are meant: „Die
    Ansprüche aus den §§ 8, 9 und 13 Absatz 3 verjähren …" → ``("Ansprüche", [("§", "8"), ("§", "9"), ("§",
    "13")])``; those provisions say what the noun covers („Der Anspruch auf Unterlassung …")."""
    qualified = []
    for match, provisions in _references(text):
        noun = _QUALIFIED.search(text, max(0, match.start() - _QUALIFIED_REACH), match.start())
        if noun is not None:
            qualified.append((noun.group(1), provisions))
    return qualified


def cases_by_paragraph(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The paragraphs of its own provision whose cases the text applies to, each with the items of it named (none:
    the whole paragraph): „in den Fällen des Absatzes 1 Nummer 1 und 2" → ``[("1", ("1", "2"))]``; a paragraph of
    another act („im Falle des Absatzes 1 des Gesetzes über …") is left out."""
    found = []
    for match in _CASES_OF_PARAGRAPH.finditer(text):
        if _OTHER_WORK.match(text, match.end()):
            continue
        paragraphs = _NUMBER.findall(match.group("absatz"))
        items = tuple(_NUMBER.findall(match.group("items") or "")) if len(paragraphs) == 1 else ()
        found += [(paragraph, items) for paragraph in paragraphs]
    return found


def referenced_ids(provisions: Iterable[Provision], entry_id: str, known_ids: Collection[str]) -> list[str]:
    """The ids of the entries the provisions, referred to in entry ``entry_id``, name: its id with the provision
    replaced („UWG 2004 §11" + „§ 8" → „UWG 2004 §8"), where the KB has such an entry; never the entry itself."""
    own = _ID_PROVISION.match(entry_id)
    if own is None:
        return []
    separator = entry_id[len(own.group("work")) : own.start("kind")]
    candidates = (f"{own.group('work')}{separator}{kind}{number}" for kind, number in provisions)
    return [i for i in dict.fromkeys(candidates) if i != entry_id and i in known_ids]


def _references(text: str) -> Iterator[tuple[regex.Match[str], list[Provision]]]:
    for match in _REFERENCE.finditer(text):
        if _OTHER_WORK.match(text, match.end()):
            continue
        kind = "§" if match.group("kind").startswith("§") else "Art"
        yield match, [(kind, number) for number in _NUMBER.findall(match.group("numbers"))]
