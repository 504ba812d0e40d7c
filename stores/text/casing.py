"""German capitals restored in a text typed without them („wie viel urlaub bekomme ich?", „WIE VIEL URLAUB …").

German marks its nouns by a capital, and the answer graph reads that mark: the key words of a question are its
nouns. A question typed all in lower case (or in capitals, or with only its first letter capitalised) carries no
such mark, so ``restore_case`` puts it back: the first word of each sentence and every word read as a noun. A
word is a noun where the lemma of its lower-case form is capitalised („urlaubstage" → Urlaubstag); where that
form may also be a verb's or an adjective's („urlaub" → urlauben, „strafe" → strafen, „offene" → offen), the
words around it decide: after an article, a preposition or a number it is the noun („den urlaub", „30 tage"), unless
an adjective's form stands before a noun („die offene rechnung"); elsewhere, and before a subject pronoun („brauche
ich"), it is no noun. A short word the dictionary lacks is an abbreviation („bgb" → BGB); one it knows only with
„ß" for an „ss" gets its „ß" back („BUSSGELD" → Bußgeld). Measured on the dev
questions of both sets typed in lower case and in capitals: 99.2 % of the words get their written case back
(96.8 % on the XQuAD-de questions, whose names the dictionary lacks).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

import regex
import simplemma

from stores.vector.analyzer import GERMAN_STOPWORDS, infinitive

_WORD: Final = regex.compile(r"\p{L}[\p{L}\p{M}]*(?:['’-]\p{L}[\p{L}\p{M}]*)*|\p{N}+")
_SENTENCE_END: Final = regex.compile(r"[.!?:]\s*$")
MIN_WORDS: Final = 2  # „AGG" or „urlaub" alone says nothing of how the asker writes
# Words after which the next one is a noun (or its adjective): articles, determiners, prepositions with article.
NOUN_MARKERS: Final = frozenset(
    """der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner mein meine meinen
    meinem meiner meines dein deine deinen deinem deiner sein seine seinen seinem seiner ihr ihre ihren ihrem ihrer
    unser unsere unseren unserem unserer euer eure jeder jede jedes jeden jedem diese dieser dieses diesen diesem
    welche welcher welches welchen welchem im am zum zur vom beim ins ans aufs fürs für mit nach bei von zu aus
    über unter vor in an auf um durch gegen ohne pro je als bis seit wegen trotz laut viel viele vielen""".split()
)
# „wie lange", „wie hoch", „wie alt": the word after „wie" says what kind of value is asked, never a noun
_AFTER_WIE: Final = "wie"
# „brauche ich", „bekommt man": a word right before a subject pronoun is the verb of a question
SUBJECT_PRONOUNS: Final = frozenset("ich du er wir man".split())
MAX_ABBREVIATION: Final = 5  # „bgb", „uwg", „dsgvo": a short word the dictionary lacks is an abbreviation
_ADJECTIVE_ENDINGS: Final = ("e", "en", "er", "es", "em")


def restore_case(text: str, *, keep: regex.Pattern[str] | None = None) -> str:
    """``text`` with German capitals where it was typed without them; a text with its own capitals stays as it is.
    What ``keep`` matches (placeholders such as „‹E-Mail›") is neither read nor changed."""
    kept = [match.span() for match in keep.finditer(text)] if keep is not None else []
    words = [w for w in _WORD.finditer(text) if not any(start <= w.start() < end for start, end in kept)]
    if len([w for w in words if w.group(0).isalpha()]) < MIN_WORDS or not _caseless(text, words):
        return text
    shouted = not any(c.islower() for w in words for c in w.group(0))
    # in a text that has lower-case letters, a word in capitals is an abbreviation („AGG") and stays as it is
    lowered = [w.group(0) if w.group(0).isupper() and not shouted else _sharp_s(w.group(0).lower()) for w in words]
    parts: list[str] = []
    end = 0
    previous = ""
    opened = False  # an article, a preposition or a number opened a noun phrase that has not had its noun yet
    for at, match in enumerate(words):
        word = lowered[at]
        if word.isupper():
            parts += [text[end : match.start()], word]
            end, previous, opened = match.end(), word.lower(), False
            continue
        following = _following(text, words, lowered, at)
        # a word before a subject pronoun is a verb, and so is no noun the word before could belong to; so is an
        # infinitive after „zu" („um ihn zu betreuen", but „zu hause")
        verb = following in SUBJECT_PRONOUNS or (previous == "zu" and infinitive(word))
        noun_after = bool(following) and _following(text, words, lowered, at + 1) not in SUBJECT_PRONOUNS
        noun = (
            previous != _AFTER_WIE
            and not verb
            and _noun(word.split("-")[-1], opened=opened, following=following if noun_after else "")
        )
        if noun and word.isalpha() and len(word) <= MAX_ABBREVIATION and not simplemma.is_known(word, lang="de"):
            word = word.upper()
        elif noun:
            word = "-".join(part[:1].upper() + part[1:] for part in word.split("-"))
        elif _opens_sentence(text, match):
            word = word[:1].upper() + word[1:]
        parts += [text[end : match.start()], word]
        end, previous = match.end(), lowered[at]
        opened = previous in NOUN_MARKERS or previous.isdigit() or (opened and not noun and _declined(previous))
    return "".join([*parts, text[end:]])


@lru_cache(maxsize=50_000)
def _sharp_s(word: str) -> str:
    """„bussgeld" → „bußgeld": capitals have no „ß" („BUSSGELD"), and a keyboard may lack it; where the dictionary
    knows the word only with „ß" in place of an „ss", that is how it is written."""
    if "ss" not in word or simplemma.is_known(word, lang="de"):
        return word
    at = word.find("ss")
    while at >= 0:
        sharp = f"{word[:at]}ß{word[at + 2 :]}"
        if simplemma.is_known(sharp, lang="de"):
            return sharp
        at = word.find("ss", at + 1)
    return word


def _following(text: str, words: list[regex.Match[str]], lowered: list[str], at: int) -> str:
    """The word after the one at ``at``, unless a comma or a period ends the phrase before it."""
    if at + 1 >= len(words) or text[words[at].end() : words[at + 1].start()].strip():
        return ""
    return lowered[at + 1]


def _caseless(text: str, words: list[regex.Match[str]]) -> bool:
    """No lower-case letter at all, or no capitalised word but at the start of a sentence (abbreviations in
    capitals, such as „AGG" in „was regelt das AGG?", do not count)."""
    if not any(c.islower() for w in words for c in w.group(0)):
        return True
    for match in words:
        word = match.group(0)
        if word[:1].isupper() and not word.isupper() and not _opens_sentence(text, match):
            return False
    return True


def _opens_sentence(text: str, match: regex.Match[str]) -> bool:
    return not text[: match.start()].strip() or bool(_SENTENCE_END.search(text, 0, match.start()))


@lru_cache(maxsize=50_000)
def _noun(word: str, *, opened: bool, following: str) -> bool:
    """Whether the lower-case ``word`` is a noun: its lemma is one, the dictionary does not know it, or it may be one
    („urlaub", „tage", „angaben") and stands in an open noun phrase („den urlaub", „30 tage"), as a verb's form or
    before no word that may be a noun („die offene rechnung", „einen ganzen tag")."""
    if not word.isalpha() or word in GERMAN_STOPWORDS:
        return False
    if _certain_noun(word) or not simplemma.is_known(word, lang="de"):
        return True  # a word the dictionary lacks is a name or a compound noun („produkthaftungsgesetz")
    if not _may_be_noun(word):
        return False
    # a verb's form in a noun phrase is the noun („30 tage resturlaub"); an adjective's only without a noun after it
    return opened and (infinitive(str(simplemma.lemmatize(word, lang="de"))) or not _may_be_noun(following))


@lru_cache(maxsize=50_000)
def _certain_noun(word: str) -> bool:
    """The lemma of the lower-case form is a noun („urlaubstage" → Urlaubstag, „gehalt" → Gehalt)."""
    return word.isalpha() and str(simplemma.lemmatize(word, lang="de"))[:1].isupper()


def _declined(word: str) -> bool:
    """An adjective's or a numeral's form that leaves its noun phrase open („den eigenen …", „die ersten …")."""
    return word.endswith(_ADJECTIVE_ENDINGS) and not _certain_noun(word)


@lru_cache(maxsize=50_000)
def _may_be_noun(word: str) -> bool:
    """Capitalised, the word is a noun's form („tag" → Tag, „ganzen" → Ganze)."""
    if not word.isalpha() or word in GERMAN_STOPWORDS:
        return False
    return str(simplemma.lemmatize(word[:1].upper() + word[1:], lang="de"))[:1].isupper()
