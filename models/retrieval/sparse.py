"""BM25 scores of a question's candidates (bm25s, English stop words removed, light suffix stemming)."""

from __future__ import annotations

import re

import bm25s
import numpy as np

from models.config import RetrievalConfig

# Inflections that hide a match from exact-token BM25 ("worked" / "work", "players" / "player").
_SUFFIX = re.compile(r"(?<=\w\w\w)(?:ies|ied|ing|ed|es|s)$")


def light_stem(words: list[str]) -> list[str]:
    """Plural and past/progressive endings stripped; a crude but predictable stand-in for Snowball."""
    return [_SUFFIX.sub("", word) if not word.endswith("ss") else word for word in words]


def _tokenize(texts: list[str], stem: bool) -> list[list[str]]:
    return bm25s.tokenize(texts, return_ids=False, show_progress=False, stemmer=light_stem if stem else None)


def bm25_scores(query: str, texts: list[str], config: RetrievalConfig) -> np.ndarray:
    """One BM25 score per text; all zeros when the query or the texts have no indexable word."""
    scores = np.zeros(len(texts), dtype=np.float32)
    query_tokens = _tokenize([query], config.bm25_stemming)[0] if query.strip() else []
    if not texts or not query_tokens:
        return scores
    document_tokens = _tokenize(texts, config.bm25_stemming)
    if not any(document_tokens):
        return scores
    index = bm25s.BM25(k1=config.bm25_k1, b=config.bm25_b)
    index.index(document_tokens, show_progress=False)
    return np.asarray(index.get_scores(query_tokens), dtype=np.float32)
