"""Answers the 38 KG routes from the small fixture knowledge graph (kg_mock/fixture_kg.json).

Lookups follow the official server's behaviour closely enough for tests: searches return up to 10
best-matching names, exact lookups return null when nothing matches.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any

from models.kg.matching import name_score, normalize_name

FIXTURE_PATH = Path(__file__).resolve().parent / "fixture_kg.json"
SEARCH_LIMIT = 10


def search(query: str, names: list[str], limit: int = SEARCH_LIMIT, floor: float = 0.3) -> list[str]:
    scored = sorted(((name_score(query, name), name) for name in names), key=lambda item: -item[0])
    return [name for score, name in scored[:limit] if score >= floor]


class FixtureStore:
    def __init__(self, path: Path = FIXTURE_PATH):
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        self.companies = {c["ticker"]: c for c in data["finance"]["companies"]}
        self.movies = {m["id"]: m for m in data["movie"]["movies"]}
        self.people = {p["id"]: p for p in data["movie"]["people"]}
        self.years = data["movie"]["years"]
        self.artists = {a["name"]: a for a in data["music"]["artists"]}
        self.songs = {s["name"]: s for s in data["music"]["songs"]}
        self.billboard = data["music"]["billboard"]
        self.grammy = data["music"]["grammy"]
        self.nba_games = data["sports"]["nba_games"]
        self.nba_play_by_play = data["sports"]["nba_play_by_play"]
        self.soccer_games = data["sports"]["soccer_games"]
        self.entities = {e["name"]: e for e in data["open"]["entities"]}

    def answer(self, route_name: str, body: dict[str, Any]) -> Any:
        return getattr(self, route_name)(**body)

    # open
    def open_search_entity_by_name(self, query: str) -> list[str]:
        return search(query, list(self.entities))

    def open_get_entity(self, query: str) -> dict | None:
        entity = self.entities.get(query)
        return None if entity is None else {k: v for k, v in entity.items() if k != "name"}

    # movie
    def movie_get_person_info(self, query: str) -> list[dict]:
        by_name = {p["name"]: p for p in self.people.values()}
        return [by_name[name] for name in search(query, list(by_name))]

    def movie_get_movie_info(self, query: str) -> list[dict]:
        by_title = {m["title"]: m for m in self.movies.values()}
        return [by_title[title] for title in search(query, list(by_title))]

    def movie_get_year_info(self, query: str) -> dict | None:
        return self.years.get(query.strip())

    def movie_get_movie_info_by_id(self, query: int) -> dict | None:
        return self.movies.get(query)

    def movie_get_person_info_by_id(self, query: int) -> dict | None:
        return self.people.get(query)

    # finance
    def finance_get_company_name(self, query: str) -> list[str]:
        return search(query, [c["name"] for c in self.companies.values()])

    def finance_get_ticker_by_name(self, query: str) -> str | None:
        wanted = normalize_name(query)
        return next((t for t, c in self.companies.items() if normalize_name(c["name"]) == wanted), None)

    def _company(self, ticker: str) -> dict:
        return self.companies.get(ticker.upper(), {})

    def finance_get_price_history(self, query: str) -> dict | None:
        return self._company(query).get("price_history")

    def finance_get_detailed_price_history(self, query: str) -> dict | None:
        return self._company(query).get("detailed_price_history")

    def finance_get_dividends_history(self, query: str) -> dict | None:
        return self._company(query).get("dividends")

    def finance_get_market_capitalization(self, query: str) -> float | None:
        return self._company(query).get("market_capitalization")

    def finance_get_eps(self, query: str) -> float | None:
        return self._company(query).get("eps")

    def finance_get_pe_ratio(self, query: str) -> float | None:
        return self._company(query).get("pe_ratio")

    def finance_get_info(self, query: str) -> dict | None:
        return self._company(query).get("info")

    # music
    def music_search_artist_entity_by_name(self, query: str) -> list[str]:
        return search(query, list(self.artists))

    def music_search_song_entity_by_name(self, query: str) -> list[str]:
        return search(query, list(self.songs))

    def music_get_billboard_rank_date(self, rank: int, date: str | None = None) -> list[dict]:
        rows = [row for row in self.billboard if row["rank"] == rank]
        if date is not None:
            chart_dates = sorted({row["date"] for row in rows if row["date"] <= date})
            rows = [row for row in rows if chart_dates and row["date"] == chart_dates[-1]]
        return [{k: row[k] for k in ("date", "rank", "song", "artist")} for row in rows]

    def music_get_billboard_attributes(self, date: str, attribute: str, song_name: str) -> Any:
        rows = [r for r in self.billboard if normalize_name(r["song"]) == normalize_name(song_name) and r["date"] <= date]
        return max(rows, key=lambda r: r["date"])[attribute] if rows else None

    def _grammy_by_year(self, category: str, year: int) -> list[str]:
        return self.grammy[category].get(str(year), [])

    def music_grammy_get_best_artist_by_year(self, query: int) -> list[str]:
        return self._grammy_by_year("best_new_artist", query)

    def music_grammy_get_best_song_by_year(self, query: int) -> list[str]:
        return self._grammy_by_year("song_of_the_year", query)

    def music_grammy_get_best_album_by_year(self, query: int) -> list[str]:
        return self._grammy_by_year("album_of_the_year", query)

    def _artist(self, name: str) -> dict:
        wanted = normalize_name(name)
        return next((a for n, a in self.artists.items() if normalize_name(n) == wanted), {})

    def _song(self, name: str) -> dict:
        wanted = normalize_name(name)
        return next((s for n, s in self.songs.items() if normalize_name(n) == wanted), {})

    def music_grammy_get_award_count_by_artist(self, query: str) -> int:
        return len(self._artist(query).get("grammy_years", []))

    def music_grammy_get_award_count_by_song(self, query: str) -> int:
        return self._song(query).get("grammy_count", 0)

    def music_grammy_get_award_date_by_artist(self, query: str) -> list[int]:
        return self._artist(query).get("grammy_years", [])

    def music_grammy_get_all_awarded_artists(self) -> list[str]:
        return sorted({name for names in self.grammy["best_new_artist"].values() for name in names})

    def music_get_artist_birth_place(self, query: str) -> str | None:
        return self._artist(query).get("birth_place")

    def music_get_artist_birth_date(self, query: str) -> str | None:
        return self._artist(query).get("birth_date")

    def music_get_members(self, query: str) -> list[str]:
        return self._artist(query).get("members", [])

    def music_get_lifespan(self, query: str) -> dict | None:
        return self._artist(query).get("lifespan")

    def music_get_song_author(self, query: str) -> str | None:
        return self._song(query).get("author")

    def music_get_song_release_country(self, query: str) -> str | None:
        return self._song(query).get("release_country")

    def music_get_song_release_date(self, query: str) -> str | None:
        return self._song(query).get("release_date")

    def music_get_artist_all_works(self, query: str) -> list[str]:
        return self._artist(query).get("works", [])

    # sports
    def sports_soccer_get_games_on_date(self, date: str, team_name: str | None = None) -> list[dict] | None:
        rows = [g for g in self.soccer_games if g["date"].startswith(date)]
        if team_name:
            rows = [g for g in rows if normalize_name(team_name) in normalize_name(g["team"])]
        return rows or None

    def sports_nba_get_games_on_date(self, date: str, team_name: str | None = None) -> list[dict] | None:
        rows = [g for g in self.nba_games if g["game_date"].startswith(date)]
        if team_name:
            wanted = normalize_name(team_name)
            rows = [
                g for g in rows
                if wanted in normalize_name(g["team_name_home"]) or wanted in normalize_name(g["team_name_away"])
            ]
        return rows or None

    def sports_nba_get_play_by_play_data_by_game_ids(self, game_ids: list[str]) -> list[dict]:
        return [event for event in self.nba_play_by_play if event["game_id"] in set(game_ids)]
