"""Named acts: the law, regulation or rulebook a question attributes a rule to ("laut UWG", "im
Produkthaftungsgesetz"), and the act a KB block belongs to, read from the block's own metadata (its work, and
the act part of a statute id such as ``BDSG 2018 §38``).

An act is named in a question after a cue (``im``, ``nach dem``, ``laut``, ``gemäß``, ``§ 3``, …) either by a
name some retrieved block's metadata gives, or by the shape of an act's name: an abbreviation ending like a
statute's (``HGB``, ``ArbZG``, ``DSGVO``) or a compound ending in ``gesetz``, ``verordnung``, ``richtlinie`` ….
Two names are the same act when they are equal, when one ends a word of the head of the other's work (the
capitalised words a title opens with: „Verordnung … nach dem Arzneimittelgesetz" is no Arzneimittelgesetz), when a
compound says a title „<kind> über <subject>" (``Medizinproduktegesetz``), or when an abbreviation's parts open the
words of the full name in order (``ProdHaftG`` ~ ``Produkthaftungsgesetz``). A name none of the retrieved blocks'
acts answers to is looked up among all of the KB's works (``named_works``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import regex

from nodes.answer.evidence import ACT_KINDS, shortens
from nodes.answer.premise import WORD
from stores.kb.models import Hit

_SECTION_MARK: Final = regex.compile(r"\s+(?:§|Art\b|Artikel\b|Anhang\b|Anlage\b)\S*$")
_ABBREVIATION: Final = regex.compile(r"^\p{Lu}[\p{L}]{1,11}$")
_STATUTE_ENDING: Final = regex.compile(r"(?:G|GB|V|VO|O)$")
_ACT_HEAD: Final = regex.compile(
    r"(?i)^\p{L}[\p{L}-]{2,}(?:gesetzbuch|gesetz|verordnung|ordnung|richtlinie|vereinbarung|handbuch)(?:es|s|en|e)?$"
)
_KIND_TITLE: Final = regex.compile(
    r"^(?P<kind>Gesetz|Verordnung|Ordnung)\s+(?:über|zur|zum|für)\s+(?:die\s+|den\s+|das\s+)?(?P<subject>\p{Lu}\p{L}+)$"
)
_KIND_COMPOUND: Final = regex.compile(r"^(?P<subject>\p{Lu}\p{L}{3,}?)(?P<kind>gesetz|verordnung|ordnung)$")
_FEMININE: Final = regex.compile(r"(?i)(?:ung|richtlinie|V|VO|O)(?:en)?$")
_ADJECTIVE: Final = regex.compile(r"^(\p{Lu}\p{Ll}+?(?:isch|lich|ig|al|ell|ein)?)(?:es|(?<=isch|lich|ig|al|ell|ein)e)$")
_CUES: Final = (
    r"\b(?:im|ins|in\s+der|in\s+dem|nach\s+dem|nach\s+der|laut|gemäß|aus\s+dem|aus\s+der|des|der|dem)"
    r"|§§?\s*\d+\w*|Art\.?\s*\d+\w*"
)
_CUE: Final = regex.compile(rf"(?i)(?:{_CUES})\s+$")
_INFLECTION: Final = ("es", "s")
_NEGATION: Final = regex.compile(r"(?i)\b(?:nicht|kein\w*)\b(?:\W+\w+){0,3}\W+$")
MIN_WORK_WORD: Final = 8  # a work is named by its first word only where that word is a specific compound
MIN_STEM: Final = 4


def block_act(hit: Hit) -> str:
    """The act part of a statute id (``BDSG 2018`` of ``BDSG 2018 §38``), or "" where the id has none."""
    return _id_act(hit.entry_id)


def act_label(hit: Hit) -> str:
    """How a correction names the block's act: its work."""
    return hit.work


def with_article(name: str) -> str:
    """``im UWG``, ``in der Reisekostenrichtlinie``, ``im Allgemeinen Gleichbehandlungsgesetz``: the article
    follows the act's noun, and a leading adjective takes the dative ending."""
    words = name.split()
    if len(words) > 1 and _ADJECTIVE.match(words[0]) and words[1][:1].isupper():
        words[0] = _ADJECTIVE.sub(r"\1en", words[0])
        noun = words[1]
    else:
        noun = words[0]
    return f"{'in der' if _FEMININE.search(noun) else 'im'} {' '.join(words)}"


def named_acts(question: str, hits: Sequence[Hit]) -> list[str]:
    """The act names the question attributes something to, in order of appearance."""
    known = _known_names(hits)
    found: list[str] = []
    for match in WORD.finditer(question):
        word = match.group(0)
        if not _CUE.search(question[: match.start()]):
            continue
        name = _work_phrase(question, match.start(), hits) or word
        if name in known or _act_shaped(word):
            found.append(name)
    return list(dict.fromkeys(found))


def without_act(question: str, name: str) -> str:
    """The question without the act's name and the cue before it: what it says the act rules."""
    return str(regex.sub(rf"(?i)(?:(?:{_CUES})\s+)?{regex.escape(name)}", " ", question))


def same_act(name: str, hit: Hit) -> bool:
    """The question's act name names the block's act."""
    return _names_act(name, block_act(hit), hit.work)


def named_works(name: str, works: Mapping[str, Sequence[str]]) -> list[str]:
    """The works of a KB (each with its entries' ids) that the question's act name names; where several do, those
    named most closely: by their own name before by an abbreviation, and by the abbreviation that spells most of it
    (``MPDG``, not ``MPG``, for ``Medizinprodukterecht-Durchführungsgesetz``)."""
    closeness: dict[str, int] = {}
    for work, ids in works.items():
        acts = {_id_act(i) for i in ids} - {""}
        if _names_act(name, "", work) or any(name in (act, act.split()[0]) for act in acts):
            closeness[work] = len(name)
        elif spelled := [_spelled(act, name) for act in acts if _names_act(name, act, work)]:
            closeness[work] = max(spelled)
    closest = max(closeness.values(), default=0)
    return [work for work, close in closeness.items() if close == closest]


def repeated_acts(answer: str, question: str, blocks: Sequence[Hit], cited: Sequence[Hit]) -> list[str]:
    """Acts the question attributes something to that no cited block belongs to, named by the answer as fact."""
    return [
        name
        for name in named_acts(question, blocks)
        if not any(same_act(name, hit) for hit in cited) and mentioned_as_fact(answer, name)
    ]


def mentioned_as_fact(answer: str, name: str) -> bool:
    """The answer names the act without denying it ("nicht im UWG" denies it)."""
    for match in regex.finditer(rf"(?<!\p{{L}}){regex.escape(_stem(name))}", answer):
        if not _NEGATION.search(answer[: match.start()]):
            return True
    return False


def _id_act(entry_id: str) -> str:
    stripped = _SECTION_MARK.sub("", entry_id)
    return stripped if stripped != entry_id else ""


def _names_act(name: str, act: str, work: str) -> bool:
    """The name names the act with this id part and work: by the id (``UWG``), the work or a part of it
    (``Grundgesetzes``, ``Datenschutzgesetz``), or as an abbreviation of one by the other
    (``Medizinprodukterecht-Durchführungsgesetz`` ~ ``MPDG``)."""
    ids = {n for n in (act, act.split()[0] if act else "") if n}
    if name in ids or name == work:
        return True
    if any(_abbreviates(n, name) for n in ids) or _abbreviates(name, work):
        return True
    if _titled(name, work):
        return True
    # only the title's head names the act: „Verordnung … nach dem Arzneimittelgesetz" is no Arzneimittelgesetz
    head = regex.match(r"(?:\p{Lu}[\p{L}\p{M}-]*\s*)*", work)
    stem = _stem(name).casefold()
    return len(stem) >= MIN_STEM and any(w == stem or w.endswith(stem) for w in _words(head.group(0).casefold()))


def _titled(name: str, work: str) -> bool:
    """The name compounds the subject of a title „<kind> über <subject>": ``Medizinproduktegesetz`` is the
    „Gesetz über Medizinprodukte"."""
    title = _KIND_TITLE.match(work)
    compound = _KIND_COMPOUND.match(_stem(name))
    if title is None or compound is None:
        return False
    compounded: str = f"{compound['subject']}{compound['kind']}"
    return compounded.casefold() == f"{title['subject']}{title['kind']}".casefold()


def _spelled(act: str, name: str) -> int:
    """How many letters of the name an abbreviating act id's parts stand for (``MPDG``: m, p, d, gesetz); 0 where
    the id does not abbreviate the name."""
    if not act or not _abbreviates(act.split()[0], name):
        return 0
    parts = [p.casefold() for p in regex.findall(r"\p{Lu}[\p{Ll}]*", act.split()[0])]
    return sum(map(len, parts[:-1])) + len(ACT_KINDS.get(parts[-1], parts[-1]))


def _known_names(hits: Sequence[Hit]) -> set[str]:
    """Names the blocks' metadata gives their acts: id acts, works, and a work's first word where it is a
    specific compound that opens no other retrieved work (``Personalhandbuch``, not ``Betriebsvereinbarung``)."""
    names: set[str] = set()
    works = {h.work for h in hits}
    for hit in hits:
        act = block_act(hit)
        if act:
            names |= {act, act.split()[0]}
        names.add(hit.work)
        first = hit.work.split()[0] if hit.work.split() else ""
        if len(first) >= MIN_WORK_WORD and all(w == hit.work or not w.startswith(first) for w in works):
            names.add(first)
    return names


def _work_phrase(question: str, start: int, hits: Sequence[Hit]) -> str:
    """The longest retrieved work name that the question spells out from ``start`` on."""
    rest = question[start:].casefold()
    works = sorted({h.work for h in hits if len(h.work.split()) > 1}, key=len, reverse=True)
    return next((w for w in works if rest.startswith(w.casefold())), "")


def _act_shaped(word: str) -> bool:
    capitals = sum(c.isupper() for c in word)
    abbreviation = _ABBREVIATION.match(word) is not None and capitals >= 2 and _STATUTE_ENDING.search(word)
    return bool(abbreviation) or _ACT_HEAD.match(word) is not None


def _abbreviates(abbreviation: str, name: str) -> bool:
    """The capital-led parts of ``abbreviation`` open parts of ``name`` in order, the first at its start."""
    parts = [p.casefold() for p in regex.findall(r"\p{Lu}[\p{Ll}]*", abbreviation.split()[0])]
    if len(parts) < 2 or sum(c.isupper() for c in abbreviation) < 2:
        return False
    target = "".join(w for w in _words(name.casefold()) if len(w) > 3 or w == name.casefold())
    return shortens(parts, target)


def _words(text: str) -> list[str]:
    return [w.group(0) for w in WORD.finditer(text)]


def _stem(name: str) -> str:
    for ending in _INFLECTION:
        if name.endswith(ending) and _ACT_HEAD.match(name):
            return name[: -len(ending)]
    return name
