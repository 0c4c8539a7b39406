"""Ranking helpers: maximal marginal relevance, light stemming for BM25, the list-question cue."""

import numpy as np
import pytest

from models.config import RetrievalConfig
from models.retrieval.question_kind import asks_for_several
from models.retrieval.ranking import diverse_order
from models.retrieval.sparse import bm25_scores, light_stem


def test_diverse_order_moves_a_near_duplicate_below_a_different_relevant_item():
    vectors = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    scores = np.array([1.0, 0.95, 0.9, 0.0])
    assert diverse_order(scores, vectors, relevance_weight=1.0) == [0, 1, 2, 3]
    assert diverse_order(scores, vectors, relevance_weight=0.7) == [0, 2, 1, 3]
    assert diverse_order(np.zeros(0), np.zeros((0, 2)), 0.7) == []


def test_light_stem_matches_inflections_and_leaves_short_words():
    assert light_stem(["worked", "working", "players", "companies", "class", "is", "was"]) == [
        "work", "work", "player", "compan", "class", "is", "was",
    ]


def test_bm25_matches_an_inflected_word_only_with_stemming():
    texts = ["Benioff worked at Oracle for 13 years.", "The weather was sunny."]
    stemmed = bm25_scores("where did he work?", texts, RetrievalConfig(bm25_stemming=True))
    plain = bm25_scores("where did he work?", texts, RetrievalConfig(bm25_stemming=False))
    assert stemmed[0] > 0 and stemmed[1] == 0
    assert plain[0] == 0


@pytest.mark.parametrize(
    ("query", "several"),
    [
        ("name three celebrities who collaborated with beauty brands", True),
        ("what are the names of george and amal clooney's twins?", True),
        ("As of March 2024, what NFL teams had never made the Super Bowl?", True),
        ("who are the three players with the most home runs?", True),
        ("how many grand slams has serena williams won?", True),
        ("which companies have the highest dividend yield?", True),
        ("who stepped down as apple's ceo in august 2011?", False),
        ("what is the most active volcano in the philippines?", False),
        ("which actress won an academy award for black swan?", False),
    ],
)
def test_asks_for_several(query, several):
    assert asks_for_several(query) is several
