"""The official CRAG RAG baseline's retrieval, reproduced for comparison (retrieval.mode="baseline").

Every page's raw HTML → BeautifulSoup `get_text(" ", strip=True)` → blingfire sentences, each cut
to `baseline_sentence_max_chars` → distinct sentences per question → cosine top-k against the
query → a "# References" block of "- sentence" lines cut to `baseline_references_max_chars`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from blingfire import text_to_sentences_and_offsets
from bs4 import BeautifulSoup

from models.config import RetrievalConfig
from models.embeddings import SentenceEncoder
from models.retrieval.ranking import embed_distinct
from models.schema import Evidence, Question

REFERENCES_HEADING = "# References \n"


def html_sentences(html: str, max_chars: int) -> list[str]:
    text = BeautifulSoup(html, "lxml").get_text(" ", strip=True) if html else ""
    if not text:
        return [""]
    _, offsets = text_to_sentences_and_offsets(text)
    return [text[start:end][:max_chars] for start, end in offsets]


def question_sentences(question: Question, config: RetrievalConfig) -> list[str]:
    return distinct_sentences(
        [
            html_sentences(result.page_result, config.baseline_sentence_max_chars)
            for result in question.search_results
        ]
    )


def distinct_sentences(pages: Sequence[list[str]]) -> list[str]:
    """The sentences of a question's pages, in order, each once."""
    return list(dict.fromkeys(sentence for sentences in pages for sentence in sentences))


def cut_references(sentences: list[str], max_chars: int) -> list[str]:
    """The sentences (stripped) that survive cutting the rendered block at `max_chars` characters."""
    kept: list[str] = []
    used = len(REFERENCES_HEADING) if sentences else 0
    for sentence in sentences:
        line = f"- {sentence.strip()}\n"
        room = max_chars - used
        if room <= len("- "):
            break
        text = line[len("- ") : room].rstrip("\n")
        if text:
            kept.append(text)
        used += len(line)
    return kept


def baseline_evidence(
    questions: list[Question],
    encoder: SentenceEncoder,
    config: RetrievalConfig,
    page_sentences: Sequence[Sequence[list[str]]] | None = None,
) -> list[Evidence]:
    """`page_sentences`: each question's pages' `html_sentences`, when already read (a benchmark
    reads each page once for many questions)."""
    if page_sentences is None:
        per_question = [question_sentences(question, config) for question in questions]
    else:
        per_question = [distinct_sentences(pages) for pages in page_sentences]
    evidence = []
    for question, sentences in zip(questions, per_question):
        # One encode call per question: an embedding shifts in its last bits with the texts it is
        # padded beside, and near-equal scores would then swap with the batch a question is in.
        vectors = embed_distinct(encoder, [question.query, *sentences])
        scores = vectors[1:] @ vectors[0]
        # Equal scores keep the sentences' page order.
        top = np.argsort(-scores, kind="stable")[: config.baseline_top_k]
        chunks = cut_references([sentences[i] for i in top], config.baseline_references_max_chars)
        evidence.append(Evidence(chunks=chunks, top_relevance=float(scores[top[0]]) if len(top) else None))
    return evidence


def render_references(chunks: list[str]) -> str:
    """The block the baseline puts in its prompt (for measuring reference tokens like-for-like)."""
    return (REFERENCES_HEADING + "".join(f"- {chunk}\n" for chunk in chunks)) if chunks else ""
