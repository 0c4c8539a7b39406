"""LLM backend on llama-cpp-python: the embedded default, running a GGUF on the CPU.

Conversations run one after another on one llama.cpp context. A reply must not depend on what ran
before it, and llama.cpp's arithmetic depends on how a prompt is split into evaluation chunks: so
every prompt is evaluated in the same chunks, whatever the context held before. The chunks: the
tokens of the conversation's system message (its fixed prefix) in chunks of `llm.batch_tokens`,
then the rest in chunks of `llm.batch_tokens` from the end of that prefix. A prompt reuses what
the context holds, or the saved KV state of its fixed prefix (`llm.prefix_states` of them, each
saved the first time its prefix is evaluated), only up to one of its own chunk boundaries; the
result is bit for bit the one from an empty context (tests/test_llm_llamacpp.py). A long prefix
shared by consecutive conversations also skips its whole chunks. The second and later of a
conversation's n samples keep its whole prompt from the first and evaluate only its last token again:
their first logits differ from the first sample's in the last bits, which sampling tolerates, and they
always follow the same first sample, so they do not depend on what ran before either.

Replies are streamed, so the backend stops between tokens when the time left is shorter than the
longest recent token times `llm.step_safety_factor`; a prompt evaluation cannot be interrupted, so
a conversation whose prompt would not be read in time (with the same factor) is not started. A
logits processor times the prompt (the first token) and every later token.
"""

from __future__ import annotations

import bisect
import ctypes
import itertools
import json
import os
import statistics
import time
from collections import OrderedDict, deque
from collections.abc import Sequence
from typing import Any

import llama_cpp
import numpy as np
from llama_cpp import Llama, LlamaGrammar, LogitsProcessorList
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
        """The GGUF's sha256, the engine's version and the chunks (which change the arithmetic; the
        thread count does not). Later samples keep the first's prompt: replies cached before they did
        were sampled from other logits."""
        config = self.config
        digest = (
            file_sha256(config.model_path, config.cache_dir) if config.model_path else config.embedded_sha256
        )
        chunks = f"evaluation chunks of {config.batch_tokens} tokens"
        if config.prefix_states > 0:
            chunks += ", the system message's apart"
        chunks += ", later samples from the first's prompt"
        return f"llama.cpp {llama_cpp.__version__}, GGUF sha256 {digest}, {chunks}"

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
                prefix_states=config.prefix_states,
            )
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
                model.fixed_prefix = _fixed_prefix(conversation)
                model.another_sample = index > 0
                meter = _TokenMeter(
                    self.clock, keep_first_logits=bool(params.first_token_logprobs) and index == 0
                )
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
                if meter.prompt_seconds is not None:
                    completion.reused_prompt_tokens += model.reused_tokens
                    completion.evaluated_prompt_tokens += meter.prompt_tokens - model.reused_tokens
                    completion.prompt_seconds += meter.prompt_seconds
                    completion.decode_seconds += sum(meter.token_seconds)
                self._observe(meter, prompt_read=index == 0)
                if meter.first_logits is not None and params.first_token_logprobs:
                    completion.first_token_logprobs = self._top_logprobs(
                        meter.first_logits, params.first_token_logprobs
                    )
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


def _fixed_prefix(conversation: Conversation) -> str | None:
    """The text of a conversation that does not change from one question to the next: its system
    message (the templates put every fixed instruction there)."""
    first = conversation[0] if conversation else None
    return (
        first["content"] if first is not None and first.get("role") == "system" and first["content"] else None
    )


class ChunkAlignedLlama(Llama):
    """llama-cpp-python's model, evaluating every prompt in the same chunks: its fixed prefix (the
    tokens through the end of `fixed_prefix`, set before each call) in chunks of `n_batch`, then the
    rest in chunks of `n_batch`. It reuses the KV cache, or a saved state of the fixed prefix, only up
    to one of these chunk boundaries (and never the prompt's last token), so the arithmetic is the
    same as from an empty cache; but a further sample of the prompt just sampled (`another_sample`)
    keeps all of it but the last token."""

    def __init__(self, *args: Any, prefix_states: int = 0, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fixed_prefix: str | None = None
        self.another_sample = False  # the next prompt was just sampled: keep all of it but its last token
        self.reused_tokens = 0  # the last prompt's tokens taken from the cache or a saved state
        self._prefix_states = prefix_states
        self._states: OrderedDict[tuple[int, ...], bytes] = OrderedDict()  # fixed prefix -> KV state
        self._pieces: dict[int, bytes] = {}  # token -> its text
        self._boundary: int | None = None  # the current prompt's fixed prefix, in tokens

    def generate(self, tokens: Sequence[int], *args: Any, **kwargs: Any) -> Any:
        tokens = list(tokens)
        boundary = self._fixed_boundary(tokens)
        shared = 0
        for cached, new in zip(self._input_ids, tokens):
            if cached != new:
                break
            shared += 1
        if self.another_sample and shared >= len(tokens) - 1:
            reuse = len(tokens) - 1
        else:
            reuse = self._chunk_start(min(shared, len(tokens) - 1), boundary)
        if boundary is not None and reuse < boundary:
            state = self._states.get(tuple(tokens[:boundary]))
            if state is not None:
                restored = self._restore(tokens[:boundary], state)
                self._states.move_to_end(tuple(tokens[:boundary]))
                reuse = boundary if restored else 0
        self._boundary = boundary
        self.n_tokens = max(0, reuse)
        self.reused_tokens = self.n_tokens
        return super().generate(tokens, *args, **kwargs)

    def eval(self, tokens: Sequence[int]) -> None:
        boundary = self._boundary
        if boundary is not None and self.n_tokens < boundary < self.n_tokens + len(tokens):
            head = boundary - self.n_tokens
            super().eval(tokens[:head])
            self._save(boundary)
            tokens = tokens[head:]
        super().eval(tokens)

    def sample(self, *args: Any, **kwargs: Any) -> int:
        """Greedy decoding under a grammar picks the most likely token the grammar allows. The sampler
        chain checks the grammar against the whole vocabulary for every token; this checks the most
        likely token first and the whole vocabulary only when the grammar refuses it: the same token."""
        chain = self._sampler
        default_penalties = all(
            kwargs.get(key, 0.0) == 0.0 for key in ("frequency_penalty", "presence_penalty")
        )
        if (
            kwargs.get("temp") != 0.0
            or kwargs.get("grammar") is None
            or chain is None
            or kwargs.get("repeat_penalty", 1.0) != 1.0
            or not default_penalties
            or kwargs.get("idx") is None
        ):
            return int(super().sample(*args, **kwargs))
        row = kwargs["idx"] - self.n_tokens
        logits = np.ctypeslib.as_array(
            llama_cpp.llama_get_logits_ith(self._ctx.ctx, row), shape=(self._n_vocab,)
        )
        for processor in kwargs.get("logits_processor") or []:
            logits = processor(self._input_ids, logits)
        # the chain: [the logits processors], penalties, grammar, greedy
        grammar = llama_cpp.llama_sampler_chain_get(
            chain.sampler, llama_cpp.llama_sampler_chain_n(chain.sampler) - 2
        )
        token = int(np.argmax(logits))
        if not _allowed(grammar, np.array([token], dtype=np.intc), logits)[0]:
            allowed = _allowed(grammar, np.arange(self._n_vocab, dtype=np.intc), logits)
            token = int(np.argmax(np.where(allowed, logits, -np.inf)))
        llama_cpp.llama_sampler_accept(chain.sampler, token)
        return token

    def _chunk_start(self, limit: int, boundary: int | None) -> int:
        """The last chunk boundary of the prompt at or before token `limit`."""
        if boundary is None or limit < boundary:
            return limit // self.n_batch * self.n_batch
        return boundary + (limit - boundary) // self.n_batch * self.n_batch

    def _fixed_boundary(self, tokens: list[int]) -> int | None:
        """How many tokens cover the prompt through the end of `fixed_prefix` (None: not found, or the
        whole prompt)."""
        if not self.fixed_prefix or self._prefix_states <= 0:
            return None
        pieces = []
        for token in tokens:
            if token not in self._pieces:
                self._pieces[token] = self.detokenize([token], special=True)
            pieces.append(self._pieces[token])
        ends = list(itertools.accumulate(len(piece) for piece in pieces))
        prefix = self.fixed_prefix.encode("utf-8")
        start = b"".join(pieces).find(prefix)
        if start < 0:
            return None
        boundary = bisect.bisect_left(ends, start + len(prefix)) + 1
        return boundary if boundary < len(tokens) else None

    def _save(self, boundary: int) -> None:
        key = tuple(int(token) for token in self.input_ids[:boundary])
        if key in self._states:
            return
        size = llama_cpp.llama_state_seq_get_size(self._ctx.ctx, 0)
        buffer = (ctypes.c_uint8 * size)()
        written = llama_cpp.llama_state_seq_get_data(self._ctx.ctx, buffer, size, 0)
        self._states[key] = bytes(buffer[:written])
        while len(self._states) > self._prefix_states:
            self._states.popitem(last=False)

    def _restore(self, prefix: list[int], state: bytes) -> bool:
        """Load a fixed prefix's KV state into an emptied cache; False (and an empty cache) if it fails."""
        llama_cpp.llama_memory_clear(llama_cpp.llama_get_memory(self._ctx.ctx), True)
        self.n_tokens = 0
        buffer = (ctypes.c_uint8 * len(state)).from_buffer_copy(state)
        if llama_cpp.llama_state_seq_set_data(self._ctx.ctx, buffer, len(state), 0) != len(state):
            llama_cpp.llama_memory_clear(llama_cpp.llama_get_memory(self._ctx.ctx), True)
            return False
        self.input_ids[: len(prefix)] = prefix
        self.n_tokens = len(prefix)
        return True


_TOKEN_DATA = np.dtype([("id", np.intc), ("logit", np.single), ("p", np.single)], align=True)


def _allowed(grammar: Any, tokens: np.ndarray, logits: np.ndarray) -> np.ndarray:
    """Which of `tokens` the grammar sampler allows next (it sets the others' logits to -inf)."""
    data = np.zeros(len(tokens), dtype=_TOKEN_DATA)
    data["id"] = tokens
    data["logit"] = logits[tokens]
    candidates = llama_cpp.llama_token_data_array(
        data=data.ctypes.data_as(ctypes.POINTER(llama_cpp.llama_token_data)),
        size=len(tokens),
        selected=-1,
        sorted=False,
    )
    llama_cpp.llama_sampler_apply(grammar, ctypes.byref(candidates))
    return np.isfinite(data["logit"])


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
