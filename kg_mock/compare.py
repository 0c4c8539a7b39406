"""Sends the same requests to two KG API servers and reports where their answers differ: to check
this mock against the official server code running on the same data directory.

    python -m kg_mock.fixture /tmp/kg
    (cd CRAG/mock_api && KG_BASE_DIRECTORY=/tmp/kg uvicorn server:app --port 8001) # official, own venv
    python -m kg_mock.server --data-dir /tmp/kg --port 8002
    python -m kg_mock.compare http://127.0.0.1:8001 http://127.0.0.1:8002

Each case is one request (route, raw body, content type) covering a point of
../shared/docs/CRAG_MOCK_API.md on the fixture KG; responses are compared by status code and body
(JSON bodies as parsed JSON). `get_members`, whose order is a set's order officially, is compared as
a sorted list; search hits keep their order (ties included). Besides the fixed cases: the Billboard
entries of every third rank, random 2-3-word music searches over the names they list, which probe the
order of tied scores, and searches that tie more than 10 names, which probe which of them are cut.
Exit status 1 when any case differs.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import httpx

from kg_mock.search import normalize
from kg_mock.server import FINANCE_TICKER_ROUTES

JSON = "application/json"


@dataclass(frozen=True)
class Case:
    path: str
    body: Any = None  # a JSON value, or bytes sent as they are
    content_type: str | None = JSON
    unordered: bool = False  # compare list results as sorted lists

    def send(self, base_url: str) -> tuple[int, Any]:
        """One request on a connection of its own (a server may close a connection after a 500)."""
        content = self.body if isinstance(self.body, bytes) else json.dumps(self.body).encode()
        headers = {"content-type": self.content_type} if self.content_type else {}
        response = httpx.post(base_url + self.path, content=content, headers=headers, timeout=60)
        try:
            body = response.json()
        except ValueError:
            body = response.text
        if self.unordered and isinstance(body, dict) and isinstance(body.get("result"), list):
            body = {"result": sorted(body["result"], key=repr)}
        return response.status_code, body


def _queries(path: str, values: list[Any], unordered: bool = False) -> list[Case]:
    return [Case(path, {"query": value}, unordered=unordered) for value in values]


# Strings pydantic versions coerce to int differently (the official server pins 2.5.3).
INT_STRINGS = [
    "7001.",
    "0-7001",
    "7003.",
    "7003.00",
    "-7003.",
    "0-7003",
    "7-003",
    "1_000.0",
    "7_003.",
    "7__003",
    "_7003",
    "7003_",
    "07003",
    "-0",
    "+0.",
    ".0",
    "0x1B5B",
    "1e3",
    "\u0667\u0660\u0660\u0663",
    "7003.5",
    "",
    "9" * 4300,
    "9" * 4301,
    "-" + "9" * 4300,
    "9" * 4298 + ".0",
    "9" * 4299 + ".0",
    "x" * 4301,
    "1_" * 2150 + "1",
]


def cases() -> list[Case]:
    found: list[Case] = []
    found += _queries(
        "/open/search_entity_by_name", ["brimholt", "Florida", "florida city", "?!", "", "lake dam"]
    )
    found += _queries("/open/get_entity", ["Lake Varnholm", "lake varnholm", "Atlantis", 5, None])
    found += _queries("/movie/get_person_info", ["Marisol Okonkwo-Varga", "marisol", "teodor brandvik", "x"])
    found += _queries(
        "/movie/get_movie_info", ["Salt Road Nocturne", "spider-moth", "spider moth", "the", ""]
    )
    found += _queries(
        "/movie/get_year_info", ["2012", "2017", " 2012", "1990", "1989", "2022", "MCMXCIX", 2012]
    )
    found += _queries(
        "/movie/get_movie_info_by_id", [7003, 7003.0, "7003", "+7003", "7_003", True, 7003.5, " 7003"]
    )
    found += _queries("/movie/get_movie_info_by_id", INT_STRINGS + [1e20, -(2.0**63), 2.0**63 - 1024, -0.0])
    found += [
        Case("/movie/get_movie_info_by_id", text) for text in (b'{"query": NaN}', b'{"query": -Infinity}')
    ]
    found += _queries("/movie/get_person_info_by_id", [9003, "9001", None, "x"])
    found += _queries(
        "/finance/get_company_name", ["zephyrline", "robotics", "kovalt", "Apple Inc", "", "stock"]
    )
    found += _queries(
        "/finance/get_ticker_by_name", ["Apple Inc. Common Stock", "Apple", "Kovalt Mining Corp Common Stock"]
    )
    for route in FINANCE_TICKER_ROUTES:
        found += _queries(f"/finance/{route}", ["ZPHR", "QMTX", "NWRB", "zphr", "ORLX", "NOPE"])
    found += _queries(
        "/music/search_artist_entity_by_name", ["halcyon", "Marrow Saints", "Marrow-Saints", "the", "x"]
    )
    found += _queries(
        "/music/search_song_entity_by_name", ["paper lanterns", "can u feel it", "love", "neon"]
    )
    for body in (
        {"rank": 1, "date": "2024-03-09"},
        {"rank": 1, "date": "2024-03-08"},
        {"rank": 2},
        {"rank": 2, "date": None},
        {"rank": 2, "date": ""},
        {"rank": 0},
        {"rank": 101},
        {"rank": True, "date": "2024-03-02"},
        {"rank": "5", "date": "2024-03-09"},
        {"rank": "5.", "date": "2024-03-09"},
        {"rank": "0-5", "date": "2024-03-09"},
        {"rank": "1_0.0", "date": "2024-03-09"},
        {"date": "2024-03-09"},
    ):
        found.append(Case("/music/get_billboard_rank_date", body))
    for song, date in (
        ("Paper Lanterns in July", "2024-03-09"),
        ("Harmattan Heart", "2024-03-02"),
        ("Cinder Waltz", "2024-03-10"),
        ("cinder waltz", "2024-03-09"),
    ):
        for attribute in ("rank_last_week", "weeks_in_chart", "top_position", "rank", "rank_last_wek", ""):
            found.append(
                Case(
                    "/music/get_billboard_attributes",
                    {"date": date, "attribute": attribute, "song_name": song},
                )
            )
    for kind in ("artist", "song", "album"):
        found += _queries(
            f"/music/grammy_get_best_{kind}_by_year",
            [1956, 1957, 1979, 2015, 2018, 2019, 2020, 2022, "2019", "2019.", "2_019.0"],
        )
    found += _queries(
        "/music/grammy_get_award_count_by_artist",
        ["Halcyon Drift", "Halcyon", "halcyon drift", "", "nan", "None", "Delphine Arceneaux"],
    )
    found += _queries("/music/grammy_get_award_count_by_song", ["Cinder Waltz", "Halcyon Drift", ""])
    found += _queries(
        "/music/grammy_get_award_date_by_artist", ["Delphine Arceneaux", "Halcyon Drift", "Nobody", ""]
    )
    for body in (b"{}", b"{not json", b"", b"[1]"):
        found.append(Case("/music/grammy_get_all_awarded_artists", body))
    for route in ("get_artist_birth_place", "get_artist_birth_date", "get_lifespan", "get_artist_all_works"):
        found += _queries(
            f"/music/{route}",
            [
                "Ottoline Reyes",
                "Jasper Quell",
                "Marrow-Saints",
                "Delphine Arceneaux",
                "ottoline reyes",
                "Nobody",
            ],
        )
    found += _queries(
        "/music/get_members", ["Marrow-Saints", "Halcyon Drift", "Ottoline Reyes", "Nobody"], unordered=True
    )
    for route in ("get_song_author", "get_song_release_country", "get_song_release_date"):
        found += _queries(
            f"/music/{route}", ["Paper Lanterns in July", "Tin Soldier Parade", "cinder waltz", "Nothing"]
        )
    for path in ("/sports/soccer/get_games_on_date", "/sports/nba/get_games_on_date"):
        for body in (
            {"date": "2024-03-09", "team_name": "Arsenal"},
            {"date": "2024-03", "team_name": "Arsenal"},
            {"date": "2024", "team_name": "Manchester Utd"},
            {"date": "2024-03-09"},
            {"date": "2024-03-09", "team_name": None},
            {"date": "2024-03-09", "team_name": ""},
            {"date": "2024-3-9", "team_name": "Arsenal"},
            {"date": "2024-03-09-01", "team_name": "Arsenal"},
            {"date": "2024-03-08", "team_name": "Portland Trail Blazers"},
            {"date": "2024-03-08", "team_name": "Rockets"},
            {"date": "2024-03", "team_name": "Houston Rockets"},
            {"date": "2024-03-08-00", "team_name": "Houston Rockets"},
            {"date": "2024-03-08", "team_name": "Portland Trail Blazer's"},
            {"date": "x' or '1'='1"},
            {"team_name": "Arsenal"},
            {"date": 20240309},
        ):
            found.append(Case(path, body))
    for ids in (["0022300881"], ["0022300881", "0022300884"], ["22300881"], [], "0022300881", [22300881]):
        found.append(Case("/sports/nba/get_play_by_play_data_by_game_ids", {"game_ids": ids}))
    # Transport and validation.
    found += [
        Case("/finance/get_eps", b'{"query": "ZPHR"'),
        Case("/finance/get_eps", b""),
        Case("/finance/get_eps", b'["ZPHR"]'),
        Case("/finance/get_eps", b'{"query": "ZPHR"}', "text/plain"),
        Case("/finance/get_eps", b"query=ZPHR", "application/x-www-form-urlencoded"),
        Case("/finance/get_eps", b'{"query": "ZPHR"}', None),
        Case("/finance/get_eps", {"query": "ZPHR", "ticker": "AAPL"}),
        Case("/finance/get_eps", {"ticker": "ZPHR"}),
        Case("/finance/get_eps", {"query": ["ZPHR"]}),
        Case("/finance/get_eps", {"query": 1.5}),
        Case("/music/get_billboard_attributes", {"date": "2024-03-09", "song_name": "Cinder Waltz"}),
        Case("/finance/no_such_route", {"query": "x"}),
    ]
    return found


CHART_RANKS = range(
    1, 101, 3
)  # every stored chart entry of these ranks: the names the random searches draw on
SEARCH_ROUTES = {"song": "/music/search_song_entity_by_name", "artist": "/music/search_artist_entity_by_name"}


def chart_names(base_url: str) -> dict[str, list[str]]:
    """Song and artist names of the Billboard entries at `CHART_RANKS`, as one server answers them."""
    songs: list[str] = []
    artists: list[str] = []
    for rank in CHART_RANKS:
        _, body = Case("/music/get_billboard_rank_date", {"rank": rank}).send(base_url)
        listed = body.get("result") if isinstance(body, dict) else None
        if isinstance(listed, list) and len(listed) == 2 and all(isinstance(part, list) for part in listed):
            songs += listed[0]
            artists += listed[1]
    return {"song": sorted(set(songs)), "artist": sorted(set(artists))}


def search_cases(names: dict[str, list[str]], per_kind: int, seed: int = 7) -> list[Case]:
    """Music searches of 2-3 words drawn at random from the names of each kind: words shared by
    several names score alike, so these probe the order of tied hits."""
    rng = random.Random(seed)
    found = []
    for kind, path in SEARCH_ROUTES.items():
        words = sorted({word for name in names.get(kind, []) for word in name.split()})
        for _ in range(per_kind if words else 0):
            found.append(
                Case(path, {"query": " ".join(rng.sample(words, min(len(words), rng.choice((2, 3)))))})
            )
    return found


MIN_TIES = 11  # more tied names than the 10 a search returns


def many_ties_cases(names: dict[str, list[str]], per_kind: int, seed: int = 11) -> list[Case]:
    """Music searches whose every word occurs in one listed name only, one word per name, the names all
    of one length: more than 10 names score exactly alike, so these probe which tied names make the
    cut of 10 and their order (the words in several random orders, since the order names are first
    scored in follows the query's words)."""
    rng = random.Random(seed)
    found = []
    for kind, path in SEARCH_ROUTES.items():
        listed = names.get(kind, [])
        tokens = {name: normalize(name).split() for name in listed}
        counts = Counter(word for words in tokens.values() for word in set(words))
        by_length: dict[int, list[str]] = {}
        for name, words in tokens.items():
            unique = sorted(word for word in set(words) if counts[word] == 1)
            if unique:
                by_length.setdefault(len(words), []).append(unique[0])
        groups = [words for words in by_length.values() if len(words) >= MIN_TIES]
        for _ in range(per_kind if groups else 0):
            words = rng.choice(groups)
            found.append(
                Case(
                    path,
                    {
                        "query": " ".join(
                            rng.sample(words, rng.randint(MIN_TIES, min(len(words), MIN_TIES + 5)))
                        )
                    },
                )
            )
    return found


def compare(
    reference_url: str, ours_url: str, random_searches: int = 300, tie_searches: int = 30
) -> tuple[int, list[str]]:
    """(requests sent to each server, the differences found)."""
    differences = []
    sent = cases() + [Case("/music/get_billboard_rank_date", {"rank": rank}) for rank in CHART_RANKS]
    names = chart_names(reference_url)
    sent += search_cases(names, random_searches) + many_ties_cases(names, tie_searches)
    for case in sent:
        reference, ours = case.send(reference_url), case.send(ours_url)
        if reference != ours:
            differences.append(
                f"{case.path} {case.body!r} ({case.content_type}):\n  reference {_short(reference)}"
                f"\n  ours      {_short(ours)}"
            )
    return len(sent), differences


def _short(answer: tuple[int, Any]) -> str:
    text = json.dumps(answer[1], ensure_ascii=False) if not isinstance(answer[1], str) else repr(answer[1])
    return f"{answer[0]} {text[:400]}{'…' if len(text) > 400 else ''}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("reference_url")
    parser.add_argument("ours_url")
    parser.add_argument("--random-searches", type=int, default=300, help="random music searches per kind")
    parser.add_argument(
        "--tie-searches", type=int, default=30, help="music searches with more than 10 tied names, per kind"
    )
    args = parser.parse_args()
    sent, differences = compare(
        args.reference_url.rstrip("/"), args.ours_url.rstrip("/"), args.random_searches, args.tie_searches
    )
    print("\n".join(differences))
    print(f"{sent} requests, {len(differences)} differ")
    raise SystemExit(1 if differences else 0)


if __name__ == "__main__":
    main()
