"""PageExtractor: batch de-duplication, the in-process/pool split, and a killed page never failing
the others."""

from __future__ import annotations

import time

import pytest

from models.config import WebConfig
from models.schema import Question, SearchResult
from models.web import Page, PageExtractor
from models.web.page import PageChoice, WebPages
from tests.test_web_adversarial import ADVERSARIAL_PAGES


def _html(topic: str, extra: str = "") -> str:
    body = "".join(f"<p>The {topic} report number {i} was filed in {2000 + i}.</p>" for i in range(9))
    return f"<html><body><article>{body}{extra}</article></body></html>"


def _question(qid: str, pages: list[tuple[str, object]]) -> Question:
    results = [SearchResult(page_name=name, page_result=html) for name, html in pages]  # type: ignore[arg-type]
    return Question(interaction_id=qid, query="q", query_time="", search_results=results)


@pytest.fixture(scope="module")
def pooled() -> PageExtractor:
    """Every batch through the worker processes (two workers)."""
    with PageExtractor(WebConfig(workers=2, inprocess_max_total_chars=0)) as extractor:
        yield extractor


def _texts(pages: list[Page]) -> list[str]:
    return [chunk for page in pages for chunk in page.chunks]


@pytest.mark.parametrize("inprocess_max_total_chars", [0, 10**9])
def test_pages_and_chunks_are_deduplicated(inprocess_max_total_chars: int):
    shared = "<p>Shared footer sentence about cookies and privacy.</p>" * 3
    first, second = _html("weather", shared), _html("traffic", shared)
    questions = [
        _question("a", [("W", first), ("W", first), ("T", second)]),
        _question("b", [("T", second)]),
        _question("c", []),
    ]
    config = WebConfig(workers=1, inprocess_max_total_chars=inprocess_max_total_chars)
    with PageExtractor(config) as extractor:
        result = extractor.run(questions)
    assert [[page.page_name for page in pages] for pages in result] == [["W", "T"], ["T"], []]
    a_chunks = _texts(result[0])
    assert len(a_chunks) == len(set(a_chunks))
    assert sum("cookies" in chunk for chunk in a_chunks) == 1
    assert any("cookies" in chunk for chunk in _texts(result[1]))  # de-duplication is per question
    assert any("traffic report number 8" in chunk for chunk in _texts(result[1]))


def test_pool_matches_in_process_extraction(pooled: PageExtractor):
    questions = [_question("a", [("one", _html("harbor")), ("two", _html("airport"))])]
    with PageExtractor(WebConfig(inprocess_max_total_chars=10**9)) as local:
        expected = [[(p.page_name, p.chunks, p.tables) for p in pages] for pages in local.run(questions)]
    got = [[(p.page_name, p.chunks, p.tables) for p in pages] for pages in pooled.run(questions)]
    assert got == expected


def test_adversarial_pages_through_the_pool(pooled: PageExtractor):
    questions = [_question(name, [(name, make())]) for name, make in ADVERSARIAL_PAGES.items()]
    result = pooled.run(questions)
    assert [pages[0].page_name for pages in result] == list(ADVERSARIAL_PAGES)
    assert all(isinstance(pages[0], Page) for pages in result)
    by_name = {pages[0].page_name: pages[0] for pages in result}
    assert "river bank flooded in year 5" in " ".join(by_name["10,000-deep nesting"].chunks)


# A 4 MB page that trafilatura needs many seconds for.
SLOW_PAGE = "".join(f"<div><p>Row {i} of the slow page, with several words.</p></div>" for i in range(70_000))


def _every_page_to_trafilatura(workers: int, page_timeout_s: float) -> WebConfig:
    """Every page goes through the pool to trafilatura (main text never reaches 101 % of the full text)."""
    return WebConfig(
        workers=workers,
        inprocess_max_total_chars=0,
        main_text_min_ratio=1.01,
        trafilatura_max_chars=10**9,
        page_timeout_s=page_timeout_s,
    )


def test_a_page_past_its_deadline_is_killed_alone():
    # The slow page takes far past its deadline, so its worker is killed.
    config = _every_page_to_trafilatura(workers=2, page_timeout_s=1.5)
    questions = [_question("slow", [("slow", SLOW_PAGE)]), _question("ok", [("ok", _html("garden"))])]
    with PageExtractor(config) as extractor:
        slow_pages, ok_pages = extractor.run(questions)
        assert slow_pages[0].error is not None and "timed out" in slow_pages[0].error
        assert ok_pages[0].error is None
        assert any("garden report number 3" in chunk for chunk in ok_pages[0].chunks)
        again = extractor.run([_question("after", [("after", _html("orchard"))])])  # replacement worker
    assert any("orchard report number 3" in chunk for chunk in again[0][0].chunks)


def test_a_worker_that_died_while_idle_costs_nothing(pooled: PageExtractor):
    pooled.run([_question("warm", [("warm", _html("bridge"))])])
    for worker in pooled._pool._workers:  # simulate crashes between batches
        worker.process.kill()
        worker.process.wait()
    result = pooled.run([_question("x", [("x", _html("castle")), ("y", _html("tunnel"))])])
    assert [page.error for page in result[0]] == [None, None]
    assert any("tunnel report number 2" in chunk for chunk in _texts(result[0]))


def test_malformed_search_results_do_not_fail_the_batch(pooled: PageExtractor):
    odd = Question(interaction_id="odd", query="q", query_time="", search_results=[SearchResult()])
    result = pooled.run([odd, _question("fine", [("fine", _html("meadow"))])])
    assert result[0][0].chunks == [] and result[1][0].chunks


def test_the_page_work_stops_when_its_seconds_run_out():
    # The same slow page as above, with far more time per page than the stage has: the stage ends
    # on time, keeping what the fast extractor found, and pages it never reached say so.
    config = _every_page_to_trafilatura(workers=1, page_timeout_s=60.0)
    pages = [("slow", SLOW_PAGE), ("later", _html("garden"))]
    with PageExtractor(config) as extractor:
        extractor.warm_up()
        started = time.monotonic()
        [result] = extractor.run([_question("both", pages)], seconds=4.0)
        elapsed = time.monotonic() - started
        assert elapsed < 15.0  # ~4 s, not the 60 s a page may take
        assert all(page.error and "batch deadline" in page.error for page in result)
        assert result[0].extractor  # the slow page keeps the fast extractor's result


def test_pages_not_chosen_are_handed_on_unread_and_the_best_ranked_are_parsed_first():
    # One worker and 4 s: the slow page is ranked below the small one, so the small one is parsed
    # first and in time (largest-first would leave it waiting behind the slow page).
    config = _every_page_to_trafilatura(workers=1, page_timeout_s=60.0)
    pages = [("slow", SLOW_PAGE), ("small", _html("garden")), ("skipped", _html("harbour"))]
    choice = PageChoice(read=[True, True, False], rank=[1, 0, 2])
    with PageExtractor(config) as extractor:
        extractor.warm_up()
        [result] = extractor.run([_question("q", pages)], seconds=4.0, choices=[choice])
    by_name = {page.page_name: page for page in result}
    assert by_name["small"].error is None and any(
        "garden report" in chunk for chunk in by_name["small"].chunks
    )
    assert by_name["slow"].error and "batch deadline" in by_name["slow"].error
    assert (
        not by_name["skipped"].read and by_name["skipped"].chunks == [] and by_name["skipped"].error is None
    )
    assert all(page.read for page in result if page.page_name != "skipped")
    events = WebPages.of(result).events
    assert [event.what for event in events if event.kind == "skipped"] == ["pages not read"]


def test_a_page_one_question_skips_is_still_read_for_another():
    html = _html("lighthouse")
    questions = [_question("a", [("shared", html)]), _question("b", [("shared", html)])]
    choices = [PageChoice([False], [0]), PageChoice([True], [0])]
    with PageExtractor(WebConfig(inprocess_max_total_chars=10**9)) as extractor:
        first, second = extractor.run(questions, choices=choices)
    assert not first[0].read and first[0].chunks == []
    assert second[0].read and any("lighthouse" in chunk for chunk in second[0].chunks)
