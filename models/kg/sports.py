"""Sports: NBA and soccer games around the question's time, rendered as facts per asked team.

The official lookups need the exact team spelling of the source ("Houston Rockets", "Manchester
Utd"), so a day's games are asked for without a team and matched locally; NBA team-specific calls
use the built-in table of the 30 franchises; a soccer team's spelling is learned from a first
month of games before whole seasons are asked for it. Soccer's league, season, team and game live
only in the row key (the repr of the 4-level index tuple). A year of all games and play-by-play are
the slowest calls of the API: whole years are fetched only for a known team, play-by-play only for
one identified game.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from models.config import KGConfig
from models.kg.formatting import column_rows, dated, number, parse_day
from models.kg.matching import match_team, nba_team_names
from models.kg.routes import ApiCall
from models.kg.state import Evidence, PlanContext, QuestionState
from models.kg.timeparse import DateSpan

NBA_GAMES, SOCCER_GAMES = "sports_nba_get_games_on_date", "sports_soccer_get_games_on_date"
PLAY_BY_PLAY = "sports_nba_get_play_by_play_data_by_game_ids"
PLAY_BY_PLAY_WORDS = re.compile(
    r"play[- ]by[- ]play|first (?:basket|points|shot)|scored first|quarter|period|foul|turnover|steal|block|"
    r"last shot|buzzer|who scored"
)
NBA_STATS = [("fgm", "field goals made"), ("fga", "field goals attempted"), ("fg3m", "three-pointers made"),
             ("ftm", "free throws made"), ("reb", "rebounds"), ("ast", "assists"), ("stl", "steals"),
             ("blk", "blocks"), ("tov", "turnovers")]


def applies(state: QuestionState) -> bool:
    return state.domain == "sports" or bool(state.entities.teams)


def _clean(name: str) -> str:
    """The official NBA SQL breaks on apostrophes; soccer spellings never need them."""
    return name.replace("'", "").replace("\u2019", "").strip()


def sports_of(state: QuestionState) -> list[str]:
    if state.entities.sport:
        return [state.entities.sport]
    if state.entities.teams and all(nba_team_names(t) for t in state.entities.teams):
        return ["nba"]
    if state.entities.teams and not any(nba_team_names(t) for t in state.entities.teams):
        return ["soccer"]
    return ["nba", "soccer"]


def spans_for(state: QuestionState, sport: str, config: KGConfig) -> list[DateSpan]:
    month = config.nba_season_start_month if sport == "nba" else config.soccer_season_start_month
    today = state.today
    return [s for s in state.spans(month) if today is None or s.start <= today]


def _months(start: date, end: date) -> list[str]:
    months, year, month = [], start.year, start.month
    while (year, month) <= (end.year, end.month):
        months.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return months


def _date_arguments(span: DateSpan, team_known: bool, config: KGConfig) -> list[str]:
    if span.granularity == "day":
        return [span.start.isoformat()]
    if span.granularity == "month":
        return [span.label]
    days = (span.end - span.start).days + 1
    if not team_known and days <= config.max_date_calls:
        # latest first: under a tight budget the days nearest the question are kept
        return [(span.end - timedelta(days=i)).isoformat() for i in range(days)]
    months = _months(span.start, span.end)
    if len(months) <= (config.max_date_calls if team_known else 1):
        return months
    if team_known:
        return [str(year) for year in range(span.start.year, span.end.year + 1)]
    return []


def _months_back(today: date, count: int) -> list[str]:
    months, day = [], today
    for _ in range(count):
        months.append(day.strftime("%Y-%m"))
        day = day.replace(day=1) - timedelta(days=1)
    return months


def plan(state: QuestionState, context: PlanContext) -> list[ApiCall]:
    config = context.config
    calls: list[ApiCall] = []
    for sport in sports_of(state):
        route = NBA_GAMES if sport == "nba" else SOCCER_GAMES

        def games_call(day: str, team: str | None = None) -> ApiCall:
            return ApiCall(route, {"date": day, **({"team_name": team} if team else {})})

        def covered(call: ApiCall) -> bool:
            """A team's games of a date that every team's games of that date already hold."""
            return bool(call.body.get("team_name")) and state.answer(route, date=call.body["date"])[0]

        spans = spans_for(state, sport, config)
        for asked in _teams_asked(state):
            team = _team_spelling(state, sport, asked, config) if asked else None
            for span in spans:
                if span.granularity == "day" or asked is None:
                    # a day's games are few: asked for without a team and matched locally
                    calls += [games_call(d) for d in _date_arguments(span, False, config)]
                elif team:
                    calls += [c for d in _date_arguments(span, True, config) if not covered(c := games_call(d, team))]
                else:  # the source's spelling is unknown: learn it from a month of every team's games
                    calls.append(games_call(min(span.end, state.today or span.end).strftime("%Y-%m")))
            if spans or asked is None or state.today is None:
                continue
            # no time named: the team's last game before the question, looking back month by month
            for month in _months_back(state.today, config.last_game_lookback_months):
                call = games_call(month, team)
                answered = covered(call) or state.done(call.route, **call.body)
                calls += [] if covered(call) else [call]
                if not answered or _games(state, sport, team, config, before=state.today):
                    break
        if sport == "nba" and PLAY_BY_PLAY_WORDS.search(state.lowered):
            calls += _play_by_play(state, config)
    return calls


def _team_spelling(state: QuestionState, sport: str, asked: str, config: KGConfig) -> str | None:
    """The exact name the API needs: the NBA table's, else a spelling seen in the rows so far."""
    names = nba_team_names(asked) if sport == "nba" else ()
    return names[0] if names else match_team(_clean(asked), _available_teams(state, sport), config.min_name_similarity)


def _play_by_play(state: QuestionState, config: KGConfig) -> list[ApiCall]:
    games = [g for team in _teams_asked(state) for g in _relevant(state, "nba", team, config)]
    ids = list(dict.fromkeys(g.game_id for g in games if g.game_id))
    # one identified game: the asked day's, or with no time named the last one
    if len(ids) == 1 or (ids and not spans_for(state, "nba", config)):
        return [ApiCall(PLAY_BY_PLAY, {"game_ids": [ids[-1]]})]
    return []


# --- rows ---------------------------------------------------------------------------------------------


@dataclass
class Game:
    day: date
    game_id: str
    home: str
    away: str
    home_score: float | None
    away_score: float | None
    context: str = ""  # league and season (soccer) or season id (NBA)
    row: dict = field(default_factory=dict)


@dataclass
class SoccerRow:
    league: str
    season: str
    team: str
    game: str
    row: dict


def _nba_games(state: QuestionState) -> list[Game]:
    games: dict[str, Game] = {}
    for result in state.answered(NBA_GAMES):
        for _, row in column_rows(result.result):
            day = parse_day(row.get("game_date"))
            if day is None:
                continue
            game_id = str(row.get("game_id") or f"{day}-{row.get('team_name_home')}")
            games[game_id] = Game(day, game_id, str(row.get("team_name_home")), str(row.get("team_name_away")),
                                  row.get("pts_home"), row.get("pts_away"), str(row.get("season_id") or ""), row)
    return sorted(games.values(), key=lambda g: (g.day, g.game_id))


def _teams_asked(state: QuestionState) -> list[str | None]:
    """The teams the question names; None when it names none (every team's games)."""
    teams: list[str | None] = list(state.entities.teams)
    return teams or [None]


def _soccer_rows(state: QuestionState) -> list[SoccerRow]:
    rows: dict[tuple, SoccerRow] = {}
    for result in state.answered(SOCCER_GAMES):
        for key, row in column_rows(result.result):
            try:
                parts = ast.literal_eval(key)
            except (ValueError, SyntaxError):
                continue
            if isinstance(parts, tuple) and len(parts) == 4:
                league, season, team, game = (str(p) for p in parts)
                rows[parts] = SoccerRow(league, season, team, game, row=row)
    return list(rows.values())


def _number(value: Any) -> float | None:
    try:
        return float(value)  # GF/GA are strings in the published data
    except (TypeError, ValueError):
        return None


def _soccer_games(state: QuestionState, team: str | None) -> list[Game]:
    """One Game per match, seen from `team`'s side when given (home = the team when it played home)."""
    games: dict[str, Game] = {}
    for entry in _soccer_rows(state):
        if team is not None and entry.team != team:
            continue
        day = parse_day(entry.row.get("date")) or parse_day(entry.game)
        if day is None:
            continue
        opponent = str(entry.row.get("opponent") or "?")
        gf, ga = _number(entry.row.get("GF")), _number(entry.row.get("GA"))
        home_side = str(entry.row.get("venue") or "").lower() != "away"
        home, away = (entry.team, opponent) if home_side else (opponent, entry.team)
        scores = (gf, ga) if home_side else (ga, gf)
        game_id = f"{entry.league}|{entry.game}"
        if game_id not in games or entry.team == team:
            games[game_id] = Game(day, game_id, home, away, *scores, context=f"{entry.league} {entry.season}", row=entry.row | {"_team": entry.team})
    return sorted(games.values(), key=lambda g: (g.day, g.game_id))


def _available_teams(state: QuestionState, sport: str) -> list[str]:
    if sport == "nba":
        return sorted({name for g in _nba_games(state) for name in (g.home, g.away)})
    return sorted({row.team for row in _soccer_rows(state)})


def _resolved(state: QuestionState, sport: str, asked: str, config: KGConfig) -> str | None:
    return match_team(_clean(asked), _available_teams(state, sport), config.min_name_similarity) or (
        (nba_team_names(asked) or (None,))[0] if sport == "nba" else None
    )


def _games(state: QuestionState, sport: str, team: str | None, config: KGConfig, before: date | None = None) -> list[Game]:
    games = _nba_games(state) if sport == "nba" else _soccer_games(state, team)
    if team is not None:
        games = [g for g in games if team in (g.home, g.away)]
    return [g for g in games if before is None or g.day <= before]


def _relevant(state: QuestionState, sport: str, asked: str | None, config: KGConfig) -> list[Game]:
    team = _resolved(state, sport, asked, config) if asked else None
    if asked and team is None:
        return []
    spans = spans_for(state, sport, config)
    games = _games(state, sport, team, config, before=state.today)
    if spans:
        return [g for g in games if any(s.contains(g.day) for s in spans)]
    return games[-1:]


# --- rendering ----------------------------------------------------------------------------------------


def render(state: QuestionState, context: PlanContext) -> Evidence:
    config = context.config
    evidence = Evidence()
    for sport in sports_of(state):
        route = NBA_GAMES if sport == "nba" else SOCCER_GAMES
        if not state.answered(route):
            continue
        spans = spans_for(state, sport, config)
        for asked in _teams_asked(state):
            evidence.extend(_render_team(state, sport, asked, spans, config))
        if sport == "nba":
            evidence.extend(_render_play_by_play(state, config))
    return evidence


def _render_team(state: QuestionState, sport: str, asked: str | None, spans: list[DateSpan], config: KGConfig) -> Evidence:
    evidence = Evidence()
    league = "NBA" if sport == "nba" else "soccer"
    team = _resolved(state, sport, asked, config) if asked else None
    known = team is not None and (sport == "nba" or team in _available_teams(state, sport))
    if asked and team is None:
        evidence.add(f"No {league} team named {asked!r} found in the KG's games for the asked dates", found=False)
        return evidence
    games = _games(state, sport, team, config, before=state.today)
    subject = team or f"{league} games"
    if not spans:
        if not games:
            evidence.add(f"{subject}: no game in the KG before the question's day", found=False)
            return evidence
        last = games[-1]
        asked = dated(state.today) if state.today else "?"
        evidence.add(f"{subject}: the last game before the question's date, {asked}, was on {dated(last.day)}:\n"
                     + _game_line(last, team, sport))
        earlier = games[-4:-1]
        if earlier:
            evidence.add(f"{subject}, the games before it:\n" + "\n".join(_game_line(g, team, sport, False) for g in earlier))
        return evidence
    for span in spans[:2]:
        inside = [g for g in games if span.contains(g.day)]
        where = dated(span.start) if span.granularity == "day" else f"{span.phrase} ({span.label})"
        if not inside:
            note = f"{team} played no {league} game on {where}" if team else f"No {league} games in the KG on {where}"
            before = [g for g in games if g.day < span.start]
            if before and team:
                note += f"; their last game before it:\n{_game_line(before[-1], team, sport)}"
            evidence.add(note, found=known)
            continue
        lines = [f"{subject} on {where} ({len(inside)} games, KG):"]
        if team and len(inside) > 1:
            lines.append(_record(inside, team, sport))
        detailed = len(inside) <= 2
        lines += [_game_line(g, team, sport, detailed) for g in inside[-config.max_table_rows :]]
        evidence.add("\n".join(lines))
    return evidence


def _score(value: float | None) -> str:
    return "?" if value is None else number(int(value)) if float(value).is_integer() else number(value)


def _game_line(game: Game, team: str | None, sport: str, detailed: bool = True) -> str:
    winner = None
    if game.home_score is not None and game.away_score is not None and game.home_score != game.away_score:
        winner = game.home if game.home_score > game.away_score else game.away
    line = (f"- {dated(game.day)}{' ' + game.context if game.context and sport == 'soccer' else ''}: "
            f"{game.home} (home) {_score(game.home_score)} - {_score(game.away_score)} {game.away} (away); "
            + (f"winner {winner}" if winner else "draw" if game.home_score is not None else "result unknown"))
    if team:
        side = "home" if team == game.home else "away"
        outcome = "won" if winner == team else "lost" if winner else "drew"
        line += f"; {team} played {side} and {outcome}"
    if not detailed:
        return line
    if team and game.home_score is not None and game.away_score is not None:
        home = team == game.home
        own, other = (game.home_score, game.away_score) if home else (game.away_score, game.home_score)
        line += (f"; {team} scored {_score(own)} {'points' if sport == 'nba' else 'goals'}, "
                 f"{game.away if home else game.home} {_score(other)}")
    if sport == "nba":
        line += f"; game_id {game.game_id}"
        if team:
            side = "home" if team == game.home else "away"
            stats = [f"{label} {_score(game.row.get(f'{key}_{side}'))}" for key, label in NBA_STATS if game.row.get(f"{key}_{side}") is not None]
            if stats:
                line += f"; {team}: " + ", ".join(stats)
    else:
        row = game.row
        extras = [f"{k} {number(row[k])}" for k in ("round", "time", "Captain", "Formation", "Referee", "Attendance", "xG", "xGA", "Poss")
                  if row.get(k) not in (None, "") and team]
        if extras:
            line += f"; {row.get('_team')}: " + ", ".join(extras)
    return line


def _record(games: list[Game], team: str, sport: str) -> str:
    wins = losses = draws = 0
    scored = conceded = 0.0
    home = {"W": 0, "L": 0, "D": 0}
    away = {"W": 0, "L": 0, "D": 0}
    for game in games:
        mine, theirs = (game.home_score, game.away_score) if team == game.home else (game.away_score, game.home_score)
        if mine is None or theirs is None:
            continue
        scored += mine
        conceded += theirs
        outcome = "W" if mine > theirs else "L" if mine < theirs else "D"
        wins, losses, draws = wins + (outcome == "W"), losses + (outcome == "L"), draws + (outcome == "D")
        (home if team == game.home else away)[outcome] += 1
    unit = "points" if sport == "nba" else "goals"
    played = wins + losses + draws
    record = f"{wins} wins, {losses} losses" + (f", {draws} draws" if sport == "soccer" else "")
    return (f"{team} record over these {played} games: {record}; {unit} scored {_score(scored)} "
            f"(average {scored / played:.1f}), {unit} conceded {_score(conceded)}; home {home['W']}-{home['L']}"
            + (f"-{home['D']}" if sport == "soccer" else "") + f", away {away['W']}-{away['L']}"
            + (f"-{away['D']}" if sport == "soccer" else "")) if played else ""


def _scorer(row: dict) -> str:
    return (f"{row.get('player1_name') or 'unknown player'} (period {row.get('period')} {row.get('pctimestring')}, "
            f"score {row.get('score')})")


def _render_play_by_play(state: QuestionState, config: KGConfig) -> Evidence:
    evidence = Evidence()
    for result in state.answered(PLAY_BY_PLAY):
        rows = [row for _, row in column_rows(result.result)]
        if not rows:
            continue
        scoring = [r for r in rows if r.get("score")]
        lines = [f"NBA play-by-play of game {', '.join(result.call.body['game_ids'])} ({len(rows)} events, KG):"]
        if scoring:
            lines.append(f"- first points of the game: {_scorer(scoring[0])}; last points: {_scorer(scoring[-1])}")
        shown = rows[: config.max_table_rows // 2] + (scoring[-(config.max_table_rows // 2):] if scoring else [])
        for row in {id(r): r for r in shown}.values():
            text = row.get("homedescription") or row.get("visitordescription") or row.get("neutraldescription")
            player = f" [{row['player1_name']}]" if row.get("player1_name") else ""
            lines.append(f"- period {row.get('period')} {row.get('pctimestring')}: {text}{player} (score {row.get('score') or '-'})")
        evidence.add("\n".join(lines))
    return evidence
