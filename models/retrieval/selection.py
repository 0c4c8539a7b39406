"""Per-question evidence cut-off: a minimum relevance first, then the budgets, best first.

A kept sentence is shown with its neighbours (up to `context_sentences` on each side, within
`unit_max_chars`); sentences kept from the same passage merge into one reference when their windows
touch, so no sentence is paid for twice and several places of one page can all be shown.
"""

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
    rank: int
    words: set[str] = field(default_factory=set)
    positions: list[int] = field(default_factory=list)  # a sentence's window, newly covered


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _redundant(words: set[str], kept: list[_Kept], max_overlap: float) -> bool:
    """True when most of `words` already appear in one kept reference (near-duplicate pages)."""
    return bool(words) and any(len(words & k.words) >= max_overlap * len(words) for k in kept)


def context_window(sentences: list[str], position: int, config: RetrievalConfig) -> list[int]:
    """Positions of the sentence and of its neighbours that fit, nearest first, before then after."""
    window = [position]
    size = len(sentences[position])
    for step in range(1, config.context_sentences + 1):
        for neighbour in (position - step, position + step):
            if 0 <= neighbour < len(sentences) and size + 1 + len(sentences[neighbour]) <= config.unit_max_chars:
                window.append(neighbour)
                size += 1 + len(sentences[neighbour])
    return sorted(window)


def select_evidence(
    ranked: list[Ranked],
    threshold: float,
    config: RetrievalConfig,
    counter: TokenCounter,
    passages: list[list[str]] | None = None,
    wants_list: bool = False,
) -> Evidence:
    """Walk `ranked` (best first) and keep what clears `threshold` and fits the budgets.

    Text units (sentences, rows, extra lines) are capped by count (`top_k_chunks`), Markdown tables
    by total characters (`max_table_chars`), and everything together by `max_reference_tokens`;
    a question asking for several things gets `list_top_k_chunks` and `list_max_reference_tokens`. A kept table
    replaces any of its own rows kept before it; a row of a kept table, or a unit mostly repeating a
    kept one, is redundant and skipped.
    """
    passages = passages or []
    below_minimum_allowed = config.min_references - sum(item.relevance >= threshold for item in ranked)
    eligible = []
    for item in ranked:
        if item.relevance >= threshold:
            eligible.append(item)
        elif below_minimum_allowed > 0:
            eligible.append(item)
            below_minimum_allowed -= 1

    max_units = config.list_top_k_chunks if wants_list else config.top_k_chunks
    max_tokens = config.list_max_reference_tokens if wants_list else config.max_reference_tokens
    covered: dict[int, set[int]] = {}
    kept: list[_Kept] = []
    used_tokens = 0
    table_chars = 0
    for rank, item in enumerate(eligible):
        candidate = item.candidate
        if candidate.kind == "table":
            if table_chars + len(candidate.text) > config.max_table_chars:
                continue
            own_rows = [
                k for k in kept if k.candidate.kind == "row" and k.candidate.table_group == candidate.table_group
            ]
            tokens = counter.count(candidate.text)
            if used_tokens - sum(k.tokens for k in own_rows) + tokens > max_tokens:
                continue
            kept = [k for k in kept if k not in own_rows]
            used_tokens -= sum(k.tokens for k in own_rows)
            table_chars += len(candidate.text)
            kept.append(_Kept(candidate, tokens, rank, _words(candidate.text)))
            used_tokens += tokens
            continue
        kept_tables = {k.candidate.table_group for k in kept if k.candidate.kind == "table"}
        if candidate.kind == "row" and candidate.table_group in kept_tables:
            continue
        if sum(1 for k in kept if k.candidate.kind != "table") >= max_units:
            break
        positions: list[int] = []
        text = candidate.text
        if candidate.kind == "sentence" and candidate.passage is not None:
            sentences = passages[candidate.passage]
            taken = covered.setdefault(candidate.passage, set())
            if candidate.position in taken:
                continue
            positions = [p for p in context_window(sentences, candidate.position, config) if p not in taken]
            text = " ".join(sentences[p] for p in positions)
        words = _words(text)
        if _redundant(_words(candidate.text), kept, config.max_word_overlap):
            continue
        tokens = counter.count(text)
        if used_tokens + tokens > max_tokens:
            continue
        if positions:
            covered[candidate.passage].update(positions)
        kept.append(_Kept(candidate, tokens, rank, words, positions))
        used_tokens += tokens

    return Evidence(
        chunks=_render_text(kept, passages),
        tables=[k.candidate.text for k in kept if k.candidate.kind == "table"],
        top_relevance=max((item.relevance for item in ranked), default=None),
    )


def _render_text(kept: list[_Kept], passages: list[list[str]]) -> list[str]:
    """Text references, best first: a passage's kept sentences as runs of consecutive sentences."""
    pieces: list[tuple[int, str]] = []
    first_rank: dict[tuple[int, int], int] = {}
    for k in kept:
        if k.candidate.kind == "table":
            continue
        if not k.positions:
            pieces.append((k.rank, k.candidate.text))
            continue
        for position in k.positions:
            first_rank[(k.candidate.passage, position)] = k.rank
    run: list[tuple[int, int]] = []
    for key in sorted(first_rank) + [(-1, -1)]:
        if run and (key[0] != run[-1][0] or key[1] != run[-1][1] + 1):
            sentences = passages[run[0][0]]
            text = " ".join(sentences[position] for _, position in run)
            pieces.append((min(first_rank[r] for r in run), text))
            run = []
        run.append(key)
    return [text for _, text in sorted(pieces, key=lambda piece: piece[0])]
