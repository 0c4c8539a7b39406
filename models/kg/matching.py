"""Names: the question's spelling against the KG's. Search-route normalisation, similarity, the pick
of one original spelling among search hits, company -> ticker, and NBA/soccer team names.

The official exact-key routes are case-sensitive and unstripped, so a name is sent to them only in a
spelling the KG itself returned (a search hit, a row of data) or from the built-in NBA team table.
"""

from __future__ import annotations

import csv
import difflib
import re
import string
import unicodedata
from pathlib import Path

from loguru import logger

from models.aliases import FOOTBALL_CLUBS
from models.vocabulary import COMPANY_NOISE, LEADING_ARTICLE, SOCCER_CLUB_NOISE, WORD_TOKEN

_ASCII_PUNCTUATION = re.compile("[" + re.escape(string.punctuation) + "]")
_WORD_TOKEN = re.compile(WORD_TOKEN)
_COMPANY_NOISE = re.compile(COMPANY_NOISE)
_LEADING_ARTICLE = re.compile(LEADING_ARTICLE)


CONTAINED_SCORE = 0.8
# Two spellings of one name but for a leading article ("beatles", "The Beatles"): near the same,
# and below the name spelt as asked, which wins where the KG holds both.
ARTICLE_SCORE = 0.95


def search_key(text: str) -> str:
    """The official search normalisation: lower-case, `_` -> space, ASCII punctuation deleted."""
    return " ".join(_ASCII_PUNCTUATION.sub("", text.lower().replace("_", " ")).split())


def loose_key(text: str) -> str:
    """A loose comparison key: accents folded, every non-alphanumeric run a single space."""
    folded = unicodedata.normalize("NFKD", text.lower()).encode("ascii", "ignore").decode()
    return " ".join(_WORD_TOKEN.findall(folded.replace("'", "").replace("\u2019", "")))


def without_article(key: str) -> str:
    """A loose key without its leading article ("the weeknd": "weeknd"), unless nothing is left."""
    return _LEADING_ARTICLE.sub("", key) or key


def name_score(query: str, candidate: str) -> float:
    """Similarity of two names in [0, 1]: token overlap, or the character ratio when higher; a
    leading article on either side is not part of the comparison."""
    left, right = loose_key(query), loose_key(candidate)
    if not left or not right:
        return 0.0
    if left == right:
        return 1.0
    left, right = without_article(left), without_article(right)
    if left == right:
        return ARTICLE_SCORE
    left_tokens, right_tokens = set(left.split()), set(right.split())
    overlap = len(left_tokens & right_tokens) / len(left_tokens | right_tokens)
    # a name the question shortened ("paper lanterns" for "Paper Lanterns in July")
    shortened = CONTAINED_SCORE if len(left_tokens) > 1 and left_tokens <= right_tokens else 0.0
    return max(overlap, shortened, difflib.SequenceMatcher(None, left, right).ratio())


def best_match(query: str, candidates: list[str], min_similarity: float) -> str | None:
    """The candidate most similar to `query`, if similar enough. Among equally similar spellings the
    query's own wins when it carries capitals; a lower-cased question says nothing about case, so
    then the KG's first hit wins (the search returns its spellings of one name in stored order)."""
    cased = query != query.lower()
    scored = [
        (name_score(query, c), cased and c == query, -i, c)
        for i, c in enumerate(candidates)
        if isinstance(c, str) and c
    ]
    if not scored:
        return None
    best = max(scored)
    return best[-1] if best[0] >= min_similarity else None


def written_match(name: str, candidates: list[str], question: str) -> str | None:
    """The longest candidate the question writes in full that shares a word with `name`: the reader
    cut the name short ("dark" for "The Dark Knight") or took a word with it ("spielberg directed")."""
    text, words = f" {loose_key(question)} ", set(loose_key(name).split())
    written = [
        c
        for c in candidates
        if isinstance(c, str) and (key := loose_key(c)) and f" {key} " in text and words & set(key.split())
    ]
    return max(written, key=lambda c: len(loose_key(c)), default=None)


def trailing_number(name: str) -> int | None:
    """The number a name ends with ("Toy Story 2": 2), else None."""
    words = loose_key(name).split()
    return int(words[-1]) if len(words) > 1 and words[-1].isdigit() and len(words[-1]) <= 2 else None


def numbered_title(name: str, hits: list[tuple[str, str]]) -> str | None:
    """The film a title read with a number names when no hit is spelt so ("matrix 2", "toy story 1"):
    among the hits (title, release date) that hold the title's other words, in a series whose titles
    carry numbers the one with that number (1: the one without), else the n-th by release date."""
    number = trailing_number(name)
    if number is None or number < 1:
        return None
    series = " ".join(loose_key(name).split()[:-1])
    members = []  # (release date, title, the words after the series' own)
    for title, date in hits:
        parts = f" {loose_key(title)} ".split(f" {series} ", 1)
        if len(parts) == 2:
            members.append((date or "~", title, parts[1].strip()))
    numbered = {int(rest): title for _, title, rest in members if rest.isdigit()}
    if numbered:
        plain = [title for _, title, rest in members if not rest]
        return numbered.get(number) or (plain[0] if number == 1 and plain else None)
    ordered = [title for _, title, _ in sorted(members)]
    return ordered[number - 1] if number <= len(ordered) else None


def company_key(name: str) -> str:
    return " ".join(_COMPANY_NOISE.sub(" ", loose_key(name)).split())


def best_company(query: str, names: list[str], min_similarity: float) -> str | None:
    """The official company name for `query` among search hits: same name once legal forms and share
    classes are dropped, else the most similar."""
    key = company_key(query)
    same = [n for n in names if isinstance(n, str) and key and company_key(n) == key]
    if same:
        return next((n for n in same if "common stock" in n.lower()), same[0])
    by_key = {company_key(n): n for n in reversed(names) if isinstance(n, str) and company_key(n)}
    match = best_match(key or query, list(by_key), min_similarity)
    return by_key[match] if match else None


class CompanyDirectory:
    """The name -> ticker table (CSV with `Name` and `Symbol`), when the file exists; else empty and
    tickers come from the API's get_company_name + get_ticker_by_name."""

    def __init__(self, path: str | Path, min_similarity: float):
        self.min_similarity = min_similarity
        self.by_key: dict[str, str] = {}
        self.tickers: set[str] = set()
        path = Path(path)
        if not path.is_file():
            logger.info(f"Company table {path} absent; tickers come from the KG API")
            return
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                name, symbol = (row.get("Name") or "").strip(), (row.get("Symbol") or "").strip()
                key = company_key(name)
                if key and symbol:
                    self.by_key.setdefault(key, symbol)
        self.tickers = set(self.by_key.values())

    def ticker(self, company: str) -> str | None:
        """The ticker of `company` by its name without legal form or share class."""
        return self.by_key.get(company_key(company))


# --- NBA ------------------------------------------------------------------------------------------

# The 30 franchises as the game table spells them, with the nicknames questions use. The Clippers
# appear as "LA Clippers" in recent seasons and "Los Angeles Clippers" before.
NBA_TEAMS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("Atlanta Hawks",): ("hawks", "atlanta"),
    ("Boston Celtics",): ("celtics", "boston", "celts"),
    ("Brooklyn Nets",): ("nets", "brooklyn"),
    ("Charlotte Hornets",): ("hornets", "charlotte"),
    ("Chicago Bulls",): ("bulls", "chicago"),
    ("Cleveland Cavaliers",): ("cavaliers", "cavs", "cleveland"),
    ("Dallas Mavericks",): ("mavericks", "mavs", "dallas"),
    ("Denver Nuggets",): ("nuggets", "denver"),
    ("Detroit Pistons",): ("pistons", "detroit"),
    ("Golden State Warriors",): ("warriors", "golden state", "dubs", "gsw"),
    ("Houston Rockets",): ("rockets", "houston"),
    ("Indiana Pacers",): ("pacers", "indiana"),
    ("LA Clippers", "Los Angeles Clippers"): ("clippers", "clips", "lac"),
    ("Los Angeles Lakers",): ("lakers", "lal"),
    ("Memphis Grizzlies",): ("grizzlies", "grizz", "memphis"),
    ("Miami Heat",): ("heat", "miami"),
    ("Milwaukee Bucks",): ("bucks", "milwaukee"),
    ("Minnesota Timberwolves",): ("timberwolves", "wolves", "twolves", "minnesota"),
    ("New Orleans Pelicans",): ("pelicans", "pels", "new orleans", "nola"),
    ("New York Knicks",): ("knicks", "new york", "nyk"),
    ("Oklahoma City Thunder",): ("thunder", "oklahoma city", "okc", "oklahoma"),
    ("Orlando Magic",): ("magic", "orlando"),
    ("Philadelphia 76ers",): ("76ers", "sixers", "philadelphia", "philly"),
    ("Phoenix Suns",): ("suns", "phoenix"),
    ("Portland Trail Blazers",): ("trail blazers", "blazers", "portland", "trailblazers"),
    ("Sacramento Kings",): ("kings", "sacramento"),
    ("San Antonio Spurs",): ("spurs", "san antonio"),
    ("Toronto Raptors",): ("raptors", "toronto", "raps"),
    ("Utah Jazz",): ("jazz", "utah"),
    ("Washington Wizards",): ("wizards", "washington", "wiz"),
}


def nba_team_names(asked: str) -> tuple[str, ...]:
    """The game table's spellings of the NBA team `asked` names (full or informal), or () if none."""
    key = loose_key(asked)
    if not key:
        return ()
    for names, nicknames in NBA_TEAMS.items():
        if key in (loose_key(n) for n in names):
            return names
    padded = f" {key} "
    for names, nicknames in NBA_TEAMS.items():
        # a nickname as a whole word of the asked name: "the Rockets", "Portland Blazers"
        if any(
            f" {n} " in padded for n in nicknames if len(n.split()) > 1 or n not in ("new york", "washington")
        ):
            return names
    for names, nicknames in NBA_TEAMS.items():
        if any(f" {n} " in padded for n in nicknames):
            return names
    return ()


def nba_full_names(text: str) -> list[str]:
    """The NBA teams `text` names by a full name of the game table ("miami heat", "the portland trail
    blazers"), in the table's spelling."""
    key = f" {loose_key(text)} "
    return [names[0] for names in NBA_TEAMS if any(f" {loose_key(name)} " in key for name in names)]


# --- soccer -----------------------------------------------------------------------------------------

# Other names -> the words of the source's spelling ("man utd" -> "manchester utd"), from the shared table.
_SOCCER_ALIASES = {
    loose_key(alias).replace("paris s g", "paris sg"): loose_key(club).replace("paris s g", "paris sg")
    for club, aliases in FOOTBALL_CLUBS.items()
    for alias in aliases
}
_SOCCER_NOISE = re.compile(SOCCER_CLUB_NOISE)


def soccer_key(name: str) -> str:
    key = loose_key(name).replace("paris s g", "paris sg")
    key = _SOCCER_ALIASES.get(key, key)
    return " ".join(_SOCCER_NOISE.sub(" ", key).split()) or key


def match_team(asked: str, available: list[str], min_similarity: float) -> str | None:
    """The spelling in `available` (team names seen in the KG's data) of the team `asked` names."""
    nba = nba_team_names(asked)
    for name in available:
        if name in nba:
            return name
    key = soccer_key(asked)
    if not key:
        return None
    keys = {name: soccer_key(name) for name in available if isinstance(name, str)}
    for name, other in keys.items():
        if other == key:
            return name
    contained = [
        name for name, other in keys.items() if f" {key} " in f" {other} " or f" {other} " in f" {key} "
    ]
    if len(contained) == 1:
        return contained[0]
    scored = [(difflib.SequenceMatcher(None, key, other).ratio(), name) for name, other in keys.items()]
    best = max(scored, default=(0.0, None))
    return best[1] if best[0] >= min_similarity else None
