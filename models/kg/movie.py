"""Movies: people and titles by the BM25 search routes (records chosen by name locally), movies of a
year (1990-2021 only: the official server answers other years with HTTP 500), and titles behind
movie ids.

Follow-ups, when the question's relation needs them: the films a person directed or acted in (by
id, as the wording asks), the films of a year (only when the question lists a year's films), the
film or person an Oscar of a ceremony year names (by title or name, since an award is filed under
its ceremony year and its film under the year before), and the person behind a film's crew role
("the director of X"). Each followed record is rendered with how it was reached; a year's other
awards and films are not offered when the question asks about one award.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from models import vocabulary
from models.config import KGConfig
from models.kg.answer import Fact, FactTable
from models.kg.domain import Domain, table_of
from models.kg.formatting import is_empty, number, parse_day, plain
from models.kg.intent import Intent
from models.kg.matching import best_match, numbered_title, search_key, trailing_number
from models.kg.relations import BY_NAME, MOVIE, OSCAR_CATEGORIES
from models.kg.routes import ApiCall
from models.kg.state import Evidence, PlanContext, QuestionState
from models.schema import Event

FIRST_YEAR, LAST_YEAR = 1990, 2021
MOVIE_SEARCH, PERSON_SEARCH, BY_ID = (
    "movie_get_movie_info",
    "movie_get_person_info",
    "movie_get_movie_info_by_id",
)
# The relations of the table by what they are: Oscar categories (name -> stored category pattern), film
# fields (name = the record's key), crew roles (name -> the crew record's job).
OSCARS = {f"oscar_{name}": category for name, _, category in OSCAR_CATEGORIES}
FILM_FIELD_NAMES = tuple(vocabulary.FILM_FIELDS)
CREW = {job.lower().replace(" ", "_"): job for job in vocabulary.CREW_ROLES}
_LEAD_CATEGORY = re.compile(vocabulary.LEAD_CATEGORY)
TMDB_GENDER = {"woman": 1, "man": 2}  # the cast records' gender codes (0: not known)
NUMERIC_FIELDS = ("budget", "revenue", "rating")


def applies(state: QuestionState) -> bool:
    return state.domain == "movie" or bool(state.entities.movies or state.entities.people)


def settle_kinds(state: QuestionState) -> None:
    state.keep_asked_kind(
        ("people", "movies"), (state.reading.asks("person_signal"), state.reading.asks("movie_signal"))
    )


def _picks(state: QuestionState, *names: str) -> bool:
    return state.reading.picks("movie", *names)


def _fields(state: QuestionState) -> list[str]:
    """The film fields the reading picked (release date, rating, budget, ...), in the table's order."""
    return [name for name in FILM_FIELD_NAMES if _picks(state, name)]


def _roles(state: QuestionState) -> list[str]:
    """The crew jobs the reading picked ("Director", "Producer", ...)."""
    return [job for name, job in CREW.items() if _picks(state, name)]


def _categories(state: QuestionState) -> list[str]:
    """Stored-category patterns of the Oscars the reading picked (a supporting role: no lead category)."""
    found = [category for name, category in OSCARS.items() if _picks(state, name)]
    if state.reading.asks("supporting"):
        found = [category for category in found if not _LEAD_CATEGORY.match(category)]
    return found


def _years(state: QuestionState) -> list[int]:
    if not (state.reading.asks("film_year_words") or not (state.entities.movies or state.entities.people)):
        return []
    years = [span.start.year for span in state.reading.time.spans if span.granularity == "year"]
    return [y for y in dict.fromkeys(years) if FIRST_YEAR <= y <= LAST_YEAR]


@dataclass
class Award:
    """An Oscar of a ceremony year the question asks about, and the ceremony year it was found in."""

    year: int
    record: dict


@dataclass
class Held:
    """An Oscar a named person holds in a category the question names, whose ceremony the question
    asks about ("the best picture of the year X first won best actor")."""

    person: str
    record: dict

    @property
    def year(self) -> int:
        return int(self.record["year_ceremony"])


def _held_awards(state: QuestionState, config: KGConfig) -> list[Held]:
    """A person's Oscars in one of the categories the question names, when it names another category
    too and no year: their ceremonies are the years asked about (won ones when it says won; the first
    or the last ceremony when it says so)."""
    categories = _categories(state)
    if len(categories) < 2 or any(span.granularity == "year" for span in state.reading.time.spans):
        return []
    held = []
    for name in state.entities.people:
        person = _found(state, PERSON_SEARCH, name, config) or {}
        for award in person.get("oscar_awards") or []:
            if (
                isinstance(award, dict)
                and isinstance(award.get("year_ceremony"), int)
                and _in_categories(award, categories)
                and (award.get("winner") or not state.reading.asks("award_won"))
            ):
                held.append(Held(str(person.get("name", name)), award))
    held.sort(key=lambda h: h.year)
    if state.reading.asks("first_one"):
        return held[:1]
    if state.reading.asks("last_one"):
        return held[-1:]
    return held[: config.max_followup_ids]


def _asked_awards(state: QuestionState, config: KGConfig) -> tuple[list[Award], list[int]]:
    """(awards of the asked categories found so far, ceremony years still to fetch). A year without
    the asked award is tried as a film year once: its films' awards are filed under the next year.
    The ceremonies of a person's awards (`_held_awards`) are asked about for the other categories."""
    categories = _categories(state)
    if not categories:
        return [], []
    held = _held_awards(state, config)
    if held:
        own = {c for c in categories for h in held if _in_categories(h.record, [c])}
        categories = [c for c in categories if c not in own]
    winners_only = not state.reading.asks("nominees")
    found: list[Award] = []
    needed: list[int] = []
    years = [(year, (year, year + 1)) for year in _years(state)] + [(h.year, (h.year,)) for h in held]
    for _, ceremonies in dict.fromkeys(years):
        for ceremony in ceremonies:
            if not FIRST_YEAR <= ceremony <= LAST_YEAR:
                break
            answered, info = state.answer("movie_get_year_info", query=str(ceremony))
            if not state.done("movie_get_year_info", query=str(ceremony)):
                needed.append(ceremony)
                break
            awards = (
                [
                    Award(ceremony, a)
                    for a in ((info or {}).get("oscar_awards") or [])
                    if isinstance(a, dict)
                    and _in_categories(a, categories)
                    and (a.get("winner") or not winners_only)
                ]
                if answered and isinstance(info, dict)
                else []
            )
            if awards:
                found += awards
                break
    return found, needed


def _film_years(state: QuestionState) -> list[int]:
    """The release years of a person's films the question asks about ("what movies did X appear in
    for 2013?")."""
    if not (state.entities.people and state.reading.asks("person_films")):
        return []
    return list(
        dict.fromkeys(span.start.year for span in state.reading.time.spans if span.granularity == "year")
    )


def _of_years(state: QuestionState, ids: list[int], years: list[int]) -> list[int]:
    """The ids among `ids` of films released in `years`, by each year's film list (the year route
    answers 1990-2021). For a later year, the highest ids first: the KG's ids grow with the time a
    record was made, so its latest films have the highest; for an earlier one, the ids as they come."""
    chosen: list[int] = []
    for year in years:
        if FIRST_YEAR <= year <= LAST_YEAR:
            answered, info = state.answer("movie_get_year_info", query=str(year))
            listed = (
                set((info or {}).get("movie_list") or []) if answered and isinstance(info, dict) else set()
            )
            chosen += [i for i in ids if i in listed]
        else:
            chosen += sorted(ids, key=lambda i: -i if isinstance(i, int) else 0) if year > LAST_YEAR else ids
    return list(dict.fromkeys(chosen))


def _try_other_kind_on_a_miss(state: QuestionState, config: KGConfig) -> None:
    """A title the movie search does not find is tried as a person and the other way round (only
    for names the LLM read: a scripted kind is settled)."""
    if not state.other_kind_on_miss:
        return
    for route, names, other in (
        (MOVIE_SEARCH, state.entities.movies, state.entities.people),
        (PERSON_SEARCH, state.entities.people, state.entities.movies),
    ):
        for name in list(names):
            if (
                name not in other
                and state.answer(route, query=name)[0]
                and not _found(state, route, name, config)
            ):
                other.append(name)


def _missed_titles(state: QuestionState, config: KGConfig) -> list[str]:
    """Titles read as titles (not a person's name tried as a film) whose own search came back without
    the film (nor a person of that name)."""
    return [
        title
        for title in state.entities.movies
        if title not in state.entities.people
        and state.answer(MOVIE_SEARCH, query=title)[0]
        and _pick(state.answer(MOVIE_SEARCH, query=title)[1], "title", title, config, state.reading)[0]
        is None
        and not _found(state, PERSON_SEARCH, title, config)
    ]


def plan(state: QuestionState, context: PlanContext) -> list[ApiCall]:
    config = context.config
    _try_other_kind_on_a_miss(state, config)
    calls = [ApiCall(MOVIE_SEARCH, {"query": title}) for title in state.entities.movies]
    words = state.reading.own_words
    if words and _missed_titles(state, config):  # the search is fuzzy: the question's own words may find it
        calls.append(ApiCall(MOVIE_SEARCH, {"query": words}))
    calls += [ApiCall(PERSON_SEARCH, {"query": name}) for name in state.entities.people]
    calls += [ApiCall("movie_get_year_info", {"query": str(year)}) for year in _years(state)]
    calls += [
        ApiCall("movie_get_year_info", {"query": str(year)})
        for year in _film_years(state)
        if FIRST_YEAR <= year <= LAST_YEAR
    ]
    awards, later_years = _asked_awards(state, config)
    calls += [ApiCall("movie_get_year_info", {"query": str(year)}) for year in later_years]
    for film, person in _award_followups(state, awards):
        calls += [ApiCall(MOVIE_SEARCH, {"query": film})] if film else []
        calls += [ApiCall(PERSON_SEARCH, {"query": person})] if person else []
    calls += [ApiCall(PERSON_SEARCH, {"query": name}) for _, _, name in _crew_followups(state, config)]
    return calls + [ApiCall(BY_ID, {"query": i}) for i in _followup_ids(state, config)]


def _pick(records: Any, key: str, name: str, config: KGConfig, intent: Intent) -> tuple[dict | None, bool]:
    """(the record named `name` among search hits: same search key, else for a title read with a
    number the series' film of that number (`numbered_title`), else the most similar name with the
    same number or none, else one the question writes in full (`written_match`); whether it was the
    series' film)."""
    named = (
        [r for r in records if isinstance(r, dict) and isinstance(r.get(key), str)]
        if isinstance(records, list)
        else []
    )
    same = [r for r in named if search_key(r[key]) == search_key(name)]
    if same:
        return same[0], False
    if key == "title" and (
        film := numbered_title(name, [(r[key], str(r.get("release_date") or "")) for r in named])
    ):
        return next(r for r in named if r[key] == film), True
    # "Toy Story 1" is not "Toy Story 4", however alike the spellings
    names = [r[key] for r in named if trailing_number(r[key]) == trailing_number(name)]
    match = best_match(name, names, config.min_name_similarity) or intent.written_among(name, names)
    return next((r for r in named if r[key] == match), None) if match else None, False


def _found(state: QuestionState, route: str, name: str, config: KGConfig) -> dict | None:
    """The record `name` names among its search's hits; for a title, else among the hits of the
    question's own words (one the question writes in full, or most like the title)."""
    key = "title" if route == MOVIE_SEARCH else "name"
    record, numbered = _pick(state.answer(route, query=name)[1], key, name, config, state.reading)
    if record is not None:
        state.note_match(
            name, str(record[key]), 1.0 if numbered or state.reading.writes_whole(str(record[key])) else None
        )
    if numbered and record is not None:
        state.events.append(
            Event(
                "fallback",
                "title read with a number taken as the series' film",
                f"{name!r} -> {record[key]!r}",
            )
        )
    words = state.reading.own_words
    if record is None and route == MOVIE_SEARCH and words and words != name:
        hits = state.answer(route, query=words)[1]
        written = [
            r
            for r in hits or []
            if isinstance(r, dict)
            and isinstance(r.get(key), str)
            and state.reading.writes_whole(r[key])
            and trailing_number(r[key]) == trailing_number(name)
        ]  # "toy story 3" is not "Toy Story"
        record = max(written, key=lambda r: len(search_key(r[key])), default=None)
        if record is not None:
            state.note_match(name, str(record[key]), 1.0)  # the question writes it in full
            state.events.append(
                Event("fallback", "title found by the question's own words", f"{name!r} -> {record[key]!r}")
            )
    return record


def _award_followups(state: QuestionState, awards: list[Award]) -> list[tuple[str | None, str | None]]:
    """(film title, person name) to look up per asked award: the film when the question asks about
    the film (a field, a crew role), the nominee when it asks about a person and the nominee is not
    the film itself."""
    intent = state.reading
    wants_film = bool(_fields(state) or _roles(state) or intent.asks("acted"))
    wants_person = intent.asks("person_facts") or intent.asks("other_films")
    followups = []
    for award in awards:
        film, nominee = award.record.get("film"), award.record.get("name")
        film = film if isinstance(film, str) and film and wants_film else None
        person = (
            nominee
            if isinstance(nominee, str) and nominee and wants_person and nominee != award.record.get("film")
            else None
        )
        if film or person:
            followups.append((film, person))
    return followups


def _crew_followups(state: QuestionState, config: KGConfig) -> list[tuple[str, str, str]]:
    """(film title, job, person) for questions about the person in a film's crew role ("the director
    of X", "who directed X") that ask something of that person (age, birthday, other films)."""
    intent = state.reading
    roles = intent.captures("crew_person")
    if not roles or not (intent.asks("person_facts") or intent.asks("more_of_the_person")):
        return []
    jobs = vocabulary.CREW_PERSON_JOBS.get(roles[0].get("1") or roles[0].get("2") or "", ())
    found = []
    for title in state.entities.movies:
        movie = _found(state, MOVIE_SEARCH, title, config) or {}
        for crew in movie.get("crew") or []:
            if isinstance(crew, dict) and crew.get("job") in jobs and isinstance(crew.get("name"), str):
                found.append((movie["title"], crew["job"], crew["name"]))
    return found


def _people(state: QuestionState, config: KGConfig) -> list[dict]:
    """Records of the people whose films the question asks about: the people it names, and a person
    reached through a crew role or an award when it asks for that person's (other) films."""
    names = list(state.entities.people)
    if state.reading.asks("films_of_followed"):
        names += [name for _, _, name in _crew_followups(state, config)]
        names += [person for _, person in _award_followups(state, _asked_awards(state, config)[0]) if person]
    return [person for name in dict.fromkeys(names) if (person := _found(state, PERSON_SEARCH, name, config))]


def _film_keys(state: QuestionState) -> list[str]:
    """The lists of a person's record the reading asks about: directed films, acted ones, or both."""
    directed, acted = state.reading.asks("directed"), state.reading.asks("acted")
    return [
        key
        for key, wanted in (
            ("directed_movies", directed or not acted),
            ("acted_movies", acted or not directed),
        )
        if wanted
    ]


def _followup_ids(state: QuestionState, config: KGConfig) -> list[int]:
    """Movie ids whose records the question needs: a person's films (directed or acted, as asked),
    only when it asks about films; a year's films, only when it lists them ("best foreign language
    film in 2017" lists none)."""
    ids: list[int] = []
    years = _film_years(state)
    if state.reading.asks("person_films"):
        for person in _people(state, config):
            films = [i for key in _film_keys(state) for i in person.get(key) or []]
            ids += _of_years(state, films, years) if years else films
    if state.reading.asks("films_of_a_year") and not years:
        for result in state.answered("movie_get_year_info"):
            if isinstance(result.result, dict):
                ids += result.result.get("movie_list") or []
    return [i for i in dict.fromkeys(ids) if isinstance(i, int) and not isinstance(i, bool)][
        : config.max_followup_ids
    ]


# --- rendering --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """What of a record the question asks to see: every row of its lists (a set or an aggregate),
    the crew roles it names (all when none), the Oscar categories it names first, won Oscars first,
    and of a person's films those of the release years it names."""

    full: bool = False
    roles: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    wins: bool = False
    years: tuple[int, ...] = ()


@dataclass(frozen=True)
class AskedOf:
    """What a question that reached a film through another answer (an award) asks of it: its fields,
    its crew roles, its cast."""

    fields: tuple[str, ...] = ()
    jobs: tuple[str, ...] = ()
    cast: bool = False


def _shown(state: QuestionState) -> Shown:
    full = state.reading.asks_for_rows or _picks(state, "cast", "leads", "shared_cast")
    return Shown(
        full,
        tuple(_roles(state)),
        tuple(_categories(state)),
        state.reading.asks("award_won"),
        tuple(_film_years(state)),
    )


def _asked_of(state: QuestionState) -> AskedOf:
    return AskedOf(tuple(_fields(state)), tuple(_roles(state)), state.reading.asks("acted"))


def render(state: QuestionState, context: PlanContext) -> Evidence:
    config = context.config
    evidence = Evidence()
    by_id = {r.call.body["query"]: r.result for r in state.answered(BY_ID) if isinstance(r.result, dict)}
    fields = _fields(state) + _roles(state)
    shown = _shown(state)
    films = []
    for title in state.entities.movies:
        answered, _ = state.answer(MOVIE_SEARCH, query=title)
        if not answered:
            continue
        movie = _found(state, MOVIE_SEARCH, title, config)
        if movie:
            films.append(movie)
            evidence.add("\n".join(movie_lines(movie, config, shown=shown)))
            evidence.add(_no_such_award(state, str(movie.get("title")), movie), contradicts=True)
        elif not _found(state, PERSON_SEARCH, title, config):
            evidence.miss(title, f"No movie titled {title!r} in the KG")
    if len(films) > 1 and state.reading.asks("shared"):
        evidence.add(_shared_cast(films))
    for name in state.entities.people:
        answered, _ = state.answer(PERSON_SEARCH, query=name)
        if not answered:
            continue
        person = _found(state, PERSON_SEARCH, name, config)
        if person:
            evidence.add("\n".join(person_lines(person, by_id, fields, config, shown)))
            evidence.add(_no_such_award(state, str(person.get("name")), person), contradicts=True)
        elif not _found(state, MOVIE_SEARCH, name, config):
            evidence.miss(name, f"No person named {name!r} in the movie KG")
    for title, job, name in _crew_followups(state, config):
        person = _found(state, PERSON_SEARCH, name, config)
        if person:
            reached = f"{name} is the {job.lower()} of {title}; the KG's record of {name}:"
            evidence.add("\n".join([reached, *person_lines(person, by_id, fields, config, shown)]))
    awards, _ = _asked_awards(state, config)
    if awards:
        evidence.add(_render_awards(state, awards, by_id, fields, config))
    for year in _years(state):
        answered, info = state.answer("movie_get_year_info", query=str(year))
        if answered and isinstance(info, dict) and not is_empty(info):
            evidence.add(
                year_lines(
                    year,
                    info,
                    by_id,
                    fields,
                    config,
                    with_films=state.reading.asks("films_of_a_year"),
                    with_awards=not _categories(state),
                )
            )
    return evidence


def _shared_cast(films: list[dict]) -> str:
    """The people in the cast of every one of `films`."""
    casts = [
        [c["name"] for c in film.get("cast") or [] if isinstance(c, dict) and isinstance(c.get("name"), str)]
        for film in films
    ]
    common = [name for name in dict.fromkeys(casts[0]) if all(name in cast for cast in casts[1:])]
    titles = " and ".join(str(film.get("title")) for film in films)
    return f"In the cast of both {titles} ({len(common)}): {', '.join(common) or 'nobody'}"


def _render_awards(
    state: QuestionState, awards: list[Award], by_id: dict, fields: list[str], config: KGConfig
) -> str:
    lines = [
        f"{held.person} {'won' if held.record.get('winner') else 'was nominated for'} "
        f"{str(held.record.get('category', '')).lower()} at the {held.year} ceremony "
        f"({held.record.get('film')}); the {held.year} ceremony's awards asked about:"
        for held in _held_awards(state, config)
    ]
    for award in awards:
        record = award.record
        outcome = "won" if record.get("winner") else "nominated"
        lines.append(
            f"Oscar {str(record.get('category', '')).lower()} at the {award.year} ceremony "
            f"({record.get('ceremony')}th): {record.get('name')} ({record.get('film')}), {outcome}"
        )
    for film, person in _award_followups(state, awards):
        movie = _found(state, MOVIE_SEARCH, film, config) if film else None
        if movie:
            lines.append(f"{film}, named by that award; the KG's record of the film:")
            lines += movie_lines(movie, config, asked_in=_asked_of(state))
        if person:
            person_record = _found(state, PERSON_SEARCH, person, config)
            if person_record:
                lines.append(f"{person}, named by that award; the KG's record of the person:")
                lines += person_lines(person_record, by_id, fields, config)
    return "\n".join(lines)


FIELD_ORDER = ("release_date", "original_title", "original_language", "rating", "budget", "revenue")
JOBS = ("Director", "Screenplay", "Writer", "Producer", "Original Music Composer")


def movie_lines(
    movie: dict, config: KGConfig, asked_in: AskedOf | None = None, shown: Shown = Shown()
) -> list[str]:
    """A film's record: the crew roles asked (all when none is), the cast (every name for a set or a
    count), its Oscars. With `asked_in` (the wording of a question that reached the film through
    another answer, an award), only its release date and what that wording asks for: the fields, the
    crew roles, the cast; its other awards stay out (near misses for a question about one award)."""
    title = movie.get("title", "?")
    fields = FIELD_ORDER if asked_in is None else ("release_date", *asked_in.fields)
    jobs = (shown.roles or JOBS) if asked_in is None else asked_in.jobs
    lines = [f"Movie: {title}"]
    for key in (key for key in FIELD_ORDER if key in fields):
        if not is_empty(movie.get(key)):
            lines.append(f"{title} / {key.replace('_', ' ')}: {number(movie[key])}")
    genres = _genres(movie)
    if genres and (asked_in is None or "genres" in fields):
        lines.append(f"{title} / genres: {', '.join(genres)}")
    crew = [c for c in movie.get("crew") or [] if isinstance(c, dict)]
    for job in (job for job in JOBS if job in jobs):
        names = [c.get("name") for c in crew if c.get("job") == job]
        if names:
            lines.append(f"{title} / {job.lower()}: {', '.join(filter(None, names))}")
    cast = sorted(
        (c for c in movie.get("cast") or [] if isinstance(c, dict)), key=lambda c: c.get("order") or 0
    )
    if cast and (asked_in is None or asked_in.cast):
        lines.append(_cast_line(title, cast, config, shown.full))
    if asked_in is None:
        lines += oscar_lines(title, movie.get("oscar_awards"), config, shown)
    return lines


def _cast_line(title: str, cast: list[dict], config: KGConfig, full: bool) -> str:
    """The cast in billing order: with the characters when short, every name (and how many) when the
    question asks for a set or a count."""
    if full and len(cast) > config.max_list_items:
        return (
            f"{title} / cast ({len(cast)} people, in billing order): "
            f"{', '.join(str(c.get('name')) for c in cast)}"
        )
    shown = [
        f"{c.get('name')} as {c.get('character')}" if c.get("character") else str(c.get("name")) for c in cast
    ]
    return f"{title} / cast ({len(cast)} people): {plain(shown, config)}"


def _genres(movie: dict) -> list[str]:
    return [
        g["name"] for g in movie.get("genres") or [] if isinstance(g, dict) and isinstance(g.get("name"), str)
    ]


def oscar_lines(subject: str, awards: Any, config: KGConfig, shown: Shown = Shown()) -> list[str]:
    """Oscar nominations and wins: those of the categories the question names first (with their own
    count), then won ones when it asks about wins; every one for a set or a count."""
    awards = [a for a in awards or [] if isinstance(a, dict)]
    if not awards:
        return []
    wins = sum(1 for a in awards if a.get("winner"))
    lines = [f"{subject} / Oscars: {len(awards)} nominations, {wins} won"]

    def named(award: dict) -> bool:
        return _in_categories(award, list(shown.categories))

    asked_ones = [a for a in awards if named(a)]
    if asked_ones:
        categories = ", ".join(dict.fromkeys(str(a.get("category", "")).lower() for a in asked_ones))
        lines.append(
            f"{subject} / Oscars in {categories}: {len(asked_ones)} nominations, "
            f"{sum(1 for a in asked_ones if a.get('winner'))} won"
        )
    ordered = sorted(awards, key=lambda a: (not named(a), not (shown.wins and a.get("winner"))))
    for award in ordered if shown.full else ordered[: config.max_list_items]:
        outcome = "won" if award.get("winner") else "nominated"
        lines.append(
            f"{subject} / Oscar {award.get('year_ceremony')} ({award.get('ceremony')}th ceremony) "
            f"{str(award.get('category', '')).lower()}: {award.get('name')} ({award.get('film')}), {outcome}"
        )
    return lines


def _brief(movie_id: Any, by_id: dict, fields: list[str]) -> str:
    """A film in one line: release date and rating, revenue when known, and every field and crew role
    asked (`fields`: keys of FILM_FIELDS and CREW_ROLES)."""
    movie = by_id.get(movie_id)
    if not movie:
        return f"id {movie_id}"
    facts = [
        str(movie["release_date"]) if movie.get("release_date") else None,
        f"rating {movie['rating']}" if movie.get("rating") is not None else None,
        f"revenue {number(movie['revenue'])}" if movie.get("revenue") or "revenue" in fields else None,
    ]
    for field in fields:
        if field in ("release_date", "rating", "revenue"):
            continue
        if field in vocabulary.CREW_ROLES:
            names = [
                c.get("name")
                for c in movie.get("crew") or []
                if isinstance(c, dict) and c.get("job") == field
            ]
            facts.append(f"{field.lower()} {', '.join(filter(None, names))}" if names else None)
            continue
        value = ", ".join(_genres(movie)) if field == "genres" else movie.get(field)
        facts.append(f"{field.replace('_', ' ')} {number(value) if not is_empty(value) else 'unknown'}")
    return f"{movie.get('title')} ({', '.join(f for f in facts if f)})"


def person_lines(
    person: dict, by_id: dict, fields: list[str], config: KGConfig, shown: Shown = Shown()
) -> list[str]:
    """A person's record: birthday, films directed and acted in (those looked up first, with their
    facts; only those of the release years asked when the question names some), Oscars."""
    name = person.get("name", "?")
    lines = [f"Person: {name}"]
    if person.get("birthday"):
        lines.append(f"{name} / birthday: {person['birthday']}")
    for key, label in (("directed_movies", "directed"), ("acted_movies", "acted in")):
        ids = person.get(key) or []
        if not ids:
            continue
        known = [i for i in ids if i in by_id]
        if shown.years:
            inside = [
                i for i in known if str(by_id[i].get("release_date", ""))[:4] in {str(y) for y in shown.years}
            ]
            years = ", ".join(map(str, shown.years))
            lines.append(
                f"{name} / {label}, released in {years} ({len(inside)} of the {len(known)} looked up; "
                f"{len(ids)} movies in all): "
                + ("; ".join(_brief(i, by_id, fields) for i in inside) or "none")
            )
            continue
        listed = known if shown.full else known[: config.max_list_items]
        rest = len(ids) - len(listed)
        lines.append(
            f"{name} / {label} ({len(ids)} movies): "
            + "; ".join(_brief(i, by_id, fields) for i in listed)
            + (f"{'; ' if listed else ''}{rest} more not looked up" if rest else "")
        )
    return lines + oscar_lines(name, person.get("oscar_awards"), config, shown)


def year_lines(
    year: int,
    info: dict,
    by_id: dict,
    fields: list[str],
    config: KGConfig,
    with_films: bool = True,
    with_awards: bool = True,
) -> str:
    lines = []
    movie_ids = info.get("movie_list") or []
    if movie_ids and with_films:
        shown = [_brief(i, by_id, fields) for i in movie_ids[: config.max_list_items]]
        lines.append(f"Movies of {year} ({len(movie_ids)} in the KG): {'; '.join(shown)}")
    if with_awards:
        lines += oscar_lines(f"Oscars of {year}", info.get("oscar_awards"), config)
    return "\n".join(lines)


# --- the asked relation's rows, for the computed answer (models/kg/answer.py) -------------------------


def facts(state: QuestionState, context: PlanContext) -> FactTable | None:
    """The rows of what the question asks about its films or people: an Oscar's winners (their film
    when it asks which film; not when it asks about the winning film's cast), a person's or a film's
    Oscars of the named categories counted, a film's leads, a film field (a date, an amount, a
    rating), a film's cast counted, a person's birthday, the people of a crew role, a person's films
    (of the asked years)."""
    config, intent = context.config, state.reading
    films = {
        title: movie
        for title in state.entities.movies
        if (movie := _found(state, MOVIE_SEARCH, title, config))
    }
    people = {
        name: person
        for name in state.entities.people
        if (person := _found(state, PERSON_SEARCH, name, config))
    }
    categories = _categories(state)
    awards, _ = _asked_awards(state, config)
    award_itself = (intent.asks("film_asked") or intent.asks("film_person_asked")) and not (
        _roles(state) or intent.asks("person_facts") or intent.asks("cast_asked")
    )
    if awards and award_itself and not people.keys() - {h.person for h in _held_awards(state, config)}:
        key = "film" if intent.asks("film_asked") else "name"
        relation = BY_NAME[next(name for name, category in OSCARS.items() if category in categories)]
        return table_of(
            relation,
            FactTable(
                f"Oscar {'films' if key == 'film' else 'winners'} asked",
                [Fact(f"Oscar {a.year}", str(a.record.get(key))) for a in awards if a.record.get(key)],
            ),
        )
    if _asks_award_years(state) and (people or films):
        return _held_years(
            state, {**people, **films}
        )  # the asked award's years, or none: nothing else answers
    if (
        (categories or _picks(state, "oscar_count"))
        and (intent.asks("count") or intent.operation == "compare")
        and (people or films)
    ):
        won = intent.asks("award_won") and not intent.asks("nominations")
        rows = []
        for subject, record in [*people.items(), *films.items()]:
            chosen = [
                a
                for a in record.get("oscar_awards") or []
                if isinstance(a, dict)
                and (a.get("winner") or not won)
                and (not categories or _in_categories(a, categories))
            ]
            rows.append(Fact(str(record.get("name") or record.get("title") or subject), float(len(chosen))))
        label = f"Oscar {'wins' if won else 'nominations'}{' in the asked categories' if categories else ''}"
        return table_of(BY_NAME["oscar_count"], FactTable(label, rows))
    leads = _leads_table(state, [*films.values(), *_award_films(state, awards, config)])
    if leads is not None:
        return leads
    fields = _fields_of_the_asked_kind(state)
    if people and intent.asks("person_facts") and not films:
        return table_of(
            BY_NAME["birthday"],
            FactTable(
                "birthday",
                [
                    Fact(str(p.get("name")), day)
                    for p in people.values()
                    if (day := parse_day(p.get("birthday")))
                ],
            ),
        )
    if films and intent.asks("cast_size") and (intent.asks("count") or len(films) > 1) and not fields:
        return FactTable(
            "cast members",
            [Fact(str(m.get("title")), float(len(m.get("cast") or []))) for m in films.values()],
            relation="cast",
            value="number",
        )
    if films and fields:
        return _film_field_table(fields[0], list(films.values()))
    roles = _roles(state)
    if (
        films
        and roles
        and not people
        and not _crew_followups(state, config)
        and not intent.asks("others_asked")
    ):
        names = [
            (str(m.get("title")), c["name"])
            for m in films.values()
            for c in m.get("crew") or []
            if isinstance(c, dict) and c.get("job") in roles[:1] and isinstance(c.get("name"), str)
        ]
        relation = BY_NAME[next(name for name, job in CREW.items() if job == roles[0])]
        return table_of(
            relation, FactTable(f"{roles[0].lower()}s", [Fact(title, name) for title, name in names])
        )
    if people and intent.asks("person_films") and not films:
        return _person_films_table(state, list(people.values()), fields)
    return None


def _asks_award_years(state: QuestionState) -> bool:
    """The question asks when its named film or person won (or was up for) an Oscar of the categories
    it names ("what year did X win best picture?"), naming no year itself."""
    intent = state.reading
    return (
        bool(_categories(state))
        and not any(s.granularity == "year" for s in intent.time.spans)
        and (intent.form in ("date", "year") or intent.asks("when"))
    )


def _award_years(record: dict, state: QuestionState) -> list[int]:
    """The ceremony years of `record`'s Oscars in the asked categories (won ones when it asks about a win)."""
    won = state.reading.asks("award_won") and not state.reading.asks("nominations")
    return sorted(
        {
            a["year_ceremony"]
            for a in record.get("oscar_awards") or []
            if isinstance(a, dict)
            and isinstance(a.get("year_ceremony"), int)
            and _in_categories(a, _categories(state))
            and (a.get("winner") or not won)
        }
    )


def _held_years(state: QuestionState, records: dict[str, dict]) -> FactTable | None:
    """The years of the asked Oscars of the named films and people, when the question asks when."""
    rows = [
        Fact(str(r.get("name") or r.get("title") or name), str(year))
        for name, r in records.items()
        for year in _award_years(r, state)
    ]
    relation = BY_NAME[next(name for name, category in OSCARS.items() if category in _categories(state))]
    return table_of(relation, FactTable("ceremony year of the asked Oscar", rows)) if rows else None


def _no_such_award(state: QuestionState, subject: str, record: dict) -> str:
    """ "X won no Oscar for <category>" when the question asks when X won one and X has none: the facts
    say that what the question assumes did not happen."""
    if not (_asks_award_years(state) and state.reading.asks("award_won")) or _award_years(record, state):
        return ""
    nominated = [
        a
        for a in record.get("oscar_awards") or []
        if isinstance(a, dict) and _in_categories(a, _categories(state))
    ]
    also = (
        ("; nominated in " + ", ".join(str(a.get("year_ceremony")) for a in nominated)) if nominated else ""
    )
    return (
        f"{subject} won no Oscar in the asked categories "
        f"({', '.join(c.strip('^$') for c in _categories(state))}){also}"
    )


def _fields_of_the_asked_kind(state: QuestionState) -> list[str]:
    """The film fields picked, those of the kind the answer must take first ("what language was it
    released in?" asks the language, not the release date)."""
    form = state.reading.form
    return sorted(
        _fields(state),
        key=lambda name: (
            form in ("language", "date", "year", "number")
            and BY_NAME[name].value not in ({form} | ({"date"} if form == "year" else set()))
        ),
    )


def _award_films(state: QuestionState, awards: list[Award], config: KGConfig) -> list[dict]:
    """The records of the films the asked awards name, as the stage fetched them."""
    return [
        movie
        for film, _ in _award_followups(state, awards)
        if film and (movie := _found(state, MOVIE_SEARCH, film, config))
    ]


def _leads_table(state: QuestionState, films: list[dict]) -> FactTable | None:
    """A film's leads by billing, when the reading asks for them: its first-billed woman ("the leading
    lady"), its first-billed man ("the leading man"), or its first N billed ("the 3 main characters";
    one when the wording is singular, none guessed for a plural with no count)."""
    intent = state.reading
    woman, man, main = intent.asks("lead_actress"), intent.asks("lead_actor"), intent.captures("main_cast")
    gender: int | None = None
    if woman != man:
        gender, count = TMDB_GENDER["woman" if woman else "man"], 1
    elif main and not (woman or man):
        written, plural = main[0].get("count"), main[0]["0"].endswith("s")
        count = (
            int(written)
            if written and written.isdigit()
            else vocabulary.NUMBER_WORDS.get(written or "", 0 if plural else 1)
        )
    else:
        return None
    rows = []
    for movie in films:
        cast = sorted(
            (c for c in movie.get("cast") or [] if isinstance(c, dict) and isinstance(c.get("name"), str)),
            key=lambda c: c.get("order") or 0,
        )
        billed = [c for c in cast if gender is None or c.get("gender") == gender][:count]
        rows += [Fact(str(movie.get("title")), c["name"]) for c in billed]
    label = (
        "first-billed woman of the cast"
        if woman
        else "first-billed man of the cast"
        if man
        else "first-billed of the cast"
    )
    return table_of(BY_NAME["leads"], FactTable(label, rows)) if rows else None


def _film_field_table(field_name: str, films: list[dict]) -> FactTable:
    rows = []
    for movie in films:
        value = movie.get(field_name)
        if field_name == "release_date":
            value = parse_day(value)
        elif field_name in NUMERIC_FIELDS:
            value = (
                float(value)
                if isinstance(value, (int, float)) and not isinstance(value, bool) and value
                else None
            )
        elif field_name == "genres":
            value = ", ".join(_genres(movie)) or None
        if value is not None and value != "":
            rows.append(
                Fact(str(movie.get("title")), value if not isinstance(value, (list, dict)) else str(value))
            )
    return table_of(BY_NAME[field_name], FactTable(field_name.replace("_", " "), rows))


def _person_films_table(state: QuestionState, people: list[dict], fields: list[str]) -> FactTable | None:
    """A person's films of the kind asked (directed, acted in): the field the question asks of them
    (every film looked up), else their titles in the asked years, or every one of them (counted by id
    when not all were looked up)."""
    by_id = {r.call.body["query"]: r.result for r in state.answered(BY_ID) if isinstance(r.result, dict)}
    years = {str(y) for y in _film_years(state)}
    keys = _film_keys(state)
    if fields:
        ids = [i for person in people for key in keys for i in person.get(key) or []]
        if not all(i in by_id for i in ids):
            return None  # some of the films were not looked up: a total or a list would miss them
        films = [
            by_id[i]
            for i in dict.fromkeys(ids)
            if not years or str(by_id[i].get("release_date", ""))[:4] in years
        ]
        table = _film_field_table(fields[0], films)
        table.additive = fields[0] in ("budget", "revenue")
        return table
    rows = []
    for person in people:
        name = str(person.get("name"))
        ids = [i for key in keys for i in person.get(key) or []]
        if years:
            rows += [
                Fact(name, str(by_id[i].get("title")))
                for i in dict.fromkeys(ids)
                if i in by_id and str(by_id[i].get("release_date", ""))[:4] in years
            ]
        else:
            rows += [
                Fact(name, str(by_id[i].get("title")) if i in by_id else f"film id {i}")
                for i in dict.fromkeys(ids)
            ]
    relation = BY_NAME[
        "films_directed"
        if keys == ["directed_movies"]
        else "films_acted"
        if keys == ["acted_movies"]
        else "filmography"
    ]
    return table_of(
        relation,
        FactTable(relation.label + (f" released in {', '.join(sorted(years))}" if years else ""), rows),
    )


def _in_categories(award: dict, categories: list[str]) -> bool:
    """The award's stored category is one of `categories` (stored-category patterns)."""
    return any(_CATEGORY[c].search(str(award.get("category", "")).upper()) for c in categories)


_CATEGORY = {category: re.compile(category) for category in OSCARS.values()}


MOVIE_DOMAIN = Domain("movie", MOVIE, applies, plan, render, facts, settle_kinds=settle_kinds)
