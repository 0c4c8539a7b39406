"""What the web-page stage hands on: one extracted page."""

from __future__ import annotations

from dataclasses import dataclass, field

from models.schema import Event, StageResult


@dataclass
class Page:
    """Text chunks (table content excluded) and Markdown tables taken from one search result."""

    page_name: str
    chunks: list[str] = field(default_factory=list)
    # Each table starts with the line `Page name: <page_name>`, then a Markdown table.
    tables: list[str] = field(default_factory=list)
    # Which step of the fallback chain produced the text: resiliparse, trafilatura, fulltext,
    # beautifulsoup, or none (nothing to extract).
    extractor: str = "none"
    seconds: float = 0.0
    # Why the page could not be (fully) extracted: unreadable input, a crashed or timed-out worker.
    error: str | None = None
    # False: the page was not parsed (a question with many pages reads only the most promising).
    read: bool = True
    # Caps and fallbacks applied to this page, in order; with `error`, they reach the question's
    # trace (`WebPages`), and the report counts them.
    events: list[Event] = field(default_factory=list)


@dataclass
class PageChoice:
    """Which of a question's search results to parse in full (`read`), and each one's rank (0: the
    most promising; the stage parses a batch's pages best rank first)."""

    read: list[bool]
    rank: list[int]


@dataclass
class WebPages(StageResult):
    """The web stage's result for one question: its pages, and their errors and events (each page's
    name in the detail)."""

    pages: list[Page] = field(default_factory=list)

    @classmethod
    def of(cls, pages: list[Page]) -> "WebPages":
        events = []
        for page in pages:
            where = f" [{page.page_name[:80]}]" if page.page_name else ""
            if page.error:
                events.append(Event("failed", "page error", f"{page.error}{where}"))
            events += [
                Event(event.kind, f"page {event.what}", f"{event.detail}{where}") for event in page.events
            ]
        unread = sum(not page.read for page in pages)
        if unread:
            events.append(
                Event("skipped", "pages not read", f"{unread} of {len(pages)}, ranked below those read")
            )
        return cls(pages=pages, events=events)
