"""Sports: NBA and soccer games around the question's time, rendered as facts per asked team; what
is read off them is the relation the reading picked (models/kg/relations.py:SPORTS).

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

from models import vocabulary
from models.config import KGConfig
from models.kg.answer import Fact, FactTable
from models.kg.domain import Domain, table_of
from models.kg.formatting import column_rows, dated, number, parse_day
from models.kg.matching import loose_key, match_team, nba_team_names
from models.kg.relations import BY_NAME, SPORTS
from models.kg.routes import ApiCall
from models.kg.state import Evidence, PlanContext, QuestionState
from models.kg.timeparse import DateSpan, weekday_name

NBA_GAMES, SOCCER_GAMES = "sports_nba_get_games_on_date", "sports_soccer_get_games_on_date"
PLAY_BY_PLAY = "sports_nba_get_play_by_play_data_by_game_ids"
_RUNNING_POINTS = re.compile(vocabulary.RUNNING_POINTS)
SOCCER_FIELDS = tuple(column.lower() for column in vocabulary.SOCCER_FIELDS)
NBA_STATS = [
    ("fgm", "field goals made"),
    ("fga", "field goals attempted"),
    ("fg3m", "three-pointers made"),
    ("ftm", "free throws made"),
    ("reb", "rebounds"),
    ("ast", "assists"),
    ("stl", "steals"),
    ("blk", "blocks"),
    ("tov", "turnovers"),
]


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
    """The question's time spans up to its day; "the third quarter" of a game is no calendar quarter."""
    month = config.nba_season_start_month if sport == "nba" else config.soccer_season_start_month
    today = state.today
    return [s for s in state.reading.time.calendar_spans(month) if today is None or s.start <= today]


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

        def month_of(day: date, team: str | None) -> list[ApiCall]:
            call = games_call(day.strftime("%Y-%m"), team)
            return [] if covered(call) else [call]

        spans = spans_for(state, sport, config)
        for asked in _teams_asked(state, sport):
            team = _team_spelling(state, sport, asked, config) if asked else None
            for span in spans:
                if span.granularity == "day" or asked is None:
                    # a day's games are few: asked for without a team and matched locally
                    calls += [games_call(d) for d in _date_arguments(span, False, config)]
                    if (
                        asked
                        and span.granularity == "day"
                        and (team or sport == "soccer")
                        and _missing_on(state, sport, asked, span.start, config)
                    ):
                        # no game of the team that day (a false premise?): its month, for the games around it
                        calls += month_of(span.start, team)
                elif team:
                    calls += [
                        c
                        for d in _date_arguments(span, True, config)
                        if not covered(c := games_call(d, team))
                    ]
                else:  # the source's spelling is unknown: learn it from a month of every team's games
                    calls += month_of(min(span.end, state.today or span.end), None)
            if spans or asked is None or state.today is None:
                continue
            if state.reading.asks("next_game"):
                # the team's next game: this month, then the next one
                for first_day in (
                    state.today.replace(day=1),
                    (state.today.replace(day=28) + timedelta(days=4)).replace(day=1),
                ):
                    call = games_call(first_day.strftime("%Y-%m"), team)
                    answered = covered(call) or state.done(call.route, **call.body)
                    calls += [] if covered(call) else [call]
                    if not answered or _games(state, sport, team, config, after=state.today):
                        break
                continue
            # no time named: the team's last game before the question, looking back month by month
            for month in _months_back(state.today, config.last_game_lookback_months):
                call = games_call(month, team)
                answered = covered(call) or state.done(call.route, **call.body)
                calls += [] if covered(call) else [call]
                if not answered or _games(state, sport, team, config, before=state.today):
                    break
        if sport == "nba":
            calls += _play_by_play(state, config)
    return calls


def _missing_on(state: QuestionState, sport: str, asked: str, day: date, config: KGConfig) -> bool:
    """The games of `day` came back and none is the team's (an unknown team counts as missing)."""
    route = NBA_GAMES if sport == "nba" else SOCCER_GAMES
    if not state.done(route, date=day.isoformat()):
        return False
    return not [g for g in _relevant_games(state, sport, asked, config) if g.day == day]


def _team_spelling(state: QuestionState, sport: str, asked: str, config: KGConfig) -> str | None:
    """The exact name the API needs: the NBA table's, else a spelling seen in the rows so far."""
    names = nba_team_names(asked) if sport == "nba" else ()
    return (
        names[0]
        if names
        else match_team(_clean(asked), _available_teams(state, sport), config.min_name_similarity)
    )


def _play_by_play(state: QuestionState, config: KGConfig) -> list[ApiCall]:
    """Play-by-play of one identified game (the asked day's, or with no time named the last one) when
    the wording asks about plays; for a player's numbers ("how many points did X score on <day>?"),
    of every game of the asked day, the player being found in the events by name."""
    spans = spans_for(state, "nba", config)
    if _players(state, "nba"):
        days = {span.start for span in spans if span.granularity == "day"}
        ids = [g.game_id for g in _nba_games(state) if g.day in days and g.game_id]
        return [ApiCall(PLAY_BY_PLAY, {"game_ids": sorted(set(ids))})] if ids else []
    if not state.reading.asks("play_by_play"):
        return []
    games = [g for team in _teams_asked(state, "nba") for g in _relevant(state, "nba", team, config)]
    ids = list(dict.fromkeys(g.game_id for g in games if g.game_id))
    if ids[-1:] and ids[-1] in _game_events(state):
        return []  # fetched already, with the day's other games (for a name read as a player)
    if len(ids) == 1 or (ids and not spans):
        return [ApiCall(PLAY_BY_PLAY, {"game_ids": [ids[-1]]})]
    return []


def _player_candidates(state: QuestionState, sport: str) -> list[str]:
    """The names that may be people (not teams) whose numbers in a game of a named day an NBA question
    asks about: names read that are no NBA team, and the subject of "did X score" when it is no team
    either."""
    intent = state.reading
    days = [span for span in intent.time.spans if span.granularity == "day"] if sport == "nba" else []
    if not (days and intent.picks("sports", "player_points")):
        return []
    names = [name for name in [*state.entities.teams, *state.entities.entities] if not nba_team_names(name)]
    names += [s.name for s in intent.subjects if s.kind == "players" and not nba_team_names(s.name)]
    return list(dict.fromkeys(names))


def _players(state: QuestionState, sport: str) -> list[str]:
    """The candidates (`_player_candidates`) the KG's own answers make players: once the day's
    play-by-play is in, a name none of its players has is a team again (one the KG may not know)."""
    names = _player_candidates(state, sport)
    events = [row for result in state.answered(PLAY_BY_PLAY) for _, row in column_rows(result.result)]
    if names and state.answered(PLAY_BY_PLAY):
        names = [
            name
            for name in names
            if any(_is_player(str(row.get("player1_name") or ""), name) for row in events)
        ]
    return names


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
            games[game_id] = Game(
                day,
                game_id,
                str(row.get("team_name_home")),
                str(row.get("team_name_away")),
                row.get("pts_home"),
                row.get("pts_away"),
                str(row.get("season_id") or ""),
                row,
            )
    return sorted(games.values(), key=lambda g: (g.day, g.game_id))


def _teams_asked(state: QuestionState, sport: str) -> list[str | None]:
    """The teams the question names (not its players); None when it names none (every team's games)."""
    players = set(_players(state, sport))
    teams: list[str | None] = [team for team in state.entities.teams if team not in players]
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
            games[game_id] = Game(
                day,
                game_id,
                home,
                away,
                *scores,
                context=f"{entry.league} {entry.season}",
                row=entry.row | {"_team": entry.team},
            )
    return sorted(games.values(), key=lambda g: (g.day, g.game_id))


def _available_teams(state: QuestionState, sport: str) -> list[str]:
    if sport == "nba":
        return sorted({name for g in _nba_games(state) for name in (g.home, g.away)})
    return sorted({row.team for row in _soccer_rows(state)})


def _resolved(state: QuestionState, sport: str, asked: str, config: KGConfig) -> str | None:
    return match_team(_clean(asked), _available_teams(state, sport), config.min_name_similarity) or (
        (nba_team_names(asked) or (None,))[0] if sport == "nba" else None
    )


def _games(
    state: QuestionState,
    sport: str,
    team: str | None,
    config: KGConfig,
    before: date | None = None,
    after: date | None = None,
) -> list[Game]:
    """The games in the rows so far (of `team` when given), up to `before` and after `after` when given."""
    games = _nba_games(state) if sport == "nba" else _soccer_games(state, team)
    if team is not None:
        games = [g for g in games if team in (g.home, g.away)]
    return [g for g in games if (before is None or g.day <= before) and (after is None or g.day > after)]


def _relevant_games(state: QuestionState, sport: str, asked: str, config: KGConfig) -> list[Game]:
    """Every game in the rows so far of the team `asked` names ([] when no row names it)."""
    team = _resolved(state, sport, asked, config)
    return _games(state, sport, team, config) if team else []


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
        for asked in _teams_asked(state, sport):
            evidence.extend(_render_team(state, sport, asked, spans, config))
        if sport == "nba":
            evidence.extend(_render_players(state))
            evidence.extend(_render_play_by_play(state, config))
    return evidence


def _render_team(
    state: QuestionState, sport: str, asked: str | None, spans: list[DateSpan], config: KGConfig
) -> Evidence:
    evidence = Evidence()
    league = "NBA" if sport == "nba" else "soccer"
    team = _resolved(state, sport, asked, config) if asked else None
    known = team is not None and (sport == "nba" or team in _available_teams(state, sport))
    if asked and team is None:
        evidence.add(
            f"No {league} team named {asked!r} found in the KG's games for the asked dates", found=False
        )
        return evidence
    games = _games(state, sport, team, config, before=state.today)
    subject = team or f"{league} games"
    if not spans:
        if team and state.reading.asks("next_game"):
            evidence.add(_next_game(state, sport, team, config), found=True)
            return evidence
        if not games:
            evidence.add(f"{subject}: no game in the KG before the question's day", found=False)
            return evidence
        last = games[-1]
        asked = dated(state.today) if state.today else "?"
        evidence.add(
            f"{subject}: the last game before the question's date, {asked}, was on {dated(last.day)}:\n"
            + _game_line(last, team, sport)
        )
        earlier = games[-4:-1]
        if earlier:
            evidence.add(
                f"{subject}, the games before it:\n"
                + "\n".join(_game_line(g, team, sport, False) for g in earlier)
            )
        return evidence
    for span in spans[:2]:
        inside = [g for g in games if span.contains(g.day)]
        where = dated(span.start) if span.granularity == "day" else f"{span.phrase} ({span.label})"
        if not inside:
            evidence.add(
                _no_game(state, sport, team, span, where, config),
                found=known,
                # a day without a game, or a span without the one game a lookup asks about ("who
                # will they play this week?"), denies what the question assumes; a count of none does not
                contradicts=span.granularity == "day" or state.reading.operation == "lookup",
            )
            continue
        lines = [f"{subject} on {where} ({len(inside)} games, KG):"]
        if team and len(inside) > 1:
            lines += [_record(inside, team, sport), *_opponents(inside, team)]
        if len(inside) <= 2:
            lines += [_game_line(g, team, sport) for g in inside]
        else:
            rows = inside if state.reading.asks_for_rows else inside[-config.max_table_rows :]
            lines += [_game_row(g, team) for g in rows]
        evidence.add("\n".join(lines))
    return evidence


def _no_game(
    state: QuestionState, sport: str, team: str | None, span: DateSpan, where: str, config: KGConfig
) -> str:
    """A span without a game of the team: says so, with the team's games just before and after it."""
    league = "NBA" if sport == "nba" else "soccer"
    if not team:
        return f"No {league} games in the KG on {where}"
    note = f"{team} played no {league} game on {where}"
    every = _games(state, sport, team, config)
    before = [g for g in every if g.day < span.start]
    after = [g for g in every if g.day > span.end and (state.today is None or g.day <= state.today)]
    if before:
        note += f"; their last game before it:\n{_game_line(before[-1], team, sport)}"
    if after:
        note += f"\n{team}'s next game after it:\n{_game_line(after[0], team, sport)}"
    return note


def _next_game(state: QuestionState, sport: str, team: str, config: KGConfig) -> str:
    upcoming = _games(state, sport, team, config, after=state.today)
    today = dated(state.today) if state.today else "?"
    if not upcoming:
        return f"{team}: no game after the question's date, {today}, in the KG's games so far"
    game = upcoming[0]
    return (
        f"{team}: the next game after the question's date, {today}, is on {dated(game.day)} "
        f"(not played yet at the question's time):\n" + _game_line(game, team, sport, played=False)
    )


def _opponents(games: list[Game], team: str) -> list[str]:
    """Who beat the team and whom it beat over `games` (each opponent once, with the dates)."""
    lines = []
    for outcome, label in (("lost", f"teams that beat {team}"), ("won", f"teams {team} beat")):
        met: dict[str, list[str]] = {}
        for game in games:
            if _outcome(game, team) == outcome:
                met.setdefault(game.away if team == game.home else game.home, []).append(game.day.isoformat())
        lines.append(
            f"{label} ({len(met)}): "
            + ("; ".join(f"{name} ({', '.join(days)})" for name, days in met.items()) or "none")
        )
    return lines


def _outcome(game: Game, team: str) -> str | None:
    """ "won", "lost" or "drew" for `team`, None when the score is unknown."""
    if game.home_score is None or game.away_score is None:
        return None
    mine, theirs = (
        (game.home_score, game.away_score) if team == game.home else (game.away_score, game.home_score)
    )
    return "won" if mine > theirs else "lost" if mine < theirs else "drew"


def _game_row(game: Game, team: str | None) -> str:
    """A game in one short line, for a span of many."""
    if team is None:
        return (
            f"- {game.day.isoformat()} {weekday_name(game.day)[:3]}: {game.home} {_score(game.home_score)} - "
            f"{_score(game.away_score)} {game.away}"
        )
    home = team == game.home
    own, other = (game.home_score, game.away_score) if home else (game.away_score, game.home_score)
    return (
        f"- {game.day.isoformat()} {weekday_name(game.day)[:3]}: {'home' if home else 'away'} against "
        f"{game.away if home else game.home}, {_score(own)}-{_score(other)}, "
        f"{_outcome(game, team) or 'result unknown'}"
    )


def _score(value: float | None) -> str:
    return "?" if value is None else number(int(value)) if float(value).is_integer() else number(value)


def _game_line(game: Game, team: str | None, sport: str, detailed: bool = True, played: bool = True) -> str:
    winner = None
    if game.home_score is not None and game.away_score is not None and game.home_score != game.away_score:
        winner = game.home if game.home_score > game.away_score else game.away
    if not played:
        return (
            f"- {dated(game.day)}{' ' + game.context if game.context and sport == 'soccer' else ''}: "
            f"{game.home} (home) against {game.away} (away)"
            + (f"; {_kickoff(game.row)}" if _kickoff(game.row) else "")
        )
    line = (
        f"- {dated(game.day)}{' ' + game.context if game.context and sport == 'soccer' else ''}: "
        f"{game.home} (home) {_score(game.home_score)} - {_score(game.away_score)} {game.away} (away); "
        + (f"winner {winner}" if winner else "draw" if game.home_score is not None else "result unknown")
    )
    if team:
        side = "home" if team == game.home else "away"
        outcome = "won" if winner == team else "lost" if winner else "drew"
        line += f"; {team} played {side} and {outcome}"
    if not detailed:
        return line
    if team and game.home_score is not None and game.away_score is not None:
        home = team == game.home
        own, other = (game.home_score, game.away_score) if home else (game.away_score, game.home_score)
        line += (
            f"; {team} scored {_score(own)} {'points' if sport == 'nba' else 'goals'}, "
            f"{game.away if home else game.home} {_score(other)}"
        )
    if sport == "nba":
        line += f"; game_id {game.game_id}"
        if team:
            side = "home" if team == game.home else "away"
            stats = [
                f"{label} {_score(game.row.get(f'{key}_{side}'))}"
                for key, label in NBA_STATS
                if game.row.get(f"{key}_{side}") is not None
            ]
            if stats:
                line += f"; {team}: " + ", ".join(stats)
    else:
        row = game.row
        extras = [
            f"{k} {number(row[k])}"
            for k in ("round", "time", "Captain", "Formation", "Referee", "Attendance", "xG", "xGA", "Poss")
            if row.get(k) not in (None, "") and team
        ]
        if extras:
            line += f"; {row.get('_team')}: " + ", ".join(extras)
    return line


def _kickoff(row: dict) -> str:
    return ", ".join(
        f"{key} {row[key]}" for key in ("round", "time", "venue") if row.get(key) not in (None, "")
    )


def _record(games: list[Game], team: str, sport: str) -> str:
    wins = losses = draws = 0
    scored = conceded = 0.0
    home = {"W": 0, "L": 0, "D": 0}
    away = {"W": 0, "L": 0, "D": 0}
    for game in games:
        mine, theirs = (
            (game.home_score, game.away_score) if team == game.home else (game.away_score, game.home_score)
        )
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
    return (
        (
            f"{team} record over these {played} games: {record}; {unit} scored {_score(scored)} "
            f"(average {scored / played:.1f}), {unit} conceded {_score(conceded)}; "
            f"home {home['W']}-{home['L']}"
            + (f"-{home['D']}" if sport == "soccer" else "")
            + f", away {away['W']}-{away['L']}"
            + (f"-{away['D']}" if sport == "soccer" else "")
        )
        if played
        else ""
    )


def _scorer(row: dict) -> str:
    return (
        f"{row.get('player1_name') or 'unknown player'} (period {row.get('period')} "
        f"{row.get('pctimestring')}, score {row.get('score')})"
    )


def _description(row: dict) -> str:
    return str(
        row.get("homedescription") or row.get("visitordescription") or row.get("neutraldescription") or ""
    )


def _is_player(name: str, asked: str) -> bool:
    """`name` (the play-by-play's) is the player `asked` names: every word of the asked name in it
    ("deandre jordan" is DeAndre Jordan, not Jerome Jordan; "jordan" alone is either)."""
    words = set(loose_key(name).split())
    return bool(loose_key(asked)) and set(loose_key(asked).split()) <= words


def _render_players(state: QuestionState) -> Evidence:
    """Each asked player's own events in the play-by-play fetched for him, by game, with his free
    throws and points counted."""
    evidence = Evidence()
    games = {g.game_id: g for g in _nba_games(state)}
    for (name, game_id), rows in _player_events(state).items():
        game = games.get(game_id)
        where = (
            f"{game.home} (home) vs {game.away} (away) on {dated(game.day)}" if game else f"game {game_id}"
        )
        made, attempted = _free_throws(rows)
        totals = [int(n) for r in rows for n in _RUNNING_POINTS.findall(_description(r))]
        lines = [
            f"{name} in the play-by-play of {where}, game_id {game_id} ({len(rows)} of his plays, KG):",
            f"- free throws: {made} made of {attempted} attempted ({made} points from free throws)",
            "- his points in the game, counted from his scoring plays (3-pointers 3, other baskets 2, free "
            f"throws 1): {_points(rows)}"
            + (f"; his last scoring play's running total: {max(totals)}" if totals else ""),
        ]
        lines += [f"- period {r.get('period')} {r.get('pctimestring')}: {_description(r)}" for r in rows]
        evidence.add("\n".join(lines))
    return evidence


def _player_events(state: QuestionState) -> dict[tuple[str, str], list[dict]]:
    """(player, game id) -> his own events (he is the event's first player), for the asked players."""
    players = _players(state, "nba")
    found: dict[tuple[str, str], list[dict]] = {}
    for game_id, rows in _game_events(state).items() if players else []:
        for row in rows:
            name = row.get("player1_name")
            if isinstance(name, str) and any(_is_player(name, asked) for asked in players):
                found.setdefault((name, game_id), []).append(row)
    return found


def _game_events(state: QuestionState) -> dict[str, list[dict]]:
    """Every fetched play-by-play event by game, each once, in the table's order."""
    games: dict[str, dict[tuple, dict]] = {}
    for result in state.answered(PLAY_BY_PLAY):
        asked = result.call.body.get("game_ids") or []
        for _, row in column_rows(result.result):
            # a row without its game's id is of the one game the call asked for
            events = games.setdefault(str(row.get("game_id") or (asked[0] if len(asked) == 1 else "")), {})
            events.setdefault(
                (row.get("eventnum"), row.get("period"), row.get("pctimestring"), _description(row)), row
            )
    return {game_id: list(events.values()) for game_id, events in games.items()}


def _free_throws(rows: list[dict]) -> tuple[int, int]:
    throws = [_description(r) for r in rows if "free throw" in _description(r).lower()]
    return sum(1 for t in throws if not t.upper().startswith("MISS")), len(throws)


def _points(rows: list[dict]) -> int:
    """A player's points from his own made shots: the events that changed the score."""
    points = 0
    for row in rows:
        text = _description(row)
        if not row.get("score") or text.upper().startswith("MISS"):
            continue
        points += 1 if "free throw" in text.lower() else 3 if "3PT" in text.upper() else 2
    return points


def _asked_games(state: QuestionState, config: KGConfig) -> list[str]:
    """The fetched games the question asks about: those of its teams in its span (or their last
    one); every fetched game when it names no team."""
    events = _game_events(state)
    teams = [team for team in _teams_asked(state, "nba") if team]
    if not teams:
        return list(events)
    ids = [g.game_id for team in teams for g in _relevant(state, "nba", team, config)]
    return [game_id for game_id in dict.fromkeys(ids) if game_id in events]


def _render_play_by_play(state: QuestionState, config: KGConfig) -> Evidence:
    """Each asked game's events: who scored first and last, the score at the end of each period,
    the first and last events (every scoring event of a period the question names). Left out when
    the events were fetched for a player the question asks about (his own lines say it all); a name
    the events show is no player asks about the game again ("the first basket in the X game")."""
    evidence = Evidence()
    if _players(state, "nba"):
        return evidence
    asked_periods = _asked_periods(state)
    events = _game_events(state)
    for game_id in _asked_games(state, config):
        rows = events[game_id]
        scoring = [r for r in rows if r.get("score")]
        lines = [f"NBA play-by-play of game {game_id} ({len(rows)} events, KG):"]
        if scoring:
            lines.append(
                f"- first points of the game: {_scorer(scoring[0])}; last points: {_scorer(scoring[-1])}"
            )
            ends = {str(r.get("period")): str(r.get("score")) for r in scoring}
            lines.append(
                "- score at the end of each period: "
                + "; ".join(f"period {p} {score}" for p, score in ends.items())
            )
        in_periods = [r for r in scoring if str(r.get("period")) in asked_periods]
        shown = in_periods or rows[: config.max_table_rows // 2] + (
            scoring[-(config.max_table_rows // 2) :] if scoring else []
        )
        for row in {id(r): r for r in shown}.values():
            player = f" [{row['player1_name']}]" if row.get("player1_name") else ""
            lines.append(
                f"- period {row.get('period')} {row.get('pctimestring')}: {_description(row)}{player} (score "
                f"{row.get('score') or '-'})"
            )
        evidence.add("\n".join(lines))
    return evidence


def _asked_periods(state: QuestionState) -> set[str]:
    """The periods (quarters) a question names by their ordinal ("the third quarter": {"3"})."""
    return {str(vocabulary.ORDINAL_WORDS[match["1"]]) for match in state.reading.captures("period_ordinal")}


# --- the asked relation's rows, for the computed answer (models/kg/answer.py) -------------------------

RESULT_CODES = {"won": "W (win)", "lost": "L (loss)", "drew": "D (draw)"}


def facts(state: QuestionState, context: PlanContext) -> FactTable | None:
    """The rows of the relation the reading picked about its team's games (those of the asked span,
    else the last one, or the next one when it asks so): a player's numbers or the first or last
    scorer (the play-by-play), the teams that beat it or that it beat, its wins or losses, a game's
    result, a field of the game's row, the day, the opponent, else the points (goals) scored."""
    config, intent = context.config, state.reading
    for sport in sports_of(state):
        if sport == "nba" and _players(state, sport):
            return _player_table(state)
        if sport == "nba" and intent.picks("sports", "first_scorer", "last_scorer"):
            table = _scorer_table(state, config)
            if table is not None:
                return table
        route = NBA_GAMES if sport == "nba" else SOCCER_GAMES
        if not state.answered(route):
            continue
        rows: list[Fact] = []
        relation = ""
        for asked in _teams_asked(state, sport):
            team = _resolved(state, sport, asked, config) if asked else None
            if team is None:
                continue
            if intent.asks("next_game") and not spans_for(state, sport, config):
                games = _games(state, sport, team, config, after=state.today)[:1]
            else:
                games = _relevant(state, sport, asked, config)
            home, away = intent.asks("home"), intent.asks("away")
            games = [g for g in games if not (home and g.home != team) and not (away and g.away != team)]
            relation, attribute, found = _team_rows(state, sport, team, games)
            rows += found
        if relation:
            chosen = BY_NAME[relation]
            where = " at home" if intent.asks("home") else " away" if intent.asks("away") else ""
            return table_of(chosen, FactTable(attribute + where, rows, chosen.additive))
    return None


def _team_rows(state: QuestionState, sport: str, team: str, games: list[Game]) -> tuple[str, str, list[Fact]]:
    """(the relation asked, its label for `team`, its rows over `games`); ("", "", []) for none."""
    intent = state.reading
    unit = "points" if sport == "nba" else "goals"

    def picks(*names: str) -> bool:
        return intent.picks("sports", *names)

    def opponent(game: Game) -> str:
        return game.away if game.home == team else game.home

    played = [g for g in games if _outcome(g, team) is not None]
    counted, compared = intent.asks("count"), intent.asks("amounts_compared")
    if picks("game_winner") and not (counted or compared):
        return (
            "game_winner",
            "winner",
            [
                Fact(
                    f"{g.day.isoformat()} {g.home}-{g.away}",
                    g.home if _outcome(g, g.home) == "won" else g.away,
                    g.day,
                )
                for g in played
                if _outcome(g, team) != "drew"
            ],
        )
    if intent.asks("teams_asked") and picks("teams_beating"):
        return (
            "teams_beating",
            f"teams that beat {team}",
            [Fact(team, opponent(g), g.day) for g in played if _outcome(g, team) == "lost"],
        )
    if intent.asks("teams_asked") and picks("teams_beaten"):
        return (
            "teams_beaten",
            f"teams {team} beat",
            [Fact(team, opponent(g), g.day) for g in played if _outcome(g, team) == "won"],
        )
    won_or_lost = picks("wins", "losses") and not picks("points")
    wanted = "won" if picks("wins") else "lost"
    if won_or_lost and (counted or compared):
        return (
            ("wins" if wanted == "won" else "losses"),
            f"games {team} {wanted}",
            [Fact(team, float(sum(1 for g in played if _outcome(g, team) == wanted)))],
        )
    if won_or_lost and len(played) == 1 and intent.operation == "yes_no":
        return (
            "game_result",
            f"whether {team} {wanted}",
            [Fact(team, "yes" if _outcome(played[0], team) == wanted else "no", played[0].day)],
        )
    if picks("game_result") or won_or_lost:
        return (
            "game_result",
            f"result of {team}",
            [Fact(team, RESULT_CODES[outcome], g.day) for g in played if (outcome := _outcome(g, team))],
        )
    for name in SOCCER_FIELDS:
        if sport == "soccer" and picks(name):
            column = BY_NAME[name].field
            return (
                name,
                f"{column.lower()} of {team}",
                [
                    Fact(team, value if isinstance(value, str) else float(value), g.day)
                    for g in games
                    if (value := g.row.get(column)) not in (None, "") and g.row.get("_team") == team
                ],
            )
    if picks("game_day"):
        return "game_day", f"day of {team}'s game", [Fact(team, g.day) for g in games]
    if picks("opponent") and not picks("points"):
        return "opponent", f"opponent of {team}", [Fact(team, opponent(g), g.day) for g in games]
    if picks("points") and not (intent.asks("who") and not compared):  # "who scored most": a player
        conceded = intent.asks("conceded")
        rows = []
        for game in played:
            own, other = (
                (game.home_score, game.away_score)
                if team == game.home
                else (game.away_score, game.home_score)
            )
            value = other if conceded else own
            if value is not None:
                rows.append(Fact(team, float(value), game.day))
        return "points", f"{unit} {'conceded' if conceded else 'scored'} by {team}", rows
    return "", "", []


def _player_table(state: QuestionState) -> FactTable | None:
    """A player's free throws made, or his points, in the games of the day's play-by-play."""
    throws = state.reading.asks("free_throws")
    rows = [
        Fact(name, float(_free_throws(events)[0] if throws else _points(events)))
        for (name, _), events in _player_events(state).items()
    ]
    label = (
        "free throws made (one point each)"
        if throws
        else "points in the game (counted from his scoring plays)"
    )
    return table_of(BY_NAME["player_points"], FactTable(label, rows)) if rows else None


def _scorer_table(state: QuestionState, config: KGConfig) -> FactTable | None:
    """Who scored the first (last) points of each asked game, by the play-by-play."""
    last = state.reading.picks("sports", "last_scorer") and not state.reading.picks("sports", "first_scorer")
    events = _game_events(state)
    rows = []
    for game_id in _asked_games(state, config):
        scoring = [row for row in events[game_id] if row.get("score") and row.get("player1_name")]
        if scoring:
            rows.append(Fact(f"game {game_id}", str((scoring[-1] if last else scoring[0])["player1_name"])))
    relation = BY_NAME["last_scorer" if last else "first_scorer"]
    return (
        table_of(relation, FactTable(f"scorer of the game's {'last' if last else 'first'} points", rows))
        if rows
        else None
    )


SPORTS_DOMAIN = Domain("sports", SPORTS, applies, plan, render, facts)
