"""The sealed KG set: a test of generalisation for the KG stage (issue 51, item 5). Forty real CRAG
validation questions (../shared/data/crag_questions_validation.jsonl, read at run time by
`interaction_id_prefix`, never stored here) that nobody tuned a rule on, picked by a fixed hash.

Do not read these questions, their gold answers or their facts while changing the KG's rules, and do
not run the system on them until the work is done: then run them once
(`benchmarks/kg.py --real --system --sealed`) and report that first run as it came out.

The selection is mechanical:
- candidates: the validation questions of the four KG domains the real-wording set covers (finance,
  movie, music, sports) that are not in benchmarks/kg_real.py's QUESTIONS;
- order: sha256 of "sealed:" + interaction_id_prefix, ascending;
- down that order, a question that was read before (its id or its wording is in a file of the repo:
  all of them in benchmarks/answer_checker_labels.jsonl) is passed over (ALREADY_READ); one that the
  routes of its own domain could not answer, whatever a reader did, is skipped with its reason
  (SKIPPED); every other question is taken (TAKEN), until 40 are taken. The open domain's routes are
  not counted as answering: they hold encyclopaedia summaries, which would make every question
  "answerable", and the set tests the domains' own tables, as the real-wording set does;
- taken: the question can be answered from facts a KG of the official API's shape holds (the 38
  routes of ../shared/docs/CRAG_MOCK_API.md), including a computed answer (a count, a comparison, an
  average, a date) and an "invalid question" gold whose false premise the KG's facts show (a company
  or a film that is not in the tables, a week without a game). Difficulty plays no part.
tests/test_kg_sealed.py re-derives the order and checks that TAKEN, SKIPPED and ALREADY_READ are
exactly its first questions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

SELECTION_DOMAINS = ("finance", "movie", "music", "sports")
SELECTION_SALT = "sealed:"
SELECTION_SIZE = 40


def selection_order(keys: Iterable[str]) -> list[str]:
    """The keys in the order the selection walks them."""
    return sorted(keys, key=lambda key: hashlib.sha256((SELECTION_SALT + key).encode()).hexdigest())


def selection_problems(
    records: dict[str, dict],
    excluded: set[str],
    taken: list[str],
    skipped: dict[str, str],
    already_read: dict[str, str],
) -> list[str]:
    """How `taken`, `skipped` and `already_read` depart from the rule over the validation `records`
    (key -> row) without the real-wording set's keys `excluded`; [] when they follow it."""
    candidates = [key for key, row in records.items() if row["domain"] in SELECTION_DOMAINS]
    order = selection_order(key for key in candidates if key not in excluded)
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
    "9f2a6a4b": "the highest price of all stocks: no route ranks tickers (it would take every ticker's prices)",
    "27d21faa": "NFL passing touchdowns and Super Bowls: the KG holds no American football",
    "a99f8520": "the album that holds two songs: no route links songs to albums, and works carry no kind",
    "612d6a91": "a TV show's Tomatometer score: the movie tables hold films and their ratings, not critics' scores",
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
    "aaaab7df": "US-and-Canada gross and the studio (Pixar): the movie records hold worldwide revenue, no studio",
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
