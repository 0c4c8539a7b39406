"""Relevance estimators that rescore (question, passage) pairs with a probability of relevance.

Two kinds (RE-RAG / QUASAR): a cross-encoder, or the system's LLM asked "does this passage help?"
and read through the probability of its first token being "yes" rather than "no".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Callable, Protocol

from loguru import logger

from models.config import RetrievalConfig
from models.embeddings import WARM_UP_PASSAGE, WARM_UP_QUERY
from models.llm.base import Completion, GenerationParams, LLMBackend
from models.prompts import PromptLibrary

RELEVANCE_PROMPT = "retrieval_relevance"


class RelevanceEstimator(Protocol):
    def score(
        self, pairs: Sequence[tuple[str, str]], stop: Callable[[], bool] | None = None
    ) -> tuple[list[float | None], list[Completion | None]]:
        """P(relevant) per (query, passage) pair (None when unknown) and the LLM completion behind it
        (None for a local model). A local model checks `stop` between slices of pairs and leaves
        the pairs after it unscored; the LLM's own time limit bounds an LLM estimator."""


class LLMRelevanceEstimator:
    def __init__(self, config: RetrievalConfig, llm: LLMBackend, prompts: PromptLibrary):
        self.config = config
        self.llm = llm
        self.prompts = prompts

    def score(
        self, pairs: Sequence[tuple[str, str]], stop: Callable[[], bool] | None = None
    ) -> tuple[list[float | None], list[Completion | None]]:
        if not pairs:
            return [], []
        conversations = [
            self.prompts.conversation(
                RELEVANCE_PROMPT, query=query, passage=passage[: self.config.rerank_passage_max_chars]
            )
            for query, passage in pairs
        ]
        params = GenerationParams(
            max_tokens=1, temperature=0.0, first_token_logprobs=self.config.relevance_logprobs
        )
        completions = self.llm.generate(conversations, params)
        return [yes_probability(completion) for completion in completions], list(completions)


def yes_probability(completion: Completion) -> float | None:
    """P("yes") / (P("yes") + P("no")) over first-token alternatives; the reply itself when no logprobs."""
    if completion.error:
        return None
    masses = {"yes": 0.0, "no": 0.0}
    for token, logprob in (completion.first_token_logprobs or {}).items():
        word = token.strip().lower()
        if word in masses:
            masses[word] += math.exp(logprob)
    total = masses["yes"] + masses["no"]
    if total > 0:
        return masses["yes"] / total
    reply = completion.text.strip().lower()
    if reply.startswith("yes"):
        return 1.0
    if reply.startswith("no"):
        return 0.0
    return None


class CrossEncoderRelevance:
    """A local sentence-transformers cross-encoder (e.g. bge-reranker-v2-m3), sigmoid of its logit."""

    def __init__(self, config: RetrievalConfig):
        if not config.cross_encoder_model:
            raise ValueError(
                "retrieval.relevance_estimator='cross_encoder' needs retrieval.cross_encoder_model"
            )
        self.config = config
        self.model: Any = None

    def warm_up(self) -> None:
        """Load the model and run its first call (once; building the retriever loads nothing)."""
        if self.model is not None:
            return
        import torch
        from sentence_transformers import CrossEncoder

        config = self.config
        logger.info(
            f"Loading cross-encoder from {config.cross_encoder_model} "
            f"on {config.cross_encoder_device} ({config.cross_encoder_dtype})"
        )
        self.model = CrossEncoder(
            config.cross_encoder_model,
            device=config.cross_encoder_device,
            max_length=config.cross_encoder_max_length,
            local_files_only=True,
            model_kwargs={"torch_dtype": getattr(torch, config.cross_encoder_dtype)},
        )
        self.activation = torch.nn.Sigmoid()
        self.score([(WARM_UP_QUERY, WARM_UP_PASSAGE)])

    def score(
        self, pairs: Sequence[tuple[str, str]], stop: Callable[[], bool] | None = None
    ) -> tuple[list[float | None], list[Completion | None]]:
        """In slices of `embedding_batch_size` pairs, checking `stop` before each."""
        if not pairs:
            return [], []
        self.warm_up()
        inputs = [(query, passage[: self.config.rerank_passage_max_chars]) for query, passage in pairs]
        size = self.config.embedding_batch_size
        probabilities: list[float | None] = []
        for start in range(0, len(inputs), size):
            if stop is not None and stop():
                break
            scores = self.model.predict(
                inputs[start : start + size],
                batch_size=size,
                activation_fn=self.activation,
                show_progress_bar=False,
            )
            probabilities += [float(p) for p in scores]
        return probabilities + [None] * (len(inputs) - len(probabilities)), [None] * len(pairs)


def create_estimator(
    config: RetrievalConfig, llm: LLMBackend | None, prompts: PromptLibrary | None
) -> RelevanceEstimator | None:
    if config.relevance_estimator == "none":
        return None
    if config.relevance_estimator == "cross_encoder":
        return CrossEncoderRelevance(config)
    if config.relevance_estimator == "llm":
        if llm is None:
            logger.warning(
                "retrieval.relevance_estimator='llm' but no LLM was given: relevance estimation is off"
            )
            return None
        return LLMRelevanceEstimator(config, llm, prompts or PromptLibrary())
    raise ValueError(f"Unknown retrieval.relevance_estimator {config.relevance_estimator!r}")
