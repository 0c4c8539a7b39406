"""Bad input: every page below yields a Page (possibly empty) and keeps what a tolerant parser can.

The inputs are generated here (the benchmark times the same generators); none is a committed file.
How long each takes is printed by benchmarks/web_pages.py, not asserted here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from models.config import WebConfig
from models.web import Page, extract_page

SENTENCE = "<p>Paragraph {i} says the river bank flooded in year {i}.</p>"


def _binary_garbage() -> str:
    rng = random.Random(7)
    return bytes(rng.randrange(256) for _ in range(300_000)).decode("latin-1")


def _page_of_chars(chars: int) -> str:
    body = "".join(SENTENCE.format(i=i) for i in range(chars // len(SENTENCE.format(i=10**5))))
    return f"<html><body><article>{body}</article></body></html>"


def _single_table(chars: int) -> str:
    rows = "".join(
        f"<tr><td>city {i}</td><td>{i * 3}</td><td>region {i % 50}</td></tr>" for i in range(chars // 60)
    )
    return (
        "<html><body><p>Populations by city.</p>"
        f"<table><tr><th>city</th><th>people</th><th>region</th></tr>{rows}</table></body></html>"
    )


ADVERSARIAL_PAGES: dict[str, Callable[[], object]] = {
    "empty": lambda: "",
    "none": lambda: None,
    "whitespace": lambda: " \n\t  \r\n ",
    "plain text": lambda: "No markup at all. Just the river bank flooded in year 12.",
    "binary garbage": _binary_garbage,
    "invalid utf-8 bytes": lambda: b"<p>caf\xe9 \xff\xfe the river bank flooded in year 3.</p>",
    "lone surrogates": lambda: "<p>before \ud800 the river bank \udfff flooded in year 4.</p>" * 200,
    "25 MB page": lambda: _page_of_chars(25_000_000),
    "10,000-deep nesting": lambda: "<div>" * 10_000 + SENTENCE.format(i=5) + "</div>" * 10_000,
    "10,000-deep unclosed": lambda: "".join(f"<div><span>word{i} " for i in range(10_000)),
    "unclosed tags": lambda: "<body>" + "".join(f"<p><b>item {i} <i>river bank" for i in range(5_000)),
    "6 MB single table": lambda: _single_table(6_000_000),
}


@pytest.fixture(scope="module")
def pages() -> dict[str, Page]:
    return {name: extract_page(make(), name) for name, make in ADVERSARIAL_PAGES.items()}


@pytest.mark.parametrize("name", list(ADVERSARIAL_PAGES))
def test_every_bad_input_yields_a_page(pages: dict[str, Page], name: str):
    page = pages[name]
    assert isinstance(page, Page)
    assert page.page_name == name
    assert all(isinstance(chunk, str) and chunk for chunk in page.chunks)


@pytest.mark.parametrize("name", ["empty", "none", "whitespace"])
def test_nothing_in_nothing_out(pages: dict[str, Page], name: str):
    assert pages[name].chunks == [] and pages[name].tables == [] and pages[name].error is None


@pytest.mark.parametrize(
    "name, expected",
    [
        ("plain text", "river bank flooded in year 12"),
        ("invalid utf-8 bytes", "river bank flooded in year 3"),
        ("10,000-deep nesting", "river bank flooded in year 5"),
        ("10,000-deep unclosed", "word9999"),
        ("unclosed tags", "item 4999"),
        ("25 MB page", "flooded in year 1000."),
    ],
)
def test_text_a_tolerant_parser_keeps_is_kept(pages: dict[str, Page], name: str, expected: str):
    assert expected in " ".join(pages[name].chunks)


def test_lone_surrogates_do_not_cut_the_text(pages: dict[str, Page]):
    text = " ".join(pages["lone surrogates"].chunks)
    assert "before" in text and "flooded in year 4" in text
    text.encode("utf-8")  # nothing unencodable left


def test_deep_pages_are_flattened_and_huge_pages_cut(pages: dict[str, Page]):
    assert any(event.what == "markup flattened" for event in pages["10,000-deep nesting"].events)
    assert any(event.what == "html cut" for event in pages["25 MB page"].events)
    assert len(pages["25 MB page"].chunks) <= WebConfig().max_text_chars // 100


def test_huge_single_table_is_capped(pages: dict[str, Page]):
    config = WebConfig()
    tables = pages["6 MB single table"].tables
    assert tables and tables[0].startswith("Page name: 6 MB single table\n| city | people | region |")
    data_rows = {line for table in tables for line in table.splitlines() if re.match(r"\| city \d+ \|", line)}
    assert len(data_rows) == config.max_table_rows - 1  # the header row counts as one
    assert "Populations by city." in " ".join(pages["6 MB single table"].chunks)


def test_non_text_input_is_an_error_not_a_crash():
    page = extract_page(12345, "number")  # type: ignore[arg-type]
    assert page.chunks == [] and page.error and "int" in page.error
