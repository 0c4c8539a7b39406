"""The sealed KG sets: tests of generalisation for the KG stage (issue 51, item 5). Each is forty real
CRAG validation questions (../shared/data/crag_questions_validation.jsonl, read at run time by
`interaction_id_prefix`, never stored here) that nobody tuned a rule on, picked by a fixed hash. This
module holds the selection, which every set shares, and the first set (FIRST); benchmarks/kg_sealed2.py
holds the second (SECOND), benchmarks/kg_sealed3.py the third (THIRD), and benchmarks/kg_sealed_sets.py
names them all. Not a script: benchmarks/kg.py reads them.

Do not read a set's questions, gold answers or facts while changing the KG's rules, and do not run the
system on them until the work is done: then run them once (`benchmarks/kg.py --real --system --sealed
NAME`) and report that first run as it came out. The first set was run once and is spent: its misses
are being read. The second was run once. The third is sealed.

The selection is mechanical, one rule parameterised by the set (`SealedSet`: its salt and the keys it
excludes):
- candidates: the validation questions of the four KG domains the real-wording set covers (finance,
  movie, music, sports) that are not in benchmarks/kg_real.py's QUESTIONS nor among the questions an
  earlier set walked (its TAKEN, SKIPPED and ALREADY_READ);
- order: sha256 of the set's salt ("sealed:", "sealed2:", "sealed3:") + interaction_id_prefix, ascending;
- down that order, a question that was read before (its id or its wording is in a file of the repo:
  so far all of them in benchmarks/answer_checker_labels.jsonl) is passed over (ALREADY_READ); one that
  the routes of its own domain could not answer, whatever a reader did, is skipped with its reason
  (SKIPPED); every other question is taken (TAKEN), until 40 are taken. The open domain's routes are
  not counted as answering: they hold encyclopaedia summaries, which would make every question
  "answerable", and the set tests the domains' own tables, as the real-wording set does;
- taken: the question can be answered from facts a KG of the official API's shape holds (the 38
  routes of ../shared/docs/CRAG_MOCK_API.md), including a computed answer (a count, a comparison, an
  average, a date) and an "invalid question" gold whose false premise the KG's facts show (a company
  or a film that is not in the tables, a week without a game). Difficulty plays no part.
tests/test_kg_sealed.py re-derives each set's order and checks that its TAKEN, SKIPPED and ALREADY_READ
are exactly its first questions.
"""

from __future__ import annotations

import ast
import datetime as dt
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from statistics import mean
from typing import Any

from benchmarks import kg_real
from benchmarks.kg_real import (
    VALIDATION,
    Api,
    Derivation,
    RealCase,
    RealQuestion,
    absence,
    compare,
    days_between,
    last_game,
    members,
    next_game,
    points,
    price,
    year_winner,
)

SELECTION_DOMAINS = ("finance", "movie", "music", "sports")
SELECTION_SIZE = 40


def selection_order(keys: Iterable[str], salt: str) -> list[str]:
    """The keys in the order a set of this `salt` walks them."""
    return sorted(keys, key=lambda key: hashlib.sha256((salt + key).encode()).hexdigest())


@dataclass(frozen=True)
class SealedSet:
    """One sealed set: how it was picked (its salt, the keys it excludes, what its walk took, skipped and
    passed over) and what it asks (its questions, in TAKEN's order, and their gold intents)."""

    name: str  # the value of benchmarks/kg.py's --sealed
    salt: str
    excluded: frozenset[str]  # the real-wording set's keys and those an earlier set walked
    taken: list[str]
    skipped: dict[str, str]
    already_read: dict[str, str]
    questions: list[RealQuestion]
    intents: dict[str, GoldIntent]
    # The first batch of benchmarks/answer_checker_labels.jsonl written after the walk read the repo (in
    # parallel with it): the already-read rule does not see those labels, and a question of the set they
    # label must sit in the checker's held-out part, where no checker rule was fitted on it.
    labels_after_selection: int | None = None

    @property
    def split(self) -> str:
        return f"sealed-{self.name}"

    def walked(self) -> set[str]:
        """Every key the set's walk reached: taken, skipped or passed over."""
        return {*self.taken, *self.skipped, *self.already_read}

    def candidates(self, records: dict[str, dict]) -> list[str]:
        """The validation keys (of `records`: key -> row) the set may take, in its order."""
        return selection_order(
            (
                key
                for key, row in records.items()
                if row["domain"] in SELECTION_DOMAINS and key not in self.excluded
            ),
            self.salt,
        )

    def load(self, api_post: Callable[[str, dict], Any], path: Path = VALIDATION) -> list[RealCase]:
        """The set's cases, as benchmarks/kg_real.py:load gives the real-wording set's."""
        return kg_real.load(api_post, path, self.questions, lambda _: self.split)


def selection_problems(records: dict[str, dict], sealed: SealedSet) -> list[str]:
    """How the set's TAKEN, SKIPPED and ALREADY_READ depart from the rule over the validation `records`
    (key -> row); [] when they follow it."""
    taken, skipped, already_read = sealed.taken, sealed.skipped, sealed.already_read
    order = sealed.candidates(records)
    found = [f"{key} is not a candidate" for key in [*taken, *skipped, *already_read] if key not in order]
    if found or not taken:
        return found or ["nothing is taken"]
    walked = order[: order.index(taken[-1]) + 1]
    passed = set(skipped) | set(already_read)
    found += [f"{key} is both taken and passed over" for key in taken if key in passed]
    found += [f"{key} comes after the last question taken" for key in passed if key not in walked]
    found += [f"{key} is neither taken nor passed over" for key in walked if key not in passed | set(taken)]
    if [key for key in walked if key not in passed] != taken:
        found.append("the questions taken are not in the selection's order")
    if len(taken) != SELECTION_SIZE or len(set(taken)) != len(taken):
        found.append(f"{len(set(taken))} distinct questions taken, not {SELECTION_SIZE}")
    found += [
        f"{key} has no one-line reason" for key, why in skipped.items() if not why.strip() or "\n" in why
    ]
    return found


# Passed over: read before, in the file named.
ALREADY_READ = {
    key: "benchmarks/answer_checker_labels.jsonl"
    for key in (
        "2d4079bd", "c5a83340", "e1685144", "aa813da1", "09d72b50", "20f54812", "b451c008", "46256b45",
        "8acceb85", "816ea301", "225a0161", "4b1899ad", "e6c17022", "d3632bc3", "e23a69f8", "81e0fbd9",
        "b7421160", "b6ffa1c6", "443004b5", "278fe73e", "5c5234a3", "f6b77ab0", "0706fe40", "456d5fe1",
        "e51659d8", "f57c42db",
    )
}  # fmt: skip

# Skipped: no route of the question's domain could answer it.
SKIPPED = {
    "d3e629d3": "streaming counts: no route holds plays or streams",
    "50244122": "Nasdaq-100 membership and payout-ratio history: no route lists an index's members",
    "d47b8ef8": "the holdings of the Invesco QQQ fund: no route lists a fund's holdings",
    "e76d5149": "NBA Finals MVP awards: the NBA tables hold games and play-by-play, not awards",
    "923abefc": "the words of a song: no route holds lyrics",
    "090cd764": "Premier League titles: the soccer table holds the current seasons' games, not past titles",
    "8d729159": "MLB minor-league affiliates: the KG holds no baseball",
    "9d1ee657": "Spotify plays: no route holds plays or streams",
    "265c07b7": "S&P 500 membership: no route lists an index's members",
    "9f2a6a4b": "the highest price of all stocks: no route ranks tickers "
    "(it would take every ticker's prices)",
    "27d21faa": "NFL passing touchdowns and Super Bowls: the KG holds no American football",
    "a99f8520": "the album that holds two songs: no route links songs to albums, and works carry no kind",
    "612d6a91": "a TV show's Tomatometer score: the movie tables hold films and their ratings, "
    "not critics' scores",
    "0847edf5": "the worst performer of all stocks: no route ranks tickers",
    "e094e08a": "WTA titles: the KG holds no tennis",
    "758a8ddc": "the Nasdaq Composite index: the finance tables hold companies' tickers, not indexes",
    "47d14ce5": "how many toys a character has: plot facts are not in the movie records",
    "fe7550ee": "a film picked by its plot (a shape-shifter): plot facts are not in the movie records",
    "21bd7a66": "Wimbledon titles: the KG holds no tennis",
    "40153335": "Spotify's subscribers: no route holds a company's operating figures",
    "fbf01c05": "the album that holds a song: no route links songs to albums",
    "8d63fd0a": "MLB home runs and Silver Slugger awards: the KG holds no baseball",
    "0f8b91fd": "the SPY fund's holdings: no route lists a fund's holdings",
    "a767ae26": "having been a Disney star: no route holds careers outside music",
    "e7277d7f": "UFC champions: the KG holds no mixed martial arts",
    "771fd009": "films made by AI: no field of the movie records says how a film was written or directed",
    "aaaab7df": "US-and-Canada gross and the studio (Pixar): the movie records hold worldwide revenue, "
    "no studio",
    "eb9c2f22": "concert tours: no route holds tours",
    "d615eb2d": "the length of NBA and NCAA games: rules are not in the KG, and it holds no college games",
    "46a73b2b": "Formula 1 teammates: the KG holds no motor racing",
    "4d34f6e9": "which character is the villain: the cast lists characters, not their part in the plot",
    "0b0642e4": "a studio's releases: the movie records name no production company",
    "3569f7c6": "corporate bond issuance: no route holds bond markets",
    "429768c8": "the NFL's Comeback Player of the Year: the KG holds no American football",
    "79e43ec7": "a performance at Woodstock: no route holds performances",
    "639d2cc0": "the NFL's teams: the KG holds no American football",
    "1e5a1b84": "an album's sales: no route holds sales",
    "3655f42b": "whom a diss track is about: no route holds what a song is about",
    "152cd6c2": "the kinds of financial markets: a definition, not a fact of a company's tables",
    "d061f0f9": "Grand Slam singles titles: the KG holds no tennis",
    "847c336e": "Russell 2000 membership and five-year EPS growth: no route lists an index's members",
}

# Taken, in the selection's order.
TAKEN = [
    "5c488256", "2ce829dc", "9573fc4c", "a9046753", "249f3e3f", "434fbd07", "c77fa2ab", "13098e66",
    "024f1e5c", "ebce5331", "c4beea56", "23a3e1ff", "34c602b6", "ae621468", "9e21b13b", "4afd82c6",
    "c7d3f8d4", "35f62d5a", "f08ed2eb", "24709ca4", "d3523d8d", "45f2ad9e", "a8891b3d", "6ad1e71e",
    "6883ee02", "570f6934", "4ac352e4", "f2ba0bc4", "63d225a6", "fb5c53a7", "2118bc07", "5bddfbdc",
    "edd26a0f", "4188213c", "8afb7c54", "0a52a237", "1cafe6b6", "9950554b", "02078fd7", "301b1d4d",
]  # fmt: skip


# --- the questions ------------------------------------------------------------------------------------
# As in benchmarks/kg_real.py: per question its time (chosen so that the gold answer is true then), the
# entities an ideal reader returns (fields of models.kg.entities.KGEntities) and a derivation over the
# official routes, on the KG of kg_mock.real_fixture built with `sealed="first"` (the real-wording set's
# facts and kg_mock/sealed_fixture_data.py's in one KG). tests/test_kg_sealed.py checks each derivation
# against the mock as tests/test_kg_real.py does, and that the real-wording set's still hold on that KG.


def _number_ones(*artists: str, look_alike: str = "") -> Callable[[Api], Derivation]:
    """Which of `artists` has more distinct songs at number one (an artist counts where the chart names
    it, alone or with others); the near miss: a song of the `look_alike` artist."""

    def derive(api: Api) -> Derivation:
        songs, singers = api("music/get_billboard_rank_date", rank=1)

        def hits(artist: str) -> list[str]:
            return list(dict.fromkeys(song for song, by in zip(songs, singers) if artist in by))

        counts = {artist: hits(artist) for artist in artists}
        return Derivation(
            max(counts, key=lambda artist: len(counts[artist])),
            [[song for found in counts.values() for song in found], [str(len(f)) for f in counts.values()]],
            hits(look_alike)[:1] if look_alike else [],
        )

    return derive


def _no_company(name: str) -> Callable[[Api], Derivation]:
    """A false premise: no company of the table is named so (the search finds none with the name)."""

    def derive(api: Api) -> Derivation:
        named = [
            found for found in api("finance/get_company_name", query=name) or [] if name in found.lower()
        ]
        return Derivation("invalid question" if not named else ", ".join(named), [[name], [name, "no"]])

    return derive


def _director(title: str, look_alike: str) -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        directors = [c["name"] for c in api.movie(title)["crew"] if c["job"] == "Director"]
        other = [c["name"] for c in api.movie(look_alike)["crew"] if c["job"] == "Director"]
        return Derivation(", ".join(directors), [directors], other)

    return derive


def _no_game_in_week(team: str, first: str, last: str) -> Callable[[Api], Derivation]:
    """A false premise: the team plays no game from `first` to `last` (the days of one month)."""

    def derive(api: Api) -> Derivation:
        rows = api.soccer(first[:7], team)
        days = [row["date"][:10] for row in rows]
        before = max(day for day in days if day < first)
        after = min(day for day in days if day > last)
        opponent = next(row["opponent"] for row in rows if row["date"][:10] == after)
        in_week = [day for day in days if first <= day <= last]
        return Derivation(
            "invalid question" if not in_week else "yes", [[before, after], [team, "no"]], [opponent]
        )

    return derive


def _no_game_on(team: str, day: str) -> Callable[[Api], Derivation]:
    """A false premise: the team has no game on `day`."""

    def derive(api: Api) -> Derivation:
        played = [row["date"][:10] for row in api.soccer(day[:7], team) if row["result"]]
        last = max(d for d in played if d < day)
        return Derivation("invalid question" if day not in played else "yes", [[last], absence(team, day)])

    return derive


def _released_before(song: str, year: int) -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        released = api("music/get_song_release_date", query=song)
        return Derivation("yes" if int(released[:4]) < year else "no", [[released]])

    return derive


def _original_title(title: str, look_alike: str = "") -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        original = api.movie(title)["original_title"]
        near = [api.movie(look_alike)["original_title"]] if look_alike else []
        return Derivation(original, [[original]], near)

    return derive


def _is_original_title(title: str, asked: bool = True) -> Callable[[Api], Derivation]:
    """Whether the film's original title is its title ("yes"), or with `asked` False whether it differs."""

    def derive(api: Api) -> Derivation:
        movie = api.movie(title)
        same = movie["original_title"] == title
        return Derivation(
            "yes" if same == asked else "no", [[movie["original_title"], movie["original_language"]]]
        )

    return derive


def _no_film_titled(title: str, closest: str) -> Callable[[Api], Derivation]:
    """A false premise: no film found under the name has it as its title or original title."""

    def derive(api: Api) -> Derivation:
        films = api("movie/get_movie_info", query=title)
        named = [m["title"] for m in films if title in (m["title"], m["original_title"])]
        near = api.movie(closest)
        return Derivation(
            "invalid question" if not named else "yes", [[near["title"], near["original_title"]]]
        )

    return derive


def _movie_field(title: str, field: str, near: list[tuple[str, str]]) -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        value = str(api.movie(title)[field])
        return Derivation(value, [[value]], [str(api.movie(t)[f]) for t, f in near])

    return derive


def _bigger_budget(*titles: str, look_alike: str) -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        budgets = {title: api.movie(title)["budget"] for title in titles}
        return Derivation(
            compare(budgets), [[str(b) for b in budgets.values()]], [str(api.movie(look_alike)["budget"])]
        )

    return derive


def _birthday(person: str, *look_alikes: str) -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        born = api.person(person)["birthday"]
        return Derivation(born, [[born]], [api.person(other)["birthday"] for other in look_alikes])

    return derive


def _nba_points(team: str, day: str, other_day: str) -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        (game,) = api.nba(day, team)
        (other,) = api.nba(other_day, team)
        scored = f"{points(game, team):g}"
        return Derivation(scored, [[scored, day]], [f"{points(other, team):g}"])

    return derive


def _last_venue(team: str, day: str) -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        game = last_game(api, team, day[:7], day)
        after = next_game(api, team, day[:7], day)
        return Derivation(game["venue"].lower(), [[game["date"][:10], game["venue"]]], [after["opponent"]])

    return derive


def _points_behind(league: str, team: str, day: str) -> Callable[[Api], Derivation]:
    """How many points `team` trails its league's leader by, over the season's games up to `day` (3 for a
    win, 1 for a draw). The table of every team comes from each month's games with no team named, read
    through a second recorder (its answers run to megabytes); the facts are the leader's and the team's
    games, read team by team."""

    def months() -> list[str]:
        found, month = [], dt.date.fromisoformat(SEASON_START)
        while month.isoformat()[:7] <= day[:7]:
            found.append(month.isoformat()[:7])
            month = (month + dt.timedelta(days=32)).replace(day=1)
        return found

    def derive(api: Api) -> Derivation:
        table: dict[str, int] = {}
        scan = Api(api.post)
        for month in months():
            result = scan(SOCCER, date=month) or {}
            for key, played in result.get("result", {}).items():
                row_league, _, side, _ = ast.literal_eval(key)
                if row_league == league and played and result["date"][key][:10] <= day:
                    table[side] = table.get(side, 0) + POINTS[played]
        leader = max(table, key=lambda side: table[side])
        games = [
            row
            for side in (leader, team)
            for month in months()
            for row in api.soccer(month, side)
            if row["result"] and row["date"][:10] <= day
        ]
        return Derivation(
            str(table[leader] - table[team]),
            [
                sorted({row["date"][:10] for row in games}),
                [leader, str(table[leader]), team, str(table[team])],
            ],
        )

    return derive


POINTS = {"W": 3, "D": 1, "L": 0}
SEASON_START = "2023-08-01"


def _bar(official: str, day: str, field: str, near: list[tuple[str, str]]) -> Callable[[Api], Derivation]:
    """A field of one day's bar (`official`: a company-table name or a ticker); `near`: (ticker or name,
    day) of the same field."""

    def derive(api: Api) -> Derivation:
        ticker = api.ticker(official) if " " in official else official
        value = price(api.bars(ticker)[day][field])
        others = [
            price(api.bars(api.ticker(name) if " " in name else name)[other][field]) for name, other in near
        ]
        return Derivation(f"${value}", [[day, value]], others)

    return derive


def _highs(
    ticker: str, first: str, last: str, how: str, near: list[tuple[str, str, str]]
) -> Callable[[Api], Derivation]:
    """The mean or the highest of a ticker's daily highs from `first` to `last`; `near`: (ticker, first,
    last) of the same figure."""

    def figure(api: Api, name: str, start: str, end: str) -> tuple[list[float], float]:
        bars = api.bars(api.ticker(name) if " " in name else name)
        highs = [bars[day]["High"] for day in days_between(bars, start, end)]
        return highs, mean(highs) if how == "mean" else max(highs)

    def derive(api: Api) -> Derivation:
        highs, value = figure(api, ticker, first, last)
        others = [price(figure(api, *span)[1]) for span in near]
        return Derivation(f"${price(value)}", [[price(h) for h in highs], [price(value)]], others)

    return derive


def _finance_value(route: str, ticker: str, near: list[tuple[str, str]]) -> Callable[[Api], Derivation]:
    """A ticker's value from `route`; `near`: (route or "info:<key>", ticker) of close values."""

    def value(api: Api, where: str, name: str) -> str:
        if where.startswith("info:"):
            return str(api("finance/get_info", query=name)[where[5:]])
        return str(api(where, query=name))

    def derive(api: Api) -> Derivation:
        found = value(api, route, ticker)
        return Derivation(found, [[found]], [value(api, where, name) for where, name in near])

    return derive


def _lower_pe(*tickers: str) -> Callable[[Api], Derivation]:
    """The ticker with the lower P/E ratio: the cheaper for its earnings, the more attractive."""

    def derive(api: Api) -> Derivation:
        ratios = {t: api("finance/get_pe_ratio", query=t) for t in tickers}
        trailing = [str(api("finance/get_info", query=t)["trailingPE"]) for t in tickers]
        return Derivation(
            compare(ratios, highest=False).lower(), [[str(r) for r in ratios.values()]], trailing
        )

    return derive


def _last_dividend(ticker: str, before: str) -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        days = sorted(api.dividends(ticker))
        last = max(day for day in days if day <= before)
        return Derivation(last, [[last]], [day for day in days if day > before][:1])

    return derive


def _song_author(song: str, look_alike: str) -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        author = api("music/get_song_author", query=song)
        other = api("music/get_song_author", query=look_alike)
        return Derivation(author, [[author]], [other.split(",")[0]])

    return derive


def _not_their_song(artist: str, song: str) -> Callable[[Api], Derivation]:
    """A false premise: the song is not among the artist's works, and another wrote it."""

    def derive(api: Api) -> Derivation:
        works = api("music/get_artist_all_works", query=artist) or []
        author = api("music/get_song_author", query=song)
        released = api("music/get_song_release_date", query=song)
        mine = song in works or artist in author
        return Derivation(
            "invalid question" if not mine else released[:4], [[author], [artist, "no"]], [released]
        )

    return derive


def _band(artist: str, look_alike: str) -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        names = members(api, artist)
        others = [name for name in members(api, look_alike) if name not in names]
        return Derivation(", ".join(names), [names], others[:1])

    return derive


# --- the gold intents ---------------------------------------------------------------------------------
OPERATIONS = (
    "lookup", "count", "sum", "average", "extreme", "first_or_last", "compare", "difference", "set", "yes_no",
)  # fmt: skip
TIMES = ("none", "point", "span")
TENSES = ("now", "then")


@dataclass(frozen=True)
class GoldIntent:
    """What a question asks, in terms that any reading of it can be scored against (not in the tables of
    one design): the operation (OPERATIONS), the time, the routes that hold the answer and the fields of
    their records it is read from."""

    operation: str
    time: str  # "none": no time asked; "point": a day, a year, a ceremony; "span": a week, a month, a season
    relative: bool  # the time is given from the query time (today, last week, the last game, now)
    tense: str  # "now": the state at the query time; "then": a past or timeless fact
    routes: tuple[str, ...]  # official routes, paths without the leading slash
    fields: tuple[str, ...]  # fields of the routes' records (a bar's "High", a movie's "budget")
    options: tuple[str, ...] = ()  # what the question offers to choose between
    false_premise: bool = False  # the gold answer is "invalid question"

    def as_real(self) -> kg_real.GoldIntent:
        """The same intent in the real-wording set's terms, which benchmarks/kg.py scores readings by: a
        time given from the query time is "relative"; every route holds the answer in any of the fields."""
        fields = "|".join(self.fields)
        answer = tuple(f"{route}:{fields}" if fields else route for route in self.routes)
        time = "relative" if self.relative else self.time
        return kg_real.GoldIntent(self.operation, time, self.tense, answer)


PRICES = "finance/get_price_history"
COMPANY = ("finance/get_company_name", "finance/get_ticker_by_name")
MOVIE = "movie/get_movie_info"
YEAR = "movie/get_year_info"
RANK = "music/get_billboard_rank_date"
SOCCER = "sports/soccer/get_games_on_date"
NBA = "sports/nba/get_games_on_date"
NBA_POINTS = ("team_name_home", "team_name_away", "pts_home", "pts_away")
OSCAR_WINNER = ("oscar_awards.category", "oscar_awards.winner")


def _question(
    key: str,
    query_time: str,
    entities: dict[str, Any],
    derive: Callable[[Api], Derivation],
    intent: GoldIntent,
    checker_unsure: str = "",
) -> tuple[RealQuestion, GoldIntent]:
    return RealQuestion(key, query_time, entities, derive, checker_unsure), intent


def _sealed() -> list[tuple[RealQuestion, GoldIntent]]:
    q, i = _question, GoldIntent
    return [
        q("5c488256", "03/05/2024, 10:04:00 PT", {"artists": ["Michael Jackson", "The Weeknd"]},
          _number_ones("Michael Jackson", "The Weeknd", look_alike="Janet Jackson"),
          i("compare", "none", False, "now", (RANK,), ("Song", "Artist"), ("Michael Jackson", "The Weeknd"))),
        q("2ce829dc", "03/12/2024, 10:00:00 PT", {"companies": ["tomato"]}, _no_company("tomato"),
          i("sum", "span", True, "then", (*COMPANY, "finance/get_dividends_history"),
            ("Name", "dividend amount"),
            false_premise=True)),
        q("9573fc4c", "03/19/2024, 23:02:00 PT", {"movies": ["The Pact II"]},
          _director("The Pact II", "The Pact"),
          i("lookup", "none", False, "then", (MOVIE,), ("crew.job", "crew.name"))),
        q("a9046753", "03/19/2024, 10:00:00 PT", {"teams": ["Athletic Club"], "sport": "soccer"},
          _no_game_in_week("Athletic Club", "2024-03-18", "2024-03-24"),
          i("lookup", "span", True, "now", (SOCCER,), ("date", "opponent"), false_premise=True)),
        q("249f3e3f", "03/13/2024, 10:40:00 PT", {"songs": ["Winter Wonderland"]},
          _released_before("Winter Wonderland", 2018),
          i("yes_no", "point", False, "then", ("music/get_song_release_date",), ("date",))),
        q("434fbd07", "03/05/2024, 10:06:00 PT", {"artists": ["Ariana Grande", "Katy Perry"]},
          _number_ones("Ariana Grande", "Katy Perry"),
          i("compare", "none", False, "now", (RANK,), ("Song", "Artist"), ("Ariana Grande", "Katy Perry"))),
        q("c77fa2ab", "03/19/2024, 23:04:00 PT", {"movies": ["Doctor Sleep"]},
          _original_title("Doctor Sleep"),
          i("lookup", "none", False, "then", (MOVIE,), ("original_title",))),
        q("13098e66", "03/19/2024, 23:06:00 PT", {"movies": ["Guns N' Roses - Live in Paris"]},
          _director("Guns N' Roses - Live in Paris", "Guns N' Roses: Appetite for Democracy 3D"),
          i("lookup", "none", False, "then", (MOVIE,), ("crew.job", "crew.name"))),
        q("024f1e5c", "03/13/2024, 11:05:00 PT", {"companies": ["Lottery.com"]},
          _bar("Lottery.com Inc. Common Stock", "2024-03-13", "Open",
               [("LTRY", "2024-03-12"), ("Lottery.com Inc. Warrants", "2024-03-13")]),
          i("lookup", "point", True, "now", (*COMPANY, PRICES), ("Open",))),
        q("ebce5331", "03/19/2024, 23:08:00 PT", {},
          year_winner(2002, "ACTOR IN A LEADING ROLE", "name", [(2003, "ACTOR IN A LEADING ROLE")]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.name"))),
        q("c4beea56", "03/19/2024, 23:10:00 PT", {"movies": ["Inside Out", "Finding Dory"]},
          _bigger_budget("Inside Out", "Finding Dory", look_alike="Finding Nemo"),
          i("compare", "none", False, "then", (MOVIE,), ("budget",), ("Inside Out", "Finding Dory"))),
        q("23a3e1ff", "03/14/2024, 11:00:00 PT", {"teams": ["Nice"], "sport": "soccer"},
          _last_venue("Nice", "2024-03-14"),
          i("first_or_last", "point", True, "then", (SOCCER,), ("date", "venue"),
            ("home soil", "foreign soil"))),
        q("34c602b6", "03/19/2024, 23:12:00 PT", {"people": ["Mel Brooks"]},
          _birthday("Mel Brooks", "Albert Brooks", "Mel Gibson"),
          i("lookup", "none", False, "then", ("movie/get_person_info",), ("birthday",))),
        q("ae621468", "03/10/2024, 21:30:00 PT", {"teams": ["Boston Celtics"], "sport": "nba"},
          _nba_points("Boston Celtics", "2023-05-29", "2023-05-27"),
          i("lookup", "point", False, "then", (NBA,), NBA_POINTS)),
        q("9e21b13b", "03/19/2024, 23:14:00 PT", {},
          year_winner(2002, "DOCUMENTARY (Feature)", "film",
                       [(2003, "DOCUMENTARY (Feature)"), (2002, "DOCUMENTARY (Short Subject)")]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.film"))),
        q("4afd82c6", "03/19/2024, 23:16:00 PT", {"movies": ["The Lodger"]},
          _original_title("The Lodger", "The Lodger: A Story of the London Fog"),
          i("lookup", "none", False, "then", (MOVIE,), ("original_title",))),
        q("c7d3f8d4", "03/14/2024, 09:00:00 PT", {"tickers": ["CRKN"]},
          _finance_value("finance/get_market_capitalization", "CRKN",
                         [("finance/get_market_capitalization", "CRWS")]),
          i("lookup", "point", True, "now", ("finance/get_market_capitalization",), ("marketCap",))),
        q("35f62d5a", "03/13/2024, 10:42:00 PT", {"artists": ["Aerosmith"]},
          _band("Aerosmith", "The Joe Perry Project"),
          i("set", "none", False, "then", ("music/get_members",), ("members",))),
        q("f08ed2eb", "03/13/2024, 15:00:00 PT", {"tickers": ["INTA"]},
          _bar("INTA", "2024-03-12", "Close", [("INTA", "2024-03-13"), ("INTA", "2024-03-11")]),
          i("lookup", "point", True, "then", (PRICES,), ("Close",))),
        q("24709ca4", "03/12/2024, 12:00:00 PT", {"tickers": ["INBX", "RXRX"]}, _lower_pe("INBX", "RXRX"),
          i("compare", "point", True, "now", ("finance/get_pe_ratio",), ("forwardPE",), ("INBX", "RXRX"))),
        q("d3523d8d", "03/15/2024, 17:00:00 PT", {"tickers": ["ILAG"]},
          _highs("ILAG", "2024-03-11", "2024-03-15", "mean", [("ILAG", "2024-03-04", "2024-03-08")]),
          i("average", "span", True, "now", (PRICES,), ("High",))),
        q("45f2ad9e", "03/19/2024, 23:18:00 PT", {"movies": ["The Business End: Violence in Cinema"]},
          _is_original_title("The Business End: Violence in Cinema"),
          i("yes_no", "none", False, "then", (MOVIE,), ("original_title",))),
        q("a8891b3d", "03/13/2024, 10:44:00 PT", {"songs": ["Dark Nevada Dream"]},
          _song_author("Dark Nevada Dream", "Nevada"),
          i("lookup", "none", False, "then", ("music/get_song_author",), ("author",))),
        q("6ad1e71e", "03/19/2024, 23:20:00 PT", {"movies": ["Louis, Martin & Michael"]},
          _is_original_title("Louis, Martin & Michael", asked=False),
          i("yes_no", "none", False, "then", (MOVIE,), ("original_title", "original_language"))),
        q("6883ee02", "03/19/2024, 23:22:00 PT", {"movies": ["Polar"]},
          _movie_field("Polar", "original_language", []),
          i("lookup", "none", False, "then", (MOVIE,), ("original_language",))),
        q("570f6934", "03/14/2024, 12:00:00 PT", {"teams": ["Arsenal"], "sport": "soccer"},
          _points_behind("ENG-Premier League", "Arsenal", "2024-03-14"),
          i("difference", "span", True, "now", (SOCCER,), ("result", "date"))),
        q("4ac352e4", "03/10/2024, 21:32:00 PT", {"teams": ["New York Knicks"], "sport": "nba"},
          _nba_points("New York Knicks", "2023-05-12", "2023-05-10"),
          i("lookup", "point", False, "then", (NBA,), NBA_POINTS)),
        q("f2ba0bc4", "03/13/2024, 16:00:00 PT", {"companies": ["Abacus Life"]},
          _highs("Abacus Life Inc. Class A Common Stock", "2024-03-04", "2024-03-08", "max",
                 [("ABL", "2024-03-11", "2024-03-15"),
                  ("Abacus Life Inc. 9.875% Fixed Rate Senior Notes due 2028", "2024-03-04", "2024-03-08")]),
          i("extreme", "span", True, "then", (*COMPANY, PRICES), ("High",))),
        q("63d225a6", "03/19/2024, 23:24:00 PT", {"movies": ["Wild Wild West"]},
          _movie_field("Wild Wild West", "revenue", [("Wild Wild West", "budget"), ("Wild", "revenue")]),
          i("lookup", "none", False, "then", (MOVIE,), ("revenue",))),
        q("fb5c53a7", "03/14/2024, 18:00:00 PT", {"tickers": ["OBLG"]},
          _highs("OBLG", "2024-03-11", "2024-03-14", "mean",
                 [("OBLG", "2024-03-11", "2024-03-15"), ("OBLG", "2024-03-04", "2024-03-08")]),
          i("average", "span", True, "now", (PRICES,), ("High",))),
        q("2118bc07", "03/13/2024, 10:46:00 PT",
          {"artists": ["Roddy Ricch"], "songs": ["Don't Stop Believin'"]},
          _not_their_song("Roddy Ricch", "Don't Stop Believin'"),
          i("lookup", "none", False, "then",
            ("music/get_artist_all_works", "music/get_song_author", "music/get_song_release_date"),
            ("works", "author", "date"), false_premise=True)),
        q("5bddfbdc", "03/08/2024, 09:00:00 PT", {"tickers": ["LEG"]}, _last_dividend("LEG", "2024-03-08"),
          i("first_or_last", "none", True, "now", ("finance/get_dividends_history",), ("ex-dividend date",))),
        q("edd26a0f", "03/10/2024, 14:00:00 PT", {"companies": ["Farmer Brothers"]},
          _bar("Farmer Brothers Company Common Stock", "2024-03-08", "Low",
               [("FARM", "2024-03-07"), ("FARM", "2024-03-11")]),
          i("extreme", "point", True, "then", (*COMPANY, PRICES), ("Low",))),
        q("4188213c", "03/19/2024, 23:26:00 PT", {},
          year_winner(2002, "DOCUMENTARY (Feature)", "film", [(2001, "DOCUMENTARY (Feature)")]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.film"))),
        q("8afb7c54", "03/19/2024, 23:28:00 PT", {"movies": ["Gospel Hill"]},
          _is_original_title("Gospel Hill", asked=False),
          i("yes_no", "none", False, "then", (MOVIE,), ("original_title",))),
        q("0a52a237", "03/12/2024, 09:30:00 PT", {"tickers": ["DKS"]},
          _finance_value("finance/get_eps", "DKS", [("info:trailingEps", "DKS")]),
          i("lookup", "point", True, "now", ("finance/get_eps",), ("forwardEps",))),
        q("1cafe6b6", "03/13/2024, 12:00:00 PT", {"teams": ["Rayo Vallecano"], "sport": "soccer"},
          _no_game_on("Rayo Vallecano", "2024-03-13"),
          i("lookup", "point", True, "now", (SOCCER,), ("date", "GF", "GA"), false_premise=True)),
        q("9950554b", "03/19/2024, 23:30:00 PT", {"movies": ["God's Not Dead Too"]},
          _no_film_titled("God's Not Dead Too", "God's Not Dead 2"),
          i("yes_no", "none", False, "then", (MOVIE,), ("title", "original_title"), false_premise=True)),
        q("02078fd7", "03/08/2024, 18:30:00 PT", {"tickers": ["KRYS"]},
          _bar("KRYS", "2024-03-08", "Close", [("KRYS", "2024-03-07"), ("KRYS", "2024-03-11")]),
          i("lookup", "point", True, "now", (PRICES,), ("Close",))),
        q("301b1d4d", "03/19/2024, 23:32:00 PT", {"movies": ["Level 16"]}, _is_original_title("Level 16"),
          i("yes_no", "none", False, "then", (MOVIE,), ("original_title",))),
    ]  # fmt: skip


FIRST = SealedSet(
    "first",
    "sealed:",
    frozenset(question.key for question in kg_real.QUESTIONS),
    TAKEN,
    SKIPPED,
    ALREADY_READ,
    [question for question, _ in _sealed()],
    {question.key: intent for question, intent in _sealed()},
)
