"""The answer checker (evaluation/answer_match.py): hand-made predictions against gold answers.

The first tests use gold answers written here in the style of CRAG; `test_real_gold_answers` pairs
hand-made predictions with real CRAG gold answers read from ../shared/data (by question id, so that no
CRAG text is copied here), and the last tests measure the checker on all of the validation answers and
on the hand-labelled predictions of benchmarks/answer_checker_labels.jsonl.
"""

from __future__ import annotations

import random
import re

import pytest

from benchmarks.answer_checker import labelled_cases, measure_labelled
from evaluation.answer_match import Date, Kind, Verdict, answer_kind, check_answer, is_refusal, states, tokens
from evaluation.answer_match.entities import Prediction
from evaluation.answer_match.people import dates_verdict, people_verdict
from evaluation.data import read_records

CORRECT, WRONG, MISSING, UNSURE = Verdict.CORRECT, Verdict.WRONG, Verdict.MISSING, Verdict.UNSURE


@pytest.mark.parametrize(
    "prediction, gold, expected",
    [
        # dates in any written form, partial dates
        ("July 17, 1973", "1973-07-17", CORRECT),
        ("17th of July 1973", "1973-07-17", CORRECT),
        ("07/17/1973", "July 17, 1973", CORRECT),
        ("She was born on Jul. 17, 1973.", "1973-07-17", CORRECT),
        ("July 18, 1973", "1973-07-17", WRONG),
        ("July 17, 1974", "1973-07-17", WRONG),
        ("1973", "1973-07-17", UNSURE),  # less specific than the gold
        ("July 1973", "1973-07-17", UNSURE),
        ("March 1993", "1993", CORRECT),  # more specific states the year
        ("in 1994", "1993", WRONG),
        ("either 1993 or 1994", "1993", WRONG),
        ("2024-02", "february 2024", CORRECT),
        # numbers as values, with units, scales, percentages and currency
        ("$49.310", "49.31", CORRECT),
        ("1,402,233 shares", "1402233", CORRECT),
        ("about $61.8 billion", "$61,800,000,000", CORRECT),
        ("61.8B", "61800000000", CORRECT),
        ("57.4K", "57400", CORRECT),
        ("-0.42", "-0.42", CORRECT),
        ("0.42", "-0.42", WRONG),
        ("82.61 percent", "82.61%", CORRECT),
        ("82.6%", "82.61%", UNSURE),  # rounded
        ("$35.8", "$35.78", UNSURE),
        ("$35.87", "$35.78", WRONG),
        ("366 m", "366 m", CORRECT),
        ("366 meters", "366 m", CORRECT),
        ("366 feet", "366 m", WRONG),  # the same number in another unit
        ("about 1,201 feet", "366 m", UNSURE),  # maybe a conversion
        ("five times", "5 times", CORRECT),
        ("He won it twice.", "2", CORRECT),
        ("6 times", "5 times", WRONG),
        ("5%", "$5", WRONG),
        ("It had 7 wins in 2023.", "7", CORRECT),  # a year beside a count is not another count
        ("5 or 6", "5", WRONG),
        ("Brady has 7 rings to Manning's 2.", "7", UNSURE),  # which number is the answer?
        ("none", "0", CORRECT),  # zero said in words
        ("none of them", "2", WRONG),
        # name lists as sets
        ("Marge, Homer, Lisa, Maggie and Bart", "homer, marge, bart, lisa and maggie", CORRECT),
        ("Homer, Marge, Bart and Lisa", "homer, marge, bart, lisa and maggie", WRONG),  # one left out
        ("Homer, Marge, Bart, Lisa, Maggie and Ned", "homer, marge, bart, lisa and maggie", WRONG),
        ("Browns, Lions and Texans", "cleveland browns, detroit lions, houston texans", CORRECT),
        (
            "The Lion, the Witch and the Wardrobe; Prince Caspian",
            "the lion, the witch and the wardrobe; prince caspian",
            CORRECT,
        ),
        # short phrases: names, titles
        ("Denver Broncos", "the denver broncos", CORRECT),
        ("Djokovic", "novak djokovic", CORRECT),
        ("Novak", "novak djokovic", UNSURE),
        ("Mayon", "mayon volcano", CORRECT),
        ("Oracle Corporation", "oracle", CORRECT),
        ("Paris, France", "paris", CORRECT),
        ("Martin Ødegaard", "martin odegaard", CORRECT),
        ("Inception and Interstellar", "inception", WRONG),  # names another film too
        ("Either Claire Foy or Olivia Colman", "claire foy", WRONG),  # a hedge
        ("It is probably Canberra", "canberra", UNSURE),
        ("Not Canberra", "canberra", UNSURE),
        ("Olivia Colman", "claire foy", WRONG),
        ("Shah Jahan", "jahan shah", UNSURE),  # the same words, another person
        ("Talons of the Eagle", "the eagle", UNSURE),  # the gold is only part of another title
        ("New York Yankees", "new york", UNSURE),
        ("Man City", "manchester city", CORRECT),  # a club's short form (evaluation/names.py)
        ("Man City", "manchester utd", WRONG),  # another club
        ("English", "en", CORRECT),
        # yes / no
        ("Yes.", "yes", CORRECT),
        ("No, it is not.", "no", CORRECT),
        ("No", "yes, the first is larger, at $2.1 billion against $1.4 billion.", WRONG),
        ("The first is larger", "yes", UNSURE),
        # invalid question, refusals and declines
        ("Invalid question.", "invalid question", CORRECT),
        ("1986", "invalid question", WRONG),
        ("invalid question", "salesforce", WRONG),
        ("invalid question", "he has never won the masters.", UNSURE),  # a free-text false premise
        ("I don't know", "salesforce", MISSING),
        ("I do not have enough information to answer.", "salesforce", WRONG),
        ("The answer is not available in the references.", "salesforce", WRONG),
        ("salesforce", "i don't know", WRONG),
        ("salesforce", "nan", UNSURE),
    ],
)
def test_verdicts(prediction, gold, expected):
    assert check_answer(prediction, gold) is expected


@pytest.mark.parametrize(
    "prediction, gold, question, expected",
    [
        # a sentence gold: a short prediction stating its key fact is correct
        (
            "31",
            "the band has released a total of 31 studio albums.",
            "how many albums has the band released?",
            CORRECT,
        ),
        (
            "31 studio albums",
            "the band has released a total of 31 studio albums.",
            "how many albums has the band released?",
            CORRECT,
        ),
        (
            "30 albums",
            "the band has released a total of 31 studio albums.",
            "how many albums has the band released?",
            WRONG,
        ),
        (
            "The band",
            "the band has released a total of 31 studio albums.",
            "how many albums has the band released?",
            UNSURE,
        ),
        (
            "Claire Foy",
            "queen elizabeth ii was played by claire foy in the first two seasons.",
            "who played queen elizabeth ii in the first two seasons of the crown?",
            CORRECT,
        ),
        (
            "Olivia Colman",
            "queen elizabeth ii was played by claire foy in the first two seasons.",
            "who played queen elizabeth ii in the first two seasons of the crown?",
            WRONG,
        ),
        (
            "Ana Ruiz and Bo Lind",
            "the members of the duo are ana ruiz and bo lind.",
            "who are the members of the duo?",
            CORRECT,
        ),
        (  # part of the list the question asks for
            "Ana Ruiz",
            "the members of the duo are ana ruiz and bo lind.",
            "who are the members of the duo?",
            WRONG,
        ),
        (
            "Ana Ruiz, Bo Lind and Cy Moss",
            "the members of the duo are ana ruiz and bo lind.",
            "who are the members of the duo?",
            WRONG,
        ),
        ("42", "she was 42 years old in 2016 when she won.", "how old was she when she won?", CORRECT),
        (
            "41 years old",
            "she was 42 years old in 2016 when she won.",
            "how old was she when she won?",
            WRONG,
        ),
        # two facts in the sentence, the question asks for one of them
        (
            "Sam Reed",
            "the quarterback, sam reed, plays for the ohio otters.",
            "what team does the quarterback play for?",
            UNSURE,
        ),
        # without the question, the key fact of a sentence is unknown
        ("Claire Foy", "queen elizabeth ii was played by claire foy in the first two seasons.", "", UNSURE),
        # a question offering two options
        ("Sirius", "sirius", "which star is brighter, sirius or alpha centauri?", CORRECT),
        ("Alpha Centauri", "sirius", "which star is brighter, sirius or alpha centauri?", WRONG),
        ("2021", "Dune (2021)", "which dune movie has better music, 1984 or 2021?", CORRECT),
        ("the 1984 one", "Dune (2021)", "which dune movie has better music, 1984 or 2021?", WRONG),
        (
            "Ana Ruiz",
            "ana ruiz has more followers than bo lind, 2 million to 1 million.",
            "who has more followers, ana ruiz or bo lind?",
            CORRECT,
        ),
        (
            "Bo Lind",
            "ana ruiz has more followers than bo lind, 2 million to 1 million.",
            "who has more followers, ana ruiz or bo lind?",
            WRONG,
        ),
        # a longer prediction naming the gold
        (
            "Manning last played for the Denver Broncos, in 2015.",
            "denver broncos",
            "what team did peyton manning last play for?",
            CORRECT,
        ),
        ("Germany has won four World Cup titles.", "germany", "where was the 2006 world cup held?", UNSURE),
        (
            "Gary Oldman won it for Darkest Hour",
            "gary oldman",
            "at the oscars, who won best actor in 2018?",
            CORRECT,
        ),
    ],
)
def test_verdicts_with_the_question(prediction, gold, question, expected):
    assert check_answer(prediction, gold, question=question) is expected


# Never wrongly lenient: each rule with a case it must reject and one it must still accept.
@pytest.mark.parametrize(
    "prediction, gold, question, expected",
    [
        # signs: a minus before the currency symbol, as a word, as the minus character; a change's way
        ("-$1.15", "-$1.15", "", CORRECT),
        ("$1.15", "-$1.15", "", WRONG),
        ("-1.15", "-$1.15", "", CORRECT),
        ("negative 1.15", "-1.15", "", CORRECT),
        ("\u22121.15", "-1.15", "", CORRECT),
        ("It rose by $1.15.", "-$1.15", "how much did the share price change today?", WRONG),
        ("It fell by $1.15.", "-$1.15", "how much did the share price change today?", CORRECT),
        ("a loss of $2.10 per share", "-$2.10", "what is the eps of the company?", CORRECT),
        ("It lost $80 million.", "$80 million", "how much did the fund gain last year?", WRONG),
        ("It gained $80 million.", "$80 million", "how much did the fund gain last year?", CORRECT),
        ("12 fewer", "12 more", "how many more goals did the home side score?", WRONG),
        ("It lost 12 members.", "12 members", "how many members did the club gain or lose?", UNSURE),
        ("-$80", "$80", "how much did the price drop?", UNSURE),
        ("-$80", "$80", "what was the lowest price last week?", WRONG),
        ("a 20% decrease", "a -20% decrease", "", CORRECT),
        ("a 20% increase", "a -20% decrease", "", WRONG),
        ("12 fewer", "12 less or a -30% change", "", CORRECT),  # a gold giving one change two ways
        # units it does not know; cents
        ("512 cubic feet", "512 square feet", "what is the floor area?", WRONG),  # a volume, not an area
        ("512 square feet", "512 square feet", "what is the floor area?", CORRECT),
        (
            "512 square feet",
            "512 square meters",
            "what is the floor area?",
            WRONG,
        ),  # the same number in another unit
        ("512 ft²", "512 sq ft", "what is the floor area?", CORRECT),
        ("45 cents", "$0.45", "", CORRECT),
        ("45 cents", "$0.54", "", WRONG),
        # a number that belongs to a title
        ("Toy Soldiers", "toy soldiers 2", "", WRONG),
        ("Toy Soldiers 3", "toy soldiers 2", "", WRONG),
        ("Toy Soldiers II", "toy soldiers 2", "", CORRECT),
        ("Hot Fuss", "hot fuss (2004)", "", CORRECT),  # a year beside a title is no part of it
        # a distinctive word before the gold inside a longer name; another ending
        ("West Aldoria", "aldoria", "", UNSURE),
        ("in Aldoria", "aldoria", "", CORRECT),
        ("Sam Tolle", "sam rivers", "", WRONG),
        ("Port Vale United", "port vale utd", "", UNSURE),  # "utd" may abbreviate "united"
        ("Port Vale Rovers", "port vale utd", "", WRONG),
        ("Calvin Moss", "del moss", "which artist sold more records, del moss or the pips?", UNSURE),
        ("Moss", "del moss", "which artist sold more records, del moss or the pips?", CORRECT),
        # list items with joining words; company suffixes; years shared by a list of dates
        (
            "Man of the Hour and The Last Rain",
            "a night to remember, man of the hour, the last rain",
            "what are his three most recent films?",
            WRONG,
        ),
        (
            "The Last Rain, A Night to Remember and Man of the Hour",
            "a night to remember, man of the hour, the last rain",
            "what are his three most recent films?",
            CORRECT,
        ),
        ("Vexo and Corbel", "vexo, inc., corbel group, inc.", "which companies joined the index?", CORRECT),
        ("Vexo", "vexo, inc., corbel group, inc.", "which companies joined the index?", WRONG),
        ("Vexo", "vexo, inc", "which company joined the index?", CORRECT),
        ("March 3 and March 4, 2024", "2024-03-03, 2024-03-04", "on which days did it close lower?", CORRECT),
        ("Orel Browns, Tamar Lions, Vale Texans", "browns, lions, texans", "which teams won?", CORRECT),
        ("Orel Browns, Lions, Texans", "browns, lions, texans", "which teams won?", UNSURE),
        # a gold with one comma: a list only when its parts are parallel
        ("Ana Ruiz and Bo Lind", "ana ruiz, bo lind", "who are her parents?", CORRECT),
        ("Ana Ruiz", "ana ruiz, bo lind", "who are her parents?", WRONG),
        ("Ana Ruiz and Cy Moss", "ana ruiz, bo lind", "who are her parents?", WRONG),
        ("San Verona", "san verona, aldoria", "which city did she grow up in?", CORRECT),
        ("Verona", "verona, aldoria", "which city did she grow up in?", UNSURE),  # "paris" for "paris, texas"
        ("Aldoria", "verona, aldoria", "which city did she grow up in?", UNSURE),
        ("Lucca, Aldoria", "verona, aldoria", "which city did she grow up in?", WRONG),
        ("San Verona, Tessaly", "san verona, aldoria", "which city did she grow up in?", UNSURE),
        ("PS 12", "ps 12 in east harbor, aldoria", "which school did she attend?", CORRECT),
        ("Verona, Aldoria", "aldoria", "where was the first race held?", UNSURE),  # its answer is Verona
        # a sentence-long gold needs its key fact, not every number in it
        (
            "31 goals",
            "in 9 seasons, the otters had 31 victories out of 80 games.",
            "how many victories have the otters had?",
            UNSURE,  # "goals" is not the gold's word nor another word for it ("wins": cues.COUNTED_SYNONYMS)
        ),
        (
            "31",
            "in 9 seasons, the otters had 31 victories out of 80 games.",
            "how many victories have the otters had?",
            CORRECT,
        ),
        (
            "80",
            "in 9 seasons, the otters had 31 victories out of 80 games.",
            "how many victories have the otters had?",
            WRONG,  # the games, where the key value is the victories
        ),
        (
            "42",
            "in 9 seasons, the otters had 31 victories out of 80 games.",
            "how many victories have the otters had?",
            WRONG,
        ),
        (
            "3",
            "she has five children, three with her first husband.",
            "how many children does she have with her first husband?",
            CORRECT,  # the count whose clause says "her first husband"
        ),
        (
            "5",
            "she has five children, three with her first husband.",
            "how many children does she have with her first husband?",
            UNSURE,  # chosen over by the question's words alone: perhaps meant
        ),
        (
            "$14 per share",
            "the company went public on may 2, 1999 at $14 per share.",
            "what was its price at the ipo?",
            CORRECT,
        ),
        (
            "May 2, 1999",
            "the company went public on may 2, 1999 at $14 per share.",
            "what was its price at the ipo?",
            WRONG,  # a date, asked for a price
        ),
        (
            "Ana Ruiz",
            "ana ruiz, who plays for the otters, was the top scorer last season.",
            "who was the top scorer last season?",
            CORRECT,
        ),
        (
            "The Otters",
            "ana ruiz, who plays for the otters, was the top scorer last season.",
            "who was the top scorer last season?",
            WRONG,
        ),
        (
            "Bo Lind",
            "the player who scored the winning goal was bo lind.",
            "who scored the winning goal?",
            CORRECT,
        ),
        (
            "Glass Harbor",
            "glass harbor has more songs, with 12 songs, while red lane has 9.",
            "which album has more songs, red lane or glass harbor?",
            CORRECT,
        ),
        (
            "Glass Harbor, with 14 songs",
            "glass harbor has more songs, with 12 songs, while red lane has 9.",
            "which album has more songs, red lane or glass harbor?",
            WRONG,
        ),
        (
            "Red Lane has more songs than Glass Harbor.",
            "glass harbor has more songs, with 12 songs, while red lane has 9.",
            "which album has more songs, red lane or glass harbor?",
            WRONG,
        ),
        (
            "Red Lane has fewer songs than Glass Harbor.",
            "glass harbor has more songs, with 12 songs, while red lane has 9.",
            "which album has more songs, red lane or glass harbor?",
            UNSURE,
        ),
        (
            "Glass Harbor",
            "glass harbor had 12 songs, more than red lane's 9.",
            "which album had more songs, between red lane and glass harbor?",
            CORRECT,
        ),
        # a value with a bracketed qualifier is a title; a value question answered by a name
        ("1999", "1999 (the remaster)", "which is her latest album?", UNSURE),
        ("Solstice", "1999 (the remaster)", "which is her latest album?", WRONG),
        (
            "Vexo",
            "vexo has the higher closing price.",
            "what was the closing price of vexo compared to corb?",
            CORRECT,
        ),
        (
            "Corb",
            "vexo has the higher closing price.",
            "what was the closing price of vexo compared to corb?",
            WRONG,
        ),
        (
            "Ana Ruiz",
            "ana ruiz has been in at least 60 films, while bo lind has been in 45.",
            "who has been in more films, ana ruiz or bo lind?",
            CORRECT,
        ),
        (
            "415 goals",
            "ana ruiz is the top scorer of the league, at 415 goals.",
            "what is the count of goals of the top scorer?",
            CORRECT,
        ),
        # a word spelled one letter otherwise beside the gold's own word: the gold's word, misspelt
        (
            "Orel Browns, Tamar Lions, San Fransisco Texans",
            "orel browns, tamar lions, san francisco texans",
            "which teams won?",
            CORRECT,
        ),
        ("Ada Lindermann", "ada linderman", "who won the race?", CORRECT),  # a surname's last letter
        (
            "Daniela Lind",
            "daniel lind",
            "who won the race?",
            UNSURE,
        ),  # a given name's last letter: another name
        ("Fransisco", "francisco", "who won the race?", UNSURE),  # nothing beside it to tell
        # "unsure" where the rules cannot know: abbreviations, initials, codes, spellings
        ("GLXH", "galaxhold", "", UNSURE),
        ("Aldorian Institute of Technology", "ait", "", UNSURE),
        ("Bo Lindt", "bo lind", "", UNSURE),
        # a country's code and its names (country_converter), a zero said in words
        ("United Kingdom", "uk", "which country is she from?", CORRECT),
        ("Spain", "es", "which country is she from?", CORRECT),
        ("Portugal", "es", "which country is she from?", WRONG),
        ("He had no deputy.", "none", "who was his deputy?", CORRECT),
        ("No, it was Ada Lind.", "none", "who was his deputy?", UNSURE),  # says none, then names someone
        ("none", "0", "how many titles did she win?", CORRECT),
        ("none", "2", "how many titles did she win?", WRONG),
        # an initial before a surname is the gold's given name: only one letter, the same surname, the one
        # given name of the gold that fits, a name word after it, a given name that is no function word
        ("B. Lind", "bo lind", "who won the race?", CORRECT),
        ("K. Lind", "bo lind", "who won the race?", UNSURE),  # another initial: as "Roma Shakespeare"
        ("Bo Lind", "bob lind", "who won the race?", UNSURE),  # a shorter name, no initial
        ("B. Lund", "bo lind", "who won the race?", WRONG),
        ("B. Lind, E. Ruiz", "bo lind, eva ruiz", "who were the two winners?", CORRECT),
        ("B. Lind, C. Ruiz", "bo lind, eva ruiz", "who were the two winners?", WRONG),
        ("B. Lind", "bo lind, eva ruiz", "who were the two winners?", WRONG),  # one left out
        ("B. Lind, E. Ruiz, C. Tan", "bo lind, eva ruiz", "who were the two winners?", WRONG),  # one added
        ("J. Lind, J. Lind", "jo lind, jan lind", "who were the two winners?", WRONG),  # which one?
        ("J. Lind", "jo lind beat jan lind in the final.", "who won the final?", UNSURE),  # which one?
        ("E. Lind, B. Ruiz", "bo lind and eva ruiz were the winners.", "who were the winners?", WRONG),
        ("S. Lind, E. Ruiz", "bo lind and eva ruiz were the winners.", "who were the winners?", WRONG),  # "s"
        (
            "Bulls, Nuggets, Spurs",
            "chicago bulls, denver nuggets, san antonio spurs",
            "",
            CORRECT,
        ),  # "," no initial
        ("Bo Lind, R, Cy Tan", "bo lind, ana ruiz, cy tan", "who were the three winners?", WRONG),
        (
            "W. Lind, E. Ruiz",
            "bo lind and eva ruiz were the winners; ruiz played with lind.",
            "who were the winners?",
            WRONG,
        ),  # "with" is no given name
        ("B. Lind, E. Ruiz", "bo lind and eva ruiz were the winners.", "who were the winners?", CORRECT),
        # a surname two items share names neither of them
        ("Lind", "jo lind and eva lind", "who were the two winners?", UNSURE),
        ("Lind, Lind, Tan", "jo lind, eva lind, cy tan", "who were the winners?", UNSURE),
        ("Lind, Eva Lind, Tan", "jo lind, eva lind, cy tan", "who were the winners?", UNSURE),
        ("Lind, Tan", "jo lind, eva lind, cy tan", "who were the winners?", UNSURE),
        ("Lind, Lind, Bo Ek", "jo lind, eva lind, cy tan", "who were the winners?", WRONG),  # one added
        ("J. Lind, E. Lind, Tan", "jo lind, eva lind, cy tan", "who were the winners?", CORRECT),
        ("Lind, Ruiz, Tan", "jo lind, eva ruiz, cy tan", "who were the winners?", CORRECT),
        ("Lind, Lind", "jo lind and eva lind were the winners in 2020.", "who were the winners?", UNSURE),
        ("Lind, Eva Lind", "jo lind and eva lind were the winners in 2020.", "who were the winners?", UNSURE),
        ("Lind", "jo lind, eva lind and cy tan were the winners.", "who were the winners?", WRONG),  # no tan
        (
            "Seven, including Album of the Year",
            "bo lind won 7 awards for the album, including album of the year and song of the year.",
            "how many awards did bo lind win for the album?",
            CORRECT,
        ),  # asked for a value: "year" beside two awards is no name to tell apart
        (
            "J. Lind, E. Lind",
            "jo lind and eva lind were the winners in 2020.",
            "who were the winners?",
            CORRECT,
        ),
    ],
)
def test_never_wrongly_lenient(prediction, gold, question, expected):
    assert check_answer(prediction, gold, question=question) is expected


MATCH = "what was the outcome of their last match? did they win or lose?"
KIDS = "who are the children of joe carter?"
EARNINGS = "when did the company report its quarterly earnings?"
BAND = "who were the members of the band?"


@pytest.mark.parametrize(
    "prediction, gold, question, expected",
    [
        # the same number at another scale; a capital letter after a number is a scale, a small "m" metres
        ("2.1M employees", "2.1 million employees", "", CORRECT),
        ("$0.075 billion", "$75 million", "", CORRECT),
        ("$75 billion", "$75 million", "", WRONG),
        ("2.1 m", "2.1 million", "", WRONG),
        # zero said in words, and the reverse; a zero that names other values or people stays unsure
        ("He never won it.", "0", "how many titles did he win?", CORRECT),
        ("They didn't score.", "0", "how many goals did they get?", CORRECT),
        ("0", "none", "how many titles did he win?", CORRECT),
        ("She won none of her 3 nominations.", "0", "how many awards did she win?", UNSURE),
        ("He won it once.", "none", "how many titles did he win?", WRONG),
        # a match result as a one-letter code
        ("Marseille won 2-1.", "w", MATCH, CORRECT),
        ("a draw", "d", MATCH, CORRECT),
        ("L", "w", MATCH, WRONG),
        ("They lost.", "w", MATCH, WRONG),
        ("They did not lose.", "w", MATCH, UNSURE),
        ("Chelsea have won five league titles.", "w", MATCH, UNSURE),  # another fact with a result word
        # teams and countries by their other names; another one of the gold's kind is wrong
        ("the Cavs", "cleveland cavaliers", "", CORRECT),
        ("Cleveland", "cleveland cavaliers", "", CORRECT),
        ("the Indiana Fever", "indiana pacers", "", WRONG),  # a city's other team
        ("the Hawks", "denver nuggets", "", WRONG),
        ("Paris Saint-Germain", "paris s-g", "", CORRECT),
        ("AC Milan", "inter", "", WRONG),
        ("Great Britain", "the united kingdom", "", CORRECT),
        ("USA", "united states", "", CORRECT),
        ("Austria", "australia", "", WRONG),
        ("West Germany", "germany", "", UNSURE),  # a name inside a longer one
        ("He told us so.", "united states", "", WRONG),  # a code counts written in capitals
        # dates: day first when the day cannot be a month; either way when both can be
        ("19/12/2023", "2023-12-19", "", CORRECT),
        ("21.11.1944", "1944-11-21", "", CORRECT),
        ("10/03/2024", "2024-03-10", "", UNSURE),
        ("2024/03/09", "2024-03-09", "", CORRECT),
        # units written another way are the same unit; another unit of the kind is wrong
        ("39.3 ft³", "39.3 cubic feet", "", CORRECT),
        ("39.3 cu ft", "39.3 cubic feet", "", CORRECT),
        ("39.3 cubic meters", "39.3 cubic feet", "", WRONG),
        ("2.0 L", "2.0 litres", "", CORRECT),
        ("18.89 °F", "18.89 degrees celsius", "", WRONG),
        # quarters and win-loss records written out
        ("Q4", "the fourth quarter", "", CORRECT),
        ("Q3", "the fourth quarter", "", WRONG),
        ("56 wins and 26 losses", "56-26", "", CORRECT),
        ("They went 56–26.", "56-26", "what was their record?", CORRECT),
        ("55-27", "56-26", "", WRONG),
        # rounding: a more precise prediction of a rounded gold of 3 digits or more; a sum with a scale
        # word rounding the gold to 3 digits or more; less is unsure
        ("$191.67 million", "$191.7 million", "", CORRECT),
        ("$191.2 million", "$191.7 million", "", WRONG),
        ("$0.42", "0.4", "", UNSURE),
        ("$55.1 billion", "$55,098,173,903.27", "", CORRECT),
        ("$55 billion", "$55,098,173,903.27", "", UNSURE),
        ("about $409.5", "409.49", "", UNSURE),
        # a sentence's list of given names with their relations, against full names
        (
            "Barry Gibb, Robin Gibb and Maurice Gibb",
            "the band was the brothers barry, robin and maurice gibb.",
            BAND,
            CORRECT,
        ),
        (
            "Barry, Robin and Maurice Gibb",
            "the band was the brothers barry, robin and maurice gibb.",
            BAND,
            CORRECT,
        ),
        (
            "Barry Gibb and Robin Gibb",
            "the band was the brothers barry, robin and maurice gibb.",
            BAND,
            WRONG,
        ),
        (
            "Barry, Robin and Andy Gibb",
            "the band was the brothers barry, robin and maurice gibb.",
            BAND,
            WRONG,
        ),
        # ... the people named beside the list ("with ...") are not in it; a relative clause says no name
        (
            "Ann Carter and Beth Carter",
            "joe carter has two daughters, ann and beth, with mary carter.",
            KIDS,
            CORRECT,
        ),
        (
            "Ann, Beth and Mary Carter",
            "joe carter has two daughters, ann and beth, with mary carter.",
            KIDS,
            WRONG,
        ),
        ("Ann Carter", "joe carter has two daughters, ann and beth, with mary carter.", KIDS, WRONG),
        ("Ann and Beth Carter", "his daughters ann and beth, with his wife mary carter.", KIDS, CORRECT),
        (
            "Ann, Beth and Tom Carter",
            "the carters were his son tom and his daughters ann and beth.",
            KIDS,
            CORRECT,
        ),
        (
            "Ann, Beth and Tom Carter",
            "the carters were his daughters ann and beth, and later his son tom.",
            KIDS,
            UNSURE,
        ),
        (
            "Marie, Beth and Tom Carter",
            "the carters were his son tom and his daughters maria and beth.",
            KIDS,
            UNSURE,
        ),
        (
            "Ann, Bethany and Tom Carter",
            "the carters were his son tom and his daughters ann and beth.",
            KIDS,
            WRONG,
        ),
        ("Ann Carter and Beth Smith", "the carters were his daughters ann and beth carter.", KIDS, WRONG),
        ("Ann Jones and Beth Jones", "his daughters are ann and beth.", KIDS, UNSURE),
        ("Ann and Beth Carter, both farmers now", "his daughters are ann and beth.", KIDS, UNSURE),
        ("Ann and Beth Carter, and his son Tom", "his daughters are ann and beth.", KIDS, WRONG),
        ("Joe Carter has two children, both farmers now.", "his daughters are ann and beth.", KIDS, WRONG),
        ("Ann Lee Carter and Beth Carter", "his daughters, ann rose carter and beth carter.", KIDS, UNSURE),
        (
            "Ray Davies and Dave Davies",
            "the band was formed by brothers ray and dave davies with their friend pete quaife.",
            BAND,
            WRONG,
        ),
        (
            "Ray, Dave Davies and Pete Quaife",
            "the band was formed by brothers ray and dave davies with their friend pete quaife.",
            BAND,
            CORRECT,
        ),
        (
            "Orville and Wilbur Wright",
            "orville and wilbur wright, the brothers who flew the first airplane.",
            BAND,
            CORRECT,
        ),
        (
            "The band is the brothers Barry, Robin and Maurice Gibb.",
            "barry gibb, robin gibb and maurice gibb",
            BAND,
            CORRECT,
        ),
        # a list of dates labelled by quarter against the same dates without labels, and the reverse
        (
            "April 24, 2024, July 31, 2024 and October 30, 2024",
            "q1: april 24, 2024; q2: july 31, 2024; q3: october 30, 2024",
            EARNINGS,
            CORRECT,
        ),
        (
            "April 24, July 31 and October 30, 2024",
            "q1: april 24, 2024; q2: july 31, 2024; q3: october 30, 2024",
            EARNINGS,
            CORRECT,
        ),
        (
            "Q1 FY24: Apr 24, 2024; Q2 FY24: Jul 31, 2024",
            "april 24, 2024 and july 31, 2024",
            EARNINGS,
            CORRECT,
        ),
        (
            "April 24, 2024, July 31, 2024 and October 31, 2024",
            "q1: april 24, 2024; q2: july 31, 2024; q3: october 30, 2024",
            EARNINGS,
            WRONG,
        ),
        (
            "April 24, 2024 and July 31, 2024",
            "q1: april 24, 2024; q2: july 31, 2024; q3: october 30, 2024",
            EARNINGS,
            WRONG,
        ),
        (
            "April 24, July 31 and October 30",
            "q1: april 24, 2024; q2: july 31, 2024; q3: october 30, 2024",
            EARNINGS,
            UNSURE,
        ),
        (
            "Q1: April 24, 2024; Q2: October 30, 2024; Q3: July 31, 2024",
            "april 24, 2024, july 31, 2024 and october 30, 2024",
            EARNINGS,
            WRONG,
        ),
        ("Q2: July 31, 2024; Q1: April 24, 2024", "april 24, 2024 and july 31, 2024", EARNINGS, CORRECT),
        ("Q2: April 24, 2024; Q1: July 31, 2024", "april 24, 2024 and july 31, 2024", EARNINGS, WRONG),
        ("July 31, 2024 and April 24, 2024", "q1: april 24, 2024; q2: july 31, 2024", EARNINGS, CORRECT),
        ("July 31 and April 24", "q1: april 24, 2024; q2: july 31, 2024", EARNINGS, UNSURE),
        ("July 31 and April 25", "q1: april 24, 2024; q2: july 31, 2024", EARNINGS, WRONG),
        # "one" after "the last" is a pronoun, not a number
        (
            "52,500,000 viewers",
            "the finale, the last one, was watched by 52.5 million viewers.",
            "how many people watched the finale?",
            CORRECT,
        ),
    ],
)
def test_kinds_read_as_the_judge_reads_them(prediction, gold, question, expected):
    assert check_answer(prediction, gold, question=question) is expected


@pytest.mark.parametrize(
    "prediction, gold, question",
    [
        (
            "Barry, Robin and Maurice Gibb, probably",
            "the brothers barry, robin and maurice gibb.",
            BAND,
        ),  # hedged
        (
            "Barry, Robin and Maurice Gibb",
            "the brothers barry, robin and maurice gibb.",
            "when did the band form?",
        ),
        (
            "Barry, Robin and Maurice Gibb",
            "barry gibb, robin gibb and maurice gibb",
            BAND,
        ),  # no relation named
        (
            "Barry Gibb",
            "the brothers barry gibb and robin gibb, born 1946-09-01 and 1949-12-22.",
            BAND,
        ),  # dates
        ("Barry Gibb", "the brothers barry gibb", BAND),  # one person: no list
    ],
)
def test_people_named_by_relation_only_when_so_listed(prediction, gold, question):
    assert people_verdict(Prediction.read(prediction, tokens(gold)), tokens(gold), question) is None


@pytest.mark.parametrize(
    "prediction, gold",
    [
        ("April 24, 2024 and July 31, 2024, probably", "q1: april 24, 2024; q2: july 31, 2024"),  # hedged
        ("Q1: April 24, 2024; Q2: July 31, 2024", "q1: april 24, 2024; q2: july 31, 2024"),  # both labelled
        (
            "April 24, 2024 and July 31, 2024, after the close",
            "q1: april 24, 2024; q2: july 31, 2024",
        ),  # other words
        ("April 24, 2024", "q1: april 24, 2024"),  # one date: no list
        ("Q1: April 24, 2024; Q1: July 31, 2024", "april 24, 2024 and july 31, 2024"),  # a quarter twice
        (
            "Q1: April 24, 2024 and July 31, 2024",
            "april 24, 2024 and july 31, 2024",
        ),  # a date without its quarter
    ],
)
def test_dates_by_quarter_only_when_so_listed(prediction, gold):
    assert dates_verdict(Prediction.read(prediction, tokens(gold)), tokens(gold), EARNINGS) is None


def test_a_list_of_days_shares_its_last_year_and_a_quarter_is_no_day():
    assert [t.year for t in tokens("April 24, July 31 and October 30, 2024") if t not in {",", "and"}] == [
        2024
    ] * 3
    assert Date(2023, 5, 24) in tokens("first quarter May 24, 2023")


def test_alternative_answers_count():
    assert check_answer("over a year", "more than one year", ["a year or more"]) is UNSURE
    assert (
        check_answer(
            "Deathly Hallows Part 2", "the last one", ["harry potter and the deathly hallows part 2"]
        )
        is CORRECT
    )
    assert check_answer("Part 1", "part 2", ["the second part"]) is WRONG


def test_refusal_is_the_leaderboard_rule():
    assert is_refusal("I don't know.") and is_refusal("Well, I DON'T KNOW")
    assert not is_refusal("i dont know") and not is_refusal("invalid question")


def test_states():
    assert states("Dividend of $0.36 paid 2024-03-05 00:00:00 EST", "March 5, 2024")
    assert states("Volume 1,402,233", "1402233") and states("revenue $512.8 million", "512800000")
    assert states("MUSIC (Original Dramatic Score)", "music original dramatic score")
    assert not states("125 points", "12") and not states("0.42", "-0.42")
    assert not states("The Glass Orchard", "Salt Road Nocturne")


def test_answer_kinds():
    kinds = {
        "invalid question": Kind.INVALID, "yes, it is": Kind.POLARITY, "5 times": Kind.VALUE,
        "october 17, 2013": Kind.VALUE, "solid, liquid and gas": Kind.LIST, "dune: part two": Kind.PHRASE,
        "the band has released a total of 31 studio albums since it was founded.": Kind.SENTENCE,
        "i don't know": Kind.NONE, "": Kind.NONE,
    }  # fmt: skip
    assert {gold: answer_kind(gold) for gold in kinds} == kinds


# Real CRAG gold answers (read from ../shared/data by question id) with hand-made predictions.
VALIDATION = "crag_questions_validation.jsonl"
PAGES_15 = "crag_dev_pages_15.jsonl.bz2"
DEV_10 = "crag_dev_10.jsonl.bz2"
REAL = [
    (VALIDATION, "3e90651b", "November 21, 1944", CORRECT),  # 1944-11-21
    (VALIDATION, "3e90651b", "21 Nov 1944", CORRECT),
    (VALIDATION, "3e90651b", "November 21, 1945", WRONG),
    (VALIDATION, "da729c58", "2013-10-17", CORRECT),  # october 17, 2013
    (VALIDATION, "da729c58", "October 2013", UNSURE),
    (VALIDATION, "3912e70f", "35.78 USD", CORRECT),  # $35.78
    (VALIDATION, "3912e70f", "$36.12", WRONG),
    (VALIDATION, "c9c7693b", "57,400 shares", CORRECT),  # 57400
    (VALIDATION, "d8cfdc82", "about $43 trillion", UNSURE),  # $43.015 trillion
    (VALIDATION, "225a0161", "82.61 percent", CORRECT),
    (VALIDATION, "79c07a6f", "366 meters", CORRECT),  # 366 m
    (VALIDATION, "79c07a6f", "1,200 feet", UNSURE),
    (VALIDATION, "b4db3f46", "46 million", CORRECT),  # 46 million tickets sold
    (VALIDATION, "b4db3f46", "about 50 million tickets", WRONG),
    (VALIDATION, "d5755830", "five", CORRECT),  # 5 times
    (VALIDATION, "d5755830", "Tiger Woods has won the Masters 5 times.", CORRECT),
    (VALIDATION, "db9493fd", "31", CORRECT),  # ... a total of 31 studio albums.
    (VALIDATION, "db9493fd", "31 studio albums", CORRECT),
    (VALIDATION, "db9493fd", "30", WRONG),
    (VALIDATION, "2a233422", "42 years old", CORRECT),  # leonardo was 42 years old in 2016 ...
    (VALIDATION, "2a233422", "41", WRONG),
    (VALIDATION, "ade2500a", "DAMN.", UNSURE),  # two key facts (the prize's field, the album)
    (VALIDATION, "2fe77909", "Apple", CORRECT),  # ... is apple, with an roa of 28.8%.
    (VALIDATION, "2fe77909", "Microsoft", WRONG),
    (VALIDATION, "2220ff57", "Dan Auerbach and Patrick Carney", CORRECT),
    (VALIDATION, "2220ff57", "Patrick Carney, Dan Auerbach", CORRECT),
    (VALIDATION, "2220ff57", "Dan Auerbach", WRONG),  # one of the members asked for
    (VALIDATION, "2220ff57", "Dan Auerbach, Patrick Carney and Jack White", WRONG),
    (VALIDATION, "ad1471d5", "Bart, Lisa, Maggie, Homer and Marge", CORRECT),
    (VALIDATION, "ad1471d5", "Homer, Marge, Bart and Lisa", WRONG),
    (VALIDATION, "db739d79", "gas, liquid, solid", CORRECT),
    (VALIDATION, "db739d79", "solid, liquid, gas and plasma", WRONG),
    (VALIDATION, "d723ccf3", "Argo, Good Will Hunting and Gone Baby Gone", CORRECT),
    (VALIDATION, "05100ff4", "Messi, Ronaldo, Zarra and Benzema", CORRECT),
    (VALIDATION, "05100ff4", "Messi, Ronaldo, Zarra and Raúl", WRONG),
    (VALIDATION, "05100ff4", "L. Messi, C. Ronaldo, Zarra, K. Benzema", CORRECT),  # initials, a surname
    (VALIDATION, "05100ff4", "L. Messi, C. Ronaldo, Zarra, R. Benzema", WRONG),  # another initial
    (VALIDATION, "05100ff4", "S. Messi, C. Ronaldo, Zarra, K. Benzema", WRONG),
    (VALIDATION, "05100ff4", "L. Messi, C. Ronaldo, K. Benzema", WRONG),  # one left out
    (VALIDATION, "05100ff4", "L. Messi, C. Ronaldo, Zarra, K. Benzema, R. Lewandowski", WRONG),
    (VALIDATION, "d096182d", "Gary Oldman (Darkest Hour)", CORRECT),
    (VALIDATION, "d096182d", "Timothée Chalamet", WRONG),
    (VALIDATION, "144bd3d2", "Toghon Temur", CORRECT),  # toghon temür
    (VALIDATION, "2d8bdc48", "English", CORRECT),  # en
    (VALIDATION, "2d8bdc48", "French", WRONG),
    (VALIDATION, "e118b510", "Alpha Centauri", WRONG),  # sirius, of "sirius or alpha centauri"
    (
        VALIDATION,
        "ada6e747",
        "Selena Gomez",
        CORRECT,
    ),  # selena gomez has more followers ... than kylie jenner
    (VALIDATION, "ada6e747", "Kylie Jenner", WRONG),
    (VALIDATION, "752acb9a", "Yes", CORRECT),  # yes, rogan is estimated at ...
    (VALIDATION, "752acb9a", "No, Joe Rogan is richer", WRONG),
    (VALIDATION, "7b319b8d", "the Birmingham Barons", CORRECT),  # jordan played for the birmingham barons ...
    (VALIDATION, "7b319b8d", "the Chicago White Sox", WRONG),
    (VALIDATION, "3e6f239d", "Washington Commanders", CORRECT),  # the player and his team: an NFL team
    (VALIDATION, "158e20f9", "Canis Major", WRONG),  # the greater dog: a paraphrase the rules cannot see
    (VALIDATION, "7bb29eb4", "About 4 per game", CORRECT),  # 4 3-points attempts per game
    (VALIDATION, "7bb29eb4", "5 per game", WRONG),
    (VALIDATION, "ae414195", "7", CORRECT),  # lady gaga has released seven studio albums, including ...
    (VALIDATION, "ae414195", "six studio albums", WRONG),
    (VALIDATION, "9b66e82d", "good kid, m.A.A.d city", CORRECT),  # ... released the album "good kid, ..."
    (VALIDATION, "9b66e82d", "Section.80", WRONG),
    (VALIDATION, "1ddf2c5d", "May 6, 1932", CORRECT),  # ... procter & gamble, was added on may 6, 1932.
    (VALIDATION, "1ddf2c5d", "1932", UNSURE),
    (VALIDATION, "1ddf2c5d", "June 6, 1932", WRONG),
    (VALIDATION, "4713fbb8", "Iga Świątek", CORRECT),  # iga swiatek won the most titles ...
    (VALIDATION, "4713fbb8", "Aryna Sabalenka", WRONG),
    (VALIDATION, "ae413863", "Roger Federer, Rafael Nadal and Novak Djokovic", WRONG),  # 3 of the 8 asked for
    (VALIDATION, "ae413863", "Pete Sampras", WRONG),
    (PAGES_15, "260c5d09-cec1-4792-8438-c5317ae74891", "over one year", CORRECT),  # more than one year
    (PAGES_15, "260c5d09-cec1-4792-8438-c5317ae74891", "longer than a year", UNSURE),
    (PAGES_15, "8959e8f9-c24a-4a71-9189-89b1fb01053e", "Deathly Hallows – Part 2", CORRECT),
    (PAGES_15, "8959e8f9-c24a-4a71-9189-89b1fb01053e", "Harry Potter and the Half-Blood Prince", WRONG),
    (PAGES_15, "bf7d837c-3488-4373-be3d-5ab46a9bc5a1", "Hot Fuss (2004)", CORRECT),
    (PAGES_15, "3c2e454d-10a1-40eb-9534-f9440ecc4c3b", "Mount Mayon", CORRECT),
    (PAGES_15, "3c2e454d-10a1-40eb-9534-f9440ecc4c3b", "Taal Volcano", WRONG),
    (PAGES_15, "074ec17c-e14b-4671-abb4-51c0b833758d", "Alexander and Ella", CORRECT),
    (PAGES_15, "074ec17c-e14b-4671-abb4-51c0b833758d", "Ella", WRONG),
    (DEV_10, "1d2e8c37-296a-4309-83a2-e84d66dd4bb0", "Universal", CORRECT),  # universal pictures
    (DEV_10, "1d2e8c37-296a-4309-83a2-e84d66dd4bb0", "Time Warner", WRONG),
    (DEV_10, "ecc1e84c-b979-4479-8275-eaa62020643f", "invalid question", UNSURE),  # a free-text false premise
    (DEV_10, "ecc1e84c-b979-4479-8275-eaa62020643f", "3 times", WRONG),
]


@pytest.fixture(scope="module")
def real_golds(shared_data):
    wanted = {name for name, *_ in REAL}
    return {
        (name, record.gold.interaction_id): record.gold
        for name in wanted
        for record in read_records(shared_data / name)
    }


@pytest.mark.parametrize("name, question_id, prediction, expected", REAL)
def test_real_gold_answers(real_golds, name, question_id, prediction, expected):
    gold = real_golds[(name, question_id)]
    verdict = check_answer(prediction, gold.answer, gold.alternative_answers, question=gold.query)
    assert verdict is expected, f"{prediction!r} for {gold.answer!r} ({gold.query!r})"


@pytest.fixture(scope="module")
def validation_golds(shared_data):
    return [record.gold for record in read_records(shared_data / VALIDATION)]


def test_every_validation_answer_is_correct_against_itself(validation_golds):
    answers = [g for g in validation_golds if g.answer.strip() and not is_refusal(g.answer)]
    verdicts = {check_answer(g.answer, g.answer, question=g.query) for g in answers}
    assert verdicts == {CORRECT}


def test_another_questions_answer_is_almost_never_correct(validation_golds):
    """A sample of the pairs benchmarks/answer_checker.py checks in full (see README for its numbers):
    a gold answer as the prediction for another question of the same kind, leaving out equal answers."""
    by_kind: dict[Kind, list] = {}
    for gold in validation_golds:
        by_kind.setdefault(answer_kind(gold.answer), []).append(gold)
    rng = random.Random(22)
    verdicts = []
    for golds in by_kind.values():
        for gold in golds:
            for other in rng.sample(golds, min(10, len(golds))):
                if other.answer.strip().lower() != gold.answer.strip().lower() and not _may_agree(
                    other, gold
                ):
                    verdicts.append(check_answer(other.answer, gold.answer, question=gold.query))
    assert len(verdicts) > 8000
    assert verdicts.count(CORRECT) / len(verdicts) < 0.001
    assert verdicts.count(UNSURE) / len(verdicts) < 0.03


def _may_agree(a, b) -> bool:
    """Answers that may rightly agree: the same yes or no, the same numbers ("$0.40" and "0.4")."""
    texts = [answer.answer.lower().replace(",", "") for answer in (a, b)]
    polarity = [re.match(r"\W*(yes|no)\b", text) for text in texts]
    if all(polarity):
        return polarity[0][1] == polarity[1][1]
    numbers = [
        set(re.findall(r"\d+(?:\.\d*[1-9])?", text))
        | {str(NUMBERS.index(w)) for w in re.findall(r"[a-z]+", text) if w in NUMBERS}
        for text in texts
    ]
    return bool(numbers[0]) and numbers[0] == numbers[1]


NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve".split()


def test_the_labelled_predictions_meet_the_targets(shared_data):
    """benchmarks/answer_checker.py's labelled set against issue 53's targets: no wrong prediction judged
    correct; held out, no correct one judged wrong and at most 8% unsure. They hold on the tune part of
    batches 1-6 and on the held-out batches before batch 6. Batches 7 and 8 are spent (their held-out
    parts were run once, reported in models/README.md, then read) and count as tune with batch 9's tune
    part: no wrong one judged correct there, and 21 correct ones judged wrong (names the tables do not
    know: "Phoenix" for dave farrell, tickers for companies) and 99 unsure of 865 as their bounds.
    Batch 6's held-out part, run once after the rules changed and never read, missed the targets by one
    case each (1 wrong judged correct, 1 correct judged wrong, 10 of 119 unsure), and batch 9's, run
    once after the rules chosen on batches 7-9's tune parts (BATCH9_HELD_OUT): those figures are their
    bounds, so that none can get worse unnoticed. Held-out misses are counted here, never named."""
    cases = labelled_cases(shared_data)
    tune, _ = measure_labelled([c for c in cases if c.part == "tune" and c.batch < 7])
    earlier, _ = measure_labelled([c for c in cases if c.part == "held-out" and c.batch < 6])
    tune_part, earlier_part = tune["all"], earlier["all"]
    assert tune_part.n >= 900 and earlier_part.n >= 300
    assert (tune_part.wrong_judged_correct, tune_part.correct_judged_wrong) == (0, 0)
    assert tune_part.unsure_rate <= 0.08
    later = measure_labelled([c for c in cases if c.part == "tune" and c.batch >= 7])[0]["all"]
    assert later.n >= 850 and later.wrong_judged_correct == 0
    assert later.correct_judged_wrong <= 21 and later.unsure <= 99, (later.correct_judged_wrong, later.unsure)
    assert (earlier_part.wrong_judged_correct, earlier_part.correct_judged_wrong) == (0, 0)
    assert earlier_part.unsure_rate <= 0.08
    for batch, bound in ((6, (1, 1, 10)), (9, BATCH9_HELD_OUT)):
        sealed = measure_labelled([c for c in cases if c.part == "held-out" and c.batch == batch])[0]["all"]
        figures = (sealed.wrong_judged_correct, sealed.correct_judged_wrong, sealed.unsure)
        assert sealed.n >= 80
        assert all(figure <= most for figure, most in zip(figures, bound)), (batch, figures)


# Batch 9's held-out part, run once at the end of the round that wrote it (wrong judged correct, correct
# judged wrong, unsure): its bound.
BATCH9_HELD_OUT = (1, 3, 21)  # its first run, before the rules changed: 1, 5, 20
