"""Web pages: raw HTML -> text chunks and Markdown tables (see extract.py for the fallback chain)."""

from models.web.extract import extract_page
from models.web.extractor import PageExtractor
from models.web.page import Page

__all__ = ["Page", "PageExtractor", "extract_page"]
