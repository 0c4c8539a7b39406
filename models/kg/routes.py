"""The 38 routes of the CRAG mock knowledge-graph API, and one call of them.

Bodies are built by the domain modules in the shapes the official server validates (strings for
names, dates and movie years, integers for ranks, Grammy years and ids, a list of strings for game
ids); `grammy_get_all_awarded_artists` takes no body.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_PATHS = [
    "/open/search_entity_by_name", "/open/get_entity",
    "/movie/get_person_info", "/movie/get_movie_info", "/movie/get_year_info", "/movie/get_movie_info_by_id",
    "/movie/get_person_info_by_id",
    "/finance/get_company_name", "/finance/get_ticker_by_name", "/finance/get_price_history",
    "/finance/get_detailed_price_history", "/finance/get_dividends_history",
    "/finance/get_market_capitalization",
    "/finance/get_eps", "/finance/get_pe_ratio", "/finance/get_info",
    "/music/search_artist_entity_by_name", "/music/search_song_entity_by_name",
    "/music/get_billboard_rank_date",
    "/music/get_billboard_attributes", "/music/grammy_get_best_artist_by_year",
    "/music/grammy_get_award_count_by_artist", "/music/grammy_get_award_count_by_song",
    "/music/grammy_get_best_song_by_year", "/music/grammy_get_award_date_by_artist",
    "/music/grammy_get_best_album_by_year", "/music/grammy_get_all_awarded_artists",
    "/music/get_artist_birth_place",
    "/music/get_artist_birth_date", "/music/get_members", "/music/get_lifespan", "/music/get_song_author",
    "/music/get_song_release_country", "/music/get_song_release_date", "/music/get_artist_all_works",
    "/sports/soccer/get_games_on_date", "/sports/nba/get_games_on_date",
    "/sports/nba/get_play_by_play_data_by_game_ids",
]  # fmt: skip
BODILESS = {"/music/grammy_get_all_awarded_artists"}


@dataclass(frozen=True)
class Route:
    name: str  # e.g. "finance_get_eps"
    path: str  # e.g. "/finance/get_eps"
    takes_body: bool = True


ROUTES: dict[str, Route] = {
    route.name: route
    for route in (Route(path.strip("/").replace("/", "_"), path, path not in BODILESS) for path in _PATHS)
}


@dataclass
class ApiCall:
    route: str
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        return self.route, repr(sorted(self.body.items()))
