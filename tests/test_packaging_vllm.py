"""The t4x4 vLLM engine arguments, and VLLMBackend's mapping onto vLLM's API (with a fake vllm module)."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, field
from typing import Any

import pytest

from models.config import LLMConfig, REPO_ROOT, load_config
from models.llm.base import GenerationParams, TimeLimit
from models.llm.vllm_backend import START_UP_SCHEMA, VLLMBackend, vllm_engine_args


def test_t4x4_engine_arguments_are_exactly_the_settled_ones():
    args = vllm_engine_args(load_config("t4x4").llm)
    model = str(REPO_ROOT / "models" / "weights" / "Meta-Llama-3-70B-Instruct-GPTQ")
    assert args == {
        "model": model,
        "tokenizer": model,
        "trust_remote_code": False,
        "tensor_parallel_size": 4,
        "dtype": "half",
        "quantization": "gptq",
        "gpu_memory_utilization": 0.85,
        "max_model_len": 8192,
        "enforce_eager": True,
        "swap_space": 0,
        "enable_prefix_caching": True,
        "distributed_executor_backend": "mp",
        "disable_custom_all_reduce": True,
        "guided_decoding_backend": "guidance:disable-any-whitespace,no-additional-properties",
        "enable_chunked_prefill": True,
        "max_num_batched_tokens": 512,
        "disable_log_stats": False,
    }


def test_t4x4_preset_selects_the_v0_engine_and_the_vllm_backend():
    llm = load_config("t4x4").llm
    assert llm.backend == "vllm"
    assert llm.vllm_use_v1 is False


def test_engine_arguments_need_a_model_folder():
    with pytest.raises(ValueError, match="model_path"):
        vllm_engine_args(LLMConfig(backend="vllm"))


def test_importing_the_backend_module_does_not_import_vllm():
    assert "vllm" not in sys.modules


# --- VLLMBackend against a fake vllm -------------------------------------------------------------


class FakeTokenizer:
    unk_token_id = None
    special_tokens = {"<|eot_id|>": 128009}

    def convert_tokens_to_ids(self, token):
        return self.special_tokens.get(token)

    def apply_chat_template(self, conversation, add_generation_prompt, tokenize):
        assert add_generation_prompt and tokenize
        text = "".join(f"<{m['role']}>{m['content']}" for m in conversation) + "<assistant>"
        return list(range(len(text.split())))

    def encode(self, text, add_special_tokens):
        assert add_special_tokens is False
        return text.split()


class FakeSamplingParams:
    def __init__(self, **kwargs: Any):
        if kwargs["temperature"] == 0 and kwargs["n"] > 1:
            raise ValueError("n must be 1 when using greedy sampling")
        self.__dict__.update(kwargs)


class FakeGuidedDecodingParams:
    def __init__(self, json=None, grammar=None):
        self.json, self.grammar = json, grammar


class FakeStatLoggerBase:
    def __init__(self, local_interval: float, vllm_config: Any):
        self.local_interval, self.vllm_config = local_interval, vllm_config


@dataclass
class FakeLogprob:
    logprob: float
    decoded_token: str | None


@dataclass
class FakeSample:
    text: str
    token_ids: list[int]
    logprobs: list[dict[int, FakeLogprob]] | None = None


@dataclass
class FakeOutput:
    request_id: str
    finished: bool
    outputs: list[FakeSample] = field(default_factory=list)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class FakeEngine:
    """V0's LLMEngine as the backend drives it: requests added, then stepped one token per step
    (`tokens_per_reply` tokens each, the first with the prefill), `step_seconds` on `clock`."""

    def __init__(self) -> None:
        self.model_config = types.SimpleNamespace(max_model_len=40)
        self.cache_config = types.SimpleNamespace(
            num_gpu_blocks=10, block_size=16, enable_prefix_caching=True
        )
        self.scheduler_config = types.SimpleNamespace(max_num_batched_tokens=512)
        self.vllm_config = object()
        self.stat_loggers: dict[str, Any] = {"logging": object(), "prometheus": object()}
        self.calls: list[tuple[list[dict], list[FakeSamplingParams]]] = []
        self.pending: dict[str, tuple[dict, FakeSamplingParams, int]] = {}
        self.running: dict[str, tuple[dict, FakeSamplingParams, int]] = {}
        self.generated: dict[str, int] = {}
        self.aborted: list[str] = []
        self.fail = False
        self.tokens_per_reply = 2
        self.step_seconds = 0.0
        self.prefill_step_seconds: float | None = None  # None: as long as a decode step
        self.clock = FakeClock()
        self.steps = 0

    @property
    def scheduler(self) -> list[Any]:
        """What the backend reads before a step: waiting prompts, and the running requests' sequences
        (a prompt is read in one step here, with the first token)."""
        waiting = [
            types.SimpleNamespace(
                is_prefill=lambda: True, get_num_uncomputed_tokens=lambda p=prompt: len(p["prompt_token_ids"])
            )
            for prompt, _, _ in self.pending.values()
        ]
        running = []
        for request_id, (prompt, sampling, _) in self.running.items():
            length = len(prompt["prompt_token_ids"]) + self.generated.get(request_id, 0)
            sequence = types.SimpleNamespace(get_len=lambda n=length: n, is_finished=lambda: False)
            running.append(
                types.SimpleNamespace(
                    is_prefill=lambda: False, get_seqs=lambda s=sequence, k=sampling.n: [s] * k
                )
            )
        return [types.SimpleNamespace(waiting=waiting, running=running)]

    def add_logger(self, name: str, logger: Any) -> None:
        self.stat_loggers[name] = logger

    def remove_logger(self, name: str) -> None:
        del self.stat_loggers[name]

    def add_request(self, request_id: str, prompt: dict, params: FakeSamplingParams) -> None:
        self.pending[request_id] = (prompt, params, len(self.pending))

    def has_unfinished_requests(self) -> bool:
        return bool(self.pending or self.running)

    def abort_request(self, request_ids: list[str]) -> None:
        self.aborted += list(request_ids)
        for request_id in request_ids:
            self.running.pop(request_id, None)
            self.pending.pop(request_id, None)

    def step(self) -> list[FakeOutput]:
        if self.fail:
            raise RuntimeError("engine died")
        prompt_tokens = 0
        if self.pending:
            self.calls.append(
                ([p for p, _, _ in self.pending.values()], [s for _, s, _ in self.pending.values()])
            )
            prompt_tokens = sum(len(p["prompt_token_ids"]) for p, _, _ in self.pending.values())
            self.running.update(self.pending)
            self.pending.clear()
        prefill = self.prefill_step_seconds
        self.clock.now += prefill if prompt_tokens and prefill is not None else self.step_seconds
        self.steps += 1
        outputs = []
        for request_id, (prompt, sampling, number) in list(self.running.items()):
            self.generated[request_id] = done = self.generated.get(request_id, 0) + 1
            limit = min(sampling.max_tokens, self.tokens_per_reply)
            words = ["answer", f"{number}.{{k}}", *["more"] * (done - 2)][:done]
            samples = [
                FakeSample(
                    text=" ".join(words).format(k=k),
                    token_ids=list(range(done)),
                    logprobs=[{7: FakeLogprob(-0.1, "Yes"), 8: FakeLogprob(-2.5, "No")}]
                    if sampling.logprobs
                    else None,
                )
                for k in range(sampling.n)
            ]
            finished = done >= limit
            outputs.append(FakeOutput(request_id, finished, samples))
            if finished:
                del self.running[request_id]
        stats = types.SimpleNamespace(
            num_prompt_tokens_iter=prompt_tokens, num_generation_tokens_iter=len(outputs)
        )
        for logger in self.stat_loggers.values():
            if hasattr(logger, "log"):
                logger.log(stats)
        return outputs


class FakeLLM:
    instances: list["FakeLLM"] = []

    def __init__(self, **engine_args: Any):
        self.engine_args = engine_args
        self.llm_engine = FakeEngine()
        FakeLLM.instances.append(self)

    @property
    def calls(self) -> list[tuple[list[dict], list[FakeSamplingParams]]]:
        return self.llm_engine.calls

    def get_tokenizer(self):
        return FakeTokenizer()


@pytest.fixture
def backend(monkeypatch):
    fake_vllm = types.ModuleType("vllm")
    fake_vllm.LLM, fake_vllm.SamplingParams = FakeLLM, FakeSamplingParams
    fake_sampling = types.ModuleType("vllm.sampling_params")
    fake_sampling.GuidedDecodingParams = FakeGuidedDecodingParams
    fake_metrics = types.ModuleType("vllm.engine.metrics_types")
    fake_metrics.StatLoggerBase = FakeStatLoggerBase
    monkeypatch.setitem(sys.modules, "vllm", fake_vllm)
    monkeypatch.setitem(sys.modules, "vllm.sampling_params", fake_sampling)
    monkeypatch.setitem(sys.modules, "vllm.engine.metrics_types", fake_metrics)
    for name in ("VLLM_USE_V1", "VLLM_NO_USAGE_STATS", "DO_NOT_TRACK"):
        monkeypatch.delenv(name, raising=False)
    FakeLLM.instances.clear()
    backend = VLLMBackend(load_config("t4x4").llm)
    assert FakeLLM.instances == []  # building starts no engine; warm_up does
    backend.warm_up([])
    engine = FakeLLM.instances[0].llm_engine
    engine.start_up_calls = list(engine.calls)
    engine.calls.clear()
    backend.clock = engine.clock
    return backend


def _conversation(words: int) -> list[dict[str, str]]:
    return [{"role": "system", "content": "Be brief."}, {"role": "user", "content": " ".join(["w"] * words)}]


def test_backend_starts_vllm_with_the_engine_arguments_offline_and_on_v0(backend):
    import os

    assert FakeLLM.instances[0].engine_args == vllm_engine_args(load_config("t4x4").llm)
    assert os.environ["VLLM_USE_V1"] == "0"
    assert os.environ["VLLM_NO_USAGE_STATS"] == "1"


def test_one_generate_call_for_the_batch_with_sampling_parameters(backend):
    params = GenerationParams(max_tokens=33, temperature=0.7, top_p=0.9, n=3, stop=("\n\n",), seed=5)
    completions = backend.generate([_conversation(3), _conversation(4)], params)
    llm = FakeLLM.instances[0]
    assert len(llm.calls) == 1
    prompts, [sampling, _] = llm.calls[0]
    assert [len(p["prompt_token_ids"]) for p in prompts] == [4, 5]
    assert (sampling.n, sampling.temperature, sampling.top_p, sampling.max_tokens) == (3, 0.7, 0.9, 33)
    assert (sampling.stop, sampling.seed, sampling.guided_decoding) == (["\n\n"], 5, None)
    assert completions[1].texts == ["answer 1.0", "answer 1.1", "answer 1.2"]
    assert (completions[1].prompt_tokens, completions[1].completion_tokens) == (5, 6)


def test_start_up_sends_one_guided_request_so_the_grammar_machinery_is_ready(backend):
    [(prompts, sampling)] = FakeLLM.instances[0].llm_engine.start_up_calls
    assert len(prompts) == 1 and sampling[0].max_tokens == 1
    assert sampling[0].guided_decoding.json == START_UP_SCHEMA


def test_every_request_stops_at_the_end_of_turn_token_id(backend):
    backend.generate([_conversation(2)], GenerationParams(stop=("\n\n",)))
    sampling = FakeLLM.instances[0].calls[0][1][0]
    assert sampling.stop_token_ids == [128009] and sampling.stop == ["\n\n"]


def test_a_stop_token_the_tokenizer_lacks_fails_at_start_up(backend):
    config = load_config("t4x4").llm
    config.stop_special_tokens = ("<|im_end|>",)
    with pytest.raises(ValueError, match="im_end"):
        VLLMBackend(config).warm_up([])


def test_warm_up_sends_each_distinct_schema_once_in_one_call(backend):
    first = {"type": "object", "properties": {"a": {"type": "string", "maxLength": 5}}}
    second = {"type": "object", "properties": {"b": {"type": "string"}}}
    backend.warm_up([first, second, dict(first)])
    calls = FakeLLM.instances[0].calls
    assert len(calls) == 1
    prompts, sampling = calls[0]
    assert len(prompts) == 2 and [s.guided_decoding.json for s in sampling] == [first, second]
    assert all(s.max_tokens == 1 for s in sampling)


def test_warm_up_without_schemas_sends_nothing(backend):
    backend.warm_up([])
    assert FakeLLM.instances[0].calls == []


def test_greedy_samples_are_generated_once_and_repeated(backend):
    completions = backend.generate([_conversation(2)], GenerationParams(n=3, temperature=0.0))
    assert FakeLLM.instances[0].calls[0][1][0].n == 1
    assert completions[0].texts == ["answer 0.0"] * 3


def test_json_schema_and_grammar_become_guided_decoding(backend):
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}}
    backend.generate([_conversation(2)], GenerationParams(json_schema=schema))
    backend.generate([_conversation(2)], GenerationParams(grammar='root ::= "yes" | "no"'))
    first, second = (call[1][0].guided_decoding for call in FakeLLM.instances[0].calls)
    assert first.json == schema and first.grammar is None
    assert second.grammar == 'root ::= "yes" | "no"' and second.json is None


def test_first_token_logprobs_are_keyed_by_token_text(backend):
    completion = backend.generate([_conversation(2)], GenerationParams(first_token_logprobs=2))[0]
    assert FakeLLM.instances[0].calls[0][1][0].logprobs == 2
    assert completion.first_token_logprobs == {"Yes": -0.1, "No": -2.5}


def test_a_prompt_longer_than_the_context_fails_alone(backend):
    completions = backend.generate([_conversation(2), _conversation(60)], GenerationParams())
    prompts, _ = FakeLLM.instances[0].calls[0]
    assert len(prompts) == 1
    assert completions[0].texts == ["answer 0.0"] and completions[0].error is None
    assert completions[1].texts == [] and "max_model_len" in completions[1].error


def test_an_engine_failure_becomes_per_conversation_errors(backend):
    FakeLLM.instances[0].llm_engine.fail = True
    completions = backend.generate([_conversation(2), _conversation(3)], GenerationParams())
    assert all(c.texts == [] and "engine died" in c.error for c in completions)


def test_token_counting_uses_the_model_tokenizer_without_special_tokens(backend):
    assert backend.count_tokens("one two three") == 3


def test_vllms_own_stat_loggers_give_way_to_the_step_recorder(backend):
    assert list(FakeLLM.instances[0].llm_engine.stat_loggers) == ["crag-steps"]


def test_each_engine_step_is_reported_with_its_prompt_tokens_sequences_and_seconds(backend):
    engine = FakeLLM.instances[0].llm_engine
    engine.step_seconds, engine.tokens_per_reply = 0.25, 3
    steps = []
    backend.step_observer = steps.append
    backend.generate([_conversation(2), _conversation(3)], GenerationParams(max_tokens=10))
    assert [(s.prompt_tokens, s.sequences, s.seconds) for s in steps] == [
        (7, 2, 0.25),
        (0, 2, 0.25),
        (0, 2, 0.25),
    ]


def test_a_call_stops_before_a_step_would_pass_its_time_limit_and_keeps_what_it_has(backend):
    engine = FakeLLM.instances[0].llm_engine
    engine.step_seconds, engine.tokens_per_reply = 1.0, 10
    limit, before = TimeLimit(engine.clock.now + 3.5, engine.clock), engine.steps
    with backend.limited(limit):
        completions = backend.generate([_conversation(2), _conversation(3)], GenerationParams(max_tokens=10))
    assert engine.clock.now <= limit.at
    assert engine.steps - before == 3 and not engine.has_unfinished_requests()
    assert len(engine.aborted) == 2
    for number, completion in enumerate(completions):
        assert completion.cut and "batch deadline" in completion.error
        assert completion.texts == [f"answer {number}.0 more"]
        assert completion.completion_tokens == 3


def test_decoding_goes_on_until_one_decode_step_no_longer_fits_however_long_prefill_steps_are(backend):
    engine = FakeLLM.instances[0].llm_engine
    engine.prefill_step_seconds, engine.step_seconds, engine.tokens_per_reply = 5.0, 0.25, 3
    backend.generate([_conversation(2)], GenerationParams(max_tokens=3))  # both kinds of step seen
    engine.tokens_per_reply = 100
    limit = TimeLimit(engine.clock.now + 8.0, engine.clock)
    with backend.limited(limit):
        [completion] = backend.generate([_conversation(2)], GenerationParams(max_tokens=100))
    # 5 s of prefill, then 11 decode steps of 0.25 s: stopped once the time left is under a decode
    # step times llm.step_safety_factor (1.5).
    assert completion.cut and completion.completion_tokens == 12
    assert limit.at - 1.5 * 0.25 <= engine.clock.now <= limit.at


def test_the_stop_asks_the_cost_model_for_each_step_as_the_scheduler_will_run_it(backend):
    engine = FakeLLM.instances[0].llm_engine
    engine.step_seconds, engine.tokens_per_reply = 0.5, 3
    asked = []

    def predictor(prompt_tokens, sequences, context_tokens):
        asked.append((prompt_tokens, sequences, context_tokens))
        return 0.5

    backend.step_predictor = predictor
    backend.generate(
        [_conversation(2), _conversation(3)], GenerationParams(max_tokens=10, n=2, temperature=0.7)
    )
    # the prompts (3 + 4 tokens) first; then 2 x 2 sequences reading their prompts and their replies so far
    assert asked == [(7, 0, 0), (0, 4, 2 * (3 + 1) + 2 * (4 + 1)), (0, 4, 2 * (3 + 2) + 2 * (4 + 2))]


def test_a_call_whose_limit_has_passed_runs_no_step(backend):
    engine = FakeLLM.instances[0].llm_engine
    before = engine.steps
    with backend.limited(TimeLimit(engine.clock.now - 1.0, engine.clock)):
        [completion] = backend.generate([_conversation(2)], GenerationParams(max_tokens=10))
    assert engine.steps == before and completion.cut and completion.texts == []


@pytest.mark.parametrize("step_seconds", [0.05, 0.4, 1.7, 4.9])
@pytest.mark.parametrize("seconds_left", [0.5, 3.0, 12.0, 40.0])
def test_no_call_runs_past_its_limit_whatever_the_step_length(backend, step_seconds, seconds_left):
    engine = FakeLLM.instances[0].llm_engine
    engine.step_seconds, engine.tokens_per_reply = step_seconds, 200
    backend.generate([_conversation(2)], GenerationParams(max_tokens=1))  # one step seen before
    limit = TimeLimit(engine.clock.now + seconds_left, engine.clock)
    with backend.limited(limit):
        backend.generate([_conversation(2), _conversation(2)], GenerationParams(max_tokens=200))
    assert engine.clock.now <= limit.at
    assert not engine.has_unfinished_requests()


def test_the_kv_cache_size_is_the_engines_own(backend):
    assert backend.kv_cache_tokens() == 160
