"""benchmarks/knowledge_rule.py: each rule's verdicts read from the two runs, chosen on folds."""

from __future__ import annotations

import pytest

from benchmarks import knowledge_rule
from evaluation.answer_match import Verdict
from evaluation.data import CragRecord, GoldQuestion

RECORD = CragRecord(GoldQuestion("id", "q?", "a"), {})


def case(
    relevance: float | None,
    with_knowledge: Verdict,
    without: Verdict | None,
    dynamic: float = 0.1,
    answered: bool = True,
) -> knowledge_rule.Case:
    return knowledge_rule.Case(RECORD, "a", dynamic, relevance, answered, with_knowledge, without)


def test_a_rule_takes_the_forced_verdict_where_it_runs_the_extractor_and_the_plan_one_elsewhere():
    strong = case(0.8, Verdict.CORRECT, Verdict.MISSING)
    assert strong.verdict((0.5, 0.5)) is Verdict.MISSING
    assert strong.verdict((0.5, 0.9)) is Verdict.CORRECT
    assert strong.runs_extractor((0.5, 0.9)) and not strong.runs_extractor((0.5, 0.5))


def test_the_dynamic_cap_keeps_the_extractor_from_a_likely_dynamic_question():
    dynamic = case(0.8, Verdict.CORRECT, Verdict.WRONG, dynamic=0.6)
    assert dynamic.verdict((0.5, 1.01)) is Verdict.WRONG
    assert dynamic.verdict((0.7, 1.01)) is Verdict.CORRECT


def test_no_reference_and_questions_the_plan_gave_the_extractor_keep_its_verdict():
    assert case(None, Verdict.CORRECT, None).runs_extractor((0.5, 0.5))
    assert case(0.3, Verdict.WRONG, None).verdict((0.5, 0.5)) is Verdict.WRONG


def test_a_question_refused_before_the_plan_never_runs_the_extractor():
    refused = case(None, Verdict.MISSING, Verdict.MISSING, answered=False)
    assert not refused.runs_extractor((1.0, 1.01))


def test_choose_prefers_the_best_score_then_the_fewest_extractor_runs():
    gains = [case(0.85, Verdict.CORRECT, Verdict.MISSING)]
    assert knowledge_rule.choose(gains) == (0.5, 0.9)
    neutral = [case(0.85, Verdict.MISSING, Verdict.MISSING)]
    assert knowledge_rule.choose(neutral) == knowledge_rule.PRESET_RULE


def test_held_out_applies_the_rule_chosen_without_the_held_out_question():
    # The extractor helps four questions and hurts the fifth. Held out, each gets the rule the other
    # four chose, which runs it: the fifth is wrong, where in-sample the preset rule had it right.
    cases = [case(0.85, Verdict.CORRECT, Verdict.MISSING)] * 4 + [case(0.85, Verdict.WRONG, Verdict.CORRECT)]
    assert knowledge_rule.score(cases, knowledge_rule.PRESET_RULE)["score"] == pytest.approx(1 / 5)
    result = knowledge_rule.held_out(cases, [[0], [1], [2], [3], [4]])
    assert (result["correct"], result["wrong"]) == (4, 1)
    # With two helped and one hurt, a held-out helped question sees the other two, whose score the
    # preset rule wins (the hurt one is right without the extractor): it keeps the preset rule.
    tied = knowledge_rule.held_out(cases[3:] + cases[:1], [[0], [1], [2]])
    assert (tied["correct"], tied["wrong"]) == (0, 1)


def test_relevance_is_read_from_the_forced_runs_knowledge_signal():
    line = {"plan": {"signals": ["kg: a movie question", "knowledge: weak references (best 0.81)"]}}
    assert knowledge_rule.relevance_of(line, "id") == pytest.approx(0.81)
    assert knowledge_rule.relevance_of({"plan": {"signals": ["knowledge: no references"]}}, "id") is None
    with pytest.raises(SystemExit, match="weak_relevance=1.01"):
        knowledge_rule.relevance_of(
            {"plan": {"signals": ["knowledge skipped: strong references (best 0.81)"]}}, "id"
        )
