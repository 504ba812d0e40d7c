"""Plain in-memory BM25 (k1 1.2, b 0.75): the baseline every retrieval benchmark prints next to its own figures."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

import regex

_WORD = regex.compile(r"\w+")


def plain_terms(text: str) -> list[str]:
    """Lower-cased ``\\w+`` tokens: the reference tokenizer of the published baseline figures."""
    terms: list[str] = _WORD.findall(text.lower())
    return terms


class BM25:
    def __init__(
        self,
        documents: Sequence[str],
        *,
        terms: Callable[[str], list[str]] = plain_terms,
        k1: float = 1.2,
        b: float = 0.75,
    ) -> None:
        self._terms = terms
        self._counts = [Counter(terms(doc)) for doc in documents]
        self._lengths = [sum(c.values()) for c in self._counts]
        average = sum(self._lengths) / max(1, len(self._lengths))
        frequency: Counter[str] = Counter(term for c in self._counts for term in c)
        n = len(documents)
        self._idf = {t: math.log(1 + (n - df + 0.5) / (df + 0.5)) for t, df in frequency.items()}
        self._norms = [k1 * (1 - b + b * length / average) for length in self._lengths]
        self._k1 = k1

    def scores(self, query: str) -> list[float]:
        query_terms = set(self._terms(query))
        result = []
        for counts, norm in zip(self._counts, self._norms, strict=True):
            score = 0.0
            for term in query_terms:
                tf = counts.get(term, 0)
                if tf:
                    score += self._idf[term] * tf * (self._k1 + 1) / (tf + norm)
            result.append(score)
        return result
