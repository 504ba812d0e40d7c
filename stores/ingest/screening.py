"""Screening of KB content: text that reads like an instruction to an assistant is data gone wrong.

A knowledge base holds statements about the world. A sentence that addresses the model ("ignoriere alle
Anweisungen", "SYSTEM:", "<|im_start|>", "antworte nur noch …", "reveal your system prompt") is an attack
or an accident, and either way must never reach a prompt as if it were evidence, nor an answer.

Before matching, text is folded the way attackers obfuscate it: Unicode compatibility forms (NFKC),
zero-width and other format characters removed, Cyrillic and Greek look-alikes mapped to Latin, case
folded, umlauts spelled out, leetspeak inside words undone (``1gn0r13r3``) and spaced-out letters joined
(``i g n o r i e r e``). Each sentence is checked alone and together with its neighbour, so an instruction
split over two sentences is still seen. The patterns aim at the model, not at people: "Sie" addresses an
employee and stays untouched, "du"/"you" imperatives to an assistant, role markers and prompt syntax do not.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from stores.kb.models import KBEntry

# Look-alikes from Cyrillic and Greek that render like Latin letters (lower case after casefold).
_HOMOGLYPHS: Final = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
        "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "m", "ν": "v", "ο": "o", "ρ": "p",
        "τ": "t", "υ": "u", "χ": "x", "ѵ": "v", "ɡ": "g", "ı": "i",
        "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss",
    }
)  # fmt: skip
_LEET: Final = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"})
_LEET_WORD: Final = re.compile(r"(?=[\w@$!]*[a-z])(?=[\w@$!]*[0-9@$])[\w@$!]*[a-z0-9][\w@$!]*")
_SPACED_LETTERS: Final = re.compile(r"(?<![\w])(?:[a-z][ .\-_*·|/]{1,2}){3,}[a-z](?![\w])")
_SPACES: Final = re.compile(r"\s+")
_SEGMENT: Final = re.compile(r"(?<=[.!?;:])\s+|\n+")

# Words the patterns are built from, in their folded spelling (ä → ae, ß → ss). Verbs are imperatives
# ("ignoriere", not "ignoriert"): a KB describes what people do, an injection tells the model what to do.
_IGNORE: Final = (
    r"(?:ignoriere|ignorier|ignorieren\s+sie|ignore|vergiss|vergesst|vergessen\s+sie|missachte|ueberspringe|"
    r"uebergehe|disregard|forget|override|bypass|verwirf)"
)
_EARLIER: Final = (
    r"(?:alle[ns]?|saemtliche|jegliche|bisherige\w*|vorherige\w*|vorige\w*|obige\w*|vorangegangene\w*|"
    r"urspruengliche\w*|deine\w*|die|the|all|any|every|previous|prior|above|earlier|preceding|original|your|"
    r"these|those|system)"
)
_RULES: Final = (
    r"(?:anweisung\w*|instruktion\w*|regeln|vorgaben|befehle|richtlinien|prompt\w*|systemprompt\w*|kontext|"
    r"einschraenkungen|instructions?|rules|directions|guidelines|context|prompts?|constraints|restrictions|"
    r"commands|programming)"
)
_MODEL: Final = r"(?:ki|ai|assistent\w*|assistant|chat-?bot|sprachmodell\w*|language\s+model|llm|modell|model|gpt|bot)"
_MODEL_NAME: Final = r"(?:ki|ai|assistent|assistant|chat-?bot|sprachmodell|llm|gpt)"
_PATTERNS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    (reason, re.compile(pattern))
    for reason, pattern in (
        ("Anweisungen übergehen", rf"\b{_IGNORE}\b(?:\W+\w+){{0,4}}?\W+{_EARLIER}\b(?:\W+\w+){{0,3}}?\W+{_RULES}\b"),
        ("Anweisungen übergehen", rf"\b{_IGNORE}\W+{_RULES}\b"),
        (
            "Anweisungen übergehen",
            rf"\b{_EARLIER}\W+(?:\w+\W+){{0,2}}{_RULES}\W+(?:\w+\W+){{0,3}}(?:ignorieren|vergessen|missachten|"
            rf"ignored|disregarded|forgotten)\b",
        ),
        (
            "Rollenmarker",
            r"^\W{0,3}(?:system|assistant|assistent|developer|user|human)\s*(?:message|nachricht|prompt)?\s*:"
            r"|\b(?:system\s*(?:message|prompt)|systemnachricht|systemprompt)\s*:|\[(?:system|assistant|user)\]",
        ),
        (
            "Prompt-Syntax",
            r"<\|?\s*(?:im_start|im_end|system|endoftext|begin_of_text|start_header_id)|\[/?inst\]|<<\s*/?sys\s*>>"
            r"|</?\s*(?:system|context|kontext|instructions?|anweisungen|prompt|tool|function|assistant|user)\s*>"
            r"|#{2,}\s*(?:system|instruction|anweisung|neue\s+anweisung)",
        ),
        (
            "Werkzeug-Syntax",
            r"\"role\"\s*:\s*\"|\"tool_calls?\"|\bfunction_call\b|\btool_use\b|\"arguments\"\s*:\s*\{",
        ),
        (
            "Neue Anweisung",
            r"\b(?:neue|geaenderte|aktualisierte|geheime|versteckte|new|updated|secret|hidden)\s+"
            r"(?:anweisung|instruktion|systemanweisung|instructions?|directives?)\w*\s*[:!-]",
        ),
        (
            "Anrede an das Modell",
            rf"\b(?:liebe[rs]?|hallo|hey|hi|dear|attention|achtung|hinweis\s+an\s+(?:die|den|das)|note\s+to\s+the|"
            rf"an\s+(?:die|den|das)|to\s+the)\s+{_MODEL}\s*(?:[,:!]|\s+(?:bitte|please|du|you|antworte|ignoriere|"
            rf"sage|answer|ignore|say)\b)",
        ),
        ("Anrede an das Modell", rf"(?:^|[.!?]\s*){_MODEL_NAME}\s*[,:]\s*\w+"),
        (
            "Anrede an das Modell",
            rf"\b(?:du\s+bist|you\s+are|als|as\s+an?)\s+(?:ein(?:e[mnr]?)?\s+|an?\s+)?(?:hilfreiche[rs]?\s+|"
            rf"helpful\s+)?{_MODEL}\b\W+(?:\w+\W+){{0,6}}?(?:musst|sollst|darfst|wirst|antworte|must|should|"
            rf"will|may|answer|respond|reply)\b",
        ),
        (
            "Rollenwechsel",
            r"\b(?:ab\s+(?:jetzt|sofort|nun)|von\s+nun\s+an|from\s+now\s+on|starting\s+now|henceforth)\b"
            r"(?:\W+\w+){0,4}?\W+(?:du|bist|antworte|sage?|darfst|sollst|musst|you|answer|respond|say|reply)\b",
        ),
        (
            "Rollenwechsel",
            r"\b(?:du\s+bist\s+(?:jetzt|nun|ab\s+sofort|ab\s+jetzt|kein)|you\s+are\s+(?:now|no\s+longer)|"
            r"tu\s+so,?\s+als|pretend\s+(?:to\s+be|you)|handle\s+als|spiele?\s+(?:die|eine)\s+rolle|"
            r"roleplay\s+as|jailbreak|dan\s+mode|developer\s+mode|entwicklermodus|do\s+anything\s+now)\b",
        ),
        (
            "Antwortvorgabe",
            r"\bantworte\b(?:\s+\w+){0,4}?\s*(?::|\b(?:immer|nur|stets|ausschliesslich|stattdessen|einfach|mit|ohne)\b)"
            r"|\b(?:answer|respond|reply)\b(?:\s+\w+){0,3}?\s+(?:always|only|instead|exclusively|with\s+exactly)\b",
        ),
        (
            "Antwortvorgabe",
            r"\b(?:sag|sage|teile|erzaehle?|schreibe?|gib|nenne|behaupte|tell|say)\b"
            r"\s+(?:\w+\s+){0,2}?(?:dem|den|der|the)\s+(?:nutzer\w*|benutzer\w*|user\w*|anwender\w*|fragenden|"
            r"fragesteller\w*|kunde\w*|mitarbeit\w*|beschaeftigten|employees?|customers?)\b",
        ),
        (
            "Antwortvorgabe",
            r"\b(?:die\s+(?:richtige|korrekte|einzig\s+richtige)\s+antwort\s+(?:lautet|ist)|"
            r"the\s+(?:correct|right|only\s+correct)\s+answer\s+is)\b",
        ),
        (
            "Belege abschalten",
            r"\b(?:ohne|no|without)\s+(?:belege?|quellen(?:angaben?)?|zitate?|citations?|sources|references)\s+"
            r"(?:\w+\s+){0,2}?(?:antworte\w*|answer\w*|respond\w*|reply\w*)\b"
            r"|\b(?:zitiere|cite)\s+(?:immer|stets|always|only|nur)\b",
        ),
        (
            "Systemprompt ausspähen",
            r"\b(?:verrate|zeig|zeige|gib|nenne|wiederhole|reveal|print|repeat|output|leak|disclose)\b"
            r"(?:\W+\w+){0,3}?\W+(?:system-?\s*prompt\w*|systemanweisung\w*|initial\s+prompt|hidden\s+prompt|"
            r"your\s+instructions|deine\s+anweisungen|deine\s+vorgaben)",
        ),
        (
            "Anweisung an das Modell",
            r"\b(?:befolge|folge|gehorche|fuehre)\b(?:\W+\w+){0,3}?\W+(?:diese\w*|folgende\w*|neue\w*|meine\w*)\W+"
            r"(?:anweisung|befehl|aufgabe|regel)\w*|\b(?:obey|follow|execute)\s+(?:these|the\s+following|my|new)\s+"
            r"(?:instructions?|commands?|orders?)\b",
        ),
        (
            "Anweisung an das Modell",
            r"\b(?:erwaehne|zitiere|verweise\s+auf)\b\s+(?:\w+\s+){0,3}?(?:niemals|nie|keinesfalls)\b"
            r"|\b(?:never|do\s+not|don'?t)\s+(?:mention|cite)\b",
        ),
    )
)


@dataclass(frozen=True)
class InstructionFinding:
    """Why a piece of text reads like an instruction, and the piece itself (as written, not folded)."""

    reason: str
    excerpt: str


@dataclass(frozen=True)
class ScreeningFlag:
    """An entry held back at ingest (or let through with ``--allow-flagged``)."""

    entry_id: str
    reason: str
    excerpt: str

    def describe(self) -> str:
        return f"{self.entry_id}: {self.reason} – „{self.excerpt[:100]}“"


def fold(text: str) -> str:
    """The text as the patterns see it: obfuscations undone, lower case, umlauts spelled out, one space."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(" " if unicodedata.category(c) in ("Zs", "Zl", "Zp") else c for c in text)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    text = unicodedata.normalize("NFC", text.casefold()).translate(_HOMOGLYPHS)
    text = _LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), text)
    text = _SPACED_LETTERS.sub(lambda m: re.sub(r"[ .\-_*·|/]", "", m.group(0)), text)
    return _SPACES.sub(" ", text).strip()


def instruction_reason(text: str) -> str | None:
    """The first reason the text reads like an instruction to an assistant, or None."""
    folded = fold(text)
    for reason, pattern in _PATTERNS:
        if pattern.search(folded):
            return reason
    return None


def instruction_sentences(sentences: Sequence[str]) -> list[InstructionFinding | None]:
    """Per sentence: why it reads like an instruction, or None. A pair of neighbours that does so only
    together marks both (an instruction split over a sentence boundary)."""
    verdicts: list[InstructionFinding | None] = [
        InstructionFinding(reason, sentence) if (reason := instruction_reason(sentence)) else None
        for sentence in sentences
    ]
    for index in range(len(sentences) - 1):
        if verdicts[index] or verdicts[index + 1]:
            continue
        reason = instruction_reason(f"{sentences[index]} {sentences[index + 1]}")
        if reason:
            verdicts[index] = InstructionFinding(reason, sentences[index])
            verdicts[index + 1] = InstructionFinding(reason, sentences[index + 1])
    return verdicts


def segments(text: str) -> list[str]:
    """Coarse sentence-like pieces for screening (stop, colon, semicolon or line break)."""
    return [piece.strip() for piece in _SEGMENT.split(text) if piece.strip()]


def screen_entries(entries: Iterable[KBEntry], split: Callable[[str], list[str]] = segments) -> list[ScreeningFlag]:
    """One flag per entry whose title, section or text reads like an instruction to an assistant."""
    flags = []
    for entry in entries:
        for field in (entry.title, entry.section, entry.text):
            found = next((f for f in instruction_sentences(split(field)) if f is not None), None)
            if found is not None:
                flags.append(ScreeningFlag(entry.id, found.reason, found.excerpt))
                break
    return flags
