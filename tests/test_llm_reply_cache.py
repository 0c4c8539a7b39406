"""models/llm/reply_cache.py: replies by exact request, shared by processes, never a cut one."""

from __future__ import annotations

import dataclasses
import multiprocessing
from pathlib import Path

import pytest

from models.config import LLMConfig
from models.llm import TokenUsage, create_backend
from models.llm.base import Completion, GenerationParams, StepTiming, TimeLimit
from models.llm.reply_cache import CachedBackend, ReplyStore, request_key
from tests.doubles import ScriptedLLM


def conversation(text: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": text}]


def echo(conv, params) -> str:
    return f"reply to {conv[-1]['content']}"


def cached_llm(tmp_path: Path, replies=echo) -> tuple[CachedBackend, ScriptedLLM]:
    inner = ScriptedLLM(replies)
    return CachedBackend(inner, ReplyStore(tmp_path / "replies.sqlite")), inner


def test_a_request_answered_before_comes_from_the_store_and_only_new_ones_reach_the_model(tmp_path):
    llm, inner = cached_llm(tmp_path)
    params = GenerationParams(max_tokens=8)
    first = llm.generate([conversation("a"), conversation("b")], params)
    assert [c.text for c in first] == ["reply to a", "reply to b"] and not any(c.cached for c in first)

    mixed = llm.generate([conversation("c"), conversation("a"), conversation("b")], params)
    assert [c.text for c in mixed] == ["reply to c", "reply to a", "reply to b"]  # in order
    assert [c.cached for c in mixed] == [False, True, True]
    assert (mixed[1].prompt_tokens, mixed[1].completion_tokens) == (
        first[0].prompt_tokens,
        first[0].completion_tokens,
    )
    assert [[conv[-1]["content"] for conv in call] for call, _ in inner.calls] == [
        ["a", "b"],
        ["c"],
    ]  # one call a batch
    assert (llm.hits, llm.misses) == (2, 3)

    usage = TokenUsage()
    for completion in mixed:
        usage.add(completion)
    assert (usage.calls, usage.cached) == (3, 2)

    # another process (here: another store on the same file) finds them too
    again, again_inner = cached_llm(tmp_path)
    assert [c.text for c in again.generate([conversation("a")], params)] == ["reply to a"]
    assert again_inner.calls == []


@pytest.mark.parametrize(
    "change",
    [
        {"max_tokens": 9},
        {"temperature": 0.5},
        {"top_p": 0.9},
        {"n": 2},
        {"stop": ("\n",)},
        {"seed": 1},
        {"json_schema": {"type": "object"}},
        {"grammar": 'root ::= "x"'},
        {"first_token_logprobs": 5},
    ],
)
def test_every_generation_parameter_is_part_of_the_key(change):
    base = GenerationParams(max_tokens=8)
    assert request_key("m", conversation("a"), dataclasses.replace(base, **change)) != request_key(
        "m", conversation("a"), base
    )


def test_the_model_and_every_message_are_part_of_the_key():
    params = GenerationParams()
    key = request_key("m", conversation("a"), params)
    assert request_key("other model", conversation("a"), params) != key
    assert request_key("m", conversation("b"), params) != key
    assert (
        request_key("m", [{"role": "system", "content": "Answer at length."}, conversation("a")[1]], params)
        != key
    )
    assert request_key("m", [{**conversation("a")[0], "role": "user"}, conversation("a")[1]], params) != key
    assert request_key("m", conversation("a"), GenerationParams()) == key  # and nothing else


def test_a_cut_or_failed_reply_is_never_stored(tmp_path):
    outcomes = {
        "cut": Completion(texts=["half a rep"], cut=True, error="stopped at the batch deadline"),
        "failed": Completion(texts=[], error="prompt too long"),
        "empty": Completion(texts=[]),
    }

    class Flaky(ScriptedLLM):
        def generate(self, conversations, params):
            self.calls.append((list(conversations), params))
            return [outcomes[conv[-1]["content"]] for conv in conversations]

    inner = Flaky([])
    llm = CachedBackend(inner, ReplyStore(tmp_path / "replies.sqlite"))
    for _ in range(2):
        assert [
            c.cut for c in llm.generate([conversation(name) for name in outcomes], GenerationParams())
        ] == [True, False, False]
    assert len(inner.calls) == 2  # asked again each time
    assert len(llm.store) == 0


def test_the_time_limit_clock_and_step_hooks_reach_the_backend_and_a_hit_reports_no_step(tmp_path):
    llm, inner = cached_llm(tmp_path)
    steps: list[StepTiming] = []
    llm.clock = lambda: 42.0
    llm.step_observer = steps.append
    llm.step_predictor = lambda prompt, sequences, context: 1.0
    assert inner.clock() == 42.0 and inner.step_observer is not None and inner.step_predictor is not None
    limit = TimeLimit(50.0, llm.clock)
    with llm.limited(limit):
        assert inner.time_limit is limit and inner.seconds_left() == 8.0
    assert inner.time_limit is None
    inner.observe_step(10, 0, 0.5)  # the engine's own step is observed
    llm.generate([conversation("a")], GenerationParams())
    seen = len(steps)
    with llm.limited(TimeLimit(0.0, llm.clock)):  # past its limit: a hit still costs nothing
        (hit,) = llm.generate([conversation("a")], GenerationParams())
    assert hit.cached and not hit.cut and hit.text == "reply to a"
    assert len(steps) == seen  # no step for a hit
    assert llm.engine is inner  # what the calibration measures


def _write_replies(path: str, worker: int, count: int) -> None:
    llm = CachedBackend(ScriptedLLM(echo), ReplyStore(path))
    for index in range(count):
        llm.generate([conversation(f"{worker}-{index}"), conversation(f"shared-{index}")], GenerationParams())


def test_several_processes_write_one_store_at_once(tmp_path):
    path = str(tmp_path / "replies.sqlite")
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_write_replies, args=(path, worker, 40)) for worker in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [worker.exitcode for worker in workers] == [0, 0, 0]
    assert len(ReplyStore(path)) == 3 * 40 + 40  # each worker's own requests, and the shared ones once


def test_create_backend_puts_the_cache_in_front_only_when_configured(tmp_path):
    plain = create_backend(LLMConfig(backend="openai", base_url="http://127.0.0.1:9/v1"))
    assert not isinstance(plain, CachedBackend)
    plain.close()
    cached = create_backend(
        LLMConfig(backend="openai", base_url="http://127.0.0.1:9/v1", reply_cache=str(tmp_path / "c.sqlite"))
    )
    assert isinstance(cached, CachedBackend) and cached.name == "openai"
    cached.close()
