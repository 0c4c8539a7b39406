"""Finance: company -> ticker, then the routes of the relations the reading picked
(models/kg/relations.py:FINANCE); prices and dividends rendered as facts aligned to the question's
time on the exchange's clock (US Eastern).

Ticker resolution: a ticker the question writes; else the local name table when configured and
present; else the API's `get_company_name` (search) and `get_ticker_by_name` with the exact official
name it returned.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime, time
from statistics import mean

from models import vocabulary
from models.kg.answer import Fact, FactTable
from models.kg.domain import Domain, picked, table_of
from models.kg.formatting import dated, is_empty, money, number, parse_day, plain
from models.kg.matching import best_company, company_key, name_score
from models.kg.relations import BY_NAME, FINANCE, FINANCE_DEFAULT, Relation
from models.kg.routes import ApiCall
from models.kg.state import Evidence, PlanContext, QuestionState
from models.kg.timeparse import DateSpan, eastern_time, weekday_name
from models.schema import Event

TICKER_BY_NAME = "finance_get_ticker_by_name"
DATA_ROUTES = {route for relation in FINANCE for route in relation.routes if route != TICKER_BY_NAME}
# The figures read from a route of their own, and how their lines name them.
FIGURES = ("market_cap", "eps", "pe_ratio")
FACT_LABELS = {BY_NAME[name].routes[0]: BY_NAME[name].label for name in FIGURES}
# How a listed column is named in a span's summary.
COLUMN_NAMES = {
    "Open": "opening prices",
    "High": "highest prices",
    "Low": "lowest prices",
    "Volume": "shares traded",
}
PRICE_COLUMNS = ("opening_price", "daily_high", "daily_low", "volume")
INFO_KEYS = [
    "longName",
    "shortName",
    "exchange",
    "currency",
    "sector",
    "industry",
    "fullTimeEmployees",
    "city",
    "country",
    "website",
    "currentPrice",
    "marketCap",
    "forwardEps",
    "trailingEps",
    "forwardPE",
    "trailingPE",
    "dividendRate",
    "dividendYield",
    "fiftyTwoWeekHigh",
    "fiftyTwoWeekLow",
    "beta",
    "longBusinessSummary",
]
MARKET_OPEN, MARKET_CLOSE = time(9, 30), time(16, 0)
MAX_LISTED_CLOSES = 23  # a month of trading days
_TICKER = re.compile(vocabulary.TICKER_SPELLING)
_TICKER_WORD = re.compile(vocabulary.TICKER_WORD)
# A word too long for a ticker ("metlife", "altria"): the reader filed a name as a ticker.
_LONG_WORD = re.compile(vocabulary.LONG_WORD)
INTRADAY = "finance_get_detailed_price_history"
PRICES = "finance_get_price_history"


def _without_data(state: QuestionState, ticker: str) -> bool:
    """Every data route asked for `ticker` has come back, and none of them with data."""
    outcomes = [state.answer(route, query=ticker) for route in DATA_ROUTES if state.done(route, query=ticker)]
    return bool(outcomes) and all(is_empty(result) for _, result in outcomes)


def applies(state: QuestionState) -> bool:
    return state.domain == "finance" or bool(state.entities.companies or state.entities.tickers)


def tickers(state: QuestionState, context: PlanContext) -> tuple[list[str], list[ApiCall]]:
    """(tickers known so far, calls still needed to resolve the other companies)."""
    named, needed = _resolve(state, context)
    return list(named), needed


def asked_names(state: QuestionState, context: PlanContext) -> dict[str, str]:
    """Each known ticker and the name the question calls it by (its company as read, or the ticker)."""
    return _resolve(state, context)[0]


def _resolve(state: QuestionState, context: PlanContext) -> tuple[dict[str, str], list[ApiCall]]:
    found = {
        t.upper(): t.upper() for t in state.entities.tickers if _TICKER.match(t) and not _LONG_WORD.match(t)
    }
    needed: list[ApiCall] = []
    for company in state.entities.companies:
        ticker = context.directory.ticker(company)
        if ticker:
            found.setdefault(ticker, company)
            continue
        if company.upper() in found and not _without_data(state, company.upper()):
            continue  # read as a ticker too ("colm"): searched as a name only once the ticker has no data
        search = ApiCall("finance_get_company_name", {"query": company})
        if not state.done(search.route, **search.body):
            needed.append(search)
            continue
        answered, hits = state.answer(search.route, **search.body)
        official = best_company(
            company, hits if isinstance(hits, list) else [], context.config.min_name_similarity
        )
        if official is None:
            if answered and _TICKER_WORD.match(company):
                found.setdefault(
                    company.upper(), company
                )  # "tsla" in a question is usually the ticker, read as a name
                state.events.append(
                    Event("fallback", "company not in the KG, tried as a ticker", repr(company))
                )
            elif answered:
                state.events.append(Event("degraded", "company not in the KG", repr(company)))
            continue
        state.note_match(
            company,
            official,
            1.0
            if company_key(company) == company_key(official)
            else name_score(company_key(company) or company, company_key(official) or official),
        )
        lookup = ApiCall("finance_get_ticker_by_name", {"query": official})
        answered, ticker = state.answer(lookup.route, **lookup.body)
        if answered and isinstance(ticker, str) and ticker:
            found.setdefault(ticker, company)
        elif not state.done(lookup.route, **lookup.body):
            needed.append(lookup)
    return found, needed


def data_relations(state: QuestionState) -> list[Relation]:
    """The picked relations whose routes hold the facts (the ticker is resolved anyway), else the
    default ones; a market value asked with the stock's words ("what is the stock worth?") adds its
    prices, and so does the latest price asked while the market is closed."""
    chosen = [r for r in picked(state, "finance") if r.name != "ticker"]
    if not chosen:
        return [BY_NAME[name] for name in FINANCE_DEFAULT]
    if (
        {r.name for r in chosen} <= {"market_cap"}
        and state.intent is not None
        and state.intent.asks("generic_price")
    ):
        chosen.append(BY_NAME["closing_price"])
    now = eastern_time(state.query_time)
    if any(r.name == "latest_price" for r in chosen) and now is not None and not _trading(now):
        chosen.append(BY_NAME["closing_price"])  # the market closed: the latest price is a day's close
    return list(dict.fromkeys(chosen))


def routes_for(state: QuestionState) -> list[str]:
    return list(dict.fromkeys(route for relation in data_relations(state) for route in relation.routes))


def plan(state: QuestionState, context: PlanContext) -> list[ApiCall]:
    known, needed = tickers(state, context)
    routes = routes_for(state)
    # route by route, so that under a tight budget every company gets the most wanted facts first
    return needed + [ApiCall(route, {"query": ticker}) for route in routes for ticker in known]


# --- rendering --------------------------------------------------------------------------------------


def render(state: QuestionState, context: PlanContext) -> Evidence:
    config = context.config
    evidence = Evidence()
    known, _ = tickers(state, context)
    now = eastern_time(state.query_time)
    intent = state.reading
    for result in state.answered(TICKER_BY_NAME):
        if isinstance(result.result, str) and result.result:
            evidence.add(
                f"{result.call.body['query']} / ticker symbol: {result.result}",
                found=intent.picks("finance", "ticker"),
            )
    for ticker in known:
        for route in routes_for(state):
            answered, result = state.answer(route, query=ticker)
            if not answered:
                continue
            if is_empty(result):
                evidence.add(*_nothing_of(ticker, route, state))
                continue
            if route == "finance_get_price_history":
                evidence.add(
                    render_daily(ticker, result, state, now),
                    contradicts=_no_session_on_asked_day(result, state, now),
                )
            elif route == "finance_get_detailed_price_history":
                evidence.add(render_intraday(ticker, result, now))
            elif route == "finance_get_dividends_history":
                evidence.add(render_dividends(ticker, result, state))
            elif route == "finance_get_info":
                info = result if isinstance(result, dict) else {}
                keys = _asked_keys(info, state) + [k for k in INFO_KEYS if k in info]
                keys = list(dict.fromkeys(keys)) or list(info)[: config.max_list_items]
                evidence.add("\n".join(f"{ticker} / {key}: {plain(info[key], config)}" for key in keys))
            else:
                evidence.add(f"{ticker} / {FACT_LABELS[route]} (KG, current): {number(result)}")
    for route in FACT_LABELS:
        evidence.add(_compared(route, known, state))
    if _price_of_a_dividend_day(state) and (day := _dividend_day(state, known)) is not None:
        evidence.add(_dividend_day_line(state, known[0], day, now))
    return evidence


def _nothing_of(ticker: str, route: str, state: QuestionState) -> tuple[str, bool, bool]:
    """The line of a route that gave nothing for a known ticker, whether it is about the asked
    entity and whether it denies the question's premise: so where the asked relation's record is
    complete ("the day it last paid a dividend" of a company that never paid one), unless the
    question counts or asks yes or no (none is then an answer)."""
    what = route.removeprefix("finance_get_").replace("_", " ")
    relation = next((r for r in picked(state, "finance") if route in r.routes and r.complete), None)
    if relation is None:
        return f"{ticker} / {what}: no data in the KG", False, False
    denies = state.reading.operation not in ("count", "yes_no")
    return f"{ticker} / {relation.label}: none in the KG's complete record (never any)", True, denies


def _dividend_day_line(state: QuestionState, ticker: str, day: date, now: datetime | None) -> str:
    """The trading of the day a dividend picks, beside the payment."""
    which = "first" if state.reading.asks("earlier") else "last"
    days = _completed_days(_bars(state.answer(PRICES, query=ticker)[1]), now)
    by_day, ordered = dict(days), [d for d, _ in days]
    if day not in by_day:
        return f"{ticker} paid its {which} dividend on {dated(day)}; no trading data of that day in the KG"
    before = [d for d in ordered if d < day]
    return f"{ticker} paid its {which} dividend on {dated(day)}; that day's trading: " + _day_line(
        ticker, day, by_day[day], by_day[before[-1]] if before else None
    )


def _asked_keys(info: dict, state: QuestionState) -> list[str]:
    """Keys of a company record whose every word the question uses ("dividend yield": dividendYield,
    not trailingAnnualDividendYield), shown first."""
    return [key for key in info if state.reading.names_record_key(str(key))]


def _compared(route: str, known: list[str], state: QuestionState) -> str:
    """One figure of several companies ranked, highest first ("" for fewer than two)."""
    values = {}
    for ticker in known:
        answered, result = state.answer(route, query=ticker)
        if answered and _real(result) is not None:
            values[ticker] = result
    if len(values) < 2:
        return ""
    names = {
        r.result: r.call.body["query"] for r in state.answered(TICKER_BY_NAME) if isinstance(r.result, str)
    }
    ranked = sorted(values.items(), key=lambda item: item[1], reverse=True)
    named = [
        f"{ticker}{f' ({names[ticker]})' if ticker in names else ''} {number(value)}"
        for ticker, value in ranked
    ]
    return f"{FACT_LABELS[route]} compared (KG, current), highest first: " + " > ".join(named)


def _bars(result: object) -> list[tuple[datetime, dict]]:
    """(ET timestamp, bar) sorted, from `{"2024-02-22 09:30:00 EST": {...}}`."""
    bars = []
    for key, bar in (result or {}).items() if isinstance(result, dict) else []:
        try:
            moment = datetime.strptime(str(key)[:19], "%Y-%m-%d %H:%M:%S")
        except ValueError:
            continue
        if isinstance(bar, dict):
            bars.append((moment, bar))
    return sorted(bars, key=lambda item: item[0])


def _real(value: object) -> float | None:
    """A JSON number as a float (booleans are not numbers here)."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _close(bar: dict) -> float | None:
    return _real(bar.get("Close"))


# Whole words: "open 47.02" read beside "market closed" confused small models about what was open.
_PRICE_NAMES = {
    "Open": "opening price",
    "High": "highest price",
    "Low": "lowest price",
    "Close": "closing price",
}


def _day_line(ticker: str, day: date, bar: dict, previous: dict | None) -> str:
    parts = [
        f"{label} {money(bar[name])}"
        for name, label in _PRICE_NAMES.items()
        if isinstance(bar.get(name), (int, float))
    ]
    if bar.get("Volume") is not None:
        parts.append(f"{number(bar['Volume'])} shares traded")
    line = f"{ticker} on {dated(day)}: " + ", ".join(parts)
    close, before = _close(bar), _close(previous) if previous else None
    opening = _real(bar.get("Open"))
    if close is not None and opening is not None:
        relation = "above" if close > opening else "below" if close < opening else "at"
        line += f"; it closed {relation} its opening price ({close - opening:+.2f})"
    if close is not None and before:
        line += (
            f"; change from the previous close {money(before)}: {close - before:+.2f} "
            f"({(close - before) / before * 100:+.2f}%)"
        )
    return line


def _completed_days(bars: list[tuple[datetime, dict]], now: datetime | None) -> list[tuple[date, dict]]:
    """Daily bars of trading days completed at `now` (ET): today's bar counts only after the close."""
    days = [(moment.date(), bar) for moment, bar in bars]
    if now is None:
        return days
    return [
        (day, bar)
        for day, bar in days
        if day < now.date() or (day == now.date() and now.time() >= MARKET_CLOSE)
    ]


def _span_summary(
    ticker: str, label: str, rows: list[tuple[date, dict]], before: dict | None, state: QuestionState
) -> str:
    """A span of trading days: closes and their moves, the highest and lowest prices, and what the
    reading asks of the span's days: each asked column day by day with its total or average, the
    days that closed lower or higher."""
    closes = [(day, close) for day, bar in rows if (close := _close(bar)) is not None]
    if not closes:
        return ""
    highs = [(bar["High"], day) for day, bar in rows if isinstance(bar.get("High"), (int, float))]
    lows = [(bar["Low"], day) for day, bar in rows if isinstance(bar.get("Low"), (int, float))]
    first_day, first = closes[0]
    last_day, last = closes[-1]
    base = _close(before) if before else None
    previous = [base] + [close for _, close in closes[:-1]]
    moves = [(day, close - earlier) for earlier, (day, close) in zip(previous, closes) if earlier]
    lines = [
        f"{ticker} over {label} ({len(rows)} trading days, {dated(rows[0][0])} to {dated(rows[-1][0])}):",
        f"- average close {money(mean(c for _, c in closes))}; first close {money(first)} on "
        f"{dated(first_day)}; last close {money(last)} on {dated(last_day)}",
        f"- change first to last close: {last - first:+.2f} dollars ({(last - first) / first * 100:+.2f}%)",
    ]
    if base:
        lines.append(
            f"- change from the close before the span ({money(base)}): {last - base:+.2f} dollars "
            f"({(last - base) / base * 100:+.2f}%)"
        )
    if highs:
        high, high_day = max(highs)
        lines.append(f"- highest price {money(high)} on {dated(high_day)}")
    if lows:
        low, low_day = min(lows)
        lines.append(f"- lowest price {money(low)} on {dated(low_day)}")
    down = [day for day, move in moves if move < 0]
    up = [day for day, move in moves if move > 0]
    lines.append(f"- up days {len(up)}, down days {len(down)} (close against the close before)")
    for asked, days, label in (("closed_lower", down, "below"), ("closed_higher", up, "above")):
        if state.reading.asks(asked):
            lines.append(
                f"- days that closed {label} the close before ({len(days)}): "
                + (", ".join(day.isoformat() for day in days) or "none")
            )
    for column in _asked_columns(state):
        lines += _column_lines(column, rows)
    if len(closes) <= MAX_LISTED_CLOSES:
        lines.append(
            "- closes: "
            + ", ".join(f"{money(c)} ({day.isoformat()} {weekday_name(day)[:3]})" for day, c in closes)
        )
    return "\n".join(lines)


def _asked_columns(state: QuestionState) -> list[str]:
    """The price columns the reading picked (opening, high, low, volume), in the table's order."""
    return [BY_NAME[name].field for name in PRICE_COLUMNS if state.reading.picks("finance", name)]


def _column_lines(column: str, rows: list[tuple[date, dict]]) -> list[str]:
    """One column of the span's days: its total (volume) or average (prices), then day by day."""
    values = [(day, value) for day, bar in rows if (value := _real(bar.get(column))) is not None]
    if not values:
        return []
    shown = (lambda v: number(int(v))) if column == "Volume" else money
    name = COLUMN_NAMES[column]
    total = sum(v for _, v in values)
    summary = (
        f"- {name} over the span: total {shown(total)}, average per day {shown(total / len(values))}"
        if column == "Volume"
        else f"- average of the daily {name}: {money(total / len(values))}"
    )
    if len(values) > MAX_LISTED_CLOSES:
        return [summary]
    return [
        summary,
        f"- daily {name}: "
        + ", ".join(f"{shown(v)} ({day.isoformat()} {weekday_name(day)[:3]})" for day, v in values),
    ]


def render_daily(ticker: str, result: object, state: QuestionState, now: datetime | None) -> str:
    days = _completed_days(_bars(result), now)
    if not days:
        return f"{ticker}: no completed trading day in the KG before the question's time"
    by_day = dict(days)
    ordered = [day for day, _ in days]
    lines: list[str] = []
    if now is not None:
        trading = _trading(now)
        lines.append(
            f"Question time on the exchange's clock: {now:%Y-%m-%d %H:%M} ET ({weekday_name(now.date())}), "
            f"{'during' if trading else 'outside'} trading hours"
        )
    spans = [s for s in state.reading.time.spans if s.start <= (now.date() if now else date.max)]
    for span in spans[:3]:
        lines += _span_lines(ticker, span, days, by_day, ordered, now, state)
    if not spans:
        last_day = ordered[-1]
        previous = by_day[ordered[-2]] if len(ordered) > 1 else None
        lines.append(
            f"Latest completed trading day: {_day_line(ticker, last_day, by_day[last_day], previous)}"
        )
        recent = days[-5:]
        lines.append(
            _span_summary(
                ticker,
                "the last 5 trading days",
                recent,
                by_day.get(ordered[-6]) if len(ordered) > 5 else None,
                state,
            )
        )
    return "\n".join(line for line in lines if line)


def _span_lines(
    ticker: str,
    span: DateSpan,
    days: list[tuple[date, dict]],
    by_day: dict,
    ordered: list[date],
    now: datetime | None,
    question: QuestionState,
) -> list[str]:
    def previous_of(day: date) -> dict | None:
        earlier = [d for d in ordered if d < day]
        return by_day[earlier[-1]] if earlier else None

    if span.granularity == "day":
        day = span.start
        if day in by_day:
            return [_day_line(ticker, day, by_day[day], previous_of(day))]
        earlier = [d for d in ordered if d < day]
        if now is not None and day == now.date() and day.weekday() < 5 and now.time() < MARKET_CLOSE:
            state = "had not opened yet" if now.time() < MARKET_OPEN else "was still open"
            line = (
                f"The session of {dated(day)} {state} at the question's time ({now:%H:%M} "
                "ET): no closing price yet"
            )
        else:
            line = f"No trading on {dated(day)} (market closed or no data for {ticker})"
        if earlier:
            last = earlier[-1]
            line += (
                "; the last trading day before it: "
                f"{_day_line(ticker, last, by_day[last], previous_of(last))}"
            )
        return [line]
    inside = [(d, bar) for d, bar in days if span.contains(d)]
    if not inside:
        return [f"No trading data for {ticker} in {span.label}"]
    edge = _edge_day(question, inside)
    if edge is not None:
        which, ((day, bar),) = edge
        return [f"The {which} trading day of {span.label}: " + _day_line(ticker, day, bar, previous_of(day))]
    return [
        _span_summary(ticker, f"{span.phrase} ({span.label})", inside, previous_of(inside[0][0]), question)
    ]


def _no_session_on_asked_day(result: object, state: QuestionState, now: datetime | None) -> bool:
    """The question names a day (up to its own) on which the stock did not trade, or whose session
    had not closed yet at the question's time."""
    traded = {day for day, _ in _completed_days(_bars(result), now)}
    asked = [
        s.start
        for s in state.reading.time.spans
        if s.granularity == "day" and s.start <= (now.date() if now else date.max)
    ]
    return bool(traded) and any(day not in traded for day in asked)


def render_intraday(ticker: str, result: object, now: datetime | None) -> str:
    bars = [(moment, bar) for moment, bar in _bars(result) if now is None or moment <= now]
    if not bars:
        return f"{ticker}: no 1-minute prices in the KG before the question's time"
    last_moment, last_bar = bars[-1]
    session = [bar for moment, bar in bars if moment.date() == last_moment.date()]
    highs = [b["High"] for b in session if isinstance(b.get("High"), (int, float))]
    lows = [b["Low"] for b in session if isinstance(b.get("Low"), (int, float))]
    lines = [
        f"{ticker} latest price as of the question's time: {money(_close(last_bar) or 0)} at "
        f"{last_moment:%Y-%m-%d %H:%M} ET ({weekday_name(last_moment.date())}, last 1-minute bar)"
    ]
    if now is not None and last_moment.date() != now.date():
        lines.append(
            f"No trading on {dated(now.date())} before the question's time; the latest session was "
            f"{dated(last_moment.date())}"
        )
    opening = session[0].get("Open")
    if isinstance(opening, (int, float)) and highs and lows:
        lines.append(
            f"{ticker} session of {dated(last_moment.date())} so far: opening price {money(opening)}, "
            f"highest price {money(max(highs))}, lowest price {money(min(lows))}"
        )
    return "\n".join(lines)


def render_dividends(ticker: str, result: object, state: QuestionState) -> str:
    today = state.today or date.max
    payments = sorted(
        (day, v)
        for k, v in (result.items() if isinstance(result, dict) else [])
        if (day := parse_day(k)) and day <= today
    )
    items = [(day, value) for day, v in payments if (value := _real(v)) is not None]
    if not items:
        return f"{ticker}: no dividends in the KG"
    spans = state.reading.time.spans
    lines = [
        f"{ticker} dividends (KG, {len(items)} payments from {items[0][0].isoformat()} to "
        f"{items[-1][0].isoformat()}):"
    ]
    for span in spans[:2]:
        inside = [(d, v) for d, v in items if span.contains(d)]
        where = f"- in {span.phrase.removeprefix('in ')} ({span.label})"
        if inside:
            lines.append(
                f"{where}: {len(inside)} payment(s), total {round(sum(v for _, v in inside), 6):g}: "
                + ", ".join(f"{v:g} on {dated(d)}" for d, v in inside)
            )
        else:
            lines.append(f"{where}: {ticker} paid no dividend")
    totals: dict[int, list[float]] = {}
    for day, value in items:
        totals.setdefault(day.year, []).append(value)
    lines.append(
        "- total per year: "
        + "; ".join(f"{year}: {round(sum(v), 6):g} ({len(v)} payments)" for year, v in sorted(totals.items()))
    )
    lines.append("- latest payments: " + ", ".join(f"{v:g} on {dated(d)}" for d, v in items[-4:]))
    return "\n".join(lines)


# --- the asked attribute's rows, for the computed answer (models/kg/answer.py) ------------------------

# A column's daily values, as a computed answer names them.
ROW_NAMES = {
    "Open": "opening price",
    "High": "daily high price",
    "Low": "daily low price",
    "Close": "closing price",
    "Volume": "shares traded",
}


def facts(state: QuestionState, context: PlanContext) -> FactTable | None:
    """The rows of the figure the question asks about, for every ticker it names: dividends paid in
    its span; a company figure (EPS, P/E ratio, market cap) or a field of the company record it
    names; else a column of the daily prices (the one it names, the day's high or low for "the
    highest/lowest price", else the close) over its span, or on the latest completed trading day
    when it names no time, or the days of its span that closed lower (higher) than the day before."""
    names = asked_names(state, context)
    table = _asked_rows(state, list(names))
    if table is not None:
        table.facts = [replace(fact, subject=names.get(fact.subject, fact.subject)) for fact in table.facts]
    return table


def _asked_rows(state: QuestionState, known: list[str]) -> FactTable | None:
    intent = state.reading
    chosen = {relation.name: relation for relation in data_relations(state)}
    if "dividends" in chosen:
        column = _price_of_a_dividend_day(state)
        if column is not None:  # "the volume on the day of the last dividend": the dividend picks the day
            day = _dividend_day(state, known)
            return _price_table(state, known, day, column) if day is not None else None
        if column is None and _names_a_price_first(state):
            return None  # a dividend of the day a price picks: no rule here reads it
        return table_of(chosen["dividends"], _dividend_table(state, known))
    for name in FIGURES:
        if name in chosen:
            route = chosen[name].routes[0]
            figures = [
                (t, figure) for t in known if (figure := _real(state.answer(route, query=t)[1])) is not None
            ]
            return table_of(chosen[name], FactTable(chosen[name].label, [Fact(t, v) for t, v in figures]))
    keys = [key for t in known for key in _asked_keys(_info(state, t), state)]
    record = next((chosen[n] for n in ("record_figure", "company_profile") if n in chosen), None)
    if keys and record is not None:
        key = keys[0]
        values = [(t, _info(state, t).get(key)) for t in known]
        numbers = [(t, number) for t, v in values if (number := _real(v)) is not None]
        if key.lower().endswith("yield"):  # stored as a fraction of the price
            return FactTable(
                f"{key} (percent)",
                [Fact(t, round(v * 100, 4)) for t, v in numbers],
                unit="%",
                relation=record.name,
                value="number",
            )
        texts = [Fact(t, v) for t, v in values if isinstance(v, str) and v]
        return FactTable(
            key,
            [Fact(t, v) for t, v in numbers] + texts,
            relation=record.name,
            value="number" if numbers and not texts else "text",
        )
    if intent.asks("change") and not (intent.asks("highest") or intent.asks("lowest")):
        return None  # a move between prices ("how much did it gain"): the facts' own change lines state it
    times_named = bool(intent.option_times) and all(
        intent.option_times
    )  # "today or yesterday": days to set apart
    if "latest_price" in chosen and not times_named:
        return table_of(chosen["latest_price"], _latest_price_table(state, known))
    if any(relation.group == "prices" for relation in chosen.values()):
        return _price_table(state, known)
    return None


def _price_of_a_dividend_day(state: QuestionState) -> str | None:
    """The price column asked of the day a dividend picks ("what was the volume on the day of the
    last dividend?"): a column named before the dividend, with the dividend's first or last asked."""
    intent = state.reading
    dividend = intent.match("finance", "dividends")
    columns = [
        (m.at, BY_NAME[name].field)
        for name in PRICE_COLUMNS
        if (m := intent.match("finance", name)) is not None and m.by == "cue"
    ]
    if dividend is None or not columns or intent.asks("earlier") == intent.asks("later"):
        return None
    at, column = min(columns)
    return column if at < dividend.at else None


def _names_a_price_first(state: QuestionState) -> bool:
    """A price column is named before the dividend ("the dividend paid on the day of the highest volume")."""
    intent = state.reading
    dividend = intent.match("finance", "dividends")
    return dividend is not None and any(
        (m := intent.match("finance", name)) is not None and m.by == "cue" and m.at < dividend.at
        for name in PRICE_COLUMNS
    )


def _dividend_day(state: QuestionState, known: list[str]) -> date | None:
    """The day of the first or the last dividend (of the asked span), of the one company asked."""
    days = [fact.when for fact in _dividend_table(state, known).facts if fact.when is not None]
    if len(known) != 1 or not days:
        return None
    return min(days) if state.reading.asks("earlier") else max(days)


def _latest_price_table(state: QuestionState, known: list[str]) -> FactTable:
    """The price at the question's time ("right now", "today", "currently"): the last 1-minute bar's
    close, or, where the question names a column of the day ("today's open price"), the session's so
    far; outside trading hours, the latest completed day's (its official close, not its last minute's
    bar), unless a 1-minute bar is later than that day."""
    now = eastern_time(state.query_time)
    column = _session_column(state)
    found, closed = [], False
    for ticker in known:
        answered, result = state.answer(INTRADAY, query=ticker)
        bars = (
            [(moment, bar) for moment, bar in _bars(result) if now is None or moment <= now]
            if answered
            else []
        )
        completed = None
        if now is not None and not _trading(now):
            answered, result = state.answer(PRICES, query=ticker)
            days = _completed_days(_bars(result), now) if answered else []
            if days and (value := _real(days[-1][1].get(column or "Close"))) is not None:
                completed = Fact(ticker, value, days[-1][0])
        if completed is not None and (
            not bars or bars[-1][0].date() <= (completed.when or bars[-1][0].date())
        ):
            found.append(completed)
            closed = True
        elif bars:
            day = bars[-1][0].date()
            session = [bar for moment, bar in bars if moment.date() == day]
            value = _session_value(session, column)
            if value is not None:
                found.append(Fact(ticker, value, day))
    if column:
        label = f"{ROW_NAMES[column]} of the latest session"
    elif closed:
        label = "latest price (the market closed: the latest session's closing price)"
    else:
        label = "latest price (last 1-minute bar)"
    return FactTable(label, found)


def _trading(now: datetime) -> bool:
    return now.weekday() < 5 and MARKET_OPEN <= now.time() < MARKET_CLOSE


def _session_column(state: QuestionState) -> str | None:
    """The one column of the day the question names beside its time ("the open price for today"),
    None when it names none (or several): the price itself is asked."""
    intent = state.reading
    named = {
        BY_NAME[name].field
        for name in ("opening_price", "daily_high", "daily_low")
        if (match := intent.match("finance", name)) is not None
        and match.by == "cue"
        and (match.words != "open" or intent.asks("price_word"))
    }
    return next(iter(named)) if len(named) == 1 else None


def _session_value(session: list[dict], column: str | None) -> float | None:
    """A session's opening price, its high or low so far, else its last price."""
    if column == "Open":
        return _real(session[0].get("Open"))
    values = [v for bar in session if (v := _real(bar.get(column or ""))) is not None]
    if column == "High" and values:
        return max(values)
    if column == "Low" and values:
        return min(values)
    return _close(session[-1])


def _info(state: QuestionState, ticker: str) -> dict:
    answered, info = state.answer("finance_get_info", query=ticker)
    return info if answered and isinstance(info, dict) else {}


def _dividend_table(state: QuestionState, known: list[str]) -> FactTable:
    """The dividends paid in the asked span, up to the question's day (a later payment is not known then)."""
    spans = state.reading.time.spans[:1]
    today = state.today or date.max
    found = []
    for ticker in known:
        answered, result = state.answer("finance_get_dividends_history", query=ticker)
        for key, value in result.items() if answered and isinstance(result, dict) else []:
            day, amount = parse_day(key), _real(value)
            if (
                day is not None
                and amount is not None
                and day <= today
                and all(span.contains(day) for span in spans)
            ):
                found.append(Fact(ticker, amount, day))
    return FactTable(
        "dividends paid", sorted(found, key=lambda f: (f.subject, f.when or date.min)), additive=True
    )


def _price_table(
    state: QuestionState, known: list[str], on: date | None = None, asked: str | None = None
) -> FactTable | None:
    """The column the question names (or `asked`) over its span's days (or the one day `on`)."""
    intent = state.reading
    now = eastern_time(state.query_time)
    # the column the question names first; "the highest (lowest) price" is the day's high (low), and
    # a question about prices asks for no volume ("the highest price it traded at")
    prices = intent.asks("price_word")
    named = [
        (match.at, BY_NAME[name].field, match.words)
        for name in PRICE_COLUMNS
        if (match := intent.match("finance", name)) is not None
        and match.by == "cue"
        and not (prices and name == "volume")
    ]
    if len(named) > 1:  # a bare "open" beside another column is the market's state ("the day it was open")
        named = [(start, c, word) for start, c, word in named if word != "open"]
    if len(named) > 1:
        return None  # several columns asked ("the low and high prices"): no one value answers
    column = asked or (min(named)[1] if named else "Volume" if intent.asks("shares_traded") else None)
    if column is None:
        if not prices:
            return None  # no figure named: the question's figure is not known to be a price
        high, low = intent.asks("highest"), intent.asks("lowest")
        column = "High" if high and not low else "Low" if low and not high else "Close"
    lower, higher = intent.asks("closed_lower"), intent.asks("closed_higher")
    moved = (lower or higher) and intent.asks("days_asked") and on is None
    if on is not None:
        spans: list[DateSpan] = []
    elif intent.option_times and all(intent.option_times):  # "higher today or yesterday?": both days
        spans = [s for s in intent.option_times if s is not None]
    else:
        spans = [s for s in intent.time.spans if s.start <= (now.date() if now else date.max)][:1]
    money = intent.captures("money_amount")
    money_spent = money[0] if money and intent.asks("shares_bought") else None
    rows: list[Fact] = []
    for ticker in known:
        answered, result = state.answer(PRICES, query=ticker)
        days = _completed_days(_bars(result), now) if answered else []
        if not days:
            continue
        if on is not None:
            inside = [(day, bar) for day, bar in days if day == on]
        elif spans:
            inside = [(day, bar) for day, bar in days if any(span.contains(day) for span in spans)]
            edge = _edge_day(state, inside)
            inside = edge[1] if edge else inside
        elif intent.asks("many_days"):
            return None  # days the question counts in a way no span reads ("the last five trading days")
        else:
            inside = days[-1:]
        if not inside:
            return None  # no trading in the asked span: the facts say so, the model reads them
        if moved:
            rows += _moved_days(ticker, days, inside, lower=lower)
            continue
        for day, bar in inside:
            value = _real(bar.get(column))
            if value is None:
                continue
            if money_spent is not None and column == "Close" and value > 0:
                rows.append(Fact(ticker, float(int(float(money_spent["1"].replace(",", "")) // value)), day))
            else:
                rows.append(Fact(ticker, value, day))
    if money_spent is not None and column == "Close":
        return FactTable(f"whole shares {money_spent['0']} buys at the closing price", rows, value="number")
    if moved:
        return FactTable(
            f"days that closed {'below' if lower else 'above'} the close before", rows, value="date"
        )
    relation = next(r for r in FINANCE if r.group == "prices" and r.field == column)
    return table_of(relation, FactTable(ROW_NAMES[column], rows, additive=column == "Volume"))


def _edge_day(
    state: QuestionState, inside: list[tuple[date, dict]]
) -> tuple[str, list[tuple[date, dict]]] | None:
    """("first" or "last", the span's first or last trading day alone) when the wording asks for it
    ("the last trading day of 2023"); None when it does not, or the span has no day."""
    edge = state.reading.captures("edge_trading_day")
    if not edge or not inside:
        return None
    return ("first", inside[:1]) if edge[0]["edge"] == "first" else ("last", inside[-1:])


def _moved_days(
    ticker: str, days: list[tuple[date, dict]], inside: list[tuple[date, dict]], lower: bool
) -> list[Fact]:
    """The days of `inside` whose close is below (above) the close of the trading day before."""
    closes = {day: _close(bar) for day, bar in days}
    ordered = [day for day, _ in days]
    moved = []
    for day, _ in inside:
        position = ordered.index(day)
        before = closes[ordered[position - 1]] if position else None
        close = closes[day]
        if close is not None and before is not None and (close < before if lower else close > before):
            moved.append(Fact(ticker, day.isoformat(), day))
    return moved


FINANCE_DOMAIN = Domain("finance", FINANCE, applies, plan, render, facts)
