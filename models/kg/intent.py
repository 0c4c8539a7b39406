"""The one reading of a KG question: its wording read once into a typed `Intent`.

What the question asks (relations picked from each domain's declared table, models/kg/relations.py),
about whom (the subjects the entity reader found, each with its kind), when (a point, a span or a time
relative to the question's own, and whether its tense asks for now or for then), what to do with the
facts (the operation: a lookup, a count, a total, an average, an extreme, the first or the last, a
comparison, a difference, a set, a yes/no check), the options it names and the form its answer must
take. Planning, rendering and the computed answer read the Intent; this module is the only one that
reads the wording (the entity reader, models/kg/entities.py, reads the names).

Relations are picked by their cue words (a prior: the table's order is their specificity, a relation
that consumes its words leaves them to no later one) and, with a sentence encoder, by meaning: the
question against each relation's descriptions (models/kg/meaning.py). A reading's confidence says how
far they agree: a cue the meaning does not contradict, or a meaning clear of the next relation's. A
computed answer needs a confident reading (`kg.min_reading_confidence`); the facts are shown either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Literal, Mapping, Protocol, cast

from models import vocabulary as v
from models.answer_check import AnswerConstraint, read_constraint
from models.kg.entities import KGEntities, name_words, written_whole
from models.kg.matching import loose_key, written_match
from models.kg.relations import BY_NAME, MUSIC_OFF_CHART_HINTS, TABLES, Relation
from models.kg.timeparse import DateSpan, find_time_spans, parse_query_time
from models.retrieval.question_kind import asks_for_several
from models.schema import Event

Operation = Literal[
    "lookup", "count", "sum", "average", "extreme", "first_or_last", "compare", "difference", "set", "yes_no"
]
OPERATIONS: tuple[Operation, ...] = (
    "lookup",
    "count",
    "sum",
    "average",
    "extreme",
    "first_or_last",
    "compare",
    "difference",
    "set",
    "yes_no",
)
TimeKind = Literal["none", "point", "span", "relative"]
Tense = Literal["now", "then", "unmarked"]
Direction = Literal["", "higher", "lower", "earlier", "later"]
# The form an answer must take: one of the question's options, yes or no, a year, a date, a number, a
# name, a place, a language; "" when the wording does not say.
Form = Literal["", "option", "yes_no", "year", "date", "number", "name", "place", "language"]
MatchedBy = Literal["cue", "hint", "meaning", "reader", "default"]
NAME_KINDS = ("companies", "movies", "people", "artists", "songs", "teams", "entities")
# Where a cue is read: the wording (names blanked, "_"), the whole question, or the rest of the wording
# once the words that name a thing are taken out ("best new artist" names no artist asked, "best
# picture" no highest value).
# "tight": the wording with its runs of spaces made one (the blanks of names leave two).
Scope = Literal["wording", "question", "rest", "tight"]

# Named cues the domains read off a question, each a pattern of models/vocabulary.py. A domain asks
# `intent.asks(name)`.
CUES: dict[str, tuple[str, Scope]] = {
    # what is done with the rows (models/kg/answer.py)
    "total": (v.TOTAL_ASKED, "rest"),
    "average": (v.AVERAGE_ASKED, "rest"),
    "count": (v.COUNT_ASKED, "rest"),
    "highest": (v.HIGHEST_ASKED, "rest"),
    "lowest": (v.LOWEST_ASKED, "rest"),
    "more": (v.MORE_ASKED, "rest"),
    "less": (v.LESS_ASKED, "rest"),
    "earlier": (v.EARLIER_ASKED, "rest"),
    "later": (v.LATER_ASKED, "rest"),
    "when": (v.WHEN_ASKED, "rest"),
    "share": (v.SHARE_ASKED, "rest"),
    "age_or_duration": (v.AGE_OR_DURATION_ASKED, "rest"),
    "difference": (v.DIFFERENCE_ASKED, "rest"),
    "date_gap": (v.DATE_GAP_ASKED, "rest"),
    "side_by_side": (v.SIDE_BY_SIDE, "rest"),
    "rows_counted": (v.ROWS_COUNTED, "rest"),
    "operands": (v.OPERAND_WORDS, "wording"),
    "existential": (v.EXISTENTIAL_OPENING, "question"),
    "different": (v.DIFFERENT_ASKED, "wording"),
    "merit": (v.MERIT_ASKED, "wording"),
    # time and tense
    "relative_time": (v.RELATIVE_TIME, "wording"),
    "at_present": (v.AT_PRESENT, "wording"),
    "up_to": (v.UP_TO, "wording"),
    # finance
    "generic_price": (v.GENERIC_PRICE, "wording"),
    "change": (v.CHANGE, "wording"),
    "price_word": (v.PRICE_WORD, "wording"),
    "shares_traded": (v.SHARES_TRADED, "wording"),
    "closed_lower": (v.CLOSED_LOWER, "wording"),
    "closed_higher": (v.CLOSED_HIGHER, "wording"),
    "days_asked": (v.DAYS_ASKED, "wording"),
    "many_days": (v.MANY_DAYS, "wording"),
    "edge_trading_day": (v.EDGE_TRADING_DAY, "wording"),
    "shares_bought": (v.SHARES_BOUGHT, "wording"),
    "money_amount": (v.MONEY_AMOUNT, "question"),
    # music
    "chart_moves": (v.CHART_MOVES, "wording"),
    "previous_week": (v.PREVIOUS_WEEK, "question"),
    "this_week": (v.THIS_WEEK, "question"),
    "debut": (v.DEBUT, "question"),
    "artist_date_words": (v.ARTIST_DATE_WORDS, "wording"),
    "artist_nouns": (v.ARTIST_NOUNS, "rest"),
    "member_words": (v.MEMBERS_ASKED, "wording"),
    "band_facts": (v.BAND_FACTS, "wording"),
    "released": (v.RELEASED, "wording"),
    "work_nouns": (v.WORK_NOUNS, "wording"),
    "award_years": (v.AWARD_YEARS, "wording"),
    "career": (v.CAREER, "wording"),
    "death": (v.DEATH, "wording"),
    "act_asked": (v.ACT_ASKED, "wording"),
    "song_asked": (v.SONG_ASKED, "wording"),
    "grammy": (v.GRAMMY, "wording"),
    **{f"off_chart_{name}": (words, "wording") for name, words in MUSIC_OFF_CHART_HINTS.items()},
    "artist_signal": (v.ARTIST_SIGNAL, "tight"),
    "song_signal": (v.SONG_SIGNAL, "tight"),
    "member_birth": (v.MEMBER_AGE, "wording"),
    "member_place": (v.BIRTH_PLACE, "wording"),
    # movie
    "film_year_words": (v.FILM_YEAR_WORDS, "question"),
    "films_of_a_year": (v.FILMS_OF_A_YEAR, "rest"),
    "crew_person": (v.CREW_PERSON, "wording"),
    "person_facts": (v.PERSON_FACTS, "rest"),
    "other_films": (v.OTHER_FILMS, "rest"),
    "more_of_the_person": (v.MORE_OF_THE_PERSON, "wording"),
    "award_won": (v.AWARD_WON, "wording"),
    "first_one": (v.FIRST_ONE, "wording"),
    "last_one": (v.LAST_ONE, "wording"),
    "nominees": (v.NOMINEES, "wording"),
    "nominations": (v.NOMINATIONS, "wording"),
    "person_films": (v.PERSON_FILMS, "rest"),
    "films_of_followed": (v.FILMS_OF_FOLLOWED, "wording"),
    "directed": (v.DIRECTED, "rest"),
    "acted": (v.ACTED, "rest"),
    "cast_asked": (v.CAST_ASKED, "rest"),
    "cast_size": (v.CAST_SIZE, "rest"),
    "film_asked": (v.FILM_ASKED, "wording"),
    "film_person_asked": (v.FILM_PERSON_ASKED, "wording"),
    "others_asked": (v.OTHERS_ASKED, "rest"),
    "oscars": (v.OSCARS, "wording"),
    "lead_actress": (v.LEAD_ACTRESS_ASKED, "rest"),
    "lead_actor": (v.LEAD_ACTOR_ASKED, "rest"),
    "main_cast": (v.MAIN_CAST_ASKED, "rest"),
    "shared": (v.SHARED, "wording"),
    "person_signal": (v.PERSON_SIGNAL, "tight"),
    "movie_signal": (v.MOVIE_SIGNAL, "tight"),
    "supporting": (v.SUPPORTING, "wording"),
    # sports
    "next_game": (v.NEXT_GAME, "wording"),
    "player_stat_subject": (v.PLAYER_STAT, "question"),
    "period_ordinal": (v.PERIOD_ORDINAL, "question"),
    "play_by_play": (v.PLAY_BY_PLAY_WORDS, "question"),
    "teams_asked": (v.TEAMS_ASKED, "wording"),
    "conceded": (v.CONCEDED, "wording"),
    "amounts_compared": (v.AMOUNTS_COMPARED, "wording"),
    "who": (v.WHO_ASKED, "wording"),
    "free_throws": (v.FREE_THROWS, "question"),
    "home": (v.HOME_GAMES, "wording"),
    "away": (v.AWAY_GAMES, "wording"),
}
_COMPILED = {name: (re.compile(pattern), scope) for name, (pattern, scope) in CUES.items()}
# A count, a total or an average, a comparison: the question needs every row of its facts.
_AGGREGATES = [
    pattern
    for words in (v.COUNTING_WORDS, v.ARITHMETIC_WORDS, v.COMPARISON_WORDS)
    if (pattern := v.word_pattern(words))
]
_LEADING_CLAUSE = re.compile(v.LEADING_CLAUSE)
_ASKED_NOUN = re.compile(v.ASKED_NOUN)
# Letters of a word compared with a record key's: "headquartered" names "headquarters".
STEM = 6
_COUNTED = re.compile(v.COUNTED_ROWS)
_THRESHOLD = re.compile(v.THRESHOLD)
_RECORD_KEY_PARTS = re.compile(v.RECORD_KEY_PARTS)
_WORDS = re.compile(v.WORD_TOKEN)
_LETTERS = re.compile(v.LETTER_RUN)
_POLITE = re.compile(v.POLITE_REQUEST)
_GAME_PERIOD = re.compile(v.GAME_PERIOD)
_PRESENT, _PAST = re.compile(v.PRESENT_TENSE), re.compile(v.PAST_TENSE)
_RELATIVE_TIME = re.compile(v.RELATIVE_TIME)
_TIMELESS_EDGE = re.compile(rf"{v.EARLIER_ASKED}|{v.LATER_ASKED}")
_WH_OPENING = re.compile(v.WH_OPENING)
_ASKED_HEAD = re.compile(v.ASKED_HEAD)
_PREVIOUS_WEEK = re.compile(v.PREVIOUS_WEEK)
_LEADING_ARTICLE = re.compile(v.LEADING_ARTICLE)


@dataclass(frozen=True)
class Subject:
    name: str
    kind: str  # a KGEntities kind ("tickers", "companies", "movies", ...)


@dataclass(frozen=True)
class RelationMatch:
    """A relation a reading picked: how (its cue words, words that only fetch it, its meaning, the LLM
    reader, or the domain's default), the cosine of its nearest description (0 without an encoder),
    and where and which cue words it matched."""

    name: str
    by: MatchedBy
    meaning: float = 0.0
    at: int = -1
    words: str = ""


@dataclass(frozen=True)
class TimeReading:
    """The question's time: its spans (up to none), what kind they are, and the tense it asks in."""

    kind: TimeKind
    tense: Tense
    spans: tuple[DateSpan, ...]
    today: date | None
    by_season_start: Mapping[int, tuple[DateSpan, ...]] = field(default_factory=dict)
    game_periods: frozenset[str] = (
        frozenset()
    )  # phrases of spans that name a part of a game ("the third quarter")
    previous_weeks: frozenset[str] = frozenset()  # phrases of spans that name the week before ("last week")

    def spans_for(self, season_start_month: int) -> tuple[DateSpan, ...]:
        """The spans read with seasons starting in `season_start_month` ("this season" of soccer)."""
        return self.by_season_start.get(season_start_month, self.spans)

    def calendar_spans(self, season_start_month: int) -> tuple[DateSpan, ...]:
        """`spans_for`, without the parts of a game: "the third quarter" is no calendar quarter."""
        return tuple(s for s in self.spans_for(season_start_month) if s.phrase not in self.game_periods)


@dataclass(frozen=True)
class Intent:
    domain: str
    subjects: tuple[Subject, ...]
    # per domain table: the relations picked, most specific first, and how sure the pick is (0-1)
    relations: Mapping[str, tuple[RelationMatch, ...]]
    confidence: Mapping[str, float]
    time: TimeReading
    operation: Operation
    direction: Direction
    options: tuple[str, ...]
    option_times: tuple[
        DateSpan | None, ...
    ]  # the time each option names ("today or yesterday"), None for others
    form: Form
    constraint: AnswerConstraint | None
    cues: frozenset[str]
    counted: str  # the rows a count or a total is over, as named ("albums", "jump shots"); "" when none
    threshold: tuple[str, float] | None  # ("more than", 3.0) of a yes/no question holding a value against one
    asks_for_rows: bool  # a set or an aggregate: every row it needs is shown
    asks_for_one: bool  # its wh-word asks for one thing by a singular noun ("which film won ...")
    kinds: frozenset[str] = (
        frozenset()
    )  # the kinds of its own subjects: of its names, "years" it names, a chart "rank"
    _wording: str = ""
    _question: str = ""
    _captures: Mapping[str, tuple[Mapping[str, str], ...]] = field(default_factory=dict)

    def asks(self, cue: str) -> bool:
        if cue not in CUES:
            raise KeyError(f"no cue {cue!r} in models/kg/intent.py:CUES")
        return cue in self.cues

    def captures(self, cue: str) -> tuple[Mapping[str, str], ...]:
        """The named groups of every match of `cue` (the ordinal of "the third quarter", a player)."""
        if cue not in CUES:
            raise KeyError(f"no cue {cue!r} in models/kg/intent.py:CUES")
        return self._captures.get(cue, ())

    def picked(self, domain: str) -> tuple[str, ...]:
        return tuple(match.name for match in self.relations.get(domain, ()))

    def picks(self, domain: str, *names: str) -> bool:
        return any(name in self.picked(domain) for name in names)

    def match(self, domain: str, name: str) -> RelationMatch | None:
        return next((m for m in self.relations.get(domain, ()) if m.name == name), None)

    def answer_relation(self, domain: str) -> str:
        """The relation the answer is of, among those picked in `domain`: the second hop of a chain (a
        relation about a kind of name no subject of the question is, that a picked relation yields:
        "the country of the artist who won best new artist"), else the first about a subject of the
        question, else the first picked; "" when none is."""
        picked = [m.name for m in self.relations.get(domain, ()) if m.by != "hint"]
        yielded = {BY_NAME[name].yields for name in picked} - {""}
        for name in picked:
            takes = set(BY_NAME[name].subjects)
            if not takes & self.kinds and takes & yielded and self._may_end_in(BY_NAME[name]):
                return name
        return next(
            (name for name in picked if set(BY_NAME[name].subjects) & self.kinds), picked[0] if picked else ""
        )

    def _may_end_in(self, relation: Relation) -> bool:
        """A chain may end in the relation: a relation of amounts ends one only where an amount is asked
        (a count, a total, a comparison, a number), not where a name is ("which movie won the award
        for best documentary at the 2002 academy awards?" asks for no count of Oscars)."""
        return relation.value != "number" or self.form == "number" or self.operation not in ("lookup", "set")

    def confident(self, domain: str, threshold: float) -> bool:
        return self.confidence.get(domain, 0.0) >= threshold

    def counts(self, rows: str) -> bool | None:
        """Whether the rows a count or a total is over, as the question names them ("how many
        albums"), are those `rows` (a relation's pattern); None when it names none."""
        if not self.counted:
            return None
        return bool(re.search(rows, self.counted))

    def in_question_order(self, names: list[str]) -> list[str]:
        """`names` in the order the question writes them (those it does not write keep theirs, after)."""
        key = f" {loose_key(self._question)} "

        def position(name: str) -> int:
            found = key.find(f" {loose_key(name)} ")
            if found < 0:  # written in part ("the rockets" for "Houston Rockets"): its first word written
                found = min(
                    (key.find(f" {word} ") for word in loose_key(name).split() if f" {word} " in key),
                    default=-1,
                )
            return found if found >= 0 else len(key)

        return sorted(names, key=position)

    def written_among(self, name: str, candidates: list[str]) -> str | None:
        """The longest candidate the question writes in full that shares a word with `name`."""
        return written_match(name, candidates, self._question)

    def writes_whole(self, name: str) -> bool:
        return written_whole(name, self._question)

    @property
    def own_words(self) -> str:
        """The question's words that can be part of a name, as one search ("" when none is left)."""
        return name_words(self._question)

    def names_record_key(self, key: str) -> bool:
        """Every word of a record key ("dividendYield": dividend, yield) is a word of the question,
        singular or plural ("profit margin": profitMargins)."""
        parts = _RECORD_KEY_PARTS.findall(str(key))
        words = {word.removesuffix("s") for word in _WORDS.findall(self._question)}
        return bool(parts) and all(part.lower().removesuffix("s") in words for part in parts)

    def names_fact(self, key: str) -> tuple[tuple[int, int], ...]:
        """Where the wording names a fact `key` of a record (a shared stem, or words of
        `vocabulary.FACT_KEY_WORDS`); not right after "which"/"what", where a word names the kind of
        the answer ("which country"). The (start, end) of each naming, none when it does not."""
        words = list(_LETTERS.finditer(self._wording))
        stems = _stems(key.replace("_", " "))
        named = [
            (w.start(), w.end())
            for position, w in enumerate(words)
            if _stems(w.group()) & stems and not (position and words[position - 1].group() in v.ASKS_THE_KIND)
        ]
        for stem, pattern in v.FACT_KEY_WORDS.items():
            if stem[:STEM] in stems:
                named += [(m.start(), m.end()) for m in re.finditer(pattern, self._wording)]
        return tuple(named)

    def asks_beyond(self, naming: tuple[int, int]) -> bool:
        """Words other than question words are left once the naming words are taken out: the
        question asks something more of the fact they name ("when was the operator of X founded?")."""
        rest = self._wording[: naming[0]] + self._wording[naming[1] :]
        return bool(set(_LETTERS.findall(rest)) - v.BARE_QUESTION_WORDS)


def drop_relation_names(entities: KGEntities) -> list[Event]:
    """A name the reader gave that is a relation's own name ("song of the year", "best picture": the
    award, not a song or a film) is no name to search: dropped, with an event each."""
    events = []
    for kind in NAME_KINDS:
        kept = []
        for name in getattr(entities, kind):
            left = name.lower()
            for pattern in _NAMES_OF_THINGS:
                left = pattern.sub(" ", left)
            if left != name.lower() and all(
                word in v.NOT_NAME_WORDS or any(c.isdigit() for c in word) for word in _WORDS.findall(left)
            ):
                events.append(Event("fallback", "name read is a relation's own name, dropped", repr(name)))
            else:
                kept.append(name)
        setattr(entities, kind, kept)
    return events


def _stems(text: str) -> set[str]:
    return {word[:STEM] for word in _LETTERS.findall(text.lower()) if len(word) > 3}


def blanked(query: str, entities: KGEntities) -> str:
    """The lower-cased question with the names it asks about blanked out ("_"), for reading its
    relation words: a song called "Lose Control" asks for no change of rank."""
    text = query.lower()
    names = [n for kind in NAME_KINDS for n in getattr(entities, kind)]
    for name in sorted(names, key=len, reverse=True):
        if name.strip():
            text = text.replace(name.lower(), " _ ")
    return text


@dataclass(frozen=True)
class ReadingSettings:
    """What the reader weighs (models/config/schema.py:KGConfig holds them)."""

    season_start_months: tuple[int, ...] = (10,)
    min_meaning: float = 0.5  # a relation picked by meaning alone scores at least this
    min_margin: float = 0.05  # ... and this much above the next relation
    veto_margin: float = (
        0.2  # a cue is doubted when a relation of other routes means the question this much better
    )


class IntentReader:
    """Reads questions into Intents; with `meaning` (models/kg/meaning.py), relations also by meaning."""

    def __init__(self, settings: ReadingSettings, meaning: "MeaningScorer | None" = None):
        self.settings = settings
        self.meaning = meaning

    def read(
        self,
        query: str,
        query_time: str,
        domain: str,
        entities: KGEntities,
        reader: Mapping[str, str] | None = None,
        meaning: Mapping[str, float] | None = None,
    ) -> Intent:
        """The reading of one question. `reader`: a relation and an operation the LLM named (keys
        "relation", "operation"); `meaning`: relation -> cosine, when the caller scored the batch."""
        question = " ".join(query.lower().replace("\u2019", "'").split())
        wording = blanked(query, entities).replace("\u2019", "'")
        rest = wording
        for table in TABLES.values():
            rest = _consumed(table, rest)
        texts = {"wording": wording, "question": question, "rest": rest, "tight": " ".join(wording.split())}
        cues, captures = set(), {}
        for name, (pattern, scope) in _COMPILED.items():
            found = [
                {
                    "0": m.group(),
                    **{str(i): g for i, g in enumerate(m.groups(), 1) if g is not None},
                    **{k: g for k, g in m.groupdict().items() if g is not None},
                }
                for m in pattern.finditer(texts[scope])
            ]
            if found:
                cues.add(name)
                captures[name] = tuple(found)
        time = self._time(wording, query_time, cues, _POLITE.sub("", question))
        constraint = read_constraint(_LEADING_CLAUSE.sub("", question))
        subjects = tuple(
            Subject(name, kind) for kind in (*NAME_KINDS, "tickers") for name in getattr(entities, kind)
        )
        named = {loose_key(s.name) for s in subjects}
        subjects += tuple(
            Subject(name, "players")
            for name in _players(captures.get("player_stat_subject", ()))
            if loose_key(name) not in named
        )
        asks_rows = asks_for_several(wording) or any(pattern.search(wording) for pattern in _AGGREGATES)
        counted = _counted(question)
        # "the most recent trading day", "their last game": words of the time, not of a first or last row
        timed = _RELATIVE_TIME.search(wording) is not None and not _TIMELESS_EDGE.search(
            _RELATIVE_TIME.sub(" ", wording)
        )
        operation, direction = _operation(
            cues, constraint, len(subjects), asks_rows, counted, time.spans, timed
        )
        if reader and reader.get("operation") in OPERATIONS:
            operation = cast(Operation, reader["operation"])  # the LLM named it from the declared list
        relations, confidence = {}, {}
        # what the question's own subjects are: the kinds of its names, the years it names, a chart rank
        kinds = (
            {s.kind for s in subjects}
            | ({"years"} if time.spans else set())
            | ({"rank"} if entities.rank else set())
        )
        for table_domain, table in TABLES.items():
            picked, sure = self._relations(
                table, wording, question, meaning or {}, reader if table_domain == domain else None, kinds
            )
            relations[table_domain], confidence[table_domain] = picked, sure
        options = constraint.options if constraint and constraint.kind in ("options", "either") else ()
        option_times = tuple(next(iter(find_time_spans(option, query_time)), None) for option in options)
        return Intent(
            domain,
            subjects,
            relations,
            confidence,
            time,
            operation,
            direction,
            options,
            option_times,
            _form(question, constraint),
            constraint,
            frozenset(cues),
            counted,
            _threshold(question),
            asks_rows,
            _asks_for_one(question, wording),
            frozenset(kinds),
            wording,
            question,
            captures,
        )

    def meaning_of(self, queries: list[str], entities: list[KGEntities]) -> list[dict[str, float]]:
        """relation -> cosine of its nearest description, per question (empty without an encoder)."""
        if self.meaning is None:
            return [{} for _ in queries]
        return self.meaning.scores([_for_meaning(blanked(q, e)) for q, e in zip(queries, entities)])

    def _time(self, wording: str, query_time: str, cues: set[str], proper: str) -> TimeReading:
        moment = parse_query_time(query_time)
        today = moment.date() if moment else None
        months = dict.fromkeys(self.settings.season_start_months or (10,))
        by_month = {month: tuple(find_time_spans(wording, query_time, month)) for month in months}
        spans = by_month.get(10) or tuple(find_time_spans(wording, query_time))
        if spans:
            kind: TimeKind = (
                "relative"
                if any(s.relative for s in spans)
                else "point"
                if all(s.granularity == "day" for s in spans)
                else "span"
            )
        else:
            kind = "relative" if "relative_time" in cues else "none"
        # a time the question names decides (all of it before the question's day: then); else its first
        # tense word, its polite opening left out ("has had" is the present, "do you know" no tense)
        past = today is not None and bool(spans) and all(s.end < today for s in spans)
        present, earlier = _PRESENT.search(proper), _PAST.search(proper)
        if past or (
            earlier and not (present and present.start() < earlier.start()) and "at_present" not in cues
        ):
            tense: Tense = "then"
        elif present or "at_present" in cues:
            tense = "now"
        else:
            tense = "unmarked"
        phrases = {s.phrase for many in by_month.values() for s in many}
        periods = frozenset(p for p in phrases if _GAME_PERIOD.search(p))
        weeks = frozenset(p for p in phrases if _PREVIOUS_WEEK.search(p))
        return TimeReading(kind, tense, spans, today, by_month, periods, weeks)

    def _relations(
        self,
        table: tuple[Relation, ...],
        wording: str,
        question: str,
        meaning: Mapping[str, float],
        reader: Mapping[str, str] | None,
        kinds: set[str] = frozenset(),  # type: ignore[assignment]
    ) -> tuple[tuple[RelationMatch, ...], float]:
        """The relations of `table` the wording picks, most specific first, and the confidence of the
        pick: 1 for cue words the meaning does not doubt (0.5 when a relation of other routes means
        the question far better); for a pick by meaning alone its cosine, when it is clear of the
        nearest relation of other routes; 0 when nothing is picked. When no relation picked by its
        cue takes the question's own kinds of subject (`kinds`: "the film" of a question about two
        films names no person's filmography), the relation meant best among those that do leads. A
        table of one relation (the open domain's: which fact is asked is read off the record) picks it."""
        if len(table) == 1:
            return (RelationMatch(table[0].name, "default", meaning.get(table[0].name, 0.0)),), 1.0
        text = wording
        found: list[RelationMatch] = []
        for relation in table:
            cue = _CUE_PATTERNS.get(relation.name)
            hit = cue.search(question if relation.whole_question else text) if cue is not None else None
            if hit is not None and cue is not None:
                found.append(
                    RelationMatch(
                        relation.name, "cue", meaning.get(relation.name, 0.0), hit.start(), hit.group()
                    )
                )
                if relation.consumes:
                    text = cue.sub(lambda m: " " * len(m.group()), text)
            elif (hint := _HINT_PATTERNS.get(relation.name)) is not None and hint.search(text):
                found.append(RelationMatch(relation.name, "hint", meaning.get(relation.name, 0.0)))
        found = _without_lone_weak(found, table)
        names = {r.name for r in table}
        if reader and reader.get("relation") in names:
            # the LLM's relation leads where the cue words agree or say nothing; where they name others
            # the two readings disagree, and the pick is not sure
            name = reader["relation"]
            cued_names = [m.name for m in found if m.by == "cue"]
            named = next(
                (m for m in found if m.name == name), RelationMatch(name, "reader", meaning.get(name, 0.0))
            )
            others = [m for m in found if m.name != name]
            if cued_names and name not in cued_names:
                return (*others, named), 0.5
            return (named, *others), 1.0
        ranked = sorted(((score, name) for name, score in meaning.items() if name in names), reverse=True)
        cued = [m for m in found if m.by == "cue"]
        settings = self.settings
        if cued and kinds and not any(_takes(m.name, kinds) for m in cued):
            fitting = [(score, name) for score, name in ranked if _takes(name, kinds)]
            if fitting and fitting[0][0] >= settings.min_meaning:
                best, best_name = fitting[0]
                runner_up = fitting[1][0] if len(fitting) > 1 else 0.0
                chosen = RelationMatch(best_name, "meaning", best)
                sure = best if best - runner_up >= settings.min_margin else 0.0
                return (chosen, *(m for m in found if m.name != best_name)), sure
        if cued:
            if not ranked:
                return tuple(found), 1.0
            best, best_name = ranked[0]
            doubted = (
                not any(_kin(best_name, m.name) for m in found)
                and best - max(m.meaning for m in cued) > settings.veto_margin
            )
            return tuple(found), 0.5 if doubted else 1.0
        if not ranked:
            return tuple(found), 0.0
        best, best_name = ranked[0]
        runner_up = ranked[1][0] if len(ranked) > 1 else 0.0
        if best >= settings.min_meaning and best - runner_up >= settings.min_margin:
            chosen = RelationMatch(best_name, "meaning", best)
            sure = best if _uses_every_name(best_name, table, kinds) else 0.0
            return (chosen, *(m for m in found if m.name != best_name)), sure
        return tuple(found), 0.0


def _uses_every_name(name: str, table: tuple[Relation, ...], kinds: set[str]) -> bool:
    """The relation takes every kind of name the question writes that its table knows: a pick by
    meaning alone that leaves a named song aside ("what year did x sing y?" read as x's birth) is
    not sure of what joins the names."""
    known = {kind for relation in table for kind in relation.subjects} - {"years", "rank"}
    return not (kinds & known) - set(BY_NAME[name].subjects)


def _takes(name: str, kinds: set[str]) -> bool:
    """The relation is about one of `kinds` of subject."""
    return bool(set(BY_NAME[name].subjects) & kinds)


def _kin(first: str, second: str) -> bool:
    """Two relations of one route (a stock's closing and opening prices): their facts come together."""
    return first == second or bool(set(BY_NAME[first].routes) & set(BY_NAME[second].routes))


class MeaningScorer(Protocol):
    """models/kg/meaning.py: per text, relation -> cosine with its nearest description."""

    def scores(self, texts: list[str]) -> list[dict[str, float]]: ...


def _for_meaning(wording: str) -> str:
    """The wording as the encoder reads it: the blanked names and a polite opening left out."""
    return " ".join(_POLITE.sub("", wording.replace(" _ ", " ")).split())


_CUE_PATTERNS = {r.name: re.compile(r.cues) for table in TABLES.values() for r in table if r.cues}
_NAMES_OF_THINGS = [_CUE_PATTERNS[r.name] for table in TABLES.values() for r in table if r.a_name]
_HINT_PATTERNS = {r.name: re.compile(r.hints) for table in TABLES.values() for r in table if r.hints}


def _consumed(table: tuple[Relation, ...], text: str) -> str:
    """`text` with the cue words that name a thing (an award) blanked (same length)."""
    for relation in table:
        cue = _CUE_PATTERNS.get(relation.name)
        if relation.consumes and relation.a_name and cue is not None:
            text = cue.sub(lambda m: " " * len(m.group()), text)
    return text


def _without_lone_weak(found: list[RelationMatch], table: tuple[Relation, ...]) -> list[RelationMatch]:
    """A weak relation picked by its cue stays only alone or beside a relation of its group ("the p/e
    ratio right now": the time words ask for the current figure, not the minute's price)."""
    groups = {r.name: r.group for r in table}
    weak = {r.name for r in table if r.weak}
    strong = [m for m in found if m.name not in weak and m.by == "cue"]
    if not strong:
        return found
    kept_groups = {groups[m.name] for m in strong}
    return [m for m in found if m.name not in weak or groups[m.name] in kept_groups]


def _operation(
    cues: set[str],
    constraint: AnswerConstraint | None,
    subjects: int,
    rows: bool,
    counted: str = "",
    spans: tuple[DateSpan, ...] = (),
    timed: bool = False,
) -> tuple[Operation, Direction]:
    """The one operation a reading names (its outer form: "did x score more than y?" is a yes/no check
    of a comparison), and the direction of an extreme or a comparison. "How many" of an amount
    ("how many points") counts nothing: it reads the amount of one row, or totals it over a span."""
    more = bool(cues & {"more", "highest"})
    less = bool(cues & {"less", "lowest"})
    earlier, later = "earlier" in cues, "later" in cues
    direction: Direction = (
        "higher"
        if more and not less
        else "lower"
        if less and not more
        else "earlier"
        if earlier and not later
        else "later"
        if later and not earlier
        else ""
    )
    options = len(constraint.options) if constraint is not None else 0
    compared = max(subjects, options) > 1 and bool(direction or "side_by_side" in cues or options)
    if constraint is not None and constraint.kind == "yes_no":
        return "yes_no", direction
    if "date_gap" in cues or ("difference" in cues and subjects > 1) or "age_or_duration" in cues:
        return "difference", direction
    if compared:
        return "compare", direction
    amount = counted.split(" ", 1)[0] in v.AMOUNT_UNITS if counted else False
    if amount and "rows_counted" not in cues:
        return (
            "sum" if "total" in cues or any(s.granularity != "day" for s in spans) else "lookup"
        ), direction
    if "rows_counted" in cues:
        return "count", direction
    if "average" in cues:
        return "average", direction
    if "count" in cues and "total" not in cues and counted:
        return "count", direction
    if "total" in cues:
        return "sum", direction
    if cues & {"highest", "lowest"}:
        return "extreme", direction
    if earlier != later and not timed:
        return "first_or_last", direction
    if rows:
        return "set", direction
    return "lookup", direction


def _form(question: str, constraint: AnswerConstraint | None) -> Form:
    if constraint is not None:
        if constraint.kind in ("options", "either"):
            return "option"
        return cast(Form, constraint.kind)
    opening = _question_proper(question)
    noun = _ASKED_NOUN.search(opening)
    if noun is not None and noun.start() == 0 and noun["noun"] in v.ANSWER_NOUNS:
        return cast(Form, v.ANSWER_NOUNS[noun["noun"]])
    first = opening.split(maxsplit=1)[0] if opening.split() else ""
    return cast(Form, v.ANSWER_WORDS.get(first, ""))


def _asks_for_one(question: str, wording: str) -> bool:
    """The question proper asks for one thing by a singular noun after its wh-word ("which film won
    best picture?", not "which teams beat them?"), or ends with one ("what was x's debut single?")."""
    noun = _ASKED_NOUN.search(_question_proper(question))
    head = _ASKED_HEAD.match(" ".join(_POLITE.sub("", wording).split()))
    if noun is None or noun.start() != 0 or noun["noun"] in v.FUNCTION_WORDS:
        noun = head
    return noun is not None and noun["noun"] not in v.FUNCTION_WORDS and not noun["noun"].endswith("s")


def _question_proper(question: str) -> str:
    """The question without a polite opening, and of "when x won best actor, which film won best
    picture?" its last clause that opens with a wh-word."""
    opening = _POLITE.sub("", question).lstrip(" ,")
    asking = [clause.strip() for clause in opening.split(",")[1:] if _WH_OPENING.match(clause.strip())]
    return asking[-1] if asking else opening


def _counted(question: str) -> str:
    match = _COUNTED.search(question)
    if match is None:
        return ""
    words = []
    for word in match["rows"].split():
        if word in v.FUNCTION_WORDS:
            break
        words.append(word)
    return " ".join(words)


def _threshold(question: str) -> tuple[str, float] | None:
    match = _THRESHOLD.search(question)
    if match is None:
        return None
    written = match["n"]
    value = float(written) if written[0].isdigit() else float(v.NUMBER_WORDS[written])
    return match["op"], value * (v.SCALES[match["scale"]] if match["scale"] else 1)


def read_question(
    query: str, query_time: str = "", domain: str = "", entities: KGEntities | None = None
) -> Intent:
    """The reading of one question with the default settings and no encoder (tests, tools)."""
    return IntentReader(ReadingSettings()).read(query, query_time, domain, entities or KGEntities())


def _players(found: tuple[Mapping[str, str], ...]) -> list[str]:
    """The people whose own numbers the question asks ("did X score", "X's points"): the subjects
    of `vocabulary.PLAYER_STAT`, pronouns left out."""
    names = []
    for match in found:
        subject = _LEADING_ARTICLE.sub("", match.get("who") or match.get("owner") or "").strip()
        if subject and subject not in v.PRONOUNS:
            names.append(subject)
    return list(dict.fromkeys(names))
