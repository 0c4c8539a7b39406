"""API selection: which calls answer a question, decided round by round as results come in.

A planner looks at what a question asks (entities, time spans, keywords) and at the results so far,
and returns every call it wants; calls already made are filtered out, so planning is a pure
function of the state and rounds stop when nothing new is wanted. Two planners:

- `plan_by_rules`: per-domain rules (resolve names -> fetch the facts the keywords ask for -> follow ids);
- `plan_llm_calls`: the calls the LLM proposed (validated against the route signatures), with company
  names in ticker routes resolved to tickers first, plus the same id follow-ups.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from loguru import logger

from models.config import KGConfig
from models.kg.client import CallResult
from models.kg.entities import KGEntities
from models.kg.matching import CompanyDirectory, best_match
from models.kg.routes import ROUTES, ApiCall, CallValidationError, validate_call
from models.kg.timeparse import DateSpan, find_time_spans, parse_query_time

TICKER_ROUTES = {
    "finance_get_price_history",
    "finance_get_detailed_price_history",
    "finance_get_dividends_history",
    "finance_get_market_capitalization",
    "finance_get_eps",
    "finance_get_pe_ratio",
    "finance_get_info",
}
_TICKER_SHAPE = re.compile(r"^[A-Z][A-Z0-9.\-]{0,6}$")

# (question keywords, routes they call for); order matters only for reading.
FINANCE_TOPICS = [
    (r"dividend|payout|distribution", ["finance_get_dividends_history"]),
    (r"market cap|capitali[sz]ation|market value|valuation", ["finance_get_market_capitalization"]),
    (r"\beps\b|earnings per share", ["finance_get_eps"]),
    (r"p/?e ratio|\bpe\b|price[- ]to[- ]earnings|price[- ]earnings", ["finance_get_pe_ratio"]),
    (r"price|clos|open|high|low|trad|volume|stock|gain|los[st]|drop|ris[ei]|fell|perform|return|change|moved?",
     ["finance_get_price_history"]),
    (r"right now|currently|current price|real[- ]time|intraday|minute|today|at the moment|latest",
     ["finance_get_detailed_price_history"]),
    (r"sector|industry|employees|headquarter|ceo|exchange|beta|52[- ]week|based|located|business|currency|founded",
     ["finance_get_info"]),
]
FINANCE_DEFAULT = ["finance_get_price_history", "finance_get_info"]

ARTIST_TOPICS = [
    (r"where .*born|birth ?place|born in which|country|nationality|hometown|origin|from where|where .* from",
     ["music_get_artist_birth_place"]),
    (r"born|birth|\bage\b|how old|founded|formed|start", ["music_get_artist_birth_date"]),
    (r"member|line-?up|who (?:is|are|was|were) in|drummer|singer|guitarist|bassist|vocalist", ["music_get_members"]),
    (r"\bdie|death|dead|alive|lifespan|passed away", ["music_get_lifespan"]),
    (r"grammy|award", ["music_grammy_get_award_count_by_artist", "music_grammy_get_award_date_by_artist"]),
    (r"album|songs?\b|single|works?\b|discograph|record|track|releas", ["music_get_artist_all_works"]),
]
ARTIST_DEFAULT = ["music_get_artist_birth_date", "music_get_artist_birth_place", "music_get_artist_all_works",
                  "music_grammy_get_award_count_by_artist"]
SONG_TOPICS = [
    (r"wr[io]te|writ|author|compos|penned", ["music_get_song_author"]),
    (r"releas|come out|came out|when|year|date|debut|how old", ["music_get_song_release_date"]),
    (r"country|where", ["music_get_song_release_country"]),
    (r"grammy|award", ["music_grammy_get_award_count_by_song"]),
]
SONG_DEFAULT = ["music_get_song_author", "music_get_song_release_date"]
BILLBOARD_ATTRIBUTE_WORDS = [
    (r"last week|previous week", "rank_last_week"),
    (r"how many weeks|weeks (?:on|in)", "weeks_in_chart"),
    (r"peak|highest|top position|best position", "top_position"),
]
GRAMMY_YEAR_ROUTES = [
    (r"best new artist", "music_grammy_get_best_artist_by_year"),
    (r"song of the year", "music_grammy_get_best_song_by_year"),
    (r"album of the year", "music_grammy_get_best_album_by_year"),
]
PLAY_BY_PLAY_WORDS = re.compile(
    r"play[- ]by[- ]play|first (?:basket|points|shot)|scored first|quarter|period|foul|turnover|steal|block|"
    r"rebound|assist|free throw|three[- ]pointer|last shot|buzzer"
)
OSCAR_YEAR_WORDS = re.compile(r"oscar|academy award|best picture|released in|came out in|movies? (?:of|from|in)")


@dataclass
class QuestionState:
    """One question's view of the KG: what it asks and what the API has answered so far."""

    query: str
    query_time: str
    domain: str
    entities: KGEntities = field(default_factory=KGEntities)
    llm_calls: list[ApiCall] = field(default_factory=list)
    results: list[CallResult] = field(default_factory=list)
    issued: set[tuple[str, str]] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)

    @property
    def lowered(self) -> str:
        return self.query.lower()

    @property
    def today(self) -> datetime | None:
        return parse_query_time(self.query_time)

    def lookup(self, route: str, **body: Any) -> tuple[bool, Any]:
        """(answered, result) of the call `route(**body)`; answered is False until it came back ok."""
        key = ApiCall(route, body).key
        for result in self.results:
            if result.call.key == key:
                return result.ok, result.result
        return False, None

    def was_called(self, route: str, **body: Any) -> bool:
        return ApiCall(route, body).key in self.issued

    def spans(self, season_start_month: int) -> list[DateSpan]:
        return find_time_spans(self.query, self.query_time, season_start_month)


def new_calls(state: QuestionState, wanted: list[ApiCall], limit: int) -> list[ApiCall]:
    """The wanted calls not made yet, at most `limit`, marked as issued."""
    fresh: list[ApiCall] = []
    for call in wanted:
        if call.key in state.issued or any(c.key == call.key for c in fresh):
            continue
        fresh.append(call)
    fresh = fresh[:limit]
    state.issued.update(call.key for call in fresh)
    return fresh


def _topics(text: str, table: list[tuple[str, list[str]]], default: list[str]) -> list[str]:
    routes = [route for pattern, routes in table if re.search(pattern, text) for route in routes]
    return list(dict.fromkeys(routes)) or default


def _canonical(state: QuestionState, search_route: str, name: str, min_similarity: float) -> str | None:
    """The KG's spelling of `name` from a search route, once that search has answered."""
    answered, hits = state.lookup(search_route, query=name)
    if not answered or not isinstance(hits, list):
        return None
    return best_match(name, [h for h in hits if isinstance(h, str)], min_similarity)


# --- finance ------------------------------------------------------------------------------------


def resolve_ticker(
    state: QuestionState, company: str, directory: CompanyDirectory, config: KGConfig
) -> tuple[str | None, list[ApiCall]]:
    """(ticker, calls still needed): local table, then the API's name routes, then a fuzzy local match."""
    ticker = directory.ticker(company)
    if ticker:
        return ticker, []
    answered, direct = state.lookup("finance_get_ticker_by_name", query=company)
    if answered and isinstance(direct, str) and direct:
        return direct, []
    first = [ApiCall("finance_get_ticker_by_name", {"query": company}), ApiCall("finance_get_company_name", {"query": company})]
    if not all(state.was_called(c.route, **c.body) for c in first):
        return None, first
    names_answered, names = state.lookup("finance_get_company_name", query=company)
    if names_answered and isinstance(names, list) and names:
        official = best_match(company, names, config.min_name_similarity) or names[0]
        answered, ticker = state.lookup("finance_get_ticker_by_name", query=official)
        if answered and isinstance(ticker, str) and ticker:
            return ticker, []
        if not state.was_called("finance_get_ticker_by_name", query=official):
            return None, [ApiCall("finance_get_ticker_by_name", {"query": official})]
    return directory.ticker(company, fuzzy=True), []


def _finance(state: QuestionState, directory: CompanyDirectory, config: KGConfig) -> list[ApiCall]:
    calls: list[ApiCall] = []
    tickers = [t.upper() for t in state.entities.tickers]
    for company in state.entities.companies:
        ticker, needed = resolve_ticker(state, company, directory, config)
        calls.extend(needed)
        if ticker:
            tickers.append(ticker)
    for ticker in dict.fromkeys(tickers):
        calls.extend(ApiCall(route, {"query": ticker}) for route in _topics(state.lowered, FINANCE_TOPICS, FINANCE_DEFAULT))
    return calls


# --- movie --------------------------------------------------------------------------------------


def _movie(state: QuestionState, config: KGConfig) -> list[ApiCall]:
    calls = [ApiCall("movie_get_movie_info", {"query": title}) for title in state.entities.movies]
    calls += [ApiCall("movie_get_person_info", {"query": name}) for name in state.entities.people]
    if OSCAR_YEAR_WORDS.search(state.lowered) or not calls:
        for span in state.spans(config.nba_season_start_month):
            if span.granularity == "year" and 1990 <= span.start.year <= 2021:
                calls.append(ApiCall("movie_get_year_info", {"query": str(span.start.year)}))
    return calls + movie_followups(state, config)


def movie_followups(state: QuestionState, config: KGConfig) -> list[ApiCall]:
    """Titles behind the movie ids of a person (their directed or acted films) or a year's list."""
    wants_directed = "direct" in state.lowered
    wants_acted = bool(re.search(r"\bact|star|play|appear|role|cast", state.lowered))
    ids: list[int] = []
    for result in state.results:
        if not result.ok:
            continue
        if result.call.route == "movie_get_person_info" and isinstance(result.result, list):
            person = _best_record(result.result, "name", result.call.body["query"], config.min_name_similarity)
            if person:
                if wants_directed or not wants_acted:
                    ids += person.get("directed_movies") or []
                if wants_acted or not wants_directed:
                    ids += person.get("acted_movies") or []
        elif result.call.route == "movie_get_year_info" and isinstance(result.result, dict):
            ids += result.result.get("movie_list") or []
    ids = [i for i in dict.fromkeys(ids) if isinstance(i, int)][: config.max_followup_ids]
    return [ApiCall("movie_get_movie_info_by_id", {"query": movie_id}) for movie_id in ids]


def _best_record(records: list[Any], key: str, name: str, min_similarity: float) -> dict | None:
    named = {r.get(key): r for r in records if isinstance(r, dict) and isinstance(r.get(key), str)}
    match = best_match(name, list(named), min_similarity)
    return named[match] if match else None


# --- music --------------------------------------------------------------------------------------


def _music(state: QuestionState, config: KGConfig) -> list[ApiCall]:
    calls: list[ApiCall] = []
    text = state.lowered
    spans = state.spans(config.nba_season_start_month)
    chart_day = _chart_date(state, spans)
    for artist in state.entities.artists:
        calls.append(ApiCall("music_search_artist_entity_by_name", {"query": artist}))
        canonical = _canonical(state, "music_search_artist_entity_by_name", artist, config.min_name_similarity)
        routes = _topics(text, ARTIST_TOPICS, ARTIST_DEFAULT)
        calls += [ApiCall(route, {"query": name}) for name in _names(artist, canonical) for route in routes]
    billboard = bool(re.search(r"billboard|hot 100|chart", text))
    for song in state.entities.songs:
        calls.append(ApiCall("music_search_song_entity_by_name", {"query": song}))
        canonical = _canonical(state, "music_search_song_entity_by_name", song, config.min_name_similarity)
        routes = [] if billboard and not re.search(r"wr[io]te|author|releas|grammy", text) else _topics(
            text, SONG_TOPICS, SONG_DEFAULT
        )
        for name in _names(song, canonical):
            calls += [ApiCall(route, {"query": name}) for route in routes]
            if billboard and chart_day:
                attribute = next((a for p, a in BILLBOARD_ATTRIBUTE_WORDS if re.search(p, text)), "rank")
                calls.append(
                    ApiCall("music_get_billboard_attributes", {"date": chart_day, "attribute": attribute, "song_name": name})
                )
    if billboard and state.entities.rank:
        body: dict[str, Any] = {"rank": state.entities.rank}
        if chart_day:
            body["date"] = chart_day
        calls.append(ApiCall("music_get_billboard_rank_date", body))
    if "grammy" in text or any(re.search(p, text) for p, _ in GRAMMY_YEAR_ROUTES):
        years = [s.start.year for s in spans if s.granularity == "year"]
        named = [route for pattern, route in GRAMMY_YEAR_ROUTES if re.search(pattern, text)]
        if not named and not (state.entities.artists or state.entities.songs):
            named = [route for _, route in GRAMMY_YEAR_ROUTES]
        calls += [ApiCall(route, {"query": year}) for route in named for year in years]
        if "best new artist" in text and not years:
            calls.append(ApiCall("music_grammy_get_all_awarded_artists", {}))
    return calls


def _names(asked: str, canonical: str | None) -> list[str]:
    return list(dict.fromkeys(n for n in (asked, canonical) if n))


def _chart_date(state: QuestionState, spans: list[DateSpan]) -> str | None:
    """The chart date a Billboard question refers to: its day, the end of its period, or the query day."""
    for span in spans:
        if span.granularity != "year":
            return span.end.isoformat() if span.granularity != "day" else span.start.isoformat()
    today = state.today
    return today.date().isoformat() if today else None


# --- sports -------------------------------------------------------------------------------------


def sport_spans(state: QuestionState, sport: str, config: KGConfig) -> list[DateSpan]:
    month = config.nba_season_start_month if sport == "nba" else config.soccer_season_start_month
    spans = state.spans(month)
    if spans:
        return spans
    today = state.today
    if today is None:
        return []
    start = today.date() - timedelta(days=config.default_lookback_days)
    return [DateSpan(start, today.date(), "range", "recent games")]


def _sports(state: QuestionState, config: KGConfig) -> list[ApiCall]:
    sports = [state.entities.sport] if state.entities.sport else ["nba", "soccer"]
    teams: list[str | None] = [t.replace("'", "").replace("\u2019", "") for t in state.entities.teams] or [None]
    calls: list[ApiCall] = []
    for sport in sports:
        route = f"sports_{sport}_get_games_on_date"
        for span in sport_spans(state, sport, config):
            for day in span.api_dates(config.max_date_calls):
                for team in teams:
                    calls.append(ApiCall(route, {"date": day, **({"team_name": team} if team else {})}))
    return calls + nba_followups(state, config)


def nba_followups(state: QuestionState, config: KGConfig) -> list[ApiCall]:
    if not PLAY_BY_PLAY_WORDS.search(state.lowered):
        return []
    spans = sport_spans(state, "nba", config)
    game_ids: list[str] = []
    for result in state.results:
        if result.ok and result.call.route == "sports_nba_get_games_on_date":
            for row in game_rows(result.result):
                day = _row_day(row, "game_date")
                if day is None or not spans or any(s.contains(day) for s in spans):
                    game_ids.append(str(row.get("game_id")))
    game_ids = list(dict.fromkeys(g for g in game_ids if g and g != "None"))[: config.max_followup_ids]
    return [ApiCall("sports_nba_get_play_by_play_data_by_game_ids", {"game_ids": game_ids})] if game_ids else []


def game_rows(result: Any) -> list[dict]:
    """Rows of a games/play-by-play result: a list of row dicts, or a column-oriented dict."""
    if isinstance(result, list):
        return [row for row in result if isinstance(row, dict)]
    if isinstance(result, dict) and result and all(isinstance(v, dict) for v in result.values()):
        columns = list(result)
        index = list(dict.fromkeys(k for column in result.values() for k in column))
        return [{c: result[c].get(i) for c in columns} for i in index]
    return []


def _row_day(row: dict, key: str):
    try:
        return datetime.strptime(str(row.get(key, ""))[:10], "%Y-%m-%d").date()
    except ValueError:
        return None


# --- open ---------------------------------------------------------------------------------------


def _open(state: QuestionState, config: KGConfig) -> list[ApiCall]:
    calls: list[ApiCall] = []
    for name in state.entities.entities:
        calls.append(ApiCall("open_search_entity_by_name", {"query": name}))
        calls.append(ApiCall("open_get_entity", {"query": name}))
        canonical = _canonical(state, "open_search_entity_by_name", name, config.min_name_similarity)
        if canonical:
            calls.append(ApiCall("open_get_entity", {"query": canonical}))
    return calls


# --- planners -----------------------------------------------------------------------------------


def plan_by_rules(state: QuestionState, directory: CompanyDirectory, config: KGConfig) -> list[ApiCall]:
    entities = state.entities
    domains = {state.domain}
    if entities.companies or entities.tickers:
        domains.add("finance")
    if entities.movies or entities.people:
        domains.add("movie")
    if entities.artists or entities.songs:
        domains.add("music")
    if entities.teams:
        domains.add("sports")
    wanted: list[ApiCall] = []
    if "finance" in domains:
        wanted += _finance(state, directory, config)
    if "movie" in domains:
        wanted += _movie(state, config)
    if "music" in domains:
        wanted += _music(state, config)
    if "sports" in domains:
        wanted += _sports(state, config)
    if "open" in domains or not wanted:
        wanted += _open(state, config)
    return new_calls(state, wanted, config.max_calls_per_round)


def plan_llm_calls(state: QuestionState, directory: CompanyDirectory, config: KGConfig) -> list[ApiCall]:
    wanted: list[ApiCall] = []
    for call in state.llm_calls:
        name = str(call.body.get("query", ""))
        if call.route in TICKER_ROUTES and not _TICKER_SHAPE.match(name):
            ticker, needed = resolve_ticker(state, name, directory, config)
            wanted += needed
            if ticker:
                wanted.append(ApiCall(call.route, {"query": ticker}))
        else:
            wanted.append(call)
    wanted += movie_followups(state, config) + nba_followups(state, config)
    return new_calls(state, wanted, config.max_calls_per_round)


def call_schema(max_calls: int) -> dict[str, Any]:
    call = {
        "type": "object",
        "properties": {"route": {"type": "string", "enum": list(ROUTES)}, "arguments": {"type": "object"}},
        "required": ["route", "arguments"],
    }
    return {
        "type": "object",
        "properties": {"calls": {"type": "array", "items": call, "maxItems": max_calls}},
        "required": ["calls"],
    }


def parse_llm_calls(text: str, max_calls: int) -> tuple[list[ApiCall], list[str]]:
    """Validated calls from the LLM's JSON reply, and one message per call rejected."""
    start, end = text.find("{"), text.rfind("}")
    try:
        raw = json.loads(text[start : end + 1]) if 0 <= start < end else None
    except ValueError as error:
        return [], [f"function-call JSON unreadable: {error}"]
    if not isinstance(raw, dict) or not isinstance(raw.get("calls"), list):
        return [], ["function-call reply has no 'calls' list"]
    calls, problems = [], []
    for item in raw["calls"][:max_calls]:
        if not isinstance(item, dict):
            problems.append(f"call is not an object: {item!r}")
            continue
        try:
            calls.append(ApiCall(str(item.get("route")), validate_call(str(item.get("route")), item.get("arguments"))))
        except CallValidationError as error:
            problems.append(str(error))
    if problems:
        logger.debug(f"KG: dropped {len(problems)} invalid LLM call(s): {problems}")
    return calls, problems
