"""Retriever: the evidence stage, batched over all questions of a batch.

hybrid mode, per batch:
  1. pool    every question's candidates (sentences of page text and snippets, verbalized table rows,
             tables, extra lines)
  2. sparse  lexical scores over each pool (BM25 per query term: the sentence itself, the asked
             attribute weighing more, plus its context; `sparse.py`), scaled by how well the
             candidate's page matches the question (`pages.py`); the top `dense_candidates` go on
  3. dense   one encode call for all queries and shortlisted texts (each distinct text once, a
             sentence without its window); cosine
  4. fuse    reciprocal rank fusion of the BM25 and dense ranks
  5. rescore optional relevance estimator (cross-encoder, or the LLM's P(yes) in one generate call)
  6. select  minimum relevance, then the budgets; no sentence shown twice, a sentence shown with the
             neighbours it needs, more units for a question asking for several things (`selection.py`)

With `seconds` (on `clock`), the work is bounded: the BM25 shortlists and the dense scores are
computed question by question while time is left, and the rescoring runs only if time is left
after them, in slices it stops between; a question that misses a step is ranked without it (no
references, lexical order, or the fused one), with a note.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from loguru import logger

from models.config import RetrievalConfig
from models.embeddings import SentenceEncoder
from models.llm.base import LLMBackend, TokenUsage
from models.prompts import PromptLibrary
from models.retrieval.baseline import baseline_evidence
from models.retrieval.candidates import Candidate, PageContent, build_pool
from models.retrieval.pages import page_card, page_scores
from models.retrieval.ranking import diverse_order, embed_distinct, ranks_descending, reciprocal_rank_fusion
from models.retrieval.question_kind import asks_for_several
from models.retrieval.relevance import RelevanceEstimator, create_estimator
from models.retrieval.selection import Ranked, context_window, select_evidence
from models.retrieval.sparse import lexical_scores
from models.retrieval.tokens import TokenCounter
from models.schema import Event, Evidence, PageUse, Question, SearchResult


@dataclass
class _Shortlist:
    """One question's BM25 shortlist, then its dense and fused scores."""

    query: str
    wants_list: bool
    passages: list[list[str]] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    pages: list[PageUse] = field(default_factory=list)
    sparse_ranks: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    similarity: np.ndarray | None = None
    fused: np.ndarray | None = None
    vectors: np.ndarray | None = None

    def scoring_text(self, index: int, max_chars: int) -> str:
        return self.candidates[index].text[:max_chars]

    def shown_text(self, index: int, config: RetrievalConfig) -> str:
        """What the reasoning step would see of the candidate: a sentence with its neighbours."""
        candidate = self.candidates[index]
        if candidate.kind != "sentence" or candidate.passage is None:
            return candidate.text
        sentences = self.passages[candidate.passage]
        return " ".join(sentences[p] for p in context_window(sentences, candidate.position, config))


class Retriever:
    def __init__(
        self,
        config: RetrievalConfig,
        encoder: SentenceEncoder,
        llm: LLMBackend | None = None,
        prompts: PromptLibrary | None = None,
        estimator: RelevanceEstimator | None = None,
    ):
        """`estimator` replaces the one `config.relevance_estimator` names (e.g. a stand-in for a
        GPU cross-encoder in a CPU benchmark)."""
        self.config = config
        self.encoder = encoder
        self.tokens = TokenCounter(llm, config.tokens_per_piece)
        if config.mode != "hybrid":
            self.estimator = None
        else:
            self.estimator = estimator or create_estimator(config, llm, prompts)

    def warm_up(self) -> None:
        """Load the relevance model, when it is a local one (the encoder warms itself)."""
        warm_up = getattr(self.estimator, "warm_up", None)
        if warm_up is not None:
            warm_up()

    def run(
        self,
        questions: list[Question],
        pages: Sequence[Sequence[PageContent]],
        extra_references: Sequence[Sequence[str]] | None = None,
        seconds: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> list[Evidence]:
        """One Evidence per question. `extra_references` (e.g. KG lines) compete in the same pool;
        `seconds` on `clock` bounds the shortlists, the dense scoring and the rescoring (see the
        module docstring).

        Raises when a step fails (the orchestrator contains and records stage failures).
        """
        if not questions:
            return []
        started = time.perf_counter()
        if self.config.mode == "baseline":
            evidence = baseline_evidence(questions, self.encoder, self.config)
        else:
            stop_at = None if seconds is None else clock() + seconds
            evidence = self._hybrid(
                questions, pages, extra_references or [], lambda: stop_at is not None and clock() >= stop_at
            )
        elapsed = time.perf_counter() - started
        logger.debug(f"retrieval ({self.config.mode}): {len(questions)} questions in {elapsed:.2f}s")
        return evidence

    def _hybrid(
        self,
        questions: list[Question],
        pages: Sequence[Sequence[PageContent]],
        extra: Sequence[Sequence[str]],
        passed: Callable[[], bool],
    ) -> list[Evidence]:
        shortlists, notes = [], []
        for i, question in enumerate(questions):
            if passed():
                shortlists.append(_Shortlist(question.query, asks_for_several(question.query)))
                notes.append([SHORTLIST_SKIPPED])
            else:
                shortlists.append(self._shortlist(question, _item(pages, i), _item(extra, i)))
                notes.append([])
        for shortlist, kept in zip(shortlists, notes):
            if kept or not shortlist.candidates:
                continue
            if passed():
                kept.append(DENSE_STOPPED)
            else:
                self._score_dense([shortlist])
        scored = [shortlist for shortlist in shortlists if shortlist.fused is not None]
        if self.estimator is not None and scored and passed():
            for shortlist, kept in zip(shortlists, notes):
                if shortlist.fused is not None:
                    kept.append(RESCORING_SKIPPED)
            scored = []
        relevance, usages, stopped = self._estimate_relevance(scored, passed)
        by_shortlist = {
            id(shortlist): (found, usage) for shortlist, found, usage in zip(scored, relevance, usages)
        }
        for position in stopped:
            notes[shortlists.index(scored[position])].append(RESCORING_STOPPED)
        evidence = []
        for shortlist, kept in zip(shortlists, notes):
            found, usage = by_shortlist.get(id(shortlist), (None, None))
            result = self._select(shortlist, found)
            if usage is not None:
                result.usage = usage
            result.events = kept
            evidence.append(result)
        return evidence

    def _shortlist(
        self, question: Question, pages: Sequence[PageContent], extra: Sequence[str]
    ) -> _Shortlist:
        pool = build_pool(question, pages, extra, self.config)
        candidates = pool.candidates
        lexical = lexical_scores(question.query, pool, self.config)
        if self.config.page_weight and len(pages) > max(1, self.config.weigh_pages_above):
            factor = self._page_factors(question, pages)
            lexical = lexical * np.array([factor[c.page] if c.page is not None else 1.0 for c in candidates])
        sparse = _table_takes_best_row(candidates, lexical)
        ranks = ranks_descending(sparse)
        limit = self.config.dense_candidates or len(candidates)
        keep = np.sort(np.argsort(ranks, kind="stable")[:limit])
        uses = [PageUse(page.page_name, getattr(page, "read", True)) for page in pages]
        for candidate in candidates:
            if candidate.page is not None:
                uses[candidate.page].candidates += 1
        for i in keep:
            page = candidates[i].page
            if page is not None:
                uses[page].shortlisted += 1
        return _Shortlist(
            question.query,
            asks_for_several(question.query),
            pool.passages,
            [candidates[i] for i in keep],
            uses,
            ranks[keep],
        )

    def _page_factors(self, question: Question, pages: Sequence[PageContent]) -> list[float]:
        """Each page's factor on its candidates' lexical scores: (its card's BM25 / the best card's)
        to the power `page_weight` (models/retrieval/pages.py)."""
        results: dict[str, SearchResult] = {}
        for result in question.search_results:
            results.setdefault(result.page_name, result)
        cards = [
            page_card(page.page_name, results.get(page.page_name), "\n".join(page.chunks), self.config)
            for page in pages
        ]
        scores = page_scores(question.query, cards, self.config)
        best = float(scores.max())
        if best <= 0:
            return [1.0] * len(pages)
        return [float(score / best) ** self.config.page_weight for score in scores]

    def _score_dense(self, shortlists: list[_Shortlist]) -> None:
        """Cosine and fused scores for every shortlist, from one encode call."""
        cap = self.config.dense_text_max_chars
        texts = [s.query for s in shortlists] + [
            s.scoring_text(i, cap) for s in shortlists for i in range(len(s.candidates))
        ]
        vectors = embed_distinct(self.encoder, texts)
        start = len(shortlists)
        for query_vector, shortlist in zip(vectors, shortlists):
            candidate_vectors = vectors[start : start + len(shortlist.candidates)]
            start += len(shortlist.candidates)
            shortlist.vectors = candidate_vectors
            shortlist.similarity = _table_takes_best_row(
                shortlist.candidates, candidate_vectors @ query_vector
            )
            shortlist.fused = reciprocal_rank_fusion(
                [
                    (ranks_descending(shortlist.similarity), self.config.dense_weight),
                    (ranks_descending(-shortlist.sparse_ranks.astype(np.float64)), self.config.sparse_weight),
                ],
                self.config.rrf_k,
            )

    def _estimate_relevance(
        self, shortlists: list[_Shortlist], passed: Callable[[], bool]
    ) -> tuple[list[dict[int, float] | None], list[TokenUsage | None], list[int]]:
        """Estimator probabilities for each question's fused top candidates, from one batched call
        that the estimator may stop between slices when time has `passed`; a question not scored
        in full keeps its fused ranking (None) and is listed last (by position)."""
        if self.estimator is None or not shortlists:
            return [None] * len(shortlists), [None] * len(shortlists), []
        pairs: list[tuple[str, str]] = []
        owners: list[tuple[int, int]] = []
        for q, shortlist in enumerate(shortlists):
            assert shortlist.fused is not None  # only scored shortlists are estimated
            for index in np.argsort(-shortlist.fused, kind="stable")[: self.config.rerank_candidates]:
                pairs.append((shortlist.query, shortlist.shown_text(int(index), self.config)))
                owners.append((q, int(index)))
        usages = [TokenUsage() for _ in shortlists]
        probabilities, completions = self.estimator.score(pairs, stop=passed)
        scores: list[dict[int, float]] = [{} for _ in shortlists]
        stopped: set[int] = set()
        for (q, index), probability, completion in zip(owners, probabilities, completions):
            if completion is not None:
                usages[q].add(completion)
            if probability is not None:
                scores[q][index] = probability
            elif completion is None:  # a local estimator stopped before this pair
                stopped.add(q)
        relevance = [None if q in stopped else (s or None) for q, s in enumerate(scores)]
        return relevance, [*usages], sorted(stopped)

    def _select(self, shortlist: _Shortlist, estimated: dict[int, float] | None) -> Evidence:
        if not shortlist.candidates:
            return Evidence(pages=shortlist.pages)
        if estimated:
            order = sorted(estimated, key=lambda i: -estimated[i])
            ranked = [Ranked(shortlist.candidates[i], estimated[i]) for i in order]
            threshold = self.config.min_relevance
        elif shortlist.fused is None:  # no dense scores: the lexical order, every candidate just eligible
            threshold = self.config.min_similarity
            order = [int(i) for i in np.argsort(shortlist.sparse_ranks, kind="stable")]
            ranked = [Ranked(shortlist.candidates[i], threshold) for i in order]
        else:
            assert (
                shortlist.vectors is not None and shortlist.similarity is not None
            )  # scored with the fused ones
            order = diverse_order(shortlist.fused, shortlist.vectors, self.config.mmr_lambda)
            ranked = [Ranked(shortlist.candidates[i], float(shortlist.similarity[i])) for i in order]
            threshold = self.config.min_similarity
        return select_evidence(
            ranked,
            threshold,
            self.config,
            self.tokens,
            shortlist.passages,
            shortlist.wants_list,
            shortlist.pages,
        )


SHORTLIST_SKIPPED = Event("degraded", "shortlist skipped to meet the batch deadline", "no references")
DENSE_STOPPED = Event("degraded", "dense scoring stopped by the batch deadline", "lexical ranking only")
RESCORING_SKIPPED = Event("degraded", "rescoring skipped to meet the batch deadline", "fused ranking")
RESCORING_STOPPED = Event("degraded", "rescoring stopped by the batch deadline", "fused ranking")


def _table_takes_best_row(candidates: list[Candidate], scores: np.ndarray) -> np.ndarray:
    """A whole table scores at least as well as its best row: BM25 penalises long tables, and an
    embedding sees only a table's first rows, so the matching row speaks for the table."""
    table_of = {c.table_group: i for i, c in enumerate(candidates) if c.kind == "table"}
    scores = scores.copy()
    for i, candidate in enumerate(candidates):
        table = table_of.get(candidate.table_group) if candidate.kind == "row" else None
        if table is not None:
            scores[table] = max(scores[table], scores[i])
    return scores


def _item(items: Sequence, index: int) -> Sequence:
    return items[index] if index < len(items) and items[index] is not None else []
