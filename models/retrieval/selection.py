"""Per-question evidence cut-off: a minimum relevance first, then the budgets, best first.

No text is paid for twice: every sentence shown is remembered (`_Shown`); a candidate or a neighbour
already shown, alone or inside a longer shown sentence, is skipped, and a shown sentence written
inside a longer one (two page elements glued together) is cut out of it. A kept sentence is shown
with the neighbours it needs (`context_window`); sentences kept from the same passage merge into one
reference when they touch, so several places of one page can all be shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from models.config import RetrievalConfig
from models.retrieval.candidates import Candidate, KeyText, text_key
from models.retrieval.tokens import TokenCounter
from models.schema import Evidence, PageUse


@dataclass
class Ranked:
    candidate: Candidate
    relevance: float


_WORD = re.compile(r"\w+")
_KEY_WORD = re.compile(r"[^\W_]+")  # the words of a `text_key`
# Words that open a sentence whose subject is named before it.
_ANAPHORS = frozenset(
    "he she it they them his her hers its their theirs this these those such both "
    "he's she's it's they're".split()
)


@dataclass
class _Kept:
    candidate: Candidate
    tokens: int
    rank: int
    words: set[str] = field(default_factory=set)
    # A sentence's window: (position in its passage, what is shown of that sentence), new text only.
    parts: list[tuple[int, str]] = field(default_factory=list)


class _Shown:
    """The sentences shown so far, by key: a sentence already shown (alone or inside a longer one)
    adds nothing, and one written inside a longer sentence (two page elements glued together) is cut
    out of it, unless it is short (a label or a value, which the longer sentence needs)."""

    def __init__(self, min_cut_chars: int):
        self.keys = KeyText()
        self.cuttable: list[str] = []
        self.min_cut_chars = min_cut_chars

    def remainder(self, sentence: str) -> str:
        """What `sentence` adds to the shown text ("" when nothing)."""
        key = text_key(sentence)
        if key in self.keys:
            return ""
        words = list(_KEY_WORD.finditer(sentence))
        if len(words) != key.count(" ") + 1:
            return sentence  # a character whose lower case is two words; compare no further
        padded = f" {key} "
        cut = [False] * len(words)
        for shown in self.cuttable:
            start = padded.find(f" {shown} ")
            while start != -1:
                first = padded.count(" ", 0, start)
                for index in range(first, first + shown.count(" ") + 1):
                    cut[index] = True
                start = padded.find(f" {shown} ", start + 1)
        if not any(cut):
            return sentence
        pieces, start = [], 0
        for index, word in enumerate(words):
            if cut[index] and (index == 0 or not cut[index - 1]):
                pieces.append(sentence[start : word.start()])
            if cut[index]:
                start = word.end()
        pieces.append(sentence[start:])
        # What is left between the cuts, less the punctuation the cut text left behind.
        return " ".join(token for token in "".join(pieces).split() if _KEY_WORD.search(token))

    def add(self, text: str) -> None:
        key = text_key(text)
        self.keys.add(key)
        if len(text) >= self.min_cut_chars:
            self.cuttable.append(key)


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _redundant(words: set[str], kept: list[_Kept], max_overlap: float) -> bool:
    """True when most of `words` already appear in one kept reference (near-duplicate pages)."""
    return bool(words) and any(len(words & k.words) >= max_overlap * len(words) for k in kept)


def needs_antecedent(sentence: str) -> bool:
    """Opens with a pronoun, or in lower case (it continues the sentence before)."""
    first = sentence.split(maxsplit=1)[0].lower().strip("\"'“”‘’(,") if sentence.strip() else ""
    return first in _ANAPHORS or sentence[:1].islower()


def context_window(sentences: list[str], position: int, config: RetrievalConfig) -> list[int]:
    """Positions of the sentence and of the neighbours shown with it, within `unit_max_chars`.

    "fixed": up to `context_sentences` on each side, nearest first. "adaptive": only what the
    sentence needs: its antecedent, the list it opens, the answer to a question it asks, the label
    or value around a short line."""
    window = [position]
    size = len(sentences[position])

    def take(neighbour: int) -> bool:
        nonlocal size
        if (
            not 0 <= neighbour < len(sentences)
            or size + 1 + len(sentences[neighbour]) > config.unit_max_chars
        ):
            return False
        window.append(neighbour)
        size += 1 + len(sentences[neighbour])
        return True

    if config.context_mode == "fixed":
        for step in range(1, config.context_sentences + 1):
            take(position - step)
            take(position + step)
        return sorted(window)
    sentence = sentences[position]
    short = len(sentence) < config.context_short_chars
    if short or needs_antecedent(sentence):
        take(position - 1)
    if sentence.rstrip().endswith(":"):
        for step in range(1, config.list_continuation_sentences + 1):
            if not take(position + step):
                break
    elif short or sentence.rstrip().endswith("?"):
        take(position + 1)
    return sorted(window)


def select_evidence(
    ranked: list[Ranked],
    threshold: float,
    config: RetrievalConfig,
    counter: TokenCounter,
    passages: list[list[str]] | None = None,
    wants_list: bool = False,
    pages: list[PageUse] | None = None,
) -> Evidence:
    """Walk `ranked` (best first) and keep what clears `threshold` and fits the budgets; `pages`
    (the question's, by `Candidate.page`) count the units kept from each and go with the evidence.

    Text units (sentences, rows, extra lines) are capped by count (`top_k_chunks`), Markdown tables
    by total characters (`max_table_chars`), and everything together by `max_reference_tokens`;
    a question asking for several things gets `list_top_k_chunks` and `list_max_reference_tokens`. A
    kept table replaces any of its own rows kept before it; a row of a kept table, a text already
    shown, or a unit mostly repeating a kept one, is redundant and skipped.
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
    shown = _Shown(config.context_short_chars)
    kept: list[_Kept] = []
    used_tokens = 0
    table_chars = 0
    for rank, item in enumerate(eligible):
        candidate = item.candidate
        if candidate.kind == "table":
            if table_chars + len(candidate.text) > config.max_table_chars:
                continue
            own_rows = [
                k
                for k in kept
                if k.candidate.kind == "row" and k.candidate.table_group == candidate.table_group
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
        if candidate.kind == "sentence" and candidate.passage is not None:
            sentences = passages[candidate.passage]
            parts: list[tuple[int, str]] = []
            for position in context_window(sentences, candidate.position, config):
                text = shown.remainder(sentences[position])
                if text and text_key(text) not in {text_key(part) for _, part in parts}:
                    parts.append((position, text))
            if candidate.position not in dict(parts):
                continue
        else:
            parts = [(-1, shown.remainder(candidate.text))]
            if not parts[0][1]:
                continue
        if _redundant(_words(candidate.text), kept, config.max_word_overlap):
            continue
        text = " ".join(part for _, part in parts)
        tokens = counter.count(text)
        if used_tokens + tokens > max_tokens:
            continue
        for _, part in parts:
            shown.add(part)
        kept.append(_Kept(candidate, tokens, rank, _words(text), parts))
        used_tokens += tokens

    pages = pages or []
    for k in kept:
        if k.candidate.page is not None and k.candidate.page < len(pages):
            pages[k.candidate.page].kept += 1
    return Evidence(
        chunks=_render_text(kept),
        tables=[k.candidate.text for k in kept if k.candidate.kind == "table"],
        top_relevance=max((item.relevance for item in ranked), default=None),
        pages=pages,
    )


def _render_text(kept: list[_Kept]) -> list[str]:
    """Text references, best first: a passage's kept sentences as runs of consecutive sentences."""
    pieces: list[tuple[int, str]] = []
    shown: dict[tuple[int, int], tuple[int, str]] = {}  # (passage, position) -> (rank, text)
    for k in kept:
        if k.candidate.kind == "table":
            continue
        if k.candidate.passage is None:
            pieces.append((k.rank, k.parts[0][1]))
            continue
        for position, text in k.parts:
            shown[(k.candidate.passage, position)] = (k.rank, text)
    run: list[tuple[int, int]] = []
    for key in sorted(shown) + [(-1, -1)]:
        if run and (key[0] != run[-1][0] or key[1] != run[-1][1] + 1):
            pieces.append((min(shown[r][0] for r in run), " ".join(shown[r][1] for r in run)))
            run = []
        run.append(key)
    return [text for _, text in sorted(pieces, key=lambda piece: piece[0])]
