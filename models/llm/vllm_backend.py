"""LLM backend on vLLM's offline engine: the leaderboard backend (preset `t4x4`).

All conversations of a `generate` call go to vLLM's engine together, so it batches them (and the n
samples of each) continuously on the GPUs. The backend drives the V0 `LLMEngine` itself (add the
requests, step, abort) rather than calling `LLM.generate`, so that no call runs past its time limit:
before each step it reads from the scheduler what the step will run (the decoding sequences and
the context they read, the prompt tokens of the next chunk), asks `step_predictor` (the deadline's
cost model) how long that takes, corrects it by how far the prediction was off on recent steps of
the same kind, and when that times `llm.step_safety_factor` no longer fits the time left it aborts
what is unfinished and returns the text generated so far (`Completion.cut`). Without a predictor
it takes the longest recent step of the same kind. Each step's prompt tokens, sequences, context
and seconds go to `step_observer` (vLLM's own per-step statistics).
Prompts are built here with the model's chat template and handed over as token ids, which also
gives exact prompt token counts.

vllm is imported only by `VLLMBackend` (the engine starts in `warm_up`): the rest of the project, and
`vllm_engine_args`, work on machines without it. Engine-argument choices for 4x T4 are explained
in `vllm_engine_args` and in models/README.md.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import statistics
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from loguru import logger

from models.config import LLMConfig
from models.llm.base import Completion, Conversation, GenerationParams, LLMBackend, cut_by_limit


# Sent once at start-up: the guidance backend's first request converts the whole tokenizer for
# llguidance (seconds: `make check-t4x4`'s warm-up; then cached), whatever the schema; a capped string makes
# the first request also build the length-limited lexer every stage schema uses.
START_UP_SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string", "maxLength": 8}},
    "required": ["answer"],
}


def stop_token_ids(tokenizer: Any, special_tokens: Sequence[str]) -> list[int]:
    """The ids of `special_tokens` in `tokenizer`; a token it does not know is a configuration error."""
    ids = []
    for token in special_tokens:
        token_id = tokenizer.convert_tokens_to_ids(token)
        if token_id is None or token_id == tokenizer.unk_token_id:
            raise ValueError(f"llm.stop_special_tokens: the model's tokenizer has no token {token!r}")
        ids.append(int(token_id))
    return ids


def vllm_engine_args(config: LLMConfig) -> dict[str, Any]:
    """The keyword arguments for `vllm.LLM(...)` that `config` asks for (pure; no vllm needed)."""
    if not config.model_path:
        raise ValueError("The vllm backend needs llm.model_path: a local Hugging Face model folder")
    return {
        "model": config.model_path,
        "tokenizer": config.model_path,
        # The checkpoint is already on disk; nothing is fetched and no remote code runs.
        "trust_remote_code": False,
        "tensor_parallel_size": config.tensor_parallel_size,
        "dtype": config.dtype,
        "quantization": config.quantization,
        "gpu_memory_utilization": config.gpu_memory_utilization,
        "max_model_len": config.max_model_len,
        "enforce_eager": config.enforce_eager,
        "swap_space": config.swap_space_gb,
        "enable_prefix_caching": config.enable_prefix_caching,
        "distributed_executor_backend": config.distributed_executor_backend,
        "disable_custom_all_reduce": config.disable_custom_all_reduce,
        "guided_decoding_backend": config.guided_decoding_backend,
        # Chunked prefill caps the tokens of one engine step, so that a step (which cannot be
        # interrupted) stays short enough for the deadline to stop between steps.
        "enable_chunked_prefill": config.enable_chunked_prefill,
        "max_num_batched_tokens": config.max_num_batched_tokens,
        # The per-step statistics feed the cost model (the backend replaces vLLM's own loggers).
        "disable_log_stats": False,
    }


class VLLMBackend(LLMBackend):
    name = "vllm"

    def __init__(self, config: LLMConfig):
        self.config = config
        engine_args = vllm_engine_args(config)
        # The evaluation machine has no network: never report usage statistics.
        os.environ["VLLM_NO_USAGE_STATS"] = "1"
        os.environ["DO_NOT_TRACK"] = "1"
        os.environ["VLLM_USE_V1"] = "1" if config.vllm_use_v1 else "0"
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            from vllm import SamplingParams
            from vllm.sampling_params import GuidedDecodingParams
        except ImportError as error:
            raise RuntimeError(
                "The vllm backend needs the GPU image's packages (pip install -r requirements.txt); "
                "on a CPU machine use the cpu preset (llamacpp backend)"
            ) from error
        self._sampling_params = SamplingParams
        self._guided_params = GuidedDecodingParams
        self._engine_args = engine_args
        self._llm: Any = None
        self._request_ids = itertools.count()
        self._stop = EngineStop(config.step_safety_factor, config.recent_steps_kept)
        self._step_stats: Any = None

    def _engine(self) -> Any:
        """The vLLM engine, started on first need (normally by `warm_up`, before the first batch)."""
        if self._llm is None:
            from vllm import LLM

            logger.info(f"Starting vLLM: {self._engine_args}")
            self._llm = LLM(**self._engine_args)
            self._tokenizer = self._llm.get_tokenizer()
            engine = self._llm.llm_engine
            self._max_model_len = engine.model_config.max_model_len
            self._stop_token_ids = stop_token_ids(self._tokenizer, self.config.stop_special_tokens)
            for name in list(engine.stat_loggers):
                engine.remove_logger(name)
            self._step_stats = _step_stats_logger(engine.vllm_config)
            engine.add_logger("crag-steps", self._step_stats)
            self._compile([START_UP_SCHEMA])
        return self._llm

    def generate(self, conversations: Sequence[Conversation], params: GenerationParams) -> list[Completion]:
        self._engine()
        completions = [Completion(texts=[]) for _ in conversations]
        try:
            sampling = self._sampling(params)
        except Exception as error:  # an invalid constraint fails every conversation alike
            message = f"invalid sampling parameters: {type(error).__name__}: {error}"
            logger.warning(message)
            return [Completion(texts=[], error=message) for _ in conversations]

        requests: dict[str, int] = {}
        prompts = []
        for index, conversation in enumerate(conversations):
            try:
                token_ids = self._prompt_token_ids(conversation)
            except Exception as error:
                completions[index].error = f"chat template failed: {type(error).__name__}: {error}"
                continue
            completions[index].prompt_tokens = len(token_ids)
            if len(token_ids) >= self._max_model_len:
                completions[
                    index
                ].error = (
                    f"prompt of {len(token_ids)} tokens does not fit max_model_len {self._max_model_len}"
                )
                continue
            requests[f"crag-{next(self._request_ids)}"] = index
            prompts.append({"prompt_token_ids": token_ids})
        for index, completion in enumerate(completions):
            if completion.error:
                logger.warning(f"vllm: conversation {index} skipped: {completion.error}")
        if not prompts:
            return completions

        try:
            outputs, finished = self._run(dict(zip(requests, prompts)), sampling)
        except Exception as error:  # the engine failed the whole call; report it on each conversation
            logger.exception("vLLM engine step failed")
            self._abort(list(requests))
            for index in requests.values():
                completions[index].error = f"vllm generate failed: {type(error).__name__}: {error}"
            return completions

        for request_id, index in requests.items():
            output = outputs.get(request_id)
            if output is not None:
                self._fill(completions[index], output, params)
            if request_id not in finished:
                completions[index].cut = True
                completions[index].error = cut_by_limit(completions[index].completion_tokens)
        return completions

    def count_tokens(self, text: str) -> int:
        self._engine()
        return len(self._tokenizer.encode(text, add_special_tokens=False))

    def model_identity(self) -> str:
        """The model folder's configuration files and the sizes of its weight files, the dtype, the
        quantization and vLLM's version (a batch's composition still moves vLLM's arithmetic, so
        cached replies stand for any of its runs)."""
        import vllm

        folder = Path(self.config.model_path or "")
        digest = hashlib.sha256()
        for path in sorted(p for p in folder.iterdir() if p.is_file()):
            digest.update(f"{path.name}\0{path.stat().st_size}\0".encode())
            if path.suffix == ".json":
                digest.update(path.read_bytes())
        return (
            f"vllm {vllm.__version__}, model folder {folder.name} ({digest.hexdigest()}), "
            f"dtype {self.config.dtype}, quantization {self.config.quantization}"
        )

    def kv_cache_tokens(self) -> int | None:
        cache = self._engine().llm_engine.cache_config
        return int(cache.num_gpu_blocks * cache.block_size) if cache.num_gpu_blocks else None

    def recomputed_prompt_tokens(self, prompt_tokens: int) -> int:
        """With prefix caching, a prompt sent again computes at most its last, partly filled block
        (vLLM keeps freed blocks cached until it needs their room)."""
        cache = self._engine().llm_engine.cache_config
        return min(prompt_tokens, cache.block_size) if cache.enable_prefix_caching else prompt_tokens

    def warm_up(self, json_schemas: Sequence[dict[str, Any]]) -> None:
        """Start the engine and compile each schema's grammar now, outside any question's time."""
        self._engine()
        self._compile(json_schemas)

    def _run(self, prompts: dict[str, dict[str, Any]], sampling: Any) -> tuple[dict[str, Any], set[str]]:
        """Step the engine until every request finished or the time limit would be passed by one
        more step; the latest output of each request, and the ids that finished."""
        engine = self._llm.llm_engine
        for request_id, prompt in prompts.items():
            engine.add_request(request_id, prompt, sampling)
        outputs: dict[str, Any] = {}
        finished: set[str] = set()
        token_budget = engine.scheduler_config.max_num_batched_tokens
        while engine.has_unfinished_requests():
            load = next_step_load(engine, token_budget)
            model = self._model_seconds(load)
            if self.seconds_left() < self._stop.predicted_seconds(load, model):
                unfinished = [request_id for request_id in prompts if request_id not in finished]
                logger.warning(f"vllm: time limit reached; {len(unfinished)} request(s) stopped")
                self._abort(unfinished)
                break
            self._step_stats.last = None
            started = self.clock()
            step_outputs = engine.step()
            seconds = self.clock() - started
            stats = self._step_stats.last
            computed_prompt = stats.num_prompt_tokens_iter if stats is not None else load.prompt_tokens
            self._stop.record(computed_prompt > 0, seconds, model)
            if stats is not None:
                self.observe_step(
                    stats.num_prompt_tokens_iter,
                    stats.num_generation_tokens_iter,
                    seconds,
                    load.context_tokens,
                )
            for output in step_outputs:
                outputs[output.request_id] = output
                if output.finished:
                    finished.add(output.request_id)
        return outputs, finished

    def _model_seconds(self, load: "StepLoad") -> float | None:
        if self.step_predictor is None:
            return None
        seconds = self.step_predictor(load.prompt_tokens, load.sequences, load.context_tokens)
        return seconds if seconds > 0 else None

    def _abort(self, request_ids: list[str]) -> None:
        if request_ids and self._llm is not None:
            self._llm.llm_engine.abort_request(request_ids)

    def _compile(self, json_schemas: Sequence[dict[str, Any]]) -> None:
        """One request per distinct schema, one token each, in one engine run."""
        unique = list({json.dumps(schema, sort_keys=True): schema for schema in json_schemas}.values())
        if not unique:
            return
        prompt = {"prompt_token_ids": self._prompt_token_ids([{"role": "user", "content": "Reply in JSON."}])}
        started = self.clock()
        with self.limited(None):
            for schema in unique:
                sampling = self._sampling(GenerationParams(max_tokens=1, json_schema=schema))
                self._llm.llm_engine.add_request(f"crag-{next(self._request_ids)}", prompt, sampling)
            while self._llm.llm_engine.has_unfinished_requests():
                self._llm.llm_engine.step()
        logger.info(
            f"vLLM warm-up: {len(unique)} guided-decoding schema(s) compiled in {self.clock() - started:.1f}s"
        )

    def close(self) -> None:
        self._llm = None

    def _sampling(self, params: GenerationParams) -> Any:
        guided = None
        if params.json_schema is not None:
            guided = self._guided_params(json=params.json_schema)
        elif params.grammar is not None:
            guided = self._guided_params(grammar=params.grammar)
        # vLLM refuses n > 1 with greedy decoding; greedy samples are identical, so ask for one.
        samples = params.n if params.temperature > 0 else 1
        return self._sampling_params(
            n=samples,
            temperature=params.temperature,
            top_p=params.top_p,
            max_tokens=params.max_tokens,
            stop=list(params.stop),
            stop_token_ids=list(self._stop_token_ids),
            seed=params.seed,
            logprobs=params.first_token_logprobs,
            guided_decoding=guided,
        )

    def _prompt_token_ids(self, conversation: Conversation) -> list[int]:
        token_ids = self._tokenizer.apply_chat_template(
            conversation, add_generation_prompt=True, tokenize=True
        )
        return list(token_ids)

    def _fill(self, completion: Completion, output: Any, params: GenerationParams) -> None:
        texts = [sample.text for sample in output.outputs]
        completion.completion_tokens = sum(len(sample.token_ids) for sample in output.outputs)
        completion.texts = texts if params.temperature > 0 else texts[:1] * params.n
        first = output.outputs[0] if output.outputs else None
        if params.first_token_logprobs and first is not None and first.logprobs:
            completion.first_token_logprobs = {
                (entry.decoded_token if entry.decoded_token is not None else str(token_id)): entry.logprob
                for token_id, entry in first.logprobs[0].items()
            }


@dataclass(frozen=True)
class StepLoad:
    """What the engine's next step will run: prompt tokens, decoding sequences, their context tokens."""

    prompt_tokens: int
    sequences: int
    context_tokens: int


class EngineStop:
    """Whether one more engine step fits the time left: its predicted seconds (the cost model's,
    times the median ratio of what recent steps of the same kind took to their prediction; without
    a model, the longest recent step of the kind), times `safety_factor`. The kinds: steps that
    compute prompt tokens, and steps that only decode."""

    def __init__(self, safety_factor: float, kept: int):
        self.safety_factor = safety_factor
        self._seconds: dict[bool, deque[float]] = {kind: deque(maxlen=kept) for kind in (True, False)}
        self._ratios: dict[bool, deque[float]] = {kind: deque(maxlen=kept) for kind in (True, False)}

    def predicted_seconds(self, load: StepLoad, model: float | None) -> float:
        """The seconds to allow for the step of `load`, whose model prediction is `model` (None:
        no model); a kind not seen yet borrows from the other."""
        kind = load.prompt_tokens > 0
        if model is not None:
            ratios = self._ratios[kind] or self._ratios[not kind]
            seconds = model * (statistics.median(ratios) if ratios else 1.0)
        else:
            seconds = max(self._seconds[kind] or self._seconds[not kind], default=0.0)
        return self.safety_factor * seconds

    def record(self, computed_prompt: bool, seconds: float, model: float | None) -> None:
        """A step ran: whether it computed prompt tokens, its seconds, what the model predicted."""
        self._seconds[computed_prompt].append(seconds)
        if model:
            self._ratios[computed_prompt].append(seconds / model)


def next_step_load(engine: Any, token_budget: int | None) -> StepLoad:
    """The next step as V0's chunked-prefill scheduler fills it: every running sequence past its
    prompt decodes one token (reading its whole context), and prompt tokens (part-way prompts
    first, then waiting ones, none assumed cached) fill the rest of the step's token budget."""
    sequences = context = pending = 0
    for scheduler in engine.scheduler:
        for group in scheduler.running:
            if group.is_prefill():
                pending += group.get_num_uncomputed_tokens()
                continue
            for sequence in group.get_seqs():
                if not sequence.is_finished():
                    sequences += 1
                    context += sequence.get_len()
        pending += sum(group.get_num_uncomputed_tokens() for group in scheduler.waiting)
    room = pending if token_budget is None else max(0, token_budget - sequences)
    return StepLoad(min(pending, room), sequences, context)


def _step_stats_logger(vllm_config: Any) -> Any:
    """A vLLM stat logger that keeps the statistics of the latest engine step."""
    from vllm.engine.metrics_types import StatLoggerBase

    class LatestStep(StatLoggerBase):
        last: Any = None

        def log(self, stats: Any) -> None:
            self.last = stats

        def info(self, type: str, obj: Any) -> None:
            return None

    return LatestStep(local_interval=float("inf"), vllm_config=vllm_config)
