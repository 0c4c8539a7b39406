"""Issue 53, batch 7 of the labelled cases: a sentence gold's key facts as the typed values a short gold
would be, when the question asks for more than one thing or the sentence says more than its answer.
Each case fails without the reading it names. Golds are written here in CRAG's style."""

from __future__ import annotations

import pytest

from evaluation.answer_match import Verdict, judge_answer

CORRECT, WRONG, UNSURE = Verdict.CORRECT, Verdict.WRONG, Verdict.UNSURE

NAMED = "the singer was named as one of the most influential people by the magazine once, in 2015."
NAMED_ASKED = (
    "how many times has the singer been named as one of the most influential people by the magazine?"
)
BUDGET = "alpha had the larger budget, with $90 million, while beta had a budget of $40 million."
BUDGET_ASKED = "which film had the larger budget, alpha or beta?"
RELEASES = "5 albums and 20 singles"
RELEASES_ASKED = "how many albums and singles has the band released?"
FLIGHT = "amelia earhart was the first woman to fly solo across the atlantic, in 1932."
RIVERS = "the 2 longest rivers in the state are the snake river and the green river."
RIVERS_ASKED = "what are the 2 longest rivers in the state?"
MARKETS = "the three markets are: stock market, foreign exchange market (forex), bond market."
MARKETS_ASKED = "what are the three markets?"
HATS = "ann lee has the most career hat tricks among players who never won the trophy, with 39 hat tricks."
HATS_ASKED = "which player has the most career hat tricks among players who never won the trophy?"
ACTRESS = "the actress who played the girl in the film is jane roe. she played a hacker and a rebel."
ACTRESS_ASKED = "what's the name of the actress who played the girl in the film?"
DAYS = "2024-01-02, 2024-01-03, 2024-01-04"
DAYS_ASKED = "on which days of the first week of january 2024 did the stock close higher?"
MEMBERS = "the founding members were ann lee, bob ray and cy young."
FLIGHT_ASKED = "who was the first woman to fly solo across the atlantic and in what year?"


@pytest.mark.parametrize(
    "prediction, gold, question, expected, rule",
    [
        # a hedge that says it lacks the information is no answer, whatever it guesses
        (
            "I don't have enough information to be sure, but it may be 2015.",
            NAMED,
            NAMED_ASKED,
            WRONG,
            "declines",
        ),
        # "one of" in the question is not the sentence's count: "once" is
        ("once", NAMED, NAMED_ASKED, CORRECT, "sentence: value"),
        ("1", NAMED, NAMED_ASKED, CORRECT, "sentence: value"),
        ("twice", NAMED, NAMED_ASKED, WRONG, "sentence: value"),
        # a value the gold gives the other option, given to the chosen one
        ("Alpha, at $40 million", BUDGET, BUDGET_ASKED, WRONG, "two options"),
        ("Alpha, with $90 million", BUDGET, BUDGET_ASKED, CORRECT, "two options"),
        ("Alpha, at $90 million against $40 million", BUDGET, BUDGET_ASKED, CORRECT, "two options"),
        # two counts asked at once: each, of its thing
        (
            "It has released five albums and twenty singles.",
            RELEASES,
            RELEASES_ASKED,
            CORRECT,
            "sentence: counts",
        ),
        ("5 albums", RELEASES, RELEASES_ASKED, WRONG, "sentence: counts"),  # a count left out
        ("5 albums and 21 singles", RELEASES, RELEASES_ASKED, WRONG, "sentence: counts"),
        ("20 albums and 5 singles", RELEASES, RELEASES_ASKED, WRONG, "sentence: counts"),
        ("5 records and 20 singles", RELEASES, RELEASES_ASKED, UNSURE, "sentence: counts"),
        # a name and a value asked at once: the value left out or another one is wrong
        ("amelia earhart", FLIGHT, FLIGHT_ASKED, WRONG, "sentence: name and value"),
        ("Amelia Earhart, 1928", FLIGHT, FLIGHT_ASKED, WRONG, "sentence: name and value"),
        ("Amelia Earhart, in 1932", FLIGHT, FLIGHT_ASKED, CORRECT, "sentence: identified"),
        # another word for what the sentence counts
        (
            "three titles",
            "the driver has won 3 formula one world championships.",
            "how many formula one world championships has the driver won?",
            CORRECT,
            "sentence: value",
        ),
        (
            "31 wins",
            "in 9 seasons, the otters had 31 victories out of 80 games.",
            "how many victories have the otters had?",
            CORRECT,
            "sentence: value",
        ),
        # a list inside a sentence whose items each end with the question's word
        ("the snake river", RIVERS, RIVERS_ASKED, WRONG, "sentence: list"),  # part of the list asked for
        (
            "the snake river and the platte river",
            RIVERS,
            RIVERS_ASKED,
            WRONG,
            "sentence: list",
        ),  # one not in it
        ("the green river and the snake river", RIVERS, RIVERS_ASKED, CORRECT, "sentence: list"),
        # "show me the ... members" asks for several: part of the list is wrong
        ("ann lee and bob ray", MEMBERS, "show me the founding members of the band", WRONG, "sentence: list"),
        ("ann lee and bob ray", MEMBERS, "who founded the band first?", UNSURE, "sentence"),
        # an item's alias in brackets names it as its name does
        ("stocks, forex and bonds", MARKETS, MARKETS_ASKED, CORRECT, "sentence"),
        ("stocks, foreign exchange and bonds", MARKETS, MARKETS_ASKED, CORRECT, "sentence"),
        ("stocks and forex", MARKETS, MARKETS_ASKED, WRONG, "sentence"),  # one left out
        # a count of the thing the sentence counts, with another number
        ("Ann Lee, with 50 hat tricks", HATS, HATS_ASKED, WRONG, "sentence"),
        ("Ann Lee, with 39 hat tricks", HATS, HATS_ASKED, CORRECT, "sentence"),
        # the answer after the copula ends with its sentence
        ("jane roe", ACTRESS, ACTRESS_ASKED, CORRECT, "sentence: identified"),
        ("john doe", ACTRESS, ACTRESS_ASKED, WRONG, "sentence"),
        # a company named without its generic last word
        (
            "acme",
            "the company with the highest growth rate is acme systems, with a growth rate of 173.71%.",
            "which company has the highest growth rate?",
            CORRECT,
            "sentence: identified",
        ),
        # a person named without a middle initial
        ("john clauser", "john f clauser", "who won the prize in 2022?", CORRECT, "phrase"),
        (
            "john smith",
            "john f clauser",
            "who won the prize in 2022?",
            UNSURE,
            "phrase",
        ),  # a given name shared
        # days listed after a month, the year after the last
        ("january 2, 3 and 4, 2024", DAYS, DAYS_ASKED, CORRECT, "same words"),  # read as the same dates
        ("january 2 and 3, 2024", DAYS, DAYS_ASKED, WRONG, "list"),
        ("january 2, 3 and 5, 2024", DAYS, DAYS_ASKED, WRONG, "list"),
    ],
)
def test_readings_of_a_sentences_key_facts(prediction, gold, question, expected, rule):
    judgement = judge_answer(prediction, gold, question=question)
    assert (judgement.verdict, judgement.rule) == (expected, rule)
