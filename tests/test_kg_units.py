"""KG pieces that need no server: route signatures, LLM output parsing, rules, rendering, config."""

import json

import pytest

from models.config import KGConfig
from models.kg import KnowledgeGraphStage, sources_for
from models.kg.client import CallResult
from models.kg.entities import KGEntities, add_rule_entities, entity_schema, parse_entities
from models.kg.matching import CompanyDirectory, best_match, company_key
from models.kg.render import render_references
from models.kg.routes import ROUTES, ApiCall, CallValidationError, validate_call
from models.kg.selection import QuestionState, call_schema, game_rows, parse_llm_calls, plan_by_rules
from models.prompts import PromptLibrary
from models.schema import Question, QuestionAttributes
from tests.doubles import ScriptedLLM

QUERY_TIME = "03/10/2024, 23:34:42 PT"


def test_there_are_38_routes_with_official_names():
    assert len(ROUTES) == 38
    assert {r.path.split("/")[1] for r in ROUTES.values()} == {"open", "movie", "finance", "music", "sports"}
    assert ROUTES["sports_nba_get_play_by_play_data_by_game_ids"].path == "/sports/nba/get_play_by_play_data_by_game_ids"
    assert ROUTES["music_grammy_get_all_awarded_artists"].takes_body is False


def test_validate_call_coerces_and_rejects():
    assert validate_call("music_grammy_get_best_song_by_year", {"query": "2021"}) == {"query": 2021}
    assert validate_call("sports_nba_get_games_on_date", {"date": "2024-03", "team_name": None}) == {"date": "2024-03"}
    assert validate_call("sports_nba_get_play_by_play_data_by_game_ids", {"game_ids": "0022300881"}) == {
        "game_ids": ["0022300881"]
    }
    bad = [
        ("no_such_route", {"query": "x"}, "unknown route"),
        ("finance_get_eps", {}, "missing required argument 'query'"),
        ("finance_get_eps", {"ticker": "AAPL"}, "unexpected argument"),
        ("music_grammy_get_best_song_by_year", {"query": "last year"}, "must be an integer"),
        ("music_get_billboard_attributes", {"date": "2024-03-09", "attribute": "colour", "song_name": "x"}, "one of"),
        ("music_get_billboard_rank_date", {"rank": 1, "date": "March 9"}, "YYYY-MM-DD"),
        ("finance_get_eps", ["AAPL"], "JSON object"),
    ]
    for route, arguments, message in bad:
        with pytest.raises(CallValidationError, match=message):
            validate_call(route, arguments)


def test_parse_entities_accepts_schema_json_and_survives_garbage():
    reply = json.dumps({"companies": ["Tesla", "Tesla", " "], "tickers": "TSLA", "sport": "curling", "rank": 500})
    entities, problem = parse_entities("Sure! " + reply, max_items=3)
    assert problem is None
    assert entities.companies == ["Tesla"] and entities.tickers == ["TSLA"]
    assert entities.sport == "" and entities.rank == 0
    for garbage in ("", "no json here", "{broken", "[1, 2]"):
        entities, problem = parse_entities(garbage, max_items=3)
        assert entities == KGEntities() and problem
    schema = entity_schema(3)
    assert schema["properties"]["companies"]["maxItems"] == 3 and "rank" in schema["required"]


def test_rule_entities_read_tickers_rank_and_sport():
    entities = add_rule_entities(KGEntities(), "How did $ZPHR and AAPL trade? Is IT up? Is the AI hype over?", {"AAPL", "AI"})
    assert entities.tickers == ["ZPHR", "AAPL"]
    assert add_rule_entities(KGEntities(), "which song was no. 3 on the billboard hot 100", set()).rank == 3
    assert add_rule_entities(KGEntities(), "who held the top spot on the billboard chart", set()).rank == 1
    assert add_rule_entities(KGEntities(), "how many rebounds did jokic have", set()).sport == "nba"
    assert add_rule_entities(KGEntities(), "did arsenal keep a clean sheet", set()).sport == "soccer"


def test_llm_calls_are_validated_before_use():
    reply = json.dumps(
        {
            "calls": [
                {"route": "finance_get_eps", "arguments": {"query": "ZPHR"}},
                {"route": "finance_get_eps", "arguments": {"ticker": "ZPHR"}},
                {"route": "delete_everything", "arguments": {}},
                {"route": "music_grammy_get_best_artist_by_year", "arguments": {"query": "2019"}},
                "not a call",
            ]
        }
    )
    calls, problems = parse_llm_calls(reply, max_calls=8)
    assert [(c.route, c.body) for c in calls] == [
        ("finance_get_eps", {"query": "ZPHR"}),
        ("music_grammy_get_best_artist_by_year", {"query": 2019}),
    ]
    assert len(problems) == 3 and any("unknown route" in p for p in problems)
    assert parse_llm_calls("nonsense", 8)[0] == []
    assert call_schema(4)["properties"]["calls"]["maxItems"] == 4


def test_company_directory_matches_names_to_tickers(tmp_path):
    table = tmp_path / "companies.csv"
    table.write_text(",Name,Symbol\n0,Apple Inc. Common Stock,AAPL\n1,Zephyrline Robotics Inc. Common Stock,ZPHR\n")
    directory = CompanyDirectory(table, min_similarity=0.75)
    assert directory.ticker("Apple") == "AAPL" and directory.ticker("apple inc") == "AAPL"
    assert directory.ticker("Zephyrlin Robotics") is None
    assert directory.ticker("Zephyrlin Robotics", fuzzy=True) == "ZPHR"
    assert directory.tickers == {"AAPL", "ZPHR"}
    assert CompanyDirectory(tmp_path / "absent.csv", 0.75).ticker("Apple") is None
    assert company_key("Quantamatrix Holdings Corp. Class A Common Stock") == "quantamatrix"
    assert best_match("glass orchard", ["The Glass Orchard", "Salt Road Nocturne"], 0.6) == "The Glass Orchard"
    assert best_match("zzz", ["The Glass Orchard"], 0.6) is None


def test_company_table_from_shared_data(shared_data):
    directory = CompanyDirectory(shared_data / "company_name.dict", 0.75)
    assert len(directory.tickers) > 1000
    assert directory.ticker("Apple Inc.") == "AAPL"


def test_rules_choose_routes_by_domain_and_keywords():
    config = KGConfig()
    directory = CompanyDirectory("/nonexistent", 0.75)
    state = QuestionState("what is the p/e ratio and market cap of ZPHR?", QUERY_TIME, "finance",
                          entities=KGEntities(tickers=["ZPHR"]))
    routes = {c.route for c in plan_by_rules(state, directory, config)}
    assert routes == {"finance_get_pe_ratio", "finance_get_market_capitalization"}
    state = QuestionState("when was cinder waltz released?", QUERY_TIME, "music", entities=KGEntities(songs=["Cinder Waltz"]))
    routes = {c.route for c in plan_by_rules(state, directory, config)}
    assert "music_get_song_release_date" in routes and "music_search_song_entity_by_name" in routes
    state = QuestionState("how did the celtics do last week?", QUERY_TIME, "sports",
                          entities=KGEntities(teams=["Boston Celtics"], sport="nba"))
    calls = plan_by_rules(state, directory, config)
    assert {c.route for c in calls} == {"sports_nba_get_games_on_date"}
    assert len(calls) == min(7, config.max_calls_per_round)  # one call per day of last week, capped
    assert plan_by_rules(state, directory, config) != calls  # the rest of the week comes next round


def test_games_in_column_layout_become_rows():
    columns = {"game_id": {"0": "a", "1": "b"}, "pts_home": {"0": 100, "1": 90}}
    assert game_rows(columns) == [{"game_id": "a", "pts_home": 100}, {"game_id": "b", "pts_home": 90}]
    assert game_rows(None) == [] and game_rows([{"x": 1}, "junk"]) == [{"x": 1}]


def test_rendering_is_capped_and_skips_empty_results():
    config = KGConfig(max_reference_chars=200, max_references=2, max_total_chars=300)
    state = QuestionState("tell me about ZPHR", QUERY_TIME, "finance")
    state.results = [
        CallResult(ApiCall("finance_get_eps", {"query": "ZPHR"}), result=1.87),
        CallResult(ApiCall("finance_get_pe_ratio", {"query": "ZPHR"}), result=None),
        CallResult(ApiCall("finance_get_info", {"query": "ZPHR"}), error="timed out"),
        CallResult(ApiCall("finance_get_company_name", {"query": "ZPHR"}), result=["Zephyrline"]),
        CallResult(ApiCall("open_get_entity", {"query": "Long"}), result={"summary_text": "word " * 500}),
        CallResult(ApiCall("finance_get_market_capitalization", {"query": "ZPHR"}), result=8.4e9),
    ]
    references = render_references(state, config)
    assert references[0] == "ZPHR / earnings per share (EPS): 1.87"
    assert len(references) == 2 and all(len(r) <= 202 for r in references)
    assert sum(len(r) for r in references) <= 300


def test_sources_for_reads_the_domain_table():
    config = KGConfig(domain_sources={"finance": "kg", "movie": "web"})
    assert sources_for("finance", config) == "kg"
    assert sources_for("movie", config) == "web"
    assert sources_for("open", config) == "both"
    with pytest.raises(ValueError, match="domain_sources"):
        sources_for("music", KGConfig(domain_sources={"music": "radio"}))


def test_without_api_url_the_stage_returns_empty_results_and_no_llm_call(monkeypatch):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    llm = ScriptedLLM([])
    stage = KnowledgeGraphStage(KGConfig(), llm, PromptLibrary())
    results = stage.run([Question("1", "what is ZPHR's eps?", QUERY_TIME)], [QuestionAttributes(domain="finance")])
    assert len(results) == 1 and results[0].references == [] and results[0].calls == []
    assert results[0].error is None and llm.calls == []


def test_web_only_domains_skip_the_llm(monkeypatch):
    monkeypatch.setenv("CRAG_MOCK_API_URL", "http://127.0.0.1:9")
    llm = ScriptedLLM([])
    stage = KnowledgeGraphStage(KGConfig(domain_sources={"movie": "web"}), llm, PromptLibrary())
    results = stage.run([Question("1", "who directed heat?", QUERY_TIME)], [QuestionAttributes(domain="movie")])
    assert results[0].references == [] and llm.calls == []


def test_misfiled_names_are_tried_under_the_predicted_domain():
    from models.kg.entities import KGEntities, refile_for_domain

    band_as_company = refile_for_domain(KGEntities(companies=["Halcyon Drift"]), "music")
    assert band_as_company.artists == ["Halcyon Drift"] and band_as_company.songs == ["Halcyon Drift"]

    film_as_entity = refile_for_domain(KGEntities(entities=["The Glass Orchard"]), "movie")
    assert film_as_entity.movies == ["The Glass Orchard"] and film_as_entity.people == ["The Glass Orchard"]

    already_filed = refile_for_domain(KGEntities(artists=["Adele"], companies=["XL Recordings"]), "music")
    assert already_filed.artists == ["Adele"] and already_filed.songs == []
    assert refile_for_domain(KGEntities(tickers=["AAPL"], entities=["Apple"]), "finance").companies == []
