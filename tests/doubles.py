"""A scripted stand-in for an LLM backend, so stages can be tested without a model."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable, Sequence

from models.llm.base import Completion, Conversation, GenerationParams, LLMBackend, cut_by_limit

if TYPE_CHECKING:
    from models.pipeline import Parts

Reply = str | list[str] | Callable[[Conversation, GenerationParams], str | list[str]]


class ScriptedLLM(LLMBackend):
    """Answers each conversation with the next scripted reply (or a function of the conversation).

    Records every call in `calls` as (conversations, params) so tests can assert how a stage
    batched its requests.
    """

    name = "scripted"

    def __init__(
        self, replies: Sequence[Reply] | Callable[[Conversation, GenerationParams], str | list[str]]
    ):
        self._replies = replies
        self._position = 0
        self.calls: list[tuple[list[Conversation], GenerationParams]] = []

    def generate(self, conversations: Sequence[Conversation], params: GenerationParams) -> list[Completion]:
        self.calls.append((list(conversations), params))
        completions = []
        for conversation in conversations:
            reply = self._next_reply(conversation, params)
            texts = reply if isinstance(reply, list) else [reply] * params.n
            prompt_text = " ".join(message["content"] for message in conversation)
            completions.append(
                Completion(
                    texts=list(texts),
                    prompt_tokens=self.count_tokens(prompt_text),
                    completion_tokens=sum(self.count_tokens(t) for t in texts),
                )
            )
        return completions

    def _next_reply(self, conversation: Conversation, params: GenerationParams) -> str | list[str]:
        if callable(self._replies):
            return self._replies(conversation, params)
        if self._position >= len(self._replies):
            raise AssertionError(f"ScriptedLLM ran out of replies after {self._position}")
        reply = self._replies[self._position]
        self._position += 1
        return reply(conversation, params) if callable(reply) else reply

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def model_identity(self) -> str:
        return "scripted"


def fake_kg_api(monkeypatch, answer: Callable[[str, dict], object]) -> list:
    """Serves every KG API call of the stage from `answer(route, body)` through the real scheduler,
    with no server; returns the list that records each call sent (`models.kg.routes.ApiCall`)."""
    from models.kg.client import CallResult, KGClient

    sent: list = []

    def call(self, api_call, deadline=None):
        sent.append(api_call)
        return CallResult(api_call, result=answer(api_call.route, api_call.body))

    monkeypatch.setattr(KGClient, "call", call)
    monkeypatch.setattr(KGClient, "is_up", lambda self, seconds=None: True)
    monkeypatch.setenv("CRAG_MOCK_API_URL", "http://kg.invalid")
    return sent


class SimulatedClock:
    """Wall time plus the simulated seconds of a `TimedLLM` (an engine that is not really here)."""

    def __init__(self) -> None:
        self._origin = time.perf_counter()
        self.simulated = 0.0

    def __call__(self) -> float:
        return time.perf_counter() - self._origin + self.simulated


class TimedLLM(ScriptedLLM):
    """A scripted model on a simulated engine: a call costs `overhead_s`, its prompts are read in
    steps of `step_tokens` tokens, then every sequence gets one token per `decode_step_s` step.
    Like the real backends it stops before a step that would pass the call's time limit, keeping
    the words generated so far (`Completion.cut`)."""

    def __init__(
        self,
        replies,
        clock: SimulatedClock,
        prefill_s_per_token: float,
        decode_step_s: float,
        overhead_s: float = 0.1,
        step_tokens: int = 512,
    ):
        super().__init__(replies)
        self.clock = clock
        self.prefill_s_per_token, self.decode_step_s = prefill_s_per_token, decode_step_s
        self.overhead_s, self.step_tokens = overhead_s, step_tokens
        self.cuts = 0

    def generate(self, conversations: Sequence[Conversation], params: GenerationParams) -> list[Completion]:
        completions = super().generate(conversations, params)
        self.clock.simulated += self.overhead_s
        prompt = sum(c.prompt_tokens for c in completions) * (params.n if params.temperature > 0 else 1)
        chunks = [self.step_tokens] * (prompt // self.step_tokens) + [prompt % self.step_tokens]
        prefill = [(tokens, 0, tokens * self.prefill_s_per_token) for tokens in chunks]
        tokens = min(
            params.max_tokens, max((len(t.split()) for c in completions for t in c.texts), default=0)
        )
        sequences = len(conversations) * params.n
        read = self._run(prefill) == len(prefill)
        generated = self._run([(0, sequences, self.decode_step_s)] * tokens) if read else 0
        if read and generated == tokens:
            return completions
        self.cuts += 1
        for completion in completions:
            completion.texts = [" ".join(text.split()[:generated]) for text in completion.texts]
            completion.cut, completion.error = True, cut_by_limit(generated)
        return completions

    def _run(self, steps: list[tuple[int, int, float]]) -> int:
        """Runs the (prompt tokens, sequences, seconds) steps until one would pass the time limit;
        how many ran."""
        for done, (prompt_tokens, sequences, seconds) in enumerate(steps):
            if self.seconds_left() < seconds:
                return done
            self.clock.simulated += seconds
            self.observe_step(prompt_tokens, sequences, seconds)
        return len(steps)


def scripted_parts(**overrides: str) -> Parts:
    """The parts a stage is built from, on the cpu preset with `overrides`, around a scripted LLM with
    no reply (a stage under test that calls it fails loudly) and no planner."""
    from models.config import load_config
    from models.embeddings import SentenceEncoder
    from models.pipeline import Parts
    from models.prompts import PromptLibrary

    config = load_config("cpu", overrides)
    encoder = SentenceEncoder(config.retrieval.embedding_model)
    return Parts(config, ScriptedLLM([]), PromptLibrary(), encoder, planner=None)  # type: ignore[arg-type]
