from datetime import date, datetime

import pytest

from models.kg.timeparse import (
    DateSpan,
    eastern_time,
    find_time_spans,
    parse_query_time,
    resolve_time,
    weekday_name,
)

# A Sunday night.
QUERY_TIME = "03/10/2024, 23:34:42 PT"


def test_parse_query_time():
    assert parse_query_time(QUERY_TIME) == datetime(2024, 3, 10, 23, 34, 42)
    assert parse_query_time("02/28/2024, 07:15:00 PT") == datetime(2024, 2, 28, 7, 15, 0)
    assert parse_query_time("not a time") is None
    assert parse_query_time("") is None


@pytest.mark.parametrize(
    "text, start, end, granularity",
    [
        ("who won yesterday?", date(2024, 3, 9), date(2024, 3, 9), "day"),
        ("what happened today", date(2024, 3, 10), date(2024, 3, 10), "day"),
        ("the day before yesterday", date(2024, 3, 8), date(2024, 3, 8), "day"),
        ("closing price last friday", date(2024, 3, 8), date(2024, 3, 8), "day"),
        ("what did it do on monday", date(2024, 3, 4), date(2024, 3, 4), "day"),
        ("revenue in 2021", date(2021, 1, 1), date(2021, 12, 31), "year"),
        ("in 2017, which film won", date(2017, 1, 1), date(2017, 12, 31), "year"),
        ("who won in 2019.", date(2019, 1, 1), date(2019, 12, 31), "year"),
        ("on 2022-10-12", date(2022, 10, 12), date(2022, 10, 12), "day"),
        ("on 10/12/2022", date(2022, 10, 12), date(2022, 10, 12), "day"),
        ("on March 5, 2023", date(2023, 3, 5), date(2023, 3, 5), "day"),
        ("on the 5th of march", date(2024, 3, 5), date(2024, 3, 5), "day"),
        ("on december 24", date(2023, 12, 24), date(2023, 12, 24), "day"),  # not yet this year
        ("in march 2021", date(2021, 3, 1), date(2021, 3, 31), "month"),
        ("this month", date(2024, 3, 1), date(2024, 3, 31), "month"),
        ("last month", date(2024, 2, 1), date(2024, 2, 29), "month"),
        ("last week", date(2024, 2, 26), date(2024, 3, 3), "week"),
        ("last year", date(2023, 1, 1), date(2023, 12, 31), "year"),
        ("3 days ago", date(2024, 3, 7), date(2024, 3, 7), "day"),
        ("two years ago", date(2022, 1, 1), date(2022, 12, 31), "year"),
        ("over the past 5 days", date(2024, 3, 5), date(2024, 3, 10), "range"),
        ("in the last month", date(2024, 2, 9), date(2024, 3, 10), "range"),
        ("this season", date(2023, 10, 1), date(2024, 9, 30), "season"),
        ("last season", date(2022, 10, 1), date(2023, 9, 30), "season"),
        ("the 2021-22 season", date(2021, 10, 1), date(2022, 9, 30), "season"),
        (
            "in the 2023-01 season",
            date(2023, 1, 1),
            date(2023, 1, 31),
            "month",
        ),  # digits of a month, not a season
        ("highest price in jan", date(2024, 1, 1), date(2024, 1, 31), "month"),
        ("what happened in may", date(2023, 5, 1), date(2023, 5, 31), "month"),  # may has not begun yet
        ("last march", date(2023, 3, 1), date(2023, 3, 31), "month"),
        ("the first week of february", date(2024, 2, 1), date(2024, 2, 7), "week"),
        ("the last week of february 2023", date(2023, 2, 22), date(2023, 2, 28), "week"),
        ("the days in q4 2023", date(2023, 10, 1), date(2023, 12, 31), "range"),
        ("in the first quarter", date(2024, 1, 1), date(2024, 3, 31), "range"),
        ("the second quarter", date(2023, 4, 1), date(2023, 6, 30), "range"),
        ("the tuesday from the past week", date(2024, 2, 27), date(2024, 2, 27), "day"),
        ("on friday of this week", date(2024, 3, 8), date(2024, 3, 8), "day"),
        ("from 59th grammy (2016) to 61st grammy (2018)", date(2016, 1, 1), date(2018, 12, 31), "years"),
        ("between 2016 and 2018", date(2016, 1, 1), date(2018, 12, 31), "years"),
        ("in 2016-2018", date(2016, 1, 1), date(2018, 12, 31), "years"),
    ],
)
def test_expressions_resolve_against_query_time(text, start, end, granularity):
    span = resolve_time(text, QUERY_TIME)
    assert span is not None, text
    assert (span.start, span.end, span.granularity) == (start, end, granularity)


def test_season_follows_the_sport_calendar():
    soccer = resolve_time("this season", QUERY_TIME, season_start_month=8)
    assert (soccer.start, soccer.end) == (date(2023, 8, 1), date(2024, 7, 31))
    autumn = resolve_time("this season", "11/02/2023, 10:00:00 PT")
    assert autumn.start == date(2023, 10, 1)


def test_several_expressions_come_in_reading_order():
    spans = find_time_spans("compare 2021-05-03 with yesterday and 2019", QUERY_TIME)
    assert [s.label for s in spans] == ["2021-05-03", "2024-03-09", "2019"]


def test_relative_phrases_need_a_query_time_but_absolute_ones_do_not():
    assert find_time_spans("who won yesterday", "garbage") == []
    assert resolve_time("on 2022-10-12", "garbage").start == date(2022, 10, 12)


def test_numbers_that_are_not_dates_are_ignored():
    assert find_time_spans("it costs $2021 and grew 5.2021 percent", QUERY_TIME) == []
    assert find_time_spans("may i ask about the fifth quarter?", QUERY_TIME) == []
    assert find_time_spans("no time here at all", QUERY_TIME) == []
    impossible_day = resolve_time("on 2023-02-30", QUERY_TIME)  # no such day: only its year is usable
    assert impossible_day.granularity == "year" and impossible_day.start.year == 2023


def test_a_range_of_years_holds_every_year_and_a_backward_one_is_none():
    assert resolve_time("from 2016 to 2018", QUERY_TIME).years == [2016, 2017, 2018]
    assert resolve_time("from 2018 to 2016", QUERY_TIME).granularity == "year"  # two separate years


def test_spans_contain_their_days():
    season = DateSpan(date(2023, 10, 1), date(2024, 9, 30), "season", "this season")
    assert season.contains(date(2024, 3, 8)) and not season.contains(date(2023, 9, 30))


def test_question_time_on_the_exchange_clock_and_weekdays():
    assert eastern_time(QUERY_TIME) == datetime(2024, 3, 11, 2, 34, 42)  # Sunday night PT is Monday 2:34 ET
    assert eastern_time("01/05/2024, 06:59:00 PT") == datetime(2024, 1, 5, 9, 59)
    assert eastern_time("garbage") is None
    assert weekday_name(date(2024, 3, 8)) == "Friday"
