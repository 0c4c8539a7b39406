"""Web pages: raw HTML -> text chunks and Markdown tables.

`fallback_chain.py` takes one page through the chain of extractors; `stage.py` is the batch stage
(`PageExtractor`), which runs that chain for every distinct page of a batch in bounded time.
"""

from models.web.fallback_chain import extract_page
from models.web.page import Page
from models.web.stage import PageExtractor

__all__ = ["Page", "PageExtractor", "extract_page"]
