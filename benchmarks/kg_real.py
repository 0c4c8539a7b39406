"""The real-wording KG set: real CRAG validation questions (../shared/data/crag_questions_validation.jsonl,
read at run time by `interaction_id_prefix`, never stored here) that a KG of the official API's shape
answers, over the real-wording KG of kg_mock/real_fixture.py (real names and look-alikes).

Per question, annotated here: the question's time (the validation file has none: chosen so that the gold
answer is true then), the entities an ideal reader returns (the fields of models.kg.entities.KGEntities),
and a derivation: the official routes that hold the answer, called through an `Api`, and the answer
computed from what they return, with the answer facts the stage's evidence must state (spans, all of one
of the alternatives), and near misses (facts close to the asked one that would give a wrong answer).
tests/test_kg_real.py checks every derivation against the mock: each fact is in the routes' answers and
each derived answer is correct for the gold one (evaluation.answer_match.check_answer).

The held-out part is fixed by a hash of the question's key (`split_of`): tune on "tune", report both.

Not a script: benchmarks/kg.py --real reads it.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from statistics import mean
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
VALIDATION = REPO_ROOT.parent / "shared" / "data" / "crag_questions_validation.jsonl"
HELD_OUT_FIFTHS = 2  # two questions in five (by a hash of the key) are held out


def split_of(key: str) -> str:
    return (
        "held-out" if int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % 5 < HELD_OUT_FIFTHS else "tune"
    )


@dataclass
class Derivation:
    answer: str
    # The answer facts, as alternatives: the evidence answers the question when it states every span of
    # one of them. The first holds the KG's own values (rows, records); the others what evidence may state
    # instead, computed from them (a total, a count).
    facts: list[list[str]]
    near_misses: list[str] = field(default_factory=list)


class Api:
    """The official routes (paths without the leading slash) through `post(path, body) -> result`,
    with the lookups the derivations share. Every answer is kept, for checking the facts against."""

    def __init__(self, post: Callable[[str, dict], Any]):
        self.post = post
        self.answers: list[Any] = []

    def __call__(self, path: str, **body: Any) -> Any:
        result = self.post(path, body)
        self.answers.append([path, body, result])
        return result

    def text(self) -> str:
        """Every call and its answer as JSON (a call's arguments tell which chart date or game an answer
        is of)."""
        return "\n".join(json.dumps(answer, ensure_ascii=False) for answer in self.answers)

    # finance
    def bars(self, ticker: str) -> dict[str, dict]:
        return {key[:10]: bar for key, bar in (self("finance/get_price_history", query=ticker) or {}).items()}

    def ticker(self, official_name: str) -> str:
        return self("finance/get_ticker_by_name", query=official_name)

    def dividends(self, ticker: str) -> dict[str, float]:
        return {
            key[:10]: value
            for key, value in (self("finance/get_dividends_history", query=ticker) or {}).items()
        }

    # movie
    def movie(self, title: str) -> dict:
        return next(m for m in self("movie/get_movie_info", query=title) if m["title"] == title)

    def person(self, name: str) -> dict:
        return next(p for p in self("movie/get_person_info", query=name) if p["name"] == name)

    def films(self, ids: list[int]) -> list[dict]:
        return [self("movie/get_movie_info_by_id", query=movie_id) for movie_id in ids]

    def year_awards(self, year: int, category: str) -> list[dict]:
        awards = (self("movie/get_year_info", query=str(year)) or {}).get("oscar_awards", [])
        return [a for a in awards if a["category"] == category]

    # sports
    def nba(self, day: str, team: str | None = None) -> list[dict]:
        result = self("sports/nba/get_games_on_date", date=day, team_name=team) or {}
        return [
            {column: values[key] for column, values in result.items()} for key in result.get("game_id", {})
        ]

    def soccer(self, day: str, team: str) -> list[dict]:
        """A team's rows (its side of each game), oldest first, with the key's game name added."""
        result = self("sports/soccer/get_games_on_date", date=day, team_name=team) or {}
        rows = [
            {**{column: values[key] for column, values in result.items()}, "game": ast.literal_eval(key)[3]}
            for key in result.get("date", {})
        ]
        return sorted(rows, key=lambda row: row["date"])


# --- helpers of the derivations ----------------------------------------------------------------------


def price(value: float) -> str:
    return f"{value:.2f}"


def days_between(bars: dict[str, dict], first: str, last: str) -> list[str]:
    return sorted(day for day in bars if first <= day <= last)


def lower_closes(bars: dict[str, dict], first: str, last: str) -> list[str]:
    """Days in [first, last] that closed below the close before them."""
    ordered = sorted(bars)
    return [
        day
        for before, day in zip(ordered, ordered[1:])
        if first <= day <= last and bars[day]["Close"] < bars[before]["Close"]
    ]


def volume_total(api: Api, ticker: str, first: str, last: str, others: tuple[str, str]) -> Derivation:
    bars = api.bars(ticker)
    volumes = [bars[day]["Volume"] for day in days_between(bars, first, last)]
    other = sum(bars[day]["Volume"] for day in days_between(bars, *others))
    return Derivation(str(sum(volumes)), [[str(v) for v in volumes], [str(sum(volumes))]], [str(other)])


def compare(values: dict[str, float], highest: bool = True) -> str:
    return (max if highest else min)(values, key=values.get)


def female_lead(movie: dict) -> str:
    return next(c["name"] for c in sorted(movie["cast"], key=lambda c: c["order"]) if c["gender"] == 1)


def winners(api: Api, team: str, month: str) -> Derivation:
    """The teams that beat `team` in `month` (NBA)."""
    games = api.nba(month, team)
    beaten = sorted(
        {
            g["team_name_away"] if g["team_name_home"] == team else g["team_name_home"]
            for g in games
            if (g["team_name_home"] == team) != (g["pts_home"] > g["pts_away"])
        }
    )
    return Derivation(", ".join(beaten), [beaten])


def points(game: dict, team: str) -> float:
    return game["pts_home"] if game["team_name_home"] == team else game["pts_away"]


def month_points(api: Api, team: str, month: str) -> tuple[float, list[str]]:
    games = api.nba(month, team)
    return sum(points(g, team) for g in games), [g["game_date"][:10] for g in games]


def year_wins(api: Api, team: str, year: str) -> int:
    return sum(
        1 for g in api.nba(year, team) if (g["team_name_home"] == team) == (g["pts_home"] > g["pts_away"])
    )


def free_throw_points(api: Api, day: str, player: str) -> Derivation:
    """A player's free-throw points in his game of `day`, from the play-by-play of that day's games."""
    ids = [g["game_id"] for g in api.nba(day)]
    events = api("sports/nba/get_play_by_play_data_by_game_ids", game_ids=ids) or {}
    rows = [{column: values[key] for column, values in events.items()} for key in events.get("game_id", {})]
    mine = [r["homedescription"] or r["visitordescription"] for r in rows if r["player1_name"] == player]
    throws = [text for text in mine if "Free Throw" in text]
    return Derivation(str(sum(1 for text in throws if not text.startswith("MISS"))), [throws])


def last_game(api: Api, team: str, month: str, before: str) -> dict:
    return [row for row in api.soccer(month, team) if row["date"][:10] <= before and row["result"]][-1]


def next_game(api: Api, team: str, month: str, after: str) -> dict:
    return next(row for row in api.soccer(month, team) if row["date"][:10] > after)


def absence(team: str, day: str) -> list[str]:
    """The facts of a false premise that a game took place: the team, the day and a "no" that says it
    played none (an absence has no value of its own to find)."""
    return [team, day, "no"]


def year_winner(
    year: int, category: str, field: str, near: list[tuple[int, str]]
) -> Callable[[Api], Derivation]:
    """The `field` of the winner of `category` at `year`'s ceremony; the winners at `near` are the
    look-alikes."""

    def derive(api: Api) -> Derivation:
        found = next(a[field] for a in api.year_awards(year, category) if a["winner"])
        others = [next(a[field] for a in api.year_awards(y, c) if a["winner"]) for y, c in near]
        return Derivation(found, [[found]], others)

    return derive


def members(api: Api, artist: str) -> list[str]:
    return sorted(api("music/get_members", query=artist))


# --- the questions ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RealQuestion:
    key: str  # interaction_id_prefix in the validation file
    query_time: str
    entities: dict[str, Any]
    derive: Callable[[Api], Derivation]
    # why the answer checker cannot call the derived answer correct (it is then allowed to be unsure)
    checker_unsure: str = ""


def _finance() -> list[RealQuestion]:
    def colm(api: Api) -> Derivation:
        bars = api.bars("COLM")
        return Derivation(
            str(bars["2024-03-08"]["Volume"]),
            [["2024-03-08", str(bars["2024-03-08"]["Volume"])]],
            [str(bars["2024-03-07"]["Volume"])],
        )

    def leco(api: Api) -> Derivation:
        bar, before = api.bars("LECO")["2024-03-01"], api.bars("LECO")["2024-02-29"]
        return Derivation(
            f"${price(bar['Low'])}, ${price(bar['High'])}",
            [["2024-03-01", price(bar["Low"]), price(bar["High"])]],
            [price(before["Low"]), price(before["High"])],
        )

    def sfwl(api: Api) -> Derivation:
        bars = api.bars("SFWL")
        return Derivation(
            f"${price(bars['2024-03-01']['Close'])}",
            [["2024-03-01", price(bars["2024-03-01"]["Close"])]],
            [price(bars["2024-02-23"]["Close"])],
        )

    def dividends_in(ticker: str, year: str) -> Callable[[Api], Derivation]:
        def derive(api: Api) -> Derivation:
            days = [day for day in api.dividends(ticker) if day.startswith(year)]
            return Derivation(str(len(days)), [days])

        return derive

    def auph(api: Api) -> Derivation:
        eps = api("finance/get_eps", query="AUPH")
        return Derivation(str(eps), [[str(eps)]], [str(api("finance/get_info", query="AUPH")["trailingEps"])])

    def kind_casi(api: Api) -> Derivation:
        week = {
            t: [api.bars(t)[d]["Volume"] for d in days_between(api.bars(t), "2024-03-04", "2024-03-08")]
            for t in ("KIND", "CASI")
        }
        totals = {t: sum(v) for t, v in week.items()}
        return Derivation(
            compare(totals, highest=False).lower(),
            [[str(v) for vs in week.values() for v in vs], [str(v) for v in totals.values()]],
        )

    def asana_january(api: Api) -> Derivation:
        bars = api.bars("ASAN")
        day = max(days_between(bars, "2024-01-01", "2024-01-31"), key=lambda d: bars[d]["High"])
        return Derivation(day, [[day, price(bars[day]["High"])]])

    def ccep(api: Api) -> Derivation:
        bars = api.bars("CCEP")
        highs = [bars[d]["High"] for d in days_between(bars, "2024-03-04", "2024-03-08")]
        return Derivation(f"${price(mean(highs))}", [[price(h) for h in highs], [price(mean(highs))]])

    def shc(api: Api) -> Derivation:
        days = lower_closes(api.bars("SHC"), "2023-10-01", "2023-12-31")
        return Derivation(", ".join(days), [days])

    def closes_around(ticker: str, first: str, last: str, lower: bool) -> Callable[[Api], Derivation]:
        def derive(api: Api) -> Derivation:
            bars = api.bars(ticker)
            ordered = sorted(bars)
            shown = [d for d in ordered if first <= d <= last]
            before = ordered[ordered.index(shown[0]) - 1]
            moved = (
                lower_closes(bars, first, last)
                if lower
                else [d for d in shown if d not in lower_closes(bars, first, last)]
            )
            return Derivation(", ".join(moved), [[price(bars[d]["Close"]) for d in [before, *shown]]])

        return derive

    def market_caps(api: Api) -> Derivation:
        caps = {t: api("finance/get_market_capitalization", query=t) for t in ("RBC", "RNG")}
        return Derivation(compare(caps).lower(), [[str(c) for c in caps.values()]])

    def pe(api: Api) -> Derivation:
        ratios = {t: api("finance/get_pe_ratio", query=t) for t in ("TDCX", "GOOD")}
        return Derivation(compare(ratios).lower(), [[str(r) for r in ratios.values()]])

    def imppp(api: Api) -> Derivation:
        first = min(api.dividends("IMPPP"))
        return Derivation(first, [[first]])

    def ande(api: Api) -> Derivation:
        ticker = api.ticker("The Andersons, Inc. Common Stock")
        paid = {d: v for d, v in api.dividends(ticker).items() if d.startswith("2023")}
        total = round(sum(paid.values()), 4)
        return Derivation(f"${total:.2f}", [list(paid), [f"{total:g}"]])

    def average_volume(api: Api) -> Derivation:
        volumes = {
            name: api("finance/get_info", query=api.ticker(official))["averageVolume"]
            for name, official in (
                ("microsoft", "Microsoft Corporation Common Stock"),
                ("apple", "Apple Inc. Common Stock"),
            )
        }
        return Derivation(compare(volumes), [[str(v) for v in volumes.values()]])

    def altria(api: Api) -> Derivation:
        info = api("finance/get_info", query=api.ticker("Altria Group, Inc. Common Stock"))
        return Derivation(
            f"{info['dividendYield'] * 100:.2f}%",
            [[str(info["dividendYield"])]],
            [str(info["trailingAnnualDividendYield"])],
        )

    def thousand_dollars(api: Api) -> Derivation:
        closes = {t: api.bars(t)["2024-03-05"]["Close"] for t in ("DHCNI", "IBKR")}
        shares = {t.lower(): 1000 // close for t, close in closes.items()}
        return Derivation(compare(shares), [["2024-03-05", *(price(c) for c in closes.values())]])

    def msft_opens(api: Api) -> Derivation:
        bars = api.bars("MSFT")
        today, yesterday = bars["2024-02-15"]["Open"], bars["2024-02-14"]["Open"]
        relation = (
            "the same as" if today == yesterday else "higher than" if today > yesterday else "lower than"
        )
        return Derivation(
            f"Today (Feb 15, 2024) Microsoft opened at {price(today)}, {relation} "
            f"yesterday's {price(yesterday)}",
            [["2024-02-15", price(today), "2024-02-14", price(yesterday)]],
        )

    def msft_close(api: Api) -> Derivation:
        close = api.bars(api.ticker("Microsoft Corporation Common Stock"))["2024-02-14"]["Close"]
        return Derivation(
            price(close), [["2024-02-14", price(close)]], [price(api.bars("MSFT")["2024-02-15"]["Close"])]
        )

    def year_end(api: Api) -> Derivation:
        closes = {t: api.bars(t)["2023-12-29"]["Close"] for t in ("BSY", "VTRS")}
        return Derivation(
            f"{compare(closes)} has the higher closing stock price",
            [["2023-12-29", *(price(c) for c in closes.values())]],
        )

    def apxi(api: Api) -> Derivation:
        bars = api.bars(api.ticker("APx Acquisition Corp. I Class A Ordinary Shares"))
        day = min(days_between(bars, "2024-02-01", "2024-02-29"), key=lambda d: bars[d]["Low"])
        low = bars[day]["Low"]
        unit = api.bars(api.ticker("APx Acquisition Corp. I Unit"))
        return Derivation(
            f"${price(low)}",
            [[day, price(low)]],
            [price(min(unit[d]["Low"] for d in days_between(unit, "2024-02-01", "2024-02-29")))],
        )

    def kndi(api: Api) -> Derivation:
        bars = api.bars("KNDI")
        return Derivation(
            f"${price(bars['2024-03-05']['Open'])}",
            [["2024-03-05", price(bars["2024-03-05"]["Open"])]],
            [price(bars["2024-03-12"]["Open"])],
        )

    def company(name: str) -> dict:
        return {"companies": [name]}

    def tickers(*names: str) -> dict:
        return {"tickers": list(names)}

    return [
        RealQuestion("2937d471", "03/10/2024, 12:07:31 PT", tickers("COLM"), colm),
        RealQuestion("6c8083ab", "03/03/2024, 09:41:12 PT", tickers("LECO"), leco),
        RealQuestion("e236c396", "03/05/2024, 11:20:45 PT", tickers("SFWL"), sfwl),
        RealQuestion("2a56eddc", "03/05/2024, 10:12:00 PT", tickers("TNL"), dividends_in("TNL", "2023")),
        RealQuestion("17f084f8", "03/11/2024, 14:02:10 PT", tickers("AUPH"), auph),
        RealQuestion("f51e7907", "03/08/2024, 17:45:00 PT", tickers("KIND", "CASI"), kind_casi),
        RealQuestion("10db2c9d", "02/12/2024, 10:30:00 PT", company("Asana"), asana_january),
        RealQuestion(
            "bb769975",
            "03/05/2024, 13:15:00 PT",
            company("Sportsman's Warehouse Holdings"),
            lambda api: volume_total(
                api,
                api.ticker("Sportsman's Warehouse Holdings, Inc. Common Stock"),
                "2024-02-01",
                "2024-02-07",
                ("2024-02-05", "2024-02-09"),
            ),
        ),
        RealQuestion(
            "89b4bc23",
            "03/04/2024, 09:50:00 PT",
            company("MetLife"),
            lambda api: volume_total(
                api,
                api.ticker("MetLife, Inc. Common Stock"),
                "2024-02-01",
                "2024-02-07",
                ("2024-02-05", "2024-02-09"),
            ),
        ),
        RealQuestion(
            "b748a4d2",
            "03/06/2024, 16:20:00 PT",
            company("Asana"),
            lambda api: volume_total(
                api,
                api.ticker("Asana, Inc. Class A Common Stock"),
                "2024-02-01",
                "2024-02-07",
                ("2024-02-05", "2024-02-09"),
            ),
        ),
        RealQuestion("e4e6750b", "03/08/2024, 18:10:00 PT", tickers("CCEP"), ccep),
        RealQuestion("c1597464", "02/20/2024, 10:00:00 PT", tickers("SHC"), shc),
        RealQuestion(
            "e9a7fc4a",
            "02/20/2024, 09:05:00 PT",
            tickers("INDB"),
            closes_around("INDB", "2024-02-12", "2024-02-16", True),
        ),
        RealQuestion(
            "85cc35f3",
            "02/28/2024, 19:30:00 PT",
            company("SPI Energy"),
            closes_around("SPI", "2024-02-26", "2024-02-28", False),
        ),
        RealQuestion("25d230b2", "02/29/2024, 12:00:00 PT", tickers("RBC", "RNG"), market_caps),
        RealQuestion("6e6feebb", "03/12/2024, 08:40:00 PT", tickers("TDCX", "GOOD"), pe),
        RealQuestion("92e00d95", "03/11/2024, 15:00:00 PT", tickers("IMPPP"), imppp),
        RealQuestion("e5aceb8d", "02/21/2024, 13:00:00 PT", company("Andersons"), ande),
        RealQuestion(
            "8e6f6025",
            "01/30/2024, 11:00:00 PT",
            company("FTAI Aviation"),
            lambda api: dividends_in(api.ticker("FTAI Aviation Ltd. Common Shares"), "2023")(api),
        ),
        RealQuestion(
            "a05a3d52", "02/15/2024, 16:00:00 PT", {"companies": ["Microsoft", "Apple"]}, average_volume
        ),
        RealQuestion("edde11f2", "03/12/2024, 10:00:00 PT", company("Altria Group"), altria),
        RealQuestion("545a9d58", "03/06/2024, 12:30:00 PT", tickers("DHCNI", "IBKR"), thousand_dollars),
        RealQuestion("8d409639", "02/15/2024, 14:30:00 PT", company("Microsoft"), msft_opens),
        RealQuestion("6b226b01", "03/01/2024, 10:00:00 PT", company("Microsoft"), msft_close),
        RealQuestion("3c363cbc", "01/10/2024, 10:00:00 PT", tickers("BSY", "VTRS"), year_end),
        RealQuestion("80633605", "03/05/2024, 09:00:00 PT", company("APx Acquisition Corp. I"), apxi),
        RealQuestion("1084c118", "03/14/2024, 10:20:00 PT", tickers("KNDI"), kndi),
    ]


def _movie() -> list[RealQuestion]:
    def oldman(api: Api) -> Derivation:
        won = [
            a
            for a in api.person("Gary Oldman")["oscar_awards"]
            if a["category"] == "ACTOR IN A LEADING ROLE" and a["winner"]
        ]
        year = min(a["year_ceremony"] for a in won)
        picture = next(a["film"] for a in api.year_awards(year, "BEST PICTURE") if a["winner"])
        earlier = next(a["film"] for a in api.year_awards(2012, "BEST PICTURE") if a["winner"])
        return Derivation(picture, [[str(year), picture]], [earlier])

    def dicaprio_age(api: Api) -> Derivation:
        person = api.person("Leonardo DiCaprio")
        award = next(
            a for a in person["oscar_awards"] if a["category"] == "ACTOR IN A LEADING ROLE" and a["winner"]
        )
        age = award["year_ceremony"] - int(person["birthday"][:4])
        return Derivation(
            f"{age} years old", [[person["birthday"], str(award["year_ceremony"]), award["film"]]]
        )

    def best_picture_actress(year: int, near: str) -> Callable[[Api], Derivation]:
        def derive(api: Api) -> Derivation:
            film = next(a["film"] for a in api.year_awards(year, "BEST PICTURE") if a["winner"])
            actress = female_lead(api.movie(film))
            return Derivation(actress, [[film, actress]], [near])

        return derive

    def hangover(api: Api) -> Derivation:
        leads = [c["name"] for c in sorted(api.movie("The Hangover")["cast"], key=lambda c: c["order"])[:3]]
        return Derivation(", ".join(leads[:-1]) + " and " + leads[-1], [leads])

    def producers(api: Api) -> Derivation:
        crew = api.movie("Paul Blart: Mall Cop")["crew"]
        names = [c["name"] for c in crew if c["job"] == "Producer"]
        return Derivation(
            ", ".join(names),
            [names],
            [c["name"] for c in crew if c["job"] == "Executive Producer" and c["name"] not in names],
        )

    def films_in(person: str, year: str, job: str = "acted_movies") -> Callable[[Api], Derivation]:
        def derive(api: Api) -> Derivation:
            titles = [
                m["title"] for m in api.films(api.person(person)[job]) if m["release_date"].startswith(year)
            ]
            return Derivation(", ".join(titles), [titles])

        return derive

    def older(api: Api) -> Derivation:
        born = {name: api.person(name)["birthday"] for name in ("Leonardo DiCaprio", "Brad Pitt")}
        return Derivation(min(born, key=born.get), [list(born.values())])

    def released_first(api: Api) -> Derivation:
        dates = {title: api.movie(title)["release_date"] for title in ("The Wizard of Oz", "The Lion King")}
        first, second = sorted(dates, key=dates.get)
        return Derivation(
            f"{first} ({dates[first][:4]}), before {second} ({dates[second][:4]})", [list(dates.values())]
        )

    def casts(api: Api, *titles: str) -> dict[str, list[str]]:
        return {title: [c["name"] for c in api.movie(title)["cast"]] for title in titles}

    def larger_cast(api: Api) -> Derivation:
        cast = casts(api, "Arrival", "Lady Bird")
        larger, smaller = sorted(cast, key=lambda t: -len(cast[t]))
        return Derivation(
            f"{larger}, with {len(cast[larger])} cast members against {len(cast[smaller])}",
            [[n for names in cast.values() for n in names]],
        )

    def shared_actors(api: Api) -> Derivation:
        cast = casts(api, "Life Stinks", "City Slickers")
        return Derivation(
            str(len(set(cast["Life Stinks"]) & set(cast["City Slickers"]))),
            [[n for names in cast.values() for n in names]],
        )

    def titanic(api: Api) -> Derivation:
        won = [a["category"] for a in api.movie("Titanic")["oscar_awards"] if a["winner"]]
        return Derivation(str(len(won)), [won, [str(len(won))]])

    def directing(person: str, wins_only: bool) -> Callable[[Api], Derivation]:
        def derive(api: Api) -> Derivation:
            awards = [
                a
                for a in api.person(person)["oscar_awards"]
                if a["category"] == "DIRECTING" and (a["winner"] or not wins_only)
            ]
            return Derivation(str(len(awards)), [[a["film"] for a in awards]])

        return derive

    def bay(api: Api) -> Derivation:
        ids = api.person("Michael Bay")["directed_movies"]
        return Derivation(str(len(ids)), [[m["title"] for m in api.films(ids)], [str(len(ids))]])

    def matrix(api: Api) -> Derivation:
        dates = [api.movie(title)["release_date"] for title in ("The Matrix", "The Matrix Reloaded")]
        return Derivation(f"{int(dates[1][:4]) - int(dates[0][:4])} years", [dates])

    def toy_story(api: Api) -> Derivation:
        films = [
            m
            for m in api("movie/get_movie_info", query="toy story")
            if re.fullmatch(r"Toy Story( \d)?", m["title"])
        ]
        average = mean(m["revenue"] for m in films)
        return Derivation(f"${average:,.2f}".removesuffix(".00"), [[str(m["revenue"]) for m in films]])

    def acting_nominations(api: Api) -> Derivation:
        acting = {
            title: [
                a["name"]
                for a in api.movie(title)["oscar_awards"]
                if re.match(r"ACT(OR|RESS)", a["category"])
            ]
            for title in ("12 Years a Slave", "The Social Network")
        }
        more, fewer = sorted(acting, key=lambda t: -len(acting[t]))
        return Derivation(
            f"{more}, with {len(acting[more])} acting nominations against {len(acting[fewer])}",
            [[n for names in acting.values() for n in names]],
        )

    def reitman(api: Api) -> Derivation:
        directors = [c["name"] for c in api.movie("Transformers")["crew"] if c["job"] == "Director"]
        directed = [m["title"] for m in api.films(api.person("Jason Reitman")["directed_movies"])]
        return Derivation(
            "invalid question" if "Jason Reitman" not in directors else "yes", [directors, directed]
        )

    def wallace(api: Api) -> Derivation:
        born = api.person("Randall Wallace")["birthday"]
        return Derivation(born, [[born]], [api.person("Randall Batinkoff")["birthday"]])

    people = lambda *names: {"people": list(names)}  # noqa: E731
    movies = lambda *titles: {"movies": list(titles)}  # noqa: E731
    return [
        RealQuestion("67a1ef25", "03/19/2024, 23:14:26 PT", people("Gary Oldman"), oldman),
        RealQuestion("2a233422", "03/19/2024, 23:02:10 PT", people("Leonardo DiCaprio"), dicaprio_age),
        RealQuestion(
            "54f26611", "03/19/2024, 22:40:00 PT", {}, best_picture_actress(2018, "Frances McDormand")
        ),
        RealQuestion("5db90d97", "03/19/2024, 22:41:00 PT", {}, best_picture_actress(2007, "Helen Mirren")),
        RealQuestion("b5cdaab3", "03/13/2024, 10:12:00 PT", movies("The Hangover"), hangover),
        RealQuestion("ac242919", "03/13/2024, 10:14:00 PT", movies("Paul Blart: Mall Cop"), producers),
        RealQuestion(
            "d5d3d46b",
            "03/13/2024, 10:16:00 PT",
            people("Craig Robinson"),
            films_in("Craig Robinson", "2013"),
        ),
        RealQuestion(
            "24cf9a37", "03/13/2024, 10:18:00 PT", people("Bruce Willis"), films_in("Bruce Willis", "2023")
        ),
        RealQuestion(
            "6d325128",
            "03/13/2024, 10:20:00 PT",
            people("Christopher Nolan"),
            films_in("Christopher Nolan", "2010", "directed_movies"),
        ),
        RealQuestion("2f324569", "03/10/2024, 23:30:00 PT", people("Leonardo DiCaprio", "Brad Pitt"), older),
        RealQuestion(
            "c30c1d3c", "03/10/2024, 23:32:00 PT", movies("The Wizard of Oz", "The Lion King"), released_first
        ),
        RealQuestion("8b8b0853", "03/10/2024, 23:34:00 PT", movies("Arrival", "Lady Bird"), larger_cast),
        RealQuestion(
            "6ffd040c", "03/10/2024, 23:36:00 PT", movies("Life Stinks", "City Slickers"), shared_actors
        ),
        RealQuestion("059ecf07", "03/10/2024, 23:38:00 PT", movies("Titanic"), titanic),
        RealQuestion(
            "db3ccddc",
            "03/19/2024, 23:10:00 PT",
            people("Martin Scorsese"),
            directing("Martin Scorsese", False),
        ),
        RealQuestion("5eaf2776", "03/19/2024, 23:12:00 PT", people("Michael Bay"), bay),
        RealQuestion(
            "3c9ced00",
            "03/05/2024, 23:30:20 PT",
            movies("The Matrix", "The Matrix Reloaded"),
            matrix,
            checker_unsure="the gold is a sentence ('the release time between matrix 1 and 2 was 4 years.')",
        ),
        RealQuestion("1033305a", "03/05/2024, 23:31:00 PT", movies("Toy Story"), toy_story),
        RealQuestion(
            "3ec0993e",
            "03/05/2024, 23:32:00 PT",
            movies("12 Years a Slave", "The Social Network"),
            acting_nominations,
        ),
        RealQuestion(
            "5981a321",
            "03/19/2024, 23:20:00 PT",
            {"movies": ["Transformers", "Young Adult"], "people": ["Jason Reitman"]},
            reitman,
        ),
        RealQuestion(
            "ce18f7dd",
            "03/19/2024, 23:21:00 PT",
            {},
            year_winner(
                2001,
                "ACTOR IN A LEADING ROLE",
                "name",
                [(2000, "ACTOR IN A LEADING ROLE"), (2002, "ACTOR IN A LEADING ROLE")],
            ),
        ),
        RealQuestion("e93e3e85", "03/19/2024, 23:22:00 PT", people("Randall Wallace"), wallace),
        RealQuestion(
            "129da772",
            "03/19/2024, 23:51:04 PT",
            {},
            year_winner(2016, "VISUAL EFFECTS", "film", [(2015, "VISUAL EFFECTS")]),
        ),
        RealQuestion(
            "9fdae4e0", "03/19/2024, 23:24:00 PT", people("Frank Capra"), directing("Frank Capra", True)
        ),
        RealQuestion(
            "b4e25eb6",
            "03/19/2024, 23:25:00 PT",
            {},
            year_winner(2020, "BEST PICTURE", "film", [(2019, "BEST PICTURE")]),
        ),
    ]


def _music() -> list[RealQuestion]:
    def band(artist: str, count: bool = False) -> Callable[[Api], Derivation]:
        def derive(api: Api) -> Derivation:
            names = members(api, artist)
            return Derivation(str(len(names)) if count else ", ".join(names), [names])

        return derive

    def new_artists(api: Api) -> Derivation:
        names = [
            n for year in (2016, 2017, 2018) for n in api("music/grammy_get_best_artist_by_year", query=year)
        ]
        near = [n for year in (2015, 2019) for n in api("music/grammy_get_best_artist_by_year", query=year)]
        return Derivation(", ".join(names), [names], near)

    def birth_country_of_winner(api: Api) -> Derivation:
        (artist,) = api("music/grammy_get_best_artist_by_year", query=2011)
        country = api("music/get_artist_birth_place", query=artist)
        return Derivation(country.lower(), [[artist, country]])

    def works_of_winner(api: Api) -> Derivation:
        (artist,) = api("music/grammy_get_best_artist_by_year", query=2014)
        works = list(dict.fromkeys(api("music/get_artist_all_works", query=artist)))
        return Derivation(str(len(works)), [[artist, *works], [artist, str(len(works))]])

    def song_of_the_year_singer(api: Api) -> Derivation:
        (song,) = api("music/grammy_get_best_song_by_year", query=2016)
        author = api("music/get_song_author", query=song)
        earlier = api("music/grammy_get_best_song_by_year", query=2015)
        return Derivation(author.split()[0], [[song, author.split()[0]]], earlier)

    def more_grammys(api: Api) -> Derivation:
        counts = {
            name: api("music/grammy_get_award_count_by_artist", query=name)
            for name in ("Ed Sheeran", "Taylor Swift")
        }
        return Derivation(compare(counts), [[str(c) for c in counts.values()]])

    def ariana(api: Api) -> Derivation:
        years = api("music/grammy_get_award_date_by_artist", query="Ariana Grande")
        return Derivation(str(sum(1 for y in years if y <= 2017)), [[str(y) for y in years]])

    def artist_fact(artist: str, route: str, near: str | None = None) -> Callable[[Api], Derivation]:
        def derive(api: Api) -> Derivation:
            value = api(f"music/{route}", query=artist)
            return Derivation(
                value.lower() if len(value) == 2 else value,
                [[value]],
                [api(f"music/{route}", query=near)] if near else [],
            )

        return derive

    def longer_career(api: Api) -> Derivation:
        spans = {name: api("music/get_lifespan", query=name) for name in ("The Beatles", "Elvis Presley")}
        years = {name: int(end[:4]) - int(start[:4]) for name, (start, end) in spans.items()}
        return Derivation(max(years, key=years.get), [[d for span in spans.values() for d in span]])

    def more_recent(api: Api) -> Derivation:
        dates = {
            song: api("music/get_song_release_date", query=song) for song in ("All Alone", "One More Time")
        }
        return Derivation(max(dates, key=dates.get), [list(dates.values())])

    def earthlings(api: Api) -> Derivation:
        dates = {
            song: api("music/get_song_release_date", query=song)
            for song in api("music/get_artist_all_works", query="The Earthlings")
        }
        return Derivation(
            ", ".join(s for s, d in dates.items() if d.startswith("2001")),
            [list(dict.fromkeys(dates.values()))],
        )

    def number_one_on(api: Api) -> Derivation:
        (song,), _ = api("music/get_billboard_rank_date", rank=1, date="2024-03-02")
        (before,), _ = api("music/get_billboard_rank_date", rank=1, date="2024-02-24")
        return Derivation(song, [[song]], [before])

    def black_beatles(api: Api) -> Derivation:
        weeks = [
            d
            for d in _chart_dates_2016()
            if api("music/get_billboard_rank_date", rank=1, date=d)[0] == ["Black Beatles"]
        ]
        return Derivation(f"{round(len(weeks) / 52 * 100)}%", [weeks])

    def taylor_number_ones(api: Api) -> Derivation:
        songs, artists = api("music/get_billboard_rank_date", rank=1)
        hits = list(dict.fromkeys(s for s, a in zip(songs, artists) if "Taylor Swift" in a))
        return Derivation(str(len(hits)), [hits])

    def younger(api: Api) -> Derivation:
        born = {
            name: api("music/get_artist_birth_date", query=name) for name in ("Taylor Swift", "Justin Bieber")
        }
        return Derivation(max(born, key=born.get), [list(born.values())])

    artists = lambda *names: {"artists": list(names)}  # noqa: E731
    songs = lambda *names: {"songs": list(names)}  # noqa: E731
    return [
        RealQuestion(
            "a33c8b67", "03/05/2024, 23:24:25 PT", artists("The Rolling Stones"), band("The Rolling Stones")
        ),
        RealQuestion(
            "2220ff57", "03/13/2024, 10:00:08 PT", artists("The Black Keys"), band("The Black Keys")
        ),
        RealQuestion(
            "decd3495", "03/13/2024, 10:02:00 PT", artists("Westlife"), band("Westlife", count=True)
        ),
        RealQuestion("2d42db28", "03/13/2024, 10:04:00 PT", {}, new_artists),
        RealQuestion("bdaa3dcc", "03/13/2024, 10:06:00 PT", {}, birth_country_of_winner),
        RealQuestion("3da17f00", "03/13/2024, 10:08:00 PT", {}, works_of_winner),
        RealQuestion("8c64872e", "03/13/2024, 10:10:00 PT", {}, song_of_the_year_singer),
        RealQuestion(
            "5d2ee41d", "03/13/2024, 10:12:00 PT", artists("Ed Sheeran", "Taylor Swift"), more_grammys
        ),
        RealQuestion("a9a1b338", "03/13/2024, 10:14:00 PT", artists("Ariana Grande"), ariana),
        RealQuestion(
            "519ed4a8",
            "03/13/2024, 10:16:00 PT",
            artists("Mavis Staples"),
            artist_fact("Mavis Staples", "get_artist_birth_date", "The Staple Singers"),
        ),
        RealQuestion(
            "36511aad",
            "03/13/2024, 10:18:00 PT",
            artists("Mark Hudson"),
            artist_fact("Mark Hudson", "get_artist_birth_date", "The Hudson Brothers"),
        ),
        RealQuestion(
            "16e777af", "03/13/2024, 10:20:00 PT", artists("The Beatles", "Elvis Presley"), longer_career
        ),
        RealQuestion("0f528b34", "03/13/2024, 10:22:00 PT", songs("All Alone", "One More Time"), more_recent),
        RealQuestion("60fbdf14", "03/13/2024, 10:24:00 PT", artists("The Earthlings"), earthlings),
        RealQuestion("53c2039c", "03/04/2024, 20:00:00 PT", {"rank": 1}, number_one_on),
        RealQuestion("3472d7a6", "03/05/2024, 10:00:00 PT", songs("Black Beatles"), black_beatles),
        RealQuestion("fe41f664", "03/05/2024, 10:02:00 PT", artists("Taylor Swift"), taylor_number_ones),
        RealQuestion(
            "b3387794",
            "03/13/2024, 10:26:00 PT",
            artists("The Sports"),
            artist_fact("The Sports", "get_artist_birth_date"),
        ),
        RealQuestion(
            "ce1ddb48",
            "03/13/2024, 10:28:00 PT",
            artists("Air Supply"),
            artist_fact("Air Supply", "get_artist_birth_date"),
        ),
        RealQuestion(
            "17a5f5e6",
            "03/13/2024, 10:30:00 PT",
            artists("Marem Ladson"),
            artist_fact("Marem Ladson", "get_artist_birth_place"),
        ),
        RealQuestion(
            "b23312ae",
            "03/13/2024, 10:32:00 PT",
            artists("Taylor Swift", "Justin Bieber"),
            younger,
            checker_unsure="the gold answer misspells the name ('justin biber')",
        ),
    ]


def _chart_dates_2016() -> list[str]:
    day, days = date(2016, 1, 2), []
    while day.year == 2016:
        days.append(day.isoformat())
        day = date.fromordinal(day.toordinal() + 7)
    return days


def _sports() -> list[RealQuestion]:
    def compare_points(api: Api) -> Derivation:
        rockets, rocket_days = month_points(api, "Houston Rockets", "2023-01")
        lakers, laker_days = month_points(api, "Los Angeles Lakers", "2023-01")
        return Derivation(
            "yes" if rockets > lakers else "no", [rocket_days + laker_days, [f"{rockets:g}", f"{lakers:g}"]]
        )

    def home_losses(api: Api) -> Derivation:
        team = "Portland Trail Blazers"
        home = [g for g in api.nba("2023-01", team) if g["team_name_home"] == team]
        return Derivation(
            str(sum(1 for g in home if g["pts_home"] < g["pts_away"])), [[g["game_date"][:10] for g in home]]
        )

    def more_wins(api: Api) -> Derivation:
        wins = {team: year_wins(api, team, "2022") for team in ("Detroit Pistons", "Denver Nuggets")}
        return Derivation(compare(wins), [[str(w) for w in wins.values()]])

    def total_points(api: Api) -> Derivation:
        total, days = month_points(api, "New Orleans Pelicans", "2022-01")
        return Derivation(f"{total:g}", [days, [f"{total:g}"]])

    def heat_points(api: Api) -> Derivation:
        (game,) = api.nba("2023-06-12", "Miami Heat")
        return Derivation(
            f"{points(game, 'Miami Heat'):g}", [[f"{points(game, 'Miami Heat'):g}", game["team_name_home"]]]
        )

    def opponent_on(api: Api) -> Derivation:
        (game,) = api.nba("2023-04-22", "Brooklyn Nets")
        other = (
            game["team_name_away"] if game["team_name_home"] == "Brooklyn Nets" else game["team_name_home"]
        )
        return Derivation(other, [[other]])

    def no_game(api: Api) -> Derivation:
        days = [g["game_date"][:10] for g in api.nba("2023-01", "Denver Nuggets")]
        before = max(d for d in days if d < "2023-01-11")
        after = min(d for d in days if d > "2023-01-11")
        return Derivation(
            "invalid question" if "2023-01-11" not in days else "yes",
            [[before], [after], absence("Denver Nuggets", "2023-01-11")],
        )

    def soccer_last(
        team: str, before: str, field: str, near: str | None = None
    ) -> Callable[[Api], Derivation]:
        def derive(api: Api) -> Derivation:
            game = last_game(api, team, before[:7], before)
            value = game["date"][:10] if field == "date" else str(game[field])
            # a result (W, D, L) is stated by the game's line: its date and opponent
            facts = {"date": [value], "result": [game["date"][:10], game["opponent"]]}.get(
                field, [value, game["date"][:10]]
            )
            return Derivation(value, [facts], [near] if near else [])

        return derive

    def soccer_next(team: str, after: str, field: str) -> Callable[[Api], Derivation]:
        def derive(api: Api) -> Derivation:
            game = next_game(api, team, after[:7], after)
            last = last_game(api, team, after[:7], after)
            value = game["date"][:10] if field == "date" else str(game[field])
            facts = [value] if field == "date" else [value, game["date"][:10]]
            return Derivation(value, [facts], [str(last["opponent"])] if field != "date" else [])

        return derive

    def not_yesterday(team: str, yesterday: str) -> Callable[[Api], Derivation]:
        def derive(api: Api) -> Derivation:
            games = api.soccer(yesterday[:7], team)
            played = [row["date"][:10] for row in games if row["result"]]
            last = max(d for d in played if d <= yesterday)
            return Derivation(
                "invalid question" if yesterday not in played else "yes", [[last], absence(team, yesterday)]
            )

        return derive

    def previous_week(
        team: str, first: str, last: str, field: str, near: str | None = None
    ) -> Callable[[Api], Derivation]:
        def derive(api: Api) -> Derivation:
            (game,) = [row for row in api.soccer(first[:7], team) if first <= row["date"][:10] <= last]
            return Derivation(
                str(game[field]), [[game["date"][:10], str(game["opponent"])]], [near] if near else []
            )

        return derive

    nba = lambda *teams: {"teams": list(teams), "sport": "nba"}  # noqa: E731
    soccer = lambda team: {"teams": [team], "sport": "soccer"}  # noqa: E731
    return [
        RealQuestion(
            "dee786fe",
            "03/10/2024, 21:00:00 PT",
            nba("Miami Heat"),
            lambda api: winners(api, "Miami Heat", "2021-12"),
        ),
        RealQuestion(
            "d6bc7e13",
            "03/10/2024, 21:02:00 PT",
            nba("Phoenix Suns"),
            lambda api: winners(api, "Phoenix Suns", "2022-12"),
        ),
        RealQuestion(
            "2f81073d",
            "03/10/2024, 21:04:00 PT",
            nba("Miami Heat"),
            lambda api: winners(api, "Miami Heat", "2022-12"),
        ),
        RealQuestion(
            "9b209cc7",
            "03/10/2024, 21:06:00 PT",
            nba("Houston Rockets", "Los Angeles Lakers"),
            compare_points,
        ),
        RealQuestion("fab53292", "03/10/2024, 21:08:00 PT", nba("Portland Trail Blazers"), home_losses),
        RealQuestion(
            "6f6452ef", "03/10/2024, 21:10:00 PT", nba("Detroit Pistons", "Denver Nuggets"), more_wins
        ),
        RealQuestion("1315f9d3", "03/10/2024, 21:12:00 PT", nba("New Orleans Pelicans"), total_points),
        RealQuestion("748ebdcd", "03/10/2024, 21:14:00 PT", nba("Miami Heat"), heat_points),
        RealQuestion(
            "508a207a",
            "03/10/2024, 21:16:00 PT",
            {"sport": "nba"},
            lambda api: free_throw_points(api, "2000-11-11", "Michael Ruffin"),
        ),
        RealQuestion(
            "168ed85e",
            "03/10/2024, 21:18:00 PT",
            {"sport": "nba"},
            lambda api: free_throw_points(api, "2013-10-19", "DeAndre Jordan"),
        ),
        RealQuestion("25119807", "03/10/2024, 21:20:00 PT", nba("Brooklyn Nets"), opponent_on),
        RealQuestion("9874ccfa", "03/10/2024, 21:22:00 PT", nba("Denver Nuggets"), no_game),
        RealQuestion(
            "9cac20c0",
            "03/14/2024, 10:00:00 PT",
            soccer("Everton"),
            soccer_last("Everton", "2024-03-14", "opponent"),
        ),
        RealQuestion(
            "24dad42d",
            "03/14/2024, 10:02:00 PT",
            soccer("Manchester Utd"),
            soccer_next("Manchester Utd", "2024-03-14", "opponent"),
        ),
        RealQuestion(
            "b08795e7",
            "03/14/2024, 10:04:00 PT",
            soccer("Liverpool"),
            soccer_last("Liverpool", "2024-03-14", "result"),
        ),
        RealQuestion(
            "c2de9a05",
            "03/14/2024, 10:06:00 PT",
            soccer("Bournemouth"),
            soccer_last("Bournemouth", "2024-03-14", "date", "2024-03-03"),
        ),
        RealQuestion(
            "e09a9c97",
            "03/14/2024, 09:30:00 PT",
            soccer("Newcastle Utd"),
            not_yesterday("Newcastle Utd", "2024-03-13"),
        ),
        RealQuestion(
            "d2914f48",
            "03/14/2024, 10:08:00 PT",
            soccer("West Ham"),
            soccer_next("West Ham", "2024-03-14", "date"),
        ),
        RealQuestion(
            "42fa780d",
            "03/14/2024, 10:10:00 PT",
            soccer("Brest"),
            soccer_last("Brest", "2024-03-14", "Captain"),
        ),
        RealQuestion(
            "aa29b165", "03/14/2024, 10:12:00 PT", soccer("Metz"), soccer_last("Metz", "2024-03-14", "GF")
        ),
        RealQuestion(
            "e0944b12",
            "03/20/2024, 11:00:00 PT",
            soccer("Montpellier"),
            previous_week("Montpellier", "2024-03-11", "2024-03-17", "opponent", "Lens"),
        ),
        RealQuestion(
            "52ab8dab",
            "03/14/2024, 10:14:00 PT",
            soccer("Lorient"),
            previous_week("Lorient", "2024-03-04", "2024-03-10", "GF"),
        ),
        RealQuestion(
            "1a1a020a",
            "03/14/2024, 10:16:00 PT",
            soccer("Strasbourg"),
            soccer_last("Strasbourg", "2024-03-14", "result"),
        ),
        RealQuestion(
            "0a3edfc5",
            "03/14/2024, 10:18:00 PT",
            soccer("Celta Vigo"),
            soccer_next("Celta Vigo", "2024-03-14", "opponent"),
        ),
        RealQuestion(
            "83905844",
            "03/14/2024, 10:20:00 PT",
            soccer("Celta Vigo"),
            soccer_last("Celta Vigo", "2024-03-14", "Captain"),
        ),
        RealQuestion(
            "5710f505", "03/14/2024, 10:22:00 PT", soccer("Cádiz"), not_yesterday("Cádiz", "2024-03-13")
        ),
        RealQuestion(
            "41354a30",
            "03/20/2024, 12:00:00 PT",
            soccer("Rayo Vallecano"),
            previous_week("Rayo Vallecano", "2024-03-11", "2024-03-17", "opponent", "Getafe"),
        ),
    ]


QUESTIONS: list[RealQuestion] = [*_finance(), *_movie(), *_music(), *_sports()]


# --- the gold intent of each question -----------------------------------------------------------------


@dataclass(frozen=True)
class GoldIntent:
    """What an ideal reading of a question holds, in a neutral form (no relation of ours is named):
    - operation: one of models.kg.intent.OPERATIONS (lookup, count, sum, average, extreme,
      first_or_last, compare, difference, set, yes_no), the outer one ("did x score more than y?" is a
      yes/no check; "how many points did x score on <day>?" reads one amount: a lookup);
    - time: "none", "point" (a day written out), "span" (a period written out: a year, a month, a
      quarter, "until 2019"), "relative" (a time read from the question's own: "last week", "most
      recent", "in jan", "next match");
    - tense: "now" or "then" (a period written out in the past is "then");
    - answer: where the answer is, as official routes (paths without the leading slash), each with the
      field of their answers that holds it ("finance/get_price_history:Volume"; "|" between
      alternatives; no field when the whole answer holds it). A reading's relation is right when one
      of the routes and fields it declares (models/kg/relations.py) is one of these."""

    operation: str
    time: str
    tense: str
    answer: tuple[str, ...]


_PRICES, _INFO = "finance/get_price_history", "finance/get_info"
_MOVIE, _PERSON, _YEAR = "movie/get_movie_info", "movie/get_person_info", "movie/get_year_info"
_NBA, _SOCCER = "sports/nba/get_games_on_date", "sports/soccer/get_games_on_date"
_NBA_RESULT, _NBA_TEAMS = f"{_NBA}:wl_home|wl_away", f"{_NBA}:team_name_home|team_name_away"


def _gold(operation: str, time: str, tense: str, *answer: str) -> GoldIntent:
    return GoldIntent(operation, time, tense, answer)


INTENTS: dict[str, GoldIntent] = {
    # finance
    "2937d471": _gold("lookup", "relative", "then", f"{_PRICES}:Volume"),
    "6c8083ab": _gold("lookup", "relative", "then", f"{_PRICES}:Low|High"),
    "e236c396": _gold("lookup", "relative", "then", f"{_PRICES}:Close"),
    "2a56eddc": _gold("count", "span", "then", "finance/get_dividends_history"),
    "17f084f8": _gold("lookup", "none", "now", "finance/get_eps"),
    "f51e7907": _gold("compare", "relative", "now", f"{_PRICES}:Volume"),
    "10db2c9d": _gold("extreme", "relative", "then", f"{_PRICES}:High"),
    "bb769975": _gold("sum", "relative", "then", f"{_PRICES}:Volume"),
    "89b4bc23": _gold("sum", "relative", "then", f"{_PRICES}:Volume"),
    "b748a4d2": _gold("sum", "relative", "then", f"{_PRICES}:Volume"),
    "e4e6750b": _gold("average", "relative", "then", f"{_PRICES}:High"),
    "c1597464": _gold("set", "span", "then", f"{_PRICES}:Close"),
    "e9a7fc4a": _gold("set", "relative", "then", f"{_PRICES}:Close"),
    "85cc35f3": _gold("set", "relative", "then", f"{_PRICES}:Close"),
    "25d230b2": _gold("compare", "none", "now", "finance/get_market_capitalization"),
    "6e6feebb": _gold("compare", "none", "now", "finance/get_pe_ratio"),
    "92e00d95": _gold("first_or_last", "none", "then", "finance/get_dividends_history"),
    "e5aceb8d": _gold("sum", "relative", "then", "finance/get_dividends_history"),
    "8e6f6025": _gold("count", "span", "then", "finance/get_dividends_history"),
    "a05a3d52": _gold("compare", "relative", "now", f"{_INFO}:averageVolume"),
    "edde11f2": _gold("lookup", "none", "now", f"{_INFO}:dividendYield"),
    "545a9d58": _gold("compare", "relative", "now", f"{_PRICES}:Close"),
    "8d409639": _gold("compare", "relative", "now", f"{_PRICES}:Open"),
    "6b226b01": _gold("lookup", "point", "then", f"{_PRICES}:Close"),
    "3c363cbc": _gold("compare", "point", "then", f"{_PRICES}:Close"),
    "80633605": _gold("extreme", "relative", "then", f"{_PRICES}:Low"),
    "1084c118": _gold("lookup", "relative", "then", f"{_PRICES}:Open"),
    # movie
    "67a1ef25": _gold("lookup", "none", "then", f"{_YEAR}:oscar_awards"),
    "2a233422": _gold("difference", "none", "then", f"{_PERSON}:birthday|oscar_awards"),
    "54f26611": _gold("lookup", "span", "then", f"{_MOVIE}:cast"),
    "5db90d97": _gold("lookup", "span", "then", f"{_MOVIE}:cast"),
    "b5cdaab3": _gold("set", "none", "then", f"{_MOVIE}:cast"),
    "ac242919": _gold("set", "none", "then", f"{_MOVIE}:crew"),
    "d5d3d46b": _gold("set", "span", "then", f"{_PERSON}:acted_movies"),
    "24cf9a37": _gold("set", "span", "then", f"{_PERSON}:acted_movies|directed_movies"),
    "6d325128": _gold("lookup", "span", "then", f"{_PERSON}:directed_movies"),
    "2f324569": _gold("compare", "none", "now", f"{_PERSON}:birthday"),
    "c30c1d3c": _gold("compare", "none", "then", f"{_MOVIE}:release_date"),
    "8b8b0853": _gold("compare", "none", "then", f"{_MOVIE}:cast"),
    "6ffd040c": _gold("count", "none", "then", f"{_MOVIE}:cast"),
    "059ecf07": _gold("count", "none", "then", f"{_MOVIE}:oscar_awards"),
    "db3ccddc": _gold("count", "none", "now", f"{_PERSON}:oscar_awards"),
    "5eaf2776": _gold("count", "none", "then", f"{_PERSON}:directed_movies"),
    "3c9ced00": _gold("difference", "none", "then", f"{_MOVIE}:release_date"),
    "1033305a": _gold("average", "none", "then", f"{_MOVIE}:revenue"),
    "3ec0993e": _gold("compare", "none", "now", f"{_MOVIE}:oscar_awards"),
    "5981a321": _gold("yes_no", "none", "then", f"{_MOVIE}:crew", f"{_PERSON}:directed_movies"),
    "ce18f7dd": _gold("lookup", "span", "then", f"{_YEAR}:oscar_awards"),
    "e93e3e85": _gold("lookup", "none", "then", f"{_PERSON}:birthday"),
    "129da772": _gold("lookup", "span", "then", f"{_YEAR}:oscar_awards"),
    "9fdae4e0": _gold("count", "none", "now", f"{_PERSON}:oscar_awards"),
    "b4e25eb6": _gold("lookup", "span", "then", f"{_YEAR}:oscar_awards"),
    # music
    "a33c8b67": _gold("set", "none", "now", "music/get_members"),
    "2220ff57": _gold("set", "none", "now", "music/get_members"),
    "decd3495": _gold("count", "none", "now", "music/get_members"),
    "2d42db28": _gold("set", "span", "then", "music/grammy_get_best_artist_by_year"),
    "bdaa3dcc": _gold("lookup", "span", "then", "music/get_artist_birth_place"),
    "3da17f00": _gold("count", "span", "then", "music/get_artist_all_works"),
    "8c64872e": _gold("lookup", "span", "then", "music/get_song_author"),
    "5d2ee41d": _gold(
        "compare",
        "span",
        "then",
        "music/grammy_get_award_date_by_artist",
        "music/grammy_get_award_count_by_artist",
    ),
    "a9a1b338": _gold(
        "count",
        "span",
        "then",
        "music/grammy_get_award_date_by_artist",
        "music/grammy_get_award_count_by_artist",
    ),
    "519ed4a8": _gold("lookup", "none", "then", "music/get_artist_birth_date"),
    "36511aad": _gold("lookup", "none", "then", "music/get_artist_birth_date"),
    "16e777af": _gold("compare", "none", "now", "music/get_lifespan"),
    "0f528b34": _gold("compare", "none", "then", "music/get_song_release_date"),
    "60fbdf14": _gold("set", "span", "then", "music/get_artist_all_works", "music/get_song_release_date"),
    "53c2039c": _gold("lookup", "point", "then", "music/get_billboard_rank_date"),
    "3472d7a6": _gold("count", "span", "then", "music/get_billboard_rank_date"),
    "fe41f664": _gold("count", "none", "then", "music/get_billboard_rank_date"),
    "b3387794": _gold("lookup", "none", "then", "music/get_artist_birth_date"),
    "ce1ddb48": _gold("lookup", "none", "then", "music/get_artist_birth_date", "music/get_lifespan"),
    "17a5f5e6": _gold("lookup", "none", "now", "music/get_artist_birth_place"),
    "b23312ae": _gold("compare", "none", "now", "music/get_artist_birth_date"),
    # sports
    "dee786fe": _gold("set", "span", "then", _NBA_RESULT),
    "d6bc7e13": _gold("set", "span", "then", _NBA_RESULT),
    "2f81073d": _gold("set", "span", "then", _NBA_RESULT),
    "9b209cc7": _gold("yes_no", "span", "then", f"{_NBA}:pts_home|pts_away"),
    "fab53292": _gold("count", "span", "then", f"{_NBA}:wl_home"),
    "6f6452ef": _gold("compare", "span", "then", _NBA_RESULT),
    "1315f9d3": _gold("sum", "span", "then", f"{_NBA}:pts_home|pts_away"),
    "748ebdcd": _gold("lookup", "point", "then", f"{_NBA}:pts_home|pts_away"),
    "508a207a": _gold("count", "point", "then", "sports/nba/get_play_by_play_data_by_game_ids"),
    "168ed85e": _gold("count", "point", "then", "sports/nba/get_play_by_play_data_by_game_ids"),
    "25119807": _gold("lookup", "point", "then", _NBA_TEAMS),
    "9874ccfa": _gold("lookup", "point", "then", _NBA_TEAMS),
    "9cac20c0": _gold("lookup", "relative", "then", f"{_SOCCER}:opponent"),
    "24dad42d": _gold("lookup", "relative", "now", f"{_SOCCER}:opponent"),
    "b08795e7": _gold("lookup", "relative", "then", f"{_SOCCER}:result"),
    "c2de9a05": _gold("lookup", "relative", "then", f"{_SOCCER}:date"),
    "e09a9c97": _gold("yes_no", "relative", "then", f"{_SOCCER}:result"),
    "d2914f48": _gold("lookup", "relative", "now", f"{_SOCCER}:date"),
    "42fa780d": _gold("lookup", "relative", "then", f"{_SOCCER}:Captain"),
    "aa29b165": _gold("lookup", "relative", "then", f"{_SOCCER}:GF"),
    "e0944b12": _gold("lookup", "relative", "then", f"{_SOCCER}:opponent"),
    "52ab8dab": _gold("sum", "relative", "then", f"{_SOCCER}:GF"),
    "1a1a020a": _gold("lookup", "relative", "then", f"{_SOCCER}:result"),
    "0a3edfc5": _gold("lookup", "relative", "now", f"{_SOCCER}:opponent"),
    "83905844": _gold("lookup", "relative", "then", f"{_SOCCER}:Captain"),
    "5710f505": _gold("yes_no", "relative", "then", f"{_SOCCER}:result"),
    "41354a30": _gold("lookup", "relative", "then", f"{_SOCCER}:opponent"),
}


def answer_places(relation_routes: list[str], field: str) -> set[tuple[str, str]]:
    """The (route path, field) pairs a relation declares: each route with each of its fields ("" for any)."""
    fields = field.split("|") if field else [""]
    return {(route, one) for route in relation_routes for one in fields}


def relation_right(gold: GoldIntent, places: set[tuple[str, str]]) -> bool:
    """A relation declaring `places` reads the question right: one of its routes is one of the gold's,
    with one of the gold's fields (a side without fields matches any)."""
    for entry in gold.answer:
        route, _, fields = entry.partition(":")
        wanted = set(fields.split("|")) if fields else set()
        if any(
            place_route == route and (not wanted or not place_field or place_field in wanted)
            for place_route, place_field in places
        ):
            return True
    return False


@dataclass
class RealCase:
    """A question of the set, joined with its validation record."""

    key: str
    query: str
    query_time: str
    domain: str
    question_type: str
    static_or_dynamic: str
    gold: str
    split: str
    entities: dict[str, Any]
    derivation: Derivation


def read_validation(path: Path = VALIDATION) -> dict[str, dict]:
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return {row["interaction_id_prefix"]: row for row in rows}


def load(
    api_post: Callable[[str, dict], Any],
    path: Path = VALIDATION,
    questions: list[RealQuestion] = QUESTIONS,
    split: Callable[[str], str] = split_of,
) -> list[RealCase]:
    """The set's cases (or those of `questions`, split by `split`): query, gold answer and labels from the
    validation file, facts derived from the KG behind `api_post`."""
    records = read_validation(path)
    cases = []
    for question in questions:
        record = records[question.key]
        cases.append(
            RealCase(
                question.key,
                record["query"],
                question.query_time,
                record["domain"],
                record["question_type"],
                record["static_or_dynamic"],
                record["answer"],
                split(question.key),
                question.entities,
                question.derive(Api(api_post)),
            )
        )
    return cases


def problems(question: RealQuestion, record: dict, post: Callable[[str, dict], Any]) -> list[str]:
    """What is wrong with a question's derivation against the KG behind `post` and its validation
    `record`: KG facts (the first alternative) the routes' answers do not state, a near miss among the
    facts, or a derived answer the checker does not call correct ([] when all is well). Near misses may be
    computed (the total of another reading of a span)."""
    from evaluation.answer_match import Verdict, check_answer, states

    api = Api(post)
    derivation = question.derive(api)
    text = api.text()
    found = [
        f"fact {span!r} is not in the routes' answers"
        for span in derivation.facts[0]
        if not states(text, span)
    ]
    found += [
        f"near miss {span!r} is also a fact"
        for span in derivation.near_misses
        if any(span in spans for spans in derivation.facts)
    ]
    verdict = check_answer(derivation.answer, record["answer"], question=record["query"])
    allowed = {Verdict.CORRECT, Verdict.UNSURE} if question.checker_unsure else {Verdict.CORRECT}
    if verdict not in allowed:
        found.append(f"derived answer {derivation.answer!r} is {verdict.value} for gold {record['answer']!r}")
    return found


def in_process_api(data_dir: Path) -> Callable[[str, dict], Any]:
    """`post(path, body) -> result` against the mock's app on `data_dir`, in this process."""
    from fastapi.testclient import TestClient

    from kg_mock.server import create_app
    from kg_mock.store import KnowledgeGraph

    client = TestClient(create_app(KnowledgeGraph(data_dir)))

    def post(path: str, body: dict) -> Any:
        response = client.post(f"/{path}", json={k: v for k, v in body.items() if v is not None})
        response.raise_for_status()
        return response.json()["result"]

    return post
