"""German word lists behind the deterministic heuristics (own selection; lemma-matched unless noted)."""

from __future__ import annotations

from typing import Final

# Forms of "werden" that start a passive construction together with a past participle.
WERDEN_FORMS: Final = frozenset(
    "werde wirst wird werden werdet wurde wurdest wurden wurdet würde würdest würden würdet worden".split()
)

FILLER_WORDS: Final = (
    "eigentlich",
    "eben",
    "halt",
    "mal",
    "wohl",
    "irgendwie",
    "gewissermaßen",
    "sozusagen",
    "quasi",
    "ziemlich",
    "durchaus",
    "natürlich",
    "einfach",
    "wirklich",
    "letztendlich",
    "grundsätzlich",
    "praktisch",
    "sicherlich",
    "tatsächlich",
    "überhaupt",
    "ohnehin",
    "schlichtweg",
    "echt",
    "total",
    "absolut",
    "gar",
    "ja",
    "doch",
    "eher",
    "irgendwann",
    "im Prinzip",
    "an sich",
    "in der Tat",
)

HYPE_WORDS: Final = (
    "innovativ",
    "einzigartig",
    "revolutionär",
    "bahnbrechend",
    "disruptiv",
    "weltklasse",
    "erstklassig",
    "unschlagbar",
    "perfekt",
    "ultimativ",
    "exzellent",
    "herausragend",
    "genial",
    "sensationell",
    "marktführend",
    "beispiellos",
    "unvergleichlich",
    "Game-Changer",
    "next level",
    "State of the Art",
)

# Irregular superlatives the suffix heuristic cannot see (matched as written, not inflected).
IRREGULAR_SUPERLATIVES: Final = (
    "beste",
    "besten",
    "bester",
    "bestes",
    "bestem",
    "höchste",
    "höchsten",
    "meiste",
    "meisten",
    "allerbeste",
)

# Hedging (K5): verbs and adjectives are matched in every inflection, modal forms and adverbs as written.
HEDGE_LEMMAS: Final = ("glauben", "denken", "meinen", "versuchen", "helfen", "unterstützen", "ganzheitlich")
HEDGE_FORMS: Final = (
    "möchte",
    "möchten",
    "könnte",
    "könnten",
    "würde",
    "würden",
    "vielleicht",
    "eventuell",
    "gegebenenfalls",
    "möglicherweise",
    "unter Umständen",
    "in gewisser Weise",
    "tendenziell",
    "hoffentlich",
    "ein Stück weit",
    "gewissermaßen",
    "irgendwie",
)

# Softeners in a positioning: they widen instead of delimit (maturity, positioning block).
SOFTENERS: Final = (
    "flexibel",
    "für alle",
    "ganzheitlich",
    "individuell",
    "alles aus einer Hand",
    "maßgeschneidert",
    "für jeden",
    "rundum",
    "umfassend",
    "vielseitig",
)

# Phrases that level a positioning in content (K2): the brand claims everything for everyone.
LEVELING_PHRASES: Final = (
    "wir machen alles",
    "flexibel für alle",
    "für alle und jeden",
    "alles aus einer Hand",
    "für jeden Bedarf",
    "egal was Sie brauchen",
    "für jede Branche",
    "für alle Branchen",
    "wir können alles",
    "jede Anforderung",
)
COMPARISON_MARKERS: Final = ("günstiger als", "billiger als", "besser als", "schneller als", "mehr als die")
REASON_MARKERS: Final = ("weil", "denn", "da", "deshalb", "dadurch", "daher", "sodass")

# An identity core names who the brand is, not a market or a benefit (maturity, identity block).
MARKET_TERMS: Final = (
    "Markt",
    "Marktanteil",
    "Kunde",
    "Zielgruppe",
    "Branche",
    "Umsatz",
    "Produkt",
    "Software",
    "Plattform",
    "Preis",
    "Euro",
    "Wettbewerb",
    "Wettbewerber",
    "Segment",
    "Vertrieb",
    "B2B",
    "B2C",
    "App",
)
BENEFIT_PROMISES: Final = (
    "sparen",
    "steigern",
    "Wachstum",
    "Erfolg",
    "garantieren",
    "schneller",
    "günstiger",
    "Rendite",
    "ROI",
    "Effizienzsteigerung",
    "mehr Umsatz",
    "Gewinn",
    "verdoppeln",
    "Vorteil",
)
