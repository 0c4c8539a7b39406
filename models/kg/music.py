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

import re
from dataclasses import dataclass
from datetime import date, timedelta

from models.config import KGConfig
from models.kg.formatting import country_name, dated, is_empty, number, parse_day, plain
from models.kg.matching import loose_key
from models.kg.answer import Fact, FactTable
from models.kg.routes import ApiCall
from models.kg.state import Evidence, PlanContext, QuestionState
from models.kg.timeparse import DateSpan
from models import vocabulary

from models.vocabulary import asked

COUNT_ASKED = re.compile(vocabulary.COUNT_ASKED)

ARTIST_SEARCH, SONG_SEARCH = "music_search_artist_entity_by_name", "music_search_song_entity_by_name"
ARTIST_TOPICS = [
    (rf"{vocabulary.BIRTH_PLACE}|origin|from where", ["music_get_artist_birth_place"]),
    (r"\bborn\b|birth|\bages?\b|how old|\bold(?:er|est)?\b|young(?:er|est)?|founded|formed|\bstart(?:ed)?\b",
     ["music_get_artist_birth_date"]),
    (vocabulary.MEMBERS_ASKED + r"|drummer|guitarist|bassist|vocalist|(?:who|lead) (?:is the )?singer", ["music_get_members"]),
    (rf"{vocabulary.LIFESPAN}|split|active|career", ["music_get_lifespan"]),
    (r"grammy|award", ["music_grammy_get_award_count_by_artist", "music_grammy_get_award_date_by_artist"]),
    (r"album|songs?\b|single|works?\b|discograph|record|track|releas", ["music_get_artist_all_works"]),
]
ARTIST_DEFAULT = ["music_get_artist_birth_date", "music_get_artist_birth_place", "music_get_artist_all_works"]
DATE_WORDS = re.compile(vocabulary.ARTIST_DATE_WORDS)
SONG_TOPICS = [
    (r"wr[io]te|writ|author|compos|penned|who (?:sang|sings|performed|is the artist)|by whom|whose", ["music_get_song_author"]),
    (r"releas|come out|came out|how old", ["music_get_song_release_date"]),
    (r"country|where .*(?:from|releas|record)", ["music_get_song_release_country"]),
    (r"grammy|award", ["music_grammy_get_award_count_by_song"]),
]
# Looser words that ask for a song's date or country only outside chart questions: there "when did X
# debut" and "where does X rank" ask about the chart.
SONG_TOPICS_OFF_CHART = [
    (r"when|year|date|debut", ["music_get_song_release_date"]),
    (r"where", ["music_get_song_release_country"]),
]
SONG_DEFAULT = ["music_get_song_author", "music_get_song_release_date"]
FACT_LABELS = {
    "music_get_artist_birth_place": "birth place (country code)",
    "music_get_artist_birth_date": "birth date (founding date for a band)",
    "music_get_members": "members",
    "music_get_lifespan": "lifespan [start, end]",
    "music_get_song_author": "author",
    "music_get_song_release_country": "release country (country code)",
    "music_get_song_release_date": "release date",
    "music_get_artist_all_works": "works",
    "music_grammy_get_award_count_by_artist": "Grammy award count",
    "music_grammy_get_award_count_by_song": "Grammy award count",
    "music_grammy_get_award_date_by_artist": "years with a Grammy award",
}
CHART_ATTRIBUTES = [
    (rf"{vocabulary.PREVIOUS_WEEK}|{vocabulary.CHANGE}", "rank_last_week", "rank on the previous week's chart"),
    (rf"how many weeks|weeks (?:on|in)|how long|{vocabulary.DEBUT}", "weeks_in_chart", "weeks on the chart"),
    (r"peak|highest|top position|best position|best rank", "top_position", "peak position"),
]
GRAMMY_YEAR_ROUTES = [
    (r"best new artist", "music_grammy_get_best_artist_by_year", "Best New Artist"),
    (r"song of the year", "music_grammy_get_best_song_by_year", "Song of the Year"),
    (r"album of the year", "music_grammy_get_best_album_by_year", "Album of the Year"),
]
FIRST_GRAMMY_YEAR, LAST_GRAMMY_YEAR = 1957, 2019
# What a question may ask about an artist or a song that an earlier answer named (a Grammy winner, a
# chart entry): the routes of those relations only, so that the words naming the award or the chart
# ("song of the year", "number one song") do not ask for anything.
FOLLOWUP_ARTIST_ROUTES = {
    "music_get_artist_birth_place": vocabulary.BIRTH_PLACE,
    "music_get_artist_birth_date": rf"{vocabulary.BIRTH_DATE}|founded|formed|debut(?:ed)? year|\bbegan\b|\bstart(?:ed)? out\b",
    "music_get_members": vocabulary.MEMBERS_ASKED,
    "music_get_lifespan": vocabulary.LIFESPAN,
    "music_get_artist_all_works": r"\bsongs\b|discograph|albums|works|\bhits\b|\bsingles\b|\btracks\b",
}
GRAMMY_AWARD_NAMES = re.compile(vocabulary.GRAMMY_AWARD_NAMES)
FOLLOWUP_SONG_ROUTES = {
    "music_get_song_author": r"wr[io]te|writ|author|compos|penned",
    "music_get_song_release_date": r"releas|come out|came out|how old",
    "music_get_song_release_country": r"country|where",
}
# Words naming the act rather than the song: "the artist of this week's number one song" follows the
# chart entry to its artist only, although "country" would ask a song's release country too.
ARTIST_NOUNS = re.compile(vocabulary.ARTIST_NOUNS)
# A band's members asked about as people ("when was the youngest member of X born?"): the members are
# looked up as artists, and the band's own dates (its founding, not a birth) stay out. Words about the
# band itself ("when was X formed and who are its members?") keep the question on the band.
MEMBER_WORDS = re.compile(vocabulary.MEMBERS_ASKED)
BAND_FACTS = re.compile(vocabulary.BAND_FACTS)
MEMBER_FACTS = {
    "music_get_artist_birth_place": vocabulary.BIRTH_PLACE,
    "music_get_artist_birth_date": rf"{vocabulary.BIRTH_DATE}|oldest|youngest|eldest|older|younger",
    "music_get_lifespan": vocabulary.DEATH,
}
BILLBOARD_WORDS = re.compile(vocabulary.BILLBOARD_WORDS)
CHART_MOVES = re.compile(vocabulary.CHART_MOVES)
SATURDAY = 5
PUBLISHED_ON = 1  # Tuesday: a chart comes out four days before the Saturday it is dated
PREVIOUS_WEEK = re.compile(vocabulary.PREVIOUS_WEEK)
CHANGE = re.compile(vocabulary.CHANGE)
THIS_WEEK = re.compile(vocabulary.THIS_WEEK)
RELEASED = re.compile(vocabulary.RELEASED)
WORK_NOUNS = re.compile(vocabulary.WORK_NOUNS)


ARTIST_SIGNAL = re.compile(vocabulary.ARTIST_SIGNAL)
SONG_SIGNAL = re.compile(vocabulary.SONG_SIGNAL)


def applies(state: QuestionState) -> bool:
    return state.domain == "music" or bool(state.entities.artists or state.entities.songs)


def settle_kinds(state: QuestionState) -> None:
    state.keep_asked_kind(("artists", "songs"), (ARTIST_SIGNAL, SONG_SIGNAL))


def _topics(text: str, table: list[tuple[str, list[str]]], default: list[str]) -> list[str]:
    routes = [route for pattern, routes in table if re.search(pattern, text) for route in routes]
    return list(dict.fromkeys(routes)) or default


def _billboard(state: QuestionState) -> bool:
    """A chart question: chart words, or a song whose move up or down the question asks about."""
    return bool(BILLBOARD_WORDS.search(state.lowered) or (state.entities.songs and CHART_MOVES.search(state.wording)))


def _reference_day(state: QuestionState) -> date | None:
    """The day whose chart the question asks about: its time phrase (capped at the question's day)."""
    today = state.today
    for span in state.spans():
        if PREVIOUS_WEEK.search(span.phrase):
            continue  # the current chart answers it: its last-week column, and the week before is shown too
        return min(span.end, today) if today else span.end
    return today


def _chart_candidates(day: date) -> list[date]:
    """Chart dates to probe for the chart in force on `day`: the latest Saturday whose chart was
    published by then (on the Tuesday before it), the Saturday before, then the other days of the week."""
    ahead = (SATURDAY - day.weekday()) % 7
    saturday = day + timedelta(days=ahead) if PUBLISHED_ON <= day.weekday() <= SATURDAY else day - timedelta(days=(day.weekday() - SATURDAY) % 7)
    others = [day - timedelta(days=i) for i in range(7) if (day - timedelta(days=i)) != saturday]
    return [saturday, saturday - timedelta(days=7), *others]


def _probe_rank(state: QuestionState) -> int:
    """The rank a chart date is probed with: the asked one, whose entry the probe then answers, else 1."""
    return state.entities.rank or 1


def _asks_previous_week(state: QuestionState) -> bool:
    """The week before the chart is needed: asked for ("last week") or compared with ("dropped")."""
    return bool(PREVIOUS_WEEK.search(state.lowered) or CHANGE.search(state.wording))


def chart_date(state: QuestionState, day: date | None) -> tuple[date | None, list[ApiCall]]:
    """(the confirmed chart date in force on `day`, the probe still needed)."""
    if day is None:
        return None, []
    rank = _probe_rank(state)
    probes = [ApiCall("music_get_billboard_rank_date", {"rank": rank, "date": d.isoformat()}) for d in _chart_candidates(day)]
    for position, (candidate, probe) in enumerate(zip(_chart_candidates(day), probes)):
        if not state.done(probe.route, **probe.body):
            # the two Saturdays one at a time; then the other days of the week all at once
            return None, [probe] if position < 2 else [p for p in probes[position:] if not state.done(p.route, **p.body)]
        _, result = state.answer(probe.route, **probe.body)
        if not is_empty(result):
            return candidate, []
    return None, []


def _grammy_years(state: QuestionState) -> list[int]:
    """The years the question names (every year of a range: "from 2016 to 2018" is three)."""
    years = [year for span in state.spans() if span.granularity in ("year", "years", "day", "month") for year in span.years]
    return [y for y in dict.fromkeys(years) if FIRST_GRAMMY_YEAR <= y <= LAST_GRAMMY_YEAR]


def _chart_history(state: QuestionState) -> bool:
    """A rank asked about over more than a week ("the number one songs of 2016"), or over all time for
    an artist or a song ("how many number one hits did X have?"): its whole history is read."""
    if not (state.entities.rank and _billboard(state)):
        return False
    spans = state.spans()
    if spans:
        return all(span.granularity in ("month", "year", "years", "season", "range") for span in spans)
    return bool(state.entities.artists or state.entities.songs) and state.asks_for_rows


def _spellings(state: QuestionState, search_route: str, names: list[str], config: KGConfig) -> tuple[dict[str, str], list[ApiCall]]:
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
    for route, names, other in ((ARTIST_SEARCH, state.entities.artists, state.entities.songs),
                                (SONG_SEARCH, state.entities.songs, state.entities.artists)):
        for name in list(names):
            if name not in other and state.absent(route, name, config.min_name_similarity):
                other.append(name)


def _member_routes(state: QuestionState) -> list[str]:
    """The facts asked of a band's members as people ([] when the question is not about them)."""
    text = state.wording
    if not MEMBER_WORDS.search(text) or BAND_FACTS.search(text):
        return []
    return asked(text, MEMBER_FACTS)


@dataclass
class Followed:
    """A name an earlier answer returned, looked up in turn: its kind ("artist", "song", or "member",
    a band member looked up as an artist), the name, and how it was reached."""

    kind: str
    name: str
    reached: str


def _followups(state: QuestionState, config: KGConfig) -> list[Followed]:
    """Names earlier answers returned (Grammy winners of a year, the entry at the asked chart rank, a
    band's members) whose facts the question's relation needs."""
    text = GRAMMY_AWARD_NAMES.sub(" ", state.wording)
    artist_routes, song_routes = asked(text, FOLLOWUP_ARTIST_ROUTES), asked(text, FOLLOWUP_SONG_ROUTES)
    if _member_routes(state):
        artist_routes = ["music_get_members"]
    found: list[Followed] = []
    for route, kind, label in (("music_grammy_get_best_artist_by_year", "artist", "Best New Artist"),
                               ("music_grammy_get_best_song_by_year", "song", "Song of the Year")):
        if (artist_routes if kind == "artist" else song_routes):
            for result in state.answered(route):
                winners = result.result if isinstance(result.result, list) else []
                found += [Followed(kind, w, f"the Grammy {label} of {result.call.body['query']}") for w in winners if isinstance(w, str)]
    rank = state.entities.rank
    chart, _ = chart_date(state, _reference_day(state)) if rank and _billboard(state) else (None, [])
    if chart:
        _, result = state.answer("music_get_billboard_rank_date", rank=rank, date=chart.isoformat())
        # the act when the question names it ("the singer of the number one song"), else the song
        follow_artist = bool(artist_routes) and (bool(ARTIST_NOUNS.search(text)) or not song_routes)
        for song, artist in _pairs(result):
            where = f"rank {rank} on the Billboard Hot 100 of {dated(chart)}"
            if follow_artist:
                found.append(Followed("artist", artist, f"the artist at {where}"))
            elif song_routes:
                found.append(Followed("song", song, f"the song at {where}"))
    if _member_routes(state):
        bands = list(_spellings(state, ARTIST_SEARCH, state.entities.artists, config)[0].values())
        bands += [spelling for f in found if f.kind == "artist"
                  for spelling in _spellings(state, ARTIST_SEARCH, [f.name], config)[0].values()]
        for band in dict.fromkeys(bands):
            _, members = state.answer("music_get_members", query=band)
            # the KG's own spellings, sorted: the official order is a set's
            names = sorted({m for m in members if isinstance(m, str) and m}) if isinstance(members, list) else []
            found += [Followed("member", name, f"a member of {band}") for name in names[: config.max_followup_ids]]
    return found


def _followed_spellings(state: QuestionState, followed: Followed, config: KGConfig) -> tuple[list[str], list[ApiCall]]:
    """(the KG's spellings of a followed name, the search still needed). A member's name is the
    artist table's own spelling already; Grammy winners and chart entries are searched."""
    if followed.kind == "member":
        return [followed.name], []
    route = ARTIST_SEARCH if followed.kind == "artist" else SONG_SEARCH
    spellings, searches = _spellings(state, route, [followed.name], config)
    return list(spellings.values()), searches


def _followup_routes(state: QuestionState, followed: Followed) -> list[str]:
    text = GRAMMY_AWARD_NAMES.sub(" ", state.wording)
    if followed.kind == "member":
        return _member_routes(state)
    if followed.kind == "artist":
        return ["music_get_members"] if _member_routes(state) else asked(text, FOLLOWUP_ARTIST_ROUTES)
    return asked(text, FOLLOWUP_SONG_ROUTES)


def _followup_calls(state: QuestionState, config: KGConfig) -> list[ApiCall]:
    calls = []
    for followed in _followups(state, config):
        spellings, searches = _followed_spellings(state, followed, config)
        calls += searches
        calls += [ApiCall(route, {"query": spelling}) for spelling in spellings for route in _followup_routes(state, followed)]
    return calls


def _artist_topics(text: str) -> list[str]:
    routes = _topics(text, ARTIST_TOPICS, [])
    if "music_get_artist_birth_place" in routes and not DATE_WORDS.search(text):
        routes = [route for route in routes if route != "music_get_artist_birth_date"]
    return routes or ARTIST_DEFAULT


def plan(state: QuestionState, context: PlanContext) -> list[ApiCall]:
    # the wording with the names blanked: "Old Dominion" or "Texas Hold 'Em" ask for no birth date
    config, text = context.config, state.wording
    _try_other_kind_on_a_miss(state, config)
    artists, calls = _spellings(state, ARTIST_SEARCH, state.entities.artists, config)
    songs, song_searches = _spellings(state, SONG_SEARCH, state.entities.songs, config)
    calls += song_searches
    billboard = _billboard(state)
    history = _chart_history(state)
    chart, probes = chart_date(state, _reference_day(state)) if billboard and not history else (None, [])
    calls += probes
    if history:
        calls.append(ApiCall("music_get_billboard_rank_date", {"rank": state.entities.rank}))
    if billboard and state.entities.rank and chart and _asks_previous_week(state):
        calls.append(ApiCall("music_get_billboard_rank_date", {"rank": state.entities.rank, "date": (chart - timedelta(days=7)).isoformat()}))
    artist_routes = ["music_get_members"] if _member_routes(state) else [] if history else _artist_topics(text)
    for spelling in artists.values():
        calls += [ApiCall(route, {"query": spelling}) for route in artist_routes]
    calls += [ApiCall("music_get_song_release_date", {"query": work}) for work in _dated_works(state, config)]
    song_routes = _topics(text, SONG_TOPICS + ([] if billboard else SONG_TOPICS_OFF_CHART), [] if billboard else SONG_DEFAULT)
    for spelling in songs.values():
        calls += [ApiCall(route, {"query": spelling}) for route in song_routes]
        if billboard and chart:
            calls += [ApiCall("music_get_billboard_attributes", {"date": chart.isoformat(), "attribute": a, "song_name": spelling})
                      for a in _chart_attributes(state.wording)]
            debut = _debut_date(state, chart, spelling)
            if debut:
                calls.append(ApiCall("music_get_billboard_attributes", {"date": debut.isoformat(), "attribute": "rank", "song_name": spelling}))
    if "grammy" in text or any(re.search(p, text) for p, _, _ in GRAMMY_YEAR_ROUTES):
        named = [route for pattern, route, _ in GRAMMY_YEAR_ROUTES if re.search(pattern, text)]
        if not named and not (artists or songs):
            named = [route for _, route, _ in GRAMMY_YEAR_ROUTES]
        years = _grammy_years(state)
        calls += [ApiCall(route, {"query": year}) for route in named for year in years]
        if "best new artist" in text and not years and not artists:
            calls.append(ApiCall("music_grammy_get_all_awarded_artists", {}))
    return calls + _followup_calls(state, config)


def _released_in(state: QuestionState) -> list[DateSpan]:
    """The spans an artist's songs are asked about by their release ("what songs did X put out in
    2001?"): then each work's release date is looked up."""
    if not (state.entities.artists and RELEASED.search(state.wording) and WORK_NOUNS.search(state.wording)):
        return []
    return [span for span in state.spans() if span.granularity != "day"]


def _dated_works(state: QuestionState, config: KGConfig) -> list[str]:
    """The works of the named artists whose release dates answer a question about their songs of a
    span: all of them, or none when they are more than one question's calls can date."""
    if not _released_in(state):
        return []
    works: list[str] = []
    for spelling in _spellings(state, ARTIST_SEARCH, state.entities.artists, config)[0].values():
        answered, found = state.answer("music_get_artist_all_works", query=spelling)
        works += [w for w in found if isinstance(w, str)] if answered and isinstance(found, list) else []
    works = list(dict.fromkeys(works))
    return works if len(works) <= config.max_calls_per_question else []


def _debut_date(state: QuestionState, chart: date, song: str) -> date | None:
    """The chart a song entered on, for a debut question: N weeks on the chart of `chart` put its
    first week N - 1 weeks earlier (weeks off the chart in between would shift it; the rank asked
    for that date then comes back null and says so)."""
    if not re.search(vocabulary.DEBUT, state.lowered):
        return None
    _, weeks = state.answer("music_get_billboard_attributes", date=chart.isoformat(), attribute="weeks_in_chart", song_name=song)
    try:
        count = int(str(weeks))
    except ValueError:
        return None
    return chart - timedelta(weeks=count - 1) if count > 0 else None


def _chart_attributes(text: str) -> list[str]:
    asked = [attribute for pattern, attribute, _ in CHART_ATTRIBUTES if re.search(pattern, text)]
    return list(dict.fromkeys(asked + ["rank"]))


# --- rendering --------------------------------------------------------------------------------------


def render(state: QuestionState, context: PlanContext) -> Evidence:
    config = context.config
    evidence = Evidence()
    artists, _ = _spellings(state, ARTIST_SEARCH, state.entities.artists, config)
    songs, _ = _spellings(state, SONG_SEARCH, state.entities.songs, config)
    for kind, route, names in (("artist", ARTIST_SEARCH, state.entities.artists), ("song", SONG_SEARCH, state.entities.songs)):
        for name in names:
            if state.absent(route, name, config.min_name_similarity) and name not in {**artists, **songs}:
                evidence.miss(name, f"No {kind} named {name!r} in the music KG")
    for spelling in [*artists.values(), *songs.values()]:
        lines = _fact_lines(state, spelling, config)
        if lines:
            evidence.add("\n".join(lines), found=any(not line.endswith(": none") for line in lines))
    if _chart_history(state):
        evidence.add(_render_history(state, [*artists.values(), *state.entities.artists], [*songs.values(), *state.entities.songs]))
    elif _billboard(state):
        evidence.extend(_render_billboard(state, songs, config))
    evidence.add(_render_dated_works(state, config))
    evidence.extend(_render_grammy_years(state, config))
    for followed in _followups(state, config):
        for spelling in _followed_spellings(state, followed, config)[0]:
            lines = _fact_lines(state, spelling, config)
            if lines:
                evidence.add("\n".join([f"{spelling}, {followed.reached}:", *lines]),
                             found=any(not line.endswith(": none") for line in lines))
    return evidence


def _fact_lines(state: QuestionState, spelling: str, config: KGConfig) -> list[str]:
    """The facts of `spelling`; a band's members, asked about as its current ones, said to be all it
    ever had (the KG does not mark who left)."""
    lines = []
    for r in state.results.values():
        if r.ok and r.call.body.get("query") == spelling and r.call.route in FACT_LABELS:
            line = _fact_line(spelling, r.call.route, r.result, config)
            if r.call.route == "music_get_members" and CURRENT.search(state.wording) and not is_empty(r.result):
                line += " (every member the band ever had: the KG does not say who left)"
            lines.append(line)
    return lines


def _fact_line(subject: str, route: str, value: object, config: KGConfig) -> str:
    label = FACT_LABELS[route]
    if is_empty(value) and route != "music_grammy_get_award_date_by_artist":
        return f"{subject} / {label}: none"
    if route == "music_get_lifespan" and isinstance(value, list) and len(value) == 2:
        start, end = value
        return f"{subject} / lifespan: start {start or 'unknown'}, end {end or 'none recorded (still active or living)'}"
    if route == "music_grammy_get_award_date_by_artist" and isinstance(value, list):
        years = sorted(v for v in value if isinstance(v, int))
        return f"{subject} / {label}: {', '.join(str(y) for y in years) or 'none'} ({len(years)} years)"
    if route in COUNTRY_ROUTES and isinstance(value, str):
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
    those of the asked artists or songs when the question names any, each with its weeks there."""
    rank = state.entities.rank
    answered, result = state.answer("music_get_billboard_rank_date", rank=rank)
    if not answered:
        return ""
    pairs = _pairs(result)
    keys = {loose_key(name) for name in artists}
    chosen = [(song, artist) for song, artist in pairs
              if (not artists and not songs) or loose_key(song) in {loose_key(n) for n in songs}
              or any(key and key in loose_key(artist) for key in keys)]
    weeks: dict[tuple[str, str], int] = {}
    for pair in chosen:
        weeks[pair] = weeks.get(pair, 0) + 1
    whose = " or ".join(dict.fromkeys([*artists[:1], *songs[:1]])) or "every song"
    head = (f"Billboard Hot 100, every week at rank {rank} in the KG ({len(pairs)} weekly entries, undated), "
            f"those of {whose}: {len(weeks)} songs, {len(chosen)} weeks")
    return "\n".join([head, *(f"- {song} by {artist}: {count} week{'s' if count > 1 else ''} at rank {rank}"
                              for (song, artist), count in weeks.items())])


def _render_dated_works(state: QuestionState, config: KGConfig) -> str:
    """The named artists' works with their release dates, those of the asked spans first."""
    works = _dated_works(state, config)
    dates = {work: state.answer("music_get_song_release_date", query=work)[1] for work in works}
    dates = {work: day for work, day in dates.items() if isinstance(day, str) and day}
    if not dates:
        return ""
    spans = _released_in(state)
    inside = [work for work, day in dates.items() if (parsed := parse_day(day)) and any(span.contains(parsed) for span in spans)]
    where = ", ".join(span.label for span in spans)
    return "\n".join([f"Works released in {where} ({len(inside)} of the {len(dates)} dated): {', '.join(inside) or 'none'}",
                      "Release dates of the works: " + "; ".join(f"{work} {day}" for work, day in dates.items())])


def _render_billboard(state: QuestionState, songs: dict[str, str], config: KGConfig) -> Evidence:
    evidence = Evidence()
    day = _reference_day(state)
    chart, _ = chart_date(state, day)
    if day is not None and chart is None and all(
        state.done("music_get_billboard_rank_date", rank=_probe_rank(state), date=d.isoformat()) for d in _chart_candidates(day)
    ):
        evidence.add(f"No Billboard Hot 100 chart in the KG for the week of {dated(day)}", found=False)
    if chart is None:
        return evidence
    in_force = f"the chart in force on {dated(day)}" if day and day != chart else "chart date"
    rank = state.entities.rank
    # the asked rank; with none, the top of the chart unless the question is about a song of its own
    shown_rank = rank or (0 if songs else 1)
    for when, label in _weeks_shown(state, chart, in_force) if shown_rank else []:
        answered, result = state.answer("music_get_billboard_rank_date", rank=shown_rank, date=when.isoformat())
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
        for pattern_attribute in _chart_attributes(state.wording):
            answered, value = state.answer(
                "music_get_billboard_attributes", date=chart.isoformat(), attribute=pattern_attribute, song_name=spelling
            )
            if not answered:
                continue
            label = next((text for _, a, text in CHART_ATTRIBUTES if a == pattern_attribute), "rank")
            if value is None:
                lines.append(f"{spelling} is not on the Billboard Hot 100 of {dated(chart)} ({in_force})")
                off_chart = True
                break
            shown = "new on the chart (no previous week)" if value == "-" else str(value)
            lines.append(f"{spelling} / Billboard Hot 100 {label} on the chart of {dated(chart)} ({in_force}): {shown}")
        lines += _change_line(state, chart, spelling)
        debut = _debut_date(state, chart, spelling)
        if debut:
            answered, value = state.answer("music_get_billboard_attributes", date=debut.isoformat(), attribute="rank", song_name=spelling)
            if answered:
                lines.append(f"{spelling} entered the Billboard Hot 100 on the chart of {dated(debut)} at rank {value}"
                             if value is not None else f"{spelling} is not on the chart of {dated(debut)}: its debut week is unknown")
        if lines:
            evidence.add("\n".join(dict.fromkeys(lines)), contradicts=off_chart)
    return evidence


def _weeks_shown(state: QuestionState, chart: date, in_force: str) -> list[tuple[date, str]]:
    """The charts whose entry at the asked rank is shown: this week's, the week before's when asked
    or compared, and only the week before's when the question asks about it alone."""
    this, before = (chart, in_force), (chart - timedelta(days=7), "the week before")
    if not _asks_previous_week(state):
        return [this]
    if PREVIOUS_WEEK.search(state.lowered) and not (CHANGE.search(state.wording) or THIS_WEEK.search(state.lowered)):
        return [before]
    return [this, before]


def _change_line(state: QuestionState, chart: date, song: str) -> list[str]:
    """The move between last week's chart and this one, when both ranks came back."""
    ranks = [state.answer("music_get_billboard_attributes", date=chart.isoformat(), attribute=a, song_name=song)[1]
             for a in ("rank", "rank_last_week")]
    if ranks[1] == "-":
        return [f"{song} is new on the chart of {dated(chart)}: no rank the week before to compare"]
    try:
        now, before = (int(str(r)) for r in ranks)
    except ValueError:
        return []
    move = "no change" if now == before else f"{'up' if now < before else 'down'} {abs(now - before)} places"
    return [f"{song} moved from rank {before} (the week before) to rank {now} on the chart of {dated(chart)}: {move}"]


def _render_grammy_years(state: QuestionState, config: KGConfig) -> Evidence:
    evidence = Evidence()
    for _, route, label in GRAMMY_YEAR_ROUTES:
        for result in state.answered(route):
            year = result.call.body["query"]
            winners = result.result if isinstance(result.result, list) else []
            evidence.add(f"Grammy {label} {year} (KG): {plain(winners, config) if winners else 'none recorded'}", found=bool(winners))
    for result in state.answered("music_grammy_get_all_awarded_artists"):
        if isinstance(result.result, list) and result.result:
            evidence.add(f"All Grammy Best New Artist winners (KG, {len(result.result)}): {plain(result.result, config)}")
    for year in [span.start.year for span in state.spans() if span.granularity == "year"]:
        if "grammy" in state.lowered and not FIRST_GRAMMY_YEAR <= year <= LAST_GRAMMY_YEAR:
            evidence.add(f"The Grammy KG covers only {FIRST_GRAMMY_YEAR}-{LAST_GRAMMY_YEAR}; nothing for {year}", found=False)
    return evidence


# --- the asked attribute's rows, for the computed answer (models/kg/answer.py) ------------------------

AWARD_YEARS = re.compile(vocabulary.AWARD_YEARS)
UP_TO = re.compile(vocabulary.UP_TO)
CAREER = re.compile(vocabulary.CAREER)
CURRENT = re.compile(vocabulary.AT_PRESENT)
ACT_ASKED = re.compile(vocabulary.ACT_ASKED)
SONG_ASKED = re.compile(vocabulary.SONG_ASKED)
DEATH = re.compile(vocabulary.DEATH)
COUNTRY_ROUTES = ("music_get_artist_birth_place", "music_get_song_release_country")
# The route whose answers a question asks about, by its words, most specific first.
ASKED_ROUTES = [
    (vocabulary.MEMBERS_ASKED, "music_get_members"),
    (r"grammy|award", "music_grammy_get_award_date_by_artist"),
    (vocabulary.LIFESPAN + r"|\bcareer\b|\bactive\b", "music_get_lifespan"),
    (vocabulary.BIRTH_PLACE + r"|\borigin", "music_get_artist_birth_place"),
    (vocabulary.BIRTH_DATE + r"|\bborn\b|founded|formed|\bstart\w*|\bbegan\b|birth year|\b(?:old|young)(?:er|est)\b",
     "music_get_artist_birth_date"),
    (r"\b(?:songs|albums|works|singles|tracks|discography)\b", "music_get_artist_all_works"),
    (r"wr[io]te|writ|author|compos|penned", "music_get_song_author"),
    (r"releas|come out|came out|recent", "music_get_song_release_date"),
    (r"country|where", "music_get_song_release_country"),
]


def asked_table(state: QuestionState, context: PlanContext) -> FactTable | None:
    """The rows of what the question asks about its artists and songs: the songs at the asked chart
    rank (a week's entry, or an artist's over all weeks), a song's chart figure, a year's Grammy
    winners, the works released in the asked span, else the facts of the route its words ask for,
    of the names it writes or that an earlier answer named (a Grammy winner, a chart entry)."""
    config, text = context.config, state.wording
    artists, _ = _spellings(state, ARTIST_SEARCH, state.entities.artists, config)
    songs, _ = _spellings(state, SONG_SEARCH, state.entities.songs, config)
    followed = _followups(state, config)
    if _chart_history(state):
        return _history_table(state, [*artists.values(), *state.entities.artists], [*songs.values(), *state.entities.songs])
    if _billboard(state) and not followed:
        return _chart_table(state, songs)
    if not followed and not artists and not songs:
        # a song's or an album's award names the work: a question about its act ("the singer of the song
        # that won ...") is not answered by it
        act_asked = bool(ARTIST_NOUNS.search(GRAMMY_AWARD_NAMES.sub(" ", text)))
        winners = [Fact(f"Grammy {label} {r.call.body['query']}", w) for _, route, label in GRAMMY_YEAR_ROUTES
                   if not act_asked or route == "music_grammy_get_best_artist_by_year"
                   for r in state.answered(route) if isinstance(r.result, list) for w in r.result if isinstance(w, str)]
        return FactTable("Grammy winners of the asked years", winners) if winners else None
    if _released_in(state):
        return _released_table(state, config)
    members = [f for f in followed if f.kind == "member"]
    if members:  # the members of a band, asked about as people ("when was its youngest member born?")
        subjects = [f.name for f in members]
    else:
        subjects = [*artists.values(), *songs.values()]
        subjects += [spelling for f in followed for spelling in _followed_spellings(state, f, config)[0]]
    route = next((r for pattern, r in ASKED_ROUTES if re.search(pattern, GRAMMY_AWARD_NAMES.sub(" ", text))
                  and any(state.answer(r, query=s)[0] for s in subjects)), None)
    if route == "music_grammy_get_award_date_by_artist" and not state.spans() and not AWARD_YEARS.search(text):
        route = "music_grammy_get_award_count_by_artist"  # neither the years nor a span asked: the award count
    if route is None:
        return None
    return _route_table(state, route, subjects, text)


def _route_table(state: QuestionState, route: str, subjects: list[str], text: str) -> FactTable | None:
    facts: list[Fact] = []
    label = FACT_LABELS[route]
    compared = len(subjects) > 1
    for subject in dict.fromkeys(subjects):
        answered, value = state.answer(route, query=subject)
        if not answered or is_empty(value):
            continue
        if route == "music_get_members":
            if CURRENT.search(text):
                return None  # the KG lists every member a band ever had, not who is in it now
            facts += [Fact(subject, str(name)) for name in sorted(set(map(str, value)))]
        elif route == "music_get_artist_all_works" and isinstance(value, list):
            facts += [Fact(subject, str(work)) for work in dict.fromkeys(map(str, value))]
        elif route == "music_grammy_get_award_date_by_artist" and isinstance(value, list):
            years = sorted(y for y in value if isinstance(y, int))
            spans = state.spans()
            if spans and UP_TO.search(text):
                years = [y for y in years if y <= spans[0].end.year]
            elif spans:
                years = [y for y in years if any(y in span.years for span in spans)]
            label = "years with a Grammy award" + (f" up to {spans[0].end.year}" if spans and UP_TO.search(text) else "")
            if COUNT_ASKED.search(text) and not years:
                return FactTable(label, [Fact(subject, 0.0)])
            facts += [Fact(subject, str(y)) for y in years]
        elif route == "music_get_lifespan" and isinstance(value, list) and len(value) == 2:
            start, end = (parse_day(f"{v}-01-01" if isinstance(v, str) and len(v) == 4 else v) for v in value)
            if start is None:
                continue
            if CAREER.search(text):
                until = end or state.today
                if until is not None:
                    facts.append(Fact(subject, float(until.year - start.year)))
                    label = "years active (from the start of the lifespan to its end, or to today)"
            elif DEATH.search(text):
                if value[1]:
                    facts.append(Fact(subject, str(value[1])))
                    label = "end of the lifespan (death, or the end of a band)"
            else:
                facts.append(Fact(subject, f"{value[0]} to {value[1] or 'now'}"))
        elif isinstance(value, str):
            day = parse_day(value) if compared and route in ("music_get_artist_birth_date", "music_get_song_release_date") else None
            facts.append(Fact(subject, day or (country_name(value) if route in COUNTRY_ROUTES else value)))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            facts.append(Fact(subject, float(value)))
    return FactTable(label, facts) if facts else None


def _history_table(state: QuestionState, artists: list[str], songs: list[str]) -> FactTable | None:
    rank = state.entities.rank
    answered, result = state.answer("music_get_billboard_rank_date", rank=rank)
    if not answered:
        return None
    keys = {loose_key(name) for name in artists}
    chosen = [song for song, artist in _pairs(result)
              if (not artists and not songs) or loose_key(song) in {loose_key(n) for n in songs}
              or any(key and key in loose_key(artist) for key in keys)]
    whose = (artists or songs or ["every artist"])[0]
    return FactTable(f"songs at rank {rank} of the Billboard Hot 100", [Fact(whose, song) for song in dict.fromkeys(chosen)])


def _chart_table(state: QuestionState, songs: dict[str, str]) -> FactTable | None:
    """A chart week's entry at the asked rank (its act when the question asks who, else the song), or
    a song's figure on that chart (its rank, peak, weeks)."""
    chart, _ = chart_date(state, _reference_day(state))
    if chart is None:
        return None
    rank = state.entities.rank or (0 if songs else 1)
    if CHANGE.search(state.wording) or re.search(vocabulary.DEBUT, state.lowered):
        return None  # a move on the chart or a debut: the facts' own lines state it
    if rank and not songs:
        weeks = _weeks_shown(state, chart, "")
        when = weeks[-1][0] if len(weeks) == 1 else chart
        _, result = state.answer("music_get_billboard_rank_date", rank=rank, date=when.isoformat())
        act = bool(ACT_ASKED.search(state.wording)) and not SONG_ASKED.search(state.wording)
        pairs = _pairs(result)
        return FactTable(f"{'act' if act else 'song'} at rank {rank} on the chart of {when.isoformat()}",
                         [Fact(f"rank {rank}", artist if act else song, when) for song, artist in pairs]) if pairs else None
    facts = []
    attribute = next((a for a in _chart_attributes(state.wording) if a != "rank"), "rank")
    for spelling in songs.values():
        answered, value = state.answer("music_get_billboard_attributes", date=chart.isoformat(), attribute=attribute, song_name=spelling)
        if answered and value not in (None, "-"):
            try:
                facts.append(Fact(spelling, float(str(value)), chart))
            except ValueError:
                continue
    label = next((text for _, a, text in CHART_ATTRIBUTES if a == attribute), "rank")
    return FactTable(f"{label} on the chart of {chart.isoformat()}", facts) if facts else None


def _released_table(state: QuestionState, config: KGConfig) -> FactTable | None:
    spans = _released_in(state)
    works = _dated_works(state, config)
    facts = []
    for work in works:
        _, day = state.answer("music_get_song_release_date", query=work)
        parsed = parse_day(day) if isinstance(day, str) else None
        if parsed is not None and any(span.contains(parsed) for span in spans):
            facts.append(Fact(", ".join(state.entities.artists) or "the artist", work))
    return FactTable(f"works released in {', '.join(span.label for span in spans)}", facts) if works else None
