"""One page from raw HTML to text chunks and Markdown tables, through a chain of extractors.

The chain, and the guard that moves a page down it:
1. resiliparse (lexbor, C) main-content text: kept when it holds at least `main_text_min_ratio` of
   the page's full text; below that it has likely dropped the article itself.
2. trafilatura on a tree lxml parsed once (its own loading parses again and runs ~4x slower):
   kept under the same ratio test; only for pages up to `trafilatura_max_chars`, since its time
   grows faster than the page and no signal stops it.
3. resiliparse full text (everything visible), when trafilatura is skipped or falls short.
4. BeautifulSoup with html.parser (pure Python, the most forgiving), when lexbor itself fails.
Tables always come from a lexbor tree (selectolax, see tables.py) and are removed before any text
is taken.

The fast part (step 1, and 3 as its stand-in) is `fast_extract`; the slow steps are a
`FallbackJob`, so a caller can run them where they can be killed (see pool.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import cast

from loguru import logger
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.html import HTMLTree
from selectolax.lexbor import LexborHTMLParser

from models.config import WebConfig
from models.schema import Event
from models.web.page import Page
from models.web.sanitize import as_text, estimated_nesting_depth, flatten_markup, to_utf8
from models.web.sentences import ChunkLimits, text_to_chunks
from models.web.tables import TableLimits, pop_tables


@dataclass
class FallbackJob:
    """The slow step a page still needs, with what the fast part already found."""

    step: str  # "trafilatura" or "beautifulsoup"
    page_name: str
    html: str
    full_text: str
    tables: list[str]
    events: list[Event] = field(default_factory=list)
    seconds: float = 0.0


def extract_page(html: str, page_name: str, config: WebConfig | None = None) -> Page:
    """Text chunks and Markdown tables of one page, in this process (time bounded by size caps)."""
    config = config or WebConfig()
    page, job = fast_extract(html, page_name, config)
    return run_fallback(job, config) if job is not None else page


def fast_extract(raw_html: object, page_name: object, config: WebConfig) -> tuple[Page, FallbackJob | None]:
    """The page from the fast extractor, plus the slow step it still needs (None when done).

    When a step remains, the returned page is the best answer so far (full text), to use if the
    slow step fails or runs out of time.
    """
    started = time.perf_counter()
    name = page_name if isinstance(page_name, str) else ("" if page_name is None else str(page_name))
    html, error = as_text(raw_html)
    if error is not None or not html.strip():
        return Page(page_name=name, error=error, seconds=time.perf_counter() - started), None

    events: list[Event] = []
    if len(html) > config.max_page_chars:
        events.append(Event("degraded", "html cut", f"first {config.max_page_chars} of {len(html)} chars"))
        html = html[: config.max_page_chars]
    if html.count("<") > config.max_nesting_depth:
        depth = estimated_nesting_depth(html)
        if depth > config.max_nesting_depth:
            events.append(
                Event("degraded", "markup flattened", f"nesting depth ~{depth} > {config.max_nesting_depth}")
            )
            html = flatten_markup(html)

    try:
        utf8 = to_utf8(html)
        parser = LexborHTMLParser(utf8)
        tables, removed = pop_tables(parser, name, TableLimits.from_config(config))
        # Text comes from the tree without its data tables (re-serialized only when one was removed).
        tree = HTMLTree.parse(cast(str, parser.html)) if removed else HTMLTree.parse_from_bytes(utf8, "utf-8")
        main_text = extract_plain_text(tree, main_content=True, alt_texts=False)
        full_text = extract_plain_text(tree, main_content=False, alt_texts=False)
    except Exception as exc:  # noqa: BLE001 - lexbor/resiliparse failed on this input: the forgiving parser is next
        events.append(Event("fallback", "lexbor failed", f"{type(exc).__name__}: {exc}; beautifulsoup next"))
        logger.warning("web page {!r}: {}", name, events[-1])
        job = FallbackJob("beautifulsoup", name, html, "", [], events, time.perf_counter() - started)
        return Page(page_name=name, events=list(events), seconds=job.seconds), job
    if len(main_text) >= config.main_text_min_ratio * len(full_text):
        page = Page(name, _chunks(main_text, config, events), tables, "resiliparse", events=events)
        page.seconds = time.perf_counter() - started
        return page, None

    short = f"{len(main_text)} chars < {config.main_text_min_ratio:.0%} of full text {len(full_text)}"
    events.append(Event("fallback", "main text short", short))
    page = Page(name, _chunks(full_text, config, events), tables, "fulltext", events=list(events))
    if len(html) > config.trafilatura_max_chars:
        page.events.append(
            Event(
                "fallback",
                "trafilatura skipped",
                f"page over {config.trafilatura_max_chars} chars, full text kept",
            )
        )
        logger.info("web page {!r}: {}", name, "; ".join(map(str, page.events)))
        page.seconds = time.perf_counter() - started
        return page, None
    logger.info("web page {!r}: {}; trying trafilatura", name, events[-1])
    page.seconds = time.perf_counter() - started
    return page, FallbackJob("trafilatura", name, html, full_text, tables, events, page.seconds)


def run_fallback(job: FallbackJob, config: WebConfig) -> Page:
    """Runs the slow step of `job`; never raises."""
    started = time.perf_counter()
    events = list(job.events)
    if job.step == "trafilatura":
        text, extractor = _trafilatura_or_full_text(job, config, events)
    else:
        text, extractor = _beautifulsoup_text(job, config, events), "beautifulsoup"
    chunks = _chunks(text, config, events)
    seconds = job.seconds + time.perf_counter() - started
    return Page(job.page_name, chunks, list(job.tables), extractor, seconds, events=events)


def _chunks(text: str, config: WebConfig, events: list[Event]) -> list[str]:
    if len(text) > config.max_text_chars:
        events.append(Event("degraded", "text cut", f"first {config.max_text_chars} of {len(text)} chars"))
        text = text[: config.max_text_chars]
    return text_to_chunks(text, ChunkLimits.from_config(config))


def _trafilatura_or_full_text(job: FallbackJob, config: WebConfig, events: list[Event]) -> tuple[str, str]:
    import lxml.html
    import trafilatura

    try:
        tree = lxml.html.document_fromstring(to_utf8(job.html))
        text = trafilatura.extract(tree, include_tables=False) or ""
    except Exception as exc:  # noqa: BLE001 - any failure here means: keep the full text
        events.append(Event("fallback", "trafilatura failed", f"{type(exc).__name__}: {exc}; full text kept"))
        logger.warning("web page {!r}: {}", job.page_name, events[-1])
        return job.full_text, "fulltext"
    if len(text) >= config.main_text_min_ratio * len(job.full_text):
        return text, "trafilatura"
    events.append(Event("fallback", "trafilatura short", f"{len(text)} chars; full text kept"))
    logger.info("web page {!r}: {}", job.page_name, events[-1])
    return job.full_text, "fulltext"


def _beautifulsoup_text(job: FallbackJob, config: WebConfig, events: list[Event]) -> str:
    from bs4 import BeautifulSoup

    html = job.html
    if len(html) > config.beautifulsoup_max_chars:
        events.append(
            Event("degraded", "beautifulsoup capped", f"first {config.beautifulsoup_max_chars} chars read")
        )
        html = html[: config.beautifulsoup_max_chars]
    try:
        soup = BeautifulSoup(html, "html.parser")
        for node in soup(["script", "style", "noscript", "template"]):
            node.decompose()
        return soup.get_text("\n")
    except Exception as exc:  # noqa: BLE001 - the last resort must not raise
        events.append(
            Event("failed", "beautifulsoup failed", f"{type(exc).__name__}: {exc}; page left empty")
        )
        logger.warning("web page {!r}: {}", job.page_name, events[-1])
        return ""
