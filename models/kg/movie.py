"""Movies: people and titles by the BM25 search routes (records chosen by name locally), movies of a
year (1990-2021 only: the official server answers other years with HTTP 500), and titles behind
movie ids."""

from __future__ import annotations

import re
from typing import Any

from models.config import KGConfig
from models.kg.formatting import is_empty, number, plain
from models.kg.matching import best_match, search_key
from models.kg.routes import ApiCall
from models.kg.state import Evidence, PlanContext, QuestionState

FIRST_YEAR, LAST_YEAR = 1990, 2021
YEAR_WORDS = re.compile(r"oscar|academy award|best picture|released in|came out in|movies? (?:of|from|in)|films? (?:of|from|in)")


def applies(state: QuestionState) -> bool:
    return state.domain == "movie" or bool(state.entities.movies or state.entities.people)


def _years(state: QuestionState, context: PlanContext) -> list[int]:
    if not (YEAR_WORDS.search(state.lowered) or not (state.entities.movies or state.entities.people)):
        return []
    years = [span.start.year for span in state.spans() if span.granularity == "year"]
    return [y for y in dict.fromkeys(years) if FIRST_YEAR <= y <= LAST_YEAR]


def plan(state: QuestionState, context: PlanContext) -> list[ApiCall]:
    calls = [ApiCall("movie_get_movie_info", {"query": title}) for title in state.entities.movies]
    calls += [ApiCall("movie_get_person_info", {"query": name}) for name in state.entities.people]
    calls += [ApiCall("movie_get_year_info", {"query": str(year)}) for year in _years(state, context)]
    return calls + [ApiCall("movie_get_movie_info_by_id", {"query": i}) for i in _followup_ids(state, context.config)]


def _pick(records: Any, key: str, name: str, config: KGConfig) -> dict | None:
    """The record named `name` among search hits: same search key, else the most similar name."""
    named = [r for r in records if isinstance(r, dict) and isinstance(r.get(key), str)] if isinstance(records, list) else []
    same = [r for r in named if search_key(r[key]) == search_key(name)]
    if same:
        return same[0]
    match = best_match(name, [r[key] for r in named], config.min_name_similarity)
    return next((r for r in named if r[key] == match), None) if match else None


def _people(state: QuestionState, config: KGConfig) -> list[dict]:
    found = []
    for name in state.entities.people:
        _, records = state.answer("movie_get_person_info", query=name)
        person = _pick(records, "name", name, config)
        if person:
            found.append(person)
    return found


def _followup_ids(state: QuestionState, config: KGConfig) -> list[int]:
    """Movie ids whose titles the question needs: a person's films (directed or acted, as asked), a
    year's films."""
    wants_directed = "direct" in state.lowered
    wants_acted = bool(re.search(r"\bact|star|play|appear|role|cast|movie|film", state.lowered))
    ids: list[int] = []
    for person in _people(state, config):
        if wants_directed or not wants_acted:
            ids += person.get("directed_movies") or []
        if wants_acted or not wants_directed:
            ids += person.get("acted_movies") or []
    for result in state.answered("movie_get_year_info"):
        if isinstance(result.result, dict):
            ids += result.result.get("movie_list") or []
    return [i for i in dict.fromkeys(ids) if isinstance(i, int) and not isinstance(i, bool)][: config.max_followup_ids]


def render(state: QuestionState, context: PlanContext) -> Evidence:
    config = context.config
    evidence = Evidence()
    by_id = {r.call.body["query"]: r.result for r in state.answered("movie_get_movie_info_by_id") if isinstance(r.result, dict)}
    for title in state.entities.movies:
        answered, records = state.answer("movie_get_movie_info", query=title)
        if not answered:
            continue
        movie = _pick(records, "title", title, config)
        if movie:
            evidence.add("\n".join(movie_lines(movie, config)))
        elif not _pick(state.answer("movie_get_person_info", query=title)[1], "name", title, config):
            evidence.add(f"No movie titled {title!r} in the KG", found=False)
    for name in state.entities.people:
        answered, records = state.answer("movie_get_person_info", query=name)
        if not answered:
            continue
        person = _pick(records, "name", name, config)
        if person:
            evidence.add("\n".join(person_lines(person, by_id, config)))
        elif not _pick(state.answer("movie_get_movie_info", query=name)[1], "title", name, config):
            evidence.add(f"No person named {name!r} in the movie KG", found=False)
    for year in _years(state, context):
        answered, info = state.answer("movie_get_year_info", query=str(year))
        if answered and isinstance(info, dict) and not is_empty(info):
            evidence.add(year_lines(year, info, by_id, config))
    return evidence


def movie_lines(movie: dict, config: KGConfig) -> list[str]:
    title = movie.get("title", "?")
    lines = [f"Movie: {title}"]
    for key in ("release_date", "original_title", "original_language", "rating", "budget", "revenue"):
        if not is_empty(movie.get(key)):
            lines.append(f"{title} / {key.replace('_', ' ')}: {number(movie[key])}")
    genres = [g.get("name") for g in movie.get("genres") or [] if isinstance(g, dict)]
    if genres:
        lines.append(f"{title} / genres: {', '.join(filter(None, genres))}")
    crew = [c for c in movie.get("crew") or [] if isinstance(c, dict)]
    for job in ("Director", "Screenplay", "Writer", "Producer", "Original Music Composer"):
        names = [c.get("name") for c in crew if c.get("job") == job]
        if names:
            lines.append(f"{title} / {job.lower()}: {', '.join(filter(None, names))}")
    cast = sorted((c for c in movie.get("cast") or [] if isinstance(c, dict)), key=lambda c: c.get("order") or 0)
    if cast:
        shown = [f"{c.get('name')} as {c.get('character')}" if c.get("character") else str(c.get("name")) for c in cast]
        lines.append(f"{title} / cast: {plain(shown, config)}")
    lines += oscar_lines(title, movie.get("oscar_awards"), config)
    return lines


def oscar_lines(subject: str, awards: Any, config: KGConfig) -> list[str]:
    awards = [a for a in awards or [] if isinstance(a, dict)]
    wins = sum(1 for a in awards if a.get("winner"))
    lines = [f"{subject} / Oscars: {len(awards)} nominations, {wins} won"] if awards else []
    for award in awards[: config.max_list_items]:
        outcome = "won" if award.get("winner") else "nominated"
        lines.append(
            f"{subject} / Oscar {award.get('year_ceremony')} ({award.get('ceremony')}th ceremony) "
            f"{str(award.get('category', '')).lower()}: {award.get('name')} ({award.get('film')}), {outcome}"
        )
    return lines


def _brief(movie_id: Any, by_id: dict) -> str:
    movie = by_id.get(movie_id)
    if not movie:
        return f"id {movie_id}"
    facts = [movie.get("release_date"), f"rating {movie['rating']}" if movie.get("rating") is not None else None]
    if movie.get("revenue"):
        facts.append(f"revenue {number(movie['revenue'])}")
    return f"{movie.get('title')} ({', '.join(str(f) for f in facts if f)})"


def person_lines(person: dict, by_id: dict, config: KGConfig) -> list[str]:
    name = person.get("name", "?")
    lines = [f"Person: {name}"]
    if person.get("birthday"):
        lines.append(f"{name} / birthday: {person['birthday']}")
    for key, label in (("directed_movies", "directed"), ("acted_movies", "acted in")):
        ids = person.get(key) or []
        if ids:
            shown = [_brief(i, by_id) for i in ids[: config.max_list_items]]
            lines.append(f"{name} / {label} ({len(ids)} movies): {'; '.join(shown)}")
    return lines + oscar_lines(name, person.get("oscar_awards"), config)


def year_lines(year: int, info: dict, by_id: dict, config: KGConfig) -> str:
    lines = []
    movie_ids = info.get("movie_list") or []
    if movie_ids:
        shown = [_brief(i, by_id) for i in movie_ids[: config.max_list_items]]
        lines.append(f"Movies of {year} ({len(movie_ids)} in the KG): {'; '.join(shown)}")
    lines += oscar_lines(f"Oscars of {year}", info.get("oscar_awards"), config)
    return "\n".join(lines)
