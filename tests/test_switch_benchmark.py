"""benchmarks/switch.py: a setting's value chosen by score, ties to the shipped one, held out by
tools.fit's folds."""

from __future__ import annotations

from benchmarks import switch
from evaluation.answer_match import Verdict
from evaluation.data import CragRecord, GoldQuestion
from tools.fit import fold_of

VALUES = ["off", "on"]


def case(off: Verdict, on: Verdict, qid: str = "id") -> switch.Case:
    return switch.Case(CragRecord(GoldQuestion(qid, "q?", "a"), {}), {"off": off, "on": on})


def test_the_choice_takes_the_best_score_and_the_shipped_value_on_a_tie():
    assert switch.chosen([case(Verdict.MISSING, Verdict.CORRECT)], VALUES) == "on"
    assert switch.chosen([case(Verdict.MISSING, Verdict.WRONG)], VALUES) == "off"
    assert switch.chosen([case(Verdict.MISSING, Verdict.MISSING)], VALUES) == "off"
    assert (
        switch.chosen([case(Verdict.MISSING, Verdict.CORRECT), case(Verdict.CORRECT, Verdict.WRONG)], VALUES)
        == "off"
    )


def test_held_out_applies_the_value_chosen_without_the_held_out_fold():
    # "on" turns three misses right and a right answer wrong; each question in a fold of its own sees
    # the other three: the helped ones two helped and the hurt one (a tie: "off"), the hurt one three helped.
    ids = []
    i = 0
    while len(ids) < 4:  # four ids in four different folds
        qid = f"q{i}"
        if fold_of(qid, 4) not in {fold_of(other, 4) for other in ids}:
            ids.append(qid)
        i += 1
    cases = [case(Verdict.MISSING, Verdict.CORRECT, qid) for qid in ids[:3]] + [
        case(Verdict.CORRECT, Verdict.WRONG, ids[3])
    ]
    assert switch.chosen(cases, VALUES) == "on"
    assert switch.held_out(cases, VALUES, 4) == [0, 0, 0, -1]


def test_runs_are_named_value_equals_answers_file(tmp_path):
    import pytest

    answers = tmp_path / "a.jsonl"
    answers.write_text("")
    assert list(switch.parse_args([f"off={answers}", f"on={answers}"]).runs) == VALUES
    for argv in (
        [f"off={answers}"],
        [str(answers), f"on={answers}"],
        [f"off={answers}", f"on={tmp_path / 'none.jsonl'}"],
    ):
        with pytest.raises(SystemExit):
            switch.parse_args(argv)
