"""The KG client (models/kg/client.py) and stage against the mock KG server (kg_mock, the conftest
`kg_url` fixture on the fixture KG) and against deliberately broken servers: down, slow, malformed, flaky.
The server's own behaviour is tested in test_kg_server.py."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from kg_mock.server import free_port
from models.config import KGConfig
from models.kg import KnowledgeGraphStage
from models.kg.client import KGClient
from models.kg.routes import ApiCall
from models.llm.base import Conversation, GenerationParams
from models.prompts import PromptLibrary
from models.schema import Question, QuestionAttributes
from tests.doubles import ScriptedLLM

QUERY_TIME = "03/10/2024, 23:34:42 PT"  # Sunday; Friday was 2024-03-08


@pytest.fixture()
def client(kg_url):
    kg = KGClient(kg_url, KGConfig())
    yield kg
    kg.close()


def test_unknown_names_give_null_results(client):
    assert client.call(ApiCall("finance_get_eps", {"query": "NOPE"})).result is None
    assert client.call(ApiCall("open_get_entity", {"query": "Atlantis"})).result is None
    assert client.call(ApiCall("sports_nba_get_games_on_date", {"date": "1999-01-01"})).result is None


def test_client_reports_a_rejected_call_without_retrying(client):
    outcome = client.call(ApiCall("finance_get_eps", {"ticker": "ZPHR"}))
    assert not outcome.ok and "422" in outcome.error


# --- broken servers (fixture `broken_api` in conftest.py) ------------------------------------------


def test_server_down_fails_fast_and_stays_marked(monkeypatch):
    kg = KGClient(f"http://127.0.0.1:{free_port()}", KGConfig(retries=1, retry_backoff_s=0.0))
    first = kg.call(ApiCall("finance_get_eps", {"query": "ZPHR"}))
    assert not first.ok and "cannot connect" in first.error and kg.unreachable
    second = kg.call(ApiCall("finance_get_pe_ratio", {"query": "ZPHR"}))
    assert second.error == "KG API unreachable"
    kg.close()


def test_timeouts_become_errors(broken_api):
    url = broken_api(lambda handler: (time.sleep(1.5), handler.send(200, b'{"result": 1}')))
    kg = KGClient(url, KGConfig(timeout_s=0.2, retries=1, retry_backoff_s=0.0))
    outcome = kg.call(ApiCall("finance_get_eps", {"query": "ZPHR"}))
    assert not outcome.ok and "timed out" in outcome.error
    kg.close()


def test_malformed_bodies_become_errors(broken_api):
    kg = KGClient(broken_api(lambda handler: handler.send(200, b"<html>oops")), KGConfig())
    outcome = kg.call(ApiCall("finance_get_eps", {"query": "ZPHR"}))
    assert not outcome.ok and "malformed JSON" in outcome.error
    kg.close()
    kg = KGClient(broken_api(lambda handler: handler.send(200, b'{"data": 3}')), KGConfig())
    outcome = kg.call(ApiCall("finance_get_eps", {"query": "ZPHR"}))
    assert not outcome.ok and "without 'result'" in outcome.error
    kg.close()


def test_http_errors_are_not_retried(broken_api):
    attempts = []

    def busy(handler):
        attempts.append(1)
        handler.send(503, b"busy")

    kg = KGClient(broken_api(busy), KGConfig(retries=2, retry_backoff_s=0.0))
    outcome = kg.call(ApiCall("finance_get_eps", {"query": "ZPHR"}))
    assert not outcome.ok and "HTTP 503: busy" in outcome.error and len(attempts) == 1
    kg.close()


def test_batch_deadline_drops_late_calls(broken_api):
    url = broken_api(lambda handler: (time.sleep(1.0), handler.send(200, b'{"result": 1}')))
    kg = KGClient(url, KGConfig(timeout_s=5.0, retries=0))
    calls = [ApiCall("finance_get_eps", {"query": t}) for t in ("A", "B", "C")] + [
        ApiCall("finance_get_eps", {"query": "A"})
    ]
    outcomes = kg.call_many(calls, deadline=time.perf_counter() + 0.2)
    assert len(outcomes) == 4 and all(o.error == "batch deadline reached" for o in outcomes)
    kg.close()


# --- the stage, end to end ------------------------------------------------------------------------


def _entities(**values: Any) -> str:
    reply = {
        k: [] for k in ("companies", "tickers", "movies", "people", "artists", "songs", "teams", "entities")
    }
    reply.update(sport="none", rank=0)
    reply.update(values)
    return json.dumps(reply)


# Questions whose answers exist only in the fixture KG: (question, domain, entity reply, answer text).
KG_ONLY_QUESTIONS = [
    (
        "What did Zephyrline Robotics stock close at on Thursday?",
        "finance",
        _entities(companies=["Zephyrline Robotics"]),
        "49.31",
    ),
    (
        "What is the EPS of Quantamatrix Holdings?",
        "finance",
        _entities(companies=["Quantamatrix Holdings"]),
        "-0.42",
    ),
    (
        "How much was the dividend ZPHR paid in the past month?",
        "finance",
        _entities(tickers=["ZPHR"]),
        "0.135",
    ),
    (
        "Who directed The Glass Orchard?",
        "movie",
        _entities(movies=["The Glass Orchard"]),
        "Marisol Okonkwo-Varga",
    ),
    (
        "Which films did Marisol Okonkwo-Varga direct?",
        "movie",
        _entities(people=["Marisol Okonkwo-Varga"]),
        "Salt Road Nocturne",
    ),
    (
        "Who are the members of Halcyon Drift?",
        "music",
        _entities(artists=["Halcyon Drift"]),
        "Katla Eiríksdóttir",
    ),
    (
        "Which song was number 1 on the Billboard Hot 100 yesterday?",
        "music",
        _entities(rank=1),
        "Paper Lanterns in July",
    ),
    ("Who won the Grammy for best new artist in 2019?", "music", _entities(), "Halcyon Drift"),
    (
        "How many points did the Portland Trail Blazers score last Friday?",
        "sports",
        _entities(teams=["Portland Trail Blazers"], sport="nba"),
        "117",
    ),
    (
        "Who scored first in the Trail Blazers game last Friday?",
        "sports",
        _entities(teams=["Portland Trail Blazers"], sport="nba"),
        "Deshawn Okafor",
    ),
    (
        "Who captained Arsenal in yesterday's game?",
        "sports",
        _entities(teams=["Arsenal"], sport="soccer"),
        "Martin Odegaard",
    ),
    (
        "What is the elevation of Brimholt Observatory?",
        "open",
        _entities(entities=["Brimholt Observatory"]),
        "2140",
    ),
]


def _batch(cases):
    questions = [Question(str(i), case[0], QUERY_TIME) for i, case in enumerate(cases)]
    attributes = [QuestionAttributes(domain=case[1]) for case in cases]
    return questions, attributes


def _reply_by_question(replies: dict[str, str]) -> Callable[[Conversation, GenerationParams], str]:
    def reply(conversation: Conversation, params: GenerationParams) -> str:
        user = conversation[-1]["content"]
        return next(text for question, text in replies.items() if question in user)

    return reply


def test_stage_answers_kg_only_questions_with_rule_selection(kg_url, monkeypatch):
    monkeypatch.setenv("CRAG_MOCK_API_URL", kg_url)
    llm = ScriptedLLM(_reply_by_question({case[0]: case[2] for case in KG_ONLY_QUESTIONS}))
    stage = KnowledgeGraphStage(KGConfig(company_dict_path="/nonexistent"), llm, PromptLibrary())
    questions, attributes = _batch(KG_ONLY_QUESTIONS)
    results = stage.run(questions, attributes)
    assert len(llm.calls) == 1 and len(llm.calls[0][0]) == len(questions)  # one batched extraction call
    assert llm.calls[0][1].json_schema is not None
    for case, result in zip(KG_ONLY_QUESTIONS, results):
        evidence = "\n".join(result.references)
        assert case[3] in evidence, (case[0], result.calls, evidence)
        assert result.error is None and result.calls and result.usage.calls == 1
        assert len(evidence) <= stage.config.max_total_chars


def test_stage_survives_an_llm_that_returns_garbage(kg_url, monkeypatch):
    monkeypatch.setenv("CRAG_MOCK_API_URL", kg_url)
    stage = KnowledgeGraphStage(KGConfig(), ScriptedLLM(lambda c, p: "I am not JSON"), PromptLibrary())
    questions, attributes = _batch([("What is the EPS of $ZPHR?", "finance")])
    result = stage.run(questions, attributes)[0]
    assert "entity reply holds no JSON object" in result.error
    assert any("1.87" in reference for reference in result.references)  # the ticker rule still found it


def test_stage_with_the_api_down_returns_quickly_without_references(monkeypatch):
    monkeypatch.setenv("CRAG_MOCK_API_URL", f"http://127.0.0.1:{free_port()}")
    llm = ScriptedLLM(_reply_by_question({case[0]: case[2] for case in KG_ONLY_QUESTIONS}))
    stage = KnowledgeGraphStage(KGConfig(company_dict_path="/nonexistent"), llm, PromptLibrary())
    results = stage.run(*_batch(KG_ONLY_QUESTIONS))
    assert all(r.references == [] for r in results)
    assert all("does not answer" in (r.error or "") and not r.has_evidence for r in results)
    assert llm.calls == []  # a health check first: no entity reading for an API that is down


def test_stage_with_a_slow_api_is_bounded_by_the_batch_deadline(broken_api, monkeypatch):
    url = broken_api(lambda handler: (time.sleep(2.0), handler.send(200, b'{"result": 1}')))
    monkeypatch.setenv("CRAG_MOCK_API_URL", url)
    llm = ScriptedLLM([_entities(tickers=["ZPHR"])])
    config = KGConfig(timeout_s=5.0, retries=0, api_seconds_per_question=0.3)
    results = KnowledgeGraphStage(config, llm, PromptLibrary()).run(
        *_batch([("What is ZPHR's EPS?", "finance")])
    )
    assert results[0].references == [] and "batch deadline" in results[0].error


def test_stage_with_no_time_left_calls_neither_the_api_nor_the_llm(kg_url, monkeypatch):
    monkeypatch.setenv("CRAG_MOCK_API_URL", kg_url)
    llm = ScriptedLLM(_reply_by_question({case[0]: case[2] for case in KG_ONLY_QUESTIONS}))
    stage = KnowledgeGraphStage(KGConfig(company_dict_path="/nonexistent"), llm, PromptLibrary())
    monkeypatch.setattr(KGClient, "is_up", lambda self, seconds=None: pytest.fail("health check started"))
    results = stage.run(*_batch(KG_ONLY_QUESTIONS), seconds_available=0.0)
    assert llm.calls == []
    assert all("no time left" in (r.error or "") and not r.has_evidence for r in results)


def test_the_health_check_waits_no_longer_than_the_time_left():
    import socket

    with socket.socket() as silent:  # accepts connections (the kernel's backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        client = KGClient(f"http://127.0.0.1:{silent.getsockname()[1]}", KGConfig(timeout_s=5.0, retries=0))
        started = time.monotonic()
        assert not client.is_up(seconds=0.3)
        assert time.monotonic() - started < 1.5
        client.close()
