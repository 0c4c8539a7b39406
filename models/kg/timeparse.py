"""Time expressions in a question, resolved to calendar spans against the question's `query_time`.

Pure functions, no I/O: `find_time_spans("who won last Friday?", "03/10/2024, 23:34:42 PT")` gives
the span 2024-03-08..2024-03-08. Relative phrases need a parseable query time; absolute dates do not.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Callable, Literal
from zoneinfo import ZoneInfo

from models.vocabulary import (
    MONTH_NUMBERS,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    TIME_EXPRESSIONS,
    TIME_ZONE_SUFFIX,
    WEEKDAYS,
)

# "years": whole calendar years from one to another ("from 2016 to 2018"); "range": any other run of days.
Granularity = Literal["day", "week", "month", "year", "years", "season", "range"]

_NUMBER_WORDS = NUMBER_WORDS | {"a": 1}
_ZONE = re.compile(TIME_ZONE_SUFFIX)


@dataclass(frozen=True)
class DateSpan:
    start: date
    end: date  # inclusive
    granularity: Granularity
    phrase: str
    relative: bool = False  # resolved against the question's time ("last week", "in march"), not written out

    @property
    def label(self) -> str:
        if self.granularity == "day":
            return self.start.isoformat()
        if self.granularity == "month":
            return self.start.strftime("%Y-%m")
        if self.granularity == "year":
            return str(self.start.year)
        return f"{self.start.isoformat()} to {self.end.isoformat()}"

    def contains(self, day: date) -> bool:
        return self.start <= day <= self.end

    @property
    def years(self) -> list[int]:
        """The calendar years the span covers."""
        return list(range(self.start.year, self.end.year + 1))


def parse_query_time(query_time: str) -> datetime | None:
    """'03/10/2024, 23:34:42 PT' -> datetime(2024, 3, 10, 23, 34, 42); None when unparseable."""
    text = _ZONE.sub("", (query_time or "").strip())
    for pattern in ("%m/%d/%Y, %H:%M:%S", "%m/%d/%Y %H:%M:%S", "%m/%d/%Y", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d"):
        try:
            return datetime.strptime(text, pattern)
        except ValueError:
            continue
    return None


def eastern_time(query_time: str) -> datetime | None:
    """The question's time (CRAG writes it in Pacific time) on the US exchanges' clock, naive."""
    moment = parse_query_time(query_time)
    if moment is None:
        return None
    aware = moment.replace(tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(ZoneInfo("America/New_York"))
    return aware.replace(tzinfo=None)


def weekday_name(day: date) -> str:
    return WEEKDAYS[day.weekday()].capitalize()


def find_time_spans(text: str, query_time: str, season_start_month: int = 10) -> list[DateSpan]:
    """Every time expression in `text`, in reading order, as a resolved span."""
    now = parse_query_time(query_time)
    today = now.date() if now else None
    lowered = text.lower()
    found: list[tuple[int, DateSpan]] = []
    taken = [False] * len(lowered)
    for pattern, resolve in _RULES:
        for match in pattern.finditer(lowered):
            if any(taken[match.start() : match.end()]):
                continue
            span = resolve(match, today, season_start_month)
            if span is None:
                continue
            if resolve in _RELATIVE or (resolve in _RELATIVE_WITHOUT_YEAR and not match.groupdict().get("y")):
                span = replace(span, relative=True)
            found.append((match.start(), span))
            for position in range(match.start(), match.end()):
                taken[position] = True
    return [span for _, span in sorted(found, key=lambda item: item[0])]


def resolve_time(expression: str, query_time: str, season_start_month: int = 10) -> DateSpan | None:
    """The first time expression in `expression`, or None."""
    spans = find_time_spans(expression, query_time, season_start_month)
    return spans[0] if spans else None


# --- spans ---------------------------------------------------------------------------------------


def _day(day: date, phrase: str) -> DateSpan:
    return DateSpan(day, day, "day", phrase)


def _month(year: int, month: int, phrase: str) -> DateSpan | None:
    if not 1 <= month <= 12:
        return None
    return DateSpan(
        date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1]), "month", phrase
    )


def _year(year: int, phrase: str) -> DateSpan:
    return DateSpan(date(year, 1, 1), date(year, 12, 31), "year", phrase)


def _week_of(day: date, phrase: str) -> DateSpan:
    monday = day - timedelta(days=day.weekday())
    return DateSpan(monday, monday + timedelta(days=6), "week", phrase)


def _season(start_year: int, start_month: int, phrase: str) -> DateSpan:
    start = date(start_year, start_month, 1)
    end = date(start_year + 1, start_month, 1) - timedelta(days=1)
    return DateSpan(start, end, "season", phrase)


def _season_start_year(today: date, start_month: int) -> int:
    return today.year if today.month >= start_month else today.year - 1


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _shift_months(day: date, months: int) -> tuple[int, int]:
    index = day.year * 12 + day.month - 1 + months
    return index // 12, index % 12 + 1


def _count(text: str) -> int:
    return _NUMBER_WORDS[text] if text in _NUMBER_WORDS else int(text)


# --- rules (earlier rules win where matches overlap) ---------------------------------------------

Resolver = Callable[[re.Match[str], "date | None", int], "DateSpan | None"]


def _iso_day(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    day = _safe_date(int(m["y"]), int(m["m"]), int(m["d"]))
    return _day(day, m[0]) if day else None


def _us_day(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    year = int(m["y"])
    year += 2000 if year < 100 else 0
    day = _safe_date(year, int(m["m"]), int(m["d"]))
    return _day(day, m[0]) if day else None


def _iso_month(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    return _month(int(m["y"]), int(m["m"]), m[0])


def _month_day_year(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    month = MONTH_NUMBERS[m["month"]]
    if m["y"]:
        day = _safe_date(int(m["y"]), month, int(m["d"]))
    elif today is not None:
        day = _safe_date(today.year, month, int(m["d"]))
        if day is not None and day > today:
            day = _safe_date(today.year - 1, month, int(m["d"]))
    else:
        return None
    return _day(day, m[0]) if day else None


def _month_year(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    return _month(int(m["y"]), MONTH_NUMBERS[m["month"]], m[0])


def _explicit_season(m: re.Match[str], today: date | None, start_month: int) -> DateSpan | None:
    year, second = int(m["y"]), int(m["y2"])
    if second != (year + 1) % 100:
        return _month(year, second, m[0])  # "the 2023-01 season": a month, as the digits say
    return _season(year, start_month, m[0])


def _latest_month(month: int, today: date | None) -> int | None:
    """The year of the latest `month` that has begun by `today`."""
    if today is None:
        return None
    return today.year if month <= today.month else today.year - 1


def _bare_month(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    month = MONTH_NUMBERS[m["month"]]
    year = _latest_month(month, today)
    if year is None:
        return None
    if m["which"] == "last" and today is not None and (year, month) == (today.year, today.month):
        year -= 1  # "last march" asked in march: the one before
    return _month(year, month, m[0])


def _week_of_month(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    month = MONTH_NUMBERS[m["month"]]
    year = int(m["y"]) if m["y"] else _latest_month(month, today)
    if year is None:
        return None
    last_day = calendar.monthrange(year, month)[1]
    if m["nth"] == "last":
        first = last_day - 6
    else:
        first = 7 * (ORDINAL_WORDS[m["nth"]] - 1) + 1
        if first > last_day:
            return None
    return DateSpan(date(year, month, first), date(year, month, min(first + 6, last_day)), "week", m[0])


def _quarter(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    quarter = int(m["q"]) if m["q"] else ORDINAL_WORDS.get(m["nth"] or "", 0)
    if not 1 <= quarter <= 4:
        return None
    first_month = 3 * quarter - 2
    if m["y"]:
        year = int(m["y"])
    elif today is not None:
        year = today.year if first_month <= today.month else today.year - 1
    else:
        return None
    end = date(year, first_month + 2, calendar.monthrange(year, first_month + 2)[1])
    return DateSpan(date(year, first_month, 1), end, "range", m[0])


def _year_range(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    first, last = int(m["y"]), int(m["y2"])
    if not 0 < last - first <= 50:
        return None
    return DateSpan(date(first, 1, 1), date(last, 12, 31), "years", m[0])


def _weekday_of_week(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    if today is None:
        return None
    offset = {"this": 0, "current": 0, "last": -1, "past": -1, "previous": -1, "next": 1}[m["which"]]
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=offset)
    return _day(monday + timedelta(days=WEEKDAYS.index(m["weekday"])), m[0])


def _named_season(m: re.Match[str], today: date | None, start_month: int) -> DateSpan | None:
    year = int(m["y"])
    # "the 2023 season": seasons starting late in the year are named by the year they end in.
    return _season(year - 1 if start_month > 6 else year, start_month, m[0])


def _relative_season(m: re.Match[str], today: date | None, start_month: int) -> DateSpan | None:
    if today is None:
        return None
    offset = {"this": 0, "current": 0, "last": -1, "previous": -1, "next": 1}[m["which"]]
    return _season(_season_start_year(today, start_month) + offset, start_month, m[0])


def _relative_day(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    if today is None:
        return None
    offsets = {"today": 0, "tonight": 0, "yesterday": -1, "last night": -1, "tomorrow": 1}
    word = m[0]
    if word == "the day before yesterday":
        return _day(today - timedelta(days=2), word)
    return _day(today + timedelta(days=offsets[word]), word)


def _weekday(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    if today is None:
        return None
    target = WEEKDAYS.index(m["weekday"])
    which = m["which"] or "on"
    if which == "this":
        return _day(today - timedelta(days=today.weekday()) + timedelta(days=target), m[0])
    if which == "next":
        ahead = (target - today.weekday()) % 7 or 7
        return _day(today + timedelta(days=ahead), m[0])
    back = (today.weekday() - target) % 7
    if which in ("last", "past", "previous") and back == 0:
        back = 7
    return _day(today - timedelta(days=back), m[0])


def _ago(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    if today is None:
        return None
    count, unit = _count(m["count"]), m["unit"]
    if unit == "day":
        return _day(today - timedelta(days=count), m[0])
    if unit == "week":
        return _week_of(today - timedelta(weeks=count), m[0])
    if unit == "month":
        return _month(*_shift_months(today, -count), m[0])
    return _year(today.year - count, m[0])


def _past_n(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    if today is None:
        return None
    count, unit = _count(m["count"]), m["unit"]
    days = {"day": 1, "week": 7, "month": 30, "year": 365}[unit] * count
    return DateSpan(today - timedelta(days=days), today, "range", m[0])


def _past_one(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    if today is None:
        return None
    days = {"week": 7, "month": 30, "year": 365}[m["unit"]]
    return DateSpan(today - timedelta(days=days), today, "range", m[0])


def _relative_period(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    if today is None:
        return None
    offset = {"this": 0, "current": 0, "last": -1, "previous": -1, "past": -1, "next": 1}[m["which"]]
    unit = m["unit"]
    if unit == "week":
        return _week_of(today + timedelta(weeks=offset), m[0])
    if unit == "month":
        return _month(*_shift_months(today, offset), m[0])
    return _year(today.year + offset, m[0])


def _bare_year(m: re.Match[str], today: date | None, _: int) -> DateSpan | None:
    return _year(int(m["y"]), m[0])


_RESOLVERS: dict[str, Resolver] = {
    "year_range_words": _year_range,
    "year_range": _year_range,
    "iso_day": _iso_day,
    "us_day": _us_day,
    "explicit_season": _explicit_season,
    "iso_month": _iso_month,
    "month_day_year": _month_day_year,
    "day_month_year": _month_day_year,
    "week_of_month": _week_of_month,
    "quarter": _quarter,
    "month_year": _month_year,
    "bare_month": _bare_month,
    "named_season": _named_season,
    "relative_season": _relative_season,
    "weekday_of_week": _weekday_of_week,
    "relative_day": _relative_day,
    "ago": _ago,
    "past_n": _past_n,
    "past_one": _past_one,
    "relative_period": _relative_period,
    "weekday": _weekday,
    "bare_year": _bare_year,
}
_RULES: list[tuple[re.Pattern[str], Resolver]] = [
    (re.compile(pattern), _RESOLVERS[name]) for name, pattern in TIME_EXPRESSIONS.items()
]
# Resolvers whose span depends on the question's time; the others' only when no year is written.
_RELATIVE = {
    _bare_month,
    _weekday_of_week,
    _relative_season,
    _relative_day,
    _weekday,
    _ago,
    _past_n,
    _past_one,
    _relative_period,
}
_RELATIVE_WITHOUT_YEAR = {_month_day_year, _week_of_month, _quarter}
