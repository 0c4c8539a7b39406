"""The correctness rule of `benchmarks/kg.py --system` (evaluation/answer_match.py)."""

import pytest

from evaluation.answer_match import is_correct, is_refusal


@pytest.mark.parametrize(
    "prediction, gold",
    [
        ("$49.31", "49.31"),
        ("It closed at $49.310.", "49.31"),
        ("1,402,233 shares", "1402233"),
        ("about $61.8 billion", "$61.8 billion"),
        ("61.8B", "61800000000"),
        ("-0.42", "-0.42"),
        ("It paid on January 18, 2024.", "2024-01-18"),
        ("01/18/2024", "2024-01-18"),
        ("Three times.", "3"),
        ("Lumora Foods has the higher P/E ratio.", "lumora foods"),
        ("Yes, it closed higher.", "yes"),
        ("Martin Ödegaard", "martin odegaard"),
    ],
)
def test_correct(prediction, gold):
    assert is_correct(prediction, gold)


@pytest.mark.parametrize(
    "prediction, gold",
    [
        ("125", "12"),  # word-bounded
        ("49.3", "49.31"),
        ("0.42", "-0.42"),  # the sign counts
        ("$0.36", "$0.36 on 2024-03-05"),  # every part of the gold answer
        ("2024-03-05 and $0.36", "$0.36 on 2024-03-05"),  # in order
        ("Brightwater Energy", "lumora foods"),
        ("I don't know", "i don't know"),  # a refusal is never an answer
    ],
)
def test_wrong(prediction, gold):
    assert not is_correct(prediction, gold)


def test_refusal():
    assert is_refusal("I don't know.")
    assert is_refusal("i dont know")
    assert not is_refusal("invalid question")
