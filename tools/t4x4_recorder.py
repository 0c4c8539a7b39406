"""The recorder behind `tools.check_t4x4`: vLLM's V0 engine with only the model executor replaced.

Import this module only after `tools.t4x4_platform.install_fake_t4x4()`. `RecorderSession.installed()`
makes every `vllm.LLM` built inside it run the real engine (scheduler, block manager, chunked
prefill, prefix caching, guided-decoding logits processors, stop checks, detokenizer, aborts) on a
`RecorderExecutor`. Instead of running the model, the executor picks each sequence's next token by
applying the request's own logits processors to scores that favour a scripted reply
(`t4x4_replies.scripted_reply`) and then <|eot_id|>, so whatever the grammar forbids is never
produced. It records every finished request and each guided-decoding grammar's build and
first-mask time.

Replies: each guided sequence's scripted reply is drawn, by the schema it follows, from the reply
lengths the end-to-end benchmark measured (`use_reply_lengths`; the free-text fields filled to that
many tokens, within the schema's caps; a draw beyond the request's max_tokens runs into it).

Time: each step the executor runs is charged what it would take on 4x T4 under the session's
profile (`ThroughputModelConfig.step_seconds` of the rows the real scheduler put in the step: prompt
tokens not served by the prefix cache and the tokens each attends to, one row per decoding sequence
and its context's KV cache, one token mask per guided sequence and the matcher of each one on its
first token). The retrieval models are charged too: each batch of the sentence encoder by its
tokens, each cross-encoder slice by its pairs (the CPU stand-ins' own time does not count).
`RecorderSession.clock` is the time a system on that machine would see: wall time outside the
executor and the retrieval models plus their simulated time. The KV cache is sized the way vLLM's
worker sizes it: the share of a T4's memory the preset gives vLLM, less the weights of Llama-3-70B
GPTQ on one of four GPUs, the activations of a profiling step and NCCL's buffers.

Not a script: tools/check_t4x4.py imports it.
"""

from __future__ import annotations

import inspect
import json
import random
import statistics
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import numpy as np
import torch
import vllm.engine.llm_engine as llm_engine_module
from vllm.engine.llm_engine import LLMEngine
from vllm.executor.executor_base import ExecutorBase
from vllm.model_executor.guided_decoding import get_local_guided_decoding_logits_processor
from vllm.model_executor.layers.sampler import SamplerOutput
from vllm.platforms import current_platform
from vllm.sampling_params import GuidedDecodingParams
from vllm.sequence import CompletionSequenceGroupOutput, Logprob, SequenceOutput

from models.config import ThroughputModelConfig
from models.embeddings import SentenceEncoder
from tools.t4x4_replies import EOT_ID, FILLER_WORDS, schema_key, scripted_reply
from tools.t4x4_platform import T4_TOTAL_MEMORY_BYTES

FAVOURED_SCORE = 10.0
GIB = 1024**3
# What vLLM's profiling run adds beside the weights, per GPU (estimates): NCCL's buffers for tensor
# parallelism, and the activations of one step of `max_num_batched_tokens` tokens: ~10 hidden-size
# fp16 vectors and the fp16 MLP intermediate (its 1/4 share) per token, exllama's fp16 buffer for the
# largest dequantized matrix (gate and up projections), and the fp32 logits of up to 256 sequences.
NCCL_BYTES = int(0.3 * GIB)
PARALLEL_SAMPLE = "_parallel_sample_"
HIDDEN_VECTORS_PER_TOKEN = 10
PROFILED_SEQUENCES = 256
# A GPU model's first call (kernels loaded, cuBLAS handles created, the allocator's first blocks):
# about a second for a BERT-large-sized model on a T4 (estimate), charged on each model's first call.
FIRST_CALL_S = 1.0
# A stall (`RecorderSession.stall_calls`) ends this long before the call's time limit: less than any step.
STALL_MARGIN_S = 0.05


@dataclass
class RecordedRequest:
    schema: dict[str, Any] | None
    n: int
    max_tokens: int
    stop_token_ids: list[int]
    prompt_tokens: int
    prompt_start: str
    text: str
    finish_reason: str | None
    scripted_tokens: int  # the longest scripted reply of the request's samples, <|eot_id|> included

    @property
    def valid_json(self) -> bool:
        try:
            json.loads(self.text)
        except ValueError:
            return False
        return True


class RecorderSession:
    def __init__(self, profile: ThroughputModelConfig):
        self.profile = profile
        self.requests: list[RecordedRequest] = []
        self.aborted: list[str] = []
        self.memory: dict[str, int] = {}
        self.engines: list[LLMEngine] = []  # every engine started, in order
        self._submitted: dict[str, Any] = {}
        self._origin = time.perf_counter()
        self._executor_real_seconds = 0.0
        self._simulated_seconds = 0.0
        self.executor: RecorderExecutor | None = None
        self.requested_executor: str | None = None
        self.tokenizer: Any = None
        self._schemas: dict[str, dict[str, Any]] = {}
        self._processor_schema: dict[int, str] = {}
        self._build_seconds: dict[int, float] = {}
        self._compile_seconds: dict[str, list[float]] = {}
        self._targets: dict[int, list[int]] = {}
        self._request_targets: dict[str, int] = {}
        self.mask_seconds: list[float] = []
        self._warm: set[str] | None = None
        self._reply_lengths: dict[str, list[int]] = {}
        self._reply_factor = 1.0
        self._filler = FILLER_WORDS
        self._draws = random.Random(0)
        self._called_models: dict[int, Any] = {}
        self._outputs: dict[tuple[str, ...], dict[Any, Any]] = {}
        self.first_calls = 0
        self.kv_cache_tokens: int | None = None  # None: sized from the T4's memory, as vLLM's worker does
        self._stall_key: str | None = None
        self._time_limit: Callable[[], Any] | None = None
        self._stalled: dict[int, Any] = {}

    # --- installation ---

    @contextmanager
    def installed(self) -> Iterator[RecorderSession]:
        session = self
        original_executor_cls = LLMEngine._get_executor_cls.__func__
        original_builder = llm_engine_module.get_local_guided_decoding_logits_processor
        original_add_request, original_step, original_abort = (
            LLMEngine.add_request,
            LLMEngine.step,
            LLMEngine.abort_request,
        )

        def executor_cls(cls: type, engine_config: Any) -> type:
            session.requested_executor = original_executor_cls(cls, engine_config).__name__
            return RecorderExecutor.bound_to(session)

        def builder(
            guided_params: Any, tokenizer: Any, model_config: Any, reasoning_backend: Any = None
        ) -> Any:
            session.tokenizer = tokenizer
            schema = (
                guided_params.json if isinstance(guided_params.json, dict) else json.loads(guided_params.json)
            )
            started = time.perf_counter()
            processor = original_builder(guided_params, tokenizer, model_config, reasoning_backend)
            key = schema_key(schema)
            self._schemas.setdefault(key, schema)
            self._processor_schema[id(processor)] = key
            self._build_seconds[id(processor)] = time.perf_counter() - started
            return processor

        def add_request(
            engine: LLMEngine, request_id: str, prompt: Any, params: Any, *args: Any, **kwargs: Any
        ) -> Any:
            if engine not in self.engines:
                self.engines.append(engine)
            self._submitted[request_id] = params
            return original_add_request(engine, request_id, prompt, params, *args, **kwargs)

        def step(engine: LLMEngine) -> Any:
            outputs = original_step(engine)
            for output in outputs:
                if output.finished and output.request_id in self._submitted:
                    self._record(engine, output)
            return outputs

        def abort_request(engine: LLMEngine, request_id: Any) -> None:
            self.aborted.extend([request_id] if isinstance(request_id, str) else list(request_id))
            original_abort(engine, request_id)

        from sentence_transformers import CrossEncoder

        original_encode, original_predict = SentenceEncoder.encode, CrossEncoder.predict

        def encode(encoder: SentenceEncoder, texts: list[str]) -> Any:
            if not texts:
                return original_encode(encoder, texts)

            def work() -> Any:
                rows = self._remembered(
                    ("encoder", encoder.name_or_path), texts, lambda new: original_encode(encoder, new)
                )
                return np.stack(rows)

            return self._charged(encoder.model, work, lambda: self._encoder_seconds(encoder, texts))

        def predict(model: Any, sentences: Any, *args: Any, **kwargs: Any) -> Any:
            pairs = [tuple(pair) for pair in sentences]

            def work() -> Any:
                return np.array(
                    self._remembered(
                        ("cross-encoder",), pairs, lambda new: original_predict(model, new, *args, **kwargs)
                    )
                )

            return self._charged(model, work, lambda: len(pairs) * self.profile.cross_encoder_pair_s)

        LLMEngine._get_executor_cls = classmethod(executor_cls)
        llm_engine_module.get_local_guided_decoding_logits_processor = builder
        LLMEngine.add_request, LLMEngine.step, LLMEngine.abort_request = add_request, step, abort_request
        SentenceEncoder.encode, CrossEncoder.predict = encode, predict
        try:
            yield self
        finally:
            LLMEngine._get_executor_cls = classmethod(original_executor_cls)
            llm_engine_module.get_local_guided_decoding_logits_processor = original_builder
            LLMEngine.add_request, LLMEngine.step, LLMEngine.abort_request = (
                original_add_request,
                original_step,
                original_abort,
            )
            SentenceEncoder.encode, CrossEncoder.predict = original_encode, original_predict

    def _charged(self, model: Any, work: Callable[[], Any], simulated: Callable[[], float]) -> Any:
        """Run `work` (a CPU stand-in for `model` on a T4) and charge `simulated()` seconds for it
        instead of its own, plus `FIRST_CALL_S` on the model's first call."""
        started = time.perf_counter()
        result = work()
        seconds = simulated()
        if id(model) not in self._called_models:
            self._called_models[id(model)] = model  # kept, so that the id is not reused
            seconds += FIRST_CALL_S
            self.first_calls += 1
        self.charge(time.perf_counter() - started, seconds)
        return result

    def _remembered(
        self, model_key: tuple[str, ...], inputs: list[Any], compute: Callable[[list[Any]], Any]
    ) -> list[Any]:
        """Each input's output of a deterministic stand-in, computed once for the whole check: the
        profiles answer the same questions, and what is charged is the simulated T4's time."""
        memory = self._outputs.setdefault(model_key, {})
        new = list(dict.fromkeys(item for item in inputs if item not in memory))
        if new:
            memory.update(zip(new, compute(new)))
        return [memory[item] for item in inputs]

    def _encoder_seconds(self, encoder: SentenceEncoder, texts: list[str]) -> float:
        """Batches of `encoder.batch_size` texts, longest first (as sentence-transformers sorts
        them), each padded to its longest text's tokens."""
        model = encoder.model

        def tokens(new: list[str]) -> list[int]:
            return [
                len(ids)
                for ids in model.tokenizer(new, truncation=True, max_length=model.max_seq_length)["input_ids"]
            ]

        lengths = sorted(
            self._remembered(("encoder tokens", encoder.name_or_path), texts, tokens), reverse=True
        )
        size = encoder.batch_size
        return self.profile.encoder_seconds(
            [lengths[i] * len(lengths[i : i + size]) for i in range(0, len(lengths), size)]
        )

    def _record(self, engine: LLMEngine, output: Any) -> None:
        sampling = self._submitted.pop(output.request_id)
        schema = sampling.guided_decoding.json if sampling.guided_decoding is not None else None
        tokenizer = engine.get_tokenizer()
        scripted = self._request_targets.pop(output.request_id, 0)
        for sample in output.outputs:
            self.requests.append(
                RecordedRequest(
                    schema=schema,
                    n=sampling.n,
                    max_tokens=sampling.max_tokens,
                    stop_token_ids=list(sampling.stop_token_ids or []),
                    prompt_tokens=len(output.prompt_token_ids),
                    prompt_start=tokenizer.decode(output.prompt_token_ids[:6]),
                    text=sample.text,
                    finish_reason=sample.finish_reason,
                    scripted_tokens=scripted,
                )
            )

    def forget_prompts(self) -> None:
        """Empty the prefix cache, so that a run of questions asked before pays their prompts again
        (on the leaderboard every question comes once)."""
        for engine in self.engines:
            engine.reset_prefix_cache()

    def preemptions(self) -> int:
        """Sequence groups the engines' schedulers have preempted so far (their KV cache was full)."""
        return sum(
            scheduler.num_cumulative_preemption for engine in self.engines for scheduler in engine.scheduler
        )

    # --- the simulated T4 clock ---

    def use_profile(self, profile: ThroughputModelConfig) -> None:
        self.profile = profile

    def use_reply_lengths(
        self, by_schema: dict[str, list[int]], factor: float = 1.0, filler: str = FILLER_WORDS
    ) -> None:
        """Reply lengths in tokens to draw from, by the schema key of the replies they are for; each
        drawn length times `factor`, the free text written with `filler`'s words."""
        self._reply_lengths = dict(by_schema)
        self._reply_factor, self._filler = factor, filler

    def stall_calls(self, schema: dict[str, Any] | None, time_limit: Callable[[], Any] | None = None) -> None:
        """Stall the engine once in each call whose replies follow `schema` (None: never), on the step
        after which one of them has written all of its reply but its end, until STALL_MARGIN_S before
        the call's time limit (`time_limit()`, the backend's current one): a pause no plan foresees (a
        host stall, an all-reduce retried), after which the backend must cut the call's replies."""
        self._stall_key = schema_key(schema) if schema is not None else None
        self._time_limit = time_limit

    def stall_seconds(self, metadata_list: list[Any], step_seconds: float) -> float:
        """The stall to add to a step of `step_seconds` (see `stall_calls`), or 0."""
        limit = self._time_limit() if self._stall_key is not None and self._time_limit is not None else None
        if limit is None or id(limit) in self._stalled:
            return 0.0
        for metadata in metadata_list:
            params = metadata.sampling_params
            if metadata.is_prompt or params is None:
                continue
            if self._stall_key not in {
                self._processor_schema.get(id(p)) for p in params.logits_processors or []
            }:
                continue
            for seq_id, data in metadata.seq_data.items():
                target = self._targets.get(seq_id)
                if (
                    target is not None and data.get_output_len() == len(target) - 2
                ):  # its last token and <|eot_id|> to come
                    self._stalled[id(limit)] = limit  # kept, so that the id is not reused
                    return max(0.0, limit.at - self.clock() - step_seconds - STALL_MARGIN_S)
        return 0.0

    def clock(self) -> float:
        """Seconds a system on the simulated 4x T4 would read: wall time outside the executor plus
        the executor's simulated steps."""
        return time.perf_counter() - self._origin - self._executor_real_seconds + self._simulated_seconds

    def charge(self, real_seconds: float, simulated_seconds: float) -> None:
        self._executor_real_seconds += real_seconds
        self._simulated_seconds += simulated_seconds

    def step_seconds(self, metadata_list: list[Any], block_size: int) -> float:
        """Seconds of one engine step on 4x T4 under the profile, from what the scheduler put in it:
        the prompt tokens it computes (the prefix cache's blocks excepted) and the tokens before
        each, the decoding sequences and their context, the guided sequences sampled and which of
        them sample their first token (their matcher is built then)."""
        prompt_rows = prompt_context = decode_rows = context = guided = new_guided = 0
        for metadata in metadata_list:
            is_guided = bool(
                metadata.sampling_params is not None and metadata.sampling_params.logits_processors
            )
            for data in metadata.seq_data.values():
                if metadata.is_prompt:
                    computed = data.get_num_computed_tokens()
                    end = min(data.get_len(), computed + metadata.token_chunk_size)
                    cached = len(metadata.computed_block_nums or ()) * block_size
                    first = min(max(computed, cached), end - 1)
                    prompt_rows += end - first
                    prompt_context += (first + end - 1) * (end - first) // 2
                else:
                    decode_rows += 1
                    context += data.get_len()
                sampled = is_guided and metadata.do_sample
                guided += int(sampled)
                new_guided += int(sampled and data.get_output_len() == 0)
        return self.profile.step_seconds(
            prompt_rows,
            decode_rows,
            guided,
            context_tokens=context,
            prefill_context=prompt_context,
            new_guided=new_guided,
        )

    # --- what the check reads ---

    def request_count(self) -> int:
        return len(self.requests)

    def schemas(self) -> list[dict[str, Any]]:
        return list(self._schemas.values())

    def mark_warm(self) -> None:
        self._warm = set(self._schemas)

    def compiled_after_warm_up(self) -> list[dict[str, Any]]:
        if self._warm is None:
            return []
        return [schema for key, schema in self._schemas.items() if key not in self._warm]

    def compile_times(self, schema: dict[str, Any]) -> list[float]:
        """Build + first mask seconds of each request's grammar for `schema`, in request order."""
        return self._compile_seconds.get(schema_key(schema), [])

    def engine_report(self) -> dict[str, str]:
        executor = self.executor
        if executor is None:
            return {}
        model, cache, parallel = executor.model_config, executor.cache_config, executor.parallel_config
        scheduler = executor.scheduler_config
        capability = current_platform.get_device_capability()
        return {
            "device": f"{current_platform.get_device_name()} (compute {capability.major}.{capability.minor})",
            "engine": f"V0 ({LLMEngine.__module__}.{LLMEngine.__name__})" if executor.v0 else "V1",
            "quantization": str(model.quantization),
            "dtype": str(model.dtype),
            "attention backend": current_platform.get_attn_backend_cls(
                None, model.get_head_size(), model.dtype, cache.cache_dtype, cache.block_size, False, False
            ),
            "worker": str(parallel.worker_cls),
            "executor the preset asks for": str(self.requested_executor),
            "tensor parallel": str(parallel.tensor_parallel_size),
            "max_model_len": str(model.max_model_len),
            "enforce_eager": str(model.enforce_eager),
            "chunked prefill": str(scheduler.chunked_prefill_enabled),
            "tokens per step": str(scheduler.max_num_batched_tokens),
            "prefix caching": str(cache.enable_prefix_caching),
            "swap space bytes per GPU": str(cache.swap_space_bytes),
            "guided decoding backend": str(executor.vllm_config.decoding_config.guided_decoding_backend),
            "kv cache": f"{cache.num_gpu_blocks} blocks of {cache.block_size} tokens per GPU",
            "kv cache tokens": str((cache.num_gpu_blocks or 0) * cache.block_size),
        }

    def measure_backend(self, schema: dict[str, Any], backend: str, reply: str) -> tuple[float, float, float]:
        """For `schema` under `backend`: build + first-mask seconds of a first and a second grammar,
        and the median seconds of one token mask while the second one follows `reply`."""
        times = []
        for _ in range(2):
            started = time.perf_counter()
            processor = get_local_guided_decoding_logits_processor(
                GuidedDecodingParams(json=schema, backend=backend), self.tokenizer, self.executor.model_config
            )
            _call(processor, [], [], self._zero_scores())
            times.append(time.perf_counter() - started)
        tokens = self.tokenizer.encode(reply, add_special_tokens=False)
        masks = []
        for position in range(1, len(tokens) + 1):
            scores = self._zero_scores()
            started = time.perf_counter()
            _call(processor, [], tokens[:position], scores)
            masks.append(time.perf_counter() - started)
        return times[0], times[1], statistics.median(masks)

    def enforcement(self, schema: dict[str, Any]) -> dict[str, bool]:
        """Whether the engine's backend refuses prose before the JSON and, when the schema has
        caps, a reply that exceeds them."""
        backend = self.executor.vllm_config.decoding_config.guided_decoding_backend
        checks = {"refuses prose": self._refuses(schema, backend, "Sure, here it is: ")}
        overlong = _overlong(schema)
        if overlong is not None:
            checks["keeps caps"] = self._refuses(schema, backend, json.dumps(overlong, separators=(",", ":")))
        return checks

    # --- decoding (called by the executor) ---

    def next_token(
        self, request_id: str, seq_id: int, prompt_ids: list[int], output_ids: list[int], params: Any
    ) -> int:
        processors = list(params.logits_processors or [])
        if seq_id not in self._targets or not output_ids:
            keys = [self._processor_schema.get(id(p)) for p in processors]
            key = next((key for key in keys if key is not None), None)
            schema = self._schemas[key] if key is not None else None
            lengths = self._reply_lengths.get(key or "")
            tokenizer = self.executor.tokenizer

            def count(text: str) -> int:
                return len(tokenizer.encode(text, add_special_tokens=False))

            length = round(self._draws.choice(lengths) * self._reply_factor) if lengths else None
            reply = tokenizer.encode(
                scripted_reply(schema, length, count, self._filler), add_special_tokens=False
            )
            self._targets[seq_id] = list(reply) + [EOT_ID]
            parent = request_id.split(PARALLEL_SAMPLE)[0]  # V0 runs each of n samples as its own request
            self._request_targets[parent] = max(
                self._request_targets.get(parent, 0), len(self._targets[seq_id])
            )
        target = self._targets[seq_id]
        scores = self._zero_scores()
        scores[target[min(len(output_ids), len(target) - 1)]] = FAVOURED_SCORE
        for processor in processors:
            first = id(processor) in self._build_seconds
            started = time.perf_counter()
            scores = _call(processor, prompt_ids, output_ids, scores)
            seconds = time.perf_counter() - started
            if first:
                key = self._processor_schema[id(processor)]
                self._compile_seconds.setdefault(key, []).append(
                    self._build_seconds.pop(id(processor)) + seconds
                )
            else:
                self.mask_seconds.append(seconds)
        return int(torch.argmax(scores).item())

    def _zero_scores(self) -> torch.Tensor:
        return torch.zeros(self.executor.model_config.get_vocab_size(), dtype=torch.float32)

    def _refuses(self, schema: dict[str, Any], backend: str, text: str) -> bool:
        processor = get_local_guided_decoding_logits_processor(
            GuidedDecodingParams(json=schema, backend=backend), self.tokenizer, self.executor.model_config
        )
        tokens = self.tokenizer.encode(text, add_special_tokens=False) + [EOT_ID]
        for position, token in enumerate(tokens):
            scores = _call(processor, [], tokens[:position], self._zero_scores())
            if torch.isinf(scores[token]) and scores[token] < 0:
                return True
        return False


class RecorderExecutor(ExecutorBase):
    """Stands in for the GPU workers: a KV cache of the configured size, tokens from the recorder."""

    uses_ray = False
    session: RecorderSession

    @classmethod
    def bound_to(cls, session: RecorderSession) -> type:
        return type("RecorderExecutor", (cls,), {"session": session})

    def _init_executor(self) -> None:
        import vllm.envs as envs
        from vllm.transformers_utils.tokenizer import get_tokenizer

        self.v0 = not envs.VLLM_USE_V1
        self.tokenizer = get_tokenizer(self.model_config.tokenizer)
        self.session.executor = self
        self.rpc_calls: list[str] = []

    def determine_num_available_blocks(self) -> tuple[int, int]:
        """As vLLM's worker computes it: total memory x gpu_memory_utilization, less the weights, the
        profiling step's activations and the non-torch memory, in KV-cache blocks."""
        memory = {
            "given": int(T4_TOTAL_MEMORY_BYTES * self.cache_config.gpu_memory_utilization),
            "weights": self._weight_bytes(),
            "activations": self._activation_bytes(),
            "nccl": NCCL_BYTES,
        }
        memory["kv cache"] = memory["given"] - memory["weights"] - memory["activations"] - memory["nccl"]
        self.session.memory = memory
        swap_blocks = self.cache_config.swap_space_bytes // self._block_bytes()
        if self.session.kv_cache_tokens is not None:  # a profile's smaller cache
            return self.session.kv_cache_tokens // self.cache_config.block_size, swap_blocks
        return max(0, memory["kv cache"]) // self._block_bytes(), swap_blocks

    def _weight_bytes(self) -> int:
        """One GPU's share of Llama-3-70B in GPTQ: 4-bit weights, an fp16 scale and a 4-bit zero per
        `group_size` inputs of each output, an int32 group index per input row; fp16 embeddings
        and output head split over the GPUs."""
        config = self.model_config.hf_config
        quant = config.quantization_config
        hidden, inner, layers = config.hidden_size, config.intermediate_size, config.num_hidden_layers
        kv_width = config.num_key_value_heads * (hidden // config.num_attention_heads)
        shapes = [(hidden, hidden), (hidden, kv_width), (hidden, kv_width), (hidden, hidden)]
        shapes += [(hidden, inner), (hidden, inner), (inner, hidden)]
        bits = quant["bits"]
        per_layer = sum(
            rows * cols * bits / 8 + (rows // quant["group_size"]) * cols * (2 + bits / 8) + rows * 4
            for rows, cols in shapes
        )
        embeddings = 2 * config.vocab_size * hidden * 2
        return int((per_layer * layers + embeddings) / self.parallel_config.tensor_parallel_size)

    def _activation_bytes(self) -> int:
        config = self.model_config.hf_config
        tp = self.parallel_config.tensor_parallel_size
        tokens = self.scheduler_config.max_num_batched_tokens
        per_token = (HIDDEN_VECTORS_PER_TOKEN * config.hidden_size + 2 * config.intermediate_size // tp) * 2
        dequantized = config.hidden_size * 2 * config.intermediate_size // tp * 2
        logits = PROFILED_SEQUENCES * config.vocab_size * 4
        return tokens * per_token + dequantized + logits

    def collective_rpc(
        self, method: Any, timeout: Any = None, args: tuple = (), kwargs: Any = None
    ) -> list[Any]:
        self.rpc_calls.append(method if isinstance(method, str) else getattr(method, "__name__", "callable"))
        return [None] * self.parallel_config.world_size

    def execute_model(self, execute_model_req: Any) -> list[SamplerOutput]:
        started = time.perf_counter()
        metadata_list = execute_model_req.seq_group_metadata_list
        simulated = self.session.step_seconds(metadata_list, self.cache_config.block_size)
        simulated += self.session.stall_seconds(metadata_list, simulated)
        outputs = []
        for metadata in metadata_list:
            samples = []
            if metadata.do_sample:
                for seq_id, data in metadata.seq_data.items():
                    token = self.session.next_token(
                        metadata.request_id,
                        seq_id,
                        list(data.get_prompt_token_ids()),
                        list(data.get_output_token_ids()),
                        metadata.sampling_params,
                    )
                    samples.append(SequenceOutput(seq_id, token, {token: Logprob(logprob=0.0, rank=1)}))
            outputs.append(CompletionSequenceGroupOutput(samples=samples, prompt_logprobs=None))
        self.session.charge(time.perf_counter() - started, simulated)
        return [SamplerOutput(outputs=outputs)]

    def check_health(self) -> None:
        return None

    def _block_bytes(self) -> int:
        model = self.model_config
        kv_heads = model.get_num_kv_heads(self.parallel_config)
        layers = model.get_num_layers(self.parallel_config)
        return 2 * layers * kv_heads * model.get_head_size() * 2 * self.cache_config.block_size


def _call(processor: Any, prompt_ids: list[int], output_ids: list[int], scores: torch.Tensor) -> torch.Tensor:
    """A logits processor applied the way V0's LogitsProcessor layer applies it."""
    if len(inspect.signature(processor).parameters) == 3:
        return processor(prompt_ids, output_ids, scores)
    return processor(output_ids, scores)


def _overlong(schema: dict[str, Any]) -> Any:
    """An instance of `schema` that breaks each maxLength / maxItems, or None when it has none."""
    broke = False

    def build(node: dict[str, Any]) -> Any:
        nonlocal broke
        kind = node.get("type")
        if kind == "object":
            properties = node.get("properties", {})
            return {key: build(value) for key, value in properties.items()}
        if kind == "array":
            count = node.get("maxItems")
            if count is not None:
                broke = True
                return [build(node["items"]) for _ in range(count + 1)]
            return [build(node["items"])]
        if kind == "string":
            limit = node.get("maxLength")
            if limit is not None:
                broke = True
                return "word " * (limit // 5 + 4)
            return "word"
        return 0

    instance = build(schema)
    return instance if broke else None
