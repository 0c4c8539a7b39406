"""KG results rendered as compact evidence: Markdown tables for rows, `subject / attribute: value` lines
for facts; rows narrowed to the dates the question asks about; every block and the total capped.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any, Callable

from models.config import KGConfig
from models.kg.client import CallResult
from models.kg.selection import QuestionState, game_rows, sport_spans
from models.kg.timeparse import DateSpan

# Routes that only resolve names; their answers are used for matching, not shown.
RESOLUTION_ROUTES = {
    "finance_get_company_name",
    "music_search_artist_entity_by_name",
    "music_search_song_entity_by_name",
    "open_search_entity_by_name",
}
FACT_LABELS = {
    "finance_get_ticker_by_name": "ticker",
    "finance_get_market_capitalization": "market capitalization",
    "finance_get_eps": "earnings per share (EPS)",
    "finance_get_pe_ratio": "P/E ratio",
    "music_get_artist_birth_place": "birth place (country code)",
    "music_get_artist_birth_date": "birth date (founding date for a band)",
    "music_get_members": "members",
    "music_get_lifespan": "lifespan",
    "music_get_song_author": "author",
    "music_get_song_release_country": "release country (country code)",
    "music_get_song_release_date": "release date",
    "music_get_artist_all_works": "all works",
    "music_grammy_get_award_count_by_artist": "Grammy awards won",
    "music_grammy_get_award_count_by_song": "Grammy awards won",
    "music_grammy_get_award_date_by_artist": "years of Grammy wins",
    "music_grammy_get_all_awarded_artists": "all Grammy Best New Artist winners",
    "music_grammy_get_best_artist_by_year": "Grammy Best New Artist",
    "music_grammy_get_best_song_by_year": "Grammy Song of the Year",
    "music_grammy_get_best_album_by_year": "Grammy Album of the Year",
}
INFO_KEYS = [
    "shortName", "exchange", "currency", "sector", "industry", "fullTimeEmployees", "city", "country",
    "currentPrice", "marketCap", "trailingEps", "trailingPE", "forwardPE", "dividendYield", "dividendRate",
    "fiftyTwoWeekHigh", "fiftyTwoWeekLow", "beta", "longBusinessSummary",
]


def render_references(state: QuestionState, config: KGConfig) -> list[str]:
    """Evidence blocks for one question, most specific first, within the size caps of `config`."""
    consumed_movie_ids = _movie_ids_shown_elsewhere(state)
    blocks: list[str] = []
    for result in state.results:
        if not result.ok or _is_empty(result.result) or result.call.route in RESOLUTION_ROUTES:
            continue
        if result.call.route == "movie_get_movie_info_by_id" and result.call.body.get("query") in consumed_movie_ids:
            continue
        renderer = _RENDERERS.get(result.call.route, _render_fact)
        block = renderer(result, state, config)
        if block and block not in blocks:
            blocks.append(_cap(block, config.max_reference_chars))
    references: list[str] = []
    total = 0
    for block in blocks[: config.max_references]:
        if total + len(block) > config.max_total_chars:
            break
        references.append(block)
        total += len(block)
    return references


def _cap(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    newline = cut.rfind("\n")
    return (cut[:newline] if newline > limit // 2 else cut.rstrip()) + "\n…"


def _is_empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _subject(result: CallResult) -> str:
    body = result.call.body
    return str(body.get("query") or body.get("song_name") or body.get("team_name") or "")


def _number(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if abs(value) >= 1e9:
        return f"{value:,.0f} ({value / 1e9:,.2f} billion)"
    if abs(value) >= 1e6:
        return f"{value:,.0f} ({value / 1e6:,.2f} million)"
    return f"{value:,.2f}" if isinstance(value, float) else f"{value:,}"


def _plain(value: Any, config: KGConfig) -> str:
    if isinstance(value, list):
        shown = [_plain(v, config) for v in value[: config.max_list_items]]
        more = len(value) - len(shown)
        return ", ".join(shown) + (f" (+{more} more)" if more > 0 else "")
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_plain(v, config)}" for k, v in value.items())
    if value is None:
        return "none"
    return _number(value)


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join("" if cell is None else str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _parse_day(text: str) -> date | None:
    try:
        return datetime.strptime(str(text)[:10], "%Y-%m-%d").date()
    except ValueError:
        return None


def _select_dated(
    items: list[tuple[date, Any]], spans: list[DateSpan], today: date | None, config: KGConfig
) -> tuple[list[tuple[date, Any]], str]:
    """Rows inside the question's spans; else the latest rows up to the query day, with a note why."""
    limit = config.max_table_rows
    items = sorted(items, key=lambda item: item[0])
    if spans:
        inside = [item for item in items if any(span.contains(item[0]) for span in spans)]
        if inside:
            return inside[:limit] if len(inside) <= limit else inside[-limit:], ""
        end = max(span.end for span in spans)
        before = [item for item in items if item[0] <= end]
        note = f"no rows for {', '.join(s.label for s in spans)}; latest before it:"
        return before[-config.nearest_rows :], note
    if today is not None:
        items = [item for item in items if item[0] <= today]
    return items[-limit:], ""


def _today(state: QuestionState) -> date | None:
    moment = state.today
    return moment.date() if moment else None


# --- finance ------------------------------------------------------------------------------------


def _render_prices(result: CallResult, state: QuestionState, config: KGConfig) -> str:
    ticker = _subject(result)
    rows = result.result if isinstance(result.result, dict) else {}
    detailed = result.call.route == "finance_get_detailed_price_history"
    items = [(_parse_day(k), (k, v)) for k, v in rows.items() if isinstance(v, dict)]
    items = [item for item in items if item[0] is not None]
    if detailed:
        chosen, note = sorted(items, key=lambda item: item[1][0])[-config.max_table_rows :], ""
        title = f"{ticker} latest 1-minute prices (KG):"
    else:
        chosen, note = _select_dated(items, state.spans(config.nba_season_start_month), _today(state), config)
        title = f"{ticker} daily prices (KG):"
    if not chosen:
        return ""
    table_rows = [
        [key[:16] if detailed else key[:10], bar.get("Open"), bar.get("High"), bar.get("Low"), bar.get("Close"), bar.get("Volume")]
        for _, (key, bar) in chosen
    ]
    lines = [title] + ([note] if note else []) + [_table(["time" if detailed else "date", "open", "high", "low", "close", "volume"], table_rows)]
    if len(chosen) > 1 and not detailed:
        lines.append(_price_summary([bar for _, (_, bar) in chosen], [key[:10] for _, (key, _) in chosen]))
    return "\n".join(lines)


def _price_summary(bars: list[dict], days: list[str]) -> str:
    highs = [(b.get("High"), d) for b, d in zip(bars, days) if isinstance(b.get("High"), (int, float))]
    lows = [(b.get("Low"), d) for b, d in zip(bars, days) if isinstance(b.get("Low"), (int, float))]
    parts = []
    if highs:
        parts.append("highest high {} on {}".format(*max(highs)))
    if lows:
        parts.append("lowest low {} on {}".format(*min(lows)))
    first_open, last_close = bars[0].get("Open"), bars[-1].get("Close")
    if isinstance(first_open, (int, float)) and isinstance(last_close, (int, float)) and first_open:
        change = (last_close - first_open) / first_open * 100
        parts.append(f"open {first_open} on {days[0]} to close {last_close} on {days[-1]} ({change:+.2f}%)")
    return "Over these rows: " + "; ".join(parts)


def _render_dividends(result: CallResult, state: QuestionState, config: KGConfig) -> str:
    rows = result.result if isinstance(result.result, dict) else {}
    items = [(_parse_day(k), v) for k, v in rows.items()]
    items = [item for item in items if item[0] is not None]
    chosen, note = _select_dated(items, state.spans(config.nba_season_start_month), _today(state), config)
    if not chosen:
        return ""
    lines = [f"{_subject(result)} dividends (KG):"] + ([note] if note else [])
    lines.append(_table(["date", "dividend"], [[d.isoformat(), v] for d, v in chosen]))
    amounts = [v for _, v in chosen if isinstance(v, (int, float))]
    if len(amounts) > 1:
        lines.append(f"Sum of these dividends: {round(sum(amounts), 6)}")
    return "\n".join(lines)


def _render_info(result: CallResult, state: QuestionState, config: KGConfig) -> str:
    info = result.result if isinstance(result.result, dict) else {}
    keys = [k for k in INFO_KEYS if k in info] or list(info)[: config.max_list_items]
    return "\n".join(f"{_subject(result)} / {key}: {_plain(info[key], config)}" for key in keys)


# --- movie --------------------------------------------------------------------------------------


def _movie_lines(movie: dict, config: KGConfig) -> list[str]:
    title = movie.get("title", "?")
    lines = [f"Movie: {title}"]
    for key in ("release_date", "original_title", "original_language", "length", "rating", "budget", "revenue"):
        if not _is_empty(movie.get(key)):
            lines.append(f"{title} / {key}: {_number(movie[key])}")
    genres = [g.get("name") for g in movie.get("genres") or [] if isinstance(g, dict)]
    if genres:
        lines.append(f"{title} / genres: {', '.join(filter(None, genres))}")
    crew = [c for c in movie.get("crew") or [] if isinstance(c, dict)]
    directors = [c.get("name") for c in crew if c.get("job") == "Director"]
    if directors:
        lines.append(f"{title} / director: {', '.join(filter(None, directors))}")
    cast = sorted((c for c in movie.get("cast") or [] if isinstance(c, dict)), key=lambda c: c.get("order", 0))
    if cast:
        shown = [f"{c.get('name')} as {c.get('character')}" if c.get("character") else str(c.get("name")) for c in cast]
        lines.append(f"{title} / cast: {_plain(shown, config)}")
    lines += _oscar_lines(title, movie.get("oscar_awards"), config)
    return lines


def _oscar_lines(subject: str, awards: Any, config: KGConfig) -> list[str]:
    lines = []
    for award in (awards or [])[: config.max_list_items]:
        if isinstance(award, dict):
            outcome = "won" if award.get("winner") else "nominated"
            lines.append(
                f"{subject} / Oscar {award.get('year_ceremony')} {str(award.get('category', '')).lower()}: "
                f"{award.get('name')} ({award.get('film')}), {outcome}"
            )
    return lines


def _render_movies(result: CallResult, state: QuestionState, config: KGConfig) -> str:
    movies = result.result if isinstance(result.result, list) else [result.result]
    wanted = _subject(result).lower()
    movies = [m for m in movies if isinstance(m, dict)]
    exact = [m for m in movies if str(m.get("title", "")).lower() == wanted]
    chosen = exact or movies[:1]
    return "\n".join(line for movie in chosen for line in _movie_lines(movie, config))


def _movies_by_id(state: QuestionState) -> dict[int, dict]:
    return {
        r.call.body["query"]: r.result
        for r in state.results
        if r.ok and r.call.route == "movie_get_movie_info_by_id" and isinstance(r.result, dict)
    }


def _movie_ids_shown_elsewhere(state: QuestionState) -> set[int]:
    ids: set[int] = set()
    for result in state.results:
        if not result.ok:
            continue
        records = result.result if isinstance(result.result, list) else [result.result]
        for record in records:
            if not isinstance(record, dict):
                continue
            if result.call.route == "movie_get_person_info":
                ids.update((record.get("acted_movies") or []) + (record.get("directed_movies") or []))
            elif result.call.route == "movie_get_year_info":
                ids.update(record.get("movie_list") or [])
    return ids


def _movie_brief(movie_id: Any, by_id: dict[int, dict]) -> str:
    movie = by_id.get(movie_id)
    if not movie:
        return f"id {movie_id}"
    facts = [movie.get("release_date"), f"rating {movie['rating']}" if movie.get("rating") is not None else None]
    if movie.get("revenue"):
        facts.append(f"revenue {_number(movie['revenue'])}")
    return f"{movie.get('title')} ({', '.join(str(f) for f in facts if f)})"


def _render_people(result: CallResult, state: QuestionState, config: KGConfig) -> str:
    people = result.result if isinstance(result.result, list) else [result.result]
    people = [p for p in people if isinstance(p, dict)]
    wanted = _subject(result).lower()
    chosen = [p for p in people if str(p.get("name", "")).lower() == wanted] or people[:1]
    by_id = _movies_by_id(state)
    lines = []
    for person in chosen:
        name = person.get("name", "?")
        lines.append(f"Person: {name}")
        if person.get("birthday"):
            lines.append(f"{name} / birthday: {person['birthday']}")
        for key, label in (("directed_movies", "directed"), ("acted_movies", "acted in")):
            ids = person.get(key) or []
            if ids:
                shown = [_movie_brief(i, by_id) for i in ids[: config.max_list_items]]
                lines.append(f"{name} / {label} ({len(ids)} movies): {'; '.join(shown)}")
        lines += _oscar_lines(name, person.get("oscar_awards"), config)
    return "\n".join(lines)


def _render_year(result: CallResult, state: QuestionState, config: KGConfig) -> str:
    info = result.result if isinstance(result.result, dict) else {}
    year = _subject(result)
    by_id = _movies_by_id(state)
    lines = []
    movie_ids = info.get("movie_list") or []
    if movie_ids:
        shown = [_movie_brief(i, by_id) for i in movie_ids[: config.max_list_items]]
        lines.append(f"Movies of {year} ({len(movie_ids)} in the KG): {'; '.join(shown)}")
    lines += _oscar_lines(f"Oscars of {year}", info.get("oscar_awards"), config)
    return "\n".join(lines)


# --- music --------------------------------------------------------------------------------------


def _render_billboard_rank(result: CallResult, state: QuestionState, config: KGConfig) -> str:
    rows = result.result if isinstance(result.result, list) else [result.result]
    lines = []
    for row in rows[: config.max_table_rows]:
        if isinstance(row, dict):
            lines.append(
                f"Billboard Hot 100 rank {row.get('rank', result.call.body.get('rank'))} on {row.get('date')}: "
                f"{row.get('song')} by {row.get('artist')}"
            )
        else:
            lines.append(f"Billboard Hot 100 rank {result.call.body.get('rank')}: {_plain(row, config)}")
    return "\n".join(lines)


def _render_billboard_attribute(result: CallResult, state: QuestionState, config: KGConfig) -> str:
    body = result.call.body
    return f"{body['song_name']} / Billboard {body['attribute']} (chart of {body['date']} or the latest before): {_plain(result.result, config)}"


# --- sports -------------------------------------------------------------------------------------


def _render_games(result: CallResult, state: QuestionState, config: KGConfig) -> str:
    nba = result.call.route.startswith("sports_nba")
    rows = game_rows(result.result)
    date_key = "game_date" if nba else "date"
    spans = sport_spans(state, "nba" if nba else "soccer", config)
    items = [(_parse_day(row.get(date_key, "")), row) for row in rows]
    chosen, note = _select_dated([i for i in items if i[0] is not None], spans, _today(state), config)
    if not chosen:
        return ""
    if nba:
        table = _table(
            ["date", "home", "pts", "away", "pts", "winner", "game_id"],
            [
                [d.isoformat(), r.get("team_name_home"), r.get("pts_home"), r.get("team_name_away"), r.get("pts_away"),
                 r.get("team_name_home") if r.get("wl_home") == "W" else r.get("team_name_away"), r.get("game_id")]
                for d, r in chosen
            ],
        )
        title = f"NBA games ({result.call.body['date']}{', ' + result.call.body['team_name'] if 'team_name' in result.call.body else ''}, KG):"
    else:
        table = _table(
            ["date", "team", "opponent", "venue", "result", "goals for", "goals against", "competition", "captain"],
            [
                [d.isoformat(), r.get("team"), r.get("opponent"), r.get("venue"), r.get("result"), r.get("GF"),
                 r.get("GA"), r.get("comp"), r.get("Captain")]
                for d, r in chosen
            ],
        )
        title = f"Soccer games ({result.call.body['date']}{', ' + result.call.body['team_name'] if 'team_name' in result.call.body else ''}, KG):"
    return "\n".join([title] + ([note] if note else []) + [table])


def _render_play_by_play(result: CallResult, state: QuestionState, config: KGConfig) -> str:
    rows = game_rows(result.result)[: config.max_table_rows]
    if not rows:
        return ""
    table = _table(
        ["game_id", "period", "clock", "score", "event", "player"],
        [
            [r.get("game_id"), r.get("period"), r.get("pctimestring"), r.get("score"),
             r.get("homedescription") or r.get("visitordescription") or r.get("neutraldescription"), r.get("player1_name")]
            for r in rows
        ],
    )
    return "NBA play-by-play (first events, KG):\n" + table


# --- open and generic ---------------------------------------------------------------------------


def _render_entity(result: CallResult, state: QuestionState, config: KGConfig) -> str:
    entity = result.result if isinstance(result.result, dict) else {}
    name = _subject(result)
    lines = []
    if entity.get("summary_text"):
        lines.append(f"{name}: {entity['summary_text']}")
    structured = entity.get("summary_structured")
    if isinstance(structured, dict):
        lines += [f"{name} / {k}: {_plain(v, config)}" for k, v in list(structured.items())[: config.max_list_items]]
    return "\n".join(lines)


def _render_fact(result: CallResult, state: QuestionState, config: KGConfig) -> str:
    route = result.call.route
    label = FACT_LABELS.get(route, route)
    subject = _subject(result)
    if isinstance(result.result, (dict, list)) and route not in FACT_LABELS:
        return f"{subject} / {label}: {json.dumps(result.result, ensure_ascii=False, default=str)}"
    return f"{subject} / {label}: {_plain(result.result, config)}" if subject else f"{label}: {_plain(result.result, config)}"


Renderer = Callable[[CallResult, QuestionState, KGConfig], str]
_RENDERERS: dict[str, Renderer] = {
    "finance_get_price_history": _render_prices,
    "finance_get_detailed_price_history": _render_prices,
    "finance_get_dividends_history": _render_dividends,
    "finance_get_info": _render_info,
    "movie_get_movie_info": _render_movies,
    "movie_get_movie_info_by_id": _render_movies,
    "movie_get_person_info": _render_people,
    "movie_get_person_info_by_id": _render_people,
    "movie_get_year_info": _render_year,
    "music_get_billboard_rank_date": _render_billboard_rank,
    "music_get_billboard_attributes": _render_billboard_attribute,
    "sports_nba_get_games_on_date": _render_games,
    "sports_soccer_get_games_on_date": _render_games,
    "sports_nba_get_play_by_play_data_by_game_ids": _render_play_by_play,
    "open_get_entity": _render_entity,
}
