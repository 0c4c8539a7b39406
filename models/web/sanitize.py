"""Making any input safe for the HTML parsers: type, size, encoding and nesting depth.

lexbor (under resiliparse) parses in time that grows with nesting depth times page size, and
resiliparse's main-content pass even faster than that, so a page nested thousands of levels deep
can run for minutes. A cheap regex scan estimates the depth first; a page deeper than the cap is
flattened (container tags removed, text and table structure kept) before any parser sees it.
"""

from __future__ import annotations

import html as html_entities
import re
from itertools import accumulate

# Elements that never nest (void) or close implicitly; counting them would overstate depth.
_NON_NESTING = (
    "area|base|br|col|colgroup|embed|hr|img|input|link|meta|param|source|track|wbr|p|li|dt|dd|"
    "option|optgroup|tr|td|th|thead|tbody|tfoot|rp|rt|frame|image|keygen"
)
# Case-sensitive (lower or upper case names) beats IGNORECASE (benchmarks/web_pages.py); mixed case is rare.
_NESTING_TAG_MARK = re.compile(rf"<(/?)(?!(?:{_NON_NESTING}|{_NON_NESTING.upper()})[\s/>])[a-zA-Z]")
_DEPTH_STEP = {"": 1, "/": -1}

_HIDDEN_BLOCK_OPEN = re.compile(r"<(script|style|noscript|template)\b", re.IGNORECASE)
_HIDDEN_BLOCK_CLOSE = {
    name: re.compile(rf"</{name}\s*>", re.IGNORECASE) for name in ("script", "style", "noscript", "template")
}
# `[^<>]*` (not `[^>]*`) keeps the scan linear on text full of stray '<'.
_ANY_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)[^<>]*>")
_KEPT_WHEN_FLAT = "table caption thead tbody tfoot tr td th br p li h1 h2 h3 h4 h5 h6 title"
_TAGS_KEPT_WHEN_FLAT = frozenset(_KEPT_WHEN_FLAT.split())
_BLOCKS = (
    "div section article main header footer nav aside ul ol dl dt dd blockquote pre form "
    "fieldset figure figcaption address body html center"
)
_BLOCK_TAGS = frozenset(_BLOCKS.split())


def as_text(raw: object) -> tuple[str, str | None]:
    """Any input as a str, with an error message when it was not text at all."""
    if raw is None:
        return "", None
    if isinstance(raw, str):
        return raw, None
    if isinstance(raw, (bytes, bytearray, memoryview)):
        return bytes(raw).decode("utf-8", errors="replace"), None
    return "", f"expected HTML as str, got {type(raw).__name__}"


def to_utf8(html: str) -> bytes:
    """UTF-8 bytes for the parsers; lone surrogates (which crash lxml and resiliparse) become '?'."""
    return html.encode("utf-8", errors="replace")


def estimated_nesting_depth(html: str) -> int:
    """Deepest running count of open minus closed nesting tags: an upper-bound-ish guess, no parse."""
    marks = _NESTING_TAG_MARK.findall(html)
    return max(accumulate(map(_DEPTH_STEP.__getitem__, marks)), default=0)


def flatten_markup(html: str) -> str:
    """The page without hidden blocks and without container tags, so no parser sees deep nesting."""
    visible = _drop_hidden_blocks(html)
    return _ANY_TAG.sub(_flat_tag, visible)


def visible_text(html: str, max_chars: int) -> str:
    """The words a reader would see in the first `max_chars` characters of `html`, without a parser:
    hidden blocks and tags dropped by regular expression, entities decoded, whitespace collapsed.
    Cheap and linear, for a first look at a page before deciding whether to parse it."""
    text = _ANY_TAG.sub(" ", _drop_hidden_blocks(html[:max_chars]))
    return " ".join(html_entities.unescape(text).split())


def _flat_tag(match: re.Match[str]) -> str:
    name = match.group(2).lower()
    if name in _TAGS_KEPT_WHEN_FLAT:
        return match.group(0)
    return "\n" if name in _BLOCK_TAGS else " "


def _drop_hidden_blocks(html: str) -> str:
    parts = []
    position = 0
    while (opening := _HIDDEN_BLOCK_OPEN.search(html, position)) is not None:
        parts.append(html[position : opening.start()])
        closing = _HIDDEN_BLOCK_CLOSE[opening.group(1).lower()].search(html, opening.end())
        if closing is None:
            return "".join(parts)
        position = closing.end()
    parts.append(html[position:])
    return "".join(parts)
