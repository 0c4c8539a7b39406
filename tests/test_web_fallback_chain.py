"""extract_page: text chunks, Markdown tables, the fallback chain and the paper chunking rules."""

from __future__ import annotations

import pytest

from models.config import WebConfig
from models.web import Page, extract_page
from models.web import fallback_chain
from models.web.sentences import ChunkLimits, chunk_sentences, cut_at_words, is_question, split_sentences

ARTICLE = " ".join(
    f"<p>The museum opened gallery number {i} in the spring of {1990 + i} to great acclaim.</p>"
    for i in range(12)
)
TABLE = (
    "<table><thead><tr><th>Team</th><th>Wins</th></tr></thead><tbody>"
    "<tr><td>Lakers<script>var tracking = 1;</script><style>.x{color:red}</style></td><td>17</td></tr>"
    "<tr><td>Celtics</td><td>18</td></tr></tbody></table>"
)
PAGE = f"<html><head><title>t</title></head><body><article>{ARTICLE}{TABLE}</article></body></html>"


def test_text_chunks_and_markdown_table_are_separate():
    page = extract_page(PAGE, "NBA titles")
    assert isinstance(page, Page) and page.error is None
    assert page.extractor == "resiliparse"
    assert page.tables == [
        "Page name: NBA titles\n| Team | Wins |\n| --- | --- |\n| Lakers | 17 |\n| Celtics | 18 |"
    ]
    text = " ".join(page.chunks)
    assert "gallery number 11" in text
    assert "Celtics" not in text and "Lakers" not in text
    assert "tracking" not in page.tables[0] and "color" not in page.tables[0]


def test_pipes_in_cells_do_not_break_columns():
    html = "<table><tr><th>q</th><th>a</th></tr><tr><td>x|y</td><td>z</td></tr></table>"
    assert extract_page(html, "pipes").tables[0].splitlines()[-1] == "| x/y | z |"


def test_colspan_repeats_the_cell():
    html = "<table><tr><th colspan=2>Score</th></tr><tr><td>home</td><td>away</td></tr></table>"
    assert extract_page(html, "span").tables[0].splitlines()[1] == "| Score | Score |"


def test_empty_and_layout_tables():
    html = (
        "<body><p>Intro sentence about the season results here.</p>"
        "<table><tr><td></td><td> </td></tr><tr><td></td><td></td></tr></table>"
        "<table><tr><td>A single layout cell that holds a paragraph of running text.</td></tr></table>"
        "</body>"
    )
    page = extract_page(html, "p")
    assert page.tables == []
    assert any("single layout cell" in chunk for chunk in page.chunks)


def test_nested_table_is_not_repeated_in_outer_table():
    inner = "<table><tr><th>k</th><th>v</th></tr><tr><td>alpha</td><td>1</td></tr></table>"
    outer = f"<table><tr><th>name</th><th>detail</th></tr><tr><td>box</td><td>{inner}</td></tr></table>"
    page = extract_page(f"<body>{outer}</body>", "nest")
    assert len(page.tables) == 2
    assert sum("alpha" in table for table in page.tables) == 1


def test_long_table_is_split_with_header_repeated():
    rows = "".join(f"<tr><td>row {i}</td><td>{i * 7}</td></tr>" for i in range(60))
    config = WebConfig(table_max_chars=300)
    page = extract_page(f"<table><tr><th>name</th><th>value</th></tr>{rows}</table>", "long", config)
    assert len(page.tables) > 1
    for piece in page.tables:
        assert piece.startswith("Page name: long\n| name | value |\n| --- | --- |")
        assert len(piece) <= 300
    assert sum(piece.count("| row ") for piece in page.tables) == 60


def test_identical_chunks_within_a_page_are_kept_once():
    repeated = "<p>Subscribe to our newsletter today.</p>" * 9
    page = extract_page(f"<body>{ARTICLE}{repeated}</body>", "dup")
    assert len(page.chunks) == len(set(page.chunks))


def test_questions_join_their_answers_and_other_sentences_group_by_three():
    limits = ChunkLimits(sentence_max_chars=200, sentences_per_chunk=3, question_chunk_max_chars=60)
    sentences = [
        "One.",
        "Two.",
        "Three.",
        "Four.",
        "How tall is it?",
        "It is tall.",
        "Very tall.",
        "x" * 50,
        "Five.",
    ]
    assert chunk_sentences(sentences, limits) == [
        "One. Two. Three.",
        "Four.",
        "How tall is it? It is tall. Very tall.",
        "x" * 50 + " Five.",
    ]
    assert is_question("Does it rain") and is_question("it rains?") and not is_question("Whatever happens.")


def test_long_sentences_are_cut_at_word_boundaries():
    words = [f"word{i}" for i in range(80)]
    pieces = split_sentences(" ".join(words), 50)
    assert all(len(piece) <= 50 for piece in pieces)
    assert " ".join(pieces).split() == words
    assert cut_at_words("x" * 120, 50) == ["x" * 50, "x" * 50, "x" * 20]


def test_newlines_end_sentences_before_blingfire_splits():
    sentences = split_sentences("Menu\nHome\nThe first sentence is here. The second one follows.", 200)
    assert sentences == ["Menu", "Home", "The first sentence is here.", "The second one follows."]


def test_short_main_text_falls_back_to_trafilatura_or_full_text():
    config = WebConfig(main_text_min_ratio=1.01)  # no main text can pass: force the fallback
    page = extract_page(PAGE, "forced", config)
    assert page.extractor in {"trafilatura", "fulltext"}
    assert any(event.what == "main text short" for event in page.events)
    assert "gallery number 11" in " ".join(page.chunks)
    assert len(page.tables) == 1


def test_page_too_large_for_trafilatura_keeps_full_text():
    config = WebConfig(main_text_min_ratio=1.01, trafilatura_max_chars=100)
    page = extract_page(PAGE, "big", config)
    assert page.extractor == "fulltext"
    assert any(event.what == "trafilatura skipped" for event in page.events)


def test_lexbor_failure_falls_back_to_beautifulsoup(monkeypatch: pytest.MonkeyPatch):
    def broken_parser(*args, **kwargs):
        raise RuntimeError("parser exploded")

    monkeypatch.setattr(fallback_chain, "LexborHTMLParser", broken_parser)
    page = extract_page(PAGE, "bs4")
    assert page.extractor == "beautifulsoup"
    assert "gallery number 11" in " ".join(page.chunks)
    assert "tracking" not in " ".join(page.chunks)
    assert any("parser exploded" in event.detail for event in page.events)
