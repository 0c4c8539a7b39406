"""The t4x4 vLLM engine arguments, and VLLMBackend's mapping onto vLLM's API (with a fake vllm module)."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, field
from typing import Any

import pytest

from models.config import LLMConfig, REPO_ROOT, load_config
from models.llm.base import GenerationParams
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
    outputs: list[FakeSample] = field(default_factory=list)


class FakeLLM:
    instances: list["FakeLLM"] = []

    def __init__(self, **engine_args: Any):
        self.engine_args = engine_args
        self.calls: list[tuple[list[dict], FakeSamplingParams]] = []
        self.llm_engine = types.SimpleNamespace(model_config=types.SimpleNamespace(max_model_len=40))
        self.fail = False
        FakeLLM.instances.append(self)

    def get_tokenizer(self):
        return FakeTokenizer()

    def generate(self, prompts, sampling_params, use_tqdm):
        self.calls.append((prompts, sampling_params))
        if self.fail:
            raise RuntimeError("engine died")
        outputs = []
        for number, prompt in enumerate(prompts):
            sampling = sampling_params[number] if isinstance(sampling_params, list) else sampling_params
            samples = [
                FakeSample(
                    text=f"answer {number}.{k}",
                    token_ids=[1, 2],
                    logprobs=[{7: FakeLogprob(-0.1, "Yes"), 8: FakeLogprob(-2.5, "No")}] if sampling.logprobs else None,
                )
                for k in range(sampling.n)
            ]
            outputs.append(FakeOutput(samples))
        return outputs


@pytest.fixture
def backend(monkeypatch):
    fake_vllm = types.ModuleType("vllm")
    fake_vllm.LLM, fake_vllm.SamplingParams = FakeLLM, FakeSamplingParams
    fake_sampling = types.ModuleType("vllm.sampling_params")
    fake_sampling.GuidedDecodingParams = FakeGuidedDecodingParams
    monkeypatch.setitem(sys.modules, "vllm", fake_vllm)
    monkeypatch.setitem(sys.modules, "vllm.sampling_params", fake_sampling)
    for name in ("VLLM_USE_V1", "VLLM_NO_USAGE_STATS", "DO_NOT_TRACK"):
        monkeypatch.delenv(name, raising=False)
    FakeLLM.instances.clear()
    backend = VLLMBackend(load_config("t4x4").llm)
    assert FakeLLM.instances == []  # building starts no engine; warm_up does
    backend.warm_up([])
    FakeLLM.instances[0].start_up_calls = list(FakeLLM.instances[0].calls)
    FakeLLM.instances[0].calls.clear()
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
    prompts, sampling = llm.calls[0]
    assert [len(p["prompt_token_ids"]) for p in prompts] == [4, 5]
    assert (sampling.n, sampling.temperature, sampling.top_p, sampling.max_tokens) == (3, 0.7, 0.9, 33)
    assert (sampling.stop, sampling.seed, sampling.guided_decoding) == (["\n\n"], 5, None)
    assert completions[1].texts == ["answer 1.0", "answer 1.1", "answer 1.2"]
    assert (completions[1].prompt_tokens, completions[1].completion_tokens) == (5, 6)


def test_start_up_sends_one_guided_request_so_the_grammar_machinery_is_ready(backend):
    [(prompts, sampling)] = FakeLLM.instances[0].start_up_calls
    assert len(prompts) == 1 and sampling[0].max_tokens == 1
    assert sampling[0].guided_decoding.json == START_UP_SCHEMA


def test_every_request_stops_at_the_end_of_turn_token_id(backend):
    backend.generate([_conversation(2)], GenerationParams(stop=("\n\n",)))
    sampling = FakeLLM.instances[0].calls[0][1]
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
    assert FakeLLM.instances[0].calls[0][1].n == 1
    assert completions[0].texts == ["answer 0.0"] * 3


def test_json_schema_and_grammar_become_guided_decoding(backend):
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}}
    backend.generate([_conversation(2)], GenerationParams(json_schema=schema))
    backend.generate([_conversation(2)], GenerationParams(grammar='root ::= "yes" | "no"'))
    first, second = (call[1].guided_decoding for call in FakeLLM.instances[0].calls)
    assert first.json == schema and first.grammar is None
    assert second.grammar == 'root ::= "yes" | "no"' and second.json is None


def test_first_token_logprobs_are_keyed_by_token_text(backend):
    completion = backend.generate([_conversation(2)], GenerationParams(first_token_logprobs=2))[0]
    assert FakeLLM.instances[0].calls[0][1].logprobs == 2
    assert completion.first_token_logprobs == {"Yes": -0.1, "No": -2.5}


def test_a_prompt_longer_than_the_context_fails_alone(backend):
    completions = backend.generate([_conversation(2), _conversation(60)], GenerationParams())
    prompts, _ = FakeLLM.instances[0].calls[0]
    assert len(prompts) == 1
    assert completions[0].texts == ["answer 0.0"] and completions[0].error is None
    assert completions[1].texts == [] and "max_model_len" in completions[1].error


def test_an_engine_failure_becomes_per_conversation_errors(backend):
    FakeLLM.instances[0].fail = True
    completions = backend.generate([_conversation(2), _conversation(3)], GenerationParams())
    assert all(c.texts == [] and "engine died" in c.error for c in completions)


def test_token_counting_uses_the_model_tokenizer_without_special_tokens(backend):
    assert backend.count_tokens("one two three") == 3
