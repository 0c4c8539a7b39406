"""The whole CragSystem with a scripted LLM and the KG stage on: answers come from KG evidence while
the mock server runs, and from the web pages once it is stopped."""

from __future__ import annotations

import json
import re

from models import crag_system
from models.config import load_config
from kg_mock.server import running_server
from tests.doubles import ScriptedLLM

QUERY_TIME = "03/10/2024, 23:34:42 PT"
KG_QUESTION = "What did Zephyrline Robotics stock close at on Thursday?"
WEB_QUESTION = "Who composed the score of The Glass Orchard?"
PAGES = {
    KG_QUESTION: "<html><body><h1>Zephyrline Robotics</h1><p>Zephyrline Robotics builds warehouse robots. "
    "Its shares are listed on the Nasdaq exchange under the symbol ZPHR.</p></body></html>",
    WEB_QUESTION: "<html><body><h1>The Glass Orchard</h1><p>The Glass Orchard is a 2012 mystery drama. "
    "The film's score was composed by Anders Pell, recorded in Oslo.</p></body></html>",
}
# What a reader of the prompt would answer: the first of these strings the evidence contains.
ANSWERS = {KG_QUESTION: ["49.31"], WEB_QUESTION: ["Anders Pell"]}
ENTITIES = {
    KG_QUESTION: {"companies": ["Zephyrline Robotics"]},
    WEB_QUESTION: {"movies": ["The Glass Orchard"]},
}


def _reader(conversation, params) -> str:
    """Plays every stage's LLM: entity JSON for the KG, Yes for relevance, an evidence reader for
    reasoning."""
    system, user = conversation[0]["content"], conversation[-1]["content"]
    question = next((q for q in ANSWERS if q in user), None)
    if "knowledge-graph lookups" in system:
        reply = {
            k: []
            for k in ("companies", "tickers", "movies", "people", "artists", "songs", "teams", "entities")
        }
        reply.update(sport="none", rank=0, **ENTITIES.get(question, {}))
        return json.dumps(reply)
    if "You answer a question using the references" in system:
        kg_part = user.split("## Knowledge graph", 1)[-1].split("## Calculations", 1)[0]
        web_part = user.split("## References", 1)[-1].split("## Knowledge graph", 1)[0]
        for source, text in (("knowledge graph", kg_part), ("web", web_part)):
            found = next((a for a in ANSWERS.get(question, []) if a in text), None)
            if found:
                return json.dumps(
                    {"reasoning": f"The {source} says {found}.", "false_premise": False, "answer": found}
                )
        return json.dumps(
            {"reasoning": "Nothing supports an answer.", "false_premise": False, "answer": "I don't know"}
        )
    if re.search(r"Yes or No", system):
        return "Yes"
    return json.dumps({"expression": "", "reasoning": "", "answer": "I don't know"})


def _batch():
    questions = list(ANSWERS)
    return {
        "interaction_id": [f"kg-{i}" for i in range(len(questions))],
        "query": questions,
        "query_time": [QUERY_TIME] * len(questions),
        "search_results": [
            [
                {
                    "page_name": q,
                    "page_url": "https://example.org",
                    "page_snippet": "",
                    "page_result": PAGES[q],
                    "page_last_modified": "",
                }
            ]
            for q in questions
        ],
    }


def test_system_answers_from_kg_and_falls_back_to_web_when_the_server_stops(monkeypatch):
    config = load_config("cpu")
    config.attributes.enabled = False  # the KG stage still routes by the entities it reads
    config.calculator.enabled = False
    config.knowledge.enabled = False
    config.kg.company_dict_path = "/nonexistent"
    system = crag_system.CragSystem(config, llm=ScriptedLLM(_reader))
    try:
        with running_server() as url:
            monkeypatch.setenv("CRAG_MOCK_API_URL", url)
            with_kg = system.batch_generate_answer(_batch())
            kg_traces = system.last_traces
        without_kg = system.batch_generate_answer(_batch())  # same URL, server stopped
        dead_traces = system.last_traces
    finally:
        system.close()

    assert with_kg == ["49.31", "Anders Pell"]
    assert any("49.31" in reference for reference in kg_traces[0].references)
    assert all("kg" in trace.timings for trace in kg_traces)
    print(f"KG stage seconds per question (server up): {[round(t.timings['kg'], 3) for t in kg_traces]}")

    assert without_kg[1] == "Anders Pell"  # the web pages still answer
    assert without_kg[0] == "I don't know"  # the price exists only in the KG
    assert not any("49.31" in reference for reference in dead_traces[0].references)
    print(f"KG stage seconds per question (server down): {[round(t.timings['kg'], 3) for t in dead_traces]}")
