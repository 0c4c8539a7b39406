"""Dense embeddings computed once per distinct text, ranks, and reciprocal rank fusion."""

from __future__ import annotations

import numpy as np

from models.embeddings import SentenceEncoder


def embed_distinct(encoder: SentenceEncoder, texts: list[str]) -> np.ndarray:
    """One embedding row per text, in one encode call that sees each distinct text once."""
    position: dict[str, int] = {}
    rows = [position.setdefault(text, len(position)) for text in texts]
    vectors = encoder.encode(list(position))
    return vectors[rows] if rows else vectors


def ranks_descending(scores: np.ndarray) -> np.ndarray:
    """1-based rank of each score (ties keep their order)."""
    order = np.argsort(-scores, kind="stable")
    ranks = np.empty(len(scores), dtype=np.int64)
    ranks[order] = np.arange(1, len(scores) + 1)
    return ranks


def reciprocal_rank_fusion(rankings: list[tuple[np.ndarray, float]], k: int) -> np.ndarray:
    """Sum of weight / (k + rank) over (1-based ranks, weight) pairs of equal length."""
    return sum(weight / (k + ranks.astype(np.float64)) for ranks, weight in rankings)
