"""The second sealed KG set (issue 51, item 5): forty more validation questions, picked by the rule of
benchmarks/kg_sealed.py with the salt "sealed2:", among the questions that neither the real-wording set
nor the first sealed set holds or walked past. Not a script: benchmarks/kg.py reads it
(`--real [--system] --sealed second`).

Do not read this file, its questions, their gold answers or kg_mock/sealed2_fixture_data.py while
changing the KG's rules; run the set once, when the work is done, and report that first run as it came.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks import kg_real
from benchmarks.kg_real import Api, Derivation, RealQuestion, compare, last_game, members, next_game
from benchmarks.kg_sealed import (
    COMPANY,
    FIRST,
    MOVIE,
    OSCAR_WINNER,
    PRICES,
    SOCCER,
    YEAR,
    GoldIntent,
    SealedSet,
    _bar,
    _band,
    _finance_value,
    _is_original_title,
    _movie_field,
    _no_game_in_week,
    _no_game_on,
    _question,
)

# Passed over: read before, in the files named.
ALREADY_READ = {
    **{
        key: "benchmarks/answer_checker_labels.jsonl"
        for key in (
            "5154cd2b", "277d18d2", "d1ccf4bf", "26c71ab4", "47b81d91", "287ce116", "27231a13", "adea74b3",
            "7c640e7c", "6ed2f16e", "08ba2a01", "303700dd", "d28ca5b4", "a5b6a767", "e3331f43", "0f111bd6",
            "83ca6ad3", "e9e45c2a", "e07ba7d2", "6c3635ed", "d94f14d1",
        )
    },
    "b4db3f46": "benchmarks/answer_checker_labels.jsonl, tests/test_answer_match.py",
}  # fmt: skip

# Skipped: no route of the question's domain could answer it.
SKIPPED = {
    "1bfdd090": "a private company's investors: no route holds investors, and the company has no ticker",
    "0166b46f": "NBA championships: no route holds titles, and the games table does not mark a final",
    "157856a2": "a band's change of name: no route holds former names, so no fact shows the premise false",
    "b2424587": "Formula 1 championships: the KG holds no motor racing",
    "e042412e": "the first actress in a kind of role: the cast lists characters' names, not kinds of role",
    "86b97205": "Nasdaq-100 membership and gross margins: no route lists an index's members",
    "a7826efe": "the band of an album: no route goes from a work to its artist",
    "f9e50a8d": 'the gold answer is "i don\'t know": no fact of a route gives a right answer',
    "99e0d355": "Olympic swimming medals: the KG holds no swimming",
    "51062299": "WTA singles titles: the KG holds no tennis",
    "23f1fbae": "music videos and their directors: no route holds music videos",
    "fa38b3aa": "a studio's releases: the movie records name no production company",
    "8135a393": "a price of January last year: the price history holds one year of daily bars, to the "
    "data's last day",
    "50eb98b3": "NFL receiving yards: the KG holds no American football",
    "3ab49325": "games behind a playoff place: the games table holds no conferences or playoff places",
    "8d3fa211": "a singer picked by her songs and awards: no route goes from a song or a count to its "
    "performer",
    "1015c11e": "NCAA gymnastics: the KG holds no college sports",
    "c6bb3372": "Formula 1 race wins: the KG holds no motor racing",
    "8a0ae627": "Tour de France titles: the KG holds no cycling",
    "70363424": "a quarter's reported EPS: get_eps gives the forward EPS; no route holds quarterly results",
    "c21e2aa1": "NBA championships: no route holds titles, and the games table does not mark a final",
    "573ac6fa": "the band of an album: no route goes from a work to its artist",
    "e585c691": "a film's sequels: the movie records name no franchise or collection",
    "b76308d4": "an artist's best-selling albums: no route holds sales",
}

# Taken, in the selection's order.
TAKEN = [
    "a0dd8a0d", "cb739056", "4a83eae1", "997d8255", "10b956b5", "7a9cad56", "4243a46d", "cb544c30",
    "fd2b639f", "87eaafbe", "a308abbc", "442591ae", "69f7993d", "36373e4b", "be883c24", "d379af33",
    "d5ee49c8", "82934867", "096bba0f", "ee1422c9", "d7d15bdb", "20bdd3d1", "d3cc29cf", "b3580a6c",
    "f7a80ee6", "9ba408bd", "c836747b", "c60be6cb", "27eee8b3", "899aee2e", "74f9198b", "c56e68a4",
    "a3579f2b", "cf35e327", "6fbc6a0b", "af1ee3f6", "c798b289", "ec013333", "841d581b", "a2b042d7",
]  # fmt: skip

# --- the questions ------------------------------------------------------------------------------------
# As in benchmarks/kg_sealed.py: per question its time (chosen so that the gold answer is true then), the
# entities an ideal reader returns and a derivation over the official routes, on the KG of
# kg_mock.real_fixture built with `sealed="second"` (the real-wording set's facts and
# kg_mock/sealed2_fixture_data.py's in one KG); the derivations of the first set are reused where the
# question is of the same kind.


def _first_release(series: str) -> Callable[[Api], Derivation]:
    """The year of the earliest film whose title starts with `series`; the near miss: the next one's."""

    def derive(api: Api) -> Derivation:
        films = sorted(
            (m["release_date"], m["title"])
            for m in api("movie/get_movie_info", query=series)
            if m["title"].startswith(series)
        )
        (first, title), (second, _) = films[0], films[1]
        return Derivation(first[:4], [[title, first]], [second[:4]])

    return derive


def _member_count(artist: str, look_alike: str = "") -> Callable[[Api], Derivation]:
    """How many members the KG lists for `artist` (none for a solo artist: 0)."""

    def derive(api: Api) -> Derivation:
        names = members(api, artist)
        other = [str(len(members(api, look_alike)))] if look_alike else []
        return Derivation(str(len(names)), [names or [artist], [str(len(names))]], other)

    return derive


def _higher_info(field: str, *companies: str) -> Callable[[Api], Derivation]:
    """Which of `companies` (official names) has the higher `field` of its info record."""

    def derive(api: Api) -> Derivation:
        values = {name: api("finance/get_info", query=api.ticker(name))[field] for name in companies}
        winner = compare(values)
        return Derivation(api.ticker(winner), [[str(v) for v in values.values()]])

    return derive


def _works_in_year(artist: str, year: str) -> Callable[[Api], Derivation]:
    """How many of the artist's works were released in `year`; the near miss: a work of another year."""

    def derive(api: Api) -> Derivation:
        works = list(dict.fromkeys(api("music/get_artist_all_works", query=artist) or []))
        dates = {work: api("music/get_song_release_date", query=work) or "" for work in works}
        found = [work for work in works if dates[work][:4] == year]
        others = [work for work in works if dates[work] and dates[work][:4] != year]
        return Derivation(str(len(found)), [found, [str(len(found))]], others[-1:])

    return derive


def _founded(artist: str, look_alike: str) -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        born = api("music/get_artist_birth_date", query=artist)
        other = api("music/get_artist_birth_date", query=look_alike)
        return Derivation(born[:4], [[born]], [other[:4]])

    return derive


def _more_works(*artists: str) -> Callable[[Api], Derivation]:
    def derive(api: Api) -> Derivation:
        works = {a: list(dict.fromkeys(api("music/get_artist_all_works", query=a) or [])) for a in artists}
        return Derivation(
            compare({artist: len(found) for artist, found in works.items()}),
            [[work for found in works.values() for work in found], [str(len(f)) for f in works.values()]],
        )

    return derive


def _game_date(team: str, day: str, which: str) -> Callable[[Api], Derivation]:
    """The day of the team's `which` ("next" or "last") game from `day`; the near miss: the other one."""

    def derive(api: Api) -> Derivation:
        after = next_game(api, team, day[:7], day)["date"][:10]
        before = last_game(api, team, day[:7], day)["date"][:10]
        asked, other = (after, before) if which == "next" else (before, after)
        return Derivation(asked, [[asked]], [other])

    return derive


def _no_dividend(official: str) -> Callable[[Api], Derivation]:
    """A false premise: the company's dividend history is empty; the near miss: its last close."""

    def derive(api: Api) -> Derivation:
        ticker = api.ticker(official)
        paid = api.dividends(ticker)
        bars = api.bars(ticker)
        last = bars[max(bars)]["Close"]
        return Derivation(
            "invalid question" if not paid else "yes", [[ticker], [official, "no"]], [kg_real.price(last)]
        )

    return derive


def _dividends_in(official: str, year: str) -> Callable[[Api], Derivation]:
    """The total of the company's dividends of `year`; the near miss: the year before's total."""

    def derive(api: Api) -> Derivation:
        paid = api.dividends(api.ticker(official))
        asked = {day: amount for day, amount in paid.items() if day.startswith(year)}
        before = sum(amount for day, amount in paid.items() if day.startswith(str(int(year) - 1)))
        return Derivation(
            f"${sum(asked.values()):.2f}",
            [[*asked, *(str(a) for a in asked.values())], [f"{sum(asked.values()):.2f}"]],
            [f"{before:.2f}"],
        )

    return derive


def _not_directed_by(title: str, person: str) -> Callable[[Api], Derivation]:
    """A false premise: `person` is not among the film's directors."""

    def derive(api: Api) -> Derivation:
        directors = [c["name"] for c in api.movie(title)["crew"] if c["job"] == "Director"]
        return Derivation(
            "invalid question" if person not in directors else "yes", [directors, [person, title, "no"]]
        )

    return derive


ACTOR = "ACTOR IN A LEADING ROLE"
VISUAL = "VISUAL EFFECTS"


def _second() -> list[tuple[RealQuestion, GoldIntent]]:
    q, i = _question, GoldIntent
    return [
        q("a0dd8a0d", "03/19/2024, 23:40:00 PT", {"movies": ["Annie"]}, _is_original_title("Annie"),
          i("yes_no", "none", False, "then", (MOVIE,), ("original_title",))),
        q("cb739056", "03/19/2024, 10:00:00 PT", {"teams": ["Nantes"], "sport": "soccer"},
          _no_game_in_week("Nantes", "2024-03-18", "2024-03-24"),
          i("lookup", "span", True, "now", (SOCCER,), ("date", "opponent"), false_premise=True)),
        q("4a83eae1", "03/19/2024, 23:42:00 PT", {"movies": ["Toy Story"]}, _first_release("Toy Story"),
          i("first_or_last", "none", False, "then", (MOVIE,), ("release_date",))),
        q("997d8255", "03/15/2024, 14:00:00 PT",
          {"companies": ["Transportadora de Gas del Sur SA"], "tickers": ["TGS"]},
          _bar("Transportadora de Gas del Sur SA", "2024-03-15", "Close", [("TGS", "2024-03-14")]),
          i("lookup", "point", True, "now", (*COMPANY, PRICES), ("Close",))),
        q("10b956b5", "03/14/2024, 09:30:00 PT", {"tickers": ["STK"]},
          _finance_value("finance/get_market_capitalization", "STK",
                         [("finance/get_market_capitalization", "STKS")]),
          i("lookup", "point", True, "now", ("finance/get_market_capitalization",), ("marketCap",))),
        q("7a9cad56", "03/14/2024, 10:00:00 PT", {"tickers": ["WNW"]},
          _bar("WNW", "2024-03-13", "Close", [("WNW", "2024-03-12"), ("WNW", "2024-03-14")]),
          i("lookup", "point", True, "then", (PRICES,), ("Close",))),
        q("4243a46d", "03/12/2024, 10:00:00 PT", {"teams": ["Nice"], "sport": "soccer"},
          _game_date("Nice", "2024-03-12", "next"),
          i("first_or_last", "point", True, "now", (SOCCER,), ("date",))),
        q("cb544c30", "03/12/2024, 11:00:00 PT", {"tickers": ["GNE"]},
          _finance_value("finance/get_pe_ratio", "GNE",
                         [("info:trailingPE", "GNE"), ("finance/get_pe_ratio", "GNK")]),
          i("lookup", "point", True, "now", ("finance/get_pe_ratio",), ("forwardPE",))),
        q("fd2b639f", "03/12/2024, 09:00:00 PT", {"companies": ["Signet Jewelers Limited"]},
          _bar("Signet Jewelers Limited Common Shares", "2024-03-11", "Low",
               [("SIG", "2024-03-12"), ("SIG", "2024-03-08")]),
          i("extreme", "point", True, "then", (*COMPANY, PRICES), ("Low",))),
        q("87eaafbe", "03/13/2024, 10:50:00 PT", {"artists": ["The Beatles"]},
          _member_count("The Beatles", "Beatles Revival Band"),
          i("count", "none", False, "then", ("music/get_members",), ("members",))),
        q("a308abbc", "03/11/2024, 10:00:00 PT", {"teams": ["Nice"], "sport": "soccer"},
          _game_date("Nice", "2024-03-11", "last"),
          i("first_or_last", "point", True, "then", (SOCCER,), ("date",))),
        q("442591ae", "03/12/2024, 11:10:00 PT", {"tickers": ["NTR"]},
          _finance_value("finance/get_pe_ratio", "NTR",
                         [("info:trailingPE", "NTR"), ("finance/get_pe_ratio", "NTRS")]),
          i("lookup", "point", True, "now", ("finance/get_pe_ratio",), ("forwardPE",))),
        q("69f7993d", "03/14/2024, 10:00:00 PT", {"companies": ["Impinj"]},
          _bar("Impinj Inc. Common Stock", "2024-03-14", "Open", [("PI", "2024-03-13")]),
          i("lookup", "point", True, "now", (*COMPANY, PRICES), ("Open",))),
        q("36373e4b", "03/12/2024, 10:00:00 PT", {"teams": ["Lens"], "sport": "soccer"},
          _no_game_on("Lens", "2024-03-11"),
          i("yes_no", "point", True, "then", (SOCCER,), ("date", "result"), false_premise=True)),
        q("be883c24", "03/14/2024, 09:40:00 PT", {"tickers": ["WSBC"]},
          _finance_value("finance/get_market_capitalization", "WSBC",
                         [("finance/get_market_capitalization", "WSFS")]),
          i("lookup", "point", True, "now", ("finance/get_market_capitalization",), ("marketCap",))),
        q("d379af33", "03/14/2024, 12:00:00 PT", {"companies": ["Autodesk", "CDW"]},
          _higher_info("debtToEquity", "Autodesk Inc. Common Stock", "CDW Corporation Common Stock"),
          i("compare", "point", True, "now", (*COMPANY, "finance/get_info"), ("debtToEquity",),
            ("Autodesk", "CDW"))),
        q("d5ee49c8", "03/19/2024, 23:44:00 PT", {},
          kg_real.year_winner(2011, VISUAL, "film", [(2012, VISUAL), (2011, "BEST PICTURE")]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.film"))),
        q("82934867", "03/19/2024, 23:46:00 PT", {},
          kg_real.year_winner(2015, ACTOR, "name", [(2016, ACTOR), (2015, "ACTRESS IN A LEADING ROLE")]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.name"))),
        q("096bba0f", "03/19/2024, 23:48:00 PT", {"movies": ["Jane Austen's Mafia!"]},
          _movie_field("Jane Austen's Mafia!", "original_language", [("Mafioso", "original_language")]),
          i("lookup", "none", False, "then", (MOVIE,), ("original_language",))),
        q("ee1422c9", "03/13/2024, 10:52:00 PT", {"artists": ["Kanye West"]},
          _works_in_year("Kanye West", "2023"),
          i("count", "point", False, "then", ("music/get_artist_all_works", "music/get_song_release_date"),
            ("works", "date"))),
        q("d7d15bdb", "03/19/2024, 23:50:00 PT", {},
          kg_real.year_winner(1994, VISUAL, "film", [(1995, VISUAL), (1993, VISUAL)]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.film"))),
        q("20bdd3d1", "03/19/2024, 23:52:00 PT", {"movies": ["The Pact"]},
          _movie_field("The Pact", "original_language", [("El pacto", "original_language")]),
          i("lookup", "none", False, "then", (MOVIE,), ("original_language",))),
        q("d3cc29cf", "03/14/2024, 12:00:00 PT", {"tickers": ["GLADZ"]},
          _bar("GLADZ", "2024-03-12", "Open", [("GLADZ", "2024-03-05"), ("GLAD", "2024-03-12")]),
          i("lookup", "point", True, "then", (PRICES,), ("Open",))),
        q("b3580a6c", "03/19/2024, 23:54:00 PT", {},
          kg_real.year_winner(2021, ACTOR, "name", [(2020, ACTOR), (2021, "ACTRESS IN A LEADING ROLE")]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.name"))),
        q("f7a80ee6", "03/13/2024, 10:00:00 PT", {"teams": ["Lyon"], "sport": "soccer"},
          _no_game_on("Lyon", "2024-03-12"),
          i("yes_no", "point", True, "then", (SOCCER,), ("date", "result"), false_premise=True)),
        q("9ba408bd", "03/15/2024, 14:00:00 PT", {"tickers": ["AVGO"]},
          _bar("AVGO", "2024-03-15", "Close", [("AVGO", "2024-03-14")]),
          i("lookup", "point", True, "now", (PRICES,), ("Close",))),
        q("c836747b", "03/13/2024, 10:54:00 PT", {"artists": ["My Chemical Romance"]},
          _band("My Chemical Romance", "Pencey Prep"),
          i("set", "none", False, "then", ("music/get_members",), ("members",))),
        q("c60be6cb", "03/12/2024, 10:00:00 PT", {"teams": ["Atlético Madrid"], "sport": "soccer"},
          _game_date("Atlético Madrid", "2024-03-12", "next"),
          i("first_or_last", "point", True, "now", (SOCCER,), ("date",))),
        q("27eee8b3", "03/14/2024, 12:00:00 PT", {"companies": ["Clearmind Medicine"]},
          _no_dividend("Clearmind Medicine Inc. Common Shares"),
          i("lookup", "point", True, "then", (*COMPANY, "finance/get_dividends_history", PRICES),
            ("ex-dividend date", "Close"), false_premise=True)),
        q("899aee2e", "03/13/2024, 10:56:00 PT", {"artists": ["Backstreet Boys"]},
          _founded("Backstreet Boys", "Nick Carter"),
          i("lookup", "none", False, "then", ("music/get_artist_birth_date",), ("birth_date",))),
        q("74f9198b", "03/13/2024, 10:58:00 PT", {"artists": ["The Beatles", "Justin Timberlake"]},
          _more_works("The Beatles", "Justin Timberlake"),
          i("compare", "none", False, "then", ("music/get_artist_all_works",), ("works",),
            ("The Beatles", "Justin Timberlake"))),
        q("c56e68a4", "03/13/2024, 11:00:00 PT", {"artists": ["The Weeknd"]}, _member_count("The Weeknd"),
          i("count", "none", False, "now", ("music/get_members",), ("members",))),
        q("a3579f2b", "03/19/2024, 23:56:00 PT", {"movies": ["Song of Hiawatha"]},
          _movie_field("Song of Hiawatha", "original_language", []),
          i("lookup", "none", False, "then", (MOVIE,), ("original_language",))),
        q("cf35e327", "03/13/2024, 12:00:00 PT", {"tickers": ["EDBL"]},
          _bar("EDBL", "2024-03-08", "Close", [("EDBL", "2024-03-01"), ("EDBL", "2024-03-15")]),
          i("lookup", "point", True, "then", (PRICES,), ("Close",))),
        q("6fbc6a0b", "03/15/2024, 10:00:00 PT", {"tickers": ["GLPI"]},
          _bar("GLPI", "2024-03-14", "Close", [("GLPI", "2024-03-13"), ("GLPI", "2024-03-15")]),
          i("lookup", "point", True, "then", (PRICES,), ("Close",))),
        q("af1ee3f6", "03/19/2024, 23:58:00 PT", {},
          kg_real.year_winner(2020, ACTOR, "name", [(2019, ACTOR), (2020, "DIRECTING")]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.name"))),
        q("c798b289", "03/20/2024, 00:00:00 PT", {},
          kg_real.year_winner(1991, ACTOR, "name", [(1992, ACTOR)]),
          i("lookup", "point", False, "then", (YEAR,), (*OSCAR_WINNER, "oscar_awards.name"))),
        q("ec013333", "03/14/2024, 12:00:00 PT", {"companies": ["Regency Centers"]},
          _dividends_in("Regency Centers Corporation Common Stock", "2023"),
          i("sum", "span", True, "then", (*COMPANY, "finance/get_dividends_history"), ("dividend amount",))),
        q("841d581b", "03/20/2024, 00:02:00 PT", {"movies": ["The Great Gatsby"], "people": ["Eric Till"]},
          _not_directed_by("The Great Gatsby", "Eric Till"),
          i("yes_no", "none", False, "then", (MOVIE,), ("crew.job", "crew.name"), false_premise=True)),
        q("a2b042d7", "03/25/2024, 10:00:00 PT", {"teams": ["Girona"], "sport": "soccer"},
          _no_game_in_week("Girona", "2024-03-18", "2024-03-24"),
          i("sum", "span", True, "then", (SOCCER,), ("date", "GF"), false_premise=True)),
    ]  # fmt: skip


SECOND = SealedSet(
    "second",
    "sealed2:",
    frozenset(question.key for question in kg_real.QUESTIONS) | FIRST.walked(),
    TAKEN,
    SKIPPED,
    ALREADY_READ,
    [question for question, _ in _second()],
    {question.key: intent for question, intent in _second()},
    labels_after_selection=7,
)
