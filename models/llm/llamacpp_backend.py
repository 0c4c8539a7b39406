"""LLM backend on llama-cpp-python: the embedded default, running a GGUF on the CPU.

Conversations run one after another on one llama.cpp context. llama.cpp keeps the KV cache of the
previous prompt and re-evaluates only what differs, so the n samples of one conversation (and a
system prompt shared by consecutive conversations) cost their prompt once.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from typing import Any

import llama_cpp
import numpy as np
from llama_cpp import Llama, LlamaGrammar, LlamaRAMCache, LogitsProcessorList
from llama_cpp.llama_grammar import LLAMA_GRAMMAR_DEFAULT_ROOT, json_schema_to_gbnf
from loguru import logger

from models.config import LLMConfig
from models.llm.base import Completion, Conversation, GenerationParams, LLMBackend
from models.llm.embedded import embedded_model_path


class LlamaCppBackend(LLMBackend):
    name = "llamacpp"

    def __init__(self, config: LLMConfig):
        self.config = config
        self.load_seconds = 0.0
        self._loaded: Llama | None = None
        self._grammars: dict[str, LlamaGrammar] = {}  # GBNF text -> checked grammar

    def warm_up(self, json_schemas: Sequence[dict[str, Any]]) -> None:
        """Load the model and check and compile the grammar of every schema the stages send."""
        self._model()
        for schema in json_schemas:
            self._grammar(GenerationParams(json_schema=schema))

    def generate(self, conversations: Sequence[Conversation], params: GenerationParams) -> list[Completion]:
        try:
            grammar = self._grammar(params)
        except ValueError as error:  # an invalid schema fails every conversation alike, not the caller
            message = f"invalid output constraint: {error}"
            logger.warning(message)
            return [Completion(texts=[], error=message) for _ in conversations]
        return [self._complete(conversation, params, grammar) for conversation in conversations]

    def count_tokens(self, text: str) -> int:
        return len(self._model().tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def close(self) -> None:
        if self._loaded is not None:
            self._loaded.close()
            self._loaded = None

    def _model(self) -> Llama:
        if self._loaded is None:
            config = self.config
            model_path = config.model_path or str(embedded_model_path(config.cache_dir, config))
            threads = config.threads or os.cpu_count() or 1
            started = time.perf_counter()
            self._loaded = Llama(
                model_path=model_path,
                n_ctx=config.context_tokens,
                n_batch=config.batch_tokens,
                n_threads=threads,
                n_threads_batch=threads,
                verbose=False,
            )
            if config.prompt_cache_bytes > 0:
                self._loaded.set_cache(LlamaRAMCache(capacity_bytes=config.prompt_cache_bytes))
            self.load_seconds = time.perf_counter() - started
            logger.info(
                f"Loaded {os.path.basename(model_path)} in {self.load_seconds:.1f}s "
                f"({threads} threads, context {config.context_tokens} tokens)"
            )
        return self._loaded

    def _grammar(self, params: GenerationParams) -> LlamaGrammar | None:
        if params.json_schema is not None:
            try:
                text = json_schema_to_gbnf(json.dumps(params.json_schema))
            except Exception as error:  # the converter raises bare exceptions of many kinds
                reason = f"{type(error).__name__}: {error}"
                raise ValueError(f"cannot convert the JSON schema to a grammar: {reason}") from error
        elif params.grammar is not None:
            text = params.grammar
        else:
            return None
        if text not in self._grammars:
            # llama-cpp-python crashes on a grammar llama.cpp cannot parse, so parse it here first.
            vocab = llama_cpp.llama_model_get_vocab(self._model().model)
            sampler = llama_cpp.llama_sampler_init_grammar(
                vocab, text.encode("utf-8"), LLAMA_GRAMMAR_DEFAULT_ROOT.encode("utf-8")
            )
            if not sampler:
                raise ValueError(f"llama.cpp cannot parse the GBNF grammar:\n{text[:500]}")
            llama_cpp.llama_sampler_free(sampler)
            self._grammars[text] = LlamaGrammar.from_string(text, verbose=False)
        return self._grammars[text]

    def _complete(
        self, conversation: Conversation, params: GenerationParams, grammar: LlamaGrammar | None
    ) -> Completion:
        # Greedy decoding gives the same text every time: sample once and repeat it.
        distinct_samples = params.n if params.temperature > 0 else 1
        texts: list[str] = []
        completion = Completion(texts=texts)
        try:
            for index in range(distinct_samples):
                capture = _FirstTokenCapture() if params.first_token_logprobs and index == 0 else None
                response = self._model().create_chat_completion(
                    messages=conversation,
                    temperature=params.temperature,
                    top_p=params.top_p,
                    # OpenAI semantics: only temperature and top_p shape the distribution.
                    top_k=0,
                    min_p=0.0,
                    max_tokens=params.max_tokens,
                    stop=list(params.stop),
                    seed=None if params.seed is None else params.seed + index,
                    grammar=grammar,
                    logits_processor=LogitsProcessorList([capture]) if capture else None,
                )
                texts.append(response["choices"][0]["message"]["content"] or "")
                completion.prompt_tokens = response["usage"]["prompt_tokens"]
                completion.completion_tokens += response["usage"]["completion_tokens"]
                if capture is not None and capture.logits is not None:
                    completion.first_token_logprobs = self._top_logprobs(
                        capture.logits, params.first_token_logprobs
                    )
        except Exception as error:  # one conversation's failure (e.g. too long) never fails the batch
            message = f"{type(error).__name__}: {error}"
            if "exceed context window" in str(error):
                message = f"prompt too long for the {self.config.context_tokens}-token context: {error}"
            logger.warning(f"llama.cpp generation failed: {message}")
            return Completion(texts=[], prompt_tokens=completion.prompt_tokens, error=message)
        completion.texts = texts * (params.n // len(texts))
        return completion

    def _top_logprobs(self, logits: np.ndarray, k: int) -> dict[str, float]:
        shifted = logits - logits.max()
        logprobs = shifted - np.log(np.exp(shifted).sum())
        top_ids = np.argpartition(-logprobs, k)[:k]
        result: dict[str, float] = {}
        for token_id in sorted(top_ids, key=lambda i: -logprobs[i]):
            token = self._model().detokenize([int(token_id)]).decode("utf-8", errors="replace")
            result.setdefault(token, float(logprobs[token_id]))
        return result


class _FirstTokenCapture:
    """A logits processor that keeps a copy of the raw logits of the first generated token."""

    def __init__(self) -> None:
        self.logits: np.ndarray | None = None

    def __call__(self, input_ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        if self.logits is None:
            self.logits = np.array(scores, dtype=np.float32, copy=True)
        return scores
