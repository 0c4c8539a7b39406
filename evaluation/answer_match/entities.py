"""The prediction as read against a gold answer, and names: teams, countries and people by their other names.

Teams and countries are read by their other names (evaluation/names.py: "Cavs" and "Cleveland" =
"cleveland cavaliers", "PSG" = "paris s-g", "USA" = "united states"): a prediction's name of a team or
country the gold names is written as the gold writes it, so that every rule compares the same words;
naming another one of the gold's kind is wrong ("the Hawks" for "denver nuggets"). People: the
prediction's initial before a surname is the gold's given name before it when that is the only one
starting with it ("L. Messi" = "lionel messi"; not "K. Messi", nor "J. Smith" beside "john smith" and
"jane smith"); a word the gold spells one letter otherwise, beside the gold's own word, is the gold's
word ("Washington Redskins" for "washinton redskins"; a surname's last letter too, not a given name's).
A name named by a distinctive part ("Djokovic", "Mayon" for "Mayon Volcano") is the phrase rules'.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property, lru_cache

from evaluation.answer_match.cues import (
    ABBREVIATION_MAX_LETTERS,
    FUNCTION_WORDS,
    HEDGE,
    MAX_EXTRA_WORDS,
    MISSPELT_MIN_LETTERS,
    NEGATION,
    NEGATION_WORDS,
    SEPARATORS,
    SHORT_ITEM_WORDS,
    SPELLING_SIMILARITY,
    VOWELS,
)
from evaluation.answer_match.reading import (
    BREAKS,
    Agreement,
    Date,
    Quantity,
    Token,
    agree,
    distinctive,
    is_content,
    stated_in,
    title_number,
    tokens,
    words,
)
from evaluation.names import Name, NameIndex
from models import vocabulary


@dataclass(frozen=True)
class Prediction:
    text: str
    tokens: tuple[Token, ...]  # initials read as the gold's given names (`_given_names`)
    hedged: bool  # hedges or offers alternatives: at best unsure
    negated: bool

    @classmethod
    def read(cls, text: str, gold: Sequence[Token] = ()) -> Prediction:
        lowered = text.lower().replace("’", "'")
        said = _known_names(_given_names(tokens(text), gold), text, tuple(gold))
        said = gold_compounds(_gold_spellings(said, gold), gold)
        return cls(text, said, bool(HEDGE.search(lowered)), bool(NEGATION.search(lowered)))

    @cached_property
    def words(self) -> tuple[Token, ...]:
        return tuple(t for t in self.tokens if t not in BREAKS)

    @cached_property
    def says_zero(self) -> bool:
        """Whether it says there is none: a zero word ("none", "never", "nil"), 0, or a negation ("they
        didn't score", "Tesla does not pay a dividend")."""
        return self.negated or any(
            t in vocabulary.ZERO_WORDS or (isinstance(t, Quantity) and t.value == 0) for t in self.words
        )


def _given_names(said: tuple[Token, ...], wanted: Sequence[Token]) -> tuple[Token, ...]:
    """The prediction with an initial before a surname read as the gold's given name before that surname
    ("L. Messi" for "lionel messi") when exactly one of the gold's given names before it starts with the
    initial. An initial that none of them fits names someone else ("K. Messi", "S. Messi") and stays a word
    the gold lacks (written "s.", so that it is no function word such as "s" or "t"); one that several
    fit ("J. Smith" beside "john smith" and "jane smith") stays as written."""
    result = list(said)
    for i, (initial, surname) in enumerate(zip(said, said[1:])):
        if not (
            isinstance(initial, str) and len(initial) == 1 and initial.isalpha() and distinctive(surname)
        ):
            continue
        if initial == "t" and i > 0 and str(said[i - 1]).endswith("n"):
            continue  # the "t" of "didn't": no initial
        given = {
            name
            for name, after in zip(wanted, wanted[1:])
            if after == surname and isinstance(name, str) and name not in FUNCTION_WORDS | NEGATION_WORDS
        }
        fits = {name for name in given if name[0] == initial}
        if len(fits) == 1:
            result[i] = fits.pop()
        elif given and not fits:
            result[i] = initial + "."
    return tuple(result)


def _gold_spellings(said: tuple[Token, ...], wanted: Sequence[Token]) -> tuple[Token, ...]:
    """The prediction with a name's word that the gold spells one letter otherwise written as the gold
    writes it, when a word beside it is the gold's word beside it: "Washington Redskins" for "washinton
    redskins", "The Bourne Supremacy" for "the bourne supremecy", a surname's last letter ("Alan
    Shearer" for "alan sheare"); not a given name's last letter ("Daniela Smith" for "daniel smith")."""
    result = list(said)
    gold_words = _by_first_letter(tuple(wanted))
    for i, word in enumerate(said):
        if not isinstance(word, str) or len(word) < MISSPELT_MIN_LETTERS or not distinctive(word):
            continue
        if word in wanted:
            continue
        for j, gold_word in gold_words.get(word[0], ()):
            edit = one_edit(word, gold_word)
            if edit is None:
                continue
            before = i > 0 and j > 0 and said[i - 1] == wanted[j - 1] and distinctive(said[i - 1])
            after = (
                i + 1 < len(said)
                and j + 1 < len(wanted)
                and said[i + 1] == wanted[j + 1]
                and distinctive(said[i + 1])
            )
            at_end = edit >= min(len(str(word)), len(str(gold_word))) - 1
            if (before or after) and (before or not at_end):
                result[i] = gold_word
                break
    return tuple(result)


def gold_compounds(said: tuple[Token, ...], wanted: Sequence[Token]) -> tuple[Token, ...]:
    """The prediction with a word the gold writes as two, or two it writes as one, written as the gold
    writes them: "Spider-Man" for "spiderman", "Trailblazers" for "trail blazers"."""
    gold_words = {t for t in wanted if isinstance(t, str) and distinctive(t)}
    joined = {
        str(a) + str(b): (a, b) for a, b in zip(wanted, wanted[1:]) if distinctive(a) and distinctive(b)
    }
    result: list[Token] = []
    i = 0
    while i < len(said):
        token, following = said[i], said[i + 1] if i + 1 < len(said) else None
        if isinstance(token, str) and isinstance(following, str) and token + following in gold_words:
            result.append(token + following)
            i += 2
            continue
        if isinstance(token, str) and token not in gold_words and token in joined:
            result.extend(joined[token])
        else:
            result.append(token)
        i += 1
    return tuple(result)


@lru_cache(maxsize=65536)
def _by_first_letter(wanted: tuple[Token, ...]) -> dict[str, list[tuple[int, str]]]:
    """The gold's distinctive words, by their first letter, with where they stand."""
    found: dict[str, list[tuple[int, str]]] = {}
    for j, word in enumerate(wanted):
        if isinstance(word, str) and distinctive(word):
            found.setdefault(word[0], []).append((j, word))
    return found


def one_edit(a: str, b: str) -> int | None:
    """Where two words differ by one letter added, dropped or changed, or two letters side by side
    swapped ("keira", "kiera"), after the same first letter; None when they do not."""
    if a == b or a[0] != b[0] or abs(len(a) - len(b)) > 1:
        return None
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    if len(a) == len(b):
        swapped = a[at : at + 2] == b[at : at + 2][::-1] and a[at + 2 :] == b[at + 2 :]
        return at if a[at + 1 :] == b[at + 1 :] or swapped else None
    shorter, longer = (a, b) if len(a) < len(b) else (b, a)
    return at if shorter[at:] == longer[at + 1 :] else None


@lru_cache(maxsize=1)
def name_index() -> NameIndex:
    return NameIndex(words)


@lru_cache(maxsize=65536)
def _gold_names(wanted: tuple[Token, ...]) -> tuple[Name, ...]:
    """The known names of a gold answer; a country code counts only as the whole answer ("us")."""
    whole = "".join(t for t in wanted if isinstance(t, str) and t not in BREAKS)
    return tuple(name_index().find(wanted, distinctive, lambda code: code == whole))


def _known_names(said: tuple[Token, ...], text: str, wanted: tuple[Token, ...]) -> tuple[Token, ...]:
    """The prediction with each name it gives of a team or country the gold names, written as the gold
    writes it ("Cavs" and "Cleveland" for "cleveland cavaliers", "USA" for "united states", "Great
    Britain" for "the united kingdom"). A country code counts written in capitals ("US", "U.S.")."""
    gold_names = {name.key: wanted[name.start : name.end] for name in reversed(_gold_names(wanted))}
    if not gold_names:
        return said

    result = list(said)
    for name in reversed(_prediction_names(said, text)):
        if name.key in gold_names:
            result[name.start : name.end] = gold_names[name.key]
    return tuple(result)


@lru_cache(maxsize=65536)
def _prediction_names(said: tuple[Token, ...], text: str) -> tuple[Name, ...]:
    """The known names of a prediction; a country code counts written in capitals ("US", "U.S.")."""

    def written_in_capitals(code: str) -> bool:
        return bool(re.search(r"\b" + r"\.?".join(code.upper()) + r"\b", text))

    return tuple(name_index().find(said, distinctive, written_in_capitals))


def other_name(said: Prediction, wanted: Sequence[Token]) -> bool:
    """Whether the gold is one known name and the prediction names another of its kind, not it ("the
    Hawks" for "denver nuggets", "Austria" for "australia", "AC Milan" for "inter")."""
    gold_names = _gold_names(tuple(wanted))
    if len(gold_names) != 1:
        return False
    gold = gold_names[0]
    if any(distinctive(t) for t in [*wanted[: gold.start], *wanted[gold.end :]]):
        return False
    named = {name.key for name in name_index().find(said.tokens, distinctive, lambda code: False)}
    return gold.key not in named and any(other.kind == gold.kind for other in map(Name.of, named))


def names_another_subject(said: Prediction, wanted: Sequence[Token], question: str) -> bool:
    """Whether the gold or the question names teams or countries and the prediction names one of their
    kind that neither of them names ("Manchester City have won 20." for "manchester united have won
    twenty premier league titles.", asked about manchester united)."""
    asked = words(question)
    known = {name.key for name in (*_gold_names(tuple(wanted)), *names_in(asked))}
    kinds = {Name.of(key).kind for key in known}
    return any(
        name.key not in known
        and name.kind in kinds
        and not all(stated_in(t, [*wanted, *asked]) for t in said.tokens[name.start : name.end])
        for name in _prediction_names(said.tokens, said.text)
    )  # "Dallas" of "the dallas cowboys" is no other name, though the index reads it as the Mavericks


def says_more(said: Prediction, gold_words: Sequence[Token], question: str) -> bool:
    """Whether the prediction states more than a little beside the gold and the question: a sentence
    about something else that happens to name the gold ("Germany has won four FIFA World Cup titles"
    for "germany", asked where the 2006 World Cup was held)."""
    asked = words(question)
    extra = [
        t for t in said.words if is_content(t) and not stated_in(t, gold_words) and not stated_in(t, asked)
    ]
    return len(extra) > MAX_EXTRA_WORDS


def names_part(said: Sequence[Token], wanted: Sequence[Token], either_end: bool = False) -> bool:
    """Whether `said` names `wanted` by a distinctive part of it: its end ("Djokovic", "Deathly Hallows
    Part 2"), a start followed only by generic words ("Mayon" for "Mayon Volcano"), or, in a list,
    any start or end ("Ella" for "Ella Clooney", "Spurs" for "San Antonio Spurs"). A part without the
    name's number does not name it ("Spider-Man" for "Spider-Man 2"), nor one of two things joined
    ("Blue" for "yellow and blue", "Maggie" for "lisa and maggie")."""
    n = len(said)
    if not 0 < n < len(wanted) or not any(distinctive(t) for t in said):
        return False
    if tuple(wanted[-n:]) == tuple(said):  # a surname, a title's end; not "Blue" for "yellow and blue"
        dropped = wanted[:-n]
        joined = dropped[-1] in SEPARATORS and sum(map(distinctive, said)) < 2  # not "Deathly Hallows Part 2"
        return (
            not any(map(title_number, dropped))
            and not joined
            and (
                either_end
                or len(dropped) == 1
                or sum(map(distinctive, said)) >= 2
                or not any(map(distinctive, dropped))
            )
        )
    if tuple(wanted[:n]) == tuple(said):  # not "Lisa" for "lisa and maggie"
        dropped = wanted[n:]
        return not any(t in SEPARATORS or title_number(t) for t in dropped) and (
            either_end or not any(map(distinctive, dropped))
        )
    return False


def shared_by_others(part: Sequence[Token], others: Sequence[Sequence[Token]]) -> bool:
    """Whether another name shares a distinctive word of a part of a name, which then names neither for
    sure ("Williams" beside "venus williams" and "serena williams", "Bieber" beside "justin bieber" and
    "hailey bieber")."""
    return any(stated_in(t, other) for other in others for t in part if distinctive(t))


def related_to(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """Whether the prediction may name the gold another way: a shared distinctive word, an abbreviation
    ("man city", "rdj"), another spelling, or only the gold's values."""
    if all(stated_in(t, wanted) for t in said):
        return True  # a part of the gold, which the phrase rules do not accept as a name
    said_words = [t for t in said if isinstance(t, str)]
    gold_words = [t for t in wanted if isinstance(t, str) and t not in FUNCTION_WORDS]
    for s in filter(distinctive, said_words):
        if any(w.startswith(s) or s.startswith(w) for w in filter(distinctive, gold_words)):
            return True
    if names_alike(said, wanted):
        return True
    values = [t for t in said if isinstance(t, (Quantity, Date))]
    return bool(values) and all(any(agree(v, w) is Agreement.SAME for w in wanted) for v in values)


def names_alike(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """Whether a short prediction may name the gold in a way the rules cannot confirm: initials ("mit",
    "psg", "us" for "united states"), an abbreviation ("msft", "utd") or another spelling ("ferrell" for
    "farrell")."""
    said_words = [t for t in said if isinstance(t, str) and t not in BREAKS]
    gold_words = [t for t in wanted if isinstance(t, str) and t not in BREAKS]
    if len(said_words) > SHORT_ITEM_WORDS:
        return False
    for short, long in ((said_words, gold_words), (gold_words, said_words)):
        initials = {"".join(w[0] for w in long), "".join(w[0] for w in long if w not in FUNCTION_WORDS)}
        for word in short:
            if word in FUNCTION_WORDS or not 2 <= len(word) <= ABBREVIATION_MAX_LETTERS:
                continue
            if (word in initials and len(long) > 1) or any(_abbreviates(word, other) for other in long):
                return True
    return any(
        spelled_alike(s, g) for s in filter(distinctive, said_words) for g in filter(distinctive, gold_words)
    )


def _abbreviates(short: str, word: str) -> bool:
    """ "msft" for "microsoft", "utd" for "united": the first letter, then consonants of the word in order."""
    if len(short) < 3 or len(word) < len(short) + 2 or short[0] != word[0] or set(short[1:]) & set(VOWELS):
        return False
    letters = iter(word)
    return all(letter in letters for letter in short)


def spelled_alike(a: str, b: str) -> bool:
    return (
        a != b
        and a[0] == b[0]
        and min(len(a), len(b)) >= 4
        and (SequenceMatcher(None, a, b).ratio() >= SPELLING_SIMILARITY)
    )


def other_ending(said: Sequence[Token], wanted: Sequence[Token]) -> bool:
    """A name that starts as the gold does, then goes on another way ("Tom Cruise" for "tom hanks",
    "Sheffield Wednesday" for "sheffield utd", "Pirates of the Caribbean: At World's End" for its "Dead
    Man's Chest"; not "Sheffield United", which "utd" may abbreviate)."""
    shared = 0
    while shared < min(len(said), len(wanted)) and said[shared] == wanted[shared]:
        shared += 1
    if not shared or shared in (len(said), len(wanted)):
        return False
    rest, gold_rest = said[shared], wanted[shared]
    return distinctive(rest) and distinctive(gold_rest) and not names_alike(said[shared:], wanted[shared:])


def names_in(text: Sequence[Token]) -> tuple[Name, ...]:
    """The known names (teams, countries) in a sentence or a question; codes only as whole answers."""
    return tuple(name_index().find(text, distinctive, lambda code: False))
