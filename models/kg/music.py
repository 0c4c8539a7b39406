"""Music: artists and songs by the search routes, then the exact-key routes with the KG's own
spelling; Grammy by year (1957-2019 only) and by artist; Billboard Hot 100 by rank and by song.

Billboard routes answer only for an exact chart date, and charts are weekly (dated Saturdays in the
published data, each published on the Tuesday before its date). The chart in force at a date is
found by probing: rank 1 on the last Saturday whose chart was out by then (the coming Saturday from
a Tuesday on, else the one before), the Saturday before that, then the other days of that week in
case the data is dated differently. A probe that answers confirms the chart date; song attributes
are then asked for it. A rank asked about over more than a week, or over all time for an artist or
a song ("how many number one hits did X have?"), is read from the rank's whole history (the route
without a date: every entry, undated).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from models.config import KGConfig
from models.kg.answer import Fact, FactTable
from models.kg.domain import Domain, table_of
from models.kg.formatting import country_name, dated, is_empty, number, parse_day, plain
from models.kg.matching import loose_key
from models.kg.relations import (
    BY_NAME,
    MUSIC,
    MUSIC_ARTIST_DEFAULT,
    MUSIC_OFF_CHART_HINTS,
    MUSIC_SONG_DEFAULT,
    Relation,
)
from models.kg.routes import ApiCall
from models.kg.state import Evidence, PlanContext, QuestionState
from models.kg.timeparse import DateSpan
from models.schema import Event

ARTIST_SEARCH, SONG_SEARCH = "music_search_artist_entity_by_name", "music_search_song_entity_by_name"
RANK_DATE, CHART_ATTRIBUTES = "music_get_billboard_rank_date", "music_get_billboard_attributes"
FIRST_GRAMMY_YEAR, LAST_GRAMMY_YEAR = 1957, 2019
GRAMMY_YEAR_RELATIONS = ("best_new_artist", "song_of_the_year", "album_of_the_year")
CHART_FIELDS = ("chart_last_week", "weeks_in_chart", "peak_position")
# The relations of one name's own facts, by the kind of name; and those a question may ask of a name an
# earlier answer returned (a Grammy winner, a chart entry) or of a band's members as people.
ARTIST_FACTS = tuple(r.name for r in MUSIC if r.subjects == ("artists",))
SONG_FACTS = tuple(r.name for r in MUSIC if r.subjects == ("songs",) and r.group != "chart")
FOLLOWED_ARTIST = ("birth_place", "birth_date", "members", "lifespan", "works")
FOLLOWED_SONG = ("song_author", "song_release_date", "song_release_country")
MEMBER_FACTS = {"birth_place": "member_place", "birth_date": "member_birth", "lifespan": "death"}
ROUTE_LABELS = {route: r.label for r in MUSIC for route in r.routes if r.name in (*ARTIST_FACTS, *SONG_FACTS)}
CHART_LABELS = {BY_NAME[name].field: BY_NAME[name].label for name in CHART_FIELDS}
PLACE_ROUTES = tuple(r.routes[0] for r in MUSIC if r.value == "place")
SATURDAY = 5
PUBLISHED_ON = 1  # Tuesday: a chart comes out four days before the Saturday it is dated
WORKS_NOT_DATED = "works not dated"


def applies(state: QuestionState) -> bool:
    return state.domain == "music" or bool(state.entities.artists or state.entities.songs)


def settle_kinds(state: QuestionState) -> None:
    state.keep_asked_kind(
        ("artists", "songs"), (state.reading.asks("artist_signal"), state.reading.asks("song_signal"))
    )


def _routes(relations: list[Relation]) -> list[str]:
    return list(dict.fromkeys(route for relation in relations for route in relation.routes))


def _cued(state: QuestionState, names: tuple[str, ...]) -> list[str]:
    """Those of `names` the reading picked by cue words (not by words that only fetch them)."""
    return [m.name for m in state.reading.relations.get("music", ()) if m.name in names and m.by != "hint"]


def _billboard(state: QuestionState) -> bool:
    """A chart question: the chart relation picked, or a song whose move up or down the question asks
    about."""
    intent = state.reading
    return intent.picks("music", "chart_entry") or bool(state.entities.songs and intent.asks("chart_moves"))


def _reference_day(state: QuestionState) -> date | None:
    """The day whose chart the question asks about: its time phrase (capped at the question's day)."""
    today = state.today
    time = state.reading.time
    for span in time.spans:
        if span.phrase in time.previous_weeks:
            continue  # the current chart answers it: its last-week column, and the week before is shown too
        return min(span.end, today) if today else span.end
    return today


def _chart_candidates(day: date) -> list[date]:
    """Chart dates to probe for the chart in force on `day`: the latest Saturday whose chart was
    published by then (on the Tuesday before it), the Saturday before, then the other days of the week."""
    ahead = (SATURDAY - day.weekday()) % 7
    saturday = (
        day + timedelta(days=ahead)
        if PUBLISHED_ON <= day.weekday() <= SATURDAY
        else day - timedelta(days=(day.weekday() - SATURDAY) % 7)
    )
    others = [day - timedelta(days=i) for i in range(7) if (day - timedelta(days=i)) != saturday]
    return [saturday, saturday - timedelta(days=7), *others]


def _probe_rank(state: QuestionState) -> int:
    """The rank a chart date is probed with: the asked one, whose entry the probe then answers, else 1."""
    return state.entities.rank or 1


def _asks_previous_week(state: QuestionState) -> bool:
    """The week before the chart is needed: asked for ("last week") or compared with ("dropped")."""
    return state.reading.asks("previous_week") or state.reading.asks("change")


def chart_date(state: QuestionState, day: date | None) -> tuple[date | None, list[ApiCall]]:
    """(the confirmed chart date in force on `day`, the probe still needed)."""
    if day is None:
        return None, []
    rank = _probe_rank(state)
    probes = [
        ApiCall("music_get_billboard_rank_date", {"rank": rank, "date": d.isoformat()})
        for d in _chart_candidates(day)
    ]
    for position, (candidate, probe) in enumerate(zip(_chart_candidates(day), probes)):
        if not state.done(probe.route, **probe.body):
            # the two Saturdays one at a time; then the other days of the week all at once
            return None, [probe] if position < 2 else [
                p for p in probes[position:] if not state.done(p.route, **p.body)
            ]
        _, result = state.answer(probe.route, **probe.body)
        if not is_empty(result):
            return candidate, []
    return None, []


def _grammy_years(state: QuestionState) -> list[int]:
    """The years the question names (every year of a range: "from 2016 to 2018" is three)."""
    spans = state.reading.time.spans
    years = [
        year for span in spans if span.granularity in ("year", "years", "day", "month") for year in span.years
    ]
    return [y for y in dict.fromkeys(years) if FIRST_GRAMMY_YEAR <= y <= LAST_GRAMMY_YEAR]


def _chart_history(state: QuestionState) -> bool:
    """A rank asked about over more than a week ("the number one songs of 2016"), or over all time for
    an artist or a song ("how many number one hits did X have?"): its whole history is read."""
    if not (state.entities.rank and _billboard(state)):
        return False
    spans = state.reading.time.spans
    if spans:
        return all(span.granularity in ("month", "year", "years", "season", "range") for span in spans)
    return bool(state.entities.artists or state.entities.songs) and state.reading.asks_for_rows


def _spellings(
    state: QuestionState, search_route: str, names: list[str], config: KGConfig
) -> tuple[dict[str, str], list[ApiCall]]:
    found, needed = {}, []
    for name in names:
        searched, spelling = state.spelling(search_route, name, config.min_name_similarity)
        if not searched:
            needed.append(ApiCall(search_route, {"query": name}))
        elif spelling:
            found[name] = spelling
    return found, needed


def _try_other_kind_on_a_miss(state: QuestionState, config: KGConfig) -> None:
    """A name the extractor filed as an artist that the artist search does not find is tried as a
    song, and the other way round (only for names the LLM read: a scripted kind is settled)."""
    if not state.other_kind_on_miss:
        return
    for route, names, other in (
        (ARTIST_SEARCH, state.entities.artists, state.entities.songs),
        (SONG_SEARCH, state.entities.songs, state.entities.artists),
    ):
        for name in list(names):
            if name not in other and state.absent(route, name, config.min_name_similarity):
                other.append(name)


def _member_relations(state: QuestionState) -> list[str]:
    """The facts asked of a band's members as people ([] when the question is not about them): their
    birth, their place, their death; not the band's own ("when was X formed and who are its members?")."""
    intent = state.reading
    if not intent.asks("member_words") or intent.asks("band_facts"):
        return []
    return [name for name, cue in MEMBER_FACTS.items() if intent.asks(cue)]


@dataclass
class Followed:
    """A name an earlier answer returned, looked up in turn: its kind ("artist", "song", or "member",
    a band member looked up as an artist), the name, and how it was reached."""

    kind: str
    name: str
    reached: str


def _followups(state: QuestionState, config: KGConfig) -> list[Followed]:
    """Names earlier answers returned (Grammy winners of a year, the entry at the asked chart rank, a
    band's members) whose facts the question's relation needs: the next hop's subjects."""
    intent = state.reading
    artist_relations, song_relations = _cued(state, FOLLOWED_ARTIST), _cued(state, FOLLOWED_SONG)
    if _member_relations(state):
        artist_relations = ["members"]
    found: list[Followed] = []
    for name in ("best_new_artist", "song_of_the_year"):
        relation = BY_NAME[name]
        kind = "artist" if relation.yields == "artists" else "song"
        if artist_relations if kind == "artist" else song_relations:
            for result in state.answered(relation.routes[0]):
                winners = result.result if isinstance(result.result, list) else []
                found += [
                    Followed(
                        kind,
                        w,
                        f"the Grammy {relation.label.removeprefix('Grammy ')} of {result.call.body['query']}",
                    )
                    for w in winners
                    if isinstance(w, str)
                ]
    rank = state.entities.rank
    chart, _ = chart_date(state, _reference_day(state)) if rank and _billboard(state) else (None, [])
    if chart:
        _, result = state.answer(RANK_DATE, rank=rank, date=chart.isoformat())
        # the act when the question names it ("the singer of the number one song"), else the song
        follow_artist = bool(artist_relations) and (intent.asks("artist_nouns") or not song_relations)
        for song, artist in _pairs(result):
            where = f"rank {rank} on the Billboard Hot 100 of {dated(chart)}"
            if follow_artist:
                found.append(Followed("artist", artist, f"the artist at {where}"))
            elif song_relations:
                found.append(Followed("song", song, f"the song at {where}"))
    if _member_relations(state):
        bands = list(_spellings(state, ARTIST_SEARCH, state.entities.artists, config)[0].values())
        bands += [
            spelling
            for f in found
            if f.kind == "artist"
            for spelling in _spellings(state, ARTIST_SEARCH, [f.name], config)[0].values()
        ]
        for band in dict.fromkeys(bands):
            _, members = state.answer("music_get_members", query=band)
            # the KG's own spellings, sorted: the official order is a set's
            names = (
                sorted({m for m in members if isinstance(m, str) and m}) if isinstance(members, list) else []
            )
            found += [
                Followed("member", name, f"a member of {band}") for name in names[: config.max_followup_ids]
            ]
    return found


def _followed_spellings(
    state: QuestionState, followed: Followed, config: KGConfig
) -> tuple[list[str], list[ApiCall]]:
    """(the KG's spellings of a followed name, the search still needed). A member's name is the
    artist table's own spelling already; Grammy winners and chart entries are searched."""
    if followed.kind == "member":
        return [followed.name], []
    route = ARTIST_SEARCH if followed.kind == "artist" else SONG_SEARCH
    spellings, searches = _spellings(state, route, [followed.name], config)
    return list(spellings.values()), searches


def _followup_routes(state: QuestionState, followed: Followed) -> list[str]:
    if followed.kind == "member":
        names = _member_relations(state)
    elif followed.kind == "artist":
        names = ["members"] if _member_relations(state) else _cued(state, FOLLOWED_ARTIST)
    else:
        names = _cued(state, FOLLOWED_SONG)
    return _routes([BY_NAME[name] for name in names])


def _followup_calls(state: QuestionState, config: KGConfig) -> list[ApiCall]:
    calls = []
    for followed in _followups(state, config):
        spellings, searches = _followed_spellings(state, followed, config)
        calls += searches
        calls += [
            ApiCall(route, {"query": spelling})
            for spelling in spellings
            for route in _followup_routes(state, followed)
        ]
    return calls


def _artist_relations(state: QuestionState) -> list[Relation]:
    """The artist facts to fetch: those picked (a place asked with no date word asks no birth date),
    else the artist's usual facts."""
    names = [name for name in state.reading.picked("music") if name in ARTIST_FACTS]
    if "birth_place" in names and not state.reading.asks("artist_date_words"):
        names = [name for name in names if name != "birth_date"]
    return [BY_NAME[name] for name in names or MUSIC_ARTIST_DEFAULT]


def _song_relations(state: QuestionState, billboard: bool) -> list[Relation]:
    """The song facts to fetch: those picked, and outside a chart question those its looser words
    ask ("when", "where"); with none, outside a chart question the song's usual facts."""
    names = [name for name in state.reading.picked("music") if name in SONG_FACTS]
    if not billboard:
        names += [name for name in MUSIC_OFF_CHART_HINTS if state.reading.asks(f"off_chart_{name}")]
    names = [name for name in SONG_FACTS if name in names]
    return [BY_NAME[name] for name in names or ([] if billboard else MUSIC_SONG_DEFAULT)]


def plan(state: QuestionState, context: PlanContext) -> list[ApiCall]:
    config, intent = context.config, state.reading
    _try_other_kind_on_a_miss(state, config)
    artists, calls = _spellings(state, ARTIST_SEARCH, state.entities.artists, config)
    songs, song_searches = _spellings(state, SONG_SEARCH, state.entities.songs, config)
    calls += song_searches
    billboard = _billboard(state)
    history = _chart_history(state)
    chart, probes = chart_date(state, _reference_day(state)) if billboard and not history else (None, [])
    calls += probes
    if history:
        calls.append(ApiCall(RANK_DATE, {"rank": state.entities.rank}))
    if billboard and state.entities.rank and chart and _asks_previous_week(state):
        calls.append(
            ApiCall(RANK_DATE, {"rank": state.entities.rank, "date": (chart - timedelta(days=7)).isoformat()})
        )
    artist_routes = (
        ["music_get_members"]
        if _member_relations(state)
        else []
        if history
        else _routes(_artist_relations(state))
    )
    for spelling in artists.values():
        calls += [ApiCall(route, {"query": spelling}) for route in artist_routes]
    calls += [ApiCall("music_get_song_release_date", {"query": work}) for work in _dated_works(state, config)]
    song_routes = _routes(_song_relations(state, billboard))
    for spelling in songs.values():
        calls += [ApiCall(route, {"query": spelling}) for route in song_routes]
        if billboard and chart:
            calls += [
                ApiCall(CHART_ATTRIBUTES, {"date": chart.isoformat(), "attribute": a, "song_name": spelling})
                for a in _chart_attributes(state)
            ]
            debut = _debut_date(state, chart, spelling)
            if debut:
                calls.append(
                    ApiCall(
                        CHART_ATTRIBUTES,
                        {"date": debut.isoformat(), "attribute": "rank", "song_name": spelling},
                    )
                )
    awards = [BY_NAME[name] for name in GRAMMY_YEAR_RELATIONS if intent.picks("music", name)]
    if intent.asks("grammy") or awards:
        if not awards and not (
            state.entities.artists or state.entities.songs
        ):  # a year's awards, no one named
            awards = [BY_NAME[name] for name in GRAMMY_YEAR_RELATIONS]
        years = _grammy_years(state)
        calls += [ApiCall(relation.routes[0], {"query": year}) for relation in awards for year in years]
        if intent.picks("music", "best_new_artist") and not years and not artists:
            calls.append(ApiCall("music_grammy_get_all_awarded_artists", {}))
    return calls + _followup_calls(state, config)


def _released_in(state: QuestionState) -> list[DateSpan]:
    """The spans an artist's songs are asked about by their release ("what songs did X put out in
    2001?"): then each work's release date is looked up."""
    intent = state.reading
    if not (state.entities.artists and intent.asks("released") and intent.asks("work_nouns")):
        return []
    return [span for span in intent.time.spans if span.granularity != "day"]


def _dated_works(state: QuestionState, config: KGConfig) -> list[str]:
    """The works of the named artists whose release dates answer a question about their songs of a
    span: all of them (their calls the question's allowance beyond its cap), or none, with an
    event, when they are more than `kg.max_dated_works`."""
    if not _released_in(state):
        return []
    works: list[str] = []
    for spelling in _spellings(state, ARTIST_SEARCH, state.entities.artists, config)[0].values():
        answered, found = state.answer("music_get_artist_all_works", query=spelling)
        works += [w for w in found if isinstance(w, str)] if answered and isinstance(found, list) else []
    works = list(dict.fromkeys(works))
    if len(works) > config.max_dated_works:
        detail = f"{len(works)} works, more than kg.max_dated_works ({config.max_dated_works})"
        state.events.append(Event("degraded", WORKS_NOT_DATED, detail))
        return []
    state.allowance = max(state.allowance, len(works))
    return works


def _debut_date(state: QuestionState, chart: date, song: str) -> date | None:
    """The chart a song entered on, for a debut question: N weeks on the chart of `chart` put its
    first week N - 1 weeks earlier (weeks off the chart in between would shift it; the rank asked
    for that date then comes back null and says so)."""
    if not state.reading.asks("debut"):
        return None
    _, weeks = state.answer(
        CHART_ATTRIBUTES, date=chart.isoformat(), attribute="weeks_in_chart", song_name=song
    )
    try:
        count = int(str(weeks))
    except ValueError:
        return None
    return chart - timedelta(weeks=count - 1) if count > 0 else None


def _chart_attributes(state: QuestionState) -> list[str]:
    """The chart figures the reading picked (last week's rank, weeks on the chart, the peak), and the rank."""
    asked = [BY_NAME[name].field for name in CHART_FIELDS if state.reading.picks("music", name)]
    return list(dict.fromkeys(asked + ["rank"]))


# --- rendering --------------------------------------------------------------------------------------


def render(state: QuestionState, context: PlanContext) -> Evidence:
    config = context.config
    evidence = Evidence()
    artists, _ = _spellings(state, ARTIST_SEARCH, state.entities.artists, config)
    songs, _ = _spellings(state, SONG_SEARCH, state.entities.songs, config)
    for kind, route, names in (
        ("artist", ARTIST_SEARCH, state.entities.artists),
        ("song", SONG_SEARCH, state.entities.songs),
    ):
        for name in names:
            if state.absent(route, name, config.min_name_similarity) and name not in {**artists, **songs}:
                evidence.miss(name, f"No {kind} named {name!r} in the music KG")
    for spelling in [*artists.values(), *songs.values()]:
        lines = _fact_lines(state, spelling, config)
        if lines:
            evidence.add("\n".join(lines), found=any(not line.endswith(": none") for line in lines))
    if _chart_history(state):
        evidence.add(
            _render_history(
                state, [*artists.values(), *state.entities.artists], [*songs.values(), *state.entities.songs]
            )
        )
    elif _billboard(state):
        evidence.extend(_render_billboard(state, songs, config))
    evidence.add(_render_dated_works(state, config))
    evidence.extend(_render_grammy_years(state, config))
    for followed in _followups(state, config):
        for spelling in _followed_spellings(state, followed, config)[0]:
            lines = _fact_lines(state, spelling, config)
            if lines:
                evidence.add(
                    "\n".join([f"{spelling}, {followed.reached}:", *lines]),
                    found=any(not line.endswith(": none") for line in lines),
                )
    return evidence


def _fact_lines(state: QuestionState, spelling: str, config: KGConfig) -> list[str]:
    """The facts of `spelling`; a band's members, asked about as its current ones, said to be all it
    ever had (the KG does not mark who left)."""
    lines = []
    for r in state.results.values():
        if r.ok and r.call.body.get("query") == spelling and r.call.route in ROUTE_LABELS:
            line = _fact_line(spelling, r.call.route, r.result, config)
            present = state.reading.asks("at_present") or state.reading.time.tense == "now"
            if r.call.route == "music_get_members" and present and not is_empty(r.result):
                line += " (every member the band ever had: the KG does not say who left)"
            lines.append(line)
    return lines


def _fact_line(subject: str, route: str, value: object, config: KGConfig) -> str:
    label = ROUTE_LABELS[route]
    if is_empty(value) and route != "music_grammy_get_award_date_by_artist":
        return f"{subject} / {label}: none"
    if route == "music_get_lifespan" and isinstance(value, list) and len(value) == 2:
        start, end = value
        return (
            f"{subject} / lifespan: start {start or 'unknown'}, end "
            f"{end or 'none recorded (still active or living)'}"
        )
    if route == "music_grammy_get_award_date_by_artist" and isinstance(value, list):
        years = sorted(v for v in value if isinstance(v, int))
        return f"{subject} / {label}: {', '.join(str(y) for y in years) or 'none'} ({len(years)} years)"
    if route in PLACE_ROUTES and isinstance(value, str):
        return f"{subject} / {label}: {country_name(value)}"
    if route == "music_get_members" and isinstance(value, list):
        return f"{subject} / {label} ({len(value)}): {plain(sorted(map(str, value)), config)}"
    if route == "music_get_artist_all_works" and isinstance(value, list):
        distinct = list(dict.fromkeys(map(str, value)))
        return f"{subject} / {label} ({len(distinct)} distinct): {plain(distinct, config)}"
    return f"{subject} / {label}: {number(value) if not isinstance(value, str) else value}"


def _pairs(result: object) -> list[tuple[str, str]]:
    """(song, artist) pairs of a `[[songs], [artists]]` rank result; `[null, null]` has none."""
    if isinstance(result, list) and len(result) == 2 and all(isinstance(part, list) for part in result):
        return [(str(s), str(a)) for s, a in zip(*result)]
    return []


def _render_history(state: QuestionState, artists: list[str], songs: list[str]) -> str:
    """The songs at the asked rank over the whole history the KG holds (undated entries, one a week),
    those of the asked artists or songs when the question names any, each with its weeks there; each
    asked artist's songs counted apart."""
    rank = state.entities.rank
    answered, result = state.answer(RANK_DATE, rank=rank)
    if not answered:
        return ""
    pairs = _pairs(result)
    chosen = _history_pairs(pairs, artists, songs)
    kept = {pair for pair, _ in chosen}
    weeks: dict[tuple[str, str], int] = {}
    for pair in pairs:
        if pair in kept:
            weeks[pair] = weeks.get(pair, 0) + 1
    owners: dict[str, set[tuple[str, str]]] = {}
    for pair, owner in chosen:
        owners.setdefault(owner, set()).add(pair)
    counted = "; ".join(
        f"{owner}: {len(found)} songs, {sum(weeks[pair] for pair in found)} weeks"
        for owner, found in owners.items()
    )
    head = (
        f"Billboard Hot 100, every week at rank {rank} in the KG ({len(pairs)} weekly entries, undated), "
        f"those of {counted or 'no asked artist or song'}"
    )
    return "\n".join(
        [
            head,
            *(
                f"- {song} by {artist}: {count} week{'s' if count > 1 else ''} at rank {rank}"
                for (song, artist), count in weeks.items()
            ),
        ]
    )


def _history_pairs(
    pairs: list[tuple[str, str]], artists: list[str], songs: list[str]
) -> list[tuple[tuple[str, str], str]]:
    """The weekly (song, artist) entries of the asked artists or songs (all when none is asked), each
    with whose it is: every asked artist its credit names (a duet counts for both), else the song
    asked, else "every song"."""
    by_key = {loose_key(name): name for name in artists if loose_key(name)}
    asked_songs = {loose_key(n) for n in songs}
    chosen = []
    for song, artist in pairs:
        owners = list(dict.fromkeys(name for key, name in by_key.items() if key in loose_key(artist)))
        if not owners and loose_key(song) in asked_songs:
            owners = [song]
        if not owners and not artists and not songs:
            owners = ["every song"]
        chosen += [((song, artist), owner) for owner in owners]
    return chosen


def _render_dated_works(state: QuestionState, config: KGConfig) -> str:
    """The named artists' works with their release dates, those of the asked spans first."""
    works = _dated_works(state, config)
    dates = {work: state.answer("music_get_song_release_date", query=work)[1] for work in works}
    dates = {work: day for work, day in dates.items() if isinstance(day, str) and day}
    if not dates:
        return ""
    spans = _released_in(state)
    inside = [
        work
        for work, day in dates.items()
        if (parsed := parse_day(day)) and any(span.contains(parsed) for span in spans)
    ]
    where = ", ".join(span.label for span in spans)
    return "\n".join(
        [
            f"Works released in {where} ({len(inside)} of the {len(dates)} dated): "
            f"{', '.join(inside) or 'none'}",
            "Release dates of the works: " + "; ".join(f"{work} {day}" for work, day in dates.items()),
        ]
    )


def _render_billboard(state: QuestionState, songs: dict[str, str], config: KGConfig) -> Evidence:
    evidence = Evidence()
    day = _reference_day(state)
    chart, _ = chart_date(state, day)
    if (
        day is not None
        and chart is None
        and all(
            state.done("music_get_billboard_rank_date", rank=_probe_rank(state), date=d.isoformat())
            for d in _chart_candidates(day)
        )
    ):
        evidence.add(f"No Billboard Hot 100 chart in the KG for the week of {dated(day)}", found=False)
    if chart is None:
        return evidence
    in_force = f"the chart in force on {dated(day)}" if day and day != chart else "chart date"
    rank = state.entities.rank
    # the asked rank; with none, the top of the chart unless the question is about a song of its own
    shown_rank = rank or (0 if songs else 1)
    for when, label in _weeks_shown(state, chart, in_force) if shown_rank else []:
        answered, result = state.answer(
            "music_get_billboard_rank_date", rank=shown_rank, date=when.isoformat()
        )
        if not answered:
            continue
        pairs = _pairs(result)
        if pairs:
            shown = "; ".join(f"{song} by {artist}" for song, artist in pairs)
            evidence.add(f"Billboard Hot 100 of {dated(when)} ({label}), rank {shown_rank}: {shown}")
        else:
            evidence.add(f"Billboard Hot 100 of {dated(when)}: no song at rank {shown_rank}")
    for spelling in songs.values():
        lines = []
        off_chart = False
        for pattern_attribute in _chart_attributes(state):
            answered, value = state.answer(
                "music_get_billboard_attributes",
                date=chart.isoformat(),
                attribute=pattern_attribute,
                song_name=spelling,
            )
            if not answered:
                continue
            label = CHART_LABELS.get(pattern_attribute, "rank")
            if value is None:
                lines.append(f"{spelling} is not on the Billboard Hot 100 of {dated(chart)} ({in_force})")
                off_chart = True
                break
            shown = "new on the chart (no previous week)" if value == "-" else str(value)
            lines.append(
                f"{spelling} / Billboard Hot 100 {label} on the chart of {dated(chart)} ({in_force}): {shown}"
            )
        lines += _change_line(state, chart, spelling)
        debut = _debut_date(state, chart, spelling)
        if debut:
            answered, value = state.answer(
                "music_get_billboard_attributes", date=debut.isoformat(), attribute="rank", song_name=spelling
            )
            if answered:
                lines.append(
                    f"{spelling} entered the Billboard Hot 100 on the chart of {dated(debut)} at rank {value}"
                    if value is not None
                    else f"{spelling} is not on the chart of {dated(debut)}: its debut week is unknown"
                )
        if lines:
            evidence.add("\n".join(dict.fromkeys(lines)), contradicts=off_chart)
    return evidence


def _weeks_shown(state: QuestionState, chart: date, in_force: str) -> list[tuple[date, str]]:
    """The charts whose entry at the asked rank is shown: this week's, the week before's when asked
    or compared, and only the week before's when the question asks about it alone."""
    this, before = (chart, in_force), (chart - timedelta(days=7), "the week before")
    if not _asks_previous_week(state):
        return [this]
    intent = state.reading
    if intent.asks("previous_week") and not (intent.asks("change") or intent.asks("this_week")):
        return [before]
    return [this, before]


def _change_line(state: QuestionState, chart: date, song: str) -> list[str]:
    """The move between last week's chart and this one, when both ranks came back."""
    ranks = [
        state.answer("music_get_billboard_attributes", date=chart.isoformat(), attribute=a, song_name=song)[1]
        for a in ("rank", "rank_last_week")
    ]
    if ranks[1] == "-":
        return [f"{song} is new on the chart of {dated(chart)}: no rank the week before to compare"]
    try:
        now, before = (int(str(r)) for r in ranks)
    except ValueError:
        return []
    move = "no change" if now == before else f"{'up' if now < before else 'down'} {abs(now - before)} places"
    return [
        f"{song} moved from rank {before} (the week before) to rank {now} on the chart "
        f"of {dated(chart)}: {move}"
    ]


def _render_grammy_years(state: QuestionState, config: KGConfig) -> Evidence:
    evidence = Evidence()
    for relation in (BY_NAME[name] for name in GRAMMY_YEAR_RELATIONS):
        for result in state.answered(relation.routes[0]):
            year = result.call.body["query"]
            winners = result.result if isinstance(result.result, list) else []
            evidence.add(
                f"{relation.label} {year} (KG): {plain(winners, config) if winners else 'none recorded'}",
                found=bool(winners),
            )
    for result in state.answered("music_grammy_get_all_awarded_artists"):
        if isinstance(result.result, list) and result.result:
            evidence.add(
                f"All Grammy Best New Artist winners (KG, {len(result.result)}): "
                f"{plain(result.result, config)}"
            )
    for year in [span.start.year for span in state.reading.time.spans if span.granularity == "year"]:
        if state.reading.asks("grammy") and not FIRST_GRAMMY_YEAR <= year <= LAST_GRAMMY_YEAR:
            evidence.add(
                f"The Grammy KG covers only {FIRST_GRAMMY_YEAR}-{LAST_GRAMMY_YEAR}; nothing for {year}",
                found=False,
            )
    return evidence


# --- the asked relation's rows, for the computed answer (models/kg/answer.py) -------------------------

# The relations whose rows may answer a question about its named (or followed) artists and songs, most
# specific first.
ANSWERING = (
    "members",
    "grammy_years",
    "lifespan",
    "birth_place",
    "birth_date",
    "works",
    "song_author",
    "song_release_date",
    "song_release_country",
)


def facts(state: QuestionState, context: PlanContext) -> FactTable | None:
    """The rows of what the question asks about its artists and songs: the songs at the asked chart
    rank (a week's entry, or an artist's over all weeks), a song's chart figure, a year's Grammy
    winners, the works released in the asked span, else the rows of the relation the reading picked,
    of the names it writes or that an earlier answer named (a Grammy winner, a chart entry)."""
    config, intent = context.config, state.reading
    artists, _ = _spellings(state, ARTIST_SEARCH, state.entities.artists, config)
    songs, _ = _spellings(state, SONG_SEARCH, state.entities.songs, config)
    followed = _followups(state, config)
    if _chart_history(state):
        return _history_table(
            state, [*artists.values(), *state.entities.artists], [*songs.values(), *state.entities.songs]
        )
    if _billboard(state) and not followed:
        return _chart_table(state, songs)
    if not followed and not artists and not songs:
        # a song's or an album's award names the work: a question about its act ("the singer of the song
        # that won ...") is not answered by it
        act_asked = intent.asks("artist_nouns")
        awards = [
            BY_NAME[name] for name in GRAMMY_YEAR_RELATIONS if not act_asked or name == "best_new_artist"
        ]
        winners = [
            Fact(f"{relation.label} {r.call.body['query']}", w)
            for relation in awards
            for r in state.answered(relation.routes[0])
            if isinstance(r.result, list)
            for w in r.result
            if isinstance(w, str)
        ]
        return FactTable("Grammy winners of the asked years", winners, value="name") if winners else None
    if _released_in(state):
        return _released_table(state, config)
    members = [f for f in followed if f.kind == "member"]
    if members:  # the members of a band, asked about as people ("when was its youngest member born?")
        subjects = [f.name for f in members]
    else:
        subjects = [*artists.values(), *songs.values()]
        subjects += [spelling for f in followed for spelling in _followed_spellings(state, f, config)[0]]
    cued = _cued(state, ANSWERING)
    relation = next(
        (
            BY_NAME[name]
            for name in ANSWERING
            if name in cued and any(state.answer(BY_NAME[name].routes[0], query=s)[0] for s in subjects)
        ),
        None,
    )
    if (
        relation is not None
        and relation.name == "grammy_years"
        and not intent.time.spans
        and not intent.asks("award_years")
    ):
        relation = BY_NAME["grammy_count"]  # neither the years nor a span asked: the award count
    if relation is None:
        return None
    return _relation_table(state, relation, subjects)


def _relation_table(state: QuestionState, relation: Relation, subjects: list[str]) -> FactTable | None:
    intent = state.reading
    route = relation.routes[0]
    rows: list[Fact] = []
    label = relation.label
    compared = len(subjects) > 1
    for subject in dict.fromkeys(subjects):
        answered, value = state.answer(route, query=subject)
        if not answered or is_empty(value):
            continue
        if relation.name == "members":
            if intent.asks("at_present"):
                return None  # the KG lists every member a band ever had, not who is in it now
            rows += [Fact(subject, str(name)) for name in sorted(set(map(str, value)))]
        elif relation.name == "works" and isinstance(value, list):
            rows += [Fact(subject, str(work)) for work in dict.fromkeys(map(str, value))]
        elif relation.name == "grammy_years" and isinstance(value, list):
            years = sorted(y for y in value if isinstance(y, int))
            spans = intent.time.spans
            up_to = intent.asks("up_to")
            if spans and up_to:
                years = [y for y in years if y <= spans[0].end.year]
            elif spans:
                years = [y for y in years if any(y in span.years for span in spans)]
            label = relation.label + (f" up to {spans[0].end.year}" if spans and up_to else "")
            if intent.asks("count") and not years:
                return FactTable(label, [Fact(subject, 0.0)], relation=relation.name, value="number")
            rows += [Fact(subject, str(y)) for y in years]
        elif relation.name == "lifespan" and isinstance(value, list) and len(value) == 2:
            start, end = (parse_day(f"{v}-01-01" if isinstance(v, str) and len(v) == 4 else v) for v in value)
            if start is None:
                continue
            if intent.asks("career"):
                until = end or state.today
                if until is not None:
                    rows.append(Fact(subject, float(until.year - start.year)))
                    label = "years active (from the start of the lifespan to its end, or to today)"
            elif intent.asks("death"):
                if value[1]:
                    rows.append(Fact(subject, str(value[1])))
                    label = "end of the lifespan (death, or the end of a band)"
            else:
                rows.append(Fact(subject, f"{value[0]} to {value[1] or 'now'}"))
        elif isinstance(value, str):
            # a bare year ("1962", a band's founding) compares as its first day
            day = (
                parse_day(f"{value}-01-01" if len(value) == 4 else value)
                if compared and relation.value == "date"
                else None
            )
            rows.append(Fact(subject, day or (country_name(value) if relation.value == "place" else value)))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            rows.append(Fact(subject, float(value)))
    return table_of(relation, FactTable(label, rows)) if rows else None


def _history_table(state: QuestionState, artists: list[str], songs: list[str]) -> FactTable | None:
    """The songs at the asked rank of each asked artist (or song): several artists are compared by
    their own songs, not by the songs of all of them."""
    rank = state.entities.rank
    answered, result = state.answer(RANK_DATE, rank=rank)
    if not answered:
        return None
    chosen = _history_pairs(_pairs(result), artists, songs)
    return FactTable(
        f"songs at rank {rank} of the Billboard Hot 100",
        list(dict.fromkeys(Fact(owner, song) for (song, _), owner in chosen)),
        relation="chart_entry",
        value="name",
    )


def _chart_table(state: QuestionState, songs: dict[str, str]) -> FactTable | None:
    """A chart week's entry at the asked rank (its act when the question asks who, else the song), or
    a song's figure on that chart (its rank, peak, weeks)."""
    intent = state.reading
    chart, _ = chart_date(state, _reference_day(state))
    if chart is None:
        return None
    rank = state.entities.rank or (0 if songs else 1)
    if intent.asks("change") or intent.asks("debut"):
        return None  # a move on the chart or a debut: the facts' own lines state it
    if rank and not songs:
        weeks = _weeks_shown(state, chart, "")
        when = weeks[-1][0] if len(weeks) == 1 else chart
        _, result = state.answer(RANK_DATE, rank=rank, date=when.isoformat())
        act = intent.asks("act_asked") and not intent.asks("song_asked")
        pairs = _pairs(result)
        return (
            FactTable(
                f"{'act' if act else 'song'} at rank {rank} on the chart of {when.isoformat()}",
                [Fact(f"rank {rank}", artist if act else song, when) for song, artist in pairs],
                relation="chart_entry",
                value="name",
            )
            if pairs
            else None
        )
    rows = []
    attribute = next((a for a in _chart_attributes(state) if a != "rank"), "rank")
    for spelling in songs.values():
        answered, value = state.answer(
            CHART_ATTRIBUTES, date=chart.isoformat(), attribute=attribute, song_name=spelling
        )
        if answered and value not in (None, "-"):
            try:
                rows.append(Fact(spelling, float(str(value)), chart))
            except ValueError:
                continue
    label = CHART_LABELS.get(attribute, "rank")
    return (
        FactTable(
            f"{label} on the chart of {chart.isoformat()}", rows, relation="chart_entry", value="number"
        )
        if rows
        else None
    )


def _released_table(state: QuestionState, config: KGConfig) -> FactTable | None:
    spans = _released_in(state)
    works = _dated_works(state, config)
    rows = []
    for work in works:
        _, day = state.answer("music_get_song_release_date", query=work)
        parsed = parse_day(day) if isinstance(day, str) else None
        if parsed is not None and any(span.contains(parsed) for span in spans):
            rows.append(Fact(", ".join(state.entities.artists) or "the artist", work))
    return (
        FactTable(
            f"works released in {', '.join(span.label for span in spans)}",
            rows,
            relation="works",
            value="name",
        )
        if works
        else None
    )


MUSIC_DOMAIN = Domain("music", MUSIC, applies, plan, render, facts, settle_kinds=settle_kinds)
