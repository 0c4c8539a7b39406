"""HTML tables as Markdown, read with selectolax (lexbor) and taken out of the page's text.

A data table has at least min_table_rows rows and a row of at least min_table_columns cells, and
no cell of long prose (that is page layout); anything else stays in the page as text. Tables are
read innermost first (reverse document order) and each data table read is removed from the tree,
so an outer table never repeats an inner one and the text taken afterwards never repeats either.
"""

from __future__ import annotations

from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser, LexborNode

from models.config import WebConfig
from models.markdown import markdown_table, table_row

_HIDDEN_SELECTOR = "script, style, noscript, template"
_CELL_TAGS = frozenset({"td", "th"})


@dataclass
class TableLimits:
    min_rows: int
    min_columns: int
    max_rows: int
    max_columns: int
    max_cell_chars: int
    layout_cell_chars: int
    max_tables: int
    max_chars: int

    @classmethod
    def from_config(cls, config: WebConfig) -> TableLimits:
        return cls(
            min_rows=config.min_table_rows,
            min_columns=config.min_table_columns,
            max_rows=config.max_table_rows,
            max_columns=config.max_table_columns,
            max_cell_chars=config.max_table_cell_chars,
            layout_cell_chars=config.layout_cell_chars,
            max_tables=config.max_tables_per_page,
            max_chars=config.table_max_chars,
        )


def pop_tables(parser: LexborHTMLParser, page_name: str, limits: TableLimits) -> tuple[list[str], int]:
    """Markdown of the page's data tables, and how many tables were removed from `parser`'s tree.

    Empty data tables are removed too, and so are those past the first max_tables Markdown tables
    (their Markdown dropped).
    """
    markdown: list[str] = []
    removed = 0
    for table in reversed(parser.css("table")):
        rows = _data_rows(table, limits)
        if rows is None:
            continue
        if rows:
            markdown.extend(reversed(_as_markdown(rows, page_name, limits.max_chars)))
        table.decompose()
        removed += 1
    markdown.reverse()
    return markdown[: limits.max_tables], removed


def _data_rows(table: LexborNode, limits: TableLimits) -> list[list[str]] | None:
    """Non-empty rows as cell texts, or None when the table is layout rather than data."""
    row_nodes = table.css("tr")
    if len(row_nodes) < limits.min_rows:
        return None
    for hidden in table.css(_HIDDEN_SELECTOR):  # script text must never reach a cell
        hidden.decompose()
    rows = []
    widest = 0
    for row_node in row_nodes[: limits.max_rows]:
        cells: list[str] = []
        for node in row_node.iter():
            if node.tag not in _CELL_TAGS:
                continue
            text = " ".join(node.text(separator=" ").split())
            if len(text) > limits.layout_cell_chars:
                return None
            cells.extend([_capped(text, limits.max_cell_chars)] * _colspan(node, limits.max_columns))
            if len(cells) >= limits.max_columns:
                del cells[limits.max_columns :]
                break
        widest = max(widest, len(cells))
        if any(cells):
            rows.append(cells)
    if widest < limits.min_columns:
        return None
    return rows


def _capped(text: str, max_chars: int) -> str:
    # A pipe inside a cell would read as a column break to simple Markdown readers (retrieval's).
    text = text.replace("|", "/")
    if len(text) <= max_chars:
        return text
    cut = text.rfind(" ", 0, max_chars + 1)
    return text[: cut if cut > 0 else max_chars] + " …"


def _colspan(node: LexborNode, max_columns: int) -> int:
    raw = (node.attrs.get("colspan") or "").strip()
    return max(1, min(int(raw), max_columns)) if raw.isdigit() else 1


def _as_markdown(rows: list[list[str]], page_name: str, max_chars: int) -> list[str]:
    """One Markdown table, or several when long: each piece repeats the heading and header row."""
    width = max(len(row) for row in rows)
    lines = [table_row(row, width) for row in rows[1:]]
    head = f"Page name: {page_name}\n" + markdown_table(rows[0] + [""] * (width - len(rows[0])), [])
    pieces: list[str] = []
    body: list[str] = []
    size = len(head)
    for line in lines:
        if body and size + 1 + len(line) > max_chars:
            pieces.append("\n".join([head, *body]))
            body, size = [], len(head)
        body.append(line)
        size += 1 + len(line)
    pieces.append("\n".join([head, *body]))
    return pieces
