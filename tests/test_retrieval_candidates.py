from models.config import RetrievalConfig
from models.retrieval.candidates import build_pool, fit_table, parse_markdown_table, verbalize_row
from models.schema import Question, SearchResult
from tests.retrieval_fakes import FakePage

TABLE = """Page name: Dow 30 today
| Company | Ticker | Change |
|---|---|---|
| Salesforce | CRM | +3.1% |
| Intel | INTC | -1.2% |
"""


def test_parse_markdown_table_reads_page_name_header_and_rows():
    table = parse_markdown_table(TABLE)
    assert table.page_name == "Dow 30 today"
    assert table.header == ["Company", "Ticker", "Change"]
    assert table.rows == [["Salesforce", "CRM", "+3.1%"], ["Intel", "INTC", "-1.2%"]]


def test_parse_markdown_table_rejects_text_without_a_table():
    assert parse_markdown_table("Page name: x\njust prose, no pipes") is None


def test_verbalize_row_pairs_headers_with_values():
    table = parse_markdown_table(TABLE)
    assert (
        verbalize_row(table, table.rows[0], 400)
        == "Page name: Dow 30 today; Company: Salesforce; Ticker: CRM; Change: +3.1%"
    )
    assert verbalize_row(table, ["", "", ""], 400) == ""
    assert len(verbalize_row(table, table.rows[0], 20)) == 20


def test_fit_table_keeps_header_and_leading_rows_within_the_cap():
    table = parse_markdown_table(TABLE)
    assert fit_table(TABLE, table, 10_000) == TABLE
    cut = fit_table(TABLE, table, 110)
    assert len(cut) <= 110
    assert "| Company | Ticker | Change |" in cut and "Salesforce" in cut and "Intel" not in cut


def test_build_pool_mixes_kinds_drops_duplicates_and_unescapes_snippets():
    question = Question(
        "q1",
        "which dow stock gained most?",
        "",
        [SearchResult(page_snippet="Dow&#x27;s best day"), SearchResult(page_snippet="Dow's best day")],
    )
    pages = [
        FakePage("A", chunks=["Salesforce rose 3%.", "salesforce   rose 3%."], tables=[TABLE]),
        FakePage("B", chunks=["Salesforce rose 3%."]),
    ]
    pool = build_pool(question, pages, ["KG: CRM close 300"], RetrievalConfig())
    candidates = pool.candidates
    kinds = [c.kind for c in candidates]
    assert kinds == ["extra", "sentence", "sentence", "table", "row", "row"]
    assert [c.text for c in candidates[1:3]] == ["Salesforce rose 3%.", "Dow's best day"]
    table_index = kinds.index("table")
    assert candidates[table_index].table_group == table_index
    assert all(c.table_group == table_index for c in candidates if c.kind == "row")


def test_sentences_compete_once_but_stay_in_their_passage_as_context():
    question = Question("q", "x", "", [])
    pages = [
        FakePage("A", chunks=["First sentence here. Second one follows.", "Third closes."]),
        FakePage("B", chunks=["Second one follows. Fourth is new."]),
    ]
    pool = build_pool(question, pages, [], RetrievalConfig())
    assert pool.passages == [
        ["First sentence here.", "Second one follows.", "Third closes."],
        ["Second one follows.", "Fourth is new."],
    ]
    assert pool.passage_names == ["A", "B"]
    assert [(c.text, c.passage, c.position) for c in pool.candidates] == [
        ("First sentence here.", 0, 0),
        ("Second one follows.", 0, 1),
        ("Third closes.", 0, 2),
        ("Fourth is new.", 1, 1),
    ]


def test_build_pool_respects_switches_and_keeps_unparsable_tables_whole():
    config = RetrievalConfig(use_snippets=False, use_table_rows=False, max_table_chars=12)
    question = Question("q", "x", "", [SearchResult(page_snippet="snippet")])
    pool = build_pool(question, [FakePage("A", tables=["no pipes in this table text"])], [], config)
    assert [(c.kind, c.text) for c in pool.candidates] == [("table", "no pipes in")]


def test_snippets_lose_markup_and_are_capped():
    question = Question("q", "x", "", [SearchResult(page_snippet="<b>Bold</b> claim " + "y" * 50)])
    pool = build_pool(question, [], [], RetrievalConfig(snippet_max_chars=20))
    assert [c.text for c in pool.candidates] == ["Bold claim " + "y" * 9]


def test_snippet_fragments_are_passages_of_their_own_and_compete_only_when_new():
    snippet = "Hot Fuss is the debut album by The Killers...Listen free to Hot Fuss \u2026 11 tracks"
    question = Question("q", "x", "", [SearchResult(page_name="Last.fm", page_snippet=snippet)])
    page = FakePage("Wiki", chunks=["Hot Fuss is the debut album by The Killers, first released in 2004."])
    pool = build_pool(question, [page], [], RetrievalConfig())
    assert pool.passages[1:] == [
        ["Hot Fuss is the debut album by The Killers"],
        ["Listen free to Hot Fuss"],
        ["11 tracks"],
    ]
    assert pool.passage_names == ["Wiki", "Last.fm", "Last.fm", "Last.fm"]
    # The first fragment is inside the page's sentence: only the page's sentence competes.
    assert [c.text for c in pool.candidates] == [
        "Hot Fuss is the debut album by The Killers, first released in 2004.",
        "Listen free to Hot Fuss",
        "11 tracks",
    ]


def test_a_near_duplicate_page_is_left_out_whole():
    shared = [f"Sentence number {i} of the article." for i in range(9)]
    question = Question("q", "x", "", [])
    pages = [
        FakePage("original", chunks=shared),
        FakePage("mirror", chunks=[*shared, "Subscribe to our newsletter."], tables=[TABLE]),
        FakePage("other", chunks=[*shared[:5], "A new fact.", "Another new fact."]),
    ]
    pool = build_pool(question, pages, [], RetrievalConfig(duplicate_page_share=0.8))
    assert pool.passage_names == ["original", "other"]  # the mirror shares 9 of its 10 sentences
    texts = [c.text for c in pool.candidates]
    assert "Subscribe to our newsletter." not in texts and "A new fact." in texts
    assert not any(c.kind == "table" for c in pool.candidates)
    kept_all = build_pool(question, pages, [], RetrievalConfig(duplicate_page_share=1.01))
    assert kept_all.passage_names == ["original", "mirror", "other"]
