"""Token counts for the reference budget: the LLM's own tokenizer when given, else a cheap estimate."""

from __future__ import annotations

import math
import re

from models.llm.base import LLMBackend

_PIECE = re.compile(r"\w+|[^\w\s]")


class TokenCounter:
    def __init__(self, llm: LLMBackend | None, tokens_per_piece: float):
        self.llm = llm
        self.tokens_per_piece = tokens_per_piece

    @property
    def method(self) -> str:
        if self.llm is not None:
            return f"the {self.llm.name} backend's tokenizer"
        return f"estimate: {self.tokens_per_piece} tokens per word or punctuation mark"

    def count(self, text: str) -> int:
        if self.llm is not None:
            return self.llm.count_tokens(text)
        return math.ceil(len(_PIECE.findall(text)) * self.tokens_per_piece)
