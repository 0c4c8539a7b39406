"""Builds the real-wording KG (benchmarks/kg_real.py) in the official on-disk layout
(../shared/docs/CRAG_MOCK_API.md, section 3) from the hand-written facts of
`kg_mock.real_fixture_data`, plus seeded filler: a year of daily prices per ticker (walks that keep
the pinned bars and bounds), one-minute bars of the last five trading days, invented artists and songs
so that the music index starts, NBA seasons around the fixed team-months, and three soccer seasons.
With `sealed`, the facts of that sealed set ("first": kg_mock.sealed_fixture_data, benchmarks/kg_sealed.py;
"second": kg_mock.sealed2_fixture_data, benchmarks/kg_sealed2.py; "third": kg_mock.sealed3_fixture_data,
benchmarks/kg_sealed3.py) are added to the same tables before the KG is built, so that one KG holds the
real-wording set and that sealed set.

    python -m kg_mock.real_fixture DIR [--sealed first|second|third]
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import zlib
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pandas as pd

from kg_mock import formats
from kg_mock import real_fixture_data, sealed2_fixture_data, sealed3_fixture_data, sealed_fixture_data
from kg_mock.fixture import _saturdays, cached_build, music_tables, nba_game_row
from kg_mock.fixture_data import NBA_TEAMS

SEED = 20240315
FILLER_ARTISTS = 200
FILLER_SONGS = 400


# The facts a KG is built from: the module of the real-wording set's, or its tables joined with a
# sealed set's.
Facts = ModuleType | SimpleNamespace
# The facts of each sealed set (benchmarks/kg_sealed_sets.py), by its name.
SEALED_FACTS: dict[str, ModuleType] = {
    "first": sealed_fixture_data,
    "second": sealed2_fixture_data,
    "third": sealed3_fixture_data,
}


def sealed_facts(sealed: str) -> ModuleType:
    if sealed not in SEALED_FACTS:
        raise ValueError(f"no sealed set {sealed!r}: the sets are {', '.join(SEALED_FACTS)}")
    return SEALED_FACTS[sealed]


def fixture_facts(sealed: str | None = None) -> Facts:
    """The real-wording set's facts; with `sealed` (a set's name), each of its tables joined with the
    table of the same name in that set's module of SEALED_FACTS (a dict's entries added, the sealed one
    winning on a shared key; a list's and a set's items appended)."""
    if sealed is None:
        return real_fixture_data
    extras = sealed_facts(sealed)
    tables = {name: value for name, value in vars(real_fixture_data).items() if name.isupper()}
    for name, extra in vars(extras).items():
        if not name.isupper():
            continue
        table = tables.get(name)
        if isinstance(table, dict) and isinstance(extra, dict):
            tables[name] = {**table, **extra}
        elif isinstance(table, (list, set)) and type(extra) is type(table):
            tables[name] = table + extra if isinstance(table, list) else table | extra
        else:
            raise TypeError(f"{extras.__name__}.{name} adds to no table of real_fixture_data of its kind")
    return SimpleNamespace(**tables)


def build(root: Path, sealed: str | None = None) -> Path:
    """Write the whole real-wording KG under `root` (created if needed), with `sealed` that sealed set's
    facts too; returns `root`."""
    root, facts = Path(root), fixture_facts(sealed)
    _write_open(root)
    _write_movie(root, facts)
    _write_finance(root, facts)
    _write_music(root, facts)
    _write_nba(root, facts)
    _write_soccer(root, facts)
    return root


def cached_real_fixture_dir(sealed: str | None = None) -> Path:
    """The KG `build` writes, built once into the temp directory (with `sealed`, a folder per set)."""
    here = Path(__file__)
    sources = [here, Path(real_fixture_data.__file__)] + [
        here.with_name(name) for name in ("fixture.py", "fixture_data.py", "formats.py", "search.py")
    ]
    if sealed is not None:
        sources.append(Path(str(sealed_facts(sealed).__file__)))
        return cached_build(
            f"kg_mock_real_sealed_{sealed}_fixture", lambda root: build(root, sealed=sealed), sources
        )
    return cached_build("kg_mock_real_fixture", build, sources)


# --- open: a few entities (the domain must load; no question of the set asks it) ------------------------


def _write_open(root: Path) -> None:
    entities = [
        (
            "Columbia Sportswear",
            {
                "summary_text": "Columbia Sportswear is an American outdoor apparel company.",
                "summary_structured": {"founded": "1938", "headquarters": "Portland, Oregon"},
            },
        ),
        (
            "Mavis Staples",
            {"summary_text": "Mavis Staples is an American singer.", "summary_structured": {"born": "1939"}},
        ),
        (
            "Old Trafford",
            {
                "summary_text": "Old Trafford is a football stadium in Greater Manchester.",
                "summary_structured": {"opened": "1910", "tenant": "Manchester United"},
            },
        ),
        (
            "Paul Blart",
            {"summary_text": "Paul Blart is a fictional mall security guard.", "summary_structured": {}},
        ),
    ]
    for entity in entities:
        entity[1]["raw_mediawiki"] = "{{Infobox}} " + entity[1]["summary_text"]
    formats.write_open_kg(root, entities)


# --- movie --------------------------------------------------------------------------------------------


def _person_id(name: str, taken: set[int]) -> int:
    number = 1_000_000 + zlib.crc32(name.encode()) % 3_000_000
    while number in taken:
        number += 1
    taken.add(number)
    return number


def _write_movie(root: Path, facts: Facts) -> None:
    names = dict.fromkeys(
        [n for movie in facts.MOVIES for n in movie[7]]
        + [n for movie in facts.MOVIES for n, _ in movie[8]]
        + [award[3] for award in facts.OSCARS if "," not in award[3] and award[3] != award[4]]
        + list(facts.EXTRA_PEOPLE)
    )
    taken: set[int] = set()
    birthdays = {**facts.BIRTHDAYS, **facts.EXTRA_PEOPLE}
    people = {
        name: {
            "name": name,
            "id": _person_id(name, taken),
            "acted_movies": [],
            "directed_movies": [],
            "birthday": birthdays.get(name),
            "oscar_awards": [],
        }
        for name in names
    }
    movies: dict[str, dict[str, Any]] = {}
    genre_ids: dict[str, int] = {}
    for title, movie_id, release, budget, revenue, rating, genres, cast, crew in facts.MOVIES:
        movies[title] = {
            "title": title,
            "id": movie_id,
            "release_date": release,
            "original_title": facts.ORIGINAL_TITLES.get(title, title),
            "original_language": facts.ORIGINAL_LANGUAGES.get(title, "en"),
            "budget": budget,
            "revenue": revenue,
            "rating": rating,
            "genres": [{"id": genre_ids.setdefault(g, 12 + 6 * len(genre_ids)), "name": g} for g in genres],
            "oscar_awards": [],
            "cast": [
                {
                    "name": name,
                    "id": people[name]["id"],
                    "character": facts.CHARACTERS.get((title, name), ""),
                    "gender": 1 if name in facts.ACTRESSES else 2,
                    "order": order,
                }
                for order, name in enumerate(cast)
            ],
            "crew": [{"name": name, "id": people[name]["id"], "job": job} for name, job in crew],
        }
    awards = [formats.oscar_award(*award) for award in sorted(facts.OSCARS, key=lambda award: award[0])]
    # one record per normalised key: a later film of the same normalised title wins
    formats.write_movie_dbs(root, people, movies, awards)


# --- finance ------------------------------------------------------------------------------------------


def _trading_days(first: dt.date, last: dt.date, facts: Facts) -> list[dt.date]:
    days = (first + dt.timedelta(days=n) for n in range((last - first).days + 1))
    return [day for day in days if day.weekday() < 5 and day.isoformat() not in facts.MARKET_HOLIDAYS]


def _walk(
    ticker: str, anchor: float, days: list[dt.date], rng: random.Random, facts: Facts
) -> dict[str, dict[str, Any]]:
    """Daily bars walked backwards from the anchor close on the last day; pinned bars replace the walk
    where they exist, and bounded spans clamp it."""
    pinned = facts.PINNED_BARS.get(ticker, {})
    bounds = [
        (first, last, low, high) for name, first, last, low, high in facts.PRICE_BOUNDS if name == ticker
    ]
    spread = 0.0015 if ticker in facts.CALM_TICKERS else 0.012
    base_volume = rng.randint(20_000, 3_000_000) if ticker not in ("MSFT", "AAPL", "MET") else 25_000_000
    bars: dict[str, dict[str, Any]] = {}
    close = anchor
    for day in reversed(days):
        key = day.isoformat()
        if key in pinned:
            bars[key] = formats.price_bar(*pinned[key])
        else:
            open_ = close * (1 + rng.gauss(0, spread / 2))
            high = max(open_, close) * (1 + abs(rng.gauss(0, spread / 2)))
            low = min(open_, close) * (1 - abs(rng.gauss(0, spread / 2)))
            for first, last, floor, cap in bounds:
                if first <= key <= last:
                    open_, close = (min(max(value, floor), cap) for value in (open_, close))
                    high, low = min(max(high, open_, close), cap), max(min(low, open_, close), floor)
            bars[key] = formats.price_bar(open_, high, low, close, base_volume * rng.uniform(0.6, 1.6))
        close = bars[key]["Open"] * (1 + rng.gauss(0, spread / 3))  # the previous day's close, near this open
    return bars


def _down_days(
    bars: dict[str, dict[str, Any]], days: list[dt.date], rng: random.Random, facts: Facts
) -> None:
    """The spans of DOWN_DAYS: each day opens at the close before it and closes lower on the listed days,
    higher on the others, so that "closed lower" reads the same against the open or the close before."""
    for ticker_bars, (first, last, start_close, down) in (
        (bars, facts.DOWN_DAYS[t]) for t in facts.DOWN_DAYS
    ):
        close = start_close
        ticker_bars[first] = {
            **ticker_bars[first],
            "Close": start_close,
            "High": max(ticker_bars[first]["High"], start_close),
            "Low": min(ticker_bars[first]["Low"], start_close),
        }
        for day in (d.isoformat() for d in days if first < d.isoformat() <= last):
            move = rng.uniform(0.004, 0.03) * (-1 if day in down else 1)
            open_, new_close = close, round(close * (1 + move), 2)
            if new_close == open_:
                new_close = round(open_ + (-0.01 if day in down else 0.01), 2)
            high, low = (
                max(open_, new_close) * (1 + rng.uniform(0, 0.01)),
                min(open_, new_close) * (1 - rng.uniform(0, 0.01)),
            )
            ticker_bars[day] = formats.price_bar(open_, high, low, new_close, rng.randint(600_000, 2_400_000))
            close = new_close


def _minute_bars(daily: dict[str, dict[str, Any]], rng: random.Random) -> dict[str, dict[str, Any]]:
    """One-minute bars 09:30-15:59 of the last five trading days, drifting from each day's open to close."""
    bars: dict[str, dict[str, Any]] = {}
    for key in sorted(daily)[-5:]:
        day_bar, price = daily[key], daily[key]["Open"]
        for minute in range(390):
            stamp = dt.datetime.fromisoformat(key) + dt.timedelta(hours=9, minutes=30 + minute)
            target = day_bar["Open"] + (day_bar["Close"] - day_bar["Open"]) * (minute + 1) / 390
            close = min(max(target * (1 + rng.gauss(0, 0.0008)), day_bar["Low"]), day_bar["High"])
            bars[f"{stamp:%Y-%m-%d %H:%M}:00 EST"] = formats.price_bar(
                price, max(price, close), min(price, close), close, rng.randint(200, 40_000)
            )
            price = close
    return bars


def _write_finance(root: Path, facts: Facts) -> None:
    rng = random.Random(SEED)
    last = dt.date.fromisoformat(facts.LAST_TRADING_DAY)
    days = _trading_days(last - dt.timedelta(days=365), last, facts)
    names = [(name, ticker) for ticker, (name, _, _) in facts.COMPANIES.items()]
    names += [(name, ticker) for ticker, name in facts.EXTRA_COMPANY_NAMES.items()]
    formats.write_company_names(root, names)
    tables = formats.FinanceTables()
    for ticker, (name, anchor, info) in facts.COMPANIES.items():
        bars = _walk(ticker, anchor, days, rng, facts)
        if ticker in facts.DOWN_DAYS:
            _down_days(bars, days, rng, facts)
        daily = {key: bars[key] for key in sorted(bars)}
        tables.price[ticker] = {f"{key} 00:00:00 EST": bar for key, bar in daily.items()}
        tables.detailed_price[ticker] = _minute_bars(daily, rng)
        tables.dividend[ticker] = {
            f"{day} 00:00:00 EST": amount for day, amount in facts.DIVIDENDS.get(ticker, {}).items()
        }
        cap = facts.MARKET_CAPS.get(ticker, round(anchor * rng.randint(20, 900) * 1_000_000, 2))
        tables.marketcap[ticker] = cap
        tables.info[ticker] = {
            "symbol": ticker,
            "longName": name,
            "currency": "USD",
            "marketCap": cap,
            "previousClose": daily[sorted(daily)[-1]]["Close"],
            **info,
        }
    formats.write_finance_tables(root, tables)


# --- music --------------------------------------------------------------------------------------------


def _chart_entries(facts: Facts) -> dict[str, list[str]]:
    """Chart date -> songs in rank order (a run at number one fills rank 1 only)."""
    charts: dict[str, list[str]] = {}
    for first, weeks, song in facts.NUMBER_ONE_RUNS:
        for week in range(weeks):
            day = (dt.date.fromisoformat(first) + dt.timedelta(weeks=week)).isoformat()
            if day in charts:
                raise ValueError(f"two number ones on {day}: {charts[day][0]} and {song}")
            charts[day] = [song]
    charts.update(facts.HOT100_TOPS)
    return dict(sorted(charts.items()))


def _write_music(root: Path, facts: Facts) -> None:
    rng = random.Random(SEED + 1)
    artists, works, songs, filler_artists, filler_pairs = music_tables(
        facts.ARTISTS, facts.SONGS, rng, (FILLER_ARTISTS, FILLER_SONGS), (1995, 2023)
    )
    filler_songs = [song for song, _ in filler_pairs]

    charts = {
        date: [(song, facts.SONGS[song][0]) for song in chart]
        for date, chart in _chart_entries(facts).items()
    }

    grammy_rows = list(facts.GRAMMYS)
    for year in range(1990, 2009):  # earlier winners, invented
        grammy_rows.append(
            (
                year,
                "Best New Artist",
                filler_artists[year % len(filler_artists)],
                filler_artists[year % len(filler_artists)],
                None,
            )
        )
        song = filler_songs[year % len(filler_songs)]
        grammy_rows.append(
            (year, "Song Of The Year", song, songs[song]["author"], f"{songs[song]['author']}, songwriter")
        )
    formats.write_music_pickles(root, artists, songs, works, grammy_rows, charts)


# --- NBA ----------------------------------------------------------------------------------------------

ABBREVIATIONS = {name: abbreviation for abbreviation, name in NBA_TEAMS}
TEAM_NAMES = list(ABBREVIATIONS)


def _days(first: str, last: str) -> list[str]:
    start, end = dt.date.fromisoformat(first), dt.date.fromisoformat(last)
    return [(start + dt.timedelta(days=n)).isoformat() for n in range((end - start).days + 1)]


def _constrained(team: str, day: str, facts: Facts) -> bool:
    return (team, day[:7]) in facts.NBA_TEAM_MONTHS


def _team_month_games(
    busy: dict[str, set[str]], rng: random.Random, facts: Facts, earlier: list[tuple[str, str, str, int, int]]
) -> list[tuple[str, str, str, int, int]]:
    """The games of NBA_TEAM_MONTHS: the listed teams beat the team once each, it wins the others
    against teams free that day; home losses as given, and the month's points in all, counting the
    team's games of the month already fixed (`earlier`, a hand-written game or one of an earlier entry)."""
    games: list[tuple[str, str, str, int, int]] = []
    for (team, month), spec in facts.NBA_TEAM_MONTHS.items():
        year, number = int(month[:4]), int(month[5:])
        last_day = (dt.date(year + number // 12, number % 12 + 1, 1) - dt.timedelta(days=1)).day
        days = [
            f"{month}-{d:02d}"
            for d in range(1, last_day + 1)
            if f"{month}-{d:02d}" not in busy.get(team, set())
        ]
        played = sorted(rng.sample(days, spec["games"]))
        losses = list(spec["beaten_by"])
        rng.shuffle(losses)
        home_losses = spec.get("home_losses", (len(losses) + 1) // 2)
        outcomes = ["L"] * len(losses) + ["W"] * (spec["games"] - len(losses))
        rng.shuffle(outcomes)
        loss_number = win_number = 0
        rows = []
        for position, day in enumerate(played):
            free_losses = [t for t in losses if day not in busy.get(t, set())]
            if outcomes[position] == "L" and not free_losses:
                # every team left to beat it plays that day: the loss moves to the day of a later win
                later = outcomes.index("W", position + 1)
                outcomes[position], outcomes[later] = "W", "L"
            if outcomes[position] == "L":
                opponent = free_losses[0]
                losses.remove(opponent)
                home = loss_number < home_losses
                loss_number += 1
                own = rng.randint(92, 118)
                other = own + rng.randint(2, 14)
            else:
                free = [
                    t
                    for t in TEAM_NAMES
                    if t != team
                    and day not in busy.get(t, set())
                    and not _constrained(t, day, facts)
                    and t not in spec["beaten_by"]
                ]
                opponent = rng.choice(free)
                home = win_number % 2 == 0
                win_number += 1
                other = rng.randint(92, 118)
                own = other + rng.randint(2, 14)
            busy.setdefault(team, set()).add(day)
            busy.setdefault(opponent, set()).add(day)
            rows.append([day, team, opponent, home, own, other])
        if "points" in spec:
            _adjust_points(rows, spec["points"] - _month_points(team, month, [*earlier, *games]))
        for day, _, opponent, home, own, other in rows:
            games.append((day, team, opponent, own, other) if home else (day, opponent, team, other, own))
    return games


def _month_points(team: str, month: str, games: list[tuple[str, str, str, int, int]]) -> int:
    """The team's points in its games of `month` among `games` (date, home, away, home and away points)."""
    return sum(
        home_points if home == team else away_points
        for day, home, away, home_points, away_points in games
        if day.startswith(month) and team in (home, away)
    )


def _adjust_points(rows: list[list], target: int) -> None:
    """Shift the team's scores (index 4) until they add up to `target`, keeping every game's outcome."""
    diff = target - sum(row[4] for row in rows)
    while diff:
        moved = False
        for row in rows:
            won = row[4] > row[5]
            step = 1 if diff > 0 else -1
            new = row[4] + step
            if (new > row[5]) == won and new != row[5] and 80 <= new <= 140:
                row[4], diff, moved = new, diff - step, True
                if not diff:
                    break
        if not moved:
            raise ValueError(f"cannot reach {target} points")


def _schedule(rng: random.Random, facts: Facts) -> list[tuple[str, str, str, int, int]]:
    """(date, home, away, home points, away points) of every game: the fixed ones, the team-months,
    and seeded filler for the other teams of each season day."""
    busy: dict[str, set[str]] = {}
    for team, day in facts.NBA_REST_DAYS:
        busy.setdefault(team, set()).add(day)
    games = list(facts.NBA_GAMES)
    for day, home, away, *_ in games:
        busy.setdefault(home, set()).add(day)
        busy.setdefault(away, set()).add(day)
    games += _team_month_games(busy, rng, facts, games)
    for first, last, _ in facts.NBA_SEASONS:
        for day in _days(first, last):
            free = [
                t for t in TEAM_NAMES if day not in busy.get(t, set()) and not _constrained(t, day, facts)
            ]
            rng.shuffle(free)
            for home, away in list(zip(free[0::2], free[1::2]))[: rng.randint(3, 6)]:
                home_points, away_points = rng.randint(92, 131), rng.randint(90, 128)
                games.append((day, home, away, home_points + (home_points == away_points), away_points))
    _more_wins("Denver Nuggets", "Detroit Pistons", "2022", games, facts)
    return sorted(games)


def _wins(team: str, year: str, games: list) -> int:
    return sum(
        1 for day, home, away, hp, ap in games if day.startswith(year) and (home, away)[hp < ap] == team
    )


def _more_wins(ahead: str, behind: str, year: str, games: list, facts: Facts) -> None:
    """Flip filler results until `ahead` won more games than `behind` in `year` (the seeded schedule
    decides nothing the questions ask)."""
    for position, (day, home, away, hp, ap) in enumerate(games):
        if _wins(ahead, year, games) > _wins(behind, year, games) + 10:
            return
        fixed = (
            (day, home, away, hp, ap) in facts.NBA_GAMES
            or _constrained(home, day, facts)
            or _constrained(away, day, facts)
        )
        if day.startswith(year) and not fixed and ahead in (home, away) and (home, away)[hp < ap] != ahead:
            games[position] = (day, home, away, ap, hp)


SEASON_TYPES = {"1": "Pre Season", "2": "Regular Season", "4": "Playoffs"}


def _season_id(day: str, facts: Facts) -> str:
    """ "22022": the kind of game (1 pre-season, 2 regular season, 4 playoffs) and the season's first year."""
    date = dt.date.fromisoformat(day)
    start = date.year if date.month >= 9 else date.year - 1
    regular = any(first <= day <= last for first, last, _ in facts.NBA_SEASONS) or date.month in (
        11,
        12,
        1,
        2,
        3,
    )
    kind = "2" if regular else "4" if date.month in (4, 5, 6) else "1"
    return f"{kind}{start}"


def _play_by_play(
    game_id: str, day: str, home: str, away: str, points: dict[str, int], rng: random.Random, facts: Facts
) -> list[dict]:
    """The asked players' events (NBA_PLAYER_EVENTS) among seeded scoring events of both rosters that add
    up to the final score."""
    pinned = [
        (team, player, text, value)
        for d, team, player, text, value in facts.NBA_PLAYER_EVENTS
        if d == day and team in (home, away)
    ]
    filler = []
    for team in (home, away):
        roster = facts.NBA_ROSTERS[(day, team)]
        remaining = points[team] - sum(value for t, _, _, value in pinned if t == team)
        while remaining > 0:
            value = min(remaining, rng.choice([2, 2, 2, 3, 1]))
            player = rng.choice(roster[1:])
            surname = player.split()[-1]
            text = {
                1: f"{surname} Free Throw 1 of 1",
                2: f"{surname} 14' Jump Shot",
                3: f"{surname} 25' 3PT Jump Shot",
            }[value]
            filler.append((team, player, text, value))
            remaining -= value
    rng.shuffle(filler)
    events = list(filler)
    for offset, event in enumerate(pinned):  # spread through the game, in their order
        events.insert(min(len(events), (offset + 1) * len(filler) // (len(pinned) + 1) + offset), event)
    rows, score = [], {home: 0, away: 0}
    for number, (team, player, text, value) in enumerate(events, start=1):
        score[team] += value
        period = min(4, 1 + 4 * (number - 1) // len(events))
        seconds = 720 - int(720 * ((4 * (number - 1) / len(events)) % 1))
        rows.append(
            {
                "game_id": game_id,
                "eventnum": number * 2,
                "eventmsgtype": 3 if "Free Throw" in text else 1 if value else 2,
                "period": period,
                "wctimestring": "",
                "pctimestring": f"{seconds // 60}:{seconds % 60:02d}",
                "homedescription": text if team == home else None,
                "neutraldescription": None,
                "visitordescription": text if team == away else None,
                "score": f"{score[away]} - {score[home]}" if value else None,
                "scoremargin": str(score[home] - score[away]) if value else None,
                "player1_name": player,
                "player1_team_abbreviation": ABBREVIATIONS[team],
                "player1_team_nickname": team.rsplit(" ", 1)[-1],
                "player2_name": None,
                "player3_name": None,
            }
        )
    return rows


def _write_nba(root: Path, facts: Facts) -> None:
    rng = random.Random(SEED + 2)
    rows, events, numbers = [], [], {}
    for day, home, away, home_points, away_points in _schedule(rng, facts):
        season = _season_id(day, facts)
        numbers[season] = numbers.get(season, 0) + 1
        game_id = f"00{season[0]}{season[-2:]}{numbers[season]:05d}"
        rows.append(
            nba_game_row(
                game_id, day, home, away, home_points, away_points, rng, season, SEASON_TYPES[season[0]]
            )
        )
        if (day, home) in facts.NBA_ROSTERS:
            events += _play_by_play(
                game_id, day, home, away, {home: home_points, away: away_points}, rng, facts
            )
    formats.write_nba_sqlite(root, rows, events)


# --- soccer -------------------------------------------------------------------------------------------


def _week(day: str) -> tuple[int, int]:
    return dt.date.fromisoformat(day).isocalendar()[:2]


def _rounds(league: str, teams: list[str], rng: random.Random, facts: Facts) -> list[tuple[str, str, str]]:
    """(date, home, away) of a double round robin on Saturdays but those of a break; a team with a
    hand-written game in a week loses its round game of that week."""
    order = list(teams)
    rng.shuffle(order)
    size = len(order)
    saturdays = _saturdays(facts.SOCCER_FIRST_MATCHDAY, "2024-06-01")
    dates = [day for day in saturdays if day not in facts.SOCCER_BREAKS][: 2 * (size - 1)]
    fixed = [(date, home, away) for lg, date, home, away, *_ in facts.SOCCER_GAMES if lg == league]
    booked = {(team, _week(date)) for date, home, away in fixed for team in (home, away)}
    games = []
    for number, date in enumerate(dates):
        rotated = [order[0]] + order[1:][-number % (size - 1) :] + order[1:][: -number % (size - 1)]
        for i in range(size // 2):
            home, away = rotated[i], rotated[size - 1 - i]
            if number % 2:
                home, away = away, home
            if (home, _week(date)) not in booked and (away, _week(date)) not in booked:
                games.append((date, home, away))
    return sorted(games + fixed)


def _matchweek(date: str, facts: Facts) -> int:
    """The round of a game: weeks (Saturday to Friday) since the first matchday, breaks left out."""
    weeks = (dt.date.fromisoformat(date) - dt.date.fromisoformat(facts.SOCCER_FIRST_MATCHDAY)).days // 7
    return weeks + 1 - sum(1 for day in facts.SOCCER_BREAKS if day <= date)


def _write_soccer(root: Path, facts: Facts) -> None:
    rng = random.Random(SEED + 3)
    fixed = {
        (lg, date, home, away): (hg, ag, notes) for lg, date, home, away, hg, ag, notes in facts.SOCCER_GAMES
    }
    index, rows = [], []
    for league, teams in facts.SOCCER_LEAGUES.items():
        for date, home, away in _rounds(league, teams, rng, facts):
            played = date <= facts.SOCCER_DATA_DAY
            goals = fixed.get((league, date, home, away))
            if goals is None:
                goals = (
                    (rng.choice([0, 1, 1, 2, 2, 3]), rng.choice([0, 0, 1, 1, 2]), None)
                    if played
                    else (None, None, None)
                )
            home_goals, away_goals, notes = goals
            game = f"{date} {home}-{away}"
            for team, opponent, venue, scored, conceded in (
                (home, away, "Home", home_goals, away_goals),
                (away, home, "Away", away_goals, home_goals),
            ):
                result = (
                    None
                    if scored is None
                    else "W"
                    if scored > conceded
                    else "L"
                    if scored < conceded
                    else "D"
                )
                index.append((league, facts.SOCCER_SEASON, team, game))
                rows.append(
                    {
                        "date": pd.Timestamp(date),
                        "time": dt.time(*rng.choice([(12, 30), (15, 0), (17, 30), (20, 0)])),
                        "round": f"Matchweek {_matchweek(date, facts)}",
                        "day": dt.date.fromisoformat(date).strftime("%a"),
                        "venue": venue,
                        "result": result,
                        "GF": None if scored is None else str(scored),
                        "GA": None if conceded is None else str(conceded),
                        "opponent": opponent,
                        "xG": None if scored is None else round(rng.uniform(0.3, 2.9), 1),
                        "xGA": None if scored is None else round(rng.uniform(0.3, 2.9), 1),
                        "Poss": None if scored is None else float(rng.randint(30, 70)),
                        "Attendance": None if scored is None else float(rng.randint(11_000, 74_000)),
                        "Captain": None if scored is None else facts.SOCCER_CAPTAINS.get(team),
                        "Formation": None
                        if scored is None
                        else rng.choice(["4-3-3", "4-2-3-1", "3-4-3", "4-4-2"]),
                        "Referee": None
                        if scored is None
                        else rng.choice(
                            [
                                "Anthony Taylor",
                                "Clément Turpin",
                                "Jesús Gil Manzano",
                                "Michael Oliver",
                                "François Letexier",
                            ]
                        ),
                        "match_report": f"/en/matches/{zlib.crc32(game.encode()):08x}/Match-Report",
                        "Notes": notes,
                    }
                )
    hand_written = {(league, f"{date} {home}-{away}") for league, date, home, away in fixed}
    for gap in facts.SOCCER_TABLE_GAPS:
        _fix_table_gap(index, rows, gap, hand_written)
    formats.write_soccer_match_stats(root, index, rows)


POINTS = {"W": 3, "D": 1, "L": 0}
OTHER_SIDE = {"W": "L", "D": "D", "L": "W"}
SCORE = {"W": ("2", "0"), "D": ("1", "1"), "L": ("0", "2")}  # a changed result's goals for and against
# A result moved one step up or down, and what it does to the team's points.
STEPS_UP = {"L": ("D", 1), "D": ("W", 2)}
STEPS_DOWN = {"W": ("D", -2), "D": ("L", -1)}


def _fix_table_gap(
    index: list[tuple], rows: list[dict], gap: tuple, hand_written: set[tuple[str, str]]
) -> None:
    """Move seeded results (never a hand-written game's) until, over the games up to the gap's day, its
    leader tops the league and its team trails the leader by exactly the gap's points (SOCCER_TABLE_GAPS):
    the leader wins until it is clear of every team by more than the gap and a game's points, then the
    team's results against others move a step at a time."""
    league, day, leader, team, behind = gap
    games: dict[str, list[int]] = {}
    for position, (row_league, _, _, game) in enumerate(index):
        if row_league == league and game[:10] <= day and rows[position]["result"]:
            games.setdefault(game, []).append(position)

    def table() -> dict[str, int]:
        points: dict[str, int] = {}
        for positions in games.values():
            for position in positions:
                points[index[position][2]] = (
                    points.get(index[position][2], 0) + POINTS[rows[position]["result"]]
                )
        return points

    def own_row(game: str, side: str) -> dict:
        return next(rows[p] for p in games[game] if index[p][2] == side)

    def set_result(game: str, side: str, result: str) -> None:
        for position in games[game]:
            mine = result if index[position][2] == side else OTHER_SIDE[result]
            rows[position].update(result=mine, GF=SCORE[mine][0], GA=SCORE[mine][1])

    def seeded(side: str) -> list[str]:
        return [
            g
            for g in sorted(games)
            if (league, g) not in hand_written and any(index[p][2] == side for p in games[g])
        ]

    for game in seeded(leader):
        points = table()
        if all(points[leader] - value > behind + 3 for name, value in points.items() if name != leader):
            break
        set_result(game, leader, "W")
    against_others = [game for game in seeded(team) if own_row(game, team)["opponent"] != leader]
    for _ in range(4 * len(against_others)):
        points = table()
        missing = points[leader] - behind - points[team]
        if not missing:
            break
        steps = STEPS_UP if missing > 0 else STEPS_DOWN
        moves = [
            (game, *steps[own_row(game, team)["result"]])
            for game in against_others
            if own_row(game, team)["result"] in steps
        ]
        if not moves:
            break
        game, result, _ = min(moves, key=lambda move: abs(missing - move[2]))
        set_result(game, team, result)
    points = table()
    if points[leader] - points[team] != behind or any(
        value >= points[leader] for name, value in points.items() if name != leader
    ):
        raise ValueError(f"cannot set {team} {behind} points behind {leader} in {league} on {day}")


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Build the real-wording KG (with a sealed set's facts).")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--sealed", choices=sorted(SEALED_FACTS), default=None)
    args = parser.parse_args(None if argv is None else list(argv))
    print(build(args.folder, sealed=args.sealed))


if __name__ == "__main__":
    main()
