"""The candidate pool of one question: every piece of evidence that may reach the reasoning prompt.

Sentences of the pages' text and of the search snippets (each kept in its passage, so selection can
show it with the neighbours it needs), table rows verbalized with their headers and page name (QUASAR
style), whole Markdown tables and extra lines (e.g. from the knowledge graph) all compete in one pool.
Text is compared by its key (`text_key`): a sentence competes once whatever page repeats it, a snippet
fragment already inside a page sentence does not compete, and a near-duplicate page is left out.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from models.config import RetrievalConfig
from models.markdown import table_row
from models.schema import Question
from models.web.sentences import split_sentences

Kind = Literal["sentence", "row", "table", "extra"]

_PAGE_NAME_LINE = re.compile(r"^\s*Page name:\s*(.*)$")
_SEPARATOR_CELL = re.compile(r"^:?-{1,}:?$")
_NOT_ALPHANUMERIC = re.compile(r"[\W_]+")
_HTML_TAG = re.compile(r"<[^>]{1,200}>")
# Search engines join the fragments of a snippet with an ellipsis, often without a space.
_SNIPPET_JOIN = re.compile(r"\s*(?:\.{3,}|\u2026)\s*")


class PageContent(Protocol):
    """What retrieval reads from a `models.web.Page`."""

    page_name: str
    chunks: list[str]
    tables: list[str]


@dataclass
class Candidate:
    text: str
    kind: Kind
    # Index of the whole-table candidate a row belongs to (or the table's own index), else None.
    table_group: int | None = None
    # A sentence's passage (index into `Pool.passages`) and its position there.
    passage: int | None = None
    position: int = 0
    # The page it comes from (index into the question's pages; a snippet's is the page of that name),
    # None for an extra line or a snippet of a page not among them.
    page: int | None = None


@dataclass
class Pool:
    candidates: list[Candidate] = field(default_factory=list)
    # The sentences of each page's text and of each snippet fragment, in order (a sentence's context),
    # and the name of the page each passage comes from.
    passages: list[list[str]] = field(default_factory=list)
    passage_names: list[str] = field(default_factory=list)


@dataclass
class MarkdownTable:
    page_name: str
    header: list[str]
    rows: list[list[str]]
    preamble: list[str]  # lines above the table (the `Page name:` heading, captions)


def text_key(text: str) -> str:
    """How texts are compared: lower case, every run of other characters than letters and digits one space."""
    return _NOT_ALPHANUMERIC.sub(" ", text).strip().lower()


class KeyText:
    """Keys of texts in one string, to ask whether a key occurs in any of them (word-bounded)."""

    def __init__(self, keys: Sequence[str] = ()):
        self.text = " " + "".join(f"{key} | " for key in keys)

    def add(self, key: str) -> None:
        self.text += f"{key} | "

    def __contains__(self, key: str) -> bool:
        return f" {key} " in self.text


def build_pool(
    question: Question, pages: Sequence[PageContent], extra: Sequence[str], config: RetrievalConfig
) -> Pool:
    """All distinct candidates of one question, pages first (their sentences have context), then the
    snippet fragments the pages do not already hold, then tables and their rows.

    A repeated sentence stays in its passage as context, but competes only once.
    """
    pool = Pool()
    seen: set[str] = set()

    def add(candidate: Candidate) -> int | None:
        key = text_key(candidate.text)
        if not key or key in seen:
            return None
        seen.add(key)
        candidate.text = candidate.text.strip()
        pool.candidates.append(candidate)
        return len(pool.candidates) - 1

    def add_passage(
        sentences: list[str], name: str, page: int | None, held_by: KeyText | None = None
    ) -> None:
        """A passage whose sentences compete, except those that `held_by` already holds."""
        pool.passages.append(sentences)
        pool.passage_names.append(name)
        for position, sentence in enumerate(sentences):
            if held_by is None or text_key(sentence) not in held_by:
                add(
                    Candidate(
                        sentence, "sentence", passage=len(pool.passages) - 1, position=position, page=page
                    )
                )

    for line in extra:
        add(Candidate(line, "extra"))
    kept_pages = distinct_pages(pages, config)
    for index, page, sentences in kept_pages:
        add_passage(sentences, page.page_name, index)
    page_text = KeyText([text_key(sentence) for _, _, sentences in kept_pages for sentence in sentences])
    if config.use_snippets:
        page_of_name: dict[str, int] = {}
        for index, page in enumerate(pages):
            page_of_name.setdefault(page.page_name, index)
        for result in question.search_results:
            snippet = html.unescape(_HTML_TAG.sub("", result.page_snippet))[: config.snippet_max_chars]
            for fragment in _SNIPPET_JOIN.split(snippet):
                sentences = split_sentences(fragment, config.sentence_max_chars)
                if sentences:
                    add_passage(
                        sentences, result.page_name, page_of_name.get(result.page_name), held_by=page_text
                    )
    for index, page, _ in kept_pages:
        for markdown in page.tables:
            table = parse_markdown_table(markdown, page.page_name)
            if table is None:
                add(Candidate(markdown[: config.max_table_chars], "table", page=index))
                continue
            table_index = add(
                Candidate(fit_table(markdown, table, config.max_table_chars), "table", page=index)
            )
            if table_index is None:
                continue
            pool.candidates[table_index].table_group = table_index
            if config.use_table_rows:
                for row in table.rows:
                    add(
                        Candidate(
                            verbalize_row(table, row, config.table_row_max_chars),
                            "row",
                            table_index,
                            page=index,
                        )
                    )
    return pool


def distinct_pages(
    pages: Sequence[PageContent], config: RetrievalConfig
) -> list[tuple[int, PageContent, list[str]]]:
    """Each page (with its index) and its text's sentences, less the pages whose sentences are mostly
    (at least `duplicate_page_share`) in earlier pages: a mirror or a re-published copy adds nothing new."""
    kept = []
    seen: set[str] = set()
    for index, page in enumerate(pages):
        sentences = split_sentences("\n".join(page.chunks), config.sentence_max_chars)
        keys = {text_key(sentence) for sentence in sentences} - {""}
        if keys and len(keys & seen) >= config.duplicate_page_share * len(keys):
            continue
        seen |= keys
        kept.append((index, page, sentences))
    return kept


def parse_markdown_table(markdown: str, page_name: str = "") -> MarkdownTable | None:
    """Header and rows of a pipe table, or None when `markdown` holds no such table."""
    preamble: list[str] = []
    table_lines: list[list[str]] = []
    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
            if not all(_SEPARATOR_CELL.match(cell) for cell in cells if cell):
                table_lines.append(cells)
        elif stripped and not table_lines:
            preamble.append(stripped)
            named = _PAGE_NAME_LINE.match(stripped)
            if named:
                page_name = named.group(1).strip()
    if len(table_lines) < 2:
        return None
    return MarkdownTable(page_name, table_lines[0], table_lines[1:], preamble)


def fit_table(markdown: str, table: MarkdownTable, max_chars: int) -> str:
    """`markdown` itself when it fits, else its preamble, header and the leading rows that fit."""
    if len(markdown) <= max_chars:
        return markdown
    lines = [*table.preamble, table_row(table.header), table_row(["---"] * len(table.header))]
    size = sum(len(line) + 1 for line in lines)
    for row in table.rows:
        line = table_row(row)
        if size + len(line) + 1 > max_chars:
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def verbalize_row(table: MarkdownTable, row: list[str], max_chars: int) -> str:
    """`Page name: P; Header: value; ...` so a row makes sense on its own."""
    headers = table.header if any(table.header) else [f"column {i + 1}" for i in range(len(row))]
    pairs = [
        f"{header or f'column {i + 1}'}: {value}"
        for i, (header, value) in enumerate(zip(headers, row))
        if value
    ]
    if not pairs:
        return ""
    prefix = f"Page name: {table.page_name}; " if table.page_name else ""
    return (prefix + "; ".join(pairs))[:max_chars]
