"""Retriever: the evidence stage, batched over all questions of a batch.

hybrid mode, per batch:
  1. pool    every question's candidates (chunks, snippets, verbalized table rows, tables, extra lines)
  2. sparse  BM25 over each pool; its top `dense_candidates` go on (the Task-3 pre-filter)
  3. dense   one encode call for all queries and shortlisted texts (each distinct text once); cosine
  4. fuse    reciprocal rank fusion of the BM25 and dense ranks
  5. rescore optional relevance estimator (cross-encoder, or the LLM's P(yes) in one generate call)
  6. select  minimum relevance, then the token budget (`selection.py`)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from loguru import logger

from models.config import RetrievalConfig
from models.embeddings import SentenceEncoder
from models.llm.base import LLMBackend, TokenUsage
from models.prompts import PromptLibrary
from models.retrieval.baseline import baseline_evidence
from models.retrieval.candidates import Candidate, PageContent, build_pool
from models.retrieval.ranking import embed_distinct, ranks_descending, reciprocal_rank_fusion
from models.retrieval.relevance import create_estimator
from models.retrieval.selection import Ranked, select_evidence
from models.retrieval.sparse import bm25_scores
from models.retrieval.tokens import TokenCounter
from models.schema import Evidence, Question


@dataclass
class _Shortlist:
    """One question's BM25 shortlist, then its dense and fused scores."""

    query: str
    candidates: list[Candidate] = field(default_factory=list)
    sparse_ranks: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    similarity: np.ndarray | None = None
    fused: np.ndarray | None = None
    failed: bool = False


class Retriever:
    def __init__(
        self,
        config: RetrievalConfig,
        encoder: SentenceEncoder,
        llm: LLMBackend | None = None,
        prompts: PromptLibrary | None = None,
    ):
        self.config = config
        self.encoder = encoder
        self.tokens = TokenCounter(llm, config.tokens_per_piece)
        self.estimator = create_estimator(config, llm, prompts) if config.mode == "hybrid" else None

    def run(
        self,
        questions: list[Question],
        pages: Sequence[Sequence[PageContent]],
        extra_references: Sequence[Sequence[str]] | None = None,
    ) -> list[Evidence]:
        """One Evidence per question. `extra_references` (e.g. KG lines) compete in the same pool."""
        if not questions:
            return []
        started = time.perf_counter()
        if self.config.mode == "baseline":
            evidence = self._baseline(questions)
        else:
            evidence = self._hybrid(questions, pages, extra_references or [])
        elapsed = time.perf_counter() - started
        logger.debug(f"retrieval ({self.config.mode}): {len(questions)} questions in {elapsed:.2f}s")
        return evidence

    def _baseline(self, questions: list[Question]) -> list[Evidence]:
        try:
            return baseline_evidence(questions, self.encoder, self.config)
        except Exception as error:
            logger.exception(f"baseline retrieval failed for the batch: {error}")
            return [Evidence() for _ in questions]

    def _hybrid(
        self,
        questions: list[Question],
        pages: Sequence[Sequence[PageContent]],
        extra: Sequence[Sequence[str]],
    ) -> list[Evidence]:
        shortlists = [
            self._shortlist(question, _item(pages, i), _item(extra, i))
            for i, question in enumerate(questions)
        ]
        dense_ok = self._score_dense(shortlists)
        relevance, usages = (
            self._estimate_relevance(shortlists) if dense_ok else ([None] * len(shortlists), None)
        )
        evidence = []
        for i, shortlist in enumerate(shortlists):
            try:
                result = self._select(shortlist, relevance[i], dense_ok)
            except Exception as error:
                logger.exception(f"retrieval failed for question {questions[i].interaction_id}: {error}")
                result = Evidence()
            if usages is not None:
                result.usage = usages[i]
            evidence.append(result)
        return evidence

    def _shortlist(
        self, question: Question, pages: Sequence[PageContent], extra: Sequence[str]
    ) -> _Shortlist:
        try:
            pool = build_pool(question, pages, extra, self.config)
            sparse = _table_takes_best_row(
                pool, bm25_scores(question.query, [c.text for c in pool], self.config)
            )
            ranks = ranks_descending(sparse)
            limit = self.config.dense_candidates or len(pool)
            keep = np.sort(np.argsort(ranks, kind="stable")[:limit])
            return _Shortlist(question.query, [pool[i] for i in keep], ranks[keep])
        except Exception as error:
            logger.exception(f"candidate pool failed for question {question.interaction_id}: {error}")
            return _Shortlist(question.query, failed=True)

    def _score_dense(self, shortlists: list[_Shortlist]) -> bool:
        """Cosine and fused scores for every shortlist, from one encode call; False when it failed."""
        cap = self.config.dense_text_max_chars
        texts = [s.query for s in shortlists] + [c.text[:cap] for s in shortlists for c in s.candidates]
        try:
            vectors = embed_distinct(self.encoder, texts)
        except Exception as error:
            logger.exception(f"dense scoring failed, ranking by BM25 alone: {error}")
            return False
        start = len(shortlists)
        for query_vector, shortlist in zip(vectors, shortlists):
            candidate_vectors = vectors[start : start + len(shortlist.candidates)]
            start += len(shortlist.candidates)
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
        return True

    def _estimate_relevance(
        self, shortlists: list[_Shortlist]
    ) -> tuple[list[dict[int, float] | None], list[TokenUsage] | None]:
        """Estimator probabilities for each question's fused top candidates, from one batched call."""
        if self.estimator is None:
            return [None] * len(shortlists), None
        pairs: list[tuple[str, str]] = []
        owners: list[tuple[int, int]] = []
        for q, shortlist in enumerate(shortlists):
            if shortlist.fused is None:
                continue
            for index in np.argsort(-shortlist.fused, kind="stable")[: self.config.rerank_candidates]:
                pairs.append((shortlist.query, shortlist.candidates[index].text))
                owners.append((q, int(index)))
        usages = [TokenUsage() for _ in shortlists]
        try:
            probabilities, completions = self.estimator.score(pairs)
        except Exception as error:
            logger.exception(f"relevance estimation failed, keeping the fused ranking: {error}")
            return [None] * len(shortlists), usages
        scores: list[dict[int, float]] = [{} for _ in shortlists]
        for (q, index), probability, completion in zip(owners, probabilities, completions):
            if completion is not None:
                usages[q].add(completion)
            if probability is not None:
                scores[q][index] = probability
        return [s or None for s in scores], usages

    def _select(self, shortlist: _Shortlist, estimated: dict[int, float] | None, dense_ok: bool) -> Evidence:
        if shortlist.failed or not shortlist.candidates:
            return Evidence()
        if not dense_ok:
            order = np.argsort(shortlist.sparse_ranks, kind="stable")
            ranked = [Ranked(shortlist.candidates[i], 0.0) for i in order]
            evidence = select_evidence(ranked, 0.0, self.config, self.tokens)
            evidence.top_relevance = None
            return evidence
        if estimated:
            order = sorted(estimated, key=lambda i: -estimated[i])
            ranked = [Ranked(shortlist.candidates[i], estimated[i]) for i in order]
            return select_evidence(ranked, self.config.min_relevance, self.config, self.tokens)
        order = np.argsort(-shortlist.fused, kind="stable")
        ranked = [Ranked(shortlist.candidates[i], float(shortlist.similarity[i])) for i in order]
        return select_evidence(ranked, self.config.min_similarity, self.config, self.tokens)


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
