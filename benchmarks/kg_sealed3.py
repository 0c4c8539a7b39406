"""The third sealed KG set (issue 51, item 5): forty more validation questions, picked by the rule of
benchmarks/kg_sealed.py with the salt "sealed3:", among the questions that neither the real-wording set
nor the first or the second sealed set holds or walked past. Not a script: benchmarks/kg.py reads it
(`--real [--system] --sealed third`).

Do not read this file, its questions, their gold answers or kg_mock/sealed3_fixture_data.py while
changing the KG's rules; run the set once, when the work is done, and report that first run as it came.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks import kg_real
from benchmarks.kg_real import Api, Derivation, RealQuestion, last_game, month_points, year_winner
from benchmarks.kg_sealed import (
    COMPANY,
    FIRST,
    MOVIE,
    NBA,
    NBA_POINTS,
    OSCAR_WINNER,
    PRICES,
    SOCCER,
    YEAR,
    GoldIntent,
    SealedSet,
    _bar,
    _birthday,
    _director,
    _highs,
    _is_original_title,
    _last_venue,
    _movie_field,
    _not_their_song,
    _question,
)
from benchmarks.kg_sealed2 import SECOND, _game_date

# Passed over: read before, in the files named.
ALREADY_READ = {
    **{
        key: "benchmarks/answer_checker_labels.jsonl"
        for key in (
            "90915ce8", "18a6b711", "1591ccda", "f43ab63b", "03e1923a", "41dea43b", "52559781", "61d2ecf4",
            "1cc0706a", "23009ac8", "19472e27", "c23bf331", "0b6abab4", "d485ada7", "d46aa330", "d55e6e15",
            "e6b1f088", "1d04919f",
        )
    },
    "c79be8a4": "benchmarks/answer_checker_labels.jsonl, tests/test_answer_match_rules.py",
    "1ddf2c5d": "benchmarks/answer_checker_labels.jsonl, tests/test_answer_match.py",
}  # fmt: skip

# Skipped: no route of the question's domain could answer it.
SKIPPED = {
    "4aaae29d": "Olympic medals: the KG holds no Olympic games, so no fact shows the premise false",
    "d98c1ad5": "what a hedge fund is: a definition, not a fact of a company's tables",
    "37f178f3": "what a net inflow is: a definition, not a fact of a company's tables",
    "546101ec": "what ROI is: a definition, not a fact of a company's tables",
    "6cab38d7": "the trading days of a week: a market's calendar, not a fact of a company's tables",
    "999a7f32": "a singer's partners: no route holds relationships",
    "e79bcc03": "Grand Slam titles: the KG holds no tennis",
    "61b1896c": "the Ballon d'Or: the soccer table holds games, not awards, so no fact shows the premise "
    "false",
    "7025d79d": "the car a character drove: plot facts are not in the movie records",
    "58c1d9cb": "a person's work on films' crews: person records list acting and directing only, and no "
    "route searches the crews by name",
    "b321cd5a": "a Roth 401(k) against a traditional one: a definition, not a fact of a company's tables",
    "cb7b187b": "Teen Choice nominations: the movie records hold Oscar awards only",
    "a1eca954": "WTA 500 titles: the KG holds no tennis",
    "36a8f12f": "which character is the robot: the cast lists characters, not what they are",
    "9af2d601": "a company's patents: no route holds patents",
    "e113e7ce": "a band's members in one era: the members table carries no dates of joining or leaving",
    "59c155d1": "the Seattle Seahawks' coach: the KG holds no American football",
    "820088ad": "the highest-grossing Disney film: the movie records name no studio, so no fact shows the "
    "premise false",
    "152ac37f": "a TV show's lead actor: the movie tables hold films, not TV shows",
    "14baa31f": "studio albums: the works carry no kind, so albums cannot be counted",
    "7a206a02": "NBA championships: no route holds titles, and the games table does not mark a final, so "
    "no fact shows the premise false",
    "0afea407": "weeks at number one on the UK chart: the chart route holds the Billboard Hot 100 only",
    "e6cacb39": "Grand Slam singles titles: the KG holds no tennis",
    "0534010a": "the best political film: an opinion, no route holds critics' rankings",
}

# Taken, in the selection's order.
TAKEN = [
    "3c255def", "f9df617d", "7b52aa2b", "904dffae", "8ecae91d", "6bbac7e1", "82d831a7", "435cc8d8",
    "17099348", "812a9e50", "63cfd6f2", "586c731c", "a374a29f", "c9c2b1c6", "89c96ad5", "4e20bfc3",
    "acd9c5bd", "61ad5e0f", "bb2a6c28", "87c11187", "78076e80", "a51ce1f2", "918ad702", "c963e0c1",
    "f8e5cef0", "d729f232", "34b85854", "27923312", "56f7ecd9", "18b80586", "e7cfa77d", "d5d46781",
    "da48e9e3", "086ab537", "b6690015", "4abea8a3", "132e5137", "e15efed8", "6ce84a94", "5b343369",
]  # fmt: skip

# --- the questions ------------------------------------------------------------------------------------
# As in benchmarks/kg_sealed.py: per question its time (chosen so that the gold answer is true then), the
# entities an ideal reader returns and a derivation over the official routes, on the KG of
# kg_mock.real_fixture built with `sealed="third"` (the real-wording set's facts and
# kg_mock/sealed3_fixture_data.py's in one KG); the derivations of the earlier sets are reused where the
# question is of the same kind.


def _volume(official: str, day: str, other_day: str) -> Callable[[Api], Derivation]:
    """The shares traded on `day` (`official`: a company-table name or a ticker); the near miss: the
    volume of `other_day`."""

    def derive(api: Api) -> Derivation:
        bars = api.bars(api.ticker(official) if " " in official else official)
        traded = str(bars[day]["Volume"])
        return Derivation(traded, [[day, traded]], [str(bars[other_day]["Volume"])])

    return derive


def _not_born_in(artist: str, first_year: int, years: int, look_alike: str) -> Callable[[Api], Derivation]:
    """A false premise: the artist was not born in the `years` from `first_year` (a decade); else where.
    The near miss: the birth place of the `look_alike` artist."""

    def derive(api: Api) -> Derivation:
        born = api("music/get_artist_birth_date", query=artist)
        place = api("music/get_artist_birth_place", query=artist)
        within = first_year <= int(born[:4]) < first_year + years
        other = api("music/get_artist_birth_place", query=look_alike)
        return Derivation(place if within else "invalid question", [[born, place], [artist, "no"]], [other])

    return derive


def _dated_works(api: Api, artist: str) -> list[tuple[str, str]]:
    """The artist's works with a release date, as (date, work), oldest first."""
    works = dict.fromkeys(api("music/get_artist_all_works", query=artist) or [])
    dated = ((api("music/get_song_release_date", query=work), work) for work in works)
    return sorted((day, work) for day, work in dated if day)


def _first_work(artist: str) -> Callable[[Api], Derivation]:
    """The artist's earliest released work; the near miss: the next one."""

    def derive(api: Api) -> Derivation:
        (day, first), (_, second), *_ = _dated_works(api, artist)
        return Derivation(first, [[first, day]], [second])

    return derive


def _latest_works(artist: str, count: int) -> Callable[[Api], Derivation]:
    """The artist's `count` latest works (all of them when it has fewer), the latest first."""

    def derive(api: Api) -> Derivation:
        latest = _dated_works(api, artist)[::-1][:count]
        return Derivation(", ".join(work for _, work in latest), [[work for _, work in latest]])

    return derive


def _films_of(api: Api, person: str, ids_field: str) -> list[dict]:
    return api.films(api.person(person)[ids_field])


def _first_film(person: str) -> Callable[[Api], Derivation]:
    """The earliest released film the person acted in; the near miss: the next one."""

    def derive(api: Api) -> Derivation:
        films = sorted(_films_of(api, person, "acted_movies"), key=lambda film: film["release_date"])
        first, second = films[0], films[1]
        return Derivation(first["title"], [[first["title"], first["release_date"]]], [second["title"]])

    return derive


def _lead_in(person: str, year: str) -> Callable[[Api], Derivation]:
    """The film of `year` in which the person is billed first; the near miss: the person's latest lead
    of another year."""

    def derive(api: Api) -> Derivation:
        leads = [
            film
            for film in _films_of(api, person, "acted_movies")
            if min(film["cast"], key=lambda member: member["order"])["name"] == person
        ]
        (asked,) = [film for film in leads if film["release_date"].startswith(year)]
        others = sorted(
            (f for f in leads if not f["release_date"].startswith(year)), key=lambda f: f["release_date"]
        )
        return Derivation(asked["title"], [[asked["title"], asked["release_date"]]], [others[-1]["title"]])

    return derive


def _directed(person: str) -> Callable[[Api], Derivation]:
    """Every film the person directed (the person record's directed_movies)."""

    def derive(api: Api) -> Derivation:
        titles = [film["title"] for film in _films_of(api, person, "directed_movies")]
        return Derivation(", ".join(titles), [titles])

    return derive


def _played(title: str, character: str) -> Callable[[Api], Derivation]:
    """Who plays `character` in the film; the near miss: the next of its cast."""

    def derive(api: Api) -> Derivation:
        cast = sorted(api.movie(title)["cast"], key=lambda member: member["order"])
        actor = next(member["name"] for member in cast if member["character"] == character)
        other = next(member["name"] for member in cast if member["name"] != actor)
        return Derivation(actor, [[actor, character]], [other])

    return derive


def _month_total(team: str, month: str, other_month: str) -> Callable[[Api], Derivation]:
    """The team's points over its NBA games of `month`; the near miss: its total of `other_month`."""

    def derive(api: Api) -> Derivation:
        total, days = month_points(api, team, month)
        other, _ = month_points(api, team, other_month)
        return Derivation(f"{total:g}", [days, [f"{total:g}"]], [f"{other:g}"])

    return derive


def _last_captain(team: str, day: str) -> Callable[[Api], Derivation]:
    """The captain of the team in its last game up to `day`; the near miss: the opponent's captain."""

    def derive(api: Api) -> Derivation:
        game = last_game(api, team, day[:7], day)
        theirs = next(row for row in api.soccer(day[:7], game["opponent"]) if row["game"] == game["game"])
        return Derivation(game["Captain"], [[game["date"][:10], game["Captain"]]], [theirs["Captain"]])

    return derive


DOCUMENTARY = "DOCUMENTARY (Feature)"
DOCUMENTARY_SHORT = "DOCUMENTARY (Short Subject)"
VISUAL = "VISUAL EFFECTS"
ANIMATED = "ANIMATED FEATURE FILM"
PERSON_FILMS = ("movie/get_person_info", "movie/get_movie_info_by_id")
WORKS = ("music/get_artist_all_works", "music/get_song_release_date")
KYLIE = "Kylie Minogue: A Kylie Christmas Live at the Royal Albert Hall"


def _third() -> list[tuple[RealQuestion, GoldIntent]]:
    q, i = _question, GoldIntent
    return [
        q("3c255def", "03/13/2024, 10:00:00 PT", {"companies": ["Avalon GloboCare"]},
          _highs("Avalon GloboCare Corp. Common Stock", "2024-03-04", "2024-03-08", "max",
                 [("ALBT", "2024-02-26", "2024-03-01"), ("ALBT", "2024-03-11", "2024-03-12")]),
          i("extreme", "span", True, "then", (*COMPANY, PRICES), ("High",))),
        q("f9df617d", "03/13/2024, 11:00:00 PT", {"tickers": ["SZZL"]},
          _bar("SZZL", "2024-03-08", "Open", [("SZZL", "2024-03-01"), ("SZZL", "2024-03-07")]),
          i("lookup", "point", True, "then", (PRICES,), ("Open",))),
        q("7b52aa2b", "03/20/2024, 00:10:00 PT", {},
          year_winner(2021, DOCUMENTARY, "film", [(2020, DOCUMENTARY), (2021, DOCUMENTARY_SHORT)]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.film"))),
        q("904dffae", "03/15/2024, 17:00:00 PT", {"tickers": ["KHC"]},
          _bar("KHC", "2024-03-15", "Close", [("KHC", "2024-03-14")]),
          i("lookup", "point", True, "now", (PRICES,), ("Close",))),
        q("8ecae91d", "03/20/2024, 00:12:00 PT", {"people": ["Chuck Bowman"]},
          _birthday("Chuck Bowman", "Chuck Norris"),
          i("lookup", "none", False, "then", ("movie/get_person_info",), ("birthday",))),
        q("6bbac7e1", "03/13/2024, 11:10:00 PT", {"artists": ["Beethoven"]},
          _not_born_in("Ludwig van Beethoven", 1790, 10, "Ludwig Göransson"),
          i("lookup", "span", False, "then", ("music/get_artist_birth_place", "music/get_artist_birth_date"),
            ("country", "birth_date"), false_premise=True)),
        q("82d831a7", "03/14/2024, 10:30:00 PT", {"companies": ["PPG Industries"]},
          _bar("PPG Industries Inc. Common Stock", "2024-03-14", "Open", [("PPG", "2024-03-13")]),
          i("lookup", "point", True, "now", (*COMPANY, PRICES), ("Open",))),
        q("435cc8d8", "03/14/2024, 10:00:00 PT", {"tickers": ["TBMC"]},
          _bar("TBMC", "2024-03-13", "Close", [("TBMC", "2024-03-12"), ("TBMC", "2024-03-14")]),
          i("lookup", "point", True, "then", (PRICES,), ("Close",))),
        q("17099348", "03/16/2024, 10:00:00 PT", {"tickers": ["KRKR"]},
          _volume("KRKR", "2024-03-15", "2024-03-14"),
          i("lookup", "point", True, "then", (PRICES,), ("Volume",))),
        q("812a9e50", "03/20/2024, 00:14:00 PT", {},
          year_winner(2012, DOCUMENTARY, "film", [(2013, DOCUMENTARY), (2011, DOCUMENTARY)]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.film"))),
        q("63cfd6f2", "03/20/2024, 00:16:00 PT", {"movies": ["The Switch"]},
          _movie_field("The Switch", "release_date", [("Switch", "release_date")]),
          i("first_or_last", "none", False, "then", (MOVIE,), ("release_date",))),
        q("586c731c", "03/20/2024, 00:18:00 PT", {"people": ["Ophelia Lovibond"]},
          _first_film("Ophelia Lovibond"),
          i("first_or_last", "none", False, "then", PERSON_FILMS, ("acted_movies", "release_date", "title"))),
        q("a374a29f", "03/12/2024, 12:00:00 PT", {"companies": ["Mettler-Toledo International"]},
          _bar("Mettler-Toledo International Inc. Common Stock", "2024-02-29", "Close",
               [("MTD", "2024-02-28"), ("MTD", "2024-03-01")]),
          i("lookup", "point", True, "then", (*COMPANY, PRICES), ("Close",))),
        q("c9c2b1c6", "03/20/2024, 00:20:00 PT", {"people": ["Ridley Scott"]}, _directed("Ridley Scott"),
          i("set", "none", False, "then", PERSON_FILMS, ("directed_movies", "title"))),
        q("89c96ad5", "03/16/2024, 09:00:00 PT", {"companies": ["Oramed Pharmaceuticals"]},
          _bar("Oramed Pharmaceuticals Inc. Common Stock", "2024-03-15", "Close", [("ORMP", "2024-03-14")]),
          i("lookup", "point", True, "now", (*COMPANY, PRICES), ("Close",))),
        q("4e20bfc3", "03/13/2024, 17:00:00 PT", {"companies": ["Hooker Furnishings Corporation"]},
          _bar("Hooker Furnishings Corporation Common Stock", "2024-03-13", "Close",
               [("HOFT", "2024-03-12")]),
          i("lookup", "point", True, "then", (*COMPANY, PRICES), ("Close",))),
        q("acd9c5bd", "03/12/2024, 12:10:00 PT", {"companies": ["Microsoft"], "tickers": ["MSFT"]},
          _bar("MSFT", "2024-02-09", "Open", [("MSFT", "2024-02-08"), ("MSFT", "2024-02-12")]),
          i("lookup", "point", False, "then", (PRICES,), ("Open",))),
        q("61ad5e0f", "03/20/2024, 00:22:00 PT",
          {"movies": [KYLIE]},
          _movie_field(KYLIE, "original_language", []),
          i("lookup", "none", False, "then", (MOVIE,), ("original_language",))),
        q("bb2a6c28", "03/12/2024, 10:00:00 PT", {"teams": ["Lyon"], "sport": "soccer"},
          _last_captain("Lyon", "2024-03-12"),
          i("lookup", "point", True, "then", (SOCCER,), ("date", "Captain"))),
        q("87c11187", "03/13/2024, 11:20:00 PT", {"artists": ["Lady Gaga"]}, _first_work("Lady Gaga"),
          i("first_or_last", "none", False, "then", WORKS, ("works", "date"))),
        q("78076e80", "03/12/2024, 10:00:00 PT", {"teams": ["Clermont Foot"], "sport": "soccer"},
          _game_date("Clermont Foot", "2024-03-12", "last"),
          i("first_or_last", "point", True, "then", (SOCCER,), ("date",))),
        q("a51ce1f2", "03/20/2024, 00:24:00 PT", {},
          year_winner(2001, VISUAL, "film", [(2000, VISUAL), (2002, VISUAL)]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.film"))),
        q("918ad702", "03/20/2024, 00:26:00 PT", {"movies": ["The Last Resort"]},
          _is_original_title("The Last Resort"),
          i("yes_no", "none", False, "then", (MOVIE,), ("original_title",))),
        q("c963e0c1", "03/20/2024, 00:28:00 PT", {},
          year_winner(2014, ANIMATED, "film", [(2015, ANIMATED), (2013, ANIMATED)]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.film"))),
        q("f8e5cef0", "03/15/2024, 16:00:00 PT", {"tickers": ["BHFAL"]},
          _volume("BHFAL", "2024-03-15", "2024-03-14"),
          i("lookup", "point", True, "then", (PRICES,), ("Volume",))),
        q("d729f232", "03/12/2024, 15:00:00 PT", {"companies": ["Nouveau Monde Graphite"]},
          _bar("Nouveau Monde Graphite Inc. Common Shares", "2024-03-12", "Close", [("NMG", "2024-03-11")]),
          i("lookup", "point", True, "then", (*COMPANY, PRICES), ("Close",))),
        q("34b85854", "03/20/2024, 00:30:00 PT", {"people": ["Keanu Reeves"]},
          _lead_in("Keanu Reeves", "2023"),
          i("lookup", "point", False, "then", PERSON_FILMS, ("acted_movies", "release_date", "cast.order")),
          checker_unsure="the gold names the film John Wick 4, the KG by its title John Wick: Chapter 4"),
        q("27923312", "03/20/2024, 00:32:00 PT", {"movies": ["Algae"]}, _is_original_title("Algae"),
          i("yes_no", "none", False, "then", (MOVIE,), ("original_title",))),
        q("56f7ecd9", "03/10/2024, 21:40:00 PT", {"teams": ["Dallas Mavericks"], "sport": "nba"},
          _month_total("Dallas Mavericks", "2022-01", "2021-12"),
          i("sum", "span", False, "then", (NBA,), NBA_POINTS)),
        q("18b80586", "03/20/2024, 00:34:00 PT", {"movies": ["Skyfall"]}, _played("Skyfall", "James Bond"),
          i("lookup", "none", False, "then", (MOVIE,), ("cast.character", "cast.name"))),
        q("e7cfa77d", "03/10/2024, 21:42:00 PT", {"teams": ["Charlotte Hornets"], "sport": "nba"},
          _month_total("Charlotte Hornets", "2022-12", "2022-11"),
          i("sum", "span", False, "then", (NBA,), NBA_POINTS)),
        q("d5d46781", "03/13/2024, 09:00:00 PT", {"tickers": ["BLACW"]},
          _bar("BLACW", "2024-03-12", "Close", [("BLACW", "2024-03-11"), ("BLACW", "2024-03-13")]),
          i("lookup", "point", True, "then", (PRICES,), ("Close",))),
        q("da48e9e3", "03/20/2024, 00:36:00 PT", {},
          year_winner(2015, VISUAL, "film", [(2016, VISUAL), (2014, VISUAL)]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.film"))),
        q("086ab537", "03/20/2024, 00:38:00 PT", {"movies": ["Deadpool 2"]},
          _director("Deadpool 2", "Deadpool"),
          i("lookup", "none", False, "then", (MOVIE,), ("crew.job", "crew.name"))),
        q("b6690015", "03/20/2024, 00:40:00 PT", {"people": ["Kenny Ortega"]}, _directed("Kenny Ortega"),
          i("set", "none", False, "then", PERSON_FILMS, ("directed_movies", "title"))),
        q("4abea8a3", "03/13/2024, 11:30:00 PT", {"artists": ["Thoinot Arbeau"]},
          _latest_works("Thoinot Arbeau", 3),
          i("first_or_last", "none", False, "then", WORKS, ("works", "date"))),
        q("132e5137", "03/20/2024, 00:42:00 PT", {"movies": ["The Nutcracker and the Four Realms"]},
          _is_original_title("The Nutcracker and the Four Realms"),
          i("yes_no", "none", False, "then", (MOVIE,), ("original_title",))),
        q("e15efed8", "03/12/2024, 10:00:00 PT", {"teams": ["Paris S-G"], "sport": "soccer"},
          _last_venue("Paris S-G", "2024-03-12"),
          i("first_or_last", "point", True, "then", (SOCCER,), ("date", "venue"), ("home", "away"))),
        q("6ce84a94", "03/13/2024, 11:40:00 PT",
          {"artists": ["Justin Timberlake"], "songs": ["Christmas Tree"]},
          _not_their_song("Justin Timberlake", "Christmas Tree"),
          i("count", "none", False, "then", ("music/get_artist_all_works", "music/get_song_author"),
            ("works", "author"), false_premise=True)),
        q("5b343369", "03/20/2024, 00:44:00 PT", {"movies": ["Girls' Night Out"]},
          _movie_field("Girls' Night Out", "release_date", [("Girls Trip", "release_date")]),
          i("lookup", "none", False, "then", (MOVIE,), ("release_date",))),
    ]  # fmt: skip


THIRD = SealedSet(
    "third",
    "sealed3:",
    frozenset(question.key for question in kg_real.QUESTIONS) | FIRST.walked() | SECOND.walked(),
    TAKEN,
    SKIPPED,
    ALREADY_READ,
    [question for question, _ in _third()],
    {question.key: intent for question, intent in _third()},
    # the checker's next batch (8), written after this walk read the repo, keeps off the set
    labels_after_selection=8,
)
