"""What the web-page stage hands on: one extracted page."""

from __future__ import annotations

from dataclasses import dataclass, field


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
    # Caps and fallbacks applied to this page, in order, each "<kind>: <detail>"; the orchestrator
    # copies them and `error` into the question's trace, and the report counts them by kind.
    notes: list[str] = field(default_factory=list)
