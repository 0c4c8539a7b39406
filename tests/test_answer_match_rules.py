"""The answer checker's rule table (evaluation/answer_match/rules.py) and the readings that compose: a
gold sentence read into the typed value, the none or the names a short gold would be, each with the
cases that make its rule step aside. Golds are written here in CRAG's style."""

from __future__ import annotations

import pytest

from evaluation.answer_match import RULES, Judgement, Verdict, check_answer, judge_answer, tokens
from evaluation.answer_match.rules import NO_ANSWER, REFUSAL, RULE_NAMES, Case
from evaluation.answer_match.sentences import asks_for_value, key_names, key_value, says_there_is_none
from evaluation.names import in_country_names

CORRECT, WRONG, UNSURE = Verdict.CORRECT, Verdict.WRONG, Verdict.UNSURE

GAGA = (
    "lady gaga has never won a grammy award for album of the year, though she has been nominated four times."
)
GAGA_ASKED = "how many times has lady gaga won a grammy award for album of the year?"
BAND = "the band has been active for 39 years, since 1985."
BAND_ASKED = "how long has the band been active?"
FINALS = "the golden state warriors beat the boston celtics in the 2022 nba finals, 4-2."
FINALS_ASKED = "which team did the golden state warriors beat in the 2022 nba finals?"


@pytest.mark.parametrize(
    "prediction, gold, question, expected, rule",
    [
        # a sentence saying there is none, read as the gold "0"; its other numbers are context
        ("0", GAGA, GAGA_ASKED, CORRECT, "sentence: none"),
        ("none", GAGA, GAGA_ASKED, CORRECT, "sentence: none"),
        ("She has never won it, despite four nominations.", GAGA, GAGA_ASKED, CORRECT, "sentence: none"),
        ("She has never won one.", GAGA, GAGA_ASKED, CORRECT, "sentence: none"),  # "one": a pronoun
        ("She has probably never won it.", GAGA, GAGA_ASKED, UNSURE, "sentence: none"),  # hedged
        ("4", GAGA, GAGA_ASKED, WRONG, "sentence: none"),  # the nominations, given as the wins
        ("She has won it four times.", GAGA, GAGA_ASKED, WRONG, "sentence: none"),
        (
            "0",
            "the club has never won the league.",
            "how many league titles has the club won?",
            CORRECT,
            "sentence: none",
        ),  # a clause of six words: read as a sentence
        (
            "He didn't score.",
            "the striker did not score in the final.",
            "how many goals did the striker score in the final?",
            CORRECT,
            "sentence: none",
        ),
        # a sentence's key value, read as the one value a short gold would be
        ("39", BAND, BAND_ASKED, CORRECT, "sentence: value"),
        ("thirty-nine years", BAND, BAND_ASKED, CORRECT, "sentence: value"),
        ("It has been active since 1985, for 39 years.", BAND, BAND_ASKED, CORRECT, "sentence: value"),
        ("40 years", BAND, BAND_ASKED, WRONG, "sentence: value"),
        (
            "$116.6 billion",
            "the retailer earned 116,609 million usd in revenue in 2023.",
            "how much revenue did the retailer earn in 2023?",
            CORRECT,
            "sentence: value",
        ),  # another scale
        (
            "$116.6 million",
            "the retailer earned 116,609 million usd in revenue in 2023.",
            "how much revenue did the retailer earn in 2023?",
            WRONG,
            "sentence: value",
        ),
        (
            "Twice, in 2016 and 2019",
            "she was named two times, once in 2016 and once in 2019.",
            "how many times was she named?",
            CORRECT,
            "sentence: value",
        ),
        (
            "Twice, in 2016 and 2018",
            "she was named two times, once in 2016 and once in 2019.",
            "how many times was she named?",
            WRONG,
            "sentence: value",
        ),  # a context value the sentence lacks
        (
            "2",
            "there are 102 companies in the fund but only two have a market cap over $15 billion.",
            "how many companies in the fund have a market cap over $15 billion?",
            CORRECT,
            "sentence: value",
        ),
        (
            "102",
            "there are 102 companies in the fund but only two have a market cap over $15 billion.",
            "how many companies in the fund have a market cap over $15 billion?",
            UNSURE,
            "sentence: value",
        ),
        (
            "4 movies",
            "the film was shot in 4 locations.",
            "how many locations was the film shot in?",
            UNSURE,
            "sentence: value",
        ),  # the same number counting another thing
        (
            "The eps is $5.33.",
            "the club has won five league titles.",
            "how many league titles has the club won?",
            WRONG,
            "sentence: value",
        ),  # a value of another kind
        # the teams or countries a sentence gives as its answer, by any of their names
        ("Boston", FINALS, FINALS_ASKED, CORRECT, "sentence: names"),
        ("the Celtics", FINALS, FINALS_ASKED, CORRECT, "sentence: names"),
        ("the Warriors", FINALS, FINALS_ASKED, WRONG, "sentence: names"),  # the team the question names
        (
            "Man City",
            "manchester city won the 2022-23 premier league title, their third in a row.",
            "which team won the 2022-23 premier league?",
            CORRECT,
            "sentence: names",
        ),
        (
            "Man Utd",
            "manchester city won the 2022-23 premier league title, their third in a row.",
            "which team won the 2022-23 premier league?",
            WRONG,
            "sentence: names",
        ),
        (
            "France",
            "france won the 2018 world cup, beating croatia 4-2 in the final.",
            "which country won the 2018 world cup?",
            CORRECT,
            "sentence: names",
        ),  # the sentence's subject
        (
            "Juve, Inter and Milan",
            "zlatan played for juventus, inter milan and ac milan in italy.",
            "which clubs did zlatan play for in italy?",
            CORRECT,
            "sentence: names",
        ),
        (
            "Juventus and AC Milan",
            "zlatan played for juventus, inter milan and ac milan in italy.",
            "which clubs did zlatan play for in italy?",
            WRONG,
            "sentence: names",
        ),  # one left out
    ],
)
def test_readings_that_compose(prediction, gold, question, expected, rule):
    judgement = judge_answer(prediction, gold, question=question)
    assert (judgement.verdict, judgement.rule) == (expected, rule)


@pytest.mark.parametrize(
    "prediction, gold, question, expected",
    [
        # parts of which some are a bare value and others have none: a sentence, not a list
        (
            "The US",
            "the united states won the most medals, 113, ahead of china's 88.",
            "which country won the most medals?",
            CORRECT,
        ),
        (
            "China",
            "the united states won the most medals, 113, ahead of china's 88.",
            "which country won the most medals?",
            WRONG,
        ),
        # a complement's ", not ..." names no answer
        ("Canberra", "the capital is canberra, not sydney.", "what is the capital?", CORRECT),
        # years are what "how old" counts
        (
            "35 years old",
            "the composer died in 1791 at the age of 35.",
            "how old was the composer when he died?",
            CORRECT,
        ),
    ],
)
def test_readings_of_sentences(prediction, gold, question, expected):
    assert check_answer(prediction, gold, question=question) is expected


def test_a_sentence_says_there_is_none_only_plainly():
    assert says_there_is_none(tokens(GAGA), GAGA_ASKED)
    assert not says_there_is_none(tokens(GAGA), "who has won the grammy for album of the year?")  # no amount
    qualified = "the club did not win the league until 2010, when it won its only title."
    assert not says_there_is_none(tokens(qualified), "how many league titles has the club won?")
    counted_later = "she did not release any albums in 2020, but released 2 in 2021."
    assert not says_there_is_none(tokens(counted_later), "how many albums did she release?")
    counted = "the club has won 3 titles, never the league."
    assert not says_there_is_none(tokens(counted), "how many titles has the club won?")
    other_word = "the club has never been relegated."
    assert not says_there_is_none(tokens(other_word), "how many titles has the club won?")


def test_a_key_value_only_when_the_sentence_tells_one():
    assert key_value(tokens(BAND), BAND_ASKED) is not None
    assert key_value(tokens(BAND), "who founded the band?") is None  # no value asked
    tied = "the film grossed $80 million in may and $80.5 million in june."
    assert key_value(tokens(tied), "how much did the film gross?") is None  # neither tells more
    assert check_answer("$80 million", tied, question="how much did the film gross?") is not CORRECT


def test_key_names_only_when_every_item_is_a_known_name():
    clubs = "real madrid, juventus, manchester united, and al nassr are the clubs that he has played for."
    assert key_names(tokens(clubs), "which clubs has he played for?") is None  # al nassr: no known name
    assert key_names(tokens(FINALS), FINALS_ASKED) == (("boston", "celtics"),)
    assert key_names(tokens(FINALS), "who scored the most points in the 2022 nba finals?") is None
    two = "the finals were played between the boston celtics and the dallas mavericks."
    assert key_names(tokens(two), "which team won the finals?") is None  # which of the two won?


@pytest.mark.parametrize(
    "prediction, gold, expected",
    [
        ("Spider-Man: No Way Home", "spiderman: no way home", CORRECT),  # a compound written as two
        ("Trailblazers", "trail blazers", CORRECT),  # two written as one
        ("red and blue", "red, yellow and blue", WRONG),  # "blue" does not name "yellow and blue"
        ("Deathly Hallows Part 2", "harry potter and the deathly hallows part 2", CORRECT),
    ],
)
def test_readings_of_names(prediction, gold, expected):
    assert check_answer(prediction, gold) is expected


def test_every_verdict_names_its_rule():
    names = {rule.name for rule in RULES}
    assert len(names) == len(RULES) and all(rule.doc for rule in RULES)
    cases = [
        ("I don't know", "1973"), ("1973", "1973"), ("1974", "1973"), ("nan", "nan"), ("yes", "no"),
        ("Paris", "paris, texas"), ("not enough information", "5"), ("0", GAGA), ("Boston", FINALS),
    ]  # fmt: skip
    for prediction, gold in cases:
        assert judge_answer(prediction, gold, question=GAGA_ASKED).rule in RULE_NAMES
    assert judge_answer("I don't know", "1973") == Judgement(Verdict.MISSING, REFUSAL)
    assert judge_answer("x", "   ") == Judgement(Verdict.UNSURE, NO_ANSWER)
    head = judge_answer("Los Angeles", "los angeles, usa", question="where?")
    assert head == Judgement(CORRECT, "phrase: head")


def test_the_first_rule_that_decides_gives_the_verdict():
    case = Case("1974", "1973", "")
    deciding = [rule.name for rule in RULES if rule.applies(case) and rule.decide(case) is not None]
    assert judge_answer("1974", "1973").rule == deciding[0] == "one value"
    assert RULES[-1].applies(Case("anything", "a name", ""))  # the last rule reads every case


WORLD_CUP = "which country won the 2018 world cup?"
WORLD_CUP_GOLD = "france won the 2018 fifa world cup, beating croatia 4-2 in the final."


@pytest.mark.parametrize(
    "prediction, gold, question, expected",
    [
        ("the French national team", WORLD_CUP_GOLD, WORLD_CUP, CORRECT),
        ("French", "france", WORLD_CUP, CORRECT),
        ("the Croatian national football team", WORLD_CUP_GOLD, WORLD_CUP, Verdict.WRONG),
        ("the Spanish side", "spain", "which team won euro 2012?", CORRECT),
        # not where the question asks for something else: "French" may be the language
        ("France", "french", "what language is spoken in quebec?", Verdict.WRONG),
        ("French", "france", "what language is spoken in quebec?", Verdict.WRONG),
    ],
)
def test_a_country_asked_for_may_be_answered_by_its_people_s_adjective(prediction, gold, question, expected):
    assert judge_answer(prediction, gold, question=question).verdict is expected


def test_a_demonym_several_countries_share_names_the_one_far_larger_or_none():
    assert in_country_names("Indian") == "India" and in_country_names("the Chinese team") == "China"
    assert in_country_names("Germans") == "Germans"  # a plural noun is not the adjective


def test_which_year_asks_for_a_value_as_when_does():
    asked = "in the past 4 years for apple as a company, which year had the highest gross profit?"
    gold = "apple had the highest gross income of 170,782,000 in 2022"
    assert asks_for_value(asked)
    assert judge_answer("170,782,000", gold, question=asked).verdict is not CORRECT
    assert judge_answer("2022", gold, question=asked).verdict is CORRECT
