"""The one Markdown-table renderer, for evidence (web tables, KG facts) and for reports."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence


def _plain_cell(value: Any) -> str:
    return "" if value is None else str(value)


def table_row(
    cells: Sequence[Any], width: int | None = None, cell: Callable[[Any], str] = _plain_cell
) -> str:
    """One `| a | b |` line; short rows are padded to `width`; pipes and line breaks inside a cell are
    neutralised so the row keeps its columns."""
    texts = [cell(value).replace("|", "/").replace("\n", " ") for value in cells]
    texts += [""] * ((width or len(texts)) - len(texts))
    return "| " + " | ".join(texts) + " |"


def markdown_table(
    headers: Sequence[Any], rows: Iterable[Sequence[Any]], cell: Callable[[Any], str] = _plain_cell
) -> str:
    width = len(headers)
    lines = [table_row(headers, width), "|" + " --- |" * width]
    lines += [table_row(row, width, cell) for row in rows]
    return "\n".join(lines)
