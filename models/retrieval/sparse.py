"""BM25 scores of a question's candidates (bm25s, English stop words removed)."""

from __future__ import annotations

import bm25s
import numpy as np

from models.config import RetrievalConfig


def _tokenize(texts: list[str]) -> list[list[str]]:
    return bm25s.tokenize(texts, return_ids=False, show_progress=False)


def bm25_scores(query: str, texts: list[str], config: RetrievalConfig) -> np.ndarray:
    """One BM25 score per text; all zeros when the query or the texts have no indexable word."""
    scores = np.zeros(len(texts), dtype=np.float32)
    query_tokens = _tokenize([query])[0] if query.strip() else []
    if not texts or not query_tokens:
        return scores
    document_tokens = _tokenize(texts)
    if not any(document_tokens):
        return scores
    index = bm25s.BM25(k1=config.bm25_k1, b=config.bm25_b)
    index.index(document_tokens, show_progress=False)
    return np.asarray(index.get_scores(query_tokens), dtype=np.float32)
