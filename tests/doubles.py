"""A scripted stand-in for an LLM backend, so stages can be tested without a model."""

from __future__ import annotations

from typing import Callable, Sequence

from models.llm.base import Completion, Conversation, GenerationParams, LLMBackend

Reply = str | list[str] | Callable[[Conversation, GenerationParams], str | list[str]]


class ScriptedLLM(LLMBackend):
    """Answers each conversation with the next scripted reply (or a function of the conversation).

    Records every call in `calls` as (conversations, params) so tests can assert how a stage
    batched its requests.
    """

    name = "scripted"

    def __init__(self, replies: Sequence[Reply] | Callable[[Conversation, GenerationParams], str | list[str]]):
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


def fake_kg_api(monkeypatch, answer: Callable[[str, dict], object]) -> list:
    """Serves every KG API call of the stage from `answer(route, body)` through the real scheduler,
    with no server; returns the list that records each call sent (`models.kg.routes.ApiCall`)."""
    from models.kg.client import CallResult, KGClient

    sent: list = []

    def call(self, api_call, deadline=None):
        sent.append(api_call)
        return CallResult(api_call, result=answer(api_call.route, api_call.body))

    monkeypatch.setattr(KGClient, "call", call)
    monkeypatch.setattr(KGClient, "is_up", lambda self: True)
    monkeypatch.setenv("CRAG_MOCK_API_URL", "http://kg.invalid")
    return sent
