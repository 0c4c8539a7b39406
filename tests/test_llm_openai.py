"""The OpenAI-compatible backend against a real local server: llama-cpp-python's own, on the embedded GGUF."""

from __future__ import annotations

import json
import threading
import time

import pytest

from models.config import LLMConfig
from models.llm import GenerationParams, create_backend
from models.llm.base import TimeLimit
from kg_mock.server import free_port


def ask(text: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": "You are a terse assistant."}, {"role": "user", "content": text}]


@pytest.fixture(scope="session")
def server_llm(llama_server):
    backend = create_backend(LLMConfig(backend="openai", base_url=llama_server, max_concurrent_requests=3))
    yield backend
    backend.close()


@pytest.mark.model
def test_concurrent_batch_keeps_order_and_reports_usage(server_llm):
    words = ["apple", "river", "candle"]
    completions = server_llm.generate(
        [ask(f"Reply with exactly this word and nothing else: {word}") for word in words],
        GenerationParams(max_tokens=8),
    )
    assert [completion.error for completion in completions] == [None, None, None]
    for word, completion in zip(words, completions, strict=True):
        assert word in completion.text.lower()
        assert completion.prompt_tokens > 10 and completion.completion_tokens > 0


@pytest.mark.model
def test_n_samples_when_the_server_returns_fewer_choices(server_llm):
    completion = server_llm.generate(
        [ask("Name one colour.")], GenerationParams(max_tokens=6, temperature=1.0, n=2)
    )[0]
    assert completion.error is None and len(completion.texts) == 2 and all(completion.texts)
    assert completion.completion_tokens >= 2


@pytest.mark.model
def test_stop_json_schema_grammar_and_logprobs(server_llm):
    conversations = [
        ask("Count from 1 to 9, separated by commas, with no other text."),
        ask("Give the largest city of Japan and its population as JSON."),
    ]
    stopped = server_llm.generate(conversations[:1], GenerationParams(max_tokens=30, stop=("5",)))[0]
    assert stopped.error is None and "3" in stopped.text and "5" not in stopped.text

    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "population_millions": {"type": "number"}},
        "required": ["city", "population_millions"],
    }
    structured = server_llm.generate(conversations[1:], GenerationParams(max_tokens=40, json_schema=schema))[
        0
    ]
    assert structured.error is None, structured.error
    value = json.loads(structured.text)
    assert isinstance(value["city"], str) and isinstance(value["population_millions"], (int, float))

    yes_no = server_llm.generate(
        [ask("Is the sky green? Answer yes or no.")],
        GenerationParams(max_tokens=4, grammar='root ::= "yes" | "no"', first_token_logprobs=3),
    )[0]
    assert yes_no.error is None and yes_no.text in {"yes", "no"}
    assert yes_no.first_token_logprobs and all(value <= 0 for value in yes_no.first_token_logprobs.values())


@pytest.mark.model
def test_count_tokens_matches_the_model_tokenizer(server_llm, embedded_llm):
    text = "The quick brown fox jumps over the lazy dog, twice."
    assert server_llm.count_tokens(text) == embedded_llm.count_tokens(text)


def test_server_down_gives_error_completions_in_bounded_time():
    config = LLMConfig(
        backend="openai",
        base_url=f"http://127.0.0.1:{free_port()}/v1",
        request_retries=1,
        connect_timeout_s=2.0,
    )
    backend = create_backend(config)
    result: dict[str, object] = {}
    worker = threading.Thread(
        target=lambda: result.update(
            completions=backend.generate([ask("hi"), ask("hello")], GenerationParams(max_tokens=4)),
            tokens=backend.count_tokens("twelve chars"),
        ),
        daemon=True,
    )
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "a dead server must not hang the batch"
    completions = result["completions"]
    assert len(completions) == 2
    assert all(completion.texts == [] and "Connection" in completion.error for completion in completions)
    assert result["tokens"] == 3  # 12 characters at the documented 4 characters per token
    backend.close()


def test_local_tokenizer_counts_tokens(tmp_path):
    from tokenizers import Tokenizer, models, pre_tokenizers

    tokenizer = Tokenizer(models.WordLevel({"hello": 0, "world": 1, "[UNK]": 2}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.save(str(tmp_path / "tokenizer.json"))
    backend = create_backend(LLMConfig(backend="openai", tokenizer_path=str(tmp_path)))
    assert backend.count_tokens("hello world hello") == 3
    backend.close()


def test_a_server_slower_than_the_time_limit_gives_cut_completions_on_time(broken_api):
    def slow(handler):
        time.sleep(5.0)
        handler.send(200, b"{}")

    url = broken_api(slow)
    backend = create_backend(
        LLMConfig(backend="openai", base_url=f"{url}/v1", served_model="m", request_retries=2)
    )
    limit = TimeLimit(time.monotonic() + 1.0)
    started = time.monotonic()
    with backend.limited(limit):
        completions = backend.generate([ask("hi"), ask("hello")], GenerationParams(max_tokens=4))
    assert time.monotonic() - started < 3.0  # neither the 5 s reply nor a retry is waited for
    assert all(c.cut and c.texts == [] and "batch deadline" in c.error for c in completions)
    backend.close()


def test_no_request_is_sent_once_the_time_limit_has_passed(broken_api):
    asked = []
    url = broken_api(lambda handler: asked.append(handler) or handler.send(500, b"{}"))
    backend = create_backend(LLMConfig(backend="openai", base_url=f"{url}/v1", served_model="m"))
    with backend.limited(TimeLimit(time.monotonic() - 1.0)):
        [completion] = backend.generate([ask("hi")], GenerationParams(max_tokens=4))
    assert completion.cut and asked == []
    backend.close()


def _chat_reply(name: str):
    """A server that answers every chat request with its own name, and lists the model `name`'s kind."""

    def respond(handler):
        if handler.command == "GET":
            model = "model-b" if name == "odd" else "model-a"
            handler.send(
                200, json.dumps({"object": "list", "data": [{"id": model, "object": "model"}]}).encode()
            )
            return
        body = {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": "model-a",
            "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": name}}
            ],
            "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4},
        }
        handler.send(200, json.dumps(body).encode())

    return respond


def test_conversations_are_dealt_to_the_listed_servers_in_turn(broken_api):
    first, second = broken_api(_chat_reply("first")), broken_api(_chat_reply("second"))
    backend = create_backend(
        LLMConfig(backend="openai", base_url=f"{first}/v1, {second}/v1", max_concurrent_requests=1)
    )
    completions = backend.generate([ask(str(n)) for n in range(4)], GenerationParams(max_tokens=4))
    assert [c.text for c in completions] == ["first", "second", "first", "second"]
    assert backend.model_identity() == "openai-compatible server, model model-a"  # not the servers' addresses
    backend.close()
    swapped = create_backend(LLMConfig(backend="openai", base_url=f"{second}/v1,{first}/v1"))
    assert swapped.model_identity() == "openai-compatible server, model model-a"
    swapped.close()


def test_servers_of_different_models_are_refused_by_name(broken_api):
    same, odd = broken_api(_chat_reply("first")), broken_api(_chat_reply("odd"))
    backend = create_backend(LLMConfig(backend="openai", base_url=f"{same}/v1,{odd}/v1"))
    with pytest.raises(RuntimeError, match="servers of different models.*model-a.*model-b"):
        backend.model_identity()
    [completion] = backend.generate([ask("hi")], GenerationParams(max_tokens=4))
    assert "servers of different models" in completion.error
    backend.close()
