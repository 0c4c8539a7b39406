"""Rows of long tables stay searchable: the asked row far down a table reaches the evidence."""

import re

from models.config import RetrievalConfig, WebConfig
from models.retrieval import Retriever
from models.schema import Question, SearchResult
from models.web import PageExtractor
from tests.retrieval_fakes import BagOfWordsEncoder


def long_table_page(rows: int) -> str:
    body = "".join(
        f"<tr><td>Station {i}</td><td>{10 * i + 5} passengers</td><td>Line {i % 7}</td></tr>"
        for i in range(rows)
    )
    return (
        "<html><body><h1>Ridership</h1><p>Passengers per station in 2023.</p><table>"
        f"<tr><th>Station</th><th>Passengers</th><th>Line</th></tr>{body}</table></body></html>"
    )


def test_a_row_far_down_a_long_table_is_found():
    question = Question(
        "t1",
        "how many passengers used station 1450?",
        "",
        [SearchResult(page_name="Ridership", page_result=long_table_page(1500))],
    )
    with PageExtractor(WebConfig()) as extractor:
        pages = extractor.run([question])
    assert sum(len(re.findall(r"\| Station \d+ \|", table)) for table in pages[0][0].tables) == 1500
    # The stand-in encoder cannot read numbers: rank by BM25, which must see the asked row.
    config = RetrievalConfig(min_similarity=-1.0, dense_weight=0.0)
    evidence = Retriever(config, BagOfWordsEncoder()).run([question], pages)[0]
    assert any(
        "Station 1450" in reference and "14505 passengers" in reference for reference in evidence.references
    )
