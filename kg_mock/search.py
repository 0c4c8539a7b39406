"""Name search as the official CRAG mock API does it: a name normaliser and two BM25 flavours.

* `OkapiSearch` (open, movie, finance): rank_bm25's BM25Okapi, whose idf is 0 for a term in exactly
  half the names and is floored at 0.25 x the mean idf when negative; the 10 best scores are kept
  and exact zeros dropped. A 2-name corpus therefore finds nothing.
* `FilteredSearch` (music): the same idf, but every term with idf <= 4 is deleted from the index,
  so a term survives only in under ~2 % of the names; with no surviving term (fewer than 83 names)
  building the index divides by zero, which aborts the server's start-up as it does officially.
  Equal scores keep the order in which the names were first scored (the official `heapq.nlargest`
  over its score dict): the names of the query's first word in index order, then those that only a
  later word reaches; past 10 ties, the first 10 in that order.
"""

from __future__ import annotations

import math
import string
from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np
from rank_bm25 import BM25Okapi

TOP_N = 10
_ASCII_PUNCTUATION = str.maketrans("", "", string.punctuation)


def normalize(name: str) -> str:
    """Lower-case, `_` to space, ASCII punctuation deleted (`Spider-Man` -> `spiderman`), spaces collapsed."""
    return " ".join(name.lower().replace("_", " ").translate(_ASCII_PUNCTUATION).split())


class OkapiSearch:
    """Indexes of documents given as token lists; `top(query_tokens)` returns document positions."""

    def __init__(self, documents: Sequence[list[str]]):
        self.documents = list(documents)
        self._bm25 = BM25Okapi(self.documents) if self.documents else None

    def top(self, query_tokens: list[str], n: int = TOP_N) -> list[int]:
        if self._bm25 is None:
            return []
        scores = self._bm25.get_scores(query_tokens)
        best = np.argsort(scores)[::-1][:n]
        return [int(position) for position in best if scores[position] != 0]


class FilteredSearch:
    """BM25 (k1 = 1.5, b = 0.75) over the terms whose idf exceeds 4; ties in first-scored order."""

    MIN_IDF = 4.0

    def __init__(self, documents: Sequence[list[str]], k1: float = 1.5, b: float = 0.75):
        self.documents = list(documents)
        self.k1, self.b = k1, b
        count = len(self.documents)
        self._lengths = [len(tokens) for tokens in self.documents]
        self._average_length = sum(self._lengths) / count
        document_frequency: Counter[str] = Counter(t for tokens in self.documents for t in set(tokens))
        idf = {t: math.log(count - n + 0.5) - math.log(n + 0.5) for t, n in document_frequency.items()}
        self.idf = {t: value for t, value in idf.items() if value > self.MIN_IDF}
        # Raises ZeroDivisionError when no term survives, like the official index.
        self.average_idf = sum(self.idf.values()) / len(self.idf)
        self._postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for position, tokens in enumerate(self.documents):
            for term, frequency in Counter(tokens).items():
                if term in self.idf:
                    self._postings[term].append((position, frequency))

    def top(self, query_tokens: list[str], n: int = TOP_N) -> list[int]:
        scores: dict[int, float] = defaultdict(float)  # insertion order: the order names were first scored
        for term in query_tokens:
            for position, frequency in self._postings.get(term, ()):
                length_norm = 1 - self.b + self.b * self._lengths[position] / self._average_length
                scores[position] += (
                    self.idf[term] * frequency * (self.k1 + 1) / (frequency + self.k1 * length_norm)
                )
        # a stable sort (reverse keeps equal scores in insertion order), as heapq.nlargest officially
        return sorted(scores, key=scores.__getitem__, reverse=True)[:n]
