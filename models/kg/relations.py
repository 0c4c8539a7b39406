"""The relations the KG answers, declared as data: one table per domain.

An entry says what the relation is (its name, the label its facts and computed answers carry, a few
descriptions the sentence encoder matches a question against, cue words as a prior), whom it is about
(the kinds of subject it takes), where its facts come from (the API routes, and the field of their
answers), and what its values are (their kind and unit, whether a total over rows means something,
whether they change over time). The intent reader (models/kg/intent.py) picks a question's relations
from these tables; planning, rendering and the computed answer of each domain (models/kg/<domain>.py)
loop over the relations picked, and only true procedures (a chart's date, a team's games, a price
window, the link from one hop to the next) are code.

Table order is the order of specificity: an earlier relation's cue is read first, and a relation that
`consumes` its cue words leaves them to no later one ("the dividend yield" asks for no dividend
history, "price-to-earnings" for no prices, "best new artist" for no artist's facts). Cue patterns are
regular-expression sources matched on the lower-cased question with the names it asks about blanked
("_"); `hints` are words that fetch a relation's facts without asking it (its facts are shown, they
answer nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from models import vocabulary as v

# What a relation's values are, as the form of an answer: the intent reader holds an asked form
# against it (a date where a language is asked answers nothing).
ValueKind = Literal["number", "date", "year", "name", "text", "place", "language", "result"]


@dataclass(frozen=True)
class Relation:
    name: str
    label: str
    descriptions: tuple[str, ...]
    cues: str = ""
    hints: str = ""
    subjects: tuple[str, ...] = ()  # kinds of KGEntities it is about ("tickers", "artists", ...)
    routes: tuple[str, ...] = ()
    # the field of the routes' answers that holds its facts (a record key, a price column, a game row's
    # column; "|" between those of other routes; "" when the answer is the whole result)
    field: str = ""
    value: ValueKind = "text"
    unit: str = ""
    additive: bool = False  # a total over its rows means something (volumes, points, payments)
    # its one value is itself a total (a market value: every share's worth), so a total asked of one
    # subject is that value
    a_total: bool = False
    changes: bool = (
        False  # its facts change over time (a price, a band's line-up), or are fixed (a birth date)
    )
    consumes: bool = False
    weak: bool = False  # picked by its cues only alone or beside a relation of its group
    group: str = ""
    yields: str = ""  # the kind of names its values are, the subjects of a next hop
    # its cue is read on the whole question, names included: its words are often read as a name
    # ("the first basket" as a team)
    whole_question: bool = False
    # what its rows are, as a question counting them names them ("albums" are no count of every work,
    # "jump shots" none of a player's points): a count or a total of other rows answers nothing
    rows: str = ""
    # its rows can stop holding (a member leaves a band) and the KG does not date them: a set asked
    # in the present is not the set of every row ever
    leaves: bool = False
    # its cue words are the name of a thing (an award), not words of what is asked: "best" of "best
    # picture" asks for no highest value
    a_name: bool = False
    # the direction its figure is better in, for a choice on merit ("which stock is more attractive by
    # its p/e ratio?": the lower, the cheaper the earnings); "" when the figure says nothing of merit
    better: Literal["", "higher", "lower"] = ""
    # an empty answer for a subject the KG knows says the event never happened (a dividend history
    # is complete: none paid), not that the KG lacks it
    complete: bool = False


# --- finance --------------------------------------------------------------------------------------

FINANCE: tuple[Relation, ...] = (
    Relation(
        "record_figure",
        "company record",
        (
            "what is the stock's dividend yield?",
            "what is the average daily trading volume of the stock?",
            "what is the 52-week high or low of the stock?",
            "what is the beta of the stock?",
            "what are the stock's trailing earnings per share or trailing p/e?",
            "what is the company's debt-to-equity ratio, return on equity or profit margin?",
            "what are the company's total debt, cash, revenue growth or book value?",
        ),
        cues=v.COMPANY_RECORD_FIELDS,
        subjects=("tickers", "companies"),
        routes=("finance_get_info",),
        value="number",
        changes=True,
        consumes=True,
    ),
    Relation(
        "pe_ratio",
        "P/E ratio (forward P/E)",
        ("what is the company's price to earnings ratio?", "what is the p/e ratio of the stock?"),
        cues=rf"p/?e ratio|\bpe\b|{v.PRICE_TO_EARNINGS}|price[- ]earnings",
        subjects=("tickers", "companies"),
        routes=("finance_get_pe_ratio",),
        value="number",
        changes=True,
        consumes=True,
        better="lower",
    ),
    Relation(
        "eps",
        "earnings per share (forward EPS)",
        ("what are the company's earnings per share?", "what is the eps of the stock?"),
        cues=r"\beps\b|earn\w* per share",
        subjects=("tickers", "companies"),
        routes=("finance_get_eps",),
        value="number",
        changes=True,
        better="higher",
    ),
    Relation(
        "market_cap",
        "market capitalization",
        (
            "what is the company's market capitalization?",
            "how much is the company worth on the stock market?",
            "which company has the larger market value?",
        ),
        cues=r"market cap|capitali[sz]ation|market value|valuation|\bworth\b",
        subjects=("tickers", "companies"),
        routes=("finance_get_market_capitalization",),
        value="number",
        changes=True,
        a_total=True,
    ),
    Relation(
        "dividends",
        "dividends paid",
        (
            "how much did the company pay in dividends?",
            "when did the stock pay a dividend?",
            "how many dividend payments did the company make?",
        ),
        cues=r"dividend|payout|distribution",
        subjects=("tickers", "companies"),
        routes=("finance_get_dividends_history",),
        value="number",
        additive=True,
        changes=True,
        rows=r"\b(?:dividends?|payments?|payouts?|distributions?|times)\b",
        complete=True,
    ),
    Relation(
        "company_profile",
        "company record",
        (
            "which sector or industry is the company in?",
            "where is the company headquartered?",
            "how many employees does the company have?",
            "who is the company's ceo?",
            "on which exchange is it listed?",
        ),
        cues=(
            r"sector|industry|employees|headquarter|ceo|exchange|beta|52[- ]week|based|located|business|"
            r"currency|founded|website|country|city"
        ),
        subjects=("tickers", "companies"),
        routes=("finance_get_info",),
        value="text",
    ),
    Relation(
        "ticker",
        "ticker symbol",
        ("what is the company's ticker symbol?",),
        cues=v.TICKER_ASKED,
        subjects=("companies",),
        routes=("finance_get_ticker_by_name",),
        value="name",
    ),
    Relation(
        "opening_price",
        "opening price",
        ("what was the stock's opening price?", "at what price did it open?"),
        cues=v.PRICE_COLUMNS["Open"],
        subjects=("tickers", "companies"),
        routes=("finance_get_price_history",),
        field="Open",
        value="number",
        changes=True,
        group="prices",
    ),
    Relation(
        "daily_high",
        "daily high price",
        ("what was the stock's highest price of the day?", "how high did it trade?"),
        cues=v.PRICE_COLUMNS["High"],
        subjects=("tickers", "companies"),
        routes=("finance_get_price_history",),
        field="High",
        value="number",
        changes=True,
        group="prices",
    ),
    Relation(
        "daily_low",
        "daily low price",
        ("what was the stock's lowest price of the day?", "how low did it fall?"),
        cues=v.PRICE_COLUMNS["Low"],
        subjects=("tickers", "companies"),
        routes=("finance_get_price_history",),
        field="Low",
        value="number",
        changes=True,
        group="prices",
    ),
    Relation(
        "volume",
        "shares traded",
        (
            "how many shares of the stock were traded?",
            "what was the trading volume?",
            "how active was trading in it?",
        ),
        cues=v.PRICE_COLUMNS["Volume"],
        subjects=("tickers", "companies"),
        routes=("finance_get_price_history",),
        field="Volume",
        value="number",
        additive=True,
        changes=True,
        group="prices",
        rows=r"\b(?:shares|stocks?|days|sessions|times|volume)\b",
    ),
    Relation(
        "closing_price",
        "closing price",
        (
            "what was the stock's closing price?",
            "how did the stock trade?",
            "did the share price go up or down?",
            "how much did the stock gain or lose?",
        ),
        cues=(
            r"\b(?:prices?|priced|clos(?:e|ed|es|ing)|open(?:ed|s|ing)?|high(?:est|s)?|low(?:est|s)?|"
            r"trad(?:e|ed|es|ing)|volume|gain(?:s|ed)?|los[est]\w*|drop(?:s|ped)?|ris(?:e|es|en)|rose|f[ae]ll(?:s|en)?|"
            r"return(?:s|ed)?|chang(?:e|es|ed)|mov(?:e|es|ed)|average|up|down)\b"
        ),
        subjects=("tickers", "companies"),
        routes=("finance_get_price_history",),
        field="Close",
        value="number",
        changes=True,
        group="prices",
    ),
    Relation(
        "latest_price",
        "latest price (last 1-minute bar)",
        ("what is the stock price right now?", "what is the stock trading at today?"),
        cues=(
            r"right now|currently|current price|real[- ]time|intraday|minute|today|at the moment|latest|"
            r"this morning|so far today"
        ),
        subjects=("tickers", "companies"),
        routes=("finance_get_detailed_price_history",),
        value="number",
        changes=True,
        weak=True,
        group="prices",
    ),
)
# A question naming no figure ("tell me about nvidia"): its prices and its company record.
FINANCE_DEFAULT = ("closing_price", "company_profile")

# --- music ----------------------------------------------------------------------------------------

_ARTIST, _SONG = ("artists",), ("songs",)
MUSIC: tuple[Relation, ...] = (
    Relation(
        "best_new_artist",
        "Grammy Best New Artist",
        ("who won the grammy for best new artist that year?",),
        cues=r"best new artist",
        subjects=("years",),
        routes=("music_grammy_get_best_artist_by_year",),
        value="name",
        consumes=True,
        yields="artists",
        a_name=True,
    ),
    Relation(
        "song_of_the_year",
        "Grammy Song of the Year",
        ("which song won the grammy song of the year?",),
        cues=r"song of the year",
        subjects=("years",),
        routes=("music_grammy_get_best_song_by_year",),
        value="name",
        consumes=True,
        yields="songs",
        a_name=True,
    ),
    Relation(
        "album_of_the_year",
        "Grammy Album of the Year",
        ("which album won the grammy album of the year?",),
        cues=r"album of the year|record of the year",
        subjects=("years",),
        routes=("music_grammy_get_best_album_by_year",),
        value="name",
        consumes=True,
        a_name=True,
    ),
    Relation(
        "chart_last_week",
        "rank on the previous week's chart",
        ("where did the song rank on last week's chart?", "how many places did the song climb or drop?"),
        cues=rf"{v.PREVIOUS_WEEK}|{v.CHANGE}",
        subjects=_SONG,
        routes=("music_get_billboard_attributes",),
        field="rank_last_week",
        value="number",
        changes=True,
        group="chart",
    ),
    Relation(
        "weeks_in_chart",
        "weeks on the chart",
        (
            "how many weeks has the song been on the billboard chart?",
            "how long did the song stay on the chart?",
        ),
        cues=rf"how many weeks|weeks (?:on|in)|how long|{v.DEBUT}",
        subjects=_SONG,
        routes=("music_get_billboard_attributes",),
        field="weeks_in_chart",
        value="number",
        changes=True,
        group="chart",
    ),
    Relation(
        "peak_position",
        "peak position",
        ("what is the highest position the song reached on the chart?",),
        cues=r"peak|highest|top position|best position|best rank",
        subjects=_SONG,
        routes=("music_get_billboard_attributes",),
        field="top_position",
        value="number",
        changes=True,
        group="chart",
    ),
    Relation(
        "chart_entry",
        "Billboard Hot 100 entry",
        (
            "which song is number one on the billboard hot 100?",
            "what song topped the chart that week?",
            "where does the song rank on the billboard chart?",
        ),
        cues=v.BILLBOARD_WORDS,
        subjects=("rank", "songs", "artists"),
        routes=("music_get_billboard_rank_date",),
        field="rank",
        value="name",
        changes=True,
        group="chart",
        yields="songs",
        rows=r"\b(?:hits?|songs?|singles?|number ones?|weeks|times|entries|tracks?)\b",
    ),
    Relation(
        "members",
        "members",
        ("who are the members of the band?", "who plays in the group?", "how many people are in the band?"),
        cues=v.MEMBERS_ASKED,
        hints=r"drummer|guitarist|bassist|vocalist|(?:who|lead) (?:is the )?singer",
        subjects=_ARTIST,
        routes=("music_get_members",),
        value="name",
        changes=True,
        yields="artists",
        rows=r"\b(?:members?|singers?|vocalists?|musicians?|people|persons)\b",
        leaves=True,
    ),
    Relation(
        "grammy_years",
        "years with a Grammy award",
        ("in which years did the artist win a grammy?",),
        cues=r"grammy|award",
        subjects=_ARTIST,
        routes=("music_grammy_get_award_date_by_artist",),
        value="year",
        group="grammys",
        rows=r"\b(?:gramm(?:y|ys|ies)|awards?|times|years|wins)\b",
    ),
    Relation(
        "grammy_count",
        "Grammy award count",
        ("how many grammy awards has the artist won?", "who has won more grammys?"),
        cues=r"grammy|award",
        subjects=_ARTIST,
        routes=("music_grammy_get_award_count_by_artist",),
        value="number",
        changes=True,
        group="grammys",
        rows=r"\b(?:gramm(?:y|ys|ies)|awards?|times|wins|trophies)\b",
    ),
    Relation(
        "lifespan",
        "lifespan [start, end]",
        ("when did the band split up?", "how long was the artist's career?", "is the singer still alive?"),
        cues=rf"{v.LIFESPAN}|split|active|career",
        subjects=_ARTIST,
        routes=("music_get_lifespan",),
        value="text",
    ),
    Relation(
        "birth_place",
        "birth place (country code)",
        (
            "where was the singer born?",
            "which country is the band from?",
            "what is the artist's nationality?",
        ),
        cues=rf"{v.BIRTH_PLACE}|origin|from where",
        subjects=_ARTIST,
        routes=("music_get_artist_birth_place",),
        value="place",
    ),
    Relation(
        "birth_date",
        "birth date (founding date for a band)",
        ("when was the singer born?", "how old is the artist?", "when was the band formed?", "who is older?"),
        cues=(
            r"\bborn\b|birth|\bages?\b|how old|\bold(?:er|est)?\b|young(?:er|est)?|founded|formed|\bstart\w*|"
            rf"{v.BEGIN_WORDS}|debut(?:ed)? year|{v.BIRTH_DATE}"
        ),
        subjects=_ARTIST,
        routes=("music_get_artist_birth_date",),
        value="date",
    ),
    Relation(
        "works",
        "works",
        (
            "which songs has the artist released?",
            "how many albums did the band put out?",
            "list the singer's discography",
        ),
        cues=r"\b(?:songs|albums|works|singles|tracks|discography)\b",
        hints=r"album|songs?\b|single|works?\b|discograph|record|track|releas",
        subjects=_ARTIST,
        routes=("music_get_artist_all_works",),
        value="name",
        changes=True,
        rows=r"\b(?:songs?|works?|tracks?|singles?|records?|releases|recordings|pieces|titles)\b",
    ),
    Relation(
        "song_author",
        "author",
        ("who wrote the song?", "who sang the song?", "who is the songwriter?"),
        cues=r"wr[io]te|writ|author|compos|penned",
        hints=r"who (?:sang|sings|performed|is the artist)|by whom|whose",
        subjects=_SONG,
        routes=("music_get_song_author",),
        value="name",
        yields="artists",
    ),
    Relation(
        "song_release_date",
        "release date",
        ("when was the song released?", "which song came out first?"),
        cues=r"releas|come out|came out|how old|recent",
        subjects=_SONG,
        routes=("music_get_song_release_date",),
        value="date",
    ),
    Relation(
        "song_release_country",
        "release country (country code)",
        ("in which country was the song released?",),
        cues=r"country|where .*(?:from|releas|record)",
        subjects=_SONG,
        routes=("music_get_song_release_country",),
        value="place",
    ),
    Relation(
        "song_grammy_count",
        "Grammy award count",
        ("how many grammys did the song win?",),
        cues=r"grammy|award",
        subjects=_SONG,
        routes=("music_grammy_get_award_count_by_song",),
        value="number",
    ),
)
MUSIC_ARTIST_DEFAULT = ("birth_date", "birth_place", "works")
MUSIC_SONG_DEFAULT = ("song_author", "song_release_date")
# Looser words that ask for a song's date or country only outside chart questions: there "when did X
# debut" and "where does X rank" ask about the chart.
MUSIC_OFF_CHART_HINTS = {"song_release_date": r"when|year|date|debut", "song_release_country": r"where"}

# --- movie ----------------------------------------------------------------------------------------

_FILM, _PERSON = ("movies",), ("people",)
_FILM_ROWS = r"\b(?:movies?|films?|pictures?|features?|titles|roles|times|productions)\b"
# Oscar categories: the words that ask for one, and the stored category names they stand for.
OSCAR_CATEGORIES: tuple[tuple[str, str, str], ...] = (
    (
        "best_picture",
        r"best (?:motion )?picture|best film\b",
        r"BEST PICTURE|OUTSTANDING PICTURE|BEST MOTION PICTURE",
    ),
    ("best_director", r"best director|directing", r"^DIRECTING"),
    ("supporting_actor", r"supporting actor", r"ACTOR IN A SUPPORTING ROLE"),
    ("supporting_actress", r"supporting actress", r"ACTRESS IN A SUPPORTING ROLE"),
    ("acting", r"\bacting\b", r"^ACTOR|^ACTRESS"),
    ("best_actor", r"best (?:lead(?:ing)? )?actor\b|leading actor", r"^ACTOR$|ACTOR IN A LEADING ROLE"),
    (
        "best_actress",
        r"best (?:lead(?:ing)? )?actress\b|leading actress",
        r"^ACTRESS$|ACTRESS IN A LEADING ROLE",
    ),
    ("cinematography", r"cinematograph", r"CINEMATOGRAPHY"),
    ("visual_effects", r"visual effects|special effects", r"VISUAL EFFECTS|SPECIAL EFFECTS"),
    (
        "foreign_film",
        r"foreign(?:[- ]language)? film|international feature",
        r"FOREIGN LANGUAGE FILM|INTERNATIONAL FEATURE",
    ),
    ("score", r"\bscore\b|original music", r"^MUSIC"),
    ("sound", r"sound", r"SOUND"),
    ("screenplay_award", r"screenplay|writing", r"WRITING|SCREENPLAY"),
    ("animated", r"animated", r"ANIMATED"),
    ("editing", r"editing", r"FILM EDITING"),
    ("documentary_short", r"documentary short(?: subject| film)?", r"DOCUMENTARY \(SHORT"),
    ("documentary", r"documentary(?: feature)?(?: film)?", r"DOCUMENTARY(?! \(SHORT)"),
    ("costume", r"costume", r"COSTUME"),
    ("makeup", r"make-?up", r"MAKEUP"),
)
# The words before a category that are part of the award's name ("the oscar for best ..."): no count
# of Oscars and no highest value is asked by them.
_AWARD_FOR = r"(?:(?:the )?(?:oscars?|academy awards?|awards?) for (?:the )?)?(?:best )?"
_FILM_FIELDS: tuple[tuple[str, ValueKind, tuple[str, ...]], ...] = (
    (
        "original_title",
        "text",
        ("what is the film's original title?", "what name was the movie first released under?"),
    ),
    (
        "release_date",
        "date",
        (
            "when was the film released?",
            "which movie came out first?",
            "in what year did the movie premiere?",
        ),
    ),
    (
        "rating",
        "number",
        (
            "what is the film's rating?",
            "which movie is rated higher?",
            "which film did critics and audiences score better?",
        ),
    ),
    (
        "budget",
        "number",
        (
            "what was the film's budget?",
            "how much did the movie cost to make?",
            "which film was more expensive to produce?",
        ),
    ),
    (
        "revenue",
        "number",
        (
            "how much did the film gross at the box office?",
            "how much money did the movie earn?",
            "which film earned more?",
            "which film was the bigger commercial success?",
        ),
    ),
    ("genres", "text", ("what genre is the film?", "what kind of movie is it?")),
    (
        "original_language",
        "language",
        ("what is the original language of the film?", "what language is the movie in?"),
    ),
)
MOVIE: tuple[Relation, ...] = (
    *(
        Relation(
            f"oscar_{name}",
            f"Oscar for {name.replace('_', ' ')}",
            (f"who won the oscar for {name.replace('_', ' ')}?",),
            cues=_AWARD_FOR + rf"(?:{words})",
            subjects=("years", "people", "movies"),
            routes=("movie_get_year_info", "movie_get_person_info", "movie_get_movie_info"),
            field="oscar_awards",
            value="name",
            consumes=True,
            group="oscars",
            yields="movies",
            a_name=True,
        )
        for name, words, category in OSCAR_CATEGORIES
    ),
    Relation(
        "oscar_count",
        "Oscars",
        (
            "how many academy awards did the film win?",
            "how many times was the director nominated for an oscar?",
            "which film won more awards?",
        ),
        cues=v.OSCARS,
        subjects=("movies", "people"),
        routes=("movie_get_movie_info", "movie_get_person_info"),
        field="oscar_awards",
        value="number",
        changes=True,
        rows=r"\b(?:awards?|oscars?|nominations?|times|wins|statuettes|academy awards?)\b",
    ),
    Relation(
        "leads",
        "lead actors by billing",
        (
            "who was the leading lady of the film?",
            "who played the main characters?",
            "who was the male lead?",
        ),
        cues=rf"{v.LEAD_ACTRESS_ASKED}|{v.LEAD_ACTOR_ASKED}|{v.MAIN_CAST_ASKED}",
        subjects=_FILM,
        routes=("movie_get_movie_info",),
        field="cast",
        value="name",
    ),
    Relation(
        "cast",
        "cast",
        ("who starred in the film?", "how many actors are in the cast?", "which movie had the larger cast?"),
        cues=rf"{v.CAST_SIZE}|{v.ACTED}",
        subjects=_FILM,
        routes=("movie_get_movie_info",),
        field="cast",
        value="name",
        rows=r"\b(?:actors?|actresses|cast(?: members)?|people|performers|stars|members)\b",
    ),
    *(
        Relation(
            field,
            field.replace("_", " "),
            descriptions,
            cues=v.FILM_FIELDS[field],
            subjects=_FILM,
            routes=("movie_get_movie_info",),
            field=field,
            value=kind,
            additive=field in ("budget", "revenue"),
        )
        for field, kind, descriptions in _FILM_FIELDS
    ),
    *(
        Relation(
            job.lower().replace(" ", "_"),
            job.lower(),
            descriptions,
            cues=v.CREW_ROLES[job],
            subjects=_FILM,
            routes=("movie_get_movie_info",),
            field="crew",
            value="name",
            yields="people",
        )
        for job, descriptions in (
            ("Director", ("who directed the film?", "who was the filmmaker?")),
            ("Original Music Composer", ("who composed the film's music?",)),
            ("Screenplay", ("who wrote the screenplay?",)),
            ("Writer", ("who wrote the film?",)),
            ("Producer", ("who produced the film?", "who were the producers?")),
        )
    ),
    Relation(
        "birthday",
        "birthday",
        ("when was the actor born?", "how old is the director?", "who is older?"),
        cues=v.PERSON_FACTS,
        subjects=_PERSON,
        routes=("movie_get_person_info",),
        field="birthday",
        value="date",
    ),
    Relation(
        "films_directed",
        "films directed",
        ("which films did the director make?", "how many movies did he direct?"),
        cues=v.DIRECTED,
        subjects=_PERSON,
        routes=("movie_get_person_info", "movie_get_movie_info_by_id"),
        field="directed_movies",
        value="name",
        changes=True,
        group="filmography",
        rows=_FILM_ROWS,
    ),
    Relation(
        "films_acted",
        "films acted in",
        ("which movies did the actor appear in?", "what films has she starred in?"),
        cues=v.ACTED,
        subjects=_PERSON,
        routes=("movie_get_person_info", "movie_get_movie_info_by_id"),
        field="acted_movies",
        value="name",
        changes=True,
        group="filmography",
        rows=_FILM_ROWS,
    ),
    Relation(
        "filmography",
        "films",
        ("what movies did the person work on?",),
        cues=v.PERSON_FILMS,
        subjects=_PERSON,
        routes=("movie_get_person_info", "movie_get_movie_info_by_id"),
        value="name",
        changes=True,
        group="filmography",
        rows=_FILM_ROWS,
    ),
    Relation(
        "films_of_year",
        "films of the year",
        ("which films came out that year?",),
        cues=v.FILMS_OF_A_YEAR,
        subjects=("years",),
        routes=("movie_get_year_info", "movie_get_movie_info_by_id"),
        value="name",
    ),
    Relation(
        "shared_cast",
        "actors in both films",
        ("which actors were in both films?",),
        cues=v.SHARED,
        subjects=_FILM,
        routes=("movie_get_movie_info",),
        field="cast",
        value="name",
    ),
)

# --- sports ---------------------------------------------------------------------------------------

_TEAM = ("teams",)
_GAMES = ("sports_nba_get_games_on_date", "sports_soccer_get_games_on_date")
# The fields of a game's row that say who won: the NBA's win-loss columns, soccer's result.
_RESULT = "wl_home|wl_away|result"
_GAME_ROWS = r"\b(?:games?|matches|wins|losses|times|victories|defeats|contests|fixtures)\b"
SPORTS: tuple[Relation, ...] = (
    Relation(
        "player_points",
        "a player's points in the game",
        ("how many points did the player score in the game?", "how many free throws did he make?"),
        cues=v.PLAYER_STATS,
        subjects=("teams", "entities", "players"),
        routes=("sports_nba_get_games_on_date", "sports_nba_get_play_by_play_data_by_game_ids"),
        value="number",
        additive=True,
        rows=r"\b(?:points?|free throws?|pts)\b",
    ),
    Relation(
        "first_scorer",
        "scorer of the game's first points",
        ("who scored the first basket of the game?",),
        cues=v.FIRST_SCORE,
        subjects=_TEAM,
        routes=(*_GAMES, "sports_nba_get_play_by_play_data_by_game_ids"),
        field="player1_name",
        value="name",
        whole_question=True,
    ),
    Relation(
        "last_scorer",
        "scorer of the game's last points",
        ("who made the last shot of the game?",),
        cues=v.LAST_SCORE,
        subjects=_TEAM,
        routes=(*_GAMES, "sports_nba_get_play_by_play_data_by_game_ids"),
        field="player1_name",
        value="name",
        whole_question=True,
    ),
    Relation(
        "game_winner",
        "winner",
        ("who won the game?", "which team won?"),
        cues=v.WINNER_ASKED,
        subjects=_TEAM,
        routes=_GAMES,
        field=_RESULT,
        value="name",
        changes=True,
    ),
    Relation(
        "teams_beating",
        "teams that beat the team",
        ("which teams beat the team?", "who defeated them?"),
        cues=v.BEAT_THE_TEAM,
        subjects=_TEAM,
        routes=_GAMES,
        field=_RESULT,
        value="name",
        changes=True,
    ),
    Relation(
        "teams_beaten",
        "teams the team beat",
        ("which teams did the team beat?",),
        cues=v.BEATEN_BY_THE_TEAM,
        subjects=_TEAM,
        routes=_GAMES,
        field=_RESULT,
        value="name",
        changes=True,
    ),
    Relation(
        "wins",
        "games won",
        ("how many games did the team win?", "who had more wins?"),
        cues=v.WINS_ASKED,
        subjects=_TEAM,
        routes=_GAMES,
        field=_RESULT,
        value="number",
        additive=True,
        changes=True,
        rows=_GAME_ROWS,
    ),
    Relation(
        "losses",
        "games lost",
        ("how many games did the team lose?",),
        cues=v.LOSSES_ASKED,
        subjects=_TEAM,
        routes=_GAMES,
        field=_RESULT,
        value="number",
        additive=True,
        changes=True,
        rows=_GAME_ROWS,
    ),
    Relation(
        "game_result",
        "result",
        ("how did the team fare in the game?", "did they win or lose?"),
        cues=v.RESULT_ASKED,
        subjects=_TEAM,
        routes=_GAMES,
        field=_RESULT,
        value="result",
        changes=True,
    ),
    *(
        Relation(
            column.lower(),
            f"{column.lower()}",
            (f"who was the team's {column.lower()} in the game?",),
            cues=v.SOCCER_FIELDS[column],
            subjects=_TEAM,
            routes=("sports_soccer_get_games_on_date",),
            field=column,
            value="number" if column in ("Attendance", "Poss") else "name",
            changes=True,
        )
        for column in v.SOCCER_FIELDS
    ),
    Relation(
        "game_day",
        "day of the team's game",
        ("when did the team play?", "when is their next match?"),
        cues=v.GAME_DAY_ASKED,
        subjects=_TEAM,
        routes=_GAMES,
        field="game_date|date",
        value="date",
        changes=True,
    ),
    Relation(
        "opponent",
        "opponent",
        ("which team did they play against?", "who is their next opponent?"),
        cues=v.OPPONENT_ASKED,
        subjects=_TEAM,
        routes=_GAMES,
        field="team_name_home|team_name_away|opponent",
        value="name",
        changes=True,
    ),
    Relation(
        "points",
        "points scored",
        ("how many points did the team score?", "how many goals did they score?", "who scored more points?"),
        cues=v.POINTS_ASKED,
        subjects=_TEAM,
        routes=_GAMES,
        field="pts_home|pts_away|GF|GA",
        value="number",
        additive=True,
        changes=True,
        rows=r"\b(?:points?|goals?|runs|pts)\b",
    ),
    Relation(
        "play_by_play",
        "play-by-play",
        ("what happened in the third quarter of the game?",),
        cues=v.PLAY_BY_PLAY_WORDS,
        subjects=_TEAM,
        routes=("sports_nba_get_play_by_play_data_by_game_ids",),
        value="text",
        whole_question=True,
    ),
)

# --- open domain ----------------------------------------------------------------------------------

OPEN: tuple[Relation, ...] = (
    Relation(
        "entity_fact",
        "fact",
        ("what is this fact about the entity?",),
        subjects=("entities",),
        routes=("open_search_entity_by_name", "open_get_entity"),
        value="text",
    ),
)

TABLES: dict[str, tuple[Relation, ...]] = {
    "finance": FINANCE,
    "movie": MOVIE,
    "music": MUSIC,
    "sports": SPORTS,
    "open": OPEN,
}
BY_NAME: dict[str, Relation] = {relation.name: relation for table in TABLES.values() for relation in table}
