"""Retrieval on a real CRAG question (../shared/data), with the real page extractor and encoder."""

import bz2
import json

from models.config import RetrievalConfig, WebConfig
from models.embeddings import SentenceEncoder
from models.retrieval import Retriever
from models.schema import Question
from models.web import PageExtractor


def test_dow_jones_question_finds_salesforce_within_budget(shared_data):
    with bz2.open(shared_data / "crag_dev_10.jsonl.bz2", "rt") as lines:
        records = [json.loads(line) for line in lines]
    record = next(r for r in records if r["answer"] == "salesforce")
    question = Question.from_batch(
        {key: [record[key]] for key in ("interaction_id", "query", "query_time", "search_results")}
    )
    extractor = PageExtractor(WebConfig())
    try:
        pages = extractor.run(question)
    finally:
        extractor.close()
    config = RetrievalConfig()
    retriever = Retriever(config, SentenceEncoder(config.embedding_model))
    evidence = retriever.run(question, pages)[0]
    assert any("salesforce" in reference.lower() for reference in evidence.references)
    used_tokens = sum(retriever.tokens.count(reference) for reference in evidence.references)
    assert used_tokens <= config.max_reference_tokens
    assert evidence.top_relevance is not None and evidence.top_relevance > config.min_similarity
