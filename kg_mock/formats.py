"""Writers of the official CRAG mock KG's data files (../shared/docs/CRAG_MOCK_API.md, section 3), shared
by both fixtures. Each writer takes the data root (the server's `KG_BASE_DIRECTORY`), writes its file(s)
at the official path under it, and creates the domain folder if needed; the record builders give the
official shape of a record inside those files.
"""

from __future__ import annotations

import bz2
import csv
import dataclasses
import datetime as dt
import json
import pickle
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from sqlitedict import SqliteDict

from kg_mock.search import normalize

PICKLE_PROTOCOL = 4  # not the default 5: readable by Python before 3.8 too


def _folder(root: Path, domain: str) -> Path:
    folder = Path(root) / domain
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# --- open ---------------------------------------------------------------------------------------------


def write_open_kg(root: Path, entities: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """`open/kg.0.jsonl.bz2` and `open/kg.1.jsonl.bz2`: `[name, entity]` lines, half the entities in each
    part, with no trailing blank line (one crashes the official start-up)."""
    folder = _folder(root, "open")
    half = len(entities) // 2
    for part, chunk in (("kg.0.jsonl.bz2", entities[:half]), ("kg.1.jsonl.bz2", entities[half:])):
        lines = "\n".join(json.dumps(line, ensure_ascii=False) for line in chunk)
        (folder / part).write_bytes(bz2.compress(lines.encode("utf-8")))


# --- movie --------------------------------------------------------------------------------------------


def oscar_award(
    year: int, ceremony: int, category: str, nominee: str, film: str, won: bool
) -> dict[str, Any]:
    """An Oscar record, as stored in the `oscar_awards` lists of the movie tables."""
    return {
        "year_ceremony": year,
        "ceremony": ceremony,
        "category": category,
        "name": nominee,
        "film": film,
        "winner": won,
    }


def write_movie_dbs(root: Path, people: dict[str, dict], movies: dict[str, dict], awards: list[dict]) -> None:
    """`movie/person_db.json`, `movie/movie_db.json` and `movie/year_db.json`. Files each film under its
    cast and director and its release year, each Oscar under its film and its nominee (when the tables
    hold them) and its ceremony year; people and films are keyed by normalised name, as published."""
    years: dict[str, dict[str, list]] = {}
    for movie in movies.values():
        for member in movie["cast"]:
            people[member["name"]]["acted_movies"].append(movie["id"])
        for member in movie["crew"]:
            if member["job"] == "Director":
                people[member["name"]]["directed_movies"].append(movie["id"])
        years.setdefault(movie["release_date"][:4], {"movie_list": [], "oscar_awards": []})[
            "movie_list"
        ].append(movie["id"])
    for award in awards:
        if award["film"] in movies:
            movies[award["film"]]["oscar_awards"].append(award)
        if award["name"] in people:
            people[award["name"]]["oscar_awards"].append(award)
        entry = years.setdefault(str(award["year_ceremony"]), {"movie_list": [], "oscar_awards": []})
        entry["oscar_awards"].append(award)
    folder = _folder(root, "movie")
    for file_name, table in (
        ("person_db.json", {normalize(name): record for name, record in people.items()}),
        ("movie_db.json", {normalize(title): record for title, record in movies.items()}),
        ("year_db.json", dict(sorted(years.items()))),
    ):
        (folder / file_name).write_text(json.dumps(table, ensure_ascii=False, indent=1), encoding="utf-8")


# --- finance ------------------------------------------------------------------------------------------


def price_bar(open_: float, high: float, low: float, close: float, volume: float) -> dict[str, Any]:
    """A daily or one-minute bar of `finance_price.sqlite` / `finance_detailed_price.sqlite`."""
    return {
        "Open": round(open_, 2),
        "High": round(high, 2),
        "Low": round(low, 2),
        "Close": round(close, 2),
        "Volume": int(volume),
    }


def write_company_names(root: Path, names: Sequence[tuple[str, str]]) -> None:
    """`finance/company_name.dict`: a CSV of (name, ticker) rows under an index column."""
    with (_folder(root, "finance") / "company_name.dict").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["", "Name", "Symbol"])
        for position, (name, ticker) in enumerate(names):
            writer.writerow([position, name, ticker])


@dataclasses.dataclass
class FinanceTables:
    """The five ticker-keyed tables, each written to `finance/finance_<field>.sqlite`."""

    price: dict[str, dict[str, dict[str, Any]]] = dataclasses.field(default_factory=dict)
    detailed_price: dict[str, dict[str, dict[str, Any]]] = dataclasses.field(default_factory=dict)
    dividend: dict[str, dict[str, float]] = dataclasses.field(default_factory=dict)
    marketcap: dict[str, float] = dataclasses.field(default_factory=dict)
    info: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)


def write_finance_tables(root: Path, tables: FinanceTables) -> None:
    """`finance/finance_{price,detailed_price,dividend,marketcap,info}.sqlite`: SqliteDict files (default
    table, pickled values) keyed by ticker, replacing any earlier file."""
    folder = _folder(root, "finance")
    for field in dataclasses.fields(tables):
        path = folder / f"finance_{field.name}.sqlite"
        path.unlink(missing_ok=True)
        with SqliteDict(str(path), flag="n") as db:
            for ticker, value in getattr(tables, field.name).items():
                db[ticker] = value
            db.commit()


# --- music --------------------------------------------------------------------------------------------


def _hot100_tables(
    charts: Mapping[str, Sequence[tuple[str, str]]],
) -> tuple[dict[str, list[dict[str, str]]], dict[str, dict[str, list[str]]]]:
    """(rank_dict, song_dict) of the Hot 100 pickles from weekly charts; a song missing from the chart
    a week earlier is a newcomer (or re-entry), with "-" in the last column as in the published rows."""
    rank_dict: dict[str, list[dict[str, str]]] = {str(rank): [] for rank in range(1, 101)}
    song_hot: dict[str, dict[str, list[str]]] = {}
    peaks: dict[str, int] = {}
    weeks: dict[str, int] = {}
    for date in sorted(charts):
        week_before = (dt.date.fromisoformat(date) - dt.timedelta(weeks=1)).isoformat()
        last_ranks = {song: rank for rank, (song, _) in enumerate(charts.get(week_before, []), start=1)}
        for rank, (song, artist) in enumerate(charts[date], start=1):
            rank_dict[str(rank)].append({"Date": date, "Song": song, "Artist": artist})
            peaks[song] = min(peaks.get(song, 101), rank)
            weeks[song] = weeks.get(song, 0) + 1
            last_week = last_ranks.get(song)
            columns = (
                (peaks[song], weeks[song], "-")
                if last_week is None
                else (last_week, peaks[song], weeks[song])
            )
            song_hot.setdefault(song, {})[date] = [date, song, artist, str(rank), *map(str, columns)]
    return rank_dict, song_hot


def write_music_pickles(
    root: Path,
    artists: dict[str, dict],
    songs: dict[str, dict],
    works: dict[str, list[str]],
    grammy_rows: list[tuple],
    charts: Mapping[str, Sequence[tuple[str, str]]],
) -> None:
    """The six pickles of `music/`: artists, songs and works as given; Grammy rows (year, category,
    nominee, artist, workers) become the winners' table, by year and category; `charts` (chart date ->
    (song, artist) in rank order) become the two Hot 100 tables."""
    grammy_rows = sorted(grammy_rows, key=lambda row: (row[0], row[1]))
    grammy = pd.DataFrame(grammy_rows, columns=["year", "category", "nominee", "artist", "workers"])
    grammy["winner"] = True
    rank_dict, song_hot = _hot100_tables(charts)
    folder = _folder(root, "music")
    for file_name, value in (
        ("artist_dict_simplified.pickle", artists),
        ("song_dict_simplified.pickle", songs),
        ("grammy_df.pickle", grammy),
        ("rank_dict_hot100.pickle", rank_dict),
        ("song_dict_hot100.pickle", song_hot),
        ("artist_work_dict.pickle", works),
    ):
        with (folder / file_name).open("wb") as file:
            pickle.dump(value, file, protocol=PICKLE_PROTOCOL)


# --- sports -------------------------------------------------------------------------------------------


def write_soccer_match_stats(
    root: Path, keys: Sequence[tuple[str, str, str, str]], rows: Sequence[dict[str, Any]]
) -> None:
    """`sports/soccer_team_match_stats.pkl`: a DataFrame of one row per team and game, indexed by its
    (league, season, team, game) key."""
    frame = pd.DataFrame(
        rows, index=pd.MultiIndex.from_tuples(keys, names=["league", "season", "team", "game"])
    )
    frame.to_pickle(_folder(root, "sports") / "soccer_team_match_stats.pkl", protocol=PICKLE_PROTOCOL)


def write_nba_sqlite(root: Path, games: Sequence[dict[str, Any]], events: Sequence[dict[str, Any]]) -> None:
    """`sports/nba.sqlite`: the `game` and `play_by_play` tables, with the rows' keys as columns."""
    path = _folder(root, "sports") / "nba.sqlite"
    path.unlink(missing_ok=True)
    with sqlite3.connect(str(path)) as connection:
        pd.DataFrame(games).to_sql("game", connection, index=False)
        pd.DataFrame(events).to_sql("play_by_play", connection, index=False)
    connection.close()
