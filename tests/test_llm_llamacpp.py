"""The llama.cpp backend on the real embedded model (few, short generations)."""

from __future__ import annotations

import json
import math
import time

import pytest

from models.llm import Completion, GenerationParams
from models.llm.base import TimeLimit


def ask(text: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": "You are a terse assistant."}, {"role": "user", "content": text}]


CITY_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "population_millions": {"type": "number"}},
    "required": ["city", "population_millions"],
}


def assert_city_json(completion: Completion) -> None:
    assert completion.error is None, completion.error
    value = json.loads(completion.text)
    assert isinstance(value["city"], str) and value["city"]
    assert isinstance(value["population_millions"], (int, float))


@pytest.mark.model
def test_batch_keeps_order_and_reports_tokens(embedded_llm):
    words = ["apple", "river"]
    completions = embedded_llm.generate(
        [ask(f"Reply with exactly this word and nothing else: {word}") for word in words],
        GenerationParams(max_tokens=8),
    )
    assert len(completions) == 2
    for word, completion in zip(words, completions, strict=True):
        assert completion.error is None
        assert word in completion.text.lower()
        assert completion.prompt_tokens > 10 and completion.completion_tokens > 0


@pytest.mark.model
def test_n_samples_with_seeds_and_greedy_repeats(embedded_llm):
    conversation = ask("Name one colour.")
    sampled = embedded_llm.generate(
        [conversation], GenerationParams(max_tokens=6, temperature=1.0, n=2, seed=3)
    )[0]
    assert sampled.error is None and len(sampled.texts) == 2 and all(sampled.texts)
    # The second sample keeps the first's prompt but its last token.
    assert sampled.evaluated_prompt_tokens == sampled.prompt_tokens + 1
    assert sampled.reused_prompt_tokens == sampled.prompt_tokens - 1
    embedded_llm.generate([ask("Say hi.")], GenerationParams(max_tokens=2))
    again = embedded_llm.generate(
        [conversation], GenerationParams(max_tokens=6, temperature=1.0, n=2, seed=3)
    )[0]
    assert again.texts == sampled.texts, "the same seed must reproduce the samples, whatever ran before"
    greedy = embedded_llm.generate([conversation], GenerationParams(max_tokens=6, n=2))[0]
    assert len(greedy.texts) == 2 and greedy.texts[0] == greedy.texts[1]


@pytest.mark.model
def test_stop_sequence_ends_the_text(embedded_llm):
    completion = embedded_llm.generate(
        [ask("Count from 1 to 9, separated by commas, with no other text.")],
        GenerationParams(max_tokens=30, stop=("5",)),
    )[0]
    assert completion.error is None
    assert "3" in completion.text and "5" not in completion.text and "9" not in completion.text


@pytest.mark.model
def test_json_schema_output_parses_and_validates(embedded_llm):
    completion = embedded_llm.generate(
        [ask("Give the largest city of Japan and its population as JSON.")],
        GenerationParams(max_tokens=40, json_schema=CITY_SCHEMA),
    )[0]
    assert_city_json(completion)


@pytest.mark.model
def test_grammar_restricts_the_answer(embedded_llm):
    completion = embedded_llm.generate(
        [ask("Is the sky green? Answer yes or no.")],
        GenerationParams(max_tokens=4, grammar='root ::= "yes" | "no"'),
    )[0]
    assert completion.error is None and completion.text in {"yes", "no"}


@pytest.mark.model
def test_first_token_logprobs_rank_the_chosen_token_first(embedded_llm):
    completion = embedded_llm.generate(
        [ask("What is 2 + 2? Reply with the digit only.")],
        GenerationParams(max_tokens=3, first_token_logprobs=5),
    )[0]
    logprobs = completion.first_token_logprobs
    assert completion.error is None and logprobs is not None and 1 <= len(logprobs) <= 5
    assert all(value <= 0 for value in logprobs.values())
    assert sum(math.exp(value) for value in logprobs.values()) <= 1.0 + 1e-4
    best = max(logprobs, key=logprobs.get)
    assert completion.text.startswith(best), (completion.text, logprobs)


@pytest.mark.model
def test_count_tokens_uses_the_model_tokenizer(embedded_llm):
    assert embedded_llm.count_tokens("") == 0
    assert embedded_llm.count_tokens("hello world") == 2
    text = "one two three four five six seven eight"
    shortened = embedded_llm.truncate_to_tokens(text, 4)
    assert text.startswith(shortened) and embedded_llm.count_tokens(shortened) <= 4


@pytest.mark.model
def test_bad_inputs_give_error_completions_not_exceptions(embedded_llm):
    too_long = ask("word " * (embedded_llm.config.context_tokens + 100))
    completions = embedded_llm.generate([too_long, ask("Say hi.")], GenerationParams(max_tokens=4))
    assert completions[0].texts == [] and "too long" in completions[0].error
    assert completions[1].error is None and completions[1].text

    broken = embedded_llm.generate(
        [ask("Say hi.")], GenerationParams(max_tokens=4, grammar="root ::= undefined_rule")
    )
    assert broken[0].texts == [] and broken[0].error


@pytest.mark.model
def test_warm_up_compiles_each_schema_once_and_rejects_a_broken_one(embedded_llm):
    embedded_llm.warm_up([CITY_SCHEMA])
    compiled = dict(embedded_llm._grammars)
    assert len(compiled) >= 1
    embedded_llm.warm_up([CITY_SCHEMA])
    assert embedded_llm._grammars == compiled  # cached, not rebuilt
    with pytest.raises(ValueError, match="grammar"):
        embedded_llm.warm_up([{"type": "object", "properties": {"x": {"type": "no-such-type"}}}])


class TickingClock:
    """Time that moves only when read (0.05 s a read): the backend's stops become deterministic."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.05
        return self.now


@pytest.mark.model
def test_generation_stops_between_tokens_before_the_time_limit(embedded_llm):
    clock, steps = TickingClock(), []
    embedded_llm.clock = clock
    # prompt speeds known on the same clock: most of the recent ones (the median counts), so a first
    # prompt read while the machine was busy or the weights were paged in does not refuse this one
    for _ in range(3):
        embedded_llm.generate([ask("Say hi.")], GenerationParams(max_tokens=2))
    embedded_llm.step_observer = steps.append
    limit = TimeLimit(clock.now + 20.0, clock)  # ~200 tokens of ticks
    try:
        with embedded_llm.limited(limit):
            [completion] = embedded_llm.generate(
                [ask("Count from 1 to 500, separated by spaces.")], GenerationParams(max_tokens=1000)
            )
    finally:
        embedded_llm.clock, embedded_llm.step_observer = time.monotonic, None
    assert clock.now <= limit.at
    assert completion.cut and "batch deadline" in completion.error
    assert completion.text.startswith("1") and 10 < completion.completion_tokens < 1000
    assert steps[0].prompt_tokens > 0 and all(step.sequences == 1 for step in steps[1:])


@pytest.mark.model
def test_a_prompt_that_would_not_be_read_in_time_is_not_started(embedded_llm):
    embedded_llm.generate([ask("Say hi.")], GenerationParams(max_tokens=2))
    with embedded_llm.limited(TimeLimit(time.monotonic() + 0.05)):
        [completion] = embedded_llm.generate([ask("word " * 2000)], GenerationParams(max_tokens=4))
    assert completion.cut and completion.texts == []


# ~600 tokens shared by the conversations below: more than one evaluation chunk (llm.batch_tokens).
SHARED_INSTRUCTIONS = " ".join(
    f"Rule {n}: answer from the references only, name the page you used, and keep the answer under ten words."
    for n in range(1, 31)
)


@pytest.mark.model
def test_the_same_conversations_in_two_orders_give_identical_replies(embedded_llm):
    """A reply must not depend on the conversation before it on the same context: reusing the cached
    prefix up to where two prompts differ shifts the evaluation chunks, and with them the logits."""
    conversations = [
        [{"role": "system", "content": SHARED_INSTRUCTIONS}, {"role": "user", "content": question}]
        for question in ("Which river flows through Paris?", "Who wrote Hamlet? Reply with the name alone.")
    ]
    params = GenerationParams(max_tokens=8, first_token_logprobs=5)
    forward = embedded_llm.generate(conversations, params)
    backward = embedded_llm.generate(conversations[::-1], params)[::-1]
    for one, other in zip(forward, backward, strict=True):
        assert one.error is None and other.error is None
        assert one.texts == other.texts
        assert one.first_token_logprobs == other.first_token_logprobs  # to the last bit
        assert one.prompt_tokens > 512  # the shared part spans a whole chunk, which is reused


@pytest.mark.model
def test_a_system_message_restored_from_its_saved_state_gives_the_replies_of_an_empty_context(
    embedded_llm, monkeypatch
):
    """Each system message's KV state is saved the first time it is read and restored for later
    conversations, here after another system message took the context; the replies are those of an
    empty context, to the last bit, and the reused tokens are counted."""
    model = embedded_llm._model()
    monkeypatch.setattr(model, "_prefix_states", 16)  # llm.prefix_states=16 (off by default)
    instructions = "Reply with a short phrase. " + SHARED_INSTRUCTIONS[:300]  # under one chunk
    conversations = [
        [{"role": "system", "content": instructions}, {"role": "user", "content": question}]
        for question in (
            "Which river flows through Paris?",
            "Who wrote Hamlet?",
            "What is the capital of Peru?",
        )
    ]
    params = GenerationParams(max_tokens=8, first_token_logprobs=5)

    def from_an_empty_context(conversation):
        model._states.clear()
        model.reset()
        return embedded_llm.generate([conversation], params)[0]

    scratch = [from_an_empty_context(conversation) for conversation in conversations]
    model._states.clear()
    reused = []
    for conversation in conversations:
        embedded_llm.generate([ask("Say hi.")], GenerationParams(max_tokens=2))
        reused.append(embedded_llm.generate([conversation], params)[0])
    for one, other in zip(scratch, reused, strict=True):
        assert one.error is None and other.error is None
        assert one.texts == other.texts
        assert one.first_token_logprobs == other.first_token_logprobs  # to the last bit
        assert one.reused_prompt_tokens == 0 and one.evaluated_prompt_tokens == one.prompt_tokens
        assert other.reused_prompt_tokens + other.evaluated_prompt_tokens == other.prompt_tokens
        assert one.prompt_seconds > 0 and one.decode_seconds > 0
    assert reused[0].reused_prompt_tokens == 0  # the first reads it
    assert all(40 < c.reused_prompt_tokens < 512 for c in reused[1:])  # the others restore it


@pytest.mark.model
def test_greedy_json_replies_keep_their_identity_with_the_sampler_chain(embedded_llm, monkeypatch):
    """Greedy decoding under a grammar checks the most likely token first: the same tokens as the
    sampler chain, which checks the whole vocabulary against the grammar (here a JSON schema's)."""
    from llama_cpp import Llama

    from models.llm.llamacpp_backend import ChunkAlignedLlama

    conversations = [
        ask("Give the largest city of Japan and its population in millions as JSON."),
        ask("Which city hosted the 2012 Summer Olympics? Reply as JSON with its population in millions."),
    ]
    params = GenerationParams(max_tokens=40, json_schema=CITY_SCHEMA, first_token_logprobs=3)
    checked_first = embedded_llm.generate(conversations, params)
    monkeypatch.setattr(ChunkAlignedLlama, "sample", Llama.sample)
    chain = embedded_llm.generate(conversations, params)
    for one, other in zip(checked_first, chain, strict=True):
        assert_city_json(one)
        assert one.texts == other.texts and one.first_token_logprobs == other.first_token_logprobs
        assert one.completion_tokens == other.completion_tokens > 5


def test_the_model_identity_names_the_weights_and_the_chunk_size_not_the_threads():
    from models.config import LLMConfig
    from models.llm.llamacpp_backend import LlamaCppBackend

    identity = LlamaCppBackend(LLMConfig()).model_identity()  # nothing loads
    assert LLMConfig().embedded_sha256 in identity and "chunks of 512 tokens" in identity
    assert "later samples from the first's prompt" in identity  # replies sampled before are not reused
    assert LlamaCppBackend(LLMConfig(prefix_states=16)).model_identity() != identity
    assert LlamaCppBackend(LLMConfig(threads=1)).model_identity() == identity
    assert LlamaCppBackend(LLMConfig(batch_tokens=256)).model_identity() != identity
