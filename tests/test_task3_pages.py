"""The Task-3 shape of benchmarks/retrieval.py: own pages among distractors, none holding the answer."""

from __future__ import annotations

from benchmarks.page_cache import PageStore
from benchmarks.retrieval import AnswerTest, Source
from benchmarks.task3_pages import SourceQuestion, many_pages
from evaluation.data import GoldQuestion
from evaluation.evidence_recall import answer_key, spans_key
from models.config import RetrievalConfig, WebConfig
from models.schema import Question, SearchResult
from models.web import PageExtractor


def result(name: str, text: str = "", url: str = "") -> SearchResult:
    return SearchResult(
        page_name=name, page_url=url or f"https://example.org/{name}", page_result=f"<p>{text}</p>"
    )


def questions() -> list[SourceQuestion]:
    return [
        SourceQuestion("q0", "movie", tuple(result(f"q0-{i}") for i in range(2))),
        SourceQuestion("q1", "movie", tuple(result(f"q1-{i}") for i in range(3))),
        SourceQuestion("q2", "music", tuple(result(f"q2-{i}") for i in range(3))),
        SourceQuestion("q3", "movie", tuple(result(f"q3-{i}") for i in range(3))),
    ]


def names(drawn) -> list[str]:
    return [page.result.page_name for page in drawn]


def never(question: int, page: SearchResult) -> bool:
    return False


def test_own_pages_stay_and_distractors_fill_up_to_the_count_same_domain_first():
    drawn = many_pages(questions(), 5, never)
    first = drawn[0]
    assert len(first) == 5
    assert {"q0-0", "q0-1"} <= set(names(first))
    assert sum(page.is_own(0) for page in first) == 2
    # Three distractors, all from the other movie questions (six such pages), none from music.
    assert all(name[:2] in ("q1", "q3") for name in names(first) if not name.startswith("q0"))


def test_other_domains_come_only_after_the_own_domain_runs_out():
    drawn = many_pages(questions(), 11, never)
    first = names(drawn[0])
    assert len(first) == 11
    assert sum(name.startswith("q2") for name in first) == 3  # 2 own + 6 movie + 3 music


def test_a_page_holding_the_answer_is_never_a_distractor_of_that_question():
    def holds(question: int, page: SearchResult) -> bool:
        return question == 0 and page.page_name in ("q1-0", "q3-2")

    for count in (5, 11):
        drawn = many_pages(questions(), count, holds)
        assert not {"q1-0", "q3-2"} & set(names(drawn[0]))
        assert "q1-0" in names(drawn[3]) or count == 5  # another question may still draw it
    assert "q1-0" in names(many_pages(questions(), 11, holds)[3])


def test_a_page_the_question_already_has_is_not_drawn_again():
    shared = result("mirror", url="https://example.org/same")
    sources = [
        SourceQuestion("a", "open", (shared,)),
        SourceQuestion("b", "open", (result("other", url="https://example.org/same"), result("b-1"))),
    ]
    drawn = many_pages(sources, 5, never)
    assert names(drawn[0]).count("mirror") + names(drawn[0]).count("other") == 1
    assert len(drawn[0]) == 2


def test_the_draw_and_the_order_are_seeded():
    assert [names(d) for d in many_pages(questions(), 8, never, seed=1)] == [
        names(d) for d in many_pages(questions(), 8, never, seed=1)
    ]
    orders = [names(d) for d in many_pages(questions(), 8, never, seed=0)]
    # The own pages are not simply put first.
    assert any(
        not all(name.startswith(f"q{i}") for name in order[: len(questions()[i].pages)])
        for i, order in enumerate(orders)
    )


def store() -> PageStore:
    return PageStore(PageExtractor(WebConfig()), WebConfig(), RetrievalConfig(), None)


def source(answer: str, spans: list[str] | None = None, alternatives: tuple[str, ...] = ()) -> Source:
    query = "who directed the film?"
    gold = GoldQuestion("q", query, answer, list(alternatives))
    key = spans_key(query, spans) if spans else answer_key(query, answer, alternatives)
    return Source("file", Question("q", query, ""), gold, key, "movie")


def test_the_answer_test_finds_key_spans_the_gold_answer_and_alternatives():
    test = AnswerTest(store())
    page = result("p", "The film was directed by Colin Dench in 2019.")
    assert test(source("colin dench"), page)
    assert test(source("someone else", alternatives=("colin dench",)), page)
    assert test(source("dench", spans=["colin dench", "2019"]), page)
    assert not test(source("someone else", spans=["colin dench", "2020"]), page)
    assert not test(source("patrick horvath"), page)


def test_the_answer_test_reads_values_as_the_answer_checker_does():
    test = AnswerTest(store())
    assert test(source("1944-11-21"), result("p", "Harold Ramis was born on November 21, 1944 in Chicago."))
    assert not test(
        source("1944-11-22"), result("p", "Harold Ramis was born on November 21, 1944 in Chicago.")
    )


def test_the_answer_test_looks_at_name_and_snippet_too():
    test = AnswerTest(store())
    page = SearchResult(
        page_name="Ex Machina wins", page_url="u", page_snippet="", page_result="<p>nothing</p>"
    )
    assert test(source("ex machina"), page)
    snippet = SearchResult(page_name="n", page_url="v", page_snippet="won by Interstellar", page_result="")
    assert test(source("interstellar"), snippet)


def test_stock_replies_hold_in_no_page():
    test = AnswerTest(store())
    assert not test(source("yes"), result("p", "yes, it is."))
