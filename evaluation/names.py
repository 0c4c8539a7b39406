"""Names the answer checker knows by their other names: countries, NBA teams and European football clubs.

- Countries: country_converter's name patterns (regular expressions: "great britain" and "england" for
  the United Kingdom, "republic of korea" for South Korea, "türkiye" for Turkey) and its ISO codes
  ("usa", "uk"); a code of two or three letters counts in a prediction only written in capitals ("US",
  "U.S."), or when it is the whole text ("us", "es": the gold answers of country questions).
- Countries by their people's adjective ("the French national team", "Spanish"), from countryinfo's
  demonyms, only where the question asks for a country or a team (`in_country_names`): elsewhere "French"
  is as likely the language. A demonym several countries share goes to one only when its population is
  over `DEMONYM_POPULATION_RATIO` times each other's ("French": France, not Réunion); else to none.
- NBA teams: the KG's table of the 30 franchises with their nicknames, short forms and cities
  (models/kg/matching.py `NBA_TEAMS`: "cavs", "sixers", "philly").
- NFL teams: `NFL_TEAMS` below, the 32 teams with their nicknames and short forms ("niners", "pats"),
  which the KG does not cover.
- European football clubs: the table the KG reads too (models/aliases.py `FOOTBALL_CLUBS`), the clubs
  of the five leagues the CRAG sports KG covers under FBref's squad names, which the KG and its gold
  answers use ("manchester utd", "paris s-g", "nott'ham forest"), with each club's full name and the
  short forms it goes by.

`NameIndex.find(words, ...)` finds the names in a text's words: the longest run of words that names
exactly one of them, standing alone (no distinctive word right before or after it: "West Germany" and
"Indiana Fever" name neither Germany nor the Pacers), unless it is a team's full name ("the golden
state warriors won").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from models.aliases import FOOTBALL_CLUBS
from models.kg.matching import NBA_TEAMS

# NFL teams (the CRAG KG has none; the answer checker reads them in gold sentences and predictions): each
# full name with its nickname and the short forms it goes by. Its city names a team only where no other
# team of the index has it ("kansas city"; not "dallas", the Mavericks' too, nor "new york").
NFL_TEAMS: dict[str, tuple[str, ...]] = {
    "Arizona Cardinals": ("cardinals",),
    "Atlanta Falcons": ("falcons",),
    "Baltimore Ravens": ("ravens",),
    "Buffalo Bills": ("bills",),
    "Carolina Panthers": ("panthers",),
    "Chicago Bears": ("bears",),
    "Cincinnati Bengals": ("bengals",),
    "Cleveland Browns": ("browns",),
    "Dallas Cowboys": ("cowboys",),
    "Denver Broncos": ("broncos",),
    "Detroit Lions": ("lions",),
    "Green Bay Packers": ("packers",),
    "Houston Texans": ("texans",),
    "Indianapolis Colts": ("colts",),
    "Jacksonville Jaguars": ("jaguars", "jags"),
    "Kansas City Chiefs": ("chiefs",),
    "Las Vegas Raiders": ("raiders",),
    "Los Angeles Chargers": ("chargers",),
    "Los Angeles Rams": ("rams",),
    "Miami Dolphins": ("dolphins",),
    "Minnesota Vikings": ("vikings",),
    "New England Patriots": ("patriots", "pats"),
    "New Orleans Saints": ("saints",),
    "New York Giants": ("giants",),
    "New York Jets": ("jets",),
    "Philadelphia Eagles": ("eagles",),
    "Pittsburgh Steelers": ("steelers",),
    "San Francisco 49ers": ("49ers", "niners", "forty-niners"),
    "Seattle Seahawks": ("seahawks",),
    "Tampa Bay Buccaneers": ("buccaneers", "bucs"),
    "Tennessee Titans": ("titans",),
    "Washington Commanders": ("commanders",),
}
# Common names of countries that country_converter's patterns do not read: ISO3 -> the name.
COUNTRY_NAMES = {"USA": "america"}
LONGEST_NAME = 8  # words: "united kingdom of great britain and northern ireland"
CODE_LETTERS = 3  # a country code: "us", "usa"
PATTERN_WORDS = 4  # a country's pattern is tried on runs of at most this many words
SEPARATORS = frozenset({"and", "or", "nor"})
DEMONYM_POPULATION_RATIO = 10
# What may follow a people's adjective in a name of their national side: "French national football team".
NATIONAL_SIDE = r"(?:\s+national)?(?:\s+(?:football|soccer|basketball))?(?:\s+(?:team|side|squad))?"


@dataclass(frozen=True)
class Name:
    start: int  # where the name's words start in the text's tokens
    end: int  # one past its last word
    key: str  # what it names: "country:USA", "team:Cleveland Cavaliers", "team:Manchester Utd"

    @property
    def kind(self) -> str:
        return self.key.split(":")[0]

    @classmethod
    def of(cls, key: str) -> Name:
        return cls(0, 0, key)


@lru_cache(maxsize=1)
def _country_data():  # country_converter's table (a pandas DataFrame)
    try:
        import country_converter
    except ImportError as error:  # a missing install step, not a checker failure
        raise ImportError(
            "The answer checker reads country names with country_converter: "
            "pip install -r requirements-cpu.txt"
        ) from error
    return country_converter.CountryConverter().data


@lru_cache(maxsize=1)
def _countries() -> tuple[tuple[str, re.Pattern[str]], ...]:
    data = _country_data()
    return tuple(
        (iso3, re.compile(pattern, re.IGNORECASE)) for iso3, pattern in zip(data["ISO3"], data["regex"])
    )


@lru_cache(maxsize=1)
def _any_country() -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{pattern.pattern})" for _, pattern in _countries()), re.IGNORECASE)


@lru_cache(maxsize=1)
def _country_codes() -> dict[str, str]:
    data = _country_data()
    codes: dict[str, str] = {}
    for iso3, iso2 in zip(data["ISO3"], data["ISO2"]):
        for code in [iso3, *re.findall(r"[A-Z]{2}", iso2)]:
            codes[code.lower()] = iso3
    return codes


def _country(run: Sequence[str], spelled: str, as_code: bool) -> str | None:
    """The ISO3 code of the one country whose name pattern matches a run of words whole, or None."""
    if len(spelled) <= CODE_LETTERS:
        return _country_codes().get(spelled) if as_code else None
    text = " ".join(run)
    if not _any_country().fullmatch(text):
        return None
    found = {iso3 for iso3, pattern in _countries() if pattern.fullmatch(text)}
    return found.pop() if len(found) == 1 else None


class NameIndex:
    """Teams and countries by their names (words as the checker reads them), and countries by their
    patterns too."""

    def __init__(self, read: Callable[[str], Iterable[object]]):
        teams: dict[tuple[object, ...], set[str]] = {}  # and countries
        self.full: set[tuple[object, ...]] = set()  # names that stand in a longer phrase too
        for names, others in NBA_TEAMS.items():
            self.full |= {_words(read(name)) for name in names}
            for alias in (*names, *others):
                teams.setdefault(_words(read(alias)), set()).add(f"team:{names[0]}")
        cities: dict[tuple[object, ...], set[str]] = {}
        for team, others in NFL_TEAMS.items():
            self.full.add(_words(read(team)))
            for alias in (team, *others):
                teams.setdefault(_words(read(alias)), set()).add(f"team:{team}")
            cities.setdefault(_words(read(team))[: -len(_words(read(others[0])))], set()).add(f"team:{team}")
        for club, others in FOOTBALL_CLUBS.items():
            for alias in (club, *others):
                teams.setdefault(_words(read(alias)), set()).add(f"team:{club}")
                if len(_words(read(alias))) > 1:
                    self.full.add(_words(read(alias)))
        for city, keys in cities.items():  # "kansas city": only a city no other team of the index has
            if len(keys) == 1 and city not in teams:
                teams[city] = keys
        data = _country_data()
        names = zip(data["ISO3"], data["name_short"], data["name_official"])
        for iso3, *aliases in [*names, *COUNTRY_NAMES.items()]:
            for alias in aliases:  # "russian federation", "commonwealth of australia"
                teams.setdefault(_words(read(alias)), set()).add(f"country:{iso3}")
        # a name two of them share ("los angeles") names neither
        self.exact = {alias: keys.pop() for alias, keys in teams.items() if len(keys) == 1 and alias}

    def find(
        self, tokens: Sequence[object], distinctive: Callable[[object], bool], codes: Callable[[str], bool]
    ) -> list[Name]:
        """The names in `tokens` (words are str; values and breaks anything else), leftmost longest
        first; `distinctive` tells a word that makes a name longer, `codes` whether a short run may be
        read as a country code."""
        found: list[Name] = []
        i = 0
        while i < len(tokens):
            name = self._name_at(tokens, i, distinctive, codes)
            if name is None:
                i += 1
                continue
            found.append(name)
            i = name.end
        return found

    def _name_at(
        self,
        tokens: Sequence[object],
        start: int,
        distinctive: Callable[[object], bool],
        codes: Callable[[str], bool],
    ) -> Name | None:
        after_word = start > 0 and distinctive(tokens[start - 1])
        for end in range(min(len(tokens), start + LONGEST_NAME), start, -1):
            run = tuple(tokens[start:end])
            if run in self.full and run in self.exact:  # "the golden state warriors won"
                return Name(start, end, self.exact[run])
            if after_word or (end < len(tokens) and distinctive(tokens[end])):
                continue
            if run in self.exact:
                return Name(start, end, self.exact[run])
            if not all(isinstance(t, str) and t.isalpha() for t in run):
                continue
            words = tuple(str(t) for t in run)
            spelled = "".join(words) if all(len(w) == 1 for w in words) else " ".join(words)
            if len(spelled) > CODE_LETTERS and (
                len(words) > PATTERN_WORDS
                or not (distinctive(run[0]) and distinctive(run[-1]))
                or SEPARATORS.intersection(words)
            ):
                continue  # a pattern reads a name of a few words of its own ("china and india" is two)
            country = _country(words, spelled, codes(spelled))
            if country is not None:
                return Name(start, end, f"country:{country}")
        return None


@lru_cache(maxsize=1)
def _demonyms() -> tuple[re.Pattern[str], dict[str, str]]:
    """A pattern finding a demonym (with "the" before it and a national side's words after it), and each
    demonym's country by its short name (country_converter's, as the name index reads it)."""
    try:
        from countryinfo import all_countries
    except ImportError as error:  # pragma: no cover - installed with requirements-cpu.txt
        raise RuntimeError(
            "The answer checker reads demonyms with countryinfo: pip install countryinfo"
        ) from error
    claims: dict[str, dict[str, int]] = {}
    for country in all_countries():
        iso3, demonym = country.iso().get("alpha3"), country.demonym() or ""
        for word in re.split(r"[,/]", demonym.lower()):
            if iso3 and word.strip():
                claims.setdefault(word.strip(), {})[iso3] = int(country.population() or 0)
    data = _country_data()
    short = dict(zip(data["ISO3"], data["name_short"]))
    countries = {}
    for demonym, populations in claims.items():
        first, *others = sorted(populations, key=populations.__getitem__, reverse=True)
        if first in short and all(
            populations[first] > DEMONYM_POPULATION_RATIO * populations[o] for o in others
        ):
            countries[demonym] = short[first]
    alternatives = "|".join(re.escape(d) for d in sorted(countries, key=len, reverse=True))
    return re.compile(rf"\b(?:the\s+)?({alternatives}){NATIONAL_SIDE}\b", re.IGNORECASE), countries


def in_country_names(text: str) -> str:
    """`text` with each people's adjective, and the national side it names, written as its country's name
    ("the French national team" -> "France"), for a question asking for a country or a team."""
    pattern, countries = _demonyms()
    return pattern.sub(lambda match: countries[match[1].lower()], text)


def _words(tokens: Iterable[object]) -> tuple[object, ...]:
    """A name's tokens as the checker reads them, without phrase breaks ("76ers": 76, "ers")."""
    return tuple(t for t in tokens if not (isinstance(t, str) and not t.isalnum()))
