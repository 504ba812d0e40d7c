"""German analyzer: text → terms → BM25-style sparse vectors for Qdrant (``Modifier.IDF`` adds the IDF part).

Pipeline per token: Unicode word tokenization (``regex``), simplemma lemmatization (the written case
tells a noun from an infinitive), case folding, German stopwords, umlaut/ß folding, and a naive compound
split that adds the parts of long words.
Numbers keep their decimal comma (``28,5``); ``%`` and ``€`` become the words they stand for.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import regex
import simplemma
from wordfreq import zipf_frequency

ANALYZER_VERSION: Final = "de-5"

# Numbers first (so "28,5" and "1.234,56" stay whole), then words with inner hyphens/apostrophes,
# then the two symbols whose meaning matters in payroll texts.
_TOKEN: Final = regex.compile(
    r"\p{N}+(?:[.,]\p{N}+)*|\p{L}[\p{L}\p{M}\p{N}]*(?:[-'’]\p{L}[\p{L}\p{M}\p{N}]*)*|[%€§]",
    regex.VERSION1,
)
_SYMBOL_WORDS: Final = {"%": "prozent", "€": "euro", "§": "paragraph"}
_FOLD: Final = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "ss", "é": "e", "è": "e", "à": "a"})
_TRANSLITERATED: Final = regex.compile(r"(?<!q)(ae|oe|ue)")
_LINKING: Final = ("s", "es", "n", "en", "er", "e")
_TAKES_LINKING_N: Final = ("e", "er", "el")  # „Kunde-n-dienst", „Bauer-n-hof"; not „Stellung-n-ahme"
# heads that are no words of their own: the noun of a verb only compounds form („Stellung|nahme" → nehmen)
_BOUND_HEADS: Final = {"nahme": "nehmen"}
_MIN_COMPOUND: Final = 10
_MIN_PART: Final = 4
_MIN_HEAD: Final = 3
# how much commoner (Zipf scale: 1 = ten times) a head must be to take a linking „s" from the other reading
LINKED_HEAD_MARGIN: Final = 1.0

GERMAN_STOPWORDS: Final = frozenset(
    """
    aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes anderm andern
    anders auch auf aus bei beim bin bis bist da dabei dadurch dafür dagegen daher dahin damit danach dann dar
    daran darauf daraus darin darum darunter darüber das dass dasselbe davon davor dazu dein deine deinem deinen
    deiner deines dem demselben den denen denn denselben der derer derselbe derselben des desselben dessen dich
    die dies diese dieselbe dieselben diesem diesen dieser dieses dir doch dort du durch ein eine einem einen
    einer eines einig einige einigem einigen einiger einiges einmal er es etwas euch euer eure eurem euren eurer
    eures für gegen gewesen hab habe haben hat hatte hatten hier hin hinter ich ihm ihn ihnen ihr ihre ihrem
    ihren ihrer ihres im in indem ins ist jede jedem jeden jeder jedes jene jenem jenen jener jenes jetzt kann
    kannst können könnt machen man manche manchem manchen mancher manches mein meine meinem meinen meiner meines
    mich mir mit muss musste nach nun nur ob oder ohne sehr sein seine seinem seinen seiner seines selbst sich
    sie sind so solche solchem solchen solcher solches soll sollte sondern sonst um und uns unser unsere unserem
    unseren unserer unseres unter viel vom von vor war waren warst was weg weil weiter welche welchem welchen
    welcher welches wenn werde werden wie wieder will wir wird wirst wo wollen wollte während würde würden zu
    zum zur zwar zwischen über wer wem wen wessen wann warum weshalb wieso welch
    """.split()
)


@dataclass(frozen=True)
class SparseTerms:
    """A sparse vector as Qdrant wants it: term hashes and weights, indices unique and sorted."""

    indices: list[int]
    values: list[float]


def term_index(term: str) -> int:
    """Stable 31-bit id of a term (Python's ``hash`` is salted per process, so it cannot be used)."""
    return int.from_bytes(hashlib.blake2b(term.encode("utf-8"), digest_size=4).digest(), "big") & 0x7FFFFFFF


def fold(word: str) -> str:
    """Case, umlaut and ß folding, including transliterated umlauts (``Fuehrerschein`` ≡ ``Führerschein``)."""
    folded: str = _TRANSLITERATED.sub(lambda m: m.group(1)[0], word.casefold().translate(_FOLD))
    return folded


@lru_cache(maxsize=200_000)
def _lemma(word: str) -> str:
    """Lemma of a lower-cased word, looked up capitalised: German nouns win over verbs of the same spelling
    (``Urlaub`` rather than ``urlauben``), and a query typed in lower case gets the same lemma as the text."""
    return str(simplemma.lemmatize(word[:1].upper() + word[1:], lang="de")).casefold()


@lru_cache(maxsize=200_000)
def infinitive(word: str) -> bool:
    """Whether a lower-case word is a verb's infinitive: its own lemma, and its third person (``zwingt``,
    ``arbeitet``, ``regelt``) leads back to it. Looked up capitalised, such a word would become a noun of
    the same spelling (``zwingen`` → Zwinge, ``bleiben`` → Bleibe), while the verb's other forms stay verbs."""
    if str(simplemma.lemmatize(word, lang="de")) != word:
        return False
    stem = word[:-1] if word.endswith(("ern", "eln")) else word[:-2] if word.endswith("en") else ""
    return bool(stem) and any(str(simplemma.lemmatize(stem + ending, lang="de")) == word for ending in ("t", "et"))


def verb_lemma(word: str) -> str | None:
    """The infinitive of a lower-case verb form (``kündige``, ``gekündigt`` → ``kündigen``); None for other words."""
    lemma = word if infinitive(word) else _lemma(word)
    return lemma if infinitive(lemma) else None


@lru_cache(maxsize=200_000)
def _known(word: str) -> bool:
    return bool(simplemma.is_known(word, lang="de"))


@lru_cache(maxsize=200_000)
def _compound_parts(word: str) -> tuple[str, ...]:
    """Split a long word into a known modifier and a known head (``lohnsteuerbescheinigung`` → lohnsteuer, …).

    Naive on purpose: among the cuts whose parts are both known words (a linking element such as the
    Fugen-s may sit between), the most balanced one wins, which keeps ``führer|schein`` over ``führ|erschein``.
    Where a linking „s" may also open the head (``arbeit|stag`` / ``arbeits|tag``, ``gegen|stand`` /
    ``gegens|tand``), ``_linked_head_wins`` decides.
    """
    if len(word) < _MIN_COMPOUND or "-" in word:
        return ()
    stems: dict[str, str] = {}  # head → the stem before it
    for cut in range(_MIN_PART, len(word) - _MIN_HEAD + 1):
        modifier, head = word[:cut], word[cut:]
        if not _known(head) and head not in _BOUND_HEADS:
            continue
        forms = [modifier] + [modifier.removesuffix(x) for x in _LINKING if _links(modifier, x)]
        stem = next((s for s in forms if len(s) >= _MIN_HEAD and _known(s)), None)
        if stem is not None:
            stems[head] = stem
    for head in [h for h in stems if h.startswith("s")]:
        if head in stems and head[1:] in stems:  # an earlier pair („ss…") may have removed one of them
            del stems[head if _linked_head_wins(head[1:], head) else head[1:]]
    best = max(((stem, head) for head, stem in stems.items()), key=lambda r: len(r[0]) * len(r[1]), default=None)
    return () if best is None else (_lemma(best[0]), _BOUND_HEADS.get(best[1]) or _lemma(best[1]))


def _links(modifier: str, linking: str) -> bool:
    """Whether the modifier may end in this linking element: a linking „n" follows only a stem in e, er or el."""
    stem = modifier.removesuffix(linking)
    return modifier.endswith(linking) and (linking != "n" or stem.endswith(_TAKES_LINKING_N))


def _linked_head_wins(linked: str, whole: str) -> bool:
    """Whether the head after a linking „s" (``tag``) beats the head that keeps it (``stag``): a noun beats a word
    of another kind, and of two nouns the linked one only where its lemma is far commoner (``tag`` over ``stag``,
    ``ende`` over ``sende``; not ``panne`` over ``spanne``, ``turm`` over ``sturm``). Frequency cannot tell every
    pair: „Antragsteller" gets ``teller``, „Bundesamt" keeps ``samt``."""
    if _noun(linked) != _noun(whole):
        return _noun(linked)
    return zipf_frequency(_lemma(linked), "de") - zipf_frequency(_lemma(whole), "de") >= LINKED_HEAD_MARGIN


@lru_cache(maxsize=200_000)
def _noun(word: str) -> bool:
    return str(simplemma.lemmatize(word[:1].upper() + word[1:], lang="de"))[:1].isupper()


@lru_cache(maxsize=200_000)
def _word_terms(token: str) -> tuple[str, ...]:
    """Terms of one word token as written: its lemma, plus parts of hyphenated or compound words; () for
    stopwords. The case tells a noun from a verb: a lower-case infinitive keeps the verb's lemma."""
    lowered = token.casefold()
    if lowered in GERMAN_STOPWORDS:
        return ()
    if "-" in lowered:
        parts = [part for part in token.split("-") if part]
        joined = _lemma("".join(parts).casefold())
        pieces = [term for part in parts if len(part) > 1 for term in _word_terms(part)]
        return (fold(joined), *pieces)
    lemma = lowered if token[:1].islower() and infinitive(lowered) else _lemma(lowered)
    if lemma in GERMAN_STOPWORDS:
        return ()
    return (fold(lemma), *(fold(part) for part in _compound_parts(lowered)))


def analyze(text: str) -> list[str]:
    """The terms of a text in order; the same function serves documents and queries."""
    terms: list[str] = []
    for match in _TOKEN.finditer(text):
        token = match.group(0).replace("’", "'")
        if token in _SYMBOL_WORDS:
            terms.append(_SYMBOL_WORDS[token])
        elif token[0].isdigit():
            terms.append(token)
        else:
            terms.extend(_word_terms(token.replace("'", "")))
    return terms


def nouns(text: str) -> list[tuple[str, str]]:
    """The capitalised words of a text (its nouns, in German) in order, each as written and as its whole-word term."""
    found: list[tuple[str, str]] = []
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        terms = _word_terms(token.replace("’", "").replace("'", "")) if token[0].isupper() else ()
        if terms:
            found.append((token, terms[0]))
    return found


class GermanAnalyzer:
    """BM25 term weights; the IDF factor is left to Qdrant (``Modifier.IDF``) so it tracks the collection.

    ``avg_length`` stands in for the collection's mean document length, which is unknown while indexing
    incrementally; 256 terms is a typical KB passage (fastembed's BM25 uses the same default).
    """

    version = ANALYZER_VERSION

    def __init__(self, *, k1: float = 1.2, b: float = 0.75, avg_length: float = 256.0) -> None:
        self.k1 = k1
        self.b = b
        self.avg_length = avg_length

    def terms(self, text: str) -> list[str]:
        return analyze(text)

    def document_vector(self, text: str) -> SparseTerms:
        counts = Counter(analyze(text))
        length = sum(counts.values())
        norm = self.k1 * (1 - self.b + self.b * length / self.avg_length)
        return _sparse((term, tf * (self.k1 + 1) / (tf + norm)) for term, tf in counts.items())

    def query_vector(self, text: str) -> SparseTerms:
        return self.terms_vector(analyze(text))

    @staticmethod
    def terms_vector(terms: Iterable[str]) -> SparseTerms:
        """The query vector of these terms, each of weight 1."""
        return _sparse((term, 1.0) for term in set(terms))


def _sparse(weights: Iterable[tuple[str, float]]) -> SparseTerms:
    merged: dict[int, float] = {}
    for term, weight in weights:
        index = term_index(term)
        merged[index] = max(merged.get(index, 0.0), weight)
    ordered = sorted(merged)
    return SparseTerms(indices=ordered, values=[merged[i] for i in ordered])
