"""Dense embeddings computed once per distinct text, ranks, and reciprocal rank fusion."""

from __future__ import annotations

from typing import cast

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
    return cast(np.ndarray, sum(weight / (k + ranks.astype(np.float64)) for ranks, weight in rankings))


def diverse_order(scores: np.ndarray, vectors: np.ndarray, relevance_weight: float) -> list[int]:
    """Maximal marginal relevance: each next item maximises w * relevance - (1 - w) * its highest
    cosine to an item already placed (relevance is `scores` scaled to [0, 1]); w = 1 is plain order."""
    count = len(scores)
    if count == 0 or relevance_weight >= 1.0:
        return [int(i) for i in np.argsort(-scores, kind="stable")]
    low, high = float(scores.min()), float(scores.max())
    relevance = (scores - low) / (high - low) if high > low else np.ones(count)
    closest = np.full(count, -1.0)
    placed = np.zeros(count, dtype=bool)
    order = []
    for _ in range(count):
        value = relevance_weight * relevance - (1.0 - relevance_weight) * np.maximum(closest, 0.0)
        value[placed] = -np.inf
        best = int(np.argmax(value))
        order.append(best)
        placed[best] = True
        closest = np.maximum(closest, vectors @ vectors[best])
    return order
