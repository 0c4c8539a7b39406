"""The 38 routes of the CRAG mock knowledge-graph API and their argument signatures.

Both the client (to check LLM-proposed calls before sending them) and the local mock server (to
reject bad requests with a clear 4xx) validate bodies against this one table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

ArgType = Literal["str", "int", "str_list"]

_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
BILLBOARD_ATTRIBUTES = ("rank_last_week", "weeks_in_chart", "top_position", "rank")


@dataclass(frozen=True)
class Param:
    name: str
    type: ArgType
    required: bool = True
    choices: tuple[str, ...] = ()
    pattern: re.Pattern[str] | None = None
    description: str = ""


@dataclass(frozen=True)
class Route:
    name: str  # e.g. "finance_get_eps"
    path: str  # e.g. "/finance/get_eps"
    params: tuple[Param, ...]
    description: str
    takes_body: bool = True

    @property
    def signature(self) -> str:
        args = ", ".join(
            f"{p.name}: {p.type}"
            + (f" ({p.description})" if p.description else "")
            + (f" one of {'|'.join(p.choices)}" if p.choices else "")
            + ("" if p.required else " = null")
            for p in self.params
        )
        return f"{self.name}({args})"


class CallValidationError(ValueError):
    """A call whose route or arguments do not match the API."""


def _query(kind: ArgType, description: str) -> tuple[Param, ...]:
    return (Param("query", kind, description=description),)


def _route(path: str, params: tuple[Param, ...], description: str, takes_body: bool = True) -> Route:
    return Route(path.strip("/").replace("/", "_"), path, params, description, takes_body)


_ROUTE_LIST = [
    _route("/open/search_entity_by_name", _query("str", "entity name"), "up to 10 entity names matching a name"),
    _route("/open/get_entity", _query("str", "exact entity name"), "summary and structured facts of an entity"),
    _route("/movie/get_person_info", _query("str", "person name"), "top matches for a person: birthday, movies, Oscars"),
    _route("/movie/get_movie_info", _query("str", "movie title"), "top matches for a movie: date, budget, revenue, cast, crew, Oscars"),
    _route("/movie/get_year_info", _query("str", "year 1990-2021"), "movies released and Oscar awards of a year"),
    _route("/movie/get_movie_info_by_id", _query("int", "movie id"), "one movie by its id"),
    _route("/movie/get_person_info_by_id", _query("int", "person id"), "one person by their id"),
    _route("/finance/get_company_name", _query("str", "company name"), "company names matching a name"),
    _route("/finance/get_ticker_by_name", _query("str", "company name"), "ticker symbol of a company"),
    _route("/finance/get_price_history", _query("str", "ticker"), "one year of daily open/high/low/close/volume"),
    _route("/finance/get_detailed_price_history", _query("str", "ticker"), "last 5 days of 1-minute bars"),
    _route("/finance/get_dividends_history", _query("str", "ticker"), "dividends paid, by date"),
    _route("/finance/get_market_capitalization", _query("str", "ticker"), "market capitalization"),
    _route("/finance/get_eps", _query("str", "ticker"), "earnings per share"),
    _route("/finance/get_pe_ratio", _query("str", "ticker"), "price-to-earnings ratio"),
    _route("/finance/get_info", _query("str", "ticker"), "company profile and key figures"),
    _route("/music/search_artist_entity_by_name", _query("str", "artist name"), "up to 10 artist names matching a name"),
    _route("/music/search_song_entity_by_name", _query("str", "song name"), "up to 10 song names matching a name"),
    _route(
        "/music/get_billboard_rank_date",
        (
            Param("rank", "int", description="chart position 1-100"),
            Param("date", "str", required=False, pattern=_DAY, description="YYYY-MM-DD"),
        ),
        "song and artist at a Billboard Hot 100 rank (on a date, or on every chart date)",
    ),
    _route(
        "/music/get_billboard_attributes",
        (
            Param("date", "str", pattern=_DAY, description="YYYY-MM-DD"),
            Param("attribute", "str", choices=BILLBOARD_ATTRIBUTES),
            Param("song_name", "str"),
        ),
        "a Billboard chart attribute of a song on a date",
    ),
    _route("/music/grammy_get_best_artist_by_year", _query("int", "year"), "Grammy Best New Artist of a year"),
    _route("/music/grammy_get_award_count_by_artist", _query("str", "artist name"), "Grammy awards won by an artist"),
    _route("/music/grammy_get_award_count_by_song", _query("str", "song name"), "Grammy awards won by a song"),
    _route("/music/grammy_get_best_song_by_year", _query("int", "year"), "Grammy Song of the Year of a year"),
    _route("/music/grammy_get_award_date_by_artist", _query("str", "artist name"), "years an artist won a Grammy"),
    _route("/music/grammy_get_best_album_by_year", _query("int", "year"), "Grammy Album of the Year of a year"),
    _route("/music/grammy_get_all_awarded_artists", (), "every Best New Artist winner", takes_body=False),
    _route("/music/get_artist_birth_place", _query("str", "artist name"), "artist's birth country (ISO code)"),
    _route("/music/get_artist_birth_date", _query("str", "artist name"), "artist's birth (or band's founding) date"),
    _route("/music/get_members", _query("str", "band name"), "members of a band"),
    _route("/music/get_lifespan", _query("str", "artist name"), "birth and death dates of an artist"),
    _route("/music/get_song_author", _query("str", "song name"), "author of a song"),
    _route("/music/get_song_release_country", _query("str", "song name"), "release country of a song (ISO code)"),
    _route("/music/get_song_release_date", _query("str", "song name"), "release date of a song"),
    _route("/music/get_artist_all_works", _query("str", "artist name"), "all songs and albums of an artist"),
    _route(
        "/sports/soccer/get_games_on_date",
        (
            Param("date", "str", pattern=_DATE, description="YYYY, YYYY-MM or YYYY-MM-DD"),
            Param("team_name", "str", required=False),
        ),
        "soccer games on a date (optionally of one team)",
    ),
    _route(
        "/sports/nba/get_games_on_date",
        (
            Param("date", "str", pattern=_DATE, description="YYYY, YYYY-MM or YYYY-MM-DD"),
            Param("team_name", "str", required=False),
        ),
        "NBA games on a date (optionally of one team)",
    ),
    _route(
        "/sports/nba/get_play_by_play_data_by_game_ids",
        (Param("game_ids", "str_list", description="game ids from nba_get_games_on_date"),),
        "play-by-play events of NBA games",
    ),
]

ROUTES: dict[str, Route] = {route.name: route for route in _ROUTE_LIST}


def validate_call(route_name: str, arguments: Any) -> dict[str, Any]:
    """The request body for `route_name(**arguments)`, with types coerced; raises CallValidationError."""
    route = ROUTES.get(route_name)
    if route is None:
        raise CallValidationError(f"unknown route {route_name!r}")
    return validate_body(route, arguments)


def validate_body(route: Route, body: Any) -> dict[str, Any]:
    if body is None:
        body = {}
    if not isinstance(body, dict):
        raise CallValidationError(f"{route.name}: the body must be a JSON object, got {type(body).__name__}")
    known = {p.name for p in route.params}
    unknown = sorted(set(body) - known)
    if unknown:
        expected = ", ".join(sorted(known)) or "no arguments"
        raise CallValidationError(f"{route.name}: unexpected argument(s) {unknown}; expected {expected}")
    clean: dict[str, Any] = {}
    for param in route.params:
        value = body.get(param.name)
        if value is None or value == "":
            if param.required:
                raise CallValidationError(f"{route.name}: missing required argument {param.name!r} ({param.type})")
            continue
        clean[param.name] = _coerce(route.name, param, value)
    return clean


def _coerce(route_name: str, param: Param, value: Any) -> Any:
    where = f"{route_name}: argument {param.name!r}"
    if param.type == "int":
        if isinstance(value, bool):
            raise CallValidationError(f"{where} must be an integer, got {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value.strip())
        raise CallValidationError(f"{where} must be an integer, got {value!r}")
    if param.type == "str_list":
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not value or not all(isinstance(v, (str, int)) for v in value):
            raise CallValidationError(f"{where} must be a non-empty list of strings, got {value!r}")
        return [str(v) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise CallValidationError(f"{where} must be a string, got {value!r}")
    value = value.strip()
    if param.choices and value not in param.choices:
        raise CallValidationError(f"{where} must be one of {list(param.choices)}, got {value!r}")
    if param.pattern is not None and not param.pattern.match(value):
        raise CallValidationError(f"{where} must look like {param.description}, got {value!r}")
    return value


@dataclass
class ApiCall:
    """One validated request: route name plus body."""

    route: str
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        return self.route, repr(sorted(self.body.items()))
