"""The lookups of the official CRAG mock KG API over a data directory in the official on-disk formats
(see ../shared/docs/CRAG_MOCK_API.md, sections 2 and 3). One class per domain; each method answers
one route and returns the route's `result`, or raises where the official server answers HTTP 500.

All lookups are exact and case-sensitive except the name searches, which use `kg_mock.search`.
"""

from __future__ import annotations

import bz2
import json
import pickle
import sqlite3
from pathlib import Path
from typing import Any

import pandas as pd
from sqlitedict import SqliteDict

from kg_mock.search import TOP_N, FilteredSearch, OkapiSearch, normalize

MOVIE_YEARS = range(1990, 2022)
GRAMMY_YEARS = range(1957, 2020)
GRAMMY_CATEGORIES = {"artist": "Best New Artist", "song": "Song Of The Year", "album": "Album Of The Year"}


class NameIndex:
    """Search over distinct normalised names; each hit expands to every original spelling, cut to 10."""

    def __init__(self, names: list[str], search_class: type[OkapiSearch | FilteredSearch]):
        self.spellings: dict[str, list[str]] = {}
        for name in names:
            self.spellings.setdefault(normalize(name), []).append(name)
        self.forms = sorted(self.spellings)
        self.search = search_class([form.split() for form in self.forms])

    def find(self, query: str) -> list[str]:
        hits = self.search.top(normalize(query).split())
        return [name for position in hits for name in self.spellings[self.forms[position]]][:TOP_N]


class OpenKG:
    def __init__(self, root: Path):
        self.entities: dict[str, Any] = {}
        for part in ("kg.0.jsonl.bz2", "kg.1.jsonl.bz2"):
            with bz2.open(root / "open" / part, "rt", encoding="utf-8") as lines:
                for line in lines:
                    name, entity = json.loads(line)  # a blank line raises, as it aborts the official start-up
                    self.entities[name] = entity
        self.index = NameIndex(list(self.entities), OkapiSearch)

    def search_entity_by_name(self, query: str) -> list[str]:
        return self.index.find(query)

    def get_entity(self, query: str) -> Any:
        return self.entities.get(query)


class _KeySearch:
    """Movie search: BM25 over the table keys split on whitespace (not normalised); the query is normalised.
    A key whose whitespace is irregular fails the consistency check below whenever it scores (HTTP 500)."""

    def __init__(self, table: dict[str, Any]):
        self.table = table
        self.keys = list(table)
        self.by_tokens = {str(key.split(" ")): key for key in self.keys}
        self.search = OkapiSearch([key.split() for key in self.keys])

    def find(self, query: str) -> list[Any]:
        found = []
        for position in self.search.top(normalize(query).split()):
            tokens = str(self.search.documents[position])
            if tokens not in self.by_tokens:
                raise AssertionError(f"movie key {self.keys[position]!r} has irregular whitespace")
            found.append(self.table[self.by_tokens[tokens]])
        return found


class MovieKG:
    def __init__(self, root: Path):
        self.years = _read_json(root / "movie" / "year_db.json")
        self.people = _read_json(root / "movie" / "person_db.json")
        self.movies = _read_json(root / "movie" / "movie_db.json")
        self.person_search = _KeySearch(self.people)
        self.movie_search = _KeySearch(self.movies)
        self.movies_by_id = {record["id"]: record for record in self.movies.values()}
        self.people_by_id = {record["id"]: record for record in self.people.values()}

    def get_person_info(self, query: str) -> list[Any]:
        return self.person_search.find(query)

    def get_movie_info(self, query: str) -> list[Any]:
        return self.movie_search.find(query)

    def get_year_info(self, query: str) -> Any:
        year = int(query)  # non-numeric -> ValueError -> HTTP 500
        if year not in MOVIE_YEARS:
            raise ValueError(f"year {year} outside {MOVIE_YEARS.start}-{MOVIE_YEARS.stop - 1}")
        return self.years.get(query)  # the original string is the key: " 2011" finds nothing

    def get_movie_info_by_id(self, query: int) -> Any:
        return self.movies_by_id.get(query)

    def get_person_info_by_id(self, query: int) -> Any:
        return self.people_by_id.get(query)


FINANCE_TABLES = ("price", "detailed_price", "dividend", "marketcap", "info")


class FinanceKG:
    def __init__(self, root: Path):
        companies = pd.read_csv(root / "finance" / "company_name.dict")
        self.tickers: dict[str, str] = dict(zip(companies["Name"], companies["Symbol"]))
        self.names = list(dict.fromkeys(companies["Name"]))
        self.spellings: dict[str, list[str]] = {}
        for name in self.names:
            self.spellings.setdefault(normalize(name), []).append(name)
        self.search = OkapiSearch([normalize(name).split() for name in self.names])
        # Create mode, as officially: a missing file is an empty table, not an error.
        self.tables = {
            table: SqliteDict(str(root / "finance" / f"finance_{table}.sqlite"), flag="c")
            for table in FINANCE_TABLES
        }

    def get_company_name(self, query: str) -> list[str]:
        hits = self.search.top(normalize(query).split())
        return [name for position in hits for name in self.spellings[normalize(self.names[position])]][:TOP_N]

    def get_ticker_by_name(self, query: str) -> Any:
        return self.tickers.get(query)

    def _value(self, table: str, ticker: str) -> Any:
        return self.tables[table].get(ticker)

    def get_price_history(self, query: str) -> Any:
        return self._value("price", query)

    def get_detailed_price_history(self, query: str) -> Any:
        return self._value("detailed_price", query)

    def get_dividends_history(self, query: str) -> Any:
        return self._value("dividend", query)

    def get_market_capitalization(self, query: str) -> Any:
        return self._value("marketcap", query)

    def get_eps(self, query: str) -> Any:
        return (self._value("info", query) or {}).get("forwardEps")

    def get_pe_ratio(self, query: str) -> Any:
        return (self._value("info", query) or {}).get("forwardPE")

    def get_info(self, query: str) -> Any:
        return self._value("info", query)

    def close(self) -> None:
        for table in self.tables.values():
            table.close()


class MusicKG:
    def __init__(self, root: Path):
        music = root / "music"
        self.artists = _read_pickle(music / "artist_dict_simplified.pickle")
        self.songs = _read_pickle(music / "song_dict_simplified.pickle")
        self.grammy: pd.DataFrame = _read_pickle(music / "grammy_df.pickle")
        self.rank_charts = _read_pickle(music / "rank_dict_hot100.pickle")
        self.song_charts = _read_pickle(music / "song_dict_hot100.pickle")
        self.works = _read_pickle(music / "artist_work_dict.pickle")
        self.artist_index = NameIndex(list(self.artists), FilteredSearch)
        self.song_index = NameIndex(list(self.songs), FilteredSearch)

    def search_artist_entity_by_name(self, query: str) -> list[str]:
        return self.artist_index.find(query)

    def search_song_entity_by_name(self, query: str) -> list[str]:
        return self.song_index.find(query)

    def get_billboard_rank_date(self, rank: int, date: str | None = None) -> list[Any]:
        entries = self.rank_charts.get(str(rank))
        if entries is None:
            return [None, None]
        if date:
            match = next((entry for entry in entries if entry["Date"] == date), None)
            return [[match["Song"]], [match["Artist"]]] if match else [[], []]
        return [[entry["Song"] for entry in entries], [entry["Artist"] for entry in entries]]

    def get_billboard_attributes(self, date: str, attribute: str, song_name: str) -> Any:
        row = self.song_charts.get(song_name, {}).get(date)
        if row is None:
            return None
        newcomer = row[6] == "-"  # a short row raises IndexError -> HTTP 500
        columns = (
            {"rank_last_week": 6, "weeks_in_chart": 5, "top_position": 4}
            if newcomer
            else {"rank_last_week": 4, "weeks_in_chart": 6, "top_position": 5}
        )
        return row[columns.get(attribute, 3)]  # any other attribute, typos included, is the rank

    def _best_by_year(self, category: str, year: int) -> list[Any] | None:
        if year not in GRAMMY_YEARS:
            return None
        rows = self.grammy[(self.grammy["category"] == category) & (self.grammy["year"] == year)]
        return rows["nominee"].tolist()

    def grammy_get_best_artist_by_year(self, query: int) -> list[Any] | None:
        return self._best_by_year(GRAMMY_CATEGORIES["artist"], query)

    def grammy_get_best_song_by_year(self, query: int) -> list[Any] | None:
        return self._best_by_year(GRAMMY_CATEGORIES["song"], query)

    def grammy_get_best_album_by_year(self, query: int) -> list[Any] | None:
        return self._best_by_year(GRAMMY_CATEGORIES["album"], query)

    def _rows_naming(self, artist: str) -> list[int]:
        """Row positions whose nominee, artist or workers text contains `artist`, once per matching column."""
        return [
            position
            for column in ("nominee", "artist", "workers")
            for position, value in enumerate(self.grammy[column])
            if artist in str(value)
        ]

    def grammy_get_award_count_by_artist(self, query: str) -> int:
        return len(self._rows_naming(query))

    def grammy_get_award_count_by_song(self, query: str) -> int:
        return int((self.grammy["nominee"] == query).sum())

    def grammy_get_award_date_by_artist(self, query: str) -> list[int]:
        years = [self.grammy["year"][position] for position in set(self._rows_naming(query))]
        return [int(year) for year in set(years)]  # set order, as officially

    def grammy_get_all_awarded_artists(self) -> list[Any]:
        rows = self.grammy[self.grammy["category"] == GRAMMY_CATEGORIES["artist"]]
        return rows["nominee"].dropna().unique().tolist()

    def _field(self, table: dict[str, Any], name: str, field: str) -> Any:
        try:
            return table[name][field] or None
        except (KeyError, TypeError):
            return None

    def get_artist_birth_place(self, query: str) -> Any:
        return self._field(self.artists, query, "country")

    def get_artist_birth_date(self, query: str) -> Any:
        return self._field(self.artists, query, "birth_date")

    def get_members(self, query: str) -> list[Any] | None:
        try:
            return list(set(self.artists[query]["members"]))
        except (KeyError, TypeError):
            return None

    def get_lifespan(self, query: str) -> list[Any]:
        try:
            record = self.artists[query]
            return [record["birth_date"], record["end_date"]]
        except (KeyError, TypeError):
            return [None, None]

    def get_song_author(self, query: str) -> Any:
        return self._field(self.songs, query, "author")

    def get_song_release_country(self, query: str) -> Any:
        return self._field(self.songs, query, "country")

    def get_song_release_date(self, query: str) -> Any:
        return self._field(self.songs, query, "date")

    def get_artist_all_works(self, query: str) -> Any:
        return self.works.get(query)


def _date_format(date: str) -> str | None:
    """The strftime format a sports date is compared with, by its number of `-` parts."""
    return {1: "%Y", 2: "%Y-%m", 3: "%Y-%m-%d"}.get(len(date.split("-")))


class SportsKG:
    """Both sports answer null for no rows and for any error (the routes catch every exception)."""

    def __init__(self, root: Path):
        soccer: pd.DataFrame = pd.read_pickle(root / "sports" / "soccer_team_match_stats.pkl")
        self.soccer = soccer[soccer.index.get_level_values(0).notna()]
        # One connection, used only from the event loop: requests are served one at a time.
        self.nba = sqlite3.connect(str(root / "sports" / "nba.sqlite"), check_same_thread=False)

    def soccer_get_games_on_date(self, date: str, team_name: str | None = None) -> Any:
        date_format = _date_format(date)
        if date_format is None:
            return None
        rows = self.soccer[self.soccer["date"].dt.strftime(date_format) == date]
        if team_name is not None:
            rows = rows[rows.index.get_level_values(2) == team_name]
        return _column_json(rows, iso_dates=True)

    def nba_get_games_on_date(self, date: str, team_name: str | None = None) -> Any:
        # Values are pasted into the SQL unescaped, as officially: an apostrophe breaks the query.
        conditions = []
        if team_name is not None:
            conditions.append(f"(team_name_home = '{team_name}' or team_name_away = '{team_name}')")
        date_format = _date_format(date)
        if date_format is not None:  # 4 or more parts: no date filter at all
            conditions.append(f"strftime('{date_format}', game_date) = '{date}'")
        where = f" where {' and '.join(conditions)}" if conditions else ""
        return _column_json(pd.read_sql_query(f"select * from game{where}", self.nba))

    def nba_get_play_by_play_data_by_game_ids(self, game_ids: list[str]) -> Any:
        listed = ", ".join(f"'{game_id}'" for game_id in game_ids)
        return _column_json(
            pd.read_sql_query(f"select * from play_by_play where game_id in ({listed})", self.nba)
        )


def _column_json(rows: pd.DataFrame, iso_dates: bool = False) -> Any:
    if rows.empty:
        return None
    return json.loads(rows.to_json(date_format="iso") if iso_dates else rows.to_json())


class KnowledgeGraph:
    """Every domain, loaded in the official order (open, movie, finance, music, sports); any error aborts."""

    def __init__(self, root: Path):
        root = Path(root)
        self.open = OpenKG(root)
        self.movie = MovieKG(root)
        self.finance = FinanceKG(root)
        self.music = MusicKG(root)
        self.sports = SportsKG(root)


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _read_pickle(path: Path) -> Any:
    with path.open("rb") as file:
        return pickle.load(file)
