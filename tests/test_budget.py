from models.deadline import BatchDeadline, StageCostModel
from models.config import BudgetConfig


def make(questions, seconds_per_question, **stage_seconds):
    config = BudgetConfig(seconds_per_question=seconds_per_question, usable_fraction=1.0,
                          initial_stage_seconds=stage_seconds)
    costs = StageCostModel(config)
    return BatchDeadline(questions, config, costs), costs


def test_optional_stage_runs_when_it_fits_with_reasoning():
    deadline, _ = make(4, 30.0, calculator=5.0, reasoning=10.0)
    assert deadline.can_run_optional("calculator", 4)


def test_optional_stage_skipped_when_reasoning_would_not_fit():
    deadline, _ = make(4, 30.0, calculator=25.0, reasoning=10.0)
    assert not deadline.can_run_optional("calculator", 4)


def test_reasoning_shortens_references_then_drops_questions():
    config = BudgetConfig(seconds_per_question=10.0, usable_fraction=1.0, initial_stage_seconds={"reasoning": 12.0},
                          shortened_reference_share=0.5, shortened_reference_cost=0.6)
    deadline = BatchDeadline(4, config, StageCostModel(config))
    assert deadline.reasoning_fit(4) == (4, 0.5)  # 4 x 12 s > 40 s, but 4 x 7.2 s fits

    tiny = BudgetConfig(seconds_per_question=0.01, usable_fraction=1.0, initial_stage_seconds={"reasoning": 12.0})
    assert BatchDeadline(4, tiny, StageCostModel(tiny)).reasoning_fit(4)[0] == 0


def test_cost_model_learns_from_measurements():
    config = BudgetConfig(initial_stage_seconds={"reasoning": 10.0}, cost_smoothing=0.5)
    costs = StageCostModel(config)
    costs.observe("reasoning", seconds=8.0, questions=4)  # 2 s per question
    assert costs.predict("reasoning", 1) == 6.0
    costs.observe("web", seconds=3.0, questions=3)
    assert costs.predict("web", 2) == 2.0


def test_a_fixed_cost_per_call_counts_once_whatever_the_batch_size():
    config = BudgetConfig(seconds_per_question=30.0, usable_fraction=1.0, cost_smoothing=1.0,
                          initial_stage_seconds={"reasoning": 4.0, "calculator": 3.0},
                          stage_call_seconds={"reasoning": 19.0, "calculator": 6.0})
    costs = StageCostModel(config)
    assert costs.predict("reasoning", 1) == 23.0 and costs.predict("reasoning", 8) == 51.0
    # A lone question (30 s): reasoning fits, but not the calculator before it.
    lone = BatchDeadline(1, config, costs)
    assert lone.reasoning_fit(1) == (1, 1.0)
    assert not lone.can_run_optional("calculator", 1)
    # What a call took beyond its fixed part is learned per question.
    costs.observe("reasoning", seconds=35.0, questions=8)
    assert costs.predict("reasoning", 8) == 19.0 + 16.0
