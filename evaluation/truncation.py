"""Cutting predictions to 75 Llama-2 tokens, as the leaderboard did before judging.

The official evaluation encodes the prediction with the starter kit's Llama-2 tokenizer (which
prepends the BOS token), keeps tokens 1..75, and decodes them. `LlamaTruncator` does the same with
the `tokenizers` library reading `tokenizer.json` directly, as transformers 4.x (the leaderboard's)
did; on answers it matches `transformers.LlamaTokenizerFast` exactly (tests/test_evaluation_truncation.py).
transformers 5 rebuilds the Llama pre-tokenizer and differs only on text that starts with spaces or "▁"
or contains the literal strings "<s>" / "</s>"; the system strips its answers.

Without a tokenizer folder, `ApproximateTruncator` estimates Llama-2 token counts from the text:
every digit is one token (Llama-2 splits numbers into digits), every punctuation or symbol
character is one token, and a run of letters costs one token per started 5 letters. It cuts at a
piece boundary and keeps the original characters. It only matters for predictions longer than
about 50 words, which a well-behaved system never produces.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Protocol

from loguru import logger

OFFICIAL_MAX_TOKENS = 75
_PIECES = re.compile(r"\d|[^\W\d_]+|[^\w\s]|_")
_LETTERS_PER_TOKEN = 5


class Truncator(Protocol):
    exact: bool
    description: str

    def truncate(self, prediction: str) -> str: ...


class LlamaTruncator:
    exact = True

    def __init__(self, tokenizer_file: Path, max_tokens: int = OFFICIAL_MAX_TOKENS):
        from tokenizers import Tokenizer

        self.tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self.max_tokens = max_tokens
        self.description = f"Llama-2 tokenizer from {tokenizer_file.parent}, {max_tokens} tokens"

    def truncate(self, prediction: str) -> str:
        ids = self.tokenizer.encode(prediction, add_special_tokens=True).ids
        return self.tokenizer.decode(ids[1 : self.max_tokens + 1], skip_special_tokens=False)


class ApproximateTruncator:
    exact = False

    def __init__(self, max_tokens: int = OFFICIAL_MAX_TOKENS):
        self.max_tokens = max_tokens
        self.description = (
            f"approximate Llama-2 token count (no tokenizer folder), {max_tokens} tokens: "
            f"1 per digit or symbol, 1 per {_LETTERS_PER_TOKEN} letters"
        )

    def truncate(self, prediction: str) -> str:
        used = 0
        for piece in _PIECES.finditer(prediction):
            cost = math.ceil(len(piece.group()) / _LETTERS_PER_TOKEN) if piece.group().isalpha() else 1
            if used + cost > self.max_tokens:
                return prediction[: piece.start()]
            used += cost
        return prediction


def load_truncator(tokenizer_dir: str | Path, max_tokens: int = OFFICIAL_MAX_TOKENS) -> Truncator:
    """The exact truncator when `tokenizer_dir/tokenizer.json` exists, else the approximation."""
    tokenizer_file = Path(tokenizer_dir) / "tokenizer.json"
    if tokenizer_file.is_file():
        return LlamaTruncator(tokenizer_file, max_tokens)
    logger.warning(
        f"No Llama-2 tokenizer at {tokenizer_file} (copy the starter kit's tokenizer/ folder there for "
        f"leaderboard-exact truncation); predictions are cut with an approximate token count instead"
    )
    return ApproximateTruncator(max_tokens)
