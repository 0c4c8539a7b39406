"""The web-page stage: every question's search results to `Page`s, for the whole batch at once."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Mapping, Sequence
from typing import Self

from loguru import logger

from models.config import WebConfig
from models.schema import Question
from models.web.fallback_chain import fast_extract
from models.web.page import Page, PageChoice
from models.web.pool import ExtractionPool, PoolTask
from models.web.sanitize import as_text

PageKey = tuple[str, str]  # (page_name, html): a page as the stage tells pages apart


class PageExtractor:
    """Extracts each distinct page of a batch once, in bounded time, never failing the batch.

    Where the work runs:
    - A batch whose distinct pages total at most `inprocess_max_total_chars` runs the fast
      extractor (lexbor/resiliparse: C code, linear in the capped, depth-guarded page) in this
      process: for a few small pages, copying HTML to workers and back costs more than it saves.
    - Larger batches go to the worker pool, largest page first, all cores busy.
    - Slow fallbacks (trafilatura, BeautifulSoup: Python, superlinear, deaf to signals) always
      run in the pool, where a page past `page_timeout_s` is killed alone.
    The pool starts in `warm_up()` (or on first need) and lives until `close()`.
    """

    def __init__(self, config: WebConfig | None = None):
        self.config = config or WebConfig()
        self._pool: ExtractionPool | None = None

    def run(
        self,
        questions: Sequence[Question],
        seconds: float | None = None,
        choices: Sequence[PageChoice] | None = None,
    ) -> list[list[Page]]:
        """For each question, its distinct pages in search-result order; a chunk or table already
        given by an earlier page of the same question is left out of later ones. `choices`: per
        question, the pages to parse (the others are handed on unread, `Page.read` False) and their
        ranks: the batch's pages are parsed best rank first. With `seconds`, the work stops after
        that long: pages not read by then are empty, with an error."""
        distinct: dict[PageKey, int] = {}
        rank_of: dict[int, int] = {}
        keys_per_question, read_per_question = [], []
        for number, question in enumerate(questions):
            results = getattr(question, "search_results", None) or []
            choice = (
                choices[number]
                if choices is not None
                else PageChoice([True] * len(results), [0] * len(results))
            )
            keys = []
            for result, read, rank in zip(results, choice.read, choice.rank):
                html, _ = as_text(getattr(result, "page_result", None))
                page_name, _ = as_text(getattr(result, "page_name", None))
                key = distinct.setdefault((page_name, html), len(distinct))
                keys.append(key)
                if read:
                    rank_of[key] = min(rank, rank_of.get(key, rank))
            keys_per_question.append(keys)
            read_per_question.append(choice.read)
        documents = list(distinct)
        wanted = sorted(rank_of, key=lambda key: rank_of[key])
        stop_at = None if seconds is None else time.monotonic() + seconds
        extracted = self.extract_all(
            [documents[key] for key in wanted], stop_at, [rank_of[key] for key in wanted]
        )
        by_key = {documents[key]: page for key, page in zip(wanted, extracted)}
        return [
            question_pages([documents[key] for key in keys], by_key, read)
            for keys, read in zip(keys_per_question, read_per_question)
        ]

    def extract_all(
        self,
        documents: list[tuple[str, str]],
        stop_at: float | None = None,
        ranks: Sequence[int] | None = None,
    ) -> list[Page]:
        """Pages for (page_name, html) pairs, in order; the work stops at `stop_at` (time.monotonic).
        The pool takes the pages by `ranks` (best first), then largest first."""
        total_chars = sum(len(html) for _, html in documents)
        pages: list[Page | None] = [None] * len(documents)
        tasks: list[PoolTask] = []
        for key, (page_name, html) in enumerate(documents):
            rank = ranks[key] if ranks is not None else 0
            if stop_at is not None and time.monotonic() >= stop_at:
                pages[key] = Page(page_name, error="not extracted before the batch deadline")
                continue
            if html.strip() and total_chars > self.config.inprocess_max_total_chars:
                tasks.append(PoolTask(key, (html, page_name), len(html), Page(page_name), rank))
                continue
            page, job = fast_extract(html, page_name, self.config)
            pages[key] = page
            if job is not None:
                tasks.append(PoolTask(key, job, len(job.html), page, rank))
        if tasks:
            for key, page in self._get_pool().run(tasks, stop_at).items():
                pages[key] = page
        logger.debug(
            "web pages: {} distinct, {} chars, {} through the pool", len(documents), total_chars, len(tasks)
        )
        return [
            page if page is not None else Page(name, error="not extracted")
            for page, (name, _) in zip(pages, documents)
        ]

    def warm_up(self) -> None:
        """Start the worker processes now rather than at the first large batch."""
        self._get_pool()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _get_pool(self) -> ExtractionPool:
        if self._pool is None:
            workers = self.config.workers or min(os.cpu_count() or 1, self.config.max_workers)
            self._pool = ExtractionPool(self.config, workers)
        return self._pool


def question_pages(
    keys: Sequence[PageKey], extracted: Mapping[PageKey, Page], read: Sequence[bool]
) -> list[Page]:
    """One question's pages from its search results' keys: each distinct page once, in order, a page
    not `read` as a page without content (`Page.read` False), and a chunk or table an earlier page
    already gave left out of later ones."""
    wanted: dict[PageKey, bool] = {}
    for key, chosen in zip(keys, read):
        wanted[key] = wanted.get(key, False) or chosen
    pages = [extracted[key] if chosen else Page(key[0], read=False) for key, chosen in wanted.items()]
    return distinct_content(pages)


def distinct_content(pages: list[Page]) -> list[Page]:
    """The pages with each chunk and table given only by the first page that has it."""
    seen_chunks: set[str] = set()
    seen_tables: set[str] = set()
    distinct = []
    for page in pages:
        chunks = [chunk for chunk in page.chunks if chunk not in seen_chunks]
        tables = [table for table in page.tables if table not in seen_tables]
        seen_chunks.update(chunks)
        seen_tables.update(tables)
        distinct.append(dataclasses.replace(page, chunks=chunks, tables=tables, events=list(page.events)))
    return distinct
