"""Task-3-shaped questions from 5-page ones: each question's own pages among other questions' pages.

CRAG's Task 3 gives a question up to 50 pages. The dev files give 5, so a question here gets its own
pages plus pages of the other questions as distractors, up to the number asked for:
- distractors of the question's own domain come first, then the rest (each group in a seeded order
  of its own, so no file order decides which pages are drawn);
- a page that holds the question's answer (`holds_answer`, the caller's test) is never its
  distractor, nor is a page it already has (the same URL, or the same name and content);
- the pages are then placed in a seeded order, so that no position tells the question's own pages.

Not a script: benchmarks/retrieval.py --pages 50 imports it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from models.schema import SearchResult


@dataclass(frozen=True)
class SourceQuestion:
    """A question as a source of pages: its domain and its own search results."""

    interaction_id: str
    domain: str
    pages: tuple[SearchResult, ...]


@dataclass(frozen=True)
class Drawn:
    """A page placed among a question's pages: its search result, and the question it came from."""

    result: SearchResult
    owner: int  # the index of the question whose search results hold it

    def is_own(self, question: int) -> bool:
        return self.owner == question


def page_identity(result: SearchResult) -> tuple[str, ...]:
    """What makes two search results the same page: their URL when given, else name and content."""
    url = result.page_url.strip()
    if url:
        return ("url", url)
    return ("content", result.page_name, result.page_result)


def many_pages(
    questions: Sequence[SourceQuestion],
    pages: int,
    holds_answer: Callable[[int, SearchResult], bool],
    seed: int = 0,
) -> list[list[Drawn]]:
    """For each question, its own pages and distractors up to `pages` (see the module docstring).

    `holds_answer(question, result)`: whether the page holds that question's answer (it is then
    not drawn for it)."""
    pooled = [Drawn(result, owner) for owner, question in enumerate(questions) for result in question.pages]
    drawn_sets = []
    for index, question in enumerate(questions):
        own = [Drawn(result, index) for result in question.pages][:pages]
        have = {page_identity(page.result) for page in own}
        rng = random.Random(f"{seed}:{question.interaction_id}")
        same, other = [], []
        for page in pooled:
            if page.owner != index:
                (same if questions[page.owner].domain == question.domain else other).append(page)
        rng.shuffle(same)
        rng.shuffle(other)
        chosen = list(own)
        for page in same + other:
            if len(chosen) >= pages:
                break
            identity = page_identity(page.result)
            if identity in have or holds_answer(index, page.result):
                continue
            have.add(identity)
            chosen.append(page)
        rng.shuffle(chosen)
        drawn_sets.append(chosen)
    return drawn_sets
