"""The mock KG server (kg_mock) behaves like the official CRAG mock API, point by point of
../shared/docs/CRAG_MOCK_API.md, quirks included. Most tests run against one server on the fixture KG
(conftest `kg_url`); the quirks that need other data patch a copy of the fixture and start their own."""

from __future__ import annotations

import bz2
import json
import os
import pickle
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pytest

from kg_mock import fixture_data as facts
from kg_mock.search import FilteredSearch, OkapiSearch, normalize
from kg_mock.server import free_port, running_server
from kg_mock.store import NameIndex


def post(url: str, path: str, body: Any = None, **kwargs: Any) -> httpx.Response:
    if body is not None:
        kwargs["json"] = body
    return httpx.post(url + path, timeout=30, **kwargs)


def result(url: str, path: str, body: Any) -> Any:
    response = post(url, path, body)
    assert response.status_code == 200, response.text
    return response.json()["result"]


# --- 1. server-wide behaviour -------------------------------------------------------------------------


def test_root_message_and_http_routing(kg_url):
    assert httpx.get(kg_url + "/").json() == {"message": "The CRAG API service is running"}
    assert post(kg_url, "/finance/no_such_route", {"query": "x"}).status_code == 404
    assert httpx.get(kg_url + "/finance/get_eps").status_code == 405
    assert httpx.get(kg_url + "/docs").status_code == 200
    paths = httpx.get(kg_url + "/openapi.json").json()["paths"]
    data_routes = {path: methods for path, methods in paths.items() if path != "/"}
    assert len(data_routes) == 38 and all(set(methods) == {"post"} for methods in data_routes.values())


def test_json_out_is_compact_utf8(kg_url):
    response = post(kg_url, "/music/get_song_author", {"query": "Paper Lanterns in July"})
    assert response.content == '{"result":"Katla Eiríksdóttir"}'.encode()


@pytest.mark.parametrize(
    "content, headers, kind, location",
    [
        (b'{"query": "ZPHR"', {"content-type": "application/json"}, "json_invalid", ["body", 16]),
        (b"", {"content-type": "application/json"}, "missing", ["body"]),
        (b'["ZPHR"]', {"content-type": "application/json"}, "model_attributes_type", ["body"]),
        (b'{"query": "ZPHR"}', {"content-type": "text/plain"}, "model_attributes_type", ["body"]),
        (
            b"query=ZPHR",
            {"content-type": "application/x-www-form-urlencoded"},
            "model_attributes_type",
            ["body"],
        ),
    ],
)
def test_bodies_that_are_not_json_objects_get_a_pydantic_422(kg_url, content, headers, kind, location):
    response = post(kg_url, "/finance/get_eps", content=content, headers=headers)
    assert response.status_code == 422
    (error,) = response.json()["detail"]
    assert error["type"] == kind and error["loc"] == location and {"msg", "input"} <= set(error)


def test_a_body_without_content_type_is_still_json(kg_url):
    response = post(kg_url, "/finance/get_eps", content=b'{"query": "ZPHR"}', headers={"content-type": ""})
    assert response.json() == {"result": 1.87}


def test_extra_fields_are_ignored(kg_url):
    assert result(kg_url, "/finance/get_eps", {"query": "ZPHR", "ticker": "AAPL", "n": 3}) == 1.87


@pytest.mark.parametrize("value", [5, 1.5, True, None, ["ZPHR"], {"a": 1}])
def test_str_fields_accept_only_strings(kg_url, value):
    response = post(kg_url, "/finance/get_eps", {"query": value})
    assert response.status_code == 422
    (error,) = response.json()["detail"]
    assert error["type"] == "string_type" and error["loc"] == ["body", "query"]
    assert error["url"].startswith("https://errors.pydantic.dev/") and error["input"] == value


def test_empty_strings_are_accepted_and_nothing_is_stripped(kg_url):
    assert result(kg_url, "/finance/get_company_name", {"query": ""}) == []
    assert result(kg_url, "/music/grammy_get_award_count_by_artist", {"query": ""}) > 0
    assert result(kg_url, "/finance/get_eps", {"query": " ZPHR"}) is None
    assert result(kg_url, "/finance/get_eps", {"query": "zphr"}) is None


@pytest.mark.parametrize(
    "value", [7003, 7003.0, "7003", "+7003", "7003.0", "7_003", "7003.", "7003.00", "07003"]
)
def test_int_fields_coerce_laxly(kg_url, value):
    assert (
        result(kg_url, "/movie/get_movie_info_by_id", {"query": value})["title"] == "Harbor of Small Lights"
    )


def test_int_fields_take_booleans_as_numbers(kg_url):
    assert result(kg_url, "/music/get_billboard_rank_date", {"rank": True, "date": "2024-03-09"}) == [
        ["Paper Lanterns in July"],
        ["Halcyon Drift"],
    ]


@pytest.mark.parametrize(
    "value, kind",
    [
        (7003.5, "int_from_float"),
        (" 7003", "int_parsing"),
        ("7003 ", "int_parsing"),
        ("MMIV", "int_parsing"),
        (None, "int_type"),
        # where pydantic 2.5.3 (the official server's) and later versions part
        ("0-7003", "int_parsing"),
        ("1_000.0", "int_parsing"),
        ("7_003.", "int_parsing"),
        ("\u0667\u0660\u0660\u0663", "int_parsing"),
        ("9" * 4301, "int_parsing_size"),
        ("x" * 4301, "int_parsing_size"),
    ],
)
def test_int_fields_reject(kg_url, value, kind):
    response = post(kg_url, "/movie/get_movie_info_by_id", {"query": value})
    assert response.status_code == 422 and response.json()["detail"][0]["type"] == kind


def test_optional_fields_take_null_or_absence(kg_url):
    with_null = result(kg_url, "/sports/nba/get_games_on_date", {"date": "2024-03-08", "team_name": None})
    absent = result(kg_url, "/sports/nba/get_games_on_date", {"date": "2024-03-08"})
    assert with_null == absent and len(absent["game_id"]) > 2


@pytest.mark.parametrize("value, kind", [("0022300881", "list_type"), ([22300881], "string_type")])
def test_list_fields_take_only_lists_of_strings(kg_url, value, kind):
    response = post(kg_url, "/sports/nba/get_play_by_play_data_by_game_ids", {"game_ids": value})
    assert response.status_code == 422 and response.json()["detail"][0]["type"] == kind


def test_missing_required_fields(kg_url):
    response = post(
        kg_url, "/music/get_billboard_attributes", {"date": "2024-03-09", "song_name": "Cinder Waltz"}
    )
    assert response.status_code == 422
    assert [(e["type"], e["loc"]) for e in response.json()["detail"]] == [("missing", ["body", "attribute"])]


def test_the_all_awarded_artists_route_ignores_any_body(kg_url):
    expected = result(kg_url, "/music/grammy_get_all_awarded_artists", {})
    for content in (b"{not json", b"[1, 2]", b""):
        response = post(
            kg_url,
            "/music/grammy_get_all_awarded_artists",
            content=content,
            headers={"content-type": "application/json"},
        )
        assert response.json() == {"result": expected}


@pytest.mark.parametrize("query", ["MCMXCIX", "1989", "2022", "0"])
def test_movie_years_outside_the_window_or_not_numbers_are_a_plain_text_500(kg_url, query):
    response = post(kg_url, "/movie/get_year_info", {"query": query})
    assert response.status_code == 500
    assert response.text == "Internal Server Error" and response.headers["content-type"].startswith(
        "text/plain"
    )


def test_movie_year_lookup_uses_the_original_string(kg_url):
    assert result(kg_url, "/movie/get_year_info", {"query": "2012"}) == {
        "movie_list": [7001],
        "oscar_awards": [],
    }
    assert result(kg_url, "/movie/get_year_info", {"query": " 2012"}) is None  # in range for int(), not a key
    assert result(kg_url, "/movie/get_year_info", {"query": "1990"}) is None  # in range, no data
    assert post(kg_url, "/movie/get_year_info", {"query": 2012}).status_code == 422


def test_data_directory_and_delay_from_the_environment(kg_data_dir):
    port = free_port()
    environment = {**os.environ, "KG_BASE_DIRECTORY": str(kg_data_dir), "KG_MOCK_DELAY_S": "0.3"}
    server = subprocess.Popen(
        [sys.executable, "-m", "kg_mock.server", "--port", str(port)],
        env=environment,
        cwd=Path(__file__).resolve().parents[1],
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        give_up = time.monotonic() + 60
        while time.monotonic() < give_up:
            try:
                httpx.get(url + "/", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        started = time.perf_counter()
        assert result(url, "/finance/get_eps", {"query": "ZPHR"}) == 1.87
        assert time.perf_counter() - started >= 0.3
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_one_request_at_a_time_and_the_per_call_delay(kg_data_dir):
    delay = 0.4
    with running_server(data_dir=kg_data_dir, delay_s=delay) as url:
        started = time.perf_counter()
        assert result(url, "/finance/get_eps", {"query": "ZPHR"}) == 1.87
        assert time.perf_counter() - started >= delay
        answers: list[Any] = []

        def call(ticker: str) -> None:
            answers.append(result(url, "/finance/get_market_capitalization", {"query": ticker}))

        threads = [
            threading.Thread(target=call, args=(ticker,)) for ticker in ("ZPHR", "AAPL", "QMTX", "NWRB")
        ]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
    assert len(answers) == 4
    assert elapsed >= 4 * delay * 0.95  # served one after another, never side by side


# --- 1.6-1.8 names and search -------------------------------------------------------------------------


def test_normalisation_deletes_ascii_punctuation_and_keeps_other_characters():
    assert normalize("Spider-Man") == "spiderman" and normalize("AT&T") == "att"
    assert normalize("  Marrow-Saints__live ") == "marrowsaints live"
    assert normalize("Beyoncé’s “Hit” – Live") == "beyoncé’s “hit” – live"


def test_okapi_idf_floor_and_corpus_size_effects():
    assert OkapiSearch([["alpha", "one"], ["beta", "two"]]).top(["alpha"]) == []  # 2 names: idf 0 for all
    four = OkapiSearch([["red", "fox"], ["red", "owl"], ["blue", "jay"], ["green", "eel"]])
    assert four.top(["red"]) == [] and four.top(["fox"]) == [0]  # in 2 of 4 names: contributes nothing
    assert OkapiSearch([["lake", "a"], ["lake", "b"], ["lake", "c"]]).top(["lake"]) != []  # floored, positive
    assert OkapiSearch([["solo", "name"]]).top(["solo"]) == [0]  # negative score, still returned
    three = OkapiSearch([["alpha"], ["beta"], ["gamma"]])
    assert three.top(["beta", "unknown"]) == [1] and three.top([]) == []
    assert (
        len(OkapiSearch([[f"w{i}", "common"] for i in range(30)] + [["rare"]] * 2).top(["common", "rare"]))
        == 10
    )


def test_music_term_filter_and_the_83_name_minimum():
    names = [[f"name{i}"] for i in range(97)] + [["love", "a"], ["love", "b"], ["love", "c"]]
    index = FilteredSearch(names)
    assert index.top(["love"]) == []  # in 3 of 100 names: idf <= 4, deleted
    assert index.top(["name5"]) == [5] and index.top(["a"]) == [97]
    with pytest.raises(ZeroDivisionError):
        FilteredSearch([[f"name{i}"] for i in range(82)])
    FilteredSearch([[f"name{i}"] for i in range(83)])
    tie = FilteredSearch([[f"x{i}"] for i in range(81)] + [["twin", "b"], ["twin", "a"], ["other", "twin"]])
    assert tie.top(["twin"]) == []  # 3 of 84: deleted
    assert FilteredSearch([[f"x{i}"] for i in range(198)] + [["pair", "b"], ["pair", "a"]]).top(["pair"]) == [
        198,
        199,
    ]


def test_music_ties_keep_the_order_names_were_first_scored():
    """Officially heapq.nlargest over the score dict: equal scores in first-scored order, so the
    names of the query's first word come before those of a later word, whatever their index."""
    names = [[f"x{i}"] for i in range(198)] + [["pair", "b"], ["pair", "a"]]
    names[5], names[150] = ["solo", "red"], ["solo", "blue"]
    index = FilteredSearch(names)
    assert index.top(["blue", "red"]) == [150, 5] and index.top(["red", "blue"]) == [5, 150]
    many = FilteredSearch(
        [[f"w{i}", "tag"] if i % 100 == 0 else [f"w{i}"] for i in range(2000)]
    )  # "tag" in 20
    assert many.top(["w1998", "tag"])[:2] == [1998, 0]  # a higher score first, then ties by index
    assert many.top(["tag"]) == list(range(0, 1000, 100))  # more than 10 ties: the first 10 scored


def test_name_index_expands_spellings_and_cuts_to_ten():
    index = NameIndex(["Can U Feel It?", "Other", "can u feel it", "Third"], OkapiSearch)
    assert index.find("CAN-U") == []  # "canu" is not a token
    assert index.find("feel") == ["Can U Feel It?", "can u feel it"]


def test_open_search_and_exact_entity(kg_url):
    assert result(kg_url, "/open/search_entity_by_name", {"query": "brimholt"}) == ["Brimholt Observatory"]
    assert result(kg_url, "/open/search_entity_by_name", {"query": "Florida"}) == [
        "Florida",
        "Florida City, Florida",
    ]
    assert result(kg_url, "/open/search_entity_by_name", {"query": "?!"}) == []
    entity = result(kg_url, "/open/get_entity", {"query": "Lake Varnholm"})
    assert set(entity) == {"summary_text", "summary_structured", "raw_mediawiki"}
    assert entity["summary_structured"]["max_depth_m"] == "187"
    assert result(kg_url, "/open/get_entity", {"query": "lake varnholm"}) is None


# --- 2.2 movie ----------------------------------------------------------------------------------------


def test_movie_search_returns_full_records_by_normalised_key(kg_url):
    (movie,) = result(kg_url, "/movie/get_movie_info", {"query": "Salt Road Nocturne"})
    assert movie["budget"] == 41000000 and movie["crew"][0] == {
        "name": "Marisol Okonkwo-Varga",
        "id": 9001,
        "job": "Director",
    }
    assert {
        "title",
        "id",
        "release_date",
        "original_title",
        "original_language",
        "budget",
        "revenue",
        "rating",
        "genres",
        "oscar_awards",
        "cast",
        "crew",
    } <= set(movie)
    assert result(kg_url, "/movie/get_movie_info", {"query": "Spider-Moth"})[0]["id"] == 7008
    assert (
        result(kg_url, "/movie/get_movie_info", {"query": "spider moth"}) == []
    )  # the key token is "spidermoth"
    (person,) = result(kg_url, "/movie/get_person_info", {"query": "Marisol Okonkwo-Varga"})
    assert person["directed_movies"] == [7001, 7002] and person["birthday"] == "1971-06-14"
    assert person["oscar_awards"][0]["category"] == "DIRECTING"


def test_movie_lookups_by_id(kg_url):
    assert result(kg_url, "/movie/get_person_info_by_id", {"query": 9003})["name"] == "Yumi Castellanos"
    assert (
        result(kg_url, "/movie/get_movie_info_by_id", {"query": 7003})["original_title"] == "Havn av små lys"
    )
    assert result(kg_url, "/movie/get_movie_info_by_id", {"query": True}) is None  # id 1
    assert result(kg_url, "/movie/get_movie_info_by_id", {"query": 1}) is None


# --- 2.3 finance --------------------------------------------------------------------------------------


def test_company_search_lists_names_that_normalise_alike_twice(kg_url):
    names = result(kg_url, "/finance/get_company_name", {"query": "kovalt"})
    assert names == ["Kovalt Mining Corp. Common Stock", "Kovalt Mining Corp Common Stock"] * 2
    assert result(kg_url, "/finance/get_company_name", {"query": "zephyrline"}) == [
        "Zephyrline Robotics Inc. Common Stock"
    ]


def test_ticker_by_exact_company_name(kg_url):
    assert result(kg_url, "/finance/get_ticker_by_name", {"query": "Apple Inc. Common Stock"}) == "AAPL"
    assert result(kg_url, "/finance/get_ticker_by_name", {"query": "Apple"}) is None
    assert result(kg_url, "/finance/get_ticker_by_name", {"query": "apple inc. common stock"}) is None


def test_ticker_routes(kg_url):
    daily = result(kg_url, "/finance/get_price_history", {"query": "ZPHR"})
    assert daily["2024-03-07 00:00:00 EST"] == {
        "Open": 47.02,
        "High": 49.88,
        "Low": 46.91,
        "Close": 49.31,
        "Volume": 1402233,
    }
    assert 250 <= len(daily) <= 262 and min(daily) >= "2023-03-08" and max(daily) == "2024-03-08 00:00:00 EST"
    minutes = result(kg_url, "/finance/get_detailed_price_history", {"query": "AAPL"})
    assert len(minutes) == 5 * 390 and min(minutes) == "2024-03-04 09:30:00 EST"
    assert minutes["2024-03-08 15:59:00 EST"]["Close"] == 174.78
    assert (
        result(kg_url, "/finance/get_dividends_history", {"query": "ZPHR"})["2024-03-06 00:00:00 EST"]
        == 0.135
    )
    assert result(kg_url, "/finance/get_dividends_history", {"query": "QMTX"}) == {}
    assert result(kg_url, "/finance/get_market_capitalization", {"query": "ZPHR"}) == 8412000000.0
    info = result(kg_url, "/finance/get_info", {"query": "NWRB"})
    assert {
        "city",
        "sector",
        "industry",
        "longBusinessSummary",
        "marketCap",
        "forwardEps",
        "forwardPE",
    } <= set(info)
    assert (
        result(kg_url, "/finance/get_price_history", {"query": "NWRB"})["2024-02-29 00:00:00 EST"]["Close"]
        == 57.32
    )


def test_eps_and_pe_are_the_forward_values_of_the_info_record(kg_url):
    info = result(kg_url, "/finance/get_info", {"query": "NWRB"})
    assert info["forwardEps"] != info["trailingEps"]
    assert result(kg_url, "/finance/get_eps", {"query": "NWRB"}) == info["forwardEps"] == 2.41
    assert result(kg_url, "/finance/get_pe_ratio", {"query": "NWRB"}) == info["forwardPE"]
    assert result(kg_url, "/finance/get_eps", {"query": "QMTX"}) == -0.42
    assert result(kg_url, "/finance/get_pe_ratio", {"query": "QMTX"}) is None  # no forwardPE key
    assert result(kg_url, "/finance/get_eps", {"query": "ORLX"}) is None  # a company without data


# --- 2.4 music ----------------------------------------------------------------------------------------


def test_music_search_needs_rare_whole_words(kg_url):
    assert result(kg_url, "/music/search_artist_entity_by_name", {"query": "halcyon"}) == ["Halcyon Drift"]
    assert (
        result(kg_url, "/music/search_song_entity_by_name", {"query": "paper lanterns"})[0]
        == "Paper Lanterns in July"
    )
    assert result(kg_url, "/music/search_song_entity_by_name", {"query": "Can U Feel It"}) == [
        "Can U Feel It?",
        "Can U Feel It",
        "can u feel it?",
    ]
    assert result(kg_url, "/music/search_artist_entity_by_name", {"query": "Marrow Saints"}) == []
    assert result(kg_url, "/music/search_artist_entity_by_name", {"query": "Marrow-Saints"}) == [
        "Marrow-Saints"
    ]


def test_billboard_rank_date_is_a_pair_of_lists_for_an_exact_chart_date(kg_url):
    path = "/music/get_billboard_rank_date"
    assert result(kg_url, path, {"rank": 1, "date": "2024-03-09"}) == [
        ["Paper Lanterns in July"],
        ["Halcyon Drift"],
    ]
    assert result(kg_url, path, {"rank": 1, "date": "2024-03-02"}) == [["Cinder Waltz"], ["Ottoline Reyes"]]
    assert result(kg_url, path, {"rank": 1, "date": "2024-03-08"}) == [
        [],
        [],
    ]  # not a chart date: no nearest date
    assert result(kg_url, path, {"rank": 1, "date": "yesterday"}) == [[], []]
    assert result(kg_url, path, {"rank": 0}) == [None, None] and result(kg_url, path, {"rank": 101}) == [
        None,
        None,
    ]
    charts = 53
    for body in ({"rank": 2}, {"rank": 2, "date": None}, {"rank": 2, "date": ""}):
        songs, artists = result(kg_url, path, body)
        assert len(songs) == len(artists) == charts
    assert songs[-2:] == ["Paper Lanterns in July", "Cinder Waltz"]


def test_billboard_attributes(kg_url):
    def attribute(name: str, song: str, date: str = "2024-03-09") -> Any:
        return result(
            kg_url, "/music/get_billboard_attributes", {"date": date, "attribute": name, "song_name": song}
        )

    assert attribute("weeks_in_chart", "Paper Lanterns in July") == "20"
    assert attribute("rank_last_week", "Paper Lanterns in July") == "2"
    assert attribute("top_position", "Cinder Waltz") == "1" and attribute("rank", "Cinder Waltz") == "2"
    assert attribute("rank_last_week", "Harmattan Heart", "2024-03-02") == "-"  # a newcomer
    assert attribute("weeks_in_chart", "Harmattan Heart", "2024-03-02") == "1"
    assert attribute("top_position", "Harmattan Heart", "2024-03-02") == "38"
    assert attribute("rank_last_wek", "Paper Lanterns in July") == "1"  # any other attribute is the rank
    assert attribute("", "Paper Lanterns in July") == "1"
    assert attribute("rank", "Paper Lanterns in July", "2024-03-10") is None
    assert attribute("rank", "paper lanterns in july") is None


def test_grammy_by_year_window(kg_url):
    def best(kind: str, year: Any) -> Any:
        return result(kg_url, f"/music/grammy_get_best_{kind}_by_year", {"query": year})

    assert best("artist", 2019) == ["Halcyon Drift"] and best("artist", "1979") == ["Jasper Quell"]
    assert best("song", 2018) == ["Kitefall"] and best("album", 2015) == ["Saltwater Hymnal"]
    assert best("artist", 1957) == [] and best("artist", 1956) is None
    assert (
        best("song", 2021) is None and best("song", 2022) is None and best("album", 2022) is None
    )  # rows exist


def test_grammy_counts_are_case_sensitive_substring_rows_over_three_columns(kg_url, kg_data_dir):
    def count(query: str) -> int:
        return result(kg_url, "/music/grammy_get_award_count_by_artist", {"query": query})

    # BNA 2019 twice (nominee and artist), SOTY and AOTY 2022 (artist), AOTY 2022 workers
    # and the 2022 Best Alternative Music Performance (artist)
    assert count("Halcyon Drift") == 6
    assert count("halcyon drift") == 0 and count("Halcyon") == 6
    assert count("Delphine Arceneaux") == 1 + 3 + 2  # nominee once, artist thrice, workers twice
    rows = len(pd.read_pickle(kg_data_dir / "music" / "grammy_df.pickle"))
    assert count("") == 3 * rows
    assert result(kg_url, "/music/grammy_get_award_count_by_song", {"query": "Cinder Waltz"}) == 1
    assert result(kg_url, "/music/grammy_get_award_count_by_song", {"query": "Halcyon Drift"}) == 1
    assert result(kg_url, "/music/grammy_get_award_count_by_song", {"query": "Paper Lanterns in July"}) == 2


def test_grammy_award_years_and_all_awarded_artists(kg_url):
    years = result(kg_url, "/music/grammy_get_award_date_by_artist", {"query": "Delphine Arceneaux"})
    assert years == [int(year) for year in (2016, 2018, 2019)] and all(isinstance(y, int) for y in years)
    assert result(kg_url, "/music/grammy_get_award_date_by_artist", {"query": "Nobody"}) == []
    artists = result(kg_url, "/music/grammy_get_all_awarded_artists", {})
    assert artists[0] == "Jasper Quell" and len(artists) == len(set(artists))
    assert (
        artists.index("The Cobalt Hour")
        < artists.index("Delphine Arceneaux")
        < artists.index("Halcyon Drift")
    )


def test_artist_and_song_facts(kg_url):
    def get(route: str, query: str) -> Any:
        return result(kg_url, f"/music/{route}", {"query": query})

    assert get("get_artist_birth_place", "Ottoline Reyes") == "MX"
    assert get("get_artist_birth_date", "Marrow-Saints") == "1996"
    assert get("get_artist_birth_date", "ottoline reyes") is None
    assert sorted(get("get_members", "Marrow-Saints")) == ["Dale Ruskin", "Pia Strand", "Wendell Okoro"]
    assert get("get_members", "Ottoline Reyes") == [] and get("get_members", "Nobody") is None
    assert get("get_lifespan", "Jasper Quell") == ["1946-05-02", "2011-08-19"]
    assert get("get_lifespan", "Halcyon Drift") == ["2009-04-01", None]
    assert get("get_lifespan", "Nobody") == [None, None]
    assert get("get_song_author", "Paper Lanterns in July") == "Katla Eiríksdóttir"
    assert get("get_song_release_country", "Cinder Waltz") == "MX"
    assert get("get_song_release_date", "Tin Soldier Parade") == "1977-10-01"
    assert get("get_song_release_date", "Nothing") is None
    assert get("get_artist_all_works", "Delphine Arceneaux").count("Kitefall") == 2  # not deduplicated
    assert get("get_artist_all_works", "Nobody") is None


# --- 2.5 sports ---------------------------------------------------------------------------------------

ARSENAL_KEY = "('ENG-Premier League', '2324', 'Arsenal', '2024-03-09 Brentford-Arsenal')"
SOCCER = "/sports/soccer/get_games_on_date"
NBA = "/sports/nba/get_games_on_date"


def test_soccer_is_column_oriented_with_the_team_only_in_the_row_key(kg_url):
    games = result(kg_url, SOCCER, {"date": "2024-03-09", "team_name": "Arsenal"})
    assert list(games["result"]) == [ARSENAL_KEY]
    assert games["date"][ARSENAL_KEY] == "2024-03-09T00:00:00.000" and games["GF"][ARSENAL_KEY] == "2"
    assert (
        games["opponent"][ARSENAL_KEY] == "Brentford" and games["Captain"][ARSENAL_KEY] == "Martin Odegaard"
    )
    assert ":" in games["time"][ARSENAL_KEY] and games["Notes"][ARSENAL_KEY] is None
    assert not {"team", "comp", "league", "season", "game"} & set(games)
    assert set(games) == {
        "date",
        "time",
        "round",
        "day",
        "venue",
        "result",
        "GF",
        "GA",
        "opponent",
        "xG",
        "xGA",
        "Poss",
        "Attendance",
        "Captain",
        "Formation",
        "Referee",
        "match_report",
        "Notes",
    }
    everyone = result(kg_url, SOCCER, {"date": "2024-03-09"})
    assert len(everyone["result"]) == 20  # each game once per side


@pytest.mark.parametrize(
    "body, rows",
    [
        ({"date": "2024-03", "team_name": "Arsenal"}, 2),
        ({"date": "2024", "team_name": "Arsenal"}, 10),
        ({"date": "2024-03-09", "team_name": "Man Utd"}, None),
        ({"date": "2024-03-09", "team_name": "arsenal"}, None),
        ({"date": "2024-03-09", "team_name": ""}, None),
        ({"date": "2024-3-9", "team_name": "Arsenal"}, None),
        ({"date": "2024-03-09-01", "team_name": "Arsenal"}, None),
        ({"date": "2024-03-09", "team_name": "Manchester Utd"}, 1),
    ],
)
def test_soccer_matching_is_exact(kg_url, body, rows):
    games = result(kg_url, SOCCER, body)
    assert (None if games is None else len(games["result"])) == rows


def test_nba_is_column_oriented_by_row_position_with_every_column(kg_url):
    games = result(kg_url, NBA, {"date": "2024-03-08", "team_name": "Portland Trail Blazers"})
    assert list(games["game_id"]) == ["0"]
    row = {column: values["0"] for column, values in games.items()}
    assert row["game_id"] == "0022300881" and row["game_date"] == "2024-03-08 00:00:00"
    assert row["pts_home"] == 117.0 and isinstance(row["pts_home"], float) and row["pts_away"] == 109.0
    assert row["season_id"] == "22023" and isinstance(row["team_id_home"], str)
    assert row["min"] == 240 and row["plus_minus_home"] == 8 and isinstance(row["plus_minus_home"], int)
    assert {"team_name_home", "team_name_away", "wl_home", "matchup_home", "reb_home", "season_type"} <= set(
        row
    )


@pytest.mark.parametrize(
    "body, games",
    [
        ({"date": "2024-03-08", "team_name": "Rockets"}, None),
        ({"date": "2024-03-08", "team_name": "houston rockets"}, None),
        ({"date": "2024-03-08", "team_name": "Houston Rockets"}, 1),
        ({"date": "2024-03-08", "team_name": ""}, None),
        ({"date": "2024-03-08", "team_name": "Portland Trail Blazer's"}, None),
        ({"date": "2024-03-08'", "team_name": "Houston Rockets"}, None),
        ({"date": "2024-3-8"}, None),
    ],
)
def test_nba_matching_is_exact_sql_equality(kg_url, body, games):
    found = result(kg_url, NBA, body)
    if games is None:
        assert found is None
    else:
        assert len(found["game_id"]) == games


def test_nba_dates_by_parts_and_the_four_part_quirk(kg_url):
    team = "Houston Rockets"
    month = result(kg_url, NBA, {"date": "2024-03", "team_name": team})
    season = result(kg_url, NBA, {"date": "2024", "team_name": team})
    everything = result(kg_url, NBA, {"date": "2024-03-08-00", "team_name": team})  # 4 parts: no date filter
    assert month is not None and len(season["game_id"]) > len(month["game_id"])
    assert len(everything["game_id"]) > len(season["game_id"])  # the 2023 games too
    assert all(
        team in (home, away)
        for home, away in zip(everything["team_name_home"].values(), everything["team_name_away"].values())
    )
    injected = result(kg_url, NBA, {"date": "x' or '1'='1"})
    assert len(injected["game_id"]) > len(everything["game_id"])


def test_play_by_play(kg_url):
    path = "/sports/nba/get_play_by_play_data_by_game_ids"
    events = result(kg_url, path, {"game_ids": ["0022300881"]})
    assert {
        "game_id",
        "eventnum",
        "eventmsgtype",
        "period",
        "pctimestring",
        "homedescription",
        "neutraldescription",
        "visitordescription",
        "score",
        "scoremargin",
        "player1_name",
        "player2_name",
        "player3_name",
    } <= set(events)
    assert set(events["game_id"].values()) == {"0022300881"} and list(events["game_id"])[:2] == ["0", "1"]
    last = str(len(events["game_id"]) - 1)
    assert events["score"][last] == "109 - 117"  # away - home, the final score
    two = result(kg_url, path, {"game_ids": ["0022300881", "0022300884"]})
    assert set(two["game_id"].values()) == {"0022300881", "0022300884"}
    assert result(kg_url, path, {"game_ids": ["22300881"]}) is None  # leading zeros matter
    assert result(kg_url, path, {"game_ids": []}) is None


# --- data that the fixture does not hold: patched copies ----------------------------------------------


@pytest.fixture()
def patched_copy(kg_data_dir, tmp_path):
    """A copy of the fixture KG to patch before starting a server on it."""
    target = tmp_path / "kg"
    shutil.copytree(kg_data_dir, target)
    return target


def _edit_pickle(path: Path, edit) -> None:
    with path.open("rb") as file:
        value = pickle.load(file)
    edited = edit(value)
    if edited is not None:
        value = edited
    with path.open("wb") as file:
        pickle.dump(value, file, protocol=4)


def test_broken_data_gives_plain_text_500s(patched_copy):
    music = patched_copy / "music"

    def nan_nominee(grammy: pd.DataFrame) -> pd.DataFrame:
        grammy.loc[len(grammy)] = [2005, "Best New Artist", float("nan"), "x", "y", True]
        return grammy

    _edit_pickle(music / "grammy_df.pickle", nan_nominee)
    _edit_pickle(
        music / "song_dict_hot100.pickle",
        lambda songs: songs["Cinder Waltz"].update(
            {"2024-03-09": ["2024-03-09", "Cinder Waltz", "Ottoline Reyes", "2"]}
        ),
    )
    movies = json.loads((patched_copy / "movie" / "movie_db.json").read_text())
    movies["the  double  space"] = {**movies["salt road nocturne"], "id": 7999}
    (patched_copy / "movie" / "movie_db.json").write_text(json.dumps(movies))
    with running_server(data_dir=patched_copy) as url:
        for path, body in [
            ("/music/grammy_get_best_artist_by_year", {"query": 2005}),
            (
                "/music/get_billboard_attributes",
                {"date": "2024-03-09", "attribute": "rank", "song_name": "Cinder Waltz"},
            ),
            ("/movie/get_movie_info", {"query": "double"}),
        ]:
            response = post(url, path, body)
            assert (response.status_code, response.text) == (500, "Internal Server Error"), path
        assert (
            result(url, "/movie/get_movie_info", {"query": "salt"})[0]["id"] == 7002
        )  # when it does not score
        assert (
            result(url, "/music/grammy_get_award_count_by_artist", {"query": "nan"}) >= 1
        )  # NaN cell is "nan"


def test_a_music_index_under_83_names_aborts_start_up(patched_copy):
    artists = dict(
        list(pickle.loads((patched_copy / "music" / "artist_dict_simplified.pickle").read_bytes()).items())[
            :82
        ]
    )
    (patched_copy / "music" / "artist_dict_simplified.pickle").write_bytes(pickle.dumps(artists))
    with pytest.raises(RuntimeError, match="ZeroDivisionError"), running_server(data_dir=patched_copy):
        pass


def test_tiny_open_corpus_finds_nothing_and_blank_lines_abort(patched_copy):
    lines = [
        json.dumps(["Alpha Tower", {"summary_text": "a"}]),
        json.dumps(["Beta Bridge", {"summary_text": "b"}]),
    ]
    (patched_copy / "open" / "kg.0.jsonl.bz2").write_bytes(bz2.compress(lines[0].encode()))
    (patched_copy / "open" / "kg.1.jsonl.bz2").write_bytes(bz2.compress(lines[1].encode()))
    (patched_copy / "finance" / "finance_info.sqlite").unlink()  # opened in create mode: every ticker null
    with running_server(data_dir=patched_copy) as url:
        assert result(url, "/open/search_entity_by_name", {"query": "alpha"}) == []
        assert result(url, "/open/get_entity", {"query": "Alpha Tower"}) == {"summary_text": "a"}
        assert result(url, "/finance/get_eps", {"query": "ZPHR"}) is None
        assert result(url, "/finance/get_market_capitalization", {"query": "ZPHR"}) == 8412000000.0
    (patched_copy / "open" / "kg.1.jsonl.bz2").write_bytes(bz2.compress((lines[1] + "\n\n").encode()))
    with pytest.raises(RuntimeError, match="JSONDecodeError"), running_server(data_dir=patched_copy):
        pass


def test_fixture_keeps_the_names_the_music_index_needs(kg_data_dir):
    artists = pickle.loads((kg_data_dir / "music" / "artist_dict_simplified.pickle").read_bytes())
    songs = pickle.loads((kg_data_dir / "music" / "song_dict_simplified.pickle").read_bytes())
    assert len({normalize(name) for name in artists}) >= 83 and len({normalize(name) for name in songs}) >= 83
    assert set(facts.ARTISTS) <= set(artists) and set(facts.SONGS) <= set(songs)


def test_benchmark_questions_are_in_step_with_the_fixture(kg_data_dir):
    """benchmarks/kg_questions.jsonl reads its answers off the fixture: rebuild it when that changes."""
    import importlib.util

    from kg_mock.store import KnowledgeGraph

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "kg_questions_build.py"
    spec = importlib.util.spec_from_file_location("kg_questions_build", path)
    builder = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = builder  # dataclasses look their module up there
    spec.loader.exec_module(builder)
    rows = builder.questions(KnowledgeGraph(kg_data_dir))
    stored = [json.loads(line) for line in builder.OUTPUT.read_text(encoding="utf-8").splitlines()]
    assert rows == stored, "run: python -m benchmarks.kg_questions_build"
    assert len(rows) >= 60 and {row["domain"] for row in rows} == {
        "finance",
        "movie",
        "music",
        "sports",
        "open",
    }


@pytest.mark.parametrize("folder", ["absent", "empty"])
def test_the_server_without_its_data_folder_says_in_one_line_what_is_missing_and_what_to_do(tmp_path, folder):
    data_dir = tmp_path / "cragkg"
    if folder == "empty":
        data_dir.mkdir()
    run = subprocess.run(
        [sys.executable, "-m", "kg_mock.server", "--data-dir", str(data_dir), "--port", "9"],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    last = run.stderr.strip().splitlines()[-1]
    missing = (
        f"No KG data folder {data_dir}"
        if folder == "absent"
        else f"lacks {data_dir / 'open' / 'kg.0.jsonl.bz2'}"
    )
    assert missing in last and "python -m kg_mock.fixture DIR" in last
