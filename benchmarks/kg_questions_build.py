"""Writes benchmarks/kg_questions.jsonl: questions in the styles of the CRAG validation set whose answers
live in the synthetic KG of kg_mock (built here into a temp dir). Gold answers and answer spans are
read from the built KG, so they stay true to the data when the fixture changes.

Per line: id, set ("base": the first questions; "relations": questions that take a second lookup, ask a
field shown only when asked, word an attribute indirectly, or compare/aggregate; "play-by-play": events
inside one game), query, query_time ("MM/DD/YYYY, HH:MM:SS PT"), domain, static_or_dynamic, style (what
the question exercises), answer (gold), entities (what a scripted extractor returns, the fields of
models.kg.entities.KGEntities) and answer_spans: strings that must all appear in the KG evidence
(case-insensitive, word-bounded; prices with two decimals, other numbers plain, as the API returns
them). No spans: the KG holds nothing for the question, and no evidence is the right outcome.

    python -m benchmarks.kg_questions_build [--check]   # --check: fail if the file is stale
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg_mock.fixture import build
from kg_mock.store import KnowledgeGraph

REPO_ROOT = Path(__file__).resolve().parents[1]
OUTPUT = REPO_ROOT / "benchmarks" / "kg_questions.jsonl"
SUNDAY = "03/10/2024, 23:34:42 PT"  # Friday 2024-03-08 is the last trading day; Saturday 03-09 the last chart
TUESDAY = "03/12/2024, 09:15:03 PT"
ABSENT = "i don't know"


@dataclass
class Question:
    query: str
    domain: str
    static_or_dynamic: str
    style: str
    answer: str
    entities: dict[str, Any]
    answer_spans: list[str]
    query_time: str = SUNDAY
    id: str = field(default="")
    # near misses: facts close to the asked one (another week's chart entry, the band's own founding
    # date for a question about its members) that the evidence should not offer as the answer
    near_misses: list[str] = field(default_factory=list)


def price(value: float) -> str:
    return f"{value:.2f}"


def plain(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class Facts:
    """Reads answers off the built KG."""

    def __init__(self, kg: KnowledgeGraph):
        self.kg = kg

    def bar(self, ticker: str, day: str) -> dict[str, Any]:
        return self.kg.finance.get_price_history(ticker)[f"{day} 00:00:00 EST"]

    def nba_games(self, team: str, date: str) -> list[dict[str, Any]]:
        result = self.kg.sports.nba_get_games_on_date(date, team) or {}
        keys = list(result.get("game_id", {}))
        return [{column: values[key] for column, values in result.items()} for key in keys]

    def last_nba_game(self, team: str, before: str) -> dict[str, Any]:
        games = [g for g in self.nba_games(team, "2024") if g["game_date"][:10] < before]
        return max(games, key=lambda g: g["game_date"])

    def soccer_row(self, team: str, date: str) -> dict[str, Any]:
        result = self.kg.sports.soccer_get_games_on_date(date, team)
        (key,) = result["result"]
        return {column: values[key] for column, values in result.items()}

    def top_scorer(self, game_id: str, team_abbreviation: str) -> tuple[str, int]:
        events = self.kg.sports.nba_get_play_by_play_data_by_game_ids([game_id])
        points: Counter[str] = Counter()
        for key, player in events["player1_name"].items():
            if events["player1_team_abbreviation"][key] != team_abbreviation:
                continue
            description = events["homedescription"][key] or events["visitordescription"][key]
            points[player] += 1 if "Free Throw" in description else 3 if "3PT" in description else 2
        return points.most_common(1)[0]

    def game_events(self, game_id: str) -> list[dict[str, Any]]:
        events = self.kg.sports.nba_get_play_by_play_data_by_game_ids([game_id])
        return [{column: values[key] for column, values in events.items()} for key in events["game_id"]]

    def first_scorer(self, game_id: str) -> str:
        return next(e["player1_name"] for e in self.game_events(game_id) if e["score"])

    def score_after(self, game_id: str, period: int) -> str:
        """The score ("away - home") at the end of a period, by the game's last scoring event in it."""
        return [e["score"] for e in self.game_events(game_id) if e["score"] and e["period"] == period][-1]

    def chart_attribute(self, song: str, date: str, attribute: str) -> str:
        return self.kg.music.get_billboard_attributes(date, attribute, song)


def finance(f: Facts) -> list[Question]:
    zphr_thursday = f.bar("ZPHR", "2024-03-07")
    tslt_friday = f.bar("TSLT", "2024-03-08")
    aapl_friday = f.bar("AAPL", "2024-03-08")
    nwrb_march_1 = f.bar("NWRB", "2024-03-01")
    aapl_last_minute = f.kg.finance.get_detailed_price_history("AAPL")["2024-03-08 15:59:00 EST"]
    ngbc_2023 = sorted(d[:10] for d in f.kg.finance.get_dividends_history("NGBC") if d.startswith("2023"))
    lmra_last = max(f.kg.finance.get_dividends_history("LMRA"))[:10]
    bwec_dividends = f.kg.finance.get_dividends_history("BWEC")
    bwec_last = max(bwec_dividends)
    nwrb_info = f.kg.finance.get_info("NWRB")
    zphr_last_week = [f.bar("ZPHR", f"2024-03-{day:02d}") for day in range(4, 9)]
    company = lambda name: {"companies": [name]}
    ticker = lambda symbol: {"tickers": [symbol]}
    return [
        Question(
            "what did zephyrline robotics stock close at on thursday?",
            "finance",
            "real-time",
            "price on a relative date",
            price(zphr_thursday["Close"]),
            company("Zephyrline Robotics"),
            [price(zphr_thursday["Close"])],
        ),
        Question(
            "what was the closing price of northwind robotics stock on 02/29/2024?",
            "finance",
            "real-time",
            "price on a date",
            price(f.bar("NWRB", "2024-02-29")["Close"]),
            company("Northwind Robotics"),
            [price(f.bar("NWRB", "2024-02-29")["Close"])],
            "03/01/2024, 16:30:00 PT",
        ),
        Question(
            "what was tslt's opening price yesterday?",
            "finance",
            "real-time",
            "price on a relative date",
            price(tslt_friday["Open"]),
            ticker("TSLT"),
            [price(tslt_friday["Open"])],
            "03/09/2024, 10:02:11 PT",
        ),
        Question(
            "what was the closing price of aapl on the last trading day?",
            "finance",
            "real-time",
            "price on a relative date",
            price(aapl_friday["Close"]),
            ticker("AAPL"),
            [price(aapl_friday["Close"])],
        ),
        Question(
            "what was the highest price tessellate semiconductor traded at on friday?",
            "finance",
            "real-time",
            "price on a relative date",
            price(tslt_friday["High"]),
            company("Tessellate Semiconductor"),
            [price(tslt_friday["High"])],
        ),
        Question(
            "what is apple's stock price right now?",
            "finance",
            "real-time",
            "latest minute bar",
            price(aapl_last_minute["Close"]),
            company("Apple"),
            [price(aapl_last_minute["Close"])],
            "03/08/2024, 13:05:40 PT",
        ),
        Question(
            "how many shares of zphr were traded on 03/07/2024?",
            "finance",
            "real-time",
            "volume on a date",
            plain(zphr_thursday["Volume"]),
            ticker("ZPHR"),
            [plain(zphr_thursday["Volume"])],
        ),
        Question(
            "did northwind robotics stock close higher than it opened on 03/01/2024?",
            "finance",
            "real-time",
            "open and close on a date",
            "yes" if nwrb_march_1["Close"] > nwrb_march_1["Open"] else "no",
            company("Northwind Robotics"),
            [price(nwrb_march_1["Open"]), price(nwrb_march_1["Close"])],
        ),
        Question(
            "how much was the dividend zphr paid in the past month?",
            "finance",
            "fast-changing",
            "dividend in a relative period",
            "$0.135",
            ticker("ZPHR"),
            ["0.135", "2024-03-06"],
        ),
        Question(
            "what was the most recent dividend paid by brightwater energy?",
            "finance",
            "fast-changing",
            "latest dividend",
            f"${bwec_dividends[bwec_last]} on {bwec_last[:10]}",
            company("Brightwater Energy"),
            [plain(bwec_dividends[bwec_last]), bwec_last[:10]],
        ),
        Question(
            "how many times did northgate bancorp pay a dividend in 2023?",
            "finance",
            "slow-changing",
            "dividend count in a year",
            str(len(ngbc_2023)),
            company("Northgate Bancorp"),
            ngbc_2023,
        ),
        Question(
            "on what date did lumora foods last pay a dividend?",
            "finance",
            "fast-changing",
            "latest dividend",
            lmra_last,
            company("Lumora Foods"),
            [lmra_last],
        ),
        Question(
            "what is the eps of quantamatrix holdings?",
            "finance",
            "fast-changing",
            "eps",
            "-0.42",
            company("Quantamatrix Holdings"),
            ["-0.42"],
        ),
        Question(
            "what is corvane pharmaceuticals' earnings per share?",
            "finance",
            "fast-changing",
            "eps",
            plain(f.kg.finance.get_eps("CRVN")),
            company("Corvane Pharmaceuticals"),
            [plain(f.kg.finance.get_eps("CRVN"))],
        ),
        Question(
            "what is the p/e ratio of northwind robotics?",
            "finance",
            "fast-changing",
            "pe ratio",
            plain(f.kg.finance.get_pe_ratio("NWRB")),
            company("Northwind Robotics"),
            [plain(f.kg.finance.get_pe_ratio("NWRB"))],
        ),
        Question(
            "what is the market cap of tessellate semiconductor?",
            "finance",
            "fast-changing",
            "market cap",
            "$61.8 billion",
            company("Tessellate Semiconductor"),
            [plain(f.kg.finance.get_market_capitalization("TSLT"))],
        ),
        Question(
            "which sector is lumora foods in?",
            "finance",
            "static",
            "company info",
            f.kg.finance.get_info("LMRA")["sector"].lower(),
            company("Lumora Foods"),
            [f.kg.finance.get_info("LMRA")["sector"]],
        ),
        Question(
            "in which city is northwind robotics headquartered?",
            "finance",
            "slow-changing",
            "company info",
            nwrb_info["city"].lower(),
            company("Northwind Robotics"),
            [nwrb_info["city"]],
        ),
        Question(
            "what was the average closing price of zphr over the last five trading days?",
            "finance",
            "real-time",
            "aggregate over recent trading days",
            price(sum(bar["Close"] for bar in zphr_last_week) / 5),
            ticker("ZPHR"),
            [price(bar["Close"]) for bar in zphr_last_week],
        ),
        Question(
            "which has the higher p/e ratio, brightwater energy or lumora foods?",
            "finance",
            "fast-changing",
            "comparison of two companies",
            "brightwater energy"
            if f.kg.finance.get_pe_ratio("BWEC") > f.kg.finance.get_pe_ratio("LMRA")
            else "lumora foods",
            {"companies": ["Brightwater Energy", "Lumora Foods"]},
            [plain(f.kg.finance.get_pe_ratio("BWEC")), plain(f.kg.finance.get_pe_ratio("LMRA"))],
        ),
        Question(
            "what is the market cap of orlexa biosciences?",
            "finance",
            "fast-changing",
            "company listed without data",
            ABSENT,
            company("Orlexa Biosciences"),
            [],
        ),
        Question(
            "what is the price-to-earnings ratio of pmtu?",
            "finance",
            "fast-changing",
            "absent ticker",
            ABSENT,
            ticker("PMTU"),
            [],
        ),
        Question(
            "what was hooker furnishings' closing price yesterday?",
            "finance",
            "real-time",
            "absent company",
            ABSENT,
            company("Hooker Furnishings"),
            [],
            "03/05/2024, 18:20:00 PT",
        ),
    ]


def movie(f: Facts) -> list[Question]:
    szabo = f.kg.movie.get_person_info("Helena Szabo")[0]
    lantern = f.kg.movie.get_movie_info("The Lantern Keeper's Daughter")[0]
    film = lambda title: {"movies": [title]}
    person = lambda name: {"people": [name]}
    return [
        Question(
            "who directed the glass orchard?",
            "movie",
            "static",
            "director",
            "marisol okonkwo-varga",
            film("The Glass Orchard"),
            ["Marisol Okonkwo-Varga"],
        ),
        Question(
            "which films did marisol okonkwo-varga direct?",
            "movie",
            "static",
            "person's films",
            "the glass orchard and salt road nocturne",
            person("Marisol Okonkwo-Varga"),
            ["The Glass Orchard", "Salt Road Nocturne"],
        ),
        Question(
            "who played petra lund in the glass orchard?",
            "movie",
            "static",
            "cast",
            "yumi castellanos",
            film("The Glass Orchard"),
            ["Yumi Castellanos", "Petra Lund"],
        ),
        Question(
            "what is teodor brandvik's birthday?",
            "movie",
            "static",
            "birthday",
            "1983-02-27",
            person("Teodor Brandvik"),
            ["1983-02-27"],
        ),
        Question(
            "what was the budget of copper meridian?",
            "movie",
            "static",
            "budget",
            "$52 million",
            film("Copper Meridian"),
            ["52000000"],
        ),
        Question(
            "how much did vantablack protocol gross worldwide?",
            "movie",
            "static",
            "revenue",
            "$512.8 million",
            film("Vantablack Protocol"),
            ["512800000"],
        ),
        Question(
            "in what year was the lantern keeper's daughter released?",
            "movie",
            "static",
            "release year",
            lantern["release_date"][:4],
            film("The Lantern Keeper's Daughter"),
            [lantern["release_date"][:4]],
        ),
        Question(
            "what is the original title of quiet fires of ostrava?",
            "movie",
            "static",
            "original title",
            "tiché ohně ostravy",
            film("Quiet Fires of Ostrava"),
            ["Tiché ohně Ostravy"],
        ),
        Question(
            "which oscar did the glass orchard win?",
            "movie",
            "static",
            "oscars of a film",
            "cinematography",
            film("The Glass Orchard"),
            ["CINEMATOGRAPHY"],
        ),
        Question(
            "how many oscars did copper meridian win?",
            "movie",
            "static",
            "oscars of a film",
            "1",
            film("Copper Meridian"),
            ["MUSIC (Original Dramatic Score)", "BEST PICTURE"],
        ),
        Question(
            "in 2017, which film won the oscar for best foreign language film?",
            "movie",
            "static",
            "oscars of a year",
            "quiet fires of ostrava",
            {},
            ["FOREIGN LANGUAGE FILM", "Quiet Fires of Ostrava"],
        ),
        Question(
            "which movies were released in 2019?",
            "movie",
            "static",
            "movies of a year",
            "harbor of small lights",
            {},
            ["Harbor of Small Lights"],
        ),
        Question(
            "how old was helena szabo when the lantern keeper's daughter was released?",
            "movie",
            "static",
            "multi-hop: birthday and release date",
            "51",
            {"movies": ["The Lantern Keeper's Daughter"], "people": ["Helena Szabo"]},
            [szabo["birthday"], lantern["release_date"]],
        ),
        Question(
            "what genre is spider-moth?",
            "movie",
            "static",
            "hyphenated title",
            "action and fantasy",
            film("Spider-Moth"),
            ["Action", "Fantasy"],
        ),
        Question(
            "who composed the score of copper meridian?",
            "movie",
            "static",
            "crew",
            "anders pell",
            film("Copper Meridian"),
            ["Anders Pell"],
        ),
        Question(
            "what is the rating of the movie northern static?",
            "movie",
            "static",
            "rating",
            "7.2",
            film("Northern Static"),
            ["7.2"],
        ),
        Question(
            "how many movies has yumi castellanos acted in?",
            "movie",
            "static",
            "count of a person's films",
            "2",
            person("Yumi Castellanos"),
            ["The Glass Orchard", "Salt Road Nocturne"],
        ),
        Question(
            "which came out first, salt road nocturne or spider-moth?",
            "movie",
            "static",
            "comparison of two films",
            "spider-moth",
            {"movies": ["Salt Road Nocturne", "Spider-Moth"]},
            ["2017-03-03", "2014-07-18"],
        ),
        Question(
            "when was oskar feldhammer born?",
            "movie",
            "static",
            "absent person",
            ABSENT,
            person("Oskar Feldhammer"),
            [],
        ),
        Question(
            "who directed the movie midnight in kyoto?",
            "movie",
            "static",
            "absent movie",
            ABSENT,
            film("Midnight in Kyoto"),
            [],
        ),
    ]


def music(f: Facts) -> list[Question]:
    chart = "2024-03-09"
    fifth_songs, fifth_artists = f.kg.music.get_billboard_rank_date(5, chart)
    number_one = lambda day: f.kg.music.get_billboard_rank_date(1, day)[0][0]
    fifth_before = f.kg.music.get_billboard_rank_date(5, "2024-03-02")[0][0]
    artist = lambda name: {"artists": [name]}
    song = lambda name: {"songs": [name]}
    return [
        Question(
            "who are the members of halcyon drift?",
            "music",
            "slow-changing",
            "band members",
            "katla eiríksdóttir, bram oduya and lio fenwick",
            artist("Halcyon Drift"),
            ["Katla Eiríksdóttir", "Bram Oduya", "Lio Fenwick"],
        ),
        Question(
            "which song is number 1 on the billboard hot 100 this week?",
            "music",
            "fast-changing",
            "billboard this week",
            "paper lanterns in july by halcyon drift",
            {"rank": 1},
            ["Paper Lanterns in July", "Halcyon Drift"],
            TUESDAY,
            near_misses=[number_one("2024-03-02")],
        ),
        Question(
            "what song was number one on the billboard hot 100 on march 2, 2024?",
            "music",
            "static",
            "billboard on a date",
            "cinder waltz",
            {"rank": 1},
            ["Cinder Waltz"],
            TUESDAY,
            near_misses=[number_one("2024-02-24")],
        ),
        Question(
            "who sings the number 5 song on the billboard hot 100 this week?",
            "music",
            "fast-changing",
            "billboard this week",
            fifth_artists[0].lower(),
            {"rank": 5},
            [fifth_songs[0], fifth_artists[0]],
            TUESDAY,
            near_misses=[number_one(chart), fifth_before],
        ),
        Question(
            "how many weeks has paper lanterns in july been on the billboard hot 100?",
            "music",
            "fast-changing",
            "weeks on chart",
            f.chart_attribute("Paper Lanterns in July", chart, "weeks_in_chart"),
            song("Paper Lanterns in July"),
            [f.chart_attribute("Paper Lanterns in July", chart, "weeks_in_chart")],
            TUESDAY,
        ),
        Question(
            "what is the highest position kerosene choir has reached on the billboard hot 100?",
            "music",
            "fast-changing",
            "peak position",
            f.chart_attribute("Kerosene Choir", chart, "top_position"),
            song("Kerosene Choir"),
            [f.chart_attribute("Kerosene Choir", chart, "top_position")],
            TUESDAY,
        ),
        Question(
            "where does bayou satellite rank on the billboard hot 100 this week?",
            "music",
            "fast-changing",
            "rank this week",
            f.chart_attribute("Bayou Satellite", chart, "rank"),
            song("Bayou Satellite"),
            [f.chart_attribute("Bayou Satellite", chart, "rank")],
            TUESDAY,
            near_misses=["release country"],
        ),
        Question(
            "who won the grammy for best new artist in 2019?",
            "music",
            "static",
            "grammy by year",
            "halcyon drift",
            {},
            ["Halcyon Drift"],
        ),
        Question(
            "which song won song of the year at the 2018 grammys?",
            "music",
            "static",
            "grammy by year",
            "kitefall",
            {},
            ["Kitefall"],
        ),
        Question(
            "what album won album of the year at the 2015 grammys?",
            "music",
            "static",
            "grammy by year",
            "saltwater hymnal",
            {},
            ["Saltwater Hymnal"],
        ),
        Question(
            "in which years did delphine arceneaux win grammys?",
            "music",
            "static",
            "grammy by artist",
            "2016, 2018 and 2019",
            artist("Delphine Arceneaux"),
            ["2016", "2018", "2019"],
        ),
        Question(
            "when did marrow-saints win a grammy?",
            "music",
            "static",
            "grammy by artist (hyphenated name)",
            "2015",
            artist("Marrow-Saints"),
            ["2015"],
        ),
        Question(
            "when was yusuf danjuma born?",
            "music",
            "static",
            "birth date",
            "1997-08-21",
            artist("Yusuf Danjuma"),
            ["1997-08-21"],
        ),
        Question(
            "which country is kenji arakawa from?",
            "music",
            "static",
            "birth place",
            "japan",
            artist("Kenji Arakawa"),
            ["JP"],
        ),
        Question(
            "who wrote the song paper lanterns in july?",
            "music",
            "static",
            "song author",
            "katla eiríksdóttir",
            song("Paper Lanterns in July"),
            ["Katla Eiríksdóttir"],
        ),
        Question(
            "when was cinder waltz released?",
            "music",
            "static",
            "song release date",
            "2020-02-14",
            song("Cinder Waltz"),
            ["2020-02-14"],
        ),
        Question(
            "when did jasper quell die?",
            "music",
            "static",
            "lifespan",
            "2011-08-19",
            artist("Jasper Quell"),
            ["2011-08-19"],
        ),
        Question(
            "what songs has yusuf danjuma released?",
            "music",
            "slow-changing",
            "all works",
            "lagos neon and harmattan heart",
            artist("Yusuf Danjuma"),
            ["Lagos Neon", "Harmattan Heart"],
        ),
        Question(
            "at what position did harmattan heart debut on the billboard hot 100?",
            "music",
            "static",
            "billboard debut",
            f.chart_attribute("Harmattan Heart", "2024-03-02", "rank"),
            song("Harmattan Heart"),
            [f.chart_attribute("Harmattan Heart", "2024-03-02", "rank")],
            TUESDAY,
        ),
        Question(
            "who is older, ottoline reyes or delphine arceneaux?",
            "music",
            "static",
            "comparison of two artists",
            "ottoline reyes",
            {"artists": ["Ottoline Reyes", "Delphine Arceneaux"]},
            ["1988-11-30", "1991-02-09"],
        ),
        Question(
            "who are the members of the band velvet thunder?",
            "music",
            "slow-changing",
            "absent artist",
            ABSENT,
            artist("Velvet Thunder"),
            [],
        ),
    ]


def sports(f: Facts) -> list[Question]:
    rockets = f.last_nba_game("Houston Rockets", "2024-03-10")
    rockets_side = "home" if rockets["team_name_home"] == "Houston Rockets" else "away"
    bucks = f.last_nba_game("Milwaukee Bucks", "2024-03-10")
    bucks_side = "home" if bucks["team_name_home"] == "Milwaukee Bucks" else "away"
    blazers = f.nba_games("Portland Trail Blazers", "2024-03-05")[0]
    scorer, _ = f.top_scorer("0022300862", "DEN")
    rockets_february = sorted(f.nba_games("Houston Rockets", "2024-02"), key=lambda g: g["game_date"])
    everton = f.soccer_row("Everton", "2024-03-09")
    brentford = f.soccer_row("Brentford", "2024-03-09")
    nba = lambda team: {"teams": [team], "sport": "nba"}
    soccer = lambda team: {"teams": [team], "sport": "soccer"}
    return [
        Question(
            "how many points did the rockets score in their last game?",
            "sports",
            "fast-changing",
            "last game, partial team name",
            plain(rockets[f"pts_{rockets_side}"]),
            nba("Rockets"),
            [plain(rockets[f"pts_{rockets_side}"])],
        ),
        Question(
            "how many points did the portland trail blazers score last friday?",
            "sports",
            "fast-changing",
            "game on a relative date",
            "117",
            nba("Portland Trail Blazers"),
            ["117"],
        ),
        Question(
            "what was the score of the blazers game on march 5, 2024?",
            "sports",
            "static",
            "game on a date, partial team name",
            f"{plain(blazers['pts_home'])}-{plain(blazers['pts_away'])}",
            nba("Blazers"),
            [plain(blazers["pts_home"]), plain(blazers["pts_away"])],
        ),
        Question(
            "who won the game between the boston celtics and the miami heat on 2024-03-07?",
            "sports",
            "static",
            "winner on a date",
            "miami heat",
            {"teams": ["Boston Celtics", "Miami Heat"], "sport": "nba"},
            ["Miami Heat", "101", "98"],
        ),
        Question(
            "how many points did the lakers score on 2024-03-08?",
            "sports",
            "static",
            "game on a date, partial team name",
            "119",
            nba("Lakers"),
            ["119"],
        ),
        Question(
            "what was the bucks' score in their last game?",
            "sports",
            "fast-changing",
            "last game, partial team name",
            plain(bucks[f"pts_{bucks_side}"]),
            nba("Bucks"),
            [plain(bucks[f"pts_{bucks_side}"])],
        ),
        Question(
            "which team did the boston celtics play on 2023-12-15?",
            "sports",
            "static",
            "opponent on a date",
            "portland trail blazers",
            nba("Boston Celtics"),
            ["Portland Trail Blazers"],
        ),
        Question(
            "who scored the most points for the denver nuggets on 2024-03-05?",
            "sports",
            "static",
            "top scorer (play-by-play)",
            scorer.lower(),
            nba("Denver Nuggets"),
            [scorer],
        ),
        Question(
            "who scored first in the trail blazers game last friday?",
            "sports",
            "fast-changing",
            "first basket (play-by-play)",
            "deshawn okafor",
            nba("Trail Blazers"),
            ["Deshawn Okafor"],
        ),
        Question(
            "who captained arsenal in yesterday's game?",
            "sports",
            "fast-changing",
            "soccer game yesterday",
            "martin odegaard",
            soccer("Arsenal"),
            ["Martin Odegaard"],
        ),
        Question(
            "who refereed man utd's last game?",
            "sports",
            "fast-changing",
            "soccer last game, informal name",
            "anton greaves",
            soccer("Man Utd"),
            ["Anton Greaves"],
        ),
        Question(
            "who did manchester united play on 2024-03-02?",
            "sports",
            "static",
            "soccer opponent, long name",
            "manchester city",
            soccer("Manchester United"),
            ["Manchester City"],
        ),
        Question(
            "how many goals did arsenal score against sheffield united on 2024-03-02?",
            "sports",
            "static",
            "soccer goals on a date",
            "6",
            soccer("Arsenal"),
            ["Sheffield United", "6"],
        ),
        Question(
            "what formation did everton play on 2024-03-09?",
            "sports",
            "static",
            "soccer game detail",
            everton["Formation"],
            soccer("Everton"),
            [everton["Formation"]],
        ),
        Question(
            "what was the attendance at brentford's game on 2024-03-09?",
            "sports",
            "static",
            "soccer game detail",
            plain(brentford["Attendance"]),
            soccer("Brentford"),
            [plain(brentford["Attendance"])],
        ),
        Question(
            "on what date did everton last play a game in eng-premier league?",
            "sports",
            "fast-changing",
            "soccer last game",
            "2024-03-09",
            soccer("Everton"),
            ["2024-03-09"],
            TUESDAY,
        ),
        Question(
            "how many games did the houston rockets win in 2024-02?",
            "sports",
            "static",
            "aggregate over a month",
            str(
                sum(
                    g["wl_home" if g["team_name_home"] == "Houston Rockets" else "wl_away"] == "W"
                    for g in rockets_february
                )
            ),
            nba("Houston Rockets"),
            [g["game_date"][:10] for g in rockets_february],
        ),
        Question(
            "how many goals did man utd score in march 2024?",
            "sports",
            "static",
            "soccer aggregate over a month",
            str(sum(int(f.soccer_row("Manchester Utd", day)["GF"]) for day in ("2024-03-02", "2024-03-09"))),
            soccer("Man Utd"),
            ["2024-03-02", "2024-03-09"],
            TUESDAY,
        ),
        Question(
            "how many points did the seattle supersonics score last night?",
            "sports",
            "fast-changing",
            "absent team",
            ABSENT,
            nba("Seattle SuperSonics"),
            [],
        ),
    ]


def open_domain(f: Facts) -> list[Question]:
    entity = lambda *names: {"entities": list(names)}
    facts_of = lambda name: f.kg.open.get_entity(name)["summary_structured"]
    return [
        Question(
            "what is the elevation of brimholt observatory?",
            "open",
            "static",
            "entity attribute",
            "2140 m",
            entity("Brimholt Observatory"),
            [facts_of("Brimholt Observatory")["elevation_m"]],
        ),
        Question(
            "who operates brimholt observatory?",
            "open",
            "static",
            "entity attribute",
            "nordvik space institute",
            entity("Brimholt Observatory"),
            ["Nordvik Space Institute"],
        ),
        Question(
            "when was the nordvik space institute founded?",
            "open",
            "static",
            "entity attribute",
            "1949",
            entity("Nordvik Space Institute"),
            ["1949"],
        ),
        Question(
            "who is the director of the nordvik space institute?",
            "open",
            "slow-changing",
            "entity attribute",
            "hallgrim solberg",
            entity("Nordvik Space Institute"),
            ["Hallgrim Solberg"],
        ),
        Question(
            "how deep is lake varnholm?",
            "open",
            "static",
            "entity attribute",
            "187 metres",
            entity("Lake Varnholm"),
            ["187"],
        ),
        Question(
            "what is the population of tromsvik?",
            "open",
            "slow-changing",
            "entity attribute",
            "14,300",
            entity("Tromsvik"),
            [facts_of("Tromsvik")["population"]],
        ),
        Question(
            "who is the mayor of tromsvik?",
            "open",
            "slow-changing",
            "entity attribute",
            "ingrid vassbotn",
            entity("Tromsvik"),
            ["Ingrid Vassbotn"],
        ),
        Question(
            "when was ravensworth college founded?",
            "open",
            "static",
            "entity attribute",
            "1821",
            entity("Ravensworth College"),
            ["1821"],
        ),
        Question(
            "who is the president of ravensworth college?",
            "open",
            "slow-changing",
            "entity attribute",
            "dana whitcombe",
            entity("Ravensworth College"),
            ["Dana Whitcombe"],
        ),
        Question(
            "what river does the ostrava tramway bridge cross?",
            "open",
            "static",
            "entity attribute",
            "the oder",
            entity("Ostrava Tramway Bridge"),
            ["Oder river"],
        ),
        Question(
            "who wrote the quiet cartographer?",
            "open",
            "static",
            "entity attribute",
            "imogen castlereagh",
            entity("The Quiet Cartographer"),
            ["Imogen Castlereagh"],
        ),
        Question(
            "when was sable point lighthouse first lit?",
            "open",
            "static",
            "entity attribute",
            "1868",
            entity("Sable Point Lighthouse"),
            ["1868"],
        ),
        Question(
            "what is the capital of florida?",
            "open",
            "static",
            "entity with similar names",
            "tallahassee",
            entity("Florida"),
            ["Tallahassee"],
        ),
        Question(
            "in which country is the lake behind varnholm dam?",
            "open",
            "static",
            "multi-hop",
            "norway",
            entity("Varnholm Dam", "Lake Varnholm"),
            ["Lake Varnholm", "Norway"],
        ),
        Question(
            "which is older, brimholt observatory or sable point lighthouse?",
            "open",
            "static",
            "comparison of two entities",
            "sable point lighthouse",
            entity("Brimholt Observatory", "Sable Point Lighthouse"),
            ["1962", "1868"],
        ),
        Question(
            "who designed the aurelia skybridge?",
            "open",
            "static",
            "absent entity",
            ABSENT,
            entity("Aurelia Skybridge"),
            [],
        ),
    ]


def relations(f: Facts) -> list[Question]:
    """Questions whose answer takes a second lookup (a name an earlier answer returned), a field shown
    only when asked, indirect wording of an attribute, or every operand of a comparison."""
    movie_kg, music_kg, open_kg, finance_kg = f.kg.movie, f.kg.music, f.kg.open, f.kg.finance
    by_id = movie_kg.get_movie_info_by_id
    (picture,) = [
        a
        for a in movie_kg.get_year_info("2006")["oscar_awards"]
        if a["category"] == "BEST PICTURE" and a["winner"]
    ]
    picture_movie = movie_kg.get_movie_info(picture["film"])[0]
    (picture_director,) = [c["name"] for c in picture_movie["crew"] if c["job"] == "Director"]
    marisol = movie_kg.get_person_info("Marisol Okonkwo-Varga")[0]
    holm = movie_kg.get_person_info("Sigrid Holm")[0]
    holm_genres = sorted({g["name"] for i in holm["directed_movies"] for g in by_id(i)["genres"]})
    yumi = movie_kg.get_person_info("Yumi Castellanos")[0]
    yumi_revenue = [by_id(i)["revenue"] for i in yumi["acted_movies"]]
    copper = movie_kg.get_movie_info("Copper Meridian")[0]
    (copper_director,) = [c["name"] for c in copper["crew"] if c["job"] == "Director"]
    copper_director_born = movie_kg.get_person_info(copper_director)[0]["birthday"]
    szabo = movie_kg.get_person_info("Helena Szabo")[0]
    szabo_ratings = {by_id(i)["title"]: by_id(i)["rating"] for i in szabo["acted_movies"]}
    (new_artist_2016,) = music_kg.grammy_get_best_artist_by_year(2016)
    (new_artist_2019,) = music_kg.grammy_get_best_artist_by_year(2019)
    (song_2018,) = music_kg.grammy_get_best_song_by_year(2018)
    (song_2015,) = music_kg.grammy_get_best_song_by_year(2015)
    chart = "2024-03-09"
    (first_song,), (first_artist,) = music_kg.get_billboard_rank_date(1, chart)
    (second_song,), _ = music_kg.get_billboard_rank_date(2, chart)
    ranks = {
        song: (f.chart_attribute(song, chart, "rank"), f.chart_attribute(song, chart, "rank_last_week"))
        for song in ("Bayou Satellite", "Kerosene Choir")
    }
    harmattan = (
        f.chart_attribute("Harmattan Heart", chart, "rank"),
        f.chart_attribute("Harmattan Heart", chart, "rank_last_week"),
    )
    facts_of = lambda name: open_kg.get_entity(name)["summary_structured"]
    operator = facts_of("Brimholt Observatory")["operator"]
    headquarters = facts_of("Nordvik Space Institute")["headquarters"]
    location = facts_of("Brimholt Observatory")["location"]
    pe = {t: finance_kg.get_pe_ratio(t) for t in ("NWRB", "TSLT")}
    caps = {t: finance_kg.get_market_capitalization(t) for t in ("ZPHR", "NWRB", "BWEC")}
    dividends_2023 = {
        t: round(sum(v for d, v in finance_kg.get_dividends_history(t).items() if d.startswith("2023")), 6)
        for t in ("NGBC", "LMRA")
    }
    tslt = [f.bar("TSLT", day)["Close"] for day in ("2024-03-07", "2024-03-08")]
    blazers = f.nba_games("Portland Trail Blazers", "2024-03-08")[0]
    february = {
        team: sum(
            g["wl_home" if g["team_name_home"] == team else "wl_away"] == "W"
            for g in f.nba_games(team, "2024-02")
        )
        for team in ("Houston Rockets", "Los Angeles Lakers")
    }
    number_one = lambda day: music_kg.get_billboard_rank_date(1, day)[0][0]
    return [
        Question(
            "who directed the film that won best picture at the 2006 oscars?",
            "movie",
            "static",
            "two hops: a ceremony's award, then its film",
            picture_director.lower(),
            {},
            [picture["film"], picture_director],
            near_misses=["actress in a leading role"],
        ),
        Question(
            "what were the budgets of the films marisol okonkwo-varga directed?",
            "movie",
            "static",
            "a field shown only when asked, over a person's films",
            "23 and 41 million dollars",
            {"people": ["Marisol Okonkwo-Varga"]},
            [plain(by_id(i)["budget"]) for i in marisol["directed_movies"]],
        ),
        Question(
            "what genres are the movies sigrid holm directed?",
            "movie",
            "static",
            "a field shown only when asked, over a person's films",
            ", ".join(holm_genres).lower(),
            {"people": ["Sigrid Holm"]},
            holm_genres,
        ),
        Question(
            "how much did the films yumi castellanos starred in gross in total?",
            "movie",
            "static",
            "aggregate over a person's films",
            plain(sum(yumi_revenue)),
            {"people": ["Yumi Castellanos"]},
            [plain(r) for r in yumi_revenue],
        ),
        Question(
            "how old was the director of copper meridian when it was released?",
            "movie",
            "static",
            "two hops: a film's crew, then the person",
            "28",
            {"movies": ["Copper Meridian"]},
            [copper_director, copper_director_born, copper["release_date"]],
        ),
        Question(
            "what other films has the director of the glass orchard made?",
            "movie",
            "static",
            "two hops: a film's crew, then the person's films",
            "salt road nocturne",
            {"movies": ["The Glass Orchard"]},
            ["Marisol Okonkwo-Varga", "Salt Road Nocturne"],
        ),
        Question(
            "which of the movies helena szabo acted in has the higher rating?",
            "movie",
            "static",
            "comparison over a person's films",
            max(szabo_ratings, key=szabo_ratings.get).lower(),
            {"people": ["Helena Szabo"]},
            [plain(r) for r in szabo_ratings.values()],
        ),
        Question(
            "where was the artist who won the grammy for best new artist in 2016 born?",
            "music",
            "static",
            "two hops: a Grammy winner, then the artist",
            "united states",
            {},
            [new_artist_2016, music_kg.get_artist_birth_place(new_artist_2016)],
        ),
        Question(
            "who are the members of the band that won best new artist at the 2019 grammys?",
            "music",
            "slow-changing",
            "two hops: a Grammy winner, then the band",
            ", ".join(sorted(music_kg.get_members(new_artist_2019))).lower(),
            {},
            sorted(music_kg.get_members(new_artist_2019)),
        ),
        Question(
            "who wrote the song that won song of the year at the 2018 grammys?",
            "music",
            "static",
            "two hops: a Grammy winner, then the song",
            music_kg.get_song_author(song_2018).lower(),
            {},
            [song_2018, music_kg.get_song_author(song_2018)],
        ),
        Question(
            "when was the song that won song of the year at the 2015 grammys released?",
            "music",
            "static",
            "two hops: a Grammy winner, then the song",
            music_kg.get_song_release_date(song_2015),
            {},
            [song_2015, music_kg.get_song_release_date(song_2015)],
        ),
        Question(
            "which country is the artist of this week's number one song from?",
            "music",
            "fast-changing",
            "two hops: a chart entry, then the artist",
            "iceland",
            {"rank": 1},
            [first_artist, music_kg.get_artist_birth_place(first_artist)],
            TUESDAY,
            near_misses=[number_one("2024-03-02"), "release country"],
        ),
        Question(
            "who wrote the number 2 song on the billboard hot 100 this week?",
            "music",
            "fast-changing",
            "two hops: a chart entry, then the song",
            music_kg.get_song_author(second_song).lower(),
            {"rank": 2},
            [second_song, music_kg.get_song_author(second_song)],
            TUESDAY,
            near_misses=[first_song],
        ),
        Question(
            "how many places did bayou satellite drop on the billboard hot 100 this week?",
            "music",
            "fast-changing",
            "change over a week, worded indirectly",
            str(int(ranks["Bayou Satellite"][0]) - int(ranks["Bayou Satellite"][1])),
            {"songs": ["Bayou Satellite"]},
            list(ranks["Bayou Satellite"]),
            TUESDAY,
            near_misses=[first_song],
        ),
        Question(
            "did kerosene choir climb or fall on the billboard hot 100 this week?",
            "music",
            "fast-changing",
            "change over a week, worded indirectly",
            "fall",
            {"songs": ["Kerosene Choir"]},
            list(ranks["Kerosene Choir"]),
            TUESDAY,
            near_misses=[first_song],
        ),
        Question(
            "how many spots did harmattan heart move up since last week?",
            "music",
            "fast-changing",
            "change over a week, worded indirectly",
            str(int(harmattan[1]) - int(harmattan[0])),
            {"songs": ["Harmattan Heart"]},
            list(harmattan),
            TUESDAY,
            near_misses=[first_song],
        ),
        Question(
            "when was the operator of brimholt observatory founded?",
            "open",
            "static",
            "two hops: an entity's fact, then that entity",
            facts_of(operator)["founded"],
            {"entities": ["Brimholt Observatory"]},
            [operator, facts_of(operator)["founded"]],
        ),
        Question(
            "what is the population of the headquarters of the nordvik space institute?",
            "open",
            "slow-changing",
            "two hops: an entity's fact, then that entity",
            facts_of(headquarters)["population"],
            {"entities": ["Nordvik Space Institute"]},
            [headquarters, facts_of(headquarters)["population"]],
        ),
        Question(
            "how high is the location of brimholt observatory?",
            "open",
            "static",
            "two hops: an entity's fact, then that entity",
            f"{facts_of(location)['elevation_m']} m",
            {"entities": ["Brimholt Observatory"]},
            [location, facts_of(location)["elevation_m"]],
        ),
        Question(
            "which has the higher p/e ratio, northwind robotics or tessellate semiconductor?",
            "finance",
            "fast-changing",
            "comparison of two companies",
            "tessellate semiconductor" if pe["TSLT"] > pe["NWRB"] else "northwind robotics",
            {"companies": ["Northwind Robotics", "Tessellate Semiconductor"]},
            [plain(v) for v in pe.values()],
        ),
        Question(
            "what is the combined market cap of zphr, nwrb and bwec?",
            "finance",
            "fast-changing",
            "aggregate over three companies",
            plain(sum(caps.values())),
            {"tickers": list(caps)},
            [plain(v) for v in caps.values()],
        ),
        Question(
            "how much did tslt's closing price change from thursday to friday?",
            "finance",
            "real-time",
            "change between two days",
            price(tslt[1] - tslt[0]),
            {"tickers": ["TSLT"]},
            [price(c) for c in tslt],
        ),
        Question(
            "which paid more in dividends in 2023, northgate bancorp or lumora foods?",
            "finance",
            "slow-changing",
            "comparison of yearly totals",
            "northgate bancorp" if dividends_2023["NGBC"] > dividends_2023["LMRA"] else "lumora foods",
            {"companies": ["Northgate Bancorp", "Lumora Foods"]},
            [f"{v:g}" for v in dividends_2023.values()],
        ),
        Question(
            "how many more points did the portland trail blazers score than the denver nuggets "
            "on 2024-03-08?",
            "sports",
            "static",
            "difference within one game",
            plain(blazers["pts_home"] - blazers["pts_away"]),
            {"teams": ["Portland Trail Blazers", "Denver Nuggets"], "sport": "nba"},
            [plain(blazers["pts_home"]), plain(blazers["pts_away"])],
        ),
        Question(
            "who won more games in february 2024, the houston rockets or the los angeles lakers?",
            "sports",
            "static",
            "comparison of two teams over a month",
            max(february, key=february.get).lower(),
            {"teams": ["Houston Rockets", "Los Angeles Lakers"], "sport": "nba"},
            sorted({g["game_date"][:10] for team in february for g in f.nba_games(team, "2024-02")}),
        ),
    ] + _more_relations(f)


def _more_relations(f: Facts) -> list[Question]:
    """Relations added after the first 25: a band's members as people (three hops from a Grammy), the
    act behind a chart entry, the week before alone, fields of an award's film, aggregates and
    differences over films, companies, games and an entity's fact."""
    movie_kg, music_kg, open_kg, finance_kg = f.kg.movie, f.kg.music, f.kg.open, f.kg.finance
    by_id = movie_kg.get_movie_info_by_id
    chart = "2024-03-09"
    number_one = lambda day: music_kg.get_billboard_rank_date(1, day)[0][0]
    (second_song,), (second_artist,) = music_kg.get_billboard_rank_date(2, chart)
    halcyon = sorted(music_kg.get_members("Halcyon Drift"))
    born = {member: music_kg.get_artist_birth_date(member) for member in halcyon}
    founded = music_kg.get_artist_birth_date("Halcyon Drift")
    cobalt = sorted(music_kg.get_members("The Cobalt Hour"))
    (picture,) = [
        a
        for a in movie_kg.get_year_info("2006")["oscar_awards"]
        if a["category"] == "BEST PICTURE" and a["winner"]
    ]
    picture_genres = [g["name"] for g in movie_kg.get_movie_info(picture["film"])[0]["genres"]]
    (foreign,) = [
        a for a in movie_kg.get_year_info("2017")["oscar_awards"] if a["category"] == "FOREIGN LANGUAGE FILM"
    ]
    foreign_budget = movie_kg.get_movie_info(foreign["film"])[0]["budget"]
    other_films_of = lambda year, film: [
        t for i in movie_kg.get_year_info(str(year))["movie_list"] if (t := by_id(i)["title"]) != film
    ]
    holm_budgets = [by_id(i)["budget"] for i in movie_kg.get_person_info("Sigrid Holm")[0]["directed_movies"]]
    brandvik_titles = [
        by_id(i)["original_title"] for i in movie_kg.get_person_info("Teodor Brandvik")[0]["acted_movies"]
    ]
    renamed = [
        title
        for title, i in zip(brandvik_titles, movie_kg.get_person_info("Teodor Brandvik")[0]["acted_movies"])
        if title != by_id(i)["title"]
    ]
    gross = {
        title: movie_kg.get_movie_info(title)[0]["revenue"] for title in ("Spider-Moth", "Salt Road Nocturne")
    }
    caps = {t: finance_kg.get_market_capitalization(t) for t in ("TSLT", "NWRB")}
    eps = {t: finance_kg.get_eps(t) for t in ("ZPHR", "QMTX")}
    zphr = [f.bar("ZPHR", day)["Close"] for day in ("2024-03-07", "2024-03-08")]
    (houston_lakers,) = f.nba_games("Houston Rockets", "2024-03-08")
    blazers = [f.nba_games("Portland Trail Blazers", day)[0] for day in ("2024-03-05", "2024-03-08")]
    headquarters = open_kg.get_entity("Nordvik Space Institute")["summary_structured"]["headquarters"]
    headquarters_country = open_kg.get_entity(headquarters)["summary_structured"]["country"]
    return [
        Question(
            "when was the youngest member of halcyon drift born?",
            "music",
            "static",
            "a band's members followed to their own records",
            max(born.values()),
            {"artists": ["Halcyon Drift"]},
            list(born.values()),
            near_misses=[founded],
        ),
        Question(
            "how old are the members of the band that won best new artist at the 2019 grammys?",
            "music",
            "slow-changing",
            "three hops: a Grammy winner, its members, their records",
            ", ".join(born.values()),
            {},
            [*halcyon, *born.values()],
            near_misses=[founded],
        ),
        Question(
            "which country is the singer of the number 2 song on the billboard hot 100 this week from?",
            "music",
            "fast-changing",
            "two hops: a chart entry, then the act",
            music_kg.get_artist_birth_place(second_artist).lower(),
            {"rank": 2},
            [second_artist, music_kg.get_artist_birth_place(second_artist)],
            TUESDAY,
            near_misses=[number_one(chart), "release country"],
        ),
        Question(
            "what was the number one song on the billboard hot 100 last week?",
            "music",
            "fast-changing",
            "the week before alone",
            number_one("2024-03-02").lower(),
            {"rank": 1},
            [number_one("2024-03-02")],
            TUESDAY,
            near_misses=[number_one(chart)],
        ),
        Question(
            "how many members do halcyon drift and the cobalt hour have altogether?",
            "music",
            "slow-changing",
            "aggregate over two bands",
            str(len(halcyon) + len(cobalt)),
            {"artists": ["Halcyon Drift", "The Cobalt Hour"]},
            [*halcyon, *cobalt],
        ),
        Question(
            "what genre is the film that won best picture at the 2006 academy awards?",
            "movie",
            "static",
            "two hops: a ceremony's award, then a field of its film",
            ", ".join(picture_genres).lower(),
            {},
            [picture["film"], *picture_genres],
            near_misses=["actress in a leading role"],
        ),
        Question(
            "what was the budget of the film that won the oscar for best foreign language film in 2017?",
            "movie",
            "static",
            "two hops: an award filed under its ceremony year, then its film",
            plain(foreign_budget),
            {},
            [foreign["film"], plain(foreign_budget)],
            near_misses=other_films_of(2017, foreign["film"]),
        ),
        Question(
            "how much did the movies sigrid holm directed cost to make in total?",
            "movie",
            "static",
            "a field shown only when asked, summed over a person's films",
            plain(sum(holm_budgets)),
            {"people": ["Sigrid Holm"]},
            [plain(b) for b in holm_budgets],
        ),
        Question(
            "what are the original titles of the films teodor brandvik acted in?",
            "movie",
            "static",
            "a field shown only when asked, over a person's films",
            ", ".join(brandvik_titles).lower(),
            {"people": ["Teodor Brandvik"]},
            renamed,
        ),
        Question(
            "how much more did spider-moth gross than salt road nocturne?",
            "movie",
            "static",
            "difference between two films",
            plain(gross["Spider-Moth"] - gross["Salt Road Nocturne"]),
            {"movies": ["Spider-Moth", "Salt Road Nocturne"]},
            [plain(v) for v in gross.values()],
        ),
        Question(
            "how much bigger is tessellate semiconductor's market cap than northwind robotics'?",
            "finance",
            "fast-changing",
            "difference between two companies",
            plain(caps["TSLT"] - caps["NWRB"]),
            {"companies": ["Tessellate Semiconductor", "Northwind Robotics"]},
            [plain(v) for v in caps.values()],
        ),
        Question(
            "what is the average eps of zphr and qmtx?",
            "finance",
            "fast-changing",
            "aggregate over two tickers",
            plain(round(sum(eps.values()) / 2, 4)),
            {"tickers": ["ZPHR", "QMTX"]},
            [plain(v) for v in eps.values()],
        ),
        Question(
            "how much did zphr gain or lose on friday?",
            "finance",
            "real-time",
            "change worded indirectly",
            price(zphr[1] - zphr[0]),
            {"tickers": ["ZPHR"]},
            [price(c) for c in zphr],
        ),
        Question(
            "who scored more points on 2024-03-08, the houston rockets or the los angeles lakers?",
            "sports",
            "static",
            "comparison of two teams in one game",
            houston_lakers["team_name_home"].lower()
            if houston_lakers["pts_home"] > houston_lakers["pts_away"]
            else houston_lakers["team_name_away"].lower(),
            {"teams": ["Houston Rockets", "Los Angeles Lakers"], "sport": "nba"},
            [plain(houston_lakers["pts_home"]), plain(houston_lakers["pts_away"])],
        ),
        Question(
            "how many points did the portland trail blazers score in total on 2024-03-05 and 2024-03-08?",
            "sports",
            "static",
            "aggregate over two days",
            plain(
                sum(
                    g["pts_home" if g["team_name_home"] == "Portland Trail Blazers" else "pts_away"]
                    for g in blazers
                )
            ),
            {"teams": ["Portland Trail Blazers"], "sport": "nba"},
            [
                plain(g["pts_home" if g["team_name_home"] == "Portland Trail Blazers" else "pts_away"])
                for g in blazers
            ],
        ),
        Question(
            "in which country is the headquarters of the nordvik space institute?",
            "open",
            "static",
            "two hops: an entity's fact, then that entity",
            headquarters_country.lower(),
            {"entities": ["Nordvik Space Institute"]},
            [headquarters, headquarters_country],
        ),
    ]


def play_by_play(f: Facts) -> list[Question]:
    """Events inside one game: the first basket, a quarter's score, a player's points."""
    nuggets = f.nba_games("Denver Nuggets", "2024-03-05")[0]
    first = f.first_scorer(nuggets["game_id"])
    third = f.score_after(nuggets["game_id"], 3)
    away, home = (part.strip() for part in third.split("-"))
    scorer, points = f.top_scorer(nuggets["game_id"], "DEN")
    return [
        Question(
            "who scored the first basket in the denver nuggets game on 2024-03-05?",
            "sports",
            "static",
            "first basket in a team's game on a date",
            first.lower(),
            {"teams": ["Denver Nuggets"], "sport": "nba"},
            [first],
        ),
        Question(
            "what was the score at the end of the third quarter of the denver nuggets game on 2024-03-05?",
            "sports",
            "static",
            "a quarter's score (not a calendar quarter)",
            f"{home}-{away}",
            {"teams": ["Denver Nuggets"], "sport": "nba"},
            [third],
        ),
        Question(
            f"how many points did {scorer.lower()} score in the nuggets game on 2024-03-05?",
            "sports",
            "static",
            "a player's points in a game",
            str(points),
            {"teams": ["Denver Nuggets", scorer], "sport": "nba"},
            [scorer, str(points)],
        ),
    ]


def questions(kg: KnowledgeGraph) -> list[dict[str, Any]]:
    facts = Facts(kg)
    rows = []
    groups = [
        (group, "base", lambda q, n: f"kg-{q.domain}-{n:02d}")
        for group in (finance, movie, music, sports, open_domain)
    ]
    groups.append((relations, "relations", lambda q, n: f"kg-relations-{n:02d}"))
    groups.append((play_by_play, "play-by-play", lambda q, n: f"kg-pbp-{n:02d}"))
    for group, name, identify in groups:
        for number, question in enumerate(group(facts), start=1):
            question.id = identify(question, number)
            rows.append(
                {
                    "id": question.id,
                    "set": name,
                    "query": question.query,
                    "query_time": question.query_time,
                    "domain": question.domain,
                    "static_or_dynamic": question.static_or_dynamic,
                    "style": question.style,
                    "answer": question.answer,
                    "entities": question.entities,
                    "answer_spans": question.answer_spans,
                    **({"near_misses": question.near_misses} if question.near_misses else {}),
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when the file differs from a fresh build"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        kg = KnowledgeGraph(build(Path(folder)))
        text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in questions(kg))
        kg.finance.close()
    if args.check:
        stale = not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text
        print(f"{OUTPUT} is {'stale' if stale else 'up to date'}")
        raise SystemExit(1 if stale else 0)
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10))} questions to {OUTPUT}")


if __name__ == "__main__":
    main()
