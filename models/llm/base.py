"""The one LLM interface every stage talks to.

Stages build chat conversations and call `LLMBackend.generate` once per batch with all the
conversations of that batch; a backend decides how to run them (sequentially on llama.cpp,
concurrently against an OpenAI-compatible server, in one offline call on vLLM).
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Any, Sequence

Message = dict[str, str]
Conversation = list[Message]


@dataclass(frozen=True)
class GenerationParams:
    max_tokens: int = 64
    temperature: float = 0.0
    top_p: float = 1.0
    n: int = 1
    stop: tuple[str, ...] = ()
    seed: int | None = 0
    # At most one constraint: a JSON schema the output must follow, or a GBNF grammar.
    json_schema: dict[str, Any] | None = None
    grammar: str | None = None
    # When set, the backend returns the top log-probabilities of the first generated token.
    first_token_logprobs: int | None = None

    def __post_init__(self) -> None:
        if self.json_schema is not None and self.grammar is not None:
            raise ValueError("GenerationParams: give json_schema or grammar, not both")
        if self.n < 1:
            raise ValueError(f"GenerationParams: n must be >= 1, got {self.n}")


@dataclass
class Completion:
    """The n samples generated for one conversation, with the tokens they cost."""

    texts: list[str]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # token text -> log-probability, for the first generated token (only when asked for).
    first_token_logprobs: dict[str, float] | None = None
    error: str | None = None

    @property
    def text(self) -> str:
        return self.texts[0] if self.texts else ""


@dataclass
class TokenUsage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, completion: Completion) -> None:
        self.calls += 1
        self.prompt_tokens += completion.prompt_tokens
        self.completion_tokens += completion.completion_tokens


class LLMBackend(abc.ABC):
    """Batched chat generation plus token counting."""

    name: str = "abstract"

    @abc.abstractmethod
    def generate(
        self, conversations: Sequence[Conversation], params: GenerationParams
    ) -> list[Completion]:
        """One Completion per conversation, in order. A failure on one conversation yields a
        Completion with empty texts and `error` set; it never fails the others."""

    @abc.abstractmethod
    def count_tokens(self, text: str) -> int:
        """Tokens `text` takes in this model's tokenizer."""

    def truncate_to_tokens(self, text: str, max_tokens: int) -> str:
        """Longest prefix of `text` (cut at a word boundary) within `max_tokens` tokens."""
        if self.count_tokens(text) <= max_tokens:
            return text
        words = text.split(" ")
        low, high = 0, len(words)
        while low < high:
            middle = (low + high + 1) // 2
            if self.count_tokens(" ".join(words[:middle])) <= max_tokens:
                low = middle
            else:
                high = middle - 1
        return " ".join(words[:low])

    def warm_up(self, json_schemas: Sequence[dict[str, Any]]) -> None:  # noqa: B027 - optional hook
        """Prepare everything a first request would otherwise pay for (e.g. compiling the
        guided-decoding grammar of each schema the stages will send), once, at start-up."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Free model memory or connections."""

