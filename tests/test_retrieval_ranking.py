"""Ranking helpers: maximal marginal relevance, the lexical score (light stemming, the asked attribute,
the sentence's context, the answer's type), the list-question and answer-type cues."""

import numpy as np
import pytest

from models.config import RetrievalConfig
from models.retrieval.candidates import Candidate, Pool
from models.retrieval.question_kind import asks_for_several, expected_answer, holds_answer
from models.retrieval.ranking import diverse_order
from models.retrieval.sparse import bm25_scores, lexical_scores, light_stem


def test_diverse_order_moves_a_near_duplicate_below_a_different_relevant_item():
    vectors = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    scores = np.array([1.0, 0.95, 0.9, 0.0])
    assert diverse_order(scores, vectors, relevance_weight=1.0) == [0, 1, 2, 3]
    assert diverse_order(scores, vectors, relevance_weight=0.7) == [0, 2, 1, 3]
    assert diverse_order(np.zeros(0), np.zeros((0, 2)), 0.7) == []


def test_light_stem_matches_inflections_and_leaves_short_words():
    assert light_stem(["worked", "working", "players", "companies", "class", "is", "was"]) == [
        "work",
        "work",
        "player",
        "compan",
        "class",
        "is",
        "was",
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


def sentence_pool(passages: dict[str, list[str]]) -> Pool:
    pool = Pool(passages=list(passages.values()), passage_names=list(passages))
    for p, sentences in enumerate(pool.passages):
        pool.candidates += [
            Candidate(text, "sentence", passage=p, position=i) for i, text in enumerate(sentences)
        ]
    return pool


RAMIS = {
    "Harold Ramis - Wikipedia": [
        "Harold Ramis was an American actor and director from Chicago.",
        "Ramis directed Groundhog Day and Analyze This.",
        "He was born in Chicago in 1944 to a Jewish family.",
    ],
    "Ghostbusters fan forum": ["Harold Ramis played Egon in Ghostbusters, a role fans still love."],
}


def test_the_asked_attribute_outweighs_the_entity_the_pages_are_about():
    pool = sentence_pool(RAMIS)
    config = RetrievalConfig(answer_type_boost=0.0)
    plain = lexical_scores("harold ramis directed which films?", pool, RetrievalConfig(attribute_weight=0.0))
    weighted = lexical_scores(
        "harold ramis directed which films?", pool, RetrievalConfig(attribute_weight=2.0)
    )
    # "directed" is in no page name: the sentence stating it gains most from its weight.
    assert np.argmax(weighted) == 1
    assert weighted[1] - plain[1] > weighted[0] - plain[0]
    born = lexical_scores("when was harold ramis born?", pool, config)
    assert np.argmax(born) == 2  # "born" is the attribute; the name is everywhere


def test_context_names_the_entity_a_sentence_leaves_out():
    pool = sentence_pool(RAMIS)
    # "He was born ..." names no Ramis; with context, its page name and neighbours do.
    alone = lexical_scores(
        "ramis born chicago", pool, RetrievalConfig(context_weight=0.0, answer_type_boost=0.0)
    )
    helped = lexical_scores(
        "ramis born chicago", pool, RetrievalConfig(context_weight=1.0, answer_type_boost=0.0)
    )
    assert helped[2] > alone[2]
    assert helped[2] - alone[2] > helped[3] - alone[3]  # the forum post's context is not about Chicago


def test_a_sentence_holding_the_asked_kind_of_value_is_boosted():
    pool = sentence_pool({"page": ["The tower is tall and old.", "The tower is 324 metres tall."]})
    flat = lexical_scores("how tall is the tower?", pool, RetrievalConfig(answer_type_boost=0.0))
    boosted = lexical_scores("how tall is the tower?", pool, RetrievalConfig(answer_type_boost=1.0))
    assert boosted[1] == pytest.approx(2 * flat[1]) and boosted[0] == pytest.approx(flat[0])


def test_lexical_scores_of_an_empty_query_or_pool_are_zeros():
    assert lexical_scores("", sentence_pool(RAMIS), RetrievalConfig()).tolist() == [0.0] * 4
    assert lexical_scores("ramis", Pool(), RetrievalConfig()).tolist() == []


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("can you tell me the date of birth of harold ramis?", "date"),
        ("when did the killers release hot fuss?", "date"),
        ("in what year was the eiffel tower built?", "date"),
        ("how many grammys has beyonce won?", "number"),
        ("what was the closing price of vnom yesterday?", "number"),
        ("how tall is the eiffel tower?", "number"),
        ("who is the host of jeopardy?", None),
        ("where was harold ramis born?", None),
        ("what album did the killers release in 2004?", None),
    ],
)
def test_expected_answer(query, kind):
    assert expected_answer(query) == kind


def test_holds_answer():
    assert holds_answer("date", "Born November 21, 1944")
    assert holds_answer("date", "It opened in 1889.")
    assert not holds_answer("date", "You may see it from afar.")
    assert holds_answer("number", "It has three floors")
    assert holds_answer("number", "$35.78")
    assert not holds_answer("number", "It is very tall")
