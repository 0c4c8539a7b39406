"""The scripted replies of `tools.check_t4x4`'s faked engine, which the recorder (tools/t4x4_recorder.py)
decodes and the check reads: a compact JSON instance of each guided-decoding schema (or a plain sentence
without one), its free text filled with words to a length, then <|eot_id|>; and the schemas' keys and
labels. Both modules import it; neither imports the other's module for it. Not a script.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

# Scripted values for the recorder's replies, by JSON property name (an expression may be padded with
# terms that leave its value); other strings are free text: filled with words to 90 % of their
# maxLength (a long reply, as a model that explains itself writes), or to a drawn reply length.
FILLER_WORDS = "the references state the figure for that year and the name of the place in the second line "
# Names and figures, as Llama-3-70B writes them: 1.5 times the Llama-3 tokens of the words above in
# as many characters (3.1 characters a token against 4.8), so that the schemas' caps hold replies
# 1.5 times as long (a reasoning reply at its caps: ~160 tokens against ~104).
DENSE_FILLER_WORDS = (
    "the 1987 census of Ouagadougou counted 96,513 people and Wojciechowski won 73.65% of the 2019 vote "
    "against Nguyen Thi Xuan of Hanoi "
)
SCRIPTED_STRINGS = {"expression": "6 * 7", "answer": "42"}
ARITHMETIC_PADDING = {"expression": " + 0"}  # terms that leave the value; other values are padded with words
EOT_ID = 128009  # Llama-3's <|eot_id|>, after every scripted reply

PLAIN_REPLY = "I don't know"


def scripted_reply(
    schema: dict[str, Any] | None,
    tokens: int | None = None,
    count_tokens: Callable[[str], int] | None = None,
    words: str = FILLER_WORDS,
) -> str:
    """A compact JSON instance of `schema` (or a plain sentence without one). With `tokens` (and the
    tokenizer's `count_tokens`), its free text is filled with `words` to about that many tokens in
    all, each string within its cap, in the order of the properties; else to 90 % of each cap."""
    if schema is None:
        return PLAIN_REPLY
    if tokens is None or count_tokens is None:
        return _compact(_instance(schema, None, _Filler(None, words)))
    skeleton = _compact(_instance(schema, None, _Filler(0, words)))
    chars_per_token = len(words) / count_tokens(words)
    budget = max(0, round((tokens - count_tokens(skeleton)) * chars_per_token))
    return _compact(_instance(schema, None, _Filler(budget, words)))


class _Filler:
    """The strings of a scripted reply: scripted values as they are (padded from the budget, when
    they can be), free text to 90 % of its cap without a budget, else from a budget of characters."""

    def __init__(self, budget: int | None, words: str):
        self.budget = budget
        self.words = words

    def text(self, name: str | None, limit: int | None) -> str:
        if name in SCRIPTED_STRINGS or limit is None:
            value = SCRIPTED_STRINGS.get(name or "", "n/a")
            if name in SCRIPTED_STRINGS and self.budget and limit is not None:
                room = min(self.budget, limit - len(value))
                padding = ARITHMETIC_PADDING.get(name)
                # whole units of an arithmetic padding; free words may stop anywhere
                words = (" " + self.words * (room // len(self.words) + 1))[:room]
                added = padding * (room // len(padding)) if padding else words
                self.budget -= len(added)
                value += added.rstrip()
            return value[: limit if limit is not None else len(value)]
        chars = int(limit * 0.9) if self.budget is None else min(limit, self.budget)
        if self.budget is not None:
            self.budget -= chars
        filler = self.words * (limit // len(self.words) + 1)
        return filler[:chars].strip()


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _instance(schema: dict[str, Any], name: str | None, filler: _Filler) -> Any:
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        properties = schema.get("properties", {})
        required = schema.get("required", list(properties))
        return {key: _instance(properties[key], key, filler) for key in required if key in properties}
    if kind == "array":
        return [_instance(schema["items"], name, filler)] if schema.get("maxItems", 1) > 0 else []
    if kind == "string":
        return filler.text(name, schema.get("maxLength"))
    if kind in ("integer", "number"):
        return 0
    if kind == "boolean":
        return False
    return None


def uncapped(schema: Any) -> Any:
    """`schema` without the length and count caps xgrammar 0.1.18 refuses."""
    if isinstance(schema, dict):
        return {
            key: uncapped(value)
            for key, value in schema.items()
            if key not in ("maxLength", "minLength", "maxItems", "minItems")
        }
    if isinstance(schema, list):
        return [uncapped(item) for item in schema]
    return schema


def schema_key(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True)


def schema_label(schema: dict[str, Any]) -> str:
    properties = schema.get("properties", {})
    return "{" + ", ".join(properties) + "}" if properties else schema_key(schema)[:60]
