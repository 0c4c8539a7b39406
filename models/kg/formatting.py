"""Text helpers shared by the domain renderers: numbers without misleading separators, plain
values, capped blocks."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from babel import Locale, UnknownLocaleError

from models.config import KGConfig
from models.kg.timeparse import weekday_name


def number(value: Any) -> str:
    """A value as the model should read it: integers and years plain ("2010", never "2,010"), large
    amounts also in millions or billions, floats without float noise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if value != value:  # NaN
        return "unknown"
    text = (
        str(value)
        if isinstance(value, int)
        else f"{round(value, 4):g}"
        if abs(value) < 1e6
        else f"{value:.0f}"
    )
    if abs(value) >= 1e9:
        return f"{text} ({value / 1e9:.2f} billion)"
    if abs(value) >= 1e6:
        return f"{text} ({value / 1e6:.2f} million)"
    return text


def money(value: float) -> str:
    return f"{value:.2f}"


def plain(value: Any, config: KGConfig) -> str:
    if isinstance(value, list):
        shown = [plain(v, config) for v in value[: config.max_list_items]]
        more = len(value) - len(shown)
        return ", ".join(shown) + (f" (+{more} more)" if more > 0 else "")
    if isinstance(value, dict):
        return "; ".join(f"{k}: {plain(v, config)}" for k, v in value.items())
    if value is None:
        return "none"
    return number(value)


def is_empty(value: Any) -> bool:
    """Official "not found" shapes: null, "", [], {}, [null, null] and [[], []]."""
    if value is None or value == "" or value == [] or value == {}:
        return True
    return isinstance(value, list) and all(v is None or v == [] for v in value)


def parse_day(text: Any) -> date | None:
    try:
        return datetime.strptime(str(text)[:10], "%Y-%m-%d").date()
    except ValueError:
        return None


def dated(day: date) -> str:
    """ "2024-03-08 (Friday)": a date with its weekday, so the model need not compute it."""
    return f"{day.isoformat()} ({weekday_name(day)})"


def country_name(code: str) -> str:
    """An ISO-3166 alpha-2 code with its English name ("JP (Japan)"); any other text as it is."""
    try:
        name = Locale("en").territories.get(code.strip().upper()) if len(code.strip()) == 2 else None
    except UnknownLocaleError:
        name = None
    return f"{code.strip().upper()} ({name})" if name else code


def cap(text: str, limit: int) -> str:
    """`text` within `limit` characters, cut at a line end when one is near, marked by a last "…" line."""
    if len(text) <= limit:
        return text
    cut = text[: max(limit - 2, 0)]
    newline = cut.rfind("\n")
    return (cut[:newline] if newline > limit // 2 else cut.rstrip()) + "\n…"


def column_rows(result: Any) -> list[tuple[str, dict]]:
    """(row key, row) pairs of a pandas column-oriented result `{column: {row_key: value}}`."""
    if not isinstance(result, dict) or not result or not all(isinstance(v, dict) for v in result.values()):
        return []
    keys = list(dict.fromkeys(k for column in result.values() for k in column))
    return [(key, {column: values.get(key) for column, values in result.items()}) for key in keys]
