"""Many pages a question (Task 3): which pages are parsed, how a page's promise weighs its candidates,
and what each page gave, as the trace shows it."""

from __future__ import annotations

from dataclasses import replace

from evaluation.reports import page_summary
from models.config import RetrievalConfig, WebConfig
from models.retrieval import Retriever
from models.retrieval.pages import PageTriage, page_card, url_words
from models.schema import Question, SearchResult
from models.web.sanitize import visible_text
from tests.retrieval_fakes import BagOfWordsEncoder, FakePage

FILLER = "<p>" + "Navigation, cookies and subscription offers. " * 20 + "</p>"


def html(body: str) -> str:
    return (
        "<html><head><style>.a{}</style><script>var city = 'lisbon';</script></head>"
        f"<body>{body}</body></html>"
    )


def result(name: str, body: str = "", snippet: str = "", url: str = "") -> SearchResult:
    return SearchResult(page_name=name, page_url=url, page_snippet=snippet, page_result=html(body))


def test_visible_text_drops_hidden_blocks_and_tags_and_reads_only_the_first_characters():
    page = html("<p>The harbour of <b>Porto</b> &amp; its bridges.</p>")
    assert visible_text(page, 10**6) == "The harbour of Porto & its bridges."
    assert "lisbon" not in visible_text(page, 10**6)
    assert "bridges" not in visible_text(page, page.index("its"))


def test_a_page_card_holds_title_url_words_snippet_and_the_start_of_the_text():
    config = RetrievalConfig(page_card_chars=12)
    card = page_card(
        "Title",
        SearchResult(page_url="https://www.example.com/tim-cook.html", page_snippet="snip"),
        "0123456789abcdef",
        config,
    )
    assert card.split() == ["Title", "example", "tim", "cook", "snip", "0123456789ab"]
    assert url_words("https://www.site.org/a_b") == "site a b"


def questions(count: int) -> Question:
    results = [result(f"page {i}", FILLER + f"<p>Gardening tip {i}.</p>") for i in range(count)]
    results[count - 2] = result("Guide", FILLER + "<p>Mayon volcano is the most active volcano.</p>")
    results[count - 1] = result(
        "Travel", "<p>nothing</p>", snippet="the most active volcano of the philippines"
    )
    return Question("q", "what is the most active volcano in the philippines?", "", results)


def test_few_pages_are_all_read_and_unranked():
    choice = PageTriage(WebConfig(read_all_up_to=5, read_pages=1), RetrievalConfig()).choose([questions(5)])[
        0
    ]
    assert choice.read == [True] * 5 and choice.rank == [0] * 5


def test_many_pages_are_ranked_by_their_card_and_only_the_best_read():
    question = questions(12)
    choice = PageTriage(WebConfig(read_all_up_to=5, read_pages=2), RetrievalConfig()).choose([question])[0]
    assert sorted(choice.rank) == list(range(12))
    assert {choice.rank[10], choice.rank[11]} == {0, 1}  # the text and the snippet about the volcano
    assert choice.read == [rank < 2 for rank in choice.rank]
    everything = PageTriage(WebConfig(read_all_up_to=5, read_pages=0), RetrievalConfig()).choose([question])[
        0
    ]
    assert all(everything.read)


def test_the_first_pass_reads_the_html_only_as_far_as_configured():
    question = questions(12)
    far = PageTriage(WebConfig(read_all_up_to=5, first_pass_chars=10**6), RetrievalConfig()).choose(
        [question]
    )[0]
    near = PageTriage(WebConfig(read_all_up_to=5, first_pass_chars=200), RetrievalConfig()).choose(
        [question]
    )[0]
    assert far.rank[10] <= 1  # its text names the volcano...
    assert near.rank[10] > 1  # ...past the first 200 characters of its HTML


def two_pages() -> tuple[Question, list[FakePage]]:
    """Two pages whose sentences match the question alike; only the second's URL and snippet (its
    card) are about the question."""
    pages = [
        FakePage("Page one", chunks=["The last eruption was in level 2018."]),
        FakePage("Page two", chunks=["The last eruption of it was in the year 2018."]),
    ]
    results = [
        SearchResult(page_name="Page one", page_url="https://games.example/blog", page_snippet="a game"),
        SearchResult(
            page_name="Page two",
            page_url="https://volcano.example/mayon-philippines",
            page_snippet="Mayon eruptions in the Philippines",
        ),
    ]
    return Question("q", "when was the last eruption of mayon in the philippines?", "", results), pages


def test_the_pages_about_the_question_lead_the_shortlist():
    question, pages = two_pages()
    config = RetrievalConfig(dense_candidates=1, use_snippets=False, min_similarity=-1.0, weigh_pages_above=1)
    weighed = Retriever(config, BagOfWordsEncoder()).run([question], [pages])[0]
    assert [use.shortlisted for use in weighed.pages] == [0, 1]
    assert weighed.chunks == ["The last eruption of it was in the year 2018."]
    for unweighed in (replace(config, page_weight=0.0), replace(config, weigh_pages_above=2)):
        evidence = Retriever(unweighed, BagOfWordsEncoder()).run([question], [pages])[0]
        assert [use.shortlisted for use in evidence.pages] == [1, 0]


def test_each_page_says_what_it_gave_retrieval():
    question, pages = two_pages()
    pages.append(FakePage("Page three"))
    pages[-1].read = False  # type: ignore[attr-defined]
    pages.insert(
        0, FakePage("Long", chunks=[f"Gardening tip {i} for the last eruption season." for i in range(30)])
    )
    config = RetrievalConfig(
        dense_candidates=4, use_snippets=False, min_similarity=-1.0, top_k_chunks=2, weigh_pages_above=1
    )
    uses = Retriever(config, BagOfWordsEncoder()).run([question], [pages])[0].pages
    assert [use.name for use in uses] == ["Long", "Page one", "Page two", "Page three"]
    assert [use.read for use in uses] == [True, True, True, False]
    assert [use.candidates for use in uses] == [30, 1, 1, 0]
    assert sum(use.shortlisted for use in uses) == 4 and uses[2].shortlisted == 1
    assert uses[2].kept == 1 and sum(use.kept for use in uses) == 2
    assert all(use.kept <= use.shortlisted <= use.candidates for use in uses)


def test_the_report_counts_the_pages():
    lines = [
        {
            "pages": [
                {"read": True, "shortlisted": 2, "kept": 1},
                {"read": False, "shortlisted": 0, "kept": 0},
            ]
        },
        {"pages": [{"read": True, "shortlisted": 0, "kept": 0}]},
        {},
    ]
    assert page_summary(lines) == {"pages": 3, "read": 2, "not read": 1, "shortlisted": 1, "in references": 1}
