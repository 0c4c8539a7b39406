"""LLM backend on llama-cpp-python: the embedded default, running a GGUF on the CPU.

Conversations run one after another on one llama.cpp context, which keeps the KV cache of the
previous prompt. A reply must not depend on what ran before it, and llama.cpp's arithmetic depends
on how a prompt is split into evaluation chunks of `llm.batch_tokens`: reusing the cached prefix up
to wherever the prompts differ starts the chunks there, and shifts the logits (by up to 0.5 on
this model). So a prompt reuses the cache only up to a chunk boundary, and its chunks fall where they
would from scratch: the result is bit for bit the same. The n samples of a conversation, and a
long prefix shared by consecutive conversations, still skip their whole chunks.

Replies are streamed, so the backend stops between tokens when the time left is shorter than the
longest recent token times `llm.step_safety_factor`; a prompt evaluation cannot be interrupted, so
a conversation whose prompt would not be read in time (with the same factor) is not started. A logits processor times the prompt (the first token)
and every later token.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

import llama_cpp
import numpy as np
from llama_cpp import Llama, LlamaGrammar, LlamaRAMCache, LogitsProcessorList
from llama_cpp.llama_grammar import LLAMA_GRAMMAR_DEFAULT_ROOT, json_schema_to_gbnf
from loguru import logger

from models.config import LLMConfig
from models.llm.base import Completion, Conversation, GenerationParams, LLMBackend, cut_by_limit
from models.llm.embedded import embedded_model_path, file_sha256


class LlamaCppBackend(LLMBackend):
    name = "llamacpp"

    def __init__(self, config: LLMConfig):
        self.config = config
        self.load_seconds = 0.0
        self._loaded: Llama | None = None
        self._grammars: dict[str, LlamaGrammar] = {}  # GBNF text -> checked grammar
        # Seconds per prompt token of the last few prompts read (the first of a process is cold).
        self._prompt_speeds: deque[float] = deque(maxlen=5)

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

    def model_identity(self) -> str:
        """The GGUF's sha256, the engine's version and the chunk size (which changes the arithmetic;
        the thread count does not)."""
        config = self.config
        digest = file_sha256(config.model_path, config.cache_dir) if config.model_path else config.embedded_sha256
        return f"llama.cpp {llama_cpp.__version__}, GGUF sha256 {digest}, evaluation chunks of {config.batch_tokens} tokens"

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
            self._loaded = ChunkAlignedLlama(
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
                if index == 0 and not self._prompt_fits(conversation):
                    completion.cut = True
                    break
                model = self._model()
                meter = _TokenMeter(self.clock, keep_first_logits=bool(params.first_token_logprobs) and index == 0)
                stream = model.create_chat_completion(
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
                    logits_processor=LogitsProcessorList([meter]),
                    stream=True,
                )
                parts = []
                for chunk in stream:
                    parts.append(chunk["choices"][0]["delta"].get("content") or "")
                    if self.seconds_left() < self.config.step_safety_factor * meter.longest_recent_token():
                        completion.cut = True
                        break
                stream.close()
                texts.append("".join(parts))
                completion.prompt_tokens = meter.prompt_tokens
                completion.completion_tokens += meter.tokens
                self._observe(meter, prompt_read=index == 0)
                if meter.first_logits is not None and params.first_token_logprobs:
                    completion.first_token_logprobs = self._top_logprobs(meter.first_logits, params.first_token_logprobs)
                if completion.cut:
                    break
        except Exception as error:  # one conversation's failure (e.g. too long) never fails the batch
            message = f"{type(error).__name__}: {error}"
            if "exceed context window" in str(error):
                message = f"prompt too long for the {self.config.context_tokens}-token context: {error}"
            logger.warning(f"llama.cpp generation failed: {message}")
            return Completion(texts=[], prompt_tokens=completion.prompt_tokens, error=message)
        if completion.cut:
            completion.error = cut_by_limit(completion.completion_tokens)
        else:
            completion.texts = texts * (params.n // len(texts))
        return completion

    def _prompt_fits(self, conversation: Conversation) -> bool:
        """Whether the conversation's prompt would be read before the time limit (at the last
        measured speed; llama.cpp cannot stop in the middle of a prompt)."""
        left = self.seconds_left()
        if left == float("inf"):
            return True
        tokens = self.conversation_tokens(conversation)
        per_token = statistics.median(self._prompt_speeds) if self._prompt_speeds else 0.0
        return left > self.config.step_safety_factor * tokens * per_token

    def _observe(self, meter: "_TokenMeter", prompt_read: bool) -> None:
        if prompt_read and meter.prompt_tokens and meter.prompt_seconds is not None:
            self._prompt_speeds.append(meter.prompt_seconds / meter.prompt_tokens)
            self.observe_step(meter.prompt_tokens, 0, meter.prompt_seconds)
        for seconds in meter.token_seconds:
            self.observe_step(0, 1, seconds)

    def _top_logprobs(self, logits: np.ndarray, k: int) -> dict[str, float]:
        shifted = logits - logits.max()
        logprobs = shifted - np.log(np.exp(shifted).sum())
        top_ids = np.argpartition(-logprobs, k)[:k]
        result: dict[str, float] = {}
        for token_id in sorted(top_ids, key=lambda i: -logprobs[i]):
            token = self._model().detokenize([int(token_id)]).decode("utf-8", errors="replace")
            result.setdefault(token, float(logprobs[token_id]))
        return result


class ChunkAlignedLlama(Llama):
    """llama-cpp-python's model, reusing its KV cache only up to the last whole evaluation chunk that
    the new prompt shares with what the cache holds (and never the prompt's last token), so that the
    prompt is evaluated in the same chunks as from an empty cache."""

    def generate(self, tokens: Sequence[int], *args: Any, **kwargs: Any) -> Any:
        tokens = list(tokens)
        shared = 0
        for cached, new in zip(self._input_ids, tokens):
            if cached != new:
                break
            shared += 1
        self.n_tokens = max(0, min(shared, len(tokens) - 1)) // self.n_batch * self.n_batch
        return super().generate(tokens, *args, **kwargs)


RECENT_TOKENS = 20


class _TokenMeter:
    """A logits processor that times the generation: it is called once per generated token, the
    first time right after the prompt was read. Optionally keeps the first token's raw logits."""

    def __init__(self, clock: Any, keep_first_logits: bool):
        self._clock = clock
        self._last = clock()
        self._keep_first_logits = keep_first_logits
        self.prompt_tokens = 0
        self.prompt_seconds: float | None = None
        self.token_seconds: list[float] = []
        self.first_logits: np.ndarray | None = None

    def longest_recent_token(self) -> float:
        """The longest of the last few tokens: the next one may take as long."""
        return max(self.token_seconds[-RECENT_TOKENS:], default=0.0)

    @property
    def tokens(self) -> int:
        return len(self.token_seconds) + (self.prompt_seconds is not None)

    def __call__(self, input_ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        now = self._clock()
        if self.prompt_seconds is None:
            self.prompt_tokens = len(input_ids)
            self.prompt_seconds = now - self._last
            if self._keep_first_logits:
                self.first_logits = np.array(scores, dtype=np.float32, copy=True)
        else:
            self.token_seconds.append(now - self._last)
        self._last = now
        return scores
