"""Retrieval on real CRAG questions (../shared/data), with the real page extractor and encoder."""

import bz2
import json

from models.config import RetrievalConfig, WebConfig
from models.embeddings import SentenceEncoder
from models.retrieval import Retriever
from models.retrieval.candidates import text_key
from models.schema import Evidence, Question
from models.web import PageExtractor
from models.web.sentences import split_sentences


def retrieve(retriever: Retriever, records: list[dict]) -> list[Evidence]:
    """The evidence `retriever` finds in the pages of CRAG `records` (one question each)."""
    fields = ("interaction_id", "query", "query_time", "search_results")
    questions = Question.from_batch({key: [r[key] for r in records] for key in fields})
    extractor = PageExtractor(WebConfig())
    try:
        pages = extractor.run(questions)
    finally:
        extractor.close()
    return retriever.run(questions, pages)


def test_dow_jones_question_finds_salesforce_within_budget(shared_data):
    with bz2.open(shared_data / "crag_dev_10.jsonl.bz2", "rt") as lines:
        records = [json.loads(line) for line in lines]
    record = next(r for r in records if r["answer"] == "salesforce")
    config = RetrievalConfig()
    retriever = Retriever(config, SentenceEncoder(config.embedding_model))
    evidence = retrieve(retriever, [record])[0]
    assert any("salesforce" in reference.lower() for reference in evidence.references)
    used_tokens = sum(retriever.tokens.count(reference) for reference in evidence.references)
    assert used_tokens <= config.max_reference_tokens
    assert evidence.top_relevance is not None and evidence.top_relevance > config.min_similarity


def test_no_sentence_is_shown_twice_in_a_questions_references(shared_data):
    """Real pages repeat themselves (a snippet and its page, mirrors, a caption glued to its text):
    each question's references still show every sentence once."""
    with bz2.open(shared_data / "crag_dev_pages_24.jsonl.bz2", "rt") as lines:
        records = [json.loads(line) for line in lines][:6]
    config = RetrievalConfig()
    for evidence in retrieve(Retriever(config, SentenceEncoder(config.embedding_model)), records):
        keys = [
            text_key(s)
            for chunk in evidence.chunks
            for s in split_sentences(chunk, config.sentence_max_chars)
        ]
        repeated = {key for key in keys if keys.count(key) > 1}
        assert not repeated, repeated
