"""How promising each of a question's pages is, and which to parse in full when there are many.

A page is judged by its card: its title, the words of its URL, its search snippet and the first
`retrieval.page_card_chars` characters of its text; the score is BM25 of the query over the cards
of the question's pages (the candidates' own lexical scoring, `sparse.py`). Two uses:

- before parsing (`PageTriage`, the web stage): the text is a first look at the HTML (the visible
  text of its first `web.first_pass_chars` characters, tags stripped by regular expression, no
  parser). A question with more than `web.read_all_up_to` pages has only its `web.read_pages` best
  parsed in full (0: all); the stage parses a batch's pages best first, so that when time runs short the
  least promising are the ones left out. A page not read still shows its snippet to retrieval.
- in retrieval (`Retriever`), from the extracted text: each candidate's lexical score is multiplied
  by (its page's score / the best page's) ** `retrieval.page_weight`, so that the pages about the
  question lead, and a long page about something else cannot fill the shortlist.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from models.config import RetrievalConfig, WebConfig
from models.retrieval.sparse import bm25_scores
from models.schema import Question, SearchResult
from models.web.page import PageChoice
from models.web.sanitize import visible_text

_URL_NOISE = re.compile(r"^(?:https?|www|html?|php|aspx?|com|org|net)$")
_URL_WORD = re.compile(r"[^\W_]+")


def url_words(url: str) -> str:
    return " ".join(word for word in _URL_WORD.findall(url.lower()) if not _URL_NOISE.match(word))


def page_card(name: str, result: SearchResult | None, text: str, config: RetrievalConfig) -> str:
    """What a page is judged by: `name`, its search result's URL words and snippet, and the first
    `page_card_chars` characters of `text`."""
    parts = [name, text[: config.page_card_chars]]
    if result is not None:
        parts[1:1] = [url_words(result.page_url), result.page_snippet]
    return " ".join(parts)


def page_scores(query: str, cards: Sequence[str], config: RetrievalConfig) -> np.ndarray:
    """BM25 of `query` over the cards of a question's pages."""
    return bm25_scores(query, list(cards), config) if cards else np.zeros(0, dtype=np.float32)


class PageTriage:
    """Which of each question's search results the web stage parses in full, and in what order."""

    def __init__(self, web: WebConfig, retrieval: RetrievalConfig):
        self.web = web
        self.retrieval = retrieval

    def choose(self, questions: Sequence[Question]) -> list[PageChoice]:
        return [self._choose(question) for question in questions]

    def _choose(self, question: Question) -> PageChoice:
        results = question.search_results
        if len(results) <= self.web.read_all_up_to:
            return PageChoice([True] * len(results), [0] * len(results))
        cards = [
            page_card(
                result.page_name,
                result,
                visible_text(result.page_result, self.web.first_pass_chars),
                self.retrieval,
            )
            for result in results
        ]
        order = np.argsort(-page_scores(question.query, cards, self.retrieval), kind="stable")
        ranks = [0] * len(results)
        for position, index in enumerate(order):
            ranks[int(index)] = position
        limit = self.web.read_pages or len(results)
        return PageChoice([rank < limit for rank in ranks], ranks)
