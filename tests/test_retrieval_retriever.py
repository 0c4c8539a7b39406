import math
import time

import pytest

from models.config import RetrievalConfig
from models.llm.base import Completion
from models.prompts import PromptLibrary
from models.retrieval import Retriever
from models.retrieval.retriever import DENSE_STOPPED, RESCORING_SKIPPED, RESCORING_STOPPED, SHORTLIST_SKIPPED
from models.retrieval.relevance import yes_probability
from models.schema import Question, SearchResult
from tests.doubles import ScriptedLLM
from tests.retrieval_fakes import BagOfWordsEncoder, FakePage

FILLER = [f"Unrelated sentence number {i} about gardening, weather and cooking pasta." for i in range(30)]


def question(qid: str, query: str, snippet: str = "") -> Question:
    return Question(
        qid, query, "03/10/2024, 23:34:42 PT", [SearchResult(page_name="p", page_snippet=snippet)]
    )


def batch():
    questions = [
        question("q1", "who owns dreamworks animation?"),
        question(
            "q2",
            "what is the shortest interstate highway?",
            snippet="I-878 in New York is the shortest interstate highway.",
        ),
    ]
    pages = [
        [
            FakePage(
                "DreamWorks",
                chunks=[*FILLER[:10], "DreamWorks Animation is owned by Universal Pictures (NBCUniversal)."],
            )
        ],
        [
            FakePage(
                "Highways", chunks=[*FILLER[10:], "The shortest interstate highway is I-878, 0.7 miles long."]
            )
        ],
    ]
    return questions, pages


def test_hybrid_puts_the_answer_first_with_one_encode_call_of_distinct_texts_per_question():
    encoder = BagOfWordsEncoder()
    retriever = Retriever(RetrievalConfig(dense_candidates=8, min_references=0), encoder)
    questions, pages = batch()
    evidence = retriever.run(questions, pages)
    assert "Universal Pictures" in evidence[0].chunks[0]
    assert any("I-878" in chunk for chunk in evidence[1].chunks[:2])
    assert len(encoder.calls) == 2
    for encoded in encoder.calls:
        assert len(encoded) == len(set(encoded))
        assert len(encoded) <= 1 + 8  # the query + its BM25 shortlist
    assert all(e.top_relevance is not None and e.top_relevance > 0 for e in evidence)


def test_extra_references_compete_in_the_pool():
    questions, pages = batch()
    extra = [["KG: DreamWorks Animation owner: Universal Pictures"], []]
    evidence = Retriever(RetrievalConfig(min_references=0), BagOfWordsEncoder()).run(questions, pages, extra)
    assert "KG: DreamWorks Animation owner: Universal Pictures" in evidence[0].chunks


def test_the_reference_budget_holds():
    questions, pages = batch()
    config = RetrievalConfig(max_reference_tokens=30, tokens_per_piece=1.3, min_similarity=-1.0)
    retriever = Retriever(config, BagOfWordsEncoder())
    for evidence in retriever.run(questions, pages):
        assert sum(retriever.tokens.count(text) for text in evidence.references) <= 30
        assert evidence.references


def test_questions_without_pages_get_empty_evidence():
    questions, pages = batch()
    questions.append(question("q3", ""))
    evidence = Retriever(RetrievalConfig(use_snippets=False), BagOfWordsEncoder()).run(questions, pages)
    assert len(evidence) == 3
    assert evidence[0].chunks and evidence[2].references == []


def test_failures_propagate_to_the_orchestrator():
    class BrokenEncoder:
        def encode(self, texts):
            raise RuntimeError("out of memory")

    questions, pages = batch()
    with pytest.raises(RuntimeError, match="out of memory"):
        Retriever(RetrievalConfig(), BrokenEncoder()).run(questions, pages)
    with pytest.raises(AttributeError):
        Retriever(RetrievalConfig(), BagOfWordsEncoder()).run(questions, [pages[0], [object()]])


def test_llm_relevance_estimator_rescores_in_one_generate_call():
    def judge(conversation, params):
        assert params.max_tokens == 1 and params.first_token_logprobs
        passage = conversation[-1]["content"]
        return "Yes" if ("Universal" in passage or "I-878" in passage) else "No"

    llm = ScriptedLLM(judge)
    config = RetrievalConfig(
        relevance_estimator="llm", rerank_candidates=5, min_relevance=0.5, min_references=0
    )
    questions, pages = batch()
    evidence = Retriever(config, BagOfWordsEncoder(), llm, PromptLibrary()).run(questions, pages)
    assert len(llm.calls) == 1
    assert len(llm.calls[0][0]) == 10  # 5 candidates for each of 2 questions
    # The kept sentence comes with the sentence before it as context.
    assert len(evidence[0].chunks) == 1
    assert (
        evidence[0].chunks[0].endswith("DreamWorks Animation is owned by Universal Pictures (NBCUniversal).")
    )
    assert all("I-878" in chunk for chunk in evidence[1].chunks)
    assert evidence[0].top_relevance == 1.0
    assert evidence[0].usage.calls == 5 and evidence[0].usage.prompt_tokens > 0


def test_llm_estimator_failure_propagates():
    def broken(conversation, params):
        raise RuntimeError("backend down")

    config = RetrievalConfig(relevance_estimator="llm", min_references=0)
    questions, pages = batch()
    retriever = Retriever(config, BagOfWordsEncoder(), ScriptedLLM(broken), PromptLibrary())
    with pytest.raises(RuntimeError, match="backend down"):
        retriever.run(questions, pages)


def test_yes_probability_reads_first_token_logprobs():
    logprobs = {"Yes": math.log(0.6), " yes": math.log(0.1), "No": math.log(0.1), "Maybe": math.log(0.2)}
    assert yes_probability(Completion(texts=["Yes"], first_token_logprobs=logprobs)) == pytest.approx(0.875)
    assert yes_probability(Completion(texts=["No"])) == 0.0
    assert yes_probability(Completion(texts=["Perhaps"])) is None
    assert yes_probability(Completion(texts=[], error="timeout")) is None


def test_cross_encoder_needs_a_model_path():
    with pytest.raises(ValueError, match="cross_encoder_model"):
        Retriever(RetrievalConfig(relevance_estimator="cross_encoder"), BagOfWordsEncoder())


BASELINE_HTML = """<html><body><p>DreamWorks Animation is owned by Universal Pictures.</p>
<p>The weather is sunny today. Cooking pasta takes ten minutes.</p></body></html>"""


def test_baseline_mode_reproduces_the_official_pipeline_on_raw_html():
    q = Question("b1", "who owns dreamworks animation?", "", [SearchResult(page_result=BASELINE_HTML)] * 2)
    empty = Question("b2", "anything?", "", [SearchResult(page_result="")])
    encoder = BagOfWordsEncoder()
    config = RetrievalConfig(mode="baseline", baseline_top_k=2, baseline_references_max_chars=80)
    evidence = Retriever(config, encoder).run([q, empty], [[], []])
    assert evidence[0].chunks[0] == "DreamWorks Animation is owned by Universal Pictures."
    assert len(evidence[0].chunks) == 2 and len(evidence[0].chunks[1]) < 30  # cut by the 80-char block
    assert evidence[1].chunks == []
    # one call per question: its query and its distinct sentences ("" too)
    assert [(call[0], len(call)) for call in encoder.calls] == [(q.query, 1 + 3), (empty.query, 1 + 1)]


def test_baseline_references_of_a_question_do_not_depend_on_the_batch_it_is_in():
    from models.embeddings import SentenceEncoder

    config = RetrievalConfig(mode="baseline", baseline_top_k=3)
    html = "<p>Usain Bolt ran the 100 metres in 9.58 seconds in Berlin in 2009.</p>"
    asked = Question("q1", "who holds the 100m world record?", "", [SearchResult(page_result=html)])
    wordy = (
        "<p>The committee reviewed "
        + ", ".join(["the harbour accounts, the river survey and the census"] * 8)
        + ".</p>"
    )
    other = Question(
        "q2",
        "what did the committee review in the long meeting of the harbour board?",
        "",
        [SearchResult(page_result=wordy)],
    )
    retriever = Retriever(config, SentenceEncoder(config.embedding_model))
    (alone,) = retriever.run([asked], [[]])
    beside = retriever.run([other, asked], [[], []])[1]
    # to the last bit: an embedding computed beside the other question's longer texts differs in it
    assert (beside.chunks, beside.top_relevance) == (alone.chunks, alone.top_relevance)
    assert alone.chunks == ["Usain Bolt ran the 100 metres in 9.58 seconds in Berlin in 2009."]


@pytest.mark.model
def test_embedded_llm_prefers_the_relevant_passage(embedded_llm):
    config = RetrievalConfig(
        relevance_estimator="llm", rerank_candidates=2, min_relevance=0.0, min_references=0
    )
    q = question("m1", "who owns dreamworks animation?")
    pages = [
        [
            FakePage(
                "DreamWorks",
                chunks=["DreamWorks Animation is owned by Universal Pictures, a division of NBCUniversal."],
            ),
            FakePage("Pasta", chunks=["Cooking pasta takes ten minutes in boiling salted water."]),
        ]
    ]
    evidence = Retriever(config, BagOfWordsEncoder(), embedded_llm, PromptLibrary()).run([q], pages)[0]
    assert evidence.chunks[0].startswith("DreamWorks Animation is owned")
    assert evidence.top_relevance is not None and evidence.top_relevance > 0.5
    assert evidence.usage.calls == 2


def test_cross_encoder_estimator_scores_pairs_from_a_local_model(tmp_path):
    from tools.stand_ins import tiny_cross_encoder

    tiny_cross_encoder(tmp_path)
    config = RetrievalConfig(
        relevance_estimator="cross_encoder",
        cross_encoder_model=str(tmp_path),
        rerank_candidates=3,
        min_relevance=0.0,
        min_references=0,
    )
    questions, pages = batch()
    evidence = Retriever(config, BagOfWordsEncoder()).run(questions, pages)
    for e in evidence:
        assert 1 <= len(e.chunks) <= 3
        assert 0.0 < e.top_relevance < 1.0
        assert e.usage.calls == 0


def test_a_table_scores_at_least_as_well_as_its_best_row():
    import numpy as np

    from models.retrieval.candidates import Candidate
    from models.retrieval.retriever import _table_takes_best_row

    candidates = [
        Candidate("intro", "chunk"),
        Candidate("| a |\n|---|\n| x |", "table", table_group=5),
        Candidate("a: x", "row", table_group=5),
    ]
    scores = _table_takes_best_row(candidates, np.array([0.5, 0.1, 0.9]))
    assert scores.tolist() == pytest.approx([0.5, 0.9, 0.9])


class SteppingClock:
    """A clock that advances `step` seconds each time it is read."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_retrieval_out_of_time_ranks_lexically_and_says_so():
    encoder = BagOfWordsEncoder()
    retriever = Retriever(RetrievalConfig(dense_candidates=8), encoder)
    questions, pages = batch()
    # the limit (1 s) is read at 0.4 s: both shortlists are made (0.8, 0.96 s), neither is embedded
    evidence = retriever.run(questions, pages, seconds=1.0, clock=SteppingClock(0.4))
    assert encoder.calls == []
    assert all(item.events == [DENSE_STOPPED] for item in evidence)
    assert "Universal Pictures" in " ".join(evidence[0].chunks)  # BM25 still finds it
    assert not any(item.events for item in retriever.run(questions, pages, seconds=60.0))


def test_no_shortlist_starts_after_the_time_is_up():
    retriever = Retriever(RetrievalConfig(dense_candidates=8), BagOfWordsEncoder())
    questions, pages = batch()
    # the limit is read at 0.6 s (stop at 1.6 s); the first shortlist starts at 1.2 s, the second would
    # at 1.8 s
    evidence = retriever.run(questions, pages, seconds=1.0, clock=SteppingClock(0.6))
    assert evidence[1].events == [SHORTLIST_SKIPPED] and not evidence[1].references
    assert evidence[0].events == [DENSE_STOPPED] and evidence[0].references
    assert all(item.events == [SHORTLIST_SKIPPED] for item in retriever.run(questions, pages, seconds=0.0))


def test_a_cross_encoder_stops_between_slices_and_a_question_it_did_not_finish_keeps_the_fused_order():
    from models.retrieval.relevance import CrossEncoderRelevance

    class SlicedModel:
        slices: list[int] = []

        def predict(self, inputs, batch_size, activation_fn, show_progress_bar):
            self.slices.append(len(inputs))
            return [0.9] * len(inputs)

    config = RetrievalConfig(
        dense_candidates=8,
        rerank_candidates=4,
        embedding_batch_size=3,
        relevance_estimator="cross_encoder",
        cross_encoder_model="unused",
        min_relevance=0.0,
    )
    estimator = CrossEncoderRelevance(config)
    estimator.model, estimator.activation = SlicedModel(), None
    questions, pages = batch()
    checks = iter([False, False, True])  # time is up before the third slice
    probabilities, _ = estimator.score([("q", f"passage {i}") for i in range(8)], stop=lambda: next(checks))
    assert probabilities == [0.9] * 6 + [None] * 2 and SlicedModel.slices == [3, 3]
    retriever = Retriever(config, BagOfWordsEncoder(), estimator=estimator)
    reads = iter([False] * 7 + [True] * 10)  # 2 shortlists, 2 dense scores, the rescoring, 2 of its 3 slices
    evidence = retriever._hybrid(questions, pages, [], lambda: next(reads))
    assert evidence[0].events == [] and evidence[1].events == [RESCORING_STOPPED]
    assert evidence[1].references  # ranked by the fused scores instead


def test_rescoring_is_skipped_when_the_dense_scores_used_up_the_time():
    class SlowEncoder(BagOfWordsEncoder):
        def encode(self, texts):
            time.sleep(0.3)
            return super().encode(texts)

    class Estimator:
        calls = 0

        def score(self, pairs, stop=None):
            Estimator.calls += 1
            return [0.9] * len(pairs), [None] * len(pairs)

    retriever = Retriever(RetrievalConfig(dense_candidates=8), SlowEncoder(), estimator=Estimator())
    questions, pages = batch()
    evidence = retriever.run(questions, pages, seconds=0.15)
    # The first question was embedded in time, the second not; nothing was rescored.
    assert [item.events for item in evidence] == [[RESCORING_SKIPPED], [DENSE_STOPPED]]
    assert Estimator.calls == 0
