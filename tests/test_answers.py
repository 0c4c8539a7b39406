from __future__ import annotations

import pytest

from models.answers import (
    I_DONT_KNOW,
    INVALID_QUESTION,
    cap_answer_tokens,
    is_yes,
    normalize_answer,
    parse_structured_reply,
)
from tests.doubles import ScriptedLLM


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Paris", "Paris"),
        ("  Answer: Paris.  ", "Paris"),
        ("**Final answer:** 42", "42"),
        ("final_answer = 1530 days", "1530 days"),
        ('"universal pictures"', "universal pictures"),
        ("`yes`", "yes"),
        ("```\nno\n```", "no"),
        ("The answer is Paris<|im_end|>", "The answer is Paris"),
        ("Inc. and Co. were both founded in 1990.", "Inc. and Co. were both founded in 1990."),
        ("", I_DONT_KNOW),
        ("   \n ", I_DONT_KNOW),
        (",", I_DONT_KNOW),  # degenerate: no letter or digit
        ("...", I_DONT_KNOW),
        ('"—"', I_DONT_KNOW),
        ("7", "7"),
        ("東京", "東京"),
        ("I don't know", I_DONT_KNOW),
        ("i don't know.", I_DONT_KNOW),
        ("I DO NOT KNOW the answer", I_DONT_KNOW),
        ("Sorry, I don\u2019t know.", I_DONT_KNOW),
        ("The references do not say, so I don't know", I_DONT_KNOW),
        ("invalid question", INVALID_QUESTION),
        ("Invalid Question.", INVALID_QUESTION),
        ("invalid_question", INVALID_QUESTION),
        ("Answer: invalid", INVALID_QUESTION),
        ("The question is invalid.", INVALID_QUESTION),
        ("false premise", INVALID_QUESTION),
        ("This is an invalid question because he never won.", INVALID_QUESTION),
        ("The question rests on a false premise.", INVALID_QUESTION),
        ("an invalid argument error", "an invalid argument error"),
    ],
)
def test_normalize_answer(raw, expected):
    assert normalize_answer(raw) == expected


def test_normalize_answer_accepts_none():
    assert normalize_answer(None) == I_DONT_KNOW


def test_cap_answer_tokens_cuts_at_word_boundary():
    llm = ScriptedLLM([])  # counts one token per word
    assert cap_answer_tokens("one two three four", llm, 2) == "one two"
    assert cap_answer_tokens("short", llm, 75) == "short"


def test_cap_answer_tokens_never_returns_empty():
    llm = ScriptedLLM([])
    assert cap_answer_tokens("", llm, 5) == I_DONT_KNOW


FIELDS = ("reasoning", "false_premise", "answer")


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            '{"reasoning": "r", "false_premise": false, "answer": "Paris"}',
            {"reasoning": "r", "false_premise": "false", "answer": "Paris"},
        ),
        ('```json\n{"answer": 42, "false_premise": true}\n```', {"answer": "42", "false_premise": "true"}),
        ('Sure! Here it is: {"answer": "x"} Hope it helps.', {"answer": "x"}),
        # truncated JSON: the closed fields are still read
        (
            '{"reasoning": "the page says \\"no\\"", "false_premise": false, "answer": "no',
            {
                "reasoning": 'the page says "no"',
                "false_premise": "false",
                "answer": "no",
            },
        ),
        ('{"reasoning": "cut off mid-sentence', {"reasoning": "cut off mid-sentence"}),
        (
            "Reasoning: the page lists 3.\nFalse premise: no\nAnswer: 3",
            {"reasoning": "the page lists 3.", "false_premise": "no", "answer": "3"},
        ),
        ("**Final Answer**: Tokyo", {"answer": "Tokyo"}),
        ("no structure at all", {}),
        ("", {}),
    ],
)
def test_parse_structured_reply(reply, expected):
    assert parse_structured_reply(reply, FIELDS) == expected


@pytest.mark.parametrize(
    ("value", "expected"), [("true", True), ("Yes", True), ('"true"', True), ("no", False), (None, False)]
)
def test_is_yes(value, expected):
    assert is_yes(value) is expected
