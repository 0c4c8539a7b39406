"""Per-question evidence cut-off: a minimum relevance first, then the token budget, best first."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from models.config import RetrievalConfig
from models.retrieval.candidates import Candidate
from models.retrieval.tokens import TokenCounter
from models.schema import Evidence


@dataclass
class Ranked:
    candidate: Candidate
    relevance: float


_WORD = re.compile(r"\w+")


@dataclass
class _Kept:
    candidate: Candidate
    tokens: int
    words: set[str] = field(default_factory=set)


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _redundant(words: set[str], kept: list[_Kept], max_overlap: float) -> bool:
    """True when most of `words` already appear in one kept reference (near-duplicate pages)."""
    return bool(words) and any(len(words & k.words) >= max_overlap * len(words) for k in kept)


def select_evidence(
    ranked: list[Ranked], threshold: float, config: RetrievalConfig, counter: TokenCounter
) -> Evidence:
    """Walk `ranked` (best first) and keep what clears `threshold` and fits the budgets.

    Text references are capped by count (`top_k_chunks`), Markdown tables by total characters
    (`max_table_chars`), and everything together by `max_reference_tokens`. A kept table replaces
    any of its own rows kept before it; a row of a kept table, or text mostly repeating a kept
    reference, is redundant and skipped.
    """
    below_minimum_allowed = config.min_references - sum(item.relevance >= threshold for item in ranked)
    eligible = []
    for item in ranked:
        if item.relevance >= threshold:
            eligible.append(item)
        elif below_minimum_allowed > 0:
            eligible.append(item)
            below_minimum_allowed -= 1

    kept: list[_Kept] = []
    used_tokens = 0
    table_chars = 0
    for item in eligible:
        candidate = item.candidate
        words = _words(candidate.text)
        kept_tables = {k.candidate.table_group for k in kept if k.candidate.kind == "table"}
        if candidate.kind == "table":
            if table_chars + len(candidate.text) > config.max_table_chars:
                continue
            own_rows = [
                k
                for k in kept
                if k.candidate.kind == "row" and k.candidate.table_group == candidate.table_group
            ]
            tokens = counter.count(candidate.text)
            if used_tokens - sum(k.tokens for k in own_rows) + tokens > config.max_reference_tokens:
                continue
            kept = [k for k in kept if k not in own_rows]
            used_tokens -= sum(k.tokens for k in own_rows)
            table_chars += len(candidate.text)
        else:
            if candidate.kind == "row" and candidate.table_group in kept_tables:
                continue
            if _redundant(words, kept, config.max_word_overlap):
                continue
            if sum(1 for k in kept if k.candidate.kind != "table") >= config.top_k_chunks:
                continue
            tokens = counter.count(candidate.text)
            if used_tokens + tokens > config.max_reference_tokens:
                continue
        kept.append(_Kept(candidate, tokens, words))
        used_tokens += tokens

    return Evidence(
        chunks=[k.candidate.text for k in kept if k.candidate.kind != "table"],
        tables=[k.candidate.text for k in kept if k.candidate.kind == "table"],
        top_relevance=max((item.relevance for item in ranked), default=None),
    )
