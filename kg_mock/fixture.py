"""Builds the fixture KG in the official on-disk layout (../shared/docs/CRAG_MOCK_API.md, section 3)
from the hand-written facts in `kg_mock.fixture_data` plus seeded, reproducible filler: a year of daily
prices and five days of one-minute bars per ticker, weekly Hot 100 charts, enough invented artist and
song names for the music index to start (>= 83 each), an NBA season with play-by-play for its last
weeks, and a Premier League season.

    python -m kg_mock.fixture DIR        # writes DIR/open, DIR/movie, DIR/finance, DIR/music, DIR/sports
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import os
import random
import shutil
import tempfile
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from kg_mock import fixture_data as facts
from kg_mock import formats
from kg_mock.search import normalize

SEED = 20240310
FILLER_ARTISTS = 120
FILLER_SONGS = 330
NBA_PLAY_BY_PLAY_FROM = "2024-02-26"


def build(root: Path) -> Path:
    """Write the whole fixture KG under `root` (created if needed); returns `root`."""
    root = Path(root)
    _write_open(root)
    _write_movie(root)
    _write_finance(root)
    _write_music(root)
    _write_nba(root, random.Random(SEED + 2))
    _write_soccer(root, random.Random(SEED + 3))
    return root


def cached_fixture_dir() -> Path:
    """The fixture KG built once into the temp directory (see `cached_build`)."""
    here = Path(__file__)
    sources = [here, Path(facts.__file__), here.with_name("formats.py"), here.with_name("search.py")]
    return cached_build("kg_mock_fixture", build, sources)


def cached_build(prefix: str, builder: Callable[[Path], Path], sources: list[Path]) -> Path:
    """What `builder` writes, built once into the temp directory and keyed by the `sources` it is
    made from; safe to call from parallel processes (each builds into its own folder and the first
    rename wins)."""
    digest = hashlib.sha256(b"".join(path.read_bytes() for path in sources)).hexdigest()[:12]
    target = Path(tempfile.gettempdir()) / f"{prefix}_{digest}"
    if not (target / "complete").exists():
        staging = Path(tempfile.mkdtemp(prefix=f"{prefix}_build_"))
        builder(staging)
        (staging / "complete").write_text("")
        try:
            os.rename(staging, target)
        except OSError:  # another process got there first
            shutil.rmtree(staging, ignore_errors=True)
    return target


# --- open ---------------------------------------------------------------------------------------------


def _write_open(root: Path) -> None:
    entities = [
        (
            name,
            {"summary_text": text, "summary_structured": structured, "raw_mediawiki": "{{Infobox}} " + text},
        )
        for name, (text, structured) in facts.OPEN_ENTITIES.items()
    ]
    formats.write_open_kg(root, entities)


# --- movie --------------------------------------------------------------------------------------------


def _write_movie(root: Path) -> None:
    people = {
        name: {
            "name": name,
            "id": person_id,
            "acted_movies": [],
            "directed_movies": [],
            "birthday": birthday,
            "oscar_awards": [],
        }
        for name, person_id, birthday in facts.PEOPLE
    }
    genre_ids: dict[str, int] = {}
    movies: dict[str, dict[str, Any]] = {}
    for (
        title,
        movie_id,
        release,
        original,
        language,
        budget,
        revenue,
        rating,
        genres,
        cast,
        crew,
    ) in facts.MOVIES:
        movies[title] = {
            "title": title,
            "id": movie_id,
            "release_date": release,
            "original_title": original,
            "original_language": language,
            "budget": budget,
            "revenue": revenue,
            "rating": rating,
            "genres": [{"id": genre_ids.setdefault(g, 10 + 7 * len(genre_ids)), "name": g} for g in genres],
            "oscar_awards": [],
            "cast": [
                {
                    "name": name,
                    "id": people[name]["id"],
                    "character": character,
                    "gender": 1 if name in facts.WOMEN else 2,
                    "order": order,
                }
                for order, (name, character) in enumerate(cast)
            ],
            "crew": [{"name": name, "id": people[name]["id"], "job": job} for name, job in crew],
        }
    awards = [
        formats.oscar_award(year, ceremony, category, nominee, film, won)
        for film, year, ceremony, category, nominee, won in facts.OSCARS
    ]
    formats.write_movie_dbs(root, people, movies, awards)


# --- finance ------------------------------------------------------------------------------------------


def _trading_days(first: dt.date, last: dt.date) -> list[dt.date]:
    return [
        first + dt.timedelta(days=n)
        for n in range((last - first).days + 1)
        if (first + dt.timedelta(days=n)).weekday() < 5
    ]


def _daily_bars(ticker: str, anchor_close: float, rng: random.Random) -> dict[str, dict[str, Any]]:
    """One year of daily bars ending on the last trading day, walked backwards from the anchor close;
    pinned bars replace the walk where they exist."""
    last = dt.date.fromisoformat(facts.LAST_TRADING_DAY)
    days = _trading_days(last - dt.timedelta(days=365), last)
    pinned = {row[0]: row[1:] for row in facts.PINNED_BARS.get(ticker, []) if len(row[0]) == 10}
    base_volume = rng.randint(400_000, 60_000_000)
    bars: dict[str, dict[str, Any]] = {}
    close = anchor_close
    for day in reversed(days):
        key = day.isoformat()
        if key in pinned:
            bars[key] = formats.price_bar(*pinned[key])
            close = pinned[key][3]
        else:
            open_ = close * (1 + rng.gauss(0, 0.006))
            high = max(open_, close) * (1 + abs(rng.gauss(0, 0.008)))
            low = min(open_, close) * (1 - abs(rng.gauss(0, 0.008)))
            bars[key] = formats.price_bar(open_, high, low, close, base_volume * rng.uniform(0.6, 1.6))
        close = bars[key]["Open"] * (1 + rng.gauss(0, 0.004))  # the previous day's close, near this open
    return {f"{day} 00:00:00 EST": bars[day] for day in sorted(bars)}


def _minute_bars(
    ticker: str, daily: dict[str, dict[str, Any]], rng: random.Random
) -> dict[str, dict[str, Any]]:
    """One-minute bars 09:30-15:59 of the last five trading days, drifting from each day's open to close."""
    pinned = {row[0]: row[1:] for row in facts.PINNED_BARS.get(ticker, []) if len(row[0]) == 16}
    bars: dict[str, dict[str, Any]] = {}
    for key in sorted(daily)[-5:]:
        day, day_bar = key[:10], daily[key]
        minutes = 390
        price = day_bar["Open"]
        for minute in range(minutes):
            stamp = (dt.datetime.fromisoformat(day) + dt.timedelta(hours=9, minutes=30 + minute)).strftime(
                "%Y-%m-%d %H:%M"
            )
            target = day_bar["Open"] + (day_bar["Close"] - day_bar["Open"]) * (minute + 1) / minutes
            close = min(max(target + rng.gauss(0, 0.001) * target, day_bar["Low"]), day_bar["High"])
            if stamp in pinned:
                bars[stamp + ":00 EST"] = formats.price_bar(*pinned[stamp])
                price = pinned[stamp][3]
                continue
            high, low = max(price, close) * 1.0004, min(price, close) * 0.9996
            bars[stamp + ":00 EST"] = formats.price_bar(price, high, low, close, rng.randint(800, 40_000))
            price = close
    return bars


def _write_finance(root: Path) -> None:
    rng = random.Random(SEED)
    names = [(name, ticker) for ticker, (name, _, _) in facts.COMPANIES.items()]
    names += [(name, ticker) for ticker, name in facts.EXTRA_COMPANY_NAMES.items()]
    formats.write_company_names(root, names)
    tables = formats.FinanceTables()
    for ticker, (_, anchor_close, info) in facts.COMPANIES.items():
        tables.price[ticker] = _daily_bars(ticker, anchor_close, rng)
        tables.detailed_price[ticker] = _minute_bars(ticker, tables.price[ticker], rng)
        tables.dividend[ticker] = {
            f"{day} 00:00:00 EST": amount for day, amount in facts.DIVIDENDS.get(ticker, {}).items()
        }
        tables.marketcap[ticker] = facts.MARKET_CAPS[ticker]
        tables.info[ticker] = {"symbol": ticker, "currency": "USD", **info}
    formats.write_finance_tables(root, tables)


# --- music --------------------------------------------------------------------------------------------

_SYLLABLES = [
    "ka",
    "lo",
    "mir",
    "ve",
    "tan",
    "su",
    "ri",
    "bel",
    "no",
    "dra",
    "fen",
    "zo",
    "ul",
    "pa",
    "ser",
    "qui",
    "mo",
    "lin",
    "thar",
    "e",
    "gos",
    "ny",
    "var",
    "ith",
    "bo",
    "cel",
    "da",
    "rum",
    "sha",
    "ko",
]


def _invented_names(rng: random.Random, count: int, taken: set[str], words: tuple[int, int]) -> list[str]:
    """`count` names of invented words that share no word with each other or with `taken` (so every
    word stays rare enough for the music index)."""
    used = {word for name in taken for word in normalize(name).split()}
    names: list[str] = []
    while len(names) < count:
        parts = [
            ("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))))
            for _ in range(rng.randint(*words))
        ]
        if any(part in used for part in parts) or len(set(parts)) < len(parts):
            continue
        used.update(parts)
        names.append(" ".join(part.capitalize() for part in parts))
    return names


def _saturdays(first: str, last: str) -> list[str]:
    day, end = dt.date.fromisoformat(first), dt.date.fromisoformat(last)
    days = []
    while day <= end:
        days.append(day.isoformat())
        day += dt.timedelta(days=7)
    return days


def _hot100(rng: random.Random, filler_songs: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Weekly charts: list per chart date of 100 (song, artist) pairs, rank order. The hand-written runs
    keep their ranks; filler songs rise and fall on seeded popularity curves around them."""
    dates = _saturdays(facts.CHART_FIRST_DATE, facts.CHART_LAST_DATE)
    fixed: list[dict[int, tuple[str, str]]] = [{} for _ in dates]
    for song, (first, ranks) in facts.CHART_RUNS.items():
        start = dates.index(first)
        for offset, rank in enumerate(ranks):
            if rank is not None:
                if rank in fixed[start + offset]:
                    raise ValueError(
                        f"{song} and {fixed[start + offset][rank][0]} share rank {rank} "
                        f"on {dates[start + offset]}"
                    )
                fixed[start + offset][rank] = (song, facts.SONGS[song][0])
    curves = []
    for song, artist in filler_songs:
        debut = rng.randint(-25, len(dates) - 1)
        curves.append((song, artist, debut, rng.uniform(0.3, 1.0), rng.randint(8, 30)))
    charts = []
    for week, positions in enumerate(fixed):
        scored = []
        for song, artist, debut, peak, length in curves:
            age = week - debut
            # Off its run a song scores below every song on its run, the nearer its run the higher.
            score = (
                peak * (1 - abs(age - length / 3) / length)
                if 0 <= age < length
                else -min(abs(age), abs(age - length))
            )
            scored.append((score, song, artist))
        queue = [(song, artist) for _, song, artist in sorted(scored, reverse=True)]
        chart = []
        for rank in range(1, 101):
            chart.append(positions[rank] if rank in positions else queue.pop(0))
        charts.append(chart)
    return charts


def music_tables(
    artist_facts: dict[str, tuple],
    song_facts: dict[str, tuple],
    rng: random.Random,
    filler: tuple[int, int],
    song_years: tuple[int, int],
) -> tuple[dict[str, dict], dict[str, list[str]], dict[str, dict], list[str], list[tuple[str, str]]]:
    """(artists, works, songs, filler artists, filler (song, artist) pairs): the hand-written artists
    `{name: (country, birth, end, members, works)}` and songs `{name: (artist, author, country, date)}`,
    plus `filler` = (artists, songs) invented names, so that the music index starts (>= 83 names each)."""
    artists = {
        name: {"country": country, "birth_date": birth, "end_date": end, "members": members}
        for name, (country, birth, end, members, _) in artist_facts.items()
    }
    works = {name: list(work_list) for name, (*_, work_list) in artist_facts.items()}
    songs = {
        name: {"author": author, "country": country, "date": date}
        for name, (_, author, country, date) in song_facts.items()
    }
    taken = set(artists) | set(songs) | {w for work_list in works.values() for w in work_list}
    filler_artists = _invented_names(rng, filler[0], taken, (1, 2))
    filler_songs = _invented_names(rng, filler[1], taken | set(filler_artists), (1, 3))
    countries = ["US", "GB", "CA", "AU", "SE", "DE", "FR", "KR", "BR", "NG", "JP", "IE"]
    filler_pairs = []
    for position, song in enumerate(filler_songs):
        artist = filler_artists[position % len(filler_artists)]
        filler_pairs.append((song, artist))
        works.setdefault(artist, []).append(song)
        year = rng.randint(*song_years)
        songs[song] = {
            "author": artist,
            "country": rng.choice(countries),
            "date": f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        }
    for artist in filler_artists:
        birth = f"{rng.randint(1960, 2002)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        artists[artist] = {
            "country": rng.choice(countries),
            "birth_date": birth,
            "end_date": None,
            "members": [],
        }
    return artists, works, songs, filler_artists, filler_pairs


def _write_music(root: Path) -> None:
    rng = random.Random(SEED + 1)
    artists, works, songs, filler_artists, filler_pairs = music_tables(
        facts.ARTISTS, facts.SONGS, rng, (FILLER_ARTISTS, FILLER_SONGS), (2021, 2023)
    )
    filler_songs = [song for song, _ in filler_pairs]

    dates = _saturdays(facts.CHART_FIRST_DATE, facts.CHART_LAST_DATE)
    charts = dict(zip(dates, _hot100(rng, filler_pairs)))

    grammy_rows = list(facts.GRAMMYS)
    for year in range(1990, 2020):  # filler winners where the hand-written table has none
        for category, pool in (
            ("Best New Artist", filler_artists),
            ("Song Of The Year", filler_songs),
            ("Album Of The Year", filler_songs[::-1]),
        ):
            if not any(row[0] == year and row[1] == category for row in grammy_rows):
                nominee = pool[(year * 7 + len(category)) % len(pool)]
                artist = (
                    nominee if category == "Best New Artist" else filler_pairs[filler_songs.index(nominee)][1]
                )
                grammy_rows.append(
                    (
                        year,
                        category,
                        nominee,
                        artist,
                        None if category == "Best New Artist" else f"{artist}, songwriter",
                    )
                )
    formats.write_music_pickles(root, artists, songs, works, grammy_rows, charts)


# --- sports -------------------------------------------------------------------------------------------


def _nba_schedule(rng: random.Random) -> list[tuple[str, str, str, str, int, int]]:
    """(game id, date, home, away, home points, away points): the hand-written games plus seeded ones,
    each team playing about every other day."""
    teams = [name for _, name in facts.NBA_TEAMS]
    first, last = (dt.date.fromisoformat(day) for day in facts.NBA_SEASON)
    fixed_by_date: dict[str, list[tuple]] = {}
    for game in facts.NBA_GAMES:
        fixed_by_date.setdefault(game[1], []).append(game)
    fixed_ids = {game[0] for game in facts.NBA_GAMES}
    games: list[tuple[str, str, str, str, int, int]] = []
    next_number = 1
    day = first
    while day <= last:
        date = day.isoformat()
        day_games = list(fixed_by_date.get(date, []))
        busy = {team for game in day_games for team in game[2:4]}
        free = [team for team in teams if team not in busy]
        rng.shuffle(free)
        pairs = rng.randint(3, 6)
        for home, away in zip(free[0 : 2 * pairs : 2], free[1 : 2 * pairs : 2]):
            while f"00223{next_number:05d}" in fixed_ids:
                next_number += 1
            home_points, away_points = rng.randint(92, 131), rng.randint(90, 128)
            if home_points == away_points:
                home_points += 3
            day_games.append((f"00223{next_number:05d}", date, home, away, home_points, away_points))
            next_number += 1
        games += sorted(day_games, key=lambda game: game[0])
        day += dt.timedelta(days=1)
    return games


def _split(total: int, parts: int, rng: random.Random) -> list[int]:
    cuts = sorted(rng.sample(range(1, total), parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total])]


def _box_score(side: str, points: int, rng: random.Random) -> dict[str, Any]:
    fg3m = rng.randint(8, 18)
    ftm = rng.randint(10, 24)
    two_point_points = points - ftm - 3 * fg3m
    if two_point_points % 2:
        ftm, two_point_points = ftm + 1, two_point_points - 1
    fgm = two_point_points // 2 + fg3m
    fga, fg3a, fta = fgm + rng.randint(40, 50), fg3m + rng.randint(18, 26), ftm + rng.randint(2, 8)
    oreb, dreb = rng.randint(6, 14), rng.randint(30, 40)
    return {
        f"fgm_{side}": float(fgm),
        f"fga_{side}": float(fga),
        f"fg_pct_{side}": round(fgm / fga, 3),
        f"fg3m_{side}": float(fg3m),
        f"fg3a_{side}": float(fg3a),
        f"fg3_pct_{side}": round(fg3m / fg3a, 3),
        f"ftm_{side}": float(ftm),
        f"fta_{side}": float(fta),
        f"ft_pct_{side}": round(ftm / fta, 3),
        f"oreb_{side}": float(oreb),
        f"dreb_{side}": float(dreb),
        f"reb_{side}": float(oreb + dreb),
        f"ast_{side}": float(rng.randint(18, 32)),
        f"stl_{side}": float(rng.randint(4, 11)),
        f"blk_{side}": float(rng.randint(2, 9)),
        f"tov_{side}": float(rng.randint(8, 18)),
        f"pf_{side}": float(rng.randint(14, 24)),
        f"pts_{side}": float(points),
    }


def _rosters(rng: random.Random) -> dict[str, list[str]]:
    first = [
        "Jalen",
        "Marcus",
        "Tyrese",
        "Devin",
        "Luka",
        "Andre",
        "Kofi",
        "Isaiah",
        "Malik",
        "Dario",
        "Evan",
        "Nikola",
        "Trey",
        "Cam",
        "Jaden",
        "Xavier",
        "Omar",
        "Reggie",
        "Tariq",
        "Gabe",
    ]
    last = [
        "Holloway",
        "Brandt",
        "Okoye",
        "Sorensen",
        "Vidal",
        "Maddox",
        "Kinsella",
        "Abara",
        "Petrovic",
        "Lindgren",
        "Osei",
        "Castellan",
        "Whitlock",
        "Dunmore",
        "Achebe",
        "Varga",
        "Redmond",
        "Sato",
        "Quarles",
        "Ferreira",
        "Nwosu",
        "Halvorsen",
        "Bellamy",
        "Ostrowski",
        "Tatum-Reed",
    ]
    rosters = {}
    for _, team in facts.NBA_TEAMS:
        names = list(facts.NBA_PLAYERS.get(team, []))
        while len(names) < 8:
            name = f"{rng.choice(first)} {rng.choice(last)}"
            if name not in names:
                names.append(name)
        rosters[team] = names
    return rosters


def _play_by_play(
    game: tuple, rosters: dict[str, list[str]], abbreviations: dict[str, str], rng: random.Random
) -> list[dict[str, Any]]:
    """Scoring events (and a few misses) that add up to the final score; the roster's first player
    scores the most."""
    game_id, _, home, away, home_points, away_points = game
    opening = [
        ((side, team, player, value))
        for player, value in facts.NBA_OPENING_SCORES.get(game_id, [])
        for side, team in (("home", home), ("away", away))
        if player in rosters[team]
    ]
    buckets = []
    for side, team, points in (("home", home, home_points), ("away", away, away_points)):
        weights = [6, 4, 3, 3, 2, 2, 1, 1]
        remaining = points - sum(value for opening_side, _, _, value in opening if opening_side == side)
        while remaining > 0:
            value = min(remaining, rng.choice([2, 2, 2, 3, 1]))
            player = rng.choices(rosters[team], weights=weights)[0]
            buckets.append((side, team, player, value))
            remaining -= value
    rng.shuffle(buckets)
    buckets = opening + buckets
    events, scores = [], {"home": 0, "away": 0}
    for number, (side, team, player, value) in enumerate(buckets, start=1):
        scores[side] += value
        period = min(4, 1 + 4 * (number - 1) // len(buckets))
        seconds = 720 - int(720 * ((4 * (number - 1) / len(buckets)) % 1))
        surname = player.split()[-1]
        description = {
            1: f"{surname} Free Throw 1 of 1 ({scores[side]} PTS)",
            2: f"{surname} 12' Jump Shot",
            3: f"{surname} 26' 3PT Jump Shot",
        }[value]
        events.append(
            {
                "game_id": game_id,
                "eventnum": number * 2,
                "eventmsgtype": 3 if value == 1 else 1,
                "eventmsgactiontype": 10 if value == 1 else 1,
                "period": period,
                "wctimestring": "",
                "pctimestring": f"{seconds // 60}:{seconds % 60:02d}",
                "homedescription": description if side == "home" else None,
                "neutraldescription": None,
                "visitordescription": description if side == "away" else None,
                "score": f"{scores['away']} - {scores['home']}",
                "scoremargin": str(scores["home"] - scores["away"]),
                "person1type": 4.0 if side == "home" else 5.0,
                "player1_id": float(zlib.crc32(player.encode()) % 1_000_000),
                "player1_name": player,
                "player1_team_id": _team_id(team),
                "player1_team_city": team.rsplit(" ", 1)[0],
                "player1_team_nickname": team.rsplit(" ", 1)[-1],
                "player1_team_abbreviation": abbreviations[team],
                "player2_name": None,
                "player3_name": None,
                "video_available_flag": 1,
            }
        )
    return events


def _team_id(team: str) -> str:
    return "16106127" + str([name for _, name in facts.NBA_TEAMS].index(team)).zfill(2)


def _write_nba(root: Path, rng: random.Random) -> None:
    abbreviations = {name: abbreviation for abbreviation, name in facts.NBA_TEAMS}
    rosters = _rosters(rng)
    rows, events = [], []
    for game in _nba_schedule(rng):
        game_id, date, home, away, home_points, away_points = game
        rows.append(nba_game_row(game_id, date, home, away, home_points, away_points, rng))
        if date >= NBA_PLAY_BY_PLAY_FROM or game_id in {g[0] for g in facts.NBA_GAMES}:
            events += _play_by_play(game, rosters, abbreviations, rng)
    formats.write_nba_sqlite(root, rows, events)


def nba_game_row(
    game_id: str,
    date: str,
    home: str,
    away: str,
    home_points: int,
    away_points: int,
    rng: random.Random,
    season_id: str = "22023",
    season_type: str = "Regular Season",
) -> dict[str, Any]:
    """A row of the `game` table, with seeded box scores that add up to the points."""
    abbreviations = {name: abbreviation for abbreviation, name in facts.NBA_TEAMS}
    home_won = home_points > away_points
    row = {
        "season_id": season_id,
        "team_id_home": _team_id(home),
        "team_abbreviation_home": abbreviations[home],
        "team_name_home": home,
        "game_id": game_id,
        "game_date": f"{date} 00:00:00",
        "matchup_home": f"{abbreviations[home]} vs. {abbreviations[away]}",
        "wl_home": "W" if home_won else "L",
        "min": 240,
    }
    row.update(_box_score("home", home_points, rng))
    row.update(
        {
            "plus_minus_home": home_points - away_points,
            "video_available_home": 1,
            "team_id_away": _team_id(away),
            "team_abbreviation_away": abbreviations[away],
            "team_name_away": away,
            "matchup_away": f"{abbreviations[away]} @ {abbreviations[home]}",
            "wl_away": "L" if home_won else "W",
        }
    )
    row.update(_box_score("away", away_points, rng))
    row.update(
        {"plus_minus_away": away_points - home_points, "video_available_away": 1, "season_type": season_type}
    )
    return row


def _soccer_rounds(rng: random.Random) -> list[tuple[str, list[tuple[str, str]]]]:
    """(matchday, [(home, away)]) by the circle method, with the hand-written games swapped in."""
    teams = list(facts.SOCCER_TEAMS)
    rng.shuffle(teams)
    dates = _saturdays(facts.SOCCER_FIRST_MATCHDAY, facts.CHART_LAST_DATE)
    rounds = []
    for number, date in enumerate(dates):
        rotated = [teams[0]] + teams[1:][-number % 19 :] + teams[1:][: -number % 19]
        pairs = [
            (rotated[i], rotated[19 - i]) if number % 2 else (rotated[19 - i], rotated[i]) for i in range(10)
        ]
        for fixed_date, home, away, *_ in facts.SOCCER_GAMES:
            if fixed_date != date:
                continue
            displaced = [
                team
                for pair in pairs
                if home in pair or away in pair
                for team in pair
                if team not in (home, away)
            ]
            pairs = [pair for pair in pairs if home not in pair and away not in pair] + [(home, away)]
            if len(displaced) == 2:
                pairs.append((displaced[0], displaced[1]))
        rounds.append((date, pairs))
    return rounds


def _write_soccer(root: Path, rng: random.Random) -> None:
    fixed = {
        (date, home, away): (home_goals, away_goals, referee)
        for date, home, away, home_goals, away_goals, referee in facts.SOCCER_GAMES
    }
    referees = ["Rhys Tallow", "Hollis Crane", "Anton Greaves", "Mabel Osei", "Carl Whitbread", "Dev Mistry"]
    formations = ["4-3-3", "4-2-3-1", "3-4-3", "4-4-2", "3-5-2"]
    index, rows = [], []
    for round_number, (date, pairs) in enumerate(_soccer_rounds(rng), start=1):
        for home, away in pairs:
            home_goals, away_goals, referee = fixed.get(
                (date, home, away),
                (
                    rng.choice([0, 0, 1, 1, 1, 2, 2, 3, 4]),
                    rng.choice([0, 0, 1, 1, 2, 2, 3]),
                    rng.choice(referees),
                ),
            )
            attendance = float(rng.randint(11_000, 74_000))
            kick_off = (
                dt.time(15)
                if (date, home, away) in fixed
                else dt.time(*rng.choice([(12, 30), (15, 0), (17, 30)]))
            )
            game = f"{date} {home}-{away}"
            for team, opponent, venue, goals_for, goals_against in (
                (home, away, "Home", home_goals, away_goals),
                (away, home, "Away", away_goals, home_goals),
            ):
                result = "W" if goals_for > goals_against else "L" if goals_for < goals_against else "D"
                index.append((facts.SOCCER_LEAGUE, facts.SOCCER_SEASON, team, game))
                rows.append(
                    {
                        "date": pd.Timestamp(date),
                        "time": kick_off,
                        "round": f"Matchweek {round_number}",
                        "day": "Sat",
                        "venue": venue,
                        "result": result,
                        "GF": str(goals_for),
                        "GA": str(goals_against),
                        "opponent": opponent,
                        "xG": round(rng.uniform(0.3, 2.9), 1),
                        "xGA": round(rng.uniform(0.3, 2.9), 1),
                        "Poss": float(rng.randint(30, 70)),
                        "Attendance": attendance,
                        "Captain": facts.SOCCER_CAPTAINS.get(team, f"{team} captain"),
                        "Formation": rng.choice(formations),
                        "Referee": referee,
                        "match_report": f"/en/matches/{zlib.crc32(game.encode()):08x}/Match-Report",
                        "Notes": None,
                    }
                )
    formats.write_soccer_match_stats(root, index, rows)


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m kg_mock.fixture", description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path, help="the folder to write the KG into (created if needed)")
    args = parser.parse_args(None if argv is None else list(argv))
    print(build(args.dir))


if __name__ == "__main__":
    main()
