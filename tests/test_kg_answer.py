"""The answer computed from the asked attribute's rows (models/kg/answer.py): each computation, each
direction, and each case where it must compute nothing."""

from __future__ import annotations

from datetime import date

import pytest

from models.kg.answer import ComputedAnswer, Fact, FactTable, compute, shown
from models.kg.intent import read_question


def _compute(table: FactTable | None, question: str) -> ComputedAnswer | None:
    """The answer of `table` for the reading of `question` (no names blanked: the tables name them)."""
    return compute(table, read_question(question))


MON, TUE, WED = date(2024, 3, 4), date(2024, 3, 5), date(2024, 3, 6)
VOLUMES = FactTable(
    "shares traded", [Fact("MET", 100.0, MON), Fact("MET", 250.0, TUE), Fact("MET", 50.0, WED)], additive=True
)
HIGHS = FactTable(
    "highest price", [Fact("ASAN", 21.5, MON), Fact("ASAN", 21.79, TUE), Fact("ASAN", 20.1, WED)]
)
CLOSE = FactTable("closing price", [Fact("SFWL", 1.76, date(2024, 3, 1))])
PE = FactTable("P/E ratio", [Fact("TDCX", 6.51), Fact("GOOD", 28.94)])
BIRTHDAYS = FactTable(
    "birthday", [Fact("Leonardo DiCaprio", date(1974, 11, 11)), Fact("Brad Pitt", date(1963, 12, 18))]
)
MEMBERS = FactTable(
    "members", [Fact("The Black Keys", "Dan Auerbach"), Fact("The Black Keys", "Patrick Carney")]
)
POINTS = FactTable(
    "points scored",
    [
        Fact("Houston Rockets", 110.0, MON),
        Fact("Houston Rockets", 100.0, TUE),
        Fact("Los Angeles Lakers", 120.0, MON),
        Fact("Los Angeles Lakers", 115.0, TUE),
    ],
    additive=True,
)


@pytest.mark.parametrize(
    "table, question, kind, value",
    [
        (CLOSE, "what was sfwl's closing price on the most recent friday?", "lookup", "1.76"),
        (VOLUMES, "what was the total trading volume of met this week?", "sum", "400"),
        (VOLUMES, "how many shares of met were traded this week?", "sum", "400"),
        (VOLUMES, "what was met's average daily volume this week?", "average", "133.33"),
        (VOLUMES, "on how many days did met trade?", "count", "3"),
        (VOLUMES, "what was the total number of days met traded?", "count", "3"),  # rows counted, not summed
        (HIGHS, "what was the highest price of asan this week?", "extreme", "21.79"),
        (HIGHS, "what was the lowest of asan's daily highs this week?", "extreme", "20.10"),
        (HIGHS, "which day did asana have the highest price this week?", "extreme", "2024-03-05"),
        (MEMBERS, "who are the members of the black keys?", "set", "Dan Auerbach, Patrick Carney"),
        (MEMBERS, "how many members does the black keys have?", "count", "2"),
    ],
)
def test_one_names_rows_give_the_asked_computation(table, question, kind, value):
    answer = _compute(table, question)
    assert answer is not None and (answer.kind, answer.value) == (kind, value)


def test_the_earliest_or_latest_row_by_its_day():
    payments = FactTable(
        "dividends paid",
        [Fact("IMPPP", 0.18, date(2021, 12, 23)), Fact("IMPPP", 0.2, date(2024, 2, 27))],
        additive=True,
    )
    first = _compute(payments, "on what date did imppp start distributing dividends?")
    last = _compute(payments, "when did imppp last pay a dividend?")
    assert (first.kind, first.value) == ("first", "2021-12-23") and (last.kind, last.value) == (
        "last",
        "2024-02-27",
    )
    assert (
        _compute(payments, "what did imppp pay in dividends?") is None
    )  # several rows, nothing asked of them


@pytest.mark.parametrize(
    "table, question, value",
    [
        (PE, "which company has higher p/e ratio, tdcx or good?", "GOOD"),
        (PE, "which company has the lower p/e ratio, tdcx or good?", "TDCX"),
        (BIRTHDAYS, "who is older, leonardo dicaprio or brad pitt?", "Brad Pitt"),
        (BIRTHDAYS, "who is younger, leonardo dicaprio or brad pitt?", "Leonardo DiCaprio"),
        (POINTS, "who scored more points this week, the rockets or the lakers?", "Los Angeles Lakers"),
        (POINTS, "in this season, did houston rockets score more points than los angeles lakers?", "no"),
        (POINTS, "did the lakers score more points than the rockets this week?", "yes"),
        (PE, "how much higher is good's p/e ratio than tdcx's?", "22.43"),
        (BIRTHDAYS, "when was the older of leonardo dicaprio and brad pitt born?", "1963-12-18"),
    ],
)
def test_a_comparison_of_names_picks_by_the_comparative(table, question, value):
    answer = _compute(table, question)
    assert answer is not None and answer.value == value


def test_several_names_are_totalled_only_when_no_comparison_is_asked():
    budgets = FactTable("budget", [Fact("A", 10.0), Fact("B", 5.0)], additive=True)
    assert _compute(budgets, "how much did the films cost in total?").value == "15"
    assert _compute(budgets, "what were the budgets of the films?") is None
    assert (
        _compute(FactTable("budget", budgets.facts), "how much did the films cost in total?") is None
    )  # not additive


@pytest.mark.parametrize(
    "table, question",
    [
        (None, "what was the close?"),
        (FactTable("closing price"), "what was the close?"),
        (
            VOLUMES,
            "what percentage of the week's volume traded on monday?",
        ),  # a share: nothing here gives one
        (BIRTHDAYS, "how old is brad pitt compared to leonardo dicaprio?"),  # an age: date arithmetic
        (CLOSE, "did sfwl close at 1.76 on friday?"),  # yes/no, and no comparison of names
        (PE, "which company has a p/e ratio, tdcx or good?"),  # a comparison with no direction
        (
            FactTable("P/E ratio", [Fact("TDCX", 6.5), Fact("GOOD", 6.5)]),
            "which has the higher p/e ratio, tdcx or good?",
        ),  # a tie
        (MEMBERS, "what year was the black keys formed?"),  # a year asked: names are no year
        (HIGHS, "what were asan's prices this week?"),  # several rows, no aggregate asked
        (VOLUMES, "what was met's volume during the first week of march?"),  # a span named, not its first row
        (VOLUMES, "what was met's trading volume last week?"),  # likewise its last
        (
            CLOSE,
            "what was sfwl's average closing price across its listings?",
        ),  # an average of one row: rows are missing
    ],
)
def test_nothing_is_computed_when_the_rows_do_not_settle_the_question(table, question):
    assert _compute(table, question) is None


def test_a_unit_follows_numbers_and_values_are_written_as_answers_are():
    yield_table = FactTable("dividend yield (percent)", [Fact("MO", 9.77)], unit="%")
    assert _compute(yield_table, "what is altria's dividend yield?").value == "9.77%"
    assert [shown(v) for v in (3.0, 2.5, 0.12345, date(2024, 1, 2), "x")] == [
        "3",
        "2.50",
        "0.1235",
        "2024-01-02",
        "x",
    ]


def test_the_answer_line_names_how_it_was_computed():
    answer = _compute(VOLUMES, "what was the total trading volume of met this week?")
    assert answer.line() == "Computed answer: 400 (sum of 3 shares traded, 2024-03-04 to 2024-03-06)"
    ranked = _compute(PE, "which company has higher p/e ratio, tdcx or good?")
    assert ranked.line() == "Computed answer: GOOD (GOOD has the highest P/E ratio: GOOD 28.94, TDCX 6.51)"


def test_several_names_items_are_compared_by_their_counts():
    bands = FactTable(
        "members", MEMBERS.facts + [Fact("Westlife", name) for name in ("Shane", "Mark", "Kian")]
    )
    assert _compute(bands, "which band has more members, the black keys or westlife?").value == "Westlife"
    assert _compute(bands, "who are the members of the black keys and westlife?").kind == "set"


def test_two_values_set_side_by_side_are_both_given_with_the_higher_named():
    closes = FactTable(
        "closing price", [Fact("BSY", 52.18, date(2023, 12, 29)), Fact("VTRS", 10.83, date(2023, 12, 29))]
    )
    answer = _compute(
        closes, "what was the closing price of bsy compared to vtrs on the last trading day of 2023?"
    )
    assert answer is not None and (answer.kind, answer.value) == (
        "comparison",
        "BSY 52.18, higher than VTRS 10.83",
    )
    assert (
        _compute(closes, "what were the closing prices of bsy and vtrs on the last trading day of 2023?")
        is None
    )  # no comparison
    level = FactTable("closing price", [Fact("BSY", 10.83), Fact("VTRS", 10.83)])
    assert _compute(level, "what was the closing price of bsy compared to vtrs?") is None  # neither is higher


@pytest.mark.parametrize(
    "first, last, gap",
    [
        (date(1999, 3, 30), date(2003, 5, 15), "4 years and 1 month"),
        (date(2001, 11, 16), date(2002, 11, 15), "11 months"),  # a day short of a year
        (date(2020, 1, 31), date(2020, 2, 20), "20 days"),
        (date(2010, 6, 1), date(2011, 6, 1), "1 year"),
    ],
)
def test_the_time_between_two_dates_in_years_and_months(first, last, gap):
    releases = FactTable("release date", [Fact("The Matrix", last), Fact("The Matrix Reloaded", first)])
    answer = _compute(releases, "what was the time gap of the release dates of the two films?")
    assert (
        answer is not None
        and (answer.kind, answer.value) == ("difference", gap)
        and f"{(last - first).days} days" in answer.how
    )
    assert (
        _compute(
            FactTable("release date", [Fact("The Matrix", first)]),
            "what was the time gap between its releases?",
        )
        is None
    )


def test_a_total_of_one_figure_that_is_itself_a_total_is_that_figure():
    # issue 51, second sealed set: the total market value of the shares is the market cap
    market_cap = FactTable("market capitalization", [Fact("STK", 73000.0)], relation="market_cap")
    answer = _compute(market_cap, "what's the total market value of all the shares of stk?")
    assert answer is not None and (answer.kind, answer.value) == ("lookup", "73000")
    # a total of a figure that is no total, over one row, stays uncomputed ("each film of the series")
    revenue = FactTable("revenue", [Fact("Toy Story", 373554033.0)], relation="revenue")
    assert _compute(revenue, "what is the total revenue of the toy story movies?") is None
