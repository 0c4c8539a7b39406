"""The 75-token cut must match the official one (transformers' Llama tokenizer) exactly."""

from __future__ import annotations

import json

import pytest

from evaluation.truncation import ApproximateTruncator, LlamaTruncator, load_truncator
from tests.conftest import SHARED_TOKENIZER

LONG_ANSWERS = [
    "The answer is 3,696 feet: interstate 878 in Queens, New York, is the shortest signed interstate "
    "highway, although several state routes are shorter still; measurements differ by source, and the "
    "Federal Highway Administration lists 0.70 miles (about 3,700 feet) for the whole route as of 2023.",
    "Between 1998 and 2021 the club won 14 league titles, 7 national cups and 2 continental trophies — "
    "the 2008–09 season alone brought three of them — while its average attendance rose from 41,213 to "
    "73,564 spectators per home game, according to the league's annual reports.",
    "Microsoft Office 2019 ships in 102 languages and Office 2013 in 40 full languages plus language "
    "accessory packs, so yes, Office 2019 is available in more languages; note that 'available' can "
    "mean a full user interface or only proofing tools, which the comparison above does not separate, "
    "and Microsoft changed how it counts partially localized languages between the two releases.",
    "Ünïcödé names such as Björk Guðmundsdóttir, Zoë Kravitz, François Truffaut and 宮崎駿 (Hayao "
    "Miyazaki) appear in the references 🙂, together with prices like €1,299.99 and £45 and the "
    "temperature −17 °C; each of those characters may fall back to bytes in the Llama-2 vocabulary.",
    "Line one of a list:\n1. Apple (AAPL) closed at $182.31\n2. Microsoft (MSFT) closed at $415.50\n"
    "3. Nvidia (NVDA) closed at $875.28\n\tIndented line with a tab, then  two  spaces  between  words, "
    "and finally a trailing sentence that pushes the text well past the seventy-five token limit.",
    "i don't know " * 40,
    "yes " * 120,
    "The first actor to play a comic book villain in a live-action film is often said to be Carol "
    "Forman, who played the Spider Lady in the 1948 serial Superman, directed by Spencer Gordon Bennet "
    "and Thomas Carr; earlier serials such as The Adventures of Captain Marvel (1941) featured the "
    "Scorpion, so the claim depends on how one defines a comic book villain.",
]


@pytest.fixture(scope="module")
def shared_tokenizer():
    if not (SHARED_TOKENIZER / "tokenizer.json").is_file():
        pytest.skip(f"{SHARED_TOKENIZER} is absent")
    return SHARED_TOKENIZER


@pytest.fixture(scope="module")
def official(shared_tokenizer):
    transformers = pytest.importorskip("transformers")
    tokenizer = transformers.LlamaTokenizerFast.from_pretrained(str(shared_tokenizer))

    def truncate(prediction: str) -> str:  # the starter kit's trim_predictions_to_max_token_length
        return tokenizer.decode(tokenizer.encode(prediction)[1:76])

    return truncate


def _validation_answers(shared_data) -> list[str]:
    path = shared_data / "crag_questions_validation.jsonl"
    if not path.is_file():
        return []
    answers = [
        str(json.loads(line)["answer"])
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    # Glue consecutive real answers into long predictions so the cut falls inside real answer text.
    return [" ".join(answers[i : i + 6]) for i in range(0, len(answers), 6)]


def test_matches_the_official_cut_on_long_answers(shared_tokenizer, official):
    truncator = LlamaTruncator(shared_tokenizer / "tokenizer.json")
    for answer in LONG_ANSWERS:
        assert truncator.truncate(answer) == official(answer)
        assert truncator.truncate(answer) != answer  # every one of them is over the limit


def test_matches_the_official_cut_on_real_answers(shared_tokenizer, official, shared_data):
    answers = _validation_answers(shared_data)
    if not answers:
        pytest.skip("crag_questions_validation.jsonl is absent")
    truncator = LlamaTruncator(shared_tokenizer / "tokenizer.json")
    mismatches = [a for a in answers if truncator.truncate(a) != official(a)]
    assert mismatches == []
    assert sum(truncator.truncate(a) != a for a in answers) > 10  # the cut really happened on many


def test_short_answers_come_back_unchanged(shared_tokenizer):
    truncator = LlamaTruncator(shared_tokenizer / "tokenizer.json")
    for answer in ["canberra", "I don't know", "3,696 feet", "invalid question", ""]:
        assert truncator.truncate(answer) == answer


def test_missing_tokenizer_falls_back_to_the_approximation(tmp_path):
    truncator = load_truncator(tmp_path / "no-tokenizer")
    assert isinstance(truncator, ApproximateTruncator)
    assert truncator.exact is False
    assert "approximate" in truncator.description


def test_approximation_keeps_short_text_and_cuts_long_text():
    truncator = ApproximateTruncator(max_tokens=10)
    assert truncator.truncate("the capital is canberra") == "the capital is canberra"
    # 12 digits cost 12 tokens: only the first 10 survive.
    assert truncator.truncate("123456789012") == "1234567890"
    cut = truncator.truncate("one two three four five six seven eight nine ten eleven twelve")
    assert cut.split() == "one two three four five six seven eight nine ten".split()


def test_approximation_stays_close_to_the_real_tokenizer(shared_tokenizer):
    exact = LlamaTruncator(shared_tokenizer / "tokenizer.json")
    approximate = ApproximateTruncator()
    for answer in LONG_ANSWERS[:3] + LONG_ANSWERS[7:]:
        exact_words = len(exact.truncate(answer).split())
        approximate_words = len(approximate.truncate(answer).split())
        assert abs(exact_words - approximate_words) <= 0.25 * exact_words
