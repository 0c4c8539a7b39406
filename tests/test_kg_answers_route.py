"""What the KG's facts decide around the reasoning, as answer-policy rules (models/policy.py, issue 39):
"invalid question" stands only with evidence of a false premise, a computed answer stands over the
model's, and a question about a name the KG lacks, with nothing else to go on, is answered "I don't
know" before any model guesses. Each rule has its switch in `policy`."""

from __future__ import annotations

import time

import pytest

from models.answers import I_DONT_KNOW, INVALID_QUESTION
from models.deadline import BatchDeadline, EngineSpeed
from models.kg import KGResult
from models.kg.answer import ComputedAnswer
from models.pipeline import QuestionRecord
from models.policy import (
    COMPUTED_KEPT,
    COMPUTED_OVER_DECLINE,
    CONTRADICTED_PREMISE,
    FALSE_PREMISE_OVERRULED,
    NO_REPLY,
    states,
)
from models.reasoning import ReasoningResult
from models.schema import Evidence, Question, Route, TraceEvent
from models.stages import REPLY_CUT, ReasoningStage, stage_costs
from tests.doubles import scripted_parts

COMPUTED = ComputedAnswer("lookup", "2021-12-23", "the day of the earliest dividends paid")
DIVIDENDS = "on what date did imppp start distributing dividends?"


def reasoned(answer: str, kg: KGResult | None, **overrides: str) -> QuestionRecord:
    """A question the reasoning answered `answer`, as the policy answers it after the last stage (the
    answer check aside: tests/test_answer_check.py)."""
    built = scripted_parts(**{"answer_check.enabled": "false", **overrides})
    record = QuestionRecord(Question("q", DIVIDENDS, "03/11/2024, 15:00:00 PT"))
    record.kg = kg
    ReasoningStage(built).write(record, ReasoningResult(answer=answer, parsed=True))
    built.policy.finish([record])
    return record


def test_a_false_premise_the_facts_do_not_show_is_overruled_by_the_computed_answer():
    record = reasoned(INVALID_QUESTION, KGResult(has_evidence=True, computed=COMPUTED))
    assert record.answer == "2021-12-23" and record.trace.route == Route.PREMISE_OVERRULED
    assert TraceEvent("answer check", "routed", FALSE_PREMISE_OVERRULED, "2021-12-23") in record.trace.events


def test_without_a_computed_answer_the_false_premise_stands_unless_turned_off():
    # the facts decide no answer: they have not shown the premise true (issue 51, second sealed set)
    kept = reasoned(INVALID_QUESTION, KGResult(has_evidence=True))
    assert kept.answer == INVALID_QUESTION and kept.trace.route == Route.ANSWERED and not kept.trace.events
    loose = {"policy.premise_overruled_only_by_computed": "false"}
    assert reasoned(INVALID_QUESTION, KGResult(has_evidence=True), **loose).answer == I_DONT_KNOW
    off = {"policy.false_premise_overruled": "false"}
    assert (
        reasoned(INVALID_QUESTION, KGResult(has_evidence=True, computed=COMPUTED), **off).answer
        == INVALID_QUESTION
    )


@pytest.mark.parametrize(
    "kg",
    [
        None,  # no KG (Task 1): the model's judgement stands
        KGResult(
            has_evidence=False, computed=COMPUTED
        ),  # the KG found nothing about the asked entity and time
        KGResult(
            has_evidence=True, contradicts=True, computed=COMPUTED
        ),  # the facts say the assumed event did not happen
    ],
)
def test_invalid_question_stands_without_kg_facts_or_with_facts_that_contradict_the_question(kg):
    record = reasoned(INVALID_QUESTION, kg)
    assert (
        record.answer == INVALID_QUESTION and record.trace.route == Route.ANSWERED and not record.trace.events
    )


def test_the_model_may_not_overturn_the_computed_answer():
    facts = KGResult(has_evidence=True, computed=COMPUTED)
    overturned = reasoned("2022-01-01", facts)
    assert overturned.answer == "2021-12-23" and overturned.trace.route == Route.COMPUTED_KEPT
    assert TraceEvent("answer check", "routed", COMPUTED_KEPT, "2022-01-01") in overturned.trace.events
    stated = reasoned("IMPPP first paid on 2021-12-23.", facts)  # states it: the model's words stay
    assert stated.answer == "IMPPP first paid on 2021-12-23." and not stated.trace.events
    assert reasoned("2022-01-01", facts, **{"policy.computed_answer_final": "false"}).answer == "2022-01-01"
    assert reasoned("2022-01-01", KGResult(has_evidence=True)).answer == "2022-01-01"  # nothing computed


def test_an_answer_states_a_computed_value_up_to_case_signs_and_thousands_commas():
    assert states("27,965,800 shares", "27965800") and states("$1.76", "1.76") and states("CASI", "casi")
    assert not states("TDCX", "good") and not states("1.7", "1.76") and not states("D", "D (draw)")
    assert not states("27,965", "27965800") and not states("2021-12-24", "2021-12-23")


def retrieved(kg: KGResult | None, references: list[str], **overrides: str) -> QuestionRecord:
    """A question after the retrieval's turn, as the policy settles it there."""
    record = QuestionRecord(
        Question("q", "who directed katherine ryan: in trouble?", "03/11/2024, 15:00:00 PT")
    )
    record.kg, record.evidence = kg, Evidence(chunks=references)
    scripted_parts(**overrides).policy.settle([record], after="retrieval")
    return record


def test_a_name_the_kg_lacks_with_nothing_else_to_go_on_is_answered_i_dont_know():
    record = retrieved(KGResult(unmatched=["Katherine Ryan: In Trouble"]), [])
    assert record.answer == I_DONT_KNOW and record.trace.route == Route.NOT_IN_KG
    assert [(e.stage, e.kind, e.what) for e in record.trace.events] == [("retrieval", "routed", "refused")]
    assert retrieved(
        KGResult(unmatched=["Katherine Ryan: In Trouble"]), [], **{"policy.not_in_kg_refused": "false"}
    ).is_open


@pytest.mark.parametrize(
    "kg, references",
    [
        (
            KGResult(unmatched=["Katherine Ryan: In Trouble"]),
            ["Katherine Ryan: In Trouble was directed by Colin Dench."],
        ),
        (
            KGResult(unmatched=["Katherine Ryan"], has_evidence=True),
            [],
        ),  # the KG has facts for another name asked
        (KGResult(), []),  # every name matched (or none asked)
        (None, []),  # no KG: the knowledge extractor may still answer a static question
    ],
)
def test_the_question_stays_open_with_evidence_or_without_an_unmatched_name(kg, references):
    assert retrieved(kg, references).is_open


def test_a_question_the_reasoning_has_no_reply_for_gets_the_kgs_computed_answer():
    cut = ReasoningResult(cut=True, parsed=False)
    built = scripted_parts()
    with_computed = QuestionRecord(Question("q", DIVIDENDS, "03/11/2024, 15:00:00 PT"))
    with_computed.kg = KGResult(has_evidence=True, computed=COMPUTED)
    without = QuestionRecord(Question("r", "who won?", "03/11/2024, 15:00:00 PT"))
    failed = QuestionRecord(Question("s", "who won?", "03/11/2024, 15:00:00 PT"))
    stage = ReasoningStage(built)
    stage.write(with_computed, cut)
    stage.write(without, cut)
    stage.write(failed, None)  # the stage failed for it
    built.policy.settle([with_computed, without, failed], after="reasoning")
    assert with_computed.answer == "2021-12-23" and with_computed.trace.route == Route.COMPUTED_NO_REPLY
    assert [e.what for e in with_computed.trace.events] == [REPLY_CUT, NO_REPLY]
    assert without.answer == I_DONT_KNOW and without.trace.route == Route.OUT_OF_TIME
    assert failed.answer == I_DONT_KNOW and failed.trace.route == Route.FAILED


def test_a_question_no_reasoning_form_fits_gets_the_kgs_computed_answer_without_a_call():
    built = scripted_parts(**{"budget.seconds_per_question": "0.001"})
    config = built.config
    stage = ReasoningStage(built)
    computed, bare = (QuestionRecord(Question(i, DIVIDENDS, "03/11/2024")) for i in "ab")
    computed.kg = KGResult(has_evidence=True, computed=COMPUTED)
    deadline = BatchDeadline(
        2, config.budget, stage_costs(config), EngineSpeed.initial(config.budget), time.monotonic
    )
    call = stage.plan_call([computed, bare], deadline, [])
    assert not call.records
    built.policy.settle([computed, bare], after="reasoning")
    assert computed.answer == "2021-12-23" and computed.trace.route == Route.COMPUTED_NO_REPLY
    assert bare.answer == I_DONT_KNOW and bare.trace.route == Route.OUT_OF_TIME


def test_a_declined_computed_answer_is_given_unless_the_facts_contradict_the_question_or_it_is_turned_off():
    declined = reasoned(I_DONT_KNOW, KGResult(has_evidence=True, computed=COMPUTED))
    assert declined.answer == "2021-12-23" and declined.trace.route == Route.COMPUTED_OVER_DECLINE
    assert TraceEvent("answer check", "routed", COMPUTED_OVER_DECLINE, "2021-12-23") in declined.trace.events
    off = {"policy.computed_answer_over_decline": "false"}
    assert reasoned(I_DONT_KNOW, KGResult(has_evidence=True, computed=COMPUTED), **off).answer == I_DONT_KNOW
    assert reasoned(I_DONT_KNOW, KGResult(has_evidence=True)).answer == I_DONT_KNOW  # nothing computed
    assert (
        reasoned(I_DONT_KNOW, KGResult(has_evidence=False, computed=COMPUTED)).answer == I_DONT_KNOW
    )  # no facts


def test_a_decline_where_the_facts_contradict_the_question_is_a_false_premise():
    contradicted = reasoned(I_DONT_KNOW, KGResult(has_evidence=True, contradicts=True, computed=COMPUTED))
    assert contradicted.answer == INVALID_QUESTION and contradicted.trace.route == Route.INVALID_PREMISE
    assert (
        TraceEvent("answer check", "routed", CONTRADICTED_PREMISE, INVALID_QUESTION)
        in contradicted.trace.events
    )
    off = {"policy.contradicted_premise_invalid": "false"}
    assert (
        reasoned(I_DONT_KNOW, KGResult(has_evidence=True, contradicts=True, computed=COMPUTED), **off).answer
        == I_DONT_KNOW
    )
    assert (
        reasoned(I_DONT_KNOW, KGResult(has_evidence=False, contradicts=True)).answer == I_DONT_KNOW
    )  # no facts
    assert reasoned("W", KGResult(has_evidence=True, contradicts=True)).answer == "W"  # an answer stands
