"""benchmarks/switch.py: a setting's value chosen by score, ties to the shipped one, and held out."""

from __future__ import annotations

import pytest

from benchmarks import switch
from evaluation.answer_match import Verdict
from evaluation.data import CragRecord, GoldQuestion

RECORD = CragRecord(GoldQuestion("id", "q?", "a"), {})
VALUES = ["off", "on"]


def case(off: Verdict, on: Verdict, source: str = "a") -> switch.Case:
    return switch.Case(RECORD, source, {"off": off, "on": on})


def test_choose_takes_the_best_score_and_the_shipped_value_on_a_tie():
    assert switch.choose([case(Verdict.MISSING, Verdict.CORRECT)], VALUES) == "on"
    assert switch.choose([case(Verdict.MISSING, Verdict.WRONG)], VALUES) == "off"
    assert switch.choose([case(Verdict.MISSING, Verdict.MISSING)], VALUES) == "off"
    assert switch.choose([case(Verdict.MISSING, Verdict.CORRECT), case(Verdict.CORRECT, Verdict.WRONG)], VALUES) == "off"


def test_held_out_applies_the_value_chosen_without_the_held_out_question():
    # "on" turns three misses right and a right answer wrong: in-sample it wins by one. Held out, each
    # helped question sees two helped and the hurt one (a tie: "off"); the hurt one sees three helped.
    cases = [case(Verdict.MISSING, Verdict.CORRECT)] * 3 + [case(Verdict.CORRECT, Verdict.WRONG)]
    assert switch.choose(cases, VALUES) == "on"
    result = switch.held_out(cases, VALUES, [[0], [1], [2], [3]])
    assert (result["correct"], result["wrong"]) == (0, 1)
    assert result["score"] == pytest.approx(-1 / 4)


def test_a_change_on_one_question_alone_never_wins_held_out():
    cases = [case(Verdict.WRONG, Verdict.CORRECT)] + [case(Verdict.MISSING, Verdict.MISSING)] * 4
    assert switch.choose(cases, VALUES) == "on"
    assert switch.held_out(cases, VALUES, [[i] for i in range(5)])["wrong"] == 1


def test_runs_are_named_value_equals_answers_file(tmp_path):
    answers = tmp_path / "a.jsonl"
    answers.write_text("")
    assert list(switch.parse_args([f"off={answers}", f"on={answers}"]).runs) == VALUES
    for argv in ([f"off={answers}"], [str(answers), f"on={answers}"], [f"off={answers}", f"on={tmp_path / 'none.jsonl'}"]):
        with pytest.raises(SystemExit):
            switch.parse_args(argv)
