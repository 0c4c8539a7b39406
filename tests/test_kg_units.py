"""KG client, planning and rendering against answers shaped as the official server gives them
(../shared/docs/CRAG_MOCK_API.md): exact keys, `[[songs], [artists]]`, column-oriented games with the
soccer team only in the row key, `[null, null]`, year windows, HTTP 500 with a plain-text body."""

from __future__ import annotations

import json
import sys

import pytest

from models.config import KGConfig
from models.kg import KnowledgeGraphStage, sources_for
from models.kg.client import CallResult, KGClient
from models.kg.entities import (
    KGEntities,
    add_rule_entities,
    entity_schema,
    fill_from_question,
    ground_in_question,
    question_spans,
    search_question_words,
    parse_entities,
    refile_for_domain,
)
from models.kg.formatting import column_rows, is_empty, number
from models.kg.matching import (
    CompanyDirectory,
    best_company,
    best_match,
    match_team,
    name_score,
    nba_team_names,
    numbered_title,
    search_key,
    written_match,
)
from models.kg.routes import ApiCall
from models.kg.stage import budget, call_cost
from models.prompts import PromptLibrary
from models.schema import Event, Question, QuestionAttributes
from tests.doubles import ScriptedLLM, fake_kg_api

QUERY_TIME = "03/10/2024, 23:34:42 PT"  # a Sunday night; Monday 02:34 on the exchange's clock

BILLBOARD = {
    ("1", "2024-03-09"): [["Texas Hold 'Em"], ["Beyonce"]],
    ("1", "2024-03-02"): [["Lovin On Me"], ["Jack Harlow"]],
    ("3", "2024-03-09"): [["Lose Control"], ["Teddy Swims"]],
}
ATTRIBUTES = {
    ("Lose Control", "2024-03-09"): {
        "rank": "3",
        "weeks_in_chart": "31",
        "rank_last_week": "4",
        "top_position": "3",
    }
}
NBA_DAY = {  # games of 2024-03-08, column-oriented, keyed by row position
    "game_date": {"0": "2024-03-08 00:00:00", "1": "2024-03-08 00:00:00"},
    "team_name_home": {"0": "Houston Rockets", "1": "Boston Celtics"},
    "team_name_away": {"0": "Portland Trail Blazers", "1": "Denver Nuggets"},
    "pts_home": {"0": 112.0, "1": 109.0},
    "pts_away": {"0": 105.0, "1": 115.0},
    "reb_home": {"0": 48.0, "1": 40.0},
    "reb_away": {"0": 39.0, "1": 44.0},
    "game_id": {"0": "0022300901", "1": "0022300902"},
}
SOCCER_KEY = "('ENG-Premier League', '2324', 'Everton', '2024-03-09 Manchester Utd-Everton')"
SOCCER_KEY_2 = "('ENG-Premier League', '2324', 'Manchester Utd', '2024-03-09 Manchester Utd-Everton')"
SOCCER_DAY = {
    "date": {SOCCER_KEY: "2024-03-09T00:00:00.000", SOCCER_KEY_2: "2024-03-09T00:00:00.000"},
    "venue": {SOCCER_KEY: "Away", SOCCER_KEY_2: "Home"},
    "result": {SOCCER_KEY: "L", SOCCER_KEY_2: "W"},
    "GF": {SOCCER_KEY: "0", SOCCER_KEY_2: "2"},
    "GA": {SOCCER_KEY: "2", SOCCER_KEY_2: "0"},
    "opponent": {SOCCER_KEY: "Manchester Utd", SOCCER_KEY_2: "Everton"},
    "Captain": {SOCCER_KEY: "Séamus Coleman", SOCCER_KEY_2: "Bruno Fernandes"},
}
PRICES = {  # daily bars: Thursday, Friday, then Monday (the question's day on the exchange's clock)
    "2024-03-06 00:00:00 EST": {"Open": 48.0, "High": 48.9, "Low": 47.5, "Close": 48.5, "Volume": 900000},
    "2024-03-07 00:00:00 EST": {"Open": 48.6, "High": 49.5, "Low": 48.1, "Close": 49.31, "Volume": 1200000},
    "2024-03-08 00:00:00 EST": {"Open": 49.2, "High": 50.2, "Low": 48.8, "Close": 50.02, "Volume": 1000000},
    "2024-03-11 00:00:00 EST": {"Open": 50.1, "High": 51.0, "Low": 49.9, "Close": 50.75, "Volume": 800000},
}


def official(route: str, body: dict):
    """A few answers of the official server, with its exact-key semantics."""
    query = body.get("query")
    if route == "finance_get_company_name":
        return ["Zephyrline Robotics Inc. Common Stock"] if "zephyrline" in search_key(query) else []
    if route == "finance_get_ticker_by_name":
        return "ZPHR" if query == "Zephyrline Robotics Inc. Common Stock" else None
    if route == "finance_get_price_history":
        return PRICES if query == "ZPHR" else None
    if route == "finance_get_dividends_history":
        return (
            {"2023-05-10 00:00:00 EST": 0.25, "2023-11-10 00:00:00 EST": 0.25, "2024-02-09 00:00:00 EST": 0.3}
            if query == "ZPHR"
            else None
        )
    if route == "finance_get_eps":
        return 1.87 if query == "ZPHR" else None
    if route == "music_get_billboard_rank_date":
        if str(body["rank"]) not in {"1", "3"}:
            return [None, None]
        return BILLBOARD.get((str(body["rank"]), body.get("date")), [[], []])
    if route == "music_get_billboard_attributes":
        row = ATTRIBUTES.get((body["song_name"], body["date"]))
        return None if row is None else row.get(body["attribute"], row["rank"])
    if route == "music_search_song_entity_by_name":
        return ["Lose Control", "lose control"] if "lose control" in search_key(query) else []
    if route == "music_search_artist_entity_by_name":
        return ["Beyoncé", "Beyonce"] if "beyonc" in search_key(query) else []
    if route == "music_grammy_get_award_date_by_artist":
        return [2016, 2010, 2015] if query == "Beyonce" else []
    if route == "music_grammy_get_award_count_by_artist":
        return 35 if query == "Beyonce" else 0
    if route == "music_grammy_get_best_song_by_year":
        return (
            None
            if not 1957 <= query <= 2019
            else ["Single Ladies (Put a Ring on It)"]
            if query == 2010
            else []
        )
    if route == "sports_nba_get_games_on_date":
        if "'" in body.get("date", "") or "'" in (body.get("team_name") or ""):
            return None
        if body["date"] != "2024-03-08":
            return None
        team = body.get("team_name")
        if team is None:
            return NBA_DAY
        rows = [
            k
            for k in NBA_DAY["game_id"]
            if team in (NBA_DAY["team_name_home"][k], NBA_DAY["team_name_away"][k])
        ]
        return {column: {k: values[k] for k in rows} for column, values in NBA_DAY.items()} if rows else None
    if route == "sports_soccer_get_games_on_date":
        return (
            SOCCER_DAY
            if body["date"] in ("2024-03-09", "2024-03")
            and body.get("team_name") in (None, "Everton", "Manchester Utd")
            else None
        )
    if route == "movie_get_year_info":
        year = int(query)  # the official server answers other years with HTTP 500
        assert 1990 <= year <= 2021
        return None
    if route == "open_search_entity_by_name":
        return ["Canberra", "Canberra Raiders"] if "canberra" in search_key(query) else []
    if route == "open_get_entity":
        return (
            {
                "summary_text": "Canberra is the capital city of Australia.",
                "summary_structured": {"population": "460,000"},
            }
            if query == "Canberra"
            else None
        )
    return None


@pytest.fixture
def fake_api(monkeypatch):
    """The stage against `official`, through the real scheduler; records every call sent."""
    return fake_kg_api(monkeypatch, lambda route, body: official(route, body))  # tests may patch `official`


def run_stage(questions: list[tuple[str, str, KGEntities]], config: KGConfig | None = None):
    config = config or KGConfig(company_dict_path="/nonexistent")
    stage = KnowledgeGraphStage(config, ScriptedLLM([]), PromptLibrary())
    return stage.run(
        [Question(str(i), query, QUERY_TIME) for i, (query, _, _) in enumerate(questions)],
        [QuestionAttributes(domain=domain) for _, domain, _ in questions],
        [entities for _, _, entities in questions],
    )


def evidence(result) -> str:
    return "\n".join(result.references)


# --- music ------------------------------------------------------------------------------------------


def test_billboard_number_one_this_week_uses_the_chart_in_force_and_keeps_pairs(fake_api):
    [result] = run_stage([("who is number 1 on the billboard hot 100 this week?", "music", KGEntities())])
    text = evidence(result)
    assert "Texas Hold 'Em by Beyonce" in text and "2024-03-09 (Saturday)" in text
    assert "Lovin On Me" not in text  # the week before is a near miss here: neither fetched nor shown
    assert result.has_evidence
    assert all(c.body.get("date") for c in fake_api if c.route == "music_get_billboard_rank_date")
    [before] = run_stage([("which song was number 1 on the hot 100 last week?", "music", KGEntities())])
    assert (
        "Billboard Hot 100 of 2024-03-02 (Saturday) (the week before), rank 1: Lovin On Me by Jack Harlow"
        in evidence(before)
    )


def test_a_rank_question_is_probed_at_its_own_rank_and_shows_no_other_rank(fake_api):
    [result] = run_stage([("who sings the song at no. 3 on the hot 100?", "music", KGEntities())])
    assert [c.body for c in fake_api] == [{"rank": 3, "date": "2024-03-09"}]
    assert "rank 3: Lose Control by Teddy Swims" in evidence(result) and "Texas Hold" not in evidence(result)


def test_weeks_on_chart_of_a_song_use_its_official_spelling_and_a_chart_date(fake_api):
    [result] = run_stage(
        [
            (
                "how many weeks has lose control been on the billboard chart?",
                "music",
                KGEntities(songs=["lose control"]),
            )
        ]
    )
    text = evidence(result)
    assert "Lose Control / Billboard Hot 100 weeks on the chart on the chart of 2024-03-09 (Saturday)" in text
    assert ": 31" in text and result.has_evidence
    asked = [c.body for c in fake_api if c.route == "music_get_billboard_attributes"]
    assert {"date": "2024-03-09", "attribute": "weeks_in_chart", "song_name": "Lose Control"} in asked


def test_a_debut_is_looked_up_from_the_weeks_on_the_chart(fake_api, monkeypatch):
    monkeypatch.setitem(
        ATTRIBUTES, ("Lose Control", "2023-08-12"), {"rank": "84"}
    )  # 31 weeks up to 2024-03-09
    [result] = run_stage(
        [
            (
                "at what position did lose control debut on the billboard hot 100?",
                "music",
                KGEntities(songs=["Lose Control"]),
            )
        ]
    )
    assert (
        "Lose Control entered the Billboard Hot 100 on the chart of 2023-08-12 (Saturday) at rank 84"
        in evidence(result)
    )


def test_unknown_rank_null_pair_is_empty():
    assert is_empty([None, None]) and is_empty([[], []]) and not is_empty([["a"], ["b"]])


def test_grammy_years_are_plain_and_out_of_window_years_are_not_sent(fake_api):
    results = run_stage(
        [
            ("when did beyonce win grammys?", "music", KGEntities(artists=["Beyonce"])),
            ("which song won the grammy song of the year in 2010?", "music", KGEntities()),
            ("which song won the grammy song of the year in 2021?", "music", KGEntities()),
        ]
    )
    assert "2010, 2015, 2016" in evidence(results[0]) and "2,010" not in evidence(results[0])
    assert "Single Ladies" in evidence(results[1])
    assert not any(c.body.get("query") == 2021 for c in fake_api)
    assert not results[2].has_evidence and "only 1957-2019" in evidence(results[2])
    assert number(2010) == "2010" and number(8.4e9) == "8400000000 (8.40 billion)"


# --- sports -----------------------------------------------------------------------------------------


def test_play_by_play_names_the_first_and_last_scorer(fake_api, monkeypatch):
    answer = official
    plays = {
        "period": {"0": 1, "1": 1, "2": 4},
        "pctimestring": {"0": "12:00", "1": "11:40", "2": "0:03"},
        "homedescription": {"0": "Jump Ball", "1": "Green 12' Jump Shot", "2": "Sengun Layup"},
        "player1_name": {"0": "Alperen Sengun", "1": "Jalen Green", "2": "Alperen Sengun"},
        "score": {"0": None, "1": "0 - 2", "2": "105 - 112"},
    }

    def with_plays(route, body):
        return plays if route == "sports_nba_get_play_by_play_data_by_game_ids" else answer(route, body)

    monkeypatch.setattr("tests.test_kg_units.official", with_plays)
    [result] = run_stage(
        [("who scored first in the rockets game last friday?", "sports", KGEntities(teams=["Rockets"]))]
    )
    assert (
        "- first points of the game: Jalen Green (period 1 11:40, score 0 - 2); "
        "last points: Alperen Sengun (period 4 0:03, score 105 - 112)"
    ) in evidence(result)


def test_informal_nba_names_are_matched_in_the_days_games(fake_api):
    [rockets, lakers] = run_stage(
        [
            ("how many points did the rockets score last friday?", "sports", KGEntities(teams=["Rockets"])),
            ("did the lakers play on friday?", "sports", KGEntities(teams=["Lakers"])),
        ]
    )
    text = evidence(rockets)
    assert (
        "Houston Rockets (home) 112 - 105 Portland Trail Blazers (away)" in text
        and "2024-03-08 (Friday)" in text
    )
    assert "Houston Rockets played home and won" in text and "rebounds 48" in text
    assert "Houston Rockets scored 112 points, Portland Trail Blazers 105" in text
    assert rockets.has_evidence
    assert "Los Angeles Lakers played no NBA game on 2024-03-08 (Friday)" in evidence(lakers)
    assert lakers.has_evidence  # a known team without a game that day is an answer (false premise)
    day_calls = [c for c in fake_api if c.route == "sports_nba_get_games_on_date"]
    assert day_calls == [
        ApiCall("sports_nba_get_games_on_date", {"date": "2024-03-08"}),  # deduped across the batch
        # no Lakers game that day: their month, for the games around it
        ApiCall("sports_nba_get_games_on_date", {"date": "2024-03", "team_name": "Los Angeles Lakers"}),
    ]


@pytest.mark.parametrize(
    ("asked", "stored"),
    [
        ("beatles", "The Beatles"),
        ("the weeknd", "Weeknd"),
        ("weeknd", "The Weeknd"),
        ("an education", "Education"),
    ],
)
def test_a_leading_article_does_not_weaken_a_name_match(asked, stored):
    # issue 51, second sealed set: "the beatles" read as "beatles" scored 0.78, under the 0.85 of a
    # confident match, and the computed answer was withheld
    assert 0.9 < name_score(asked, stored) < 1.0
    assert name_score(stored, stored) == 1.0


def test_the_name_spelt_as_asked_wins_over_its_spelling_with_an_article():
    assert best_match("The Beatles", ["Beatles", "The Beatles"], 0.85) == "The Beatles"
    assert best_match("beatles", ["The Beatles", "Beatles"], 0.85) == "Beatles"
    # an article is no name: "the" alone is compared as it is
    assert name_score("the", "the") == 1.0 and name_score("the", "them") < 0.9


def test_nba_names_and_apostrophes():
    assert nba_team_names("Blazers") == ("Portland Trail Blazers",)
    assert nba_team_names("the Sixers") == ("Philadelphia 76ers",)
    assert nba_team_names("LA Clippers")[0] == "LA Clippers"
    assert nba_team_names("Manchester Utd") == ()
    assert match_team("Man Utd", ["Everton", "Manchester Utd", "Manchester City"], 0.75) == "Manchester Utd"
    assert match_team("PSG", ["Paris S-G", "Lyon"], 0.75) == "Paris S-G"
    assert match_team("Atletico Madrid", ["Atlético Madrid", "Real Madrid"], 0.75) == "Atlético Madrid"


def test_soccer_team_and_competition_come_from_the_row_key(fake_api):
    [result] = run_stage(
        [
            (
                "what was the score of man utd's game yesterday?",
                "sports",
                KGEntities(teams=["Man Utd"], sport="soccer"),
            )
        ]
    )
    text = evidence(result)
    assert "ENG-Premier League 2324" in text
    assert (
        "Manchester Utd (home) 2 - 0 Everton (away)" in text and "Manchester Utd played home and won" in text
    )
    assert result.has_evidence
    rows = column_rows(SOCCER_DAY)
    assert rows[0][0] == SOCCER_KEY and rows[0][1]["opponent"] == "Manchester Utd"


# --- finance ----------------------------------------------------------------------------------------


def test_ticker_from_the_exact_official_name_and_prices_aligned_to_the_question(fake_api):
    [yesterday, week] = run_stage(
        [
            (
                "what did zephyrline robotics stock close at yesterday?",
                "finance",
                KGEntities(companies=["Zephyrline Robotics"]),
            ),
            (
                "what was the average closing price of ZPHR this past week?",
                "finance",
                KGEntities(tickers=["ZPHR"]),
            ),
        ]
    )
    text = evidence(yesterday)
    assert (
        "No trading on 2024-03-09 (Saturday)" in text
        and "ZPHR on 2024-03-08 (Friday)" in text
        and "closing price 50.02" in text
    )
    assert "50.75" not in text  # Monday's bar is after the question's time on the exchange's clock
    assert "closing price 50.02" in text and "it closed above its opening price (+0.82)" in text
    assert "outside trading hours" in text and yesterday.has_evidence
    resolution = [c.body["query"] for c in fake_api if c.route == "finance_get_ticker_by_name"]
    assert resolution == ["Zephyrline Robotics Inc. Common Stock"]
    summary = evidence(week)
    assert "average close 49.28" in summary and "highest price 50.20 on 2024-03-08 (Friday)" in summary
    assert (
        "up days" in summary
        and "- closes: 48.50 (2024-03-06 Wed), 49.31 (2024-03-07 Thu), 50.02 (2024-03-08 Fri)" in summary
    )


def test_a_session_still_open_at_the_question_time_has_no_close_yet(fake_api, monkeypatch):
    monkeypatch.setattr("tests.test_kg_units.QUERY_TIME", "03/11/2024, 10:15:00 PT")  # Monday 13:15 ET
    [result] = run_stage([("what is ZPHR's closing price today?", "finance", KGEntities(tickers=["ZPHR"]))])
    text = evidence(result)
    assert "The session of 2024-03-11 (Monday) was still open at the question's time (13:15 ET)" in text
    assert "50.75" not in text and "closing price 50.02" in text


def test_dividends_are_summed_per_year(fake_api):
    [result] = run_stage(
        [("how much did ZPHR pay in dividends in 2023?", "finance", KGEntities(tickers=["ZPHR"]))]
    )
    text = evidence(result)
    assert "in 2023 (2023): 2 payment(s), total 0.5" in text and "2024: 0.3 (1 payments)" in text


def test_company_names_and_directory(tmp_path):
    names = [
        "Zephyrline Robotics Inc. Class A Common Stock",
        "Zephyrline Robotics Inc. Common Stock",
        "Zephyr Air",
    ]
    assert best_company("Zephyrline Robotics", names, 0.75) == "Zephyrline Robotics Inc. Class A Common Stock"
    assert best_company("nothing alike", names, 0.75) is None
    table = tmp_path / "companies.csv"
    table.write_text(",Name,Symbol\n0,Apple Inc. Common Stock,AAPL\n")
    assert CompanyDirectory(table, 0.75).ticker("Apple") == "AAPL"
    assert CompanyDirectory(tmp_path / "absent.csv", 0.75).ticker("Apple") is None


# --- open, movie, stage -----------------------------------------------------------------------------


def test_open_entities_are_fetched_under_their_searched_spelling(fake_api):
    [result] = run_stage([("what is the population of canberra?", "open", KGEntities(entities=["canberra"]))])
    assert "Canberra / population: 460,000" in evidence(result) and result.has_evidence
    assert [c.body["query"] for c in fake_api if c.route == "open_get_entity"] == ["Canberra"]


def test_movie_years_outside_1990_2021_are_not_sent(fake_api):
    run_stage([("which movies won oscars in 1985?", "movie", KGEntities())])
    assert not any(c.route == "movie_get_year_info" for c in fake_api)


def test_a_company_the_kg_lacks_is_a_note_not_a_failure(fake_api):
    [result] = run_stage(
        [
            (
                "what was acme widgets' closing price yesterday?",
                "finance",
                KGEntities(companies=["acme widgets"]),
            )
        ]
    )
    assert result.error is None and not result.has_evidence
    assert result.events == [Event("degraded", "company not in the KG", "'acme widgets'")]


def test_one_figure_of_several_companies_is_ranked(fake_api, monkeypatch):
    answer = official

    def with_a_second_company(route, body):
        if route == "finance_get_eps" and body.get("query") == "QMTX":
            return -0.42
        return answer(route, body)

    monkeypatch.setattr("tests.test_kg_units.official", with_a_second_company)
    [result] = run_stage(
        [
            (
                "which has the higher eps, zephyrline robotics or qmtx?",
                "finance",
                KGEntities(companies=["Zephyrline Robotics"], tickers=["QMTX"]),
            )
        ]
    )
    assert (
        "earnings per share (forward EPS) compared (KG, current), highest first: "
        "ZPHR (Zephyrline Robotics Inc. Common Stock) 1.87 > QMTX -0.42"
    ) in evidence(result)


def test_a_figure_of_the_company_record_named_in_words_is_compared_from_the_record(fake_api, monkeypatch):
    # issue 51, second sealed set: "debt-to-equity ratio" is no declared cue, and the meaning read it
    # as the market value; the record's key named in words (vocabulary.COMPANY_RECORD_KEYS) reads it
    answer = official
    records = {"ZPHR": {"sector": "Technology", "debtToEquity": 179.43}, "QMTX": {"debtToEquity": 307.12}}

    def with_records(route, body):
        if route == "finance_get_info":
            return records.get(body.get("query"))
        return answer(route, body)

    monkeypatch.setattr("tests.test_kg_units.official", with_records)
    question = "which company has a higher debt-to-equity ratio, zphr or qmtx?"
    [result] = run_stage([(question, "finance", KGEntities(tickers=["ZPHR", "QMTX"]))])
    assert result.computed is not None and result.computed.value == "QMTX"
    assert not any(c.route == "finance_get_market_capitalization" for c in fake_api)


def _prolific(works: int):
    """The official server's answers about an artist of `works` songs, the even ones of 2023."""
    titles = [f"Song {i}" for i in range(works)]

    def answer(route, body):
        if route == "music_search_artist_entity_by_name":
            return ["Ada Prolific"]
        if route == "music_get_artist_all_works":
            return titles if body.get("query") == "Ada Prolific" else None
        if route == "music_get_song_release_date":
            number = int(str(body.get("query")).split()[-1])
            return f"{2023 if number % 2 == 0 else 2019}-05-01"
        return official(route, body)

    return answer


@pytest.mark.parametrize(("works", "counted"), [(11, "6"), (13, None)])
def test_the_works_of_a_span_are_dated_beyond_the_question_cap_up_to_their_own_cap(
    fake_api, monkeypatch, works, counted
):
    # issue 51, second sealed set: 11 works over the cap of 8 were silently left undated
    monkeypatch.setattr("tests.test_kg_units.official", _prolific(works))
    question = "how many songs did ada prolific put out in 2023?"
    config = KGConfig(company_dict_path="/nonexistent", max_dated_works=12)
    [result] = run_stage([(question, "music", KGEntities(artists=["Ada Prolific"]))], config)
    dated = [c for c in fake_api if c.route == "music_get_song_release_date"]
    if counted is None:  # more works than kg.max_dated_works: none dated, and the trace says why
        assert not dated and result.computed is None
        assert (
            Event("degraded", "works not dated", "13 works, more than kg.max_dated_works (12)")
            in result.events
        )
    else:
        assert len(dated) == works and result.computed is not None and result.computed.value == counted


def test_every_call_left_out_is_named_in_the_trace(fake_api):
    tight = KGConfig(company_dict_path="/nonexistent", max_calls_per_question=1, calls_per_question=1)
    [result] = run_stage(
        [("what is ZPHR's eps and p/e ratio?", "finance", KGEntities(tickers=["ZPHR"]))], tight
    )
    [left] = [e for e in result.events if e.what == "calls left out"]
    assert left.detail.startswith("1, by the call budget or the batch deadline: ")
    assert "(query='ZPHR')" in left.detail and left.detail.count("finance_get_") == 1


def test_a_company_that_never_paid_a_dividend_denies_a_question_that_assumes_one(fake_api, monkeypatch):
    # issue 51: both sealed sets asked about the dividends of a company that never paid one (gold
    # "invalid question"); a count or a yes/no question is answered by "none" instead
    answer = official

    def without_dividends(route, body):
        return [] if route == "finance_get_dividends_history" else answer(route, body)

    monkeypatch.setattr("tests.test_kg_units.official", without_dividends)
    zphr = KGEntities(tickers=["ZPHR"])
    [assumed, counted] = run_stage(
        [
            ("what was zphr's closing price on the day of its last dividend?", "finance", zphr),
            ("how many dividends did zphr pay in 2023?", "finance", zphr),
        ]
    )
    assert assumed.has_evidence and assumed.contradicts and "never any" in evidence(assumed)
    assert counted.has_evidence and not counted.contradicts


def test_a_ticker_read_as_a_company_name_is_tried_as_a_ticker(fake_api):
    [result] = run_stage([("what did zphr close at yesterday?", "finance", KGEntities(companies=["zphr"]))])
    assert any(c.route == "finance_get_price_history" and c.body == {"query": "ZPHR"} for c in fake_api)
    assert result.has_evidence and result.events == [
        Event("fallback", "company not in the KG, tried as a ticker", "'zphr'")
    ]


def test_scheduler_dedupes_and_keeps_to_the_budgets(fake_api):
    questions = [
        ("what is ZPHR's eps, p/e ratio, market cap and dividend?", "finance", KGEntities(tickers=["ZPHR"]))
    ] * 3
    run_stage(questions)
    assert len(fake_api) == 4  # the same four calls serve all three questions
    fake_api.clear()
    tight = KGConfig(
        company_dict_path="/nonexistent",
        max_calls_per_question=1,
        api_seconds_per_question=1.0,
        seconds_per_call=1.5,
    )
    assert budget(tight, 3) == (3.0, 2)  # 3 s of API time at 1.5 s per call
    results = run_stage(questions, tight)
    assert len(fake_api) == 2
    assert all(any(event.what == "calls left out" for event in r.events) for r in results)
    config = KGConfig()
    assert (
        call_cost(ApiCall("sports_nba_get_games_on_date", {"date": "2024-03"}), config)
        == config.slow_call_cost
    )
    assert (
        call_cost(
            ApiCall("sports_nba_get_games_on_date", {"date": "2024", "team_name": "Miami Heat"}), config
        )
        == 1
    )
    assert call_cost(ApiCall("sports_nba_get_games_on_date", {"date": "2024-03-08"}), config) == 1


def test_the_batch_budget_follows_the_batch_and_the_time_left():
    config = KGConfig()
    eight, thirty = budget(config, 8), budget(config, 30)
    assert eight == (8 * config.api_seconds_per_question, 8 * config.calls_per_question)
    assert thirty[1] == 30 * config.calls_per_question > eight[1] and thirty[0] > eight[0]
    assert budget(config, 30, seconds_available=2.0) == (2.0, int(2.0 / config.seconds_per_call))
    assert budget(config, 8, seconds_available=-1.0) == (0.0, 0)
    assert budget(config, 1)[1] == config.max_calls_per_question  # a lone question keeps its full allowance


# --- HTTP -------------------------------------------------------------------------------------------


def test_http_500_with_a_plain_text_body_is_an_error_without_retry(broken_api):
    hits: list = []

    def fail(handler):
        hits.append(handler.path)
        handler.send(500, b"Internal Server Error", "text/plain")

    client = KGClient(broken_api(fail), KGConfig(retry_backoff_s=0.0))
    outcome = client.call(ApiCall("movie_get_year_info", {"query": "1985"}))
    client.close()
    assert not outcome.ok and "HTTP 500: Internal Server Error" in outcome.error and len(hits) == 1


def test_results_are_read_from_the_result_key(broken_api):
    body = json.dumps({"result": [None, None]}).encode()
    client = KGClient(broken_api(lambda handler: handler.send(200, body)), KGConfig())
    outcome = client.call(ApiCall("music_get_lifespan", {"query": "Nobody"}))
    client.close()
    assert outcome.ok and outcome.result == [None, None]


# --- entities and config ----------------------------------------------------------------------------


def test_parse_entities_accepts_schema_json_and_survives_garbage():
    reply = json.dumps(
        {"companies": ["Tesla", "Tesla", " "], "tickers": "TSLA", "sport": "curling", "rank": 500}
    )
    entities, problem = parse_entities("Sure! " + reply, max_items=3)
    assert problem is None and entities.companies == ["Tesla"] and entities.tickers == ["TSLA"]
    assert entities.sport == "" and entities.rank == 0
    for garbage in ("", "no json here", "{broken", "[1, 2]"):
        entities, problem = parse_entities(garbage, max_items=3)
        assert entities == KGEntities() and problem
    assert entity_schema(3)["properties"]["companies"]["maxItems"] == 3


def test_rule_entities_read_tickers_rank_and_sport():
    entities = add_rule_entities(
        KGEntities(), "How did $ZPHR and AAPL trade? Is the AI hype over?", {"AAPL", "AI"}
    )
    assert entities.tickers == ["ZPHR", "AAPL"]
    assert add_rule_entities(KGEntities(), "which song was no. 3 on the billboard hot 100", set()).rank == 3
    assert add_rule_entities(KGEntities(), "how many rebounds did jokic have", set()).sport == "nba"
    assert refile_for_domain(KGEntities(companies=["Halcyon Drift"]), "music").artists == ["Halcyon Drift"]


def test_sources_for_reads_the_domain_table():
    config = KGConfig(domain_sources={"finance": "kg", "movie": "web"})
    assert sources_for("finance", config) == "kg" and sources_for("open", config) == "both"
    with pytest.raises(ValueError, match="domain_sources"):
        sources_for("music", KGConfig(domain_sources={"music": "radio"}))
    assert sources_for("finance", KGConfig(dynamic_sources="kg"), dynamic=True) == "kg"
    with pytest.raises(ValueError, match="dynamic_sources"):
        sources_for("finance", KGConfig(dynamic_sources="radio"), dynamic=True)


def test_without_api_url_the_stage_calls_nothing(monkeypatch):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)
    llm = ScriptedLLM([])
    results = KnowledgeGraphStage(KGConfig(), llm, PromptLibrary()).run(
        [Question("1", "what is ZPHR's eps?", QUERY_TIME)], [QuestionAttributes(domain="finance")]
    )
    assert results[0].references == [] and not results[0].has_evidence and llm.calls == []


def test_names_the_question_does_not_write_are_dropped_and_other_kinds_follow_the_domain():
    invented = KGEntities(
        companies=["Universal Pictures"], tickers=["UP"], movies=["Glass Orchard"], people=["James Cameron"]
    )
    grounded, events = ground_in_question(invented, "who directed the glass orchard?")
    assert grounded == KGEntities(movies=["Glass Orchard"])
    assert [e.what for e in events] == ["name read not in the question, dropped"] * 3
    teams, events = ground_in_question(
        KGEntities(teams=["Los Angeles Lakers"], tickers=["qmtx"]), "did the lakers beat qmtx?"
    )
    assert teams.teams == ["Los Angeles Lakers"] and teams.tickers == ["qmtx"] and events == []
    focused = refile_for_domain(KGEntities(companies=["Rockets"], teams=["Rockets"]), "sports")
    assert focused == KGEntities(teams=["Rockets"])
    catch_all = refile_for_domain(
        KGEntities(entities=["paper lanterns"], companies=["paper lanterns"]), "music"
    )
    assert (
        catch_all.artists == ["paper lanterns"]
        and catch_all.entities == []
        and catch_all.companies == ["paper lanterns"]
    )
    assert refile_for_domain(KGEntities(teams=["Lake Varnholm"]), "open").entities == ["Lake Varnholm"]
    film_as_person = refile_for_domain(KGEntities(people=["copper meridian"]), "movie")
    assert (
        film_as_person.people == ["copper meridian"] and film_as_person.movies == []
    )  # the other kind on a miss


@pytest.mark.parametrize(
    "query, spans",
    [
        ('what share of 2016 was "black beatles" number one?', ["black beatles"]),  # quoted
        (
            "who directed Pirates of the Caribbean: The Curse of the Black Pearl?",
            ["Pirates of the Caribbean", "Curse of the Black Pearl"],
        ),  # capitalised runs, cut at punctuation
        ("What albums did Maroon 5 release in 2004?", ["Maroon 5"]),  # a number inside a run, not alone
        ("which company's stock traded less this week, kind or  casi?", ["kind", "casi"]),  # options
        ("Who is older, Taylor Swift or Justin Bieber?", ["Taylor Swift", "Justin Bieber"]),  # once each
        ("what's auph's earnings per share?", ["auph"]),  # the owner, not the contraction
        ("how much did each toy story movie gross on average?", []),  # nothing the question marks as a name
    ],
)
def test_the_question_s_own_spans(query, spans):
    assert question_spans(query) == spans


def test_a_weak_reading_is_repaired_from_the_question():
    misspelt, events = ground_in_question(
        KGEntities(companies=["casy"], tickers=["AAPL"]), "which traded more, kind or casi?"
    )
    assert misspelt.companies == ["casi"] and misspelt.tickers == []
    assert [e.what for e in events] == [
        "name read replaced by the question's own",
        "name read not in the question, dropped",
    ]
    described, events = ground_in_question(
        KGEntities(artists=["the artist who won best new artist in 2015"]),
        "when was the artist who won best new artist in 2015 born?",
    )
    assert described.artists == [] and events[0].what == "described entity left to its relation"
    kind_of_thing, _ = ground_in_question(
        KGEntities(movies=["life stinks"], people=["actors"]), "how many actors were in life stinks?"
    )
    assert kind_of_thing == KGEntities(movies=["life stinks"])  # "actors" names a kind of thing, not a person
    godfather, _ = ground_in_question(
        KGEntities(movies=["The Godfather"]), "which movie won best picture the year oldman won?"
    )
    assert godfather.movies == []  # "the" alone does not ground a name
    spelt, events = ground_in_question(
        KGEntities(artists=["The Beatles"], songs=["One More Time"]),
        "did the beattles release one more time?",
    )
    assert (
        spelt == KGEntities(artists=["The Beatles"], songs=["One More Time"]) and events == []
    )  # misspelt; common words
    empty = KGEntities()
    assert (
        fill_from_question(empty, "which traded more, kind or casi?", "finance", 3)[0].what
        == "names taken from the question's own spans"
    )
    assert empty.companies == ["kind", "casi"]
    read = KGEntities(tickers=["KIND"])
    assert (
        fill_from_question(read, "which traded more, kind or casi?", "finance", 3) == []
        and read.companies == []
    )  # the reader's kept
    nothing = KGEntities()
    assert (
        fill_from_question(nothing, "how much did each toy story movie gross?", "movie", 3) == []
        and nothing == KGEntities()
    )
    words = KGEntities()
    assert (
        search_question_words(words, "how much did each toy story movie gross?", "movie")[0].what
        == "the question's words searched as a name"
    )
    assert words.movies == ["toy story gross"]  # only a hit the question writes in full will be taken
    teams = KGEntities()
    assert (
        search_question_words(teams, "how many points did they score last night?", "sports") == []
        and teams == KGEntities()
    )
    ranked = KGEntities()
    assert (
        search_question_words(ranked, "which song was number one last week?", "music") == []
        and ranked == KGEntities()
    )
    named = KGEntities(movies=["Jaws"])
    assert search_question_words(named, "who directed jaws?", "movie") == [] and named.movies == ["Jaws"]


def test_a_hit_the_question_writes_in_full_stands_for_a_name_read_short_or_long():
    assert (
        written_match("dark", ["The Dark Knight", "Dark Waters"], "who directed the dark knight?")
        == "The Dark Knight"
    )
    assert (
        written_match("spielberg directed", ["Steven Spielberg"], "films steven spielberg directed")
        == "Steven Spielberg"
    )
    assert (
        written_match("dark", ["Dark Waters"], "who directed the dark knight?") is None
    )  # not written in the question
    assert (
        written_match("knight", ["Dark Waters", "Jaws"], "is jaws older than dark waters?") is None
    )  # no shared word


MATRIX = [
    ("The Matrix", "1999-03-30"),
    ("Toy Story 2", "1999-10-30"),
    ("The Matrix Revolutions", "2003-11-05"),
    ("The Matrix Reloaded", "2003-05-15"),
]
TOY_STORY = [
    ("Toy Story 4", "2019-06-19"),
    ("Toy Story", "1995-10-30"),
    ("Toy Story of Terror!", "2013-10-15"),
    ("Toy Story 2", "1999-10-30"),
]


def test_a_title_read_with_a_number_is_the_series_film_of_that_number():
    assert numbered_title("matrix 1", MATRIX) == "The Matrix"  # titles without numbers: by release date
    assert numbered_title("matrix 2", MATRIX) == "The Matrix Reloaded"  # "Toy Story 2" is no Matrix film
    assert numbered_title("matrix 4", MATRIX) is None  # more than the series holds
    assert numbered_title("toy story 2", TOY_STORY) == "Toy Story 2"  # a numbered series: by its numbers
    assert numbered_title("toy story 1", TOY_STORY) == "Toy Story"  # 1: the one without a number
    assert numbered_title("toy story 3", TOY_STORY) is None  # not the third by date ("Toy Story of Terror!")
    assert (
        numbered_title("toy story", TOY_STORY) is None and numbered_title("the matrix", MATRIX) is None
    )  # no number read


def test_a_numbered_title_the_kg_does_not_spell_so_is_found_and_no_other_number_stands_for_it(
    fake_api, monkeypatch
):
    def films(route, body):
        hits = {"matrix": MATRIX, "toy story": TOY_STORY}
        key = next((k for k in hits if k in search_key(body.get("query", ""))), None)
        return (
            [{"title": t, "id": i, "release_date": d} for i, (t, d) in enumerate(hits[key])]
            if route == "movie_get_movie_info" and key
            else []
        )

    monkeypatch.setattr(sys.modules[__name__], "official", films)
    matrix, toys = run_stage(
        [
            ("how long between matrix 1 and matrix 2?", "movie", KGEntities(movies=["matrix 1", "matrix 2"])),
            (
                "what did toy story 1 and toy story 3 gross?",
                "movie",
                KGEntities(movies=["toy story 1", "toy story 3"]),
            ),
        ]
    )
    assert "The Matrix / release date: 1999-03-30" in evidence(
        matrix
    ) and "The Matrix Reloaded / release date: 2003-05-15" in evidence(matrix)
    assert "title read with a number taken as the series' film: 'matrix 2' -> 'The Matrix Reloaded'" in map(
        str, matrix.events
    )
    assert "Toy Story / release date: 1995-10-30" in evidence(toys)
    assert "Toy Story 4" not in evidence(toys) and "No movie titled 'toy story 3'" in evidence(
        toys
    )  # "Toy Story 4" looks alike


def test_a_name_the_llm_filed_under_the_wrong_kind_is_searched_as_the_other_only_on_a_miss(fake_api):
    def entities(artists: list[str]) -> str:
        reply = {k: [] for k in ("companies", "tickers", "movies", "people", "songs", "teams", "entities")}
        return json.dumps({**reply, "artists": artists, "sport": "none", "rank": 0})

    questions = ["who wrote lose control?", "when did beyonce win grammys?"]
    replies = {questions[0]: entities(["lose control"]), questions[1]: entities(["Beyonce"])}
    llm = ScriptedLLM(
        lambda conversation, params: next(r for q, r in replies.items() if q in conversation[-1]["content"])
    )
    stage = KnowledgeGraphStage(KGConfig(company_dict_path="/nonexistent"), llm, PromptLibrary())
    song, artist = stage.run(
        [Question(str(i), q, QUERY_TIME) for i, q in enumerate(questions)],
        [QuestionAttributes(domain="music")] * 2,
    )
    searches = [(c.route.split("_")[2], c.body["query"]) for c in fake_api if "search" in c.route]
    assert searches == [("artist", "lose control"), ("artist", "Beyonce"), ("song", "lose control")]
    assert "No artist named" not in evidence(song) and any(
        c.startswith("music_get_song_author") for c in song.calls
    )
    assert "2010, 2015, 2016" in evidence(artist)


def test_names_the_llm_invented_give_way_to_the_question_s_own(fake_api):
    def reply(**names: list[str]) -> str:
        empty = {
            k: []
            for k in ("companies", "tickers", "movies", "people", "artists", "songs", "teams", "entities")
        }
        return json.dumps({**empty, **names, "sport": "none", "rank": 0})

    questions = {
        "which stock traded more this week, kind or casi?": (
            "finance",
            reply(companies=["apple"], tickers=["AAPL"]),
        ),
        "who wrote lose control?": ("music", reply(songs=["Hello"])),
    }
    llm = ScriptedLLM(
        lambda conversation, params: next(
            r for q, (_, r) in questions.items() if q in conversation[-1]["content"]
        )
    )
    stage = KnowledgeGraphStage(KGConfig(company_dict_path="/nonexistent"), llm, PromptLibrary())
    stock, song = stage.run(
        [Question(str(i), q, QUERY_TIME) for i, q in enumerate(questions)],
        [QuestionAttributes(domain=domain) for domain, _ in questions.values()],
    )
    assert (
        "finance_get_price_history(query='KIND')" in stock.calls
        and "finance_get_price_history(query='CASI')" in stock.calls
    )
    assert not any("AAPL" in call or "apple" in call for call in stock.calls)
    assert "names taken from the question's own spans: 'kind', 'casi'" in map(str, stock.events)
    # no span marked in the question: its words are searched, and the song found is the one it writes
    assert (
        "music_get_song_author(query='Lose Control')" in song.calls
        and "the question's words searched as a name" in str(song.events)
    )


def test_chart_dates_found_by_probing_even_when_charts_are_not_dated_saturdays(monkeypatch):
    from models.kg import music
    from models.kg.intent import read_question
    from models.kg.state import QuestionState

    state = QuestionState("who is number one on the billboard this week?", QUERY_TIME, "music")
    state.intent = read_question(state.query, state.query_time, state.domain)
    day = music._reference_day(state)
    wanted = []
    while True:
        chart, probes = music.chart_date(state, day)
        if not probes:
            break
        wanted += probes
        for probe in probes:  # the data's charts are dated Thursdays: 2024-03-07
            result = [["Song"], ["Artist"]] if probe.body["date"] == "2024-03-07" else [[], []]
            state.record(CallResult(probe, result=result))
    assert str(chart) == "2024-03-07"
    assert [p.body["date"] for p in wanted][:2] == ["2024-03-09", "2024-03-02"]  # Saturdays first
