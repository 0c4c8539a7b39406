"""Page text -> sentences -> retrieval chunks, following the published design.

Lines first, then blingfire sentences within a line; a sentence longer than the cap is cut at word
boundaries. Chunks: a question (first word a 5W1H or auxiliary word, or ending with '?') is joined
with the sentences that follow it up to a length cap, since pages often answer right after asking;
every other sentence is grouped with its neighbours, a fixed number per chunk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import blingfire

from models.config import WebConfig

_OPENERS = (
    "what when where who whom whose which why how "
    "is are was were am do does did can could will would shall should may might must has have had"
)
QUESTION_OPENERS = frozenset(_OPENERS.split())
_PARAGRAPH = "\u2029"
# Runs of spaces, and any other whitespace but newlines (single spaces need no work).
_SPACES = re.compile(r"[^\S\n]{2,}|[^\S\n ]")
_HAS_WORD = re.compile(r"\w")


@dataclass
class ChunkLimits:
    sentence_max_chars: int
    sentences_per_chunk: int
    question_chunk_max_chars: int

    @classmethod
    def from_config(cls, config: WebConfig) -> ChunkLimits:
        return cls(
            sentence_max_chars=config.sentence_max_chars,
            sentences_per_chunk=config.sentences_per_chunk,
            question_chunk_max_chars=config.question_chunk_max_chars,
        )


def split_sentences(text: str, max_chars: int) -> list[str]:
    """Sentences of `text` (newlines always end one), none longer than `max_chars`."""
    lines = [line.strip() for line in _SPACES.sub(" ", text.replace(_PARAGRAPH, "\n")).split("\n")]
    lines = [line for line in lines if _HAS_WORD.search(line)]
    if not lines:
        return []
    # One blingfire call for the page: it always breaks at U+2029, so the line ends survive.
    split = blingfire.text_to_sentences(_PARAGRAPH.join(lines)).replace(_PARAGRAPH, "\n")
    sentences: list[str] = []
    for sentence in split.split("\n"):
        sentence = sentence.strip()
        if len(sentence) <= max_chars:
            if sentence:
                sentences.append(sentence)
        else:
            sentences.extend(cut_at_words(sentence, max_chars))
    return sentences


def cut_at_words(sentence: str, max_chars: int) -> list[str]:
    """Pieces of at most `max_chars`, cut at spaces; a single run longer than the cap (a URL, base64)
    is no word anyone reads, so it is cut at the cap."""
    pieces = []
    rest = sentence
    while len(rest) > max_chars:
        cut = rest.rfind(" ", 0, max_chars + 1)
        if cut <= 0:
            cut = max_chars
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        pieces.append(rest)
    return pieces


def is_question(sentence: str) -> bool:
    if sentence.endswith("?"):
        return True
    # Openers have at most 6 letters, so 7 characters decide (and keep this cheap on long text).
    first_word = sentence[:7].split(" ", 1)[0].lower()
    return first_word in QUESTION_OPENERS


def chunk_sentences(sentences: list[str], limits: ChunkLimits) -> list[str]:
    chunks: list[str] = []
    group: list[str] = []
    group_chars = 0
    in_question = False
    for sentence in sentences:
        if is_question(sentence):
            if group:
                chunks.append(" ".join(group))
            group, group_chars, in_question = [sentence], len(sentence), True
            continue
        if in_question:
            if group_chars + 1 + len(sentence) <= limits.question_chunk_max_chars:
                group.append(sentence)
                group_chars += 1 + len(sentence)
                continue
            chunks.append(" ".join(group))
            group, group_chars, in_question = [], 0, False
        group.append(sentence)
        group_chars += 1 + len(sentence)
        if len(group) >= limits.sentences_per_chunk:
            chunks.append(" ".join(group))
            group, group_chars = [], 0
    if group:
        chunks.append(" ".join(group))
    return chunks


def text_to_chunks(text: str, limits: ChunkLimits) -> list[str]:
    """Chunks of `text`, each distinct, in page order."""
    chunks = chunk_sentences(split_sentences(text, limits.sentence_max_chars), limits)
    return list(dict.fromkeys(chunks))
