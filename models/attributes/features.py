"""Question text -> feature matrix: TF-IDF word and character n-grams, temporal cues, sentence embedding.

Numbers are folded into placeholder tokens before the n-grams are counted, so "in 2004" and
"in 2011" look alike to the model; whether a year is recent is a separate cue (relative to the
question's own time when it has one).
"""

from __future__ import annotations

import re

import numpy as np
from scipy.sparse import csr_matrix, hstack
from sklearn.feature_extraction.text import TfidfVectorizer

from models import vocabulary
from models.config import AttributesConfig

_YEAR = re.compile(rf"\b{vocabulary.MODERN_YEAR}\b")
_NUMBER = re.compile(vocabulary.DIGIT_RUN)
_QUERY_TIME_YEAR = re.compile(rf"\b({vocabulary.MODERN_YEAR})\b")

# Cue name -> pattern; each cue becomes one 0/1 feature.
TEMPORAL_CUES = {name: re.compile(pattern) for name, pattern in vocabulary.TEMPORAL_CUES.items()}


def normalize_query(query: str) -> str:
    text = query.lower()
    text = _YEAR.sub(" yeartoken ", text)
    return _NUMBER.sub(" numbertoken ", text)


def reference_year(query_time: str, default_year: int) -> int:
    """The year a question was asked (from its `query_time`), or `default_year` when it has none."""
    match = _QUERY_TIME_YEAR.search(query_time or "")
    return int(match.group(1)) if match else default_year


def cue_features(query: str, asked_in_year: int, recent_years: int) -> list[float]:
    text = query.lower()
    cues = [1.0 if pattern.search(text) else 0.0 for pattern in TEMPORAL_CUES.values()]
    years = [int(year) for year in _YEAR.findall(text)]
    cues.append(1.0 if any(asked_in_year - year < recent_years for year in years) else 0.0)
    return cues


class QuestionFeaturizer:
    """Fitted on training queries; turns (queries, years asked, embeddings) into one sparse matrix."""

    def __init__(self, config: AttributesConfig):
        # Only numbers are kept (not the config), so the pickled artifact does not depend on paths.
        self.cue_weight = config.cue_weight
        self.embedding_weight = config.embedding_weight
        self.recent_years = config.recent_years
        self.word_vectorizer = TfidfVectorizer(
            ngram_range=(1, config.word_ngram_max), sublinear_tf=True, min_df=config.word_min_df
        )
        self.char_vectorizer = TfidfVectorizer(
            analyzer="char_wb",
            ngram_range=(config.char_ngram_min, config.char_ngram_max),
            sublinear_tf=True,
            min_df=config.char_min_df,
        )

    def fit(self, queries: list[str]) -> "QuestionFeaturizer":
        normalized = [normalize_query(q) for q in queries]
        self.word_vectorizer.fit(normalized)
        self.char_vectorizer.fit(normalized)
        return self

    def drop_caches(self) -> None:
        """Before pickling: sklearn caches the memory address of the stop-word list in each
        vectorizer (a warning cache); dropping it keeps the artifact byte-identical between runs."""
        for vectorizer in (self.word_vectorizer, self.char_vectorizer):
            vars(vectorizer).pop("_stop_words_id", None)

    def transform(self, queries: list[str], years: list[int], embeddings: np.ndarray) -> csr_matrix:
        normalized = [normalize_query(q) for q in queries]
        cues = np.array(
            [cue_features(q, year, self.recent_years) for q, year in zip(queries, years)], dtype=np.float32
        ).reshape(len(queries), -1)
        return hstack(
            [
                self.word_vectorizer.transform(normalized),
                self.char_vectorizer.transform(normalized),
                csr_matrix(cues * self.cue_weight),
                csr_matrix(embeddings * self.embedding_weight),
            ],
            format="csr",
        )
