"""Final-answer hygiene: the exact strings the CRAG scorer treats specially, and a token cap.

The scorer counts any prediction containing "i don't know" as missing (0 points) and only the exact
`invalid question` as right on false-premise questions, so every stage's free text passes through
`normalize_answer` before it becomes a prediction; a text without a letter or digit is no answer.
"""

from __future__ import annotations

import json
import re

from models.llm.base import LLMBackend
from models.replies import find_json

I_DONT_KNOW = "I don't know"
INVALID_QUESTION = "invalid question"

_DONT_KNOW = re.compile(r"\bi\s+(?:don'?t|do\s+not)\s+know\b", re.IGNORECASE)
_INVALID = re.compile(
    r"^(?:invalid[\s_-]*(?:question|premise)?|(?:the|this)\s+question\s+is\s+invalid|false[\s_-]*premise)$",
    re.IGNORECASE,
)
_INVALID_PHRASE = re.compile(r"\b(?:invalid[\s_]+question|false[\s_-]+premise)\b", re.IGNORECASE)
# "Answer:", "**Final answer**:", "final_answer =" and similar labels in front of the answer.
_LABEL = re.compile(r"^\W*(?:the\s+)?(?:final[\s_]+)?answer\W*?\s*[:=]\s*", re.IGNORECASE)
_SPECIAL_TOKEN = re.compile(r"<\|[^|>]*\|>|</?s>")
_FENCE = re.compile(r"^```[a-z]*\s*|\s*```$", re.IGNORECASE)
_WRAPPERS = "\"'`*_ \t\n"


def normalize_answer(text: str) -> str:
    """A clean answer string; `I don't know` and `invalid question` in their exact scored forms."""
    text = _SPECIAL_TOKEN.sub(" ", text or "").replace("\u2019", "'")
    text = _FENCE.sub("", text.strip())
    text = _LABEL.sub("", text, count=1).strip(_WRAPPERS)
    text = " ".join(text.split())
    if text.endswith(".") and ". " not in text:
        text = text[:-1].rstrip(_WRAPPERS)
    # A reply with no letter or digit ("," or "...") is degenerate: no answer, whatever caused it.
    if not any(character.isalnum() for character in text) or _DONT_KNOW.search(text):
        return I_DONT_KNOW
    if _INVALID.match(text) or _INVALID_PHRASE.search(text):
        return INVALID_QUESTION
    return text


def cap_answer_tokens(text: str, llm: LLMBackend, max_tokens: int) -> str:
    """`text` cut to `max_tokens` tokens at a word boundary; one overlong word becomes `I don't know`."""
    capped = llm.truncate_to_tokens(text, max_tokens).strip()
    return capped or I_DONT_KNOW


def parse_structured_reply(text: str, fields: tuple[str, ...]) -> dict[str, str]:
    """The `fields` found in a model reply, as strings; missing fields are left out.

    Accepts, in order: a JSON object (possibly inside a code fence or surrounded by prose), the
    fields' `"name": value` pairs of a truncated or malformed JSON object, and `Name: value` lines
    of plain text (the last such line wins, as models restate answers at the end).
    """
    text = _FENCE.sub("", (text or "").strip())
    found = find_json(text)
    if found is not None:
        return {name: _as_text(found[name]) for name in fields if name in found and found[name] is not None}
    result = {}
    for name in fields:
        value = _json_pair(text, name)
        if value is None:
            value = _labelled_line(text, name)
        if value is not None:
            result[name] = value
    return result


def _json_pair(text: str, name: str) -> str | None:
    match = re.search(rf'"{name}"\s*:\s*(?:"((?:[^"\\]|\\.)*)|(true|false|-?\d[\d.]*))', text, re.IGNORECASE)
    if match is None:
        return None
    if match.group(1) is None:
        return match.group(2).lower()
    try:
        return json.loads(f'"{match.group(1)}"')
    except ValueError:
        return match.group(1)


def _labelled_line(text: str, name: str) -> str | None:
    label = name.replace("_", r"[\s_]+")
    pattern = rf"^\W*(?:final[\s_]+)?{label}\W*?\s*[:=]\s*(.+)$"
    matches = re.findall(pattern, text, re.IGNORECASE | re.MULTILINE)
    return matches[-1].strip() if matches else None


def _as_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value)


def is_yes(value: str | None) -> bool:
    """A structured yes/no field (true, yes, "True") read as a boolean."""
    return (value or "").strip().strip("\"'").lower() in {"true", "yes", "1"}
