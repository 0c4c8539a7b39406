"""Lexical scores of a question's candidates: BM25 per query term over the question's own pool
(bm25s, English stop words removed, light suffix stemming).

A sentence is scored on what it says itself, with the asked attribute weighing more than the entity
(the pages are about the entity already), plus a share of what its context says (its page's name and
its neighbours name the entity a sentence often leaves out), and a boost when it holds the kind of
value the question asks for.
"""

from __future__ import annotations

import re

import bm25s
import numpy as np

from models.config import RetrievalConfig
from models.retrieval.candidates import Pool
from models.retrieval.question_kind import expected_answer, holds_answer

# Inflections that hide a match from exact-token BM25 ("worked" / "work", "players" / "player").
_SUFFIX = re.compile(r"(?<=\w\w\w)(?:ies|ied|ing|ed|es|s)$")


def light_stem(words: list[str]) -> list[str]:
    """Plural and past/progressive endings stripped; a crude but predictable stand-in for Snowball."""
    return [_SUFFIX.sub("", word) if not word.endswith("ss") else word for word in words]


def tokenize(texts: list[str], config: RetrievalConfig) -> list[list[str]]:
    stemmer = light_stem if config.bm25_stemming else None
    return bm25s.tokenize(texts, return_ids=False, show_progress=False, stemmer=stemmer)


def bm25_by_term(terms: list[str], documents: list[list[str]], config: RetrievalConfig) -> np.ndarray:
    """BM25 of each term (rows) in each tokenized document (columns); zeros where a term is absent."""
    scores = np.zeros((len(terms), len(documents)), dtype=np.float32)
    if not terms or not any(documents):
        return scores
    index = bm25s.BM25(k1=config.bm25_k1, b=config.bm25_b)
    index.index(documents, show_progress=False)
    for row, term in enumerate(terms):
        if term in index.vocab_dict:
            scores[row] = index.get_scores([term])
    return scores


def bm25_scores(query: str, texts: list[str], config: RetrievalConfig) -> np.ndarray:
    """Plain BM25 of `query` in each text; all zeros when the query or the texts have no indexable word."""
    terms = tokenize([query], config)[0] if query.strip() else []
    return bm25_by_term(terms, tokenize(texts, config) if texts else [], config).sum(axis=0)


def lexical_scores(query: str, pool: Pool, config: RetrievalConfig) -> np.ndarray:
    """One score per pool candidate (see the module docstring and `RetrievalConfig`)."""
    candidates = pool.candidates
    terms = list(dict.fromkeys(tokenize([query], config)[0])) if query.strip() else []
    if not terms or not candidates:
        return np.zeros(len(candidates), dtype=np.float32)
    sentences = [sentence for passage in pool.passages for sentence in passage]
    flat = tokenize(sentences + pool.passage_names, config)
    passage_tokens, start = [], 0
    for passage in pool.passages:
        passage_tokens.append(flat[start : start + len(passage)])
        start += len(passage)
    name_tokens = flat[start:]
    others = [c.text for c in candidates if c.kind != "sentence" or c.passage is None]
    other_tokens = iter(tokenize(others, config) if others else [])

    own: list[list[str]] = []
    around: list[list[str]] = []
    reach = config.context_sentences
    for candidate in candidates:
        if candidate.kind != "sentence" or candidate.passage is None:
            own.append(next(other_tokens))
            around.append([])
            continue
        tokens = passage_tokens[candidate.passage]
        position = candidate.position
        own.append(tokens[position])
        neighbours = range(max(0, position - reach), min(len(tokens), position + reach + 1))
        around.append(
            name_tokens[candidate.passage] + [t for p in neighbours if p != position for t in tokens[p]]
        )

    named = {token for tokens in name_tokens for token in tokens}
    weights = np.array([1.0 if term in named else 1.0 + config.attribute_weight for term in terms])
    scores = weights @ bm25_by_term(terms, own, config)
    scores += config.context_weight * bm25_by_term(terms, around, config).sum(axis=0)
    wanted = expected_answer(query)
    if wanted is not None and config.answer_type_boost:
        boost = np.array([1.0 + config.answer_type_boost * holds_answer(wanted, c.text) for c in candidates])
        scores *= boost
    return scores.astype(np.float32)
