"""The answer check (models/answer_check.py, the `answer check` stage): each constraint read from a
question's wording and each way an answer keeps or breaks it; the stage's retry with a scripted LLM;
and the reasoning prompt, which the check never changes."""

from __future__ import annotations

import json
import time

import pytest

from evaluation.reports import degradation_counts, event_kind_counts
from models.answer_check import AnswerChecker, AnswerConstraint, read_constraint, violates
from models.answers import I_DONT_KNOW, INVALID_QUESTION
from models.config import load_config
from models.crag_system import CragSystem
from models.deadline import BatchDeadline, EngineSpeed
from models.pipeline import BatchRun, Parts, QuestionRecord
from models.prompts import PromptLibrary
from models.reasoning import ReasoningResult
from models.policy import RETRIED_GIVEN, WRONG_FORM_REFUSED
from models.schema import Question, Route, TraceEvent
from models.stages import WRONG_FORM_ASKED_AGAIN, AnswerCheckStage, stage_costs
from tests.doubles import ScriptedLLM
from tests.test_crag_system import reply_by_output_shape, sample_batch

BOLT = "who ran faster, usain bolt or tyson gay?"


# --- What a question asks for -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "query, options",
    [
        (BOLT, ("usain bolt", "tyson gay")),
        (
            "who had more wins in 2022: detroit pistons or denver nuggets?",
            ("detroit pistons", "denver nuggets"),
        ),
        ("which stock had higher income? apple or microsoft", ("apple", "microsoft")),
        ("which of the two stars, procyon or arcturus, is brighter?", ("procyon", "arcturus")),
        (
            "what are not shown at the louvre, the raft, the oath or the coronation?",
            ("the raft", "the oath", "the coronation"),
        ),
        ("what was the venue of their last game? was it home or away?", ("home", "away")),
        (
            "which movie cost more, star wars: new hope or avengers: endgame?",
            ("star wars: new hope", "avengers: endgame"),
        ),
        ('which is the better film, "the godfather" or "casablanca"?', ("the godfather", "casablanca")),
    ],
)
def test_a_question_naming_its_options_asks_for_one_of_them(query, options):
    assert read_constraint(query) == AnswerConstraint("options", options)


@pytest.mark.parametrize(
    "query",
    [
        # the "or" is before the question's clause
        "for the film life or something like it, who directed it?",
        "which athletes have won gold or silver medals in both games?",
        "what movie, released in 2001 or 2002, won the award?",  # options inside, and no "which of the two"
        "what was their last game? did they win or lose?",  # options that start with a verb
    ],
)
def test_an_or_that_lists_no_clear_options_asks_for_nothing(query):
    assert read_constraint(query) is None


@pytest.mark.parametrize(
    "query, kind",
    [
        ("is chris evans most famous for iron man?", "yes_no"),
        ("can i make cookies in an air fryer?", "yes_no"),
        ("in which year did the nene become the state bird?", "year"),
        ("can you tell me the year it was founded?", "year"),
        ("on what date did it start paying dividends?", "date"),
        ("when was sam mendes born?", "date"),
        ("can you tell me the birthday of sam mendes?", "date"),
        ("how many grammys has adele won?", "number"),
        ("in 2022, how many games did the bulls win?", "number"),
        ("what percentage of sales came from china?", "number"),
    ],
)
def test_a_question_opening_so_asks_for_its_kind(query, kind):
    assert read_constraint(query) == AnswerConstraint(kind)


@pytest.mark.parametrize(
    "query",
    [
        "can you tell me who directed jaws?",  # a polite request, not a yes/no question
        "are you able to say which film won in 1996?",
        "was there an original language the film came in?",  # CRAG asks a name so
        "did he co-headline by 2010? if yes, with whom?",  # two questions
        "when did the film come out?",  # "when" may be answered by a season, an event, a decade
        "who directed jaws?",
    ],
)
def test_other_wordings_ask_for_nothing(query):
    assert read_constraint(query) is None


@pytest.mark.parametrize(
    "query, options",
    [
        (
            "is dreamworks animation owned by time warner or universal pictures?",
            ("time warner", "universal pictures"),
        ),
        ("is georgetown law private or public?", ("private", "public")),
        (
            "did gretsky or ovechkin have more goals?",
            ("gretsky", "ovechkin have more goals"),
        ),  # the first as long as the second
        (
            "is the galaxy s24 or the z flip 5 newer?",
            ("the galaxy s24", "the z flip 5 newer"),
        ),  # at most the words there are
    ],
)
def test_an_auxiliary_question_with_one_or_asks_for_either_option(query, options):
    assert read_constraint(query) == AnswerConstraint("either", options)


@pytest.mark.parametrize(
    "query",
    [
        "did meta have any mergers or acquisitions in 2022?",  # "any": yes or no is asked
        "does it have 5 or more wheels?",  # "or more" names no second option
        "is it red, green or blue?",  # a list: where does the first option start?
        "was it sunny or rainy or both?",  # more than one "or"
    ],
)
def test_an_auxiliary_question_whose_or_names_no_two_options_asks_for_nothing(query):
    assert read_constraint(query) is None


def test_either_options_are_checked_only_when_asked_for():
    query, answer = "is dreamworks animation owned by time warner or universal pictures?", "NBCUniversal"
    default = AnswerChecker(load_config("cpu").answer_check, None, PromptLibrary())
    asked = AnswerChecker(
        load_config("cpu", {"answer_check.kinds": "either"}).answer_check, None, PromptLibrary()
    )
    assert default.check(query, answer) is None
    assert asked.check(query, answer) == (read_constraint(query), "names none of the options")
    assert asked.check(query, "Universal Pictures") is None


def test_a_yes_no_question_that_compares_says_so():
    assert read_constraint("is tesla's close higher than yesterday's?") == AnswerConstraint(
        "yes_no", comparison=True
    )


# --- Whether an answer keeps it ---------------------------------------------------------------------

OPTIONS = AnswerConstraint("options", ("usain bolt", "tyson gay"))


@pytest.mark.parametrize(
    "answer",
    [
        "Usain Bolt",
        "usain bolt.",
        "The Usain Bolt",
        "Usain Bolt ran faster",
        "Bolt",
        "Usain Bolt ran faster than Tyson Gay",  # both, in a sentence that chooses
        "Both ran 9.69",
        "Neither",  # a tie answers the choice
    ],
)
def test_an_answer_naming_one_option_or_answering_the_choice_keeps_it(answer):
    assert violates(OPTIONS, answer) is None


@pytest.mark.parametrize(
    "answer, why",
    [
        ("Carl Lewis", "names none of the options"),
        ("Usain Bolt or Tyson Gay", "only repeats the options"),
        ("Usain Bolt and Tyson Gay", "only repeats the options"),
    ],
)
def test_an_answer_naming_another_thing_or_only_repeating_the_options_breaks_it(answer, why):
    assert violates(OPTIONS, answer) == why


def test_an_option_is_named_by_a_word_no_other_option_has():
    bieber = AnswerConstraint("options", ("justin bieber", "hailey bieber"))
    assert violates(bieber, "Justin Beiber is older") is None
    assert violates(bieber, "Bieber") == "names none of the options"


@pytest.mark.parametrize(
    "constraint, keeps, breaks",
    [
        (AnswerConstraint("yes_no"), "Yes, in 2008", "Captain America"),
        (AnswerConstraint("yes_no"), "no.", "Nobody knows"),
        (AnswerConstraint("yes_no", comparison=True), "It closed lower than yesterday", "184.02"),
        (AnswerConstraint("year"), "in 1998", "last year"),
        (AnswerConstraint("year"), "never", "Hawaii"),
        (AnswerConstraint("date"), "July 28, 1949", "in Paris"),
        (AnswerConstraint("date"), "none of the days", "the spring"),
        (AnswerConstraint("number"), "two: tesla and toyota", "Only Tesla"),
        (AnswerConstraint("number"), "$3.5 million", "canberra"),
        (AnswerConstraint("number"), "none", "a lot"),
    ],
)
def test_an_answer_of_the_kind_asked_keeps_it_and_one_of_another_kind_breaks_it(constraint, keeps, breaks):
    assert violates(constraint, keeps) is None
    assert violates(constraint, breaks) == (
        "no yes or no" if constraint.kind == "yes_no" else f"no {constraint.kind}"
    )


@pytest.mark.parametrize(
    "constraint", [OPTIONS, *(AnswerConstraint(kind) for kind in ("yes_no", "year", "date", "number"))]
)
def test_i_dont_know_and_invalid_question_never_break_a_constraint(constraint):
    assert violates(constraint, I_DONT_KNOW) is None and violates(constraint, INVALID_QUESTION) is None


def test_only_the_configured_kinds_are_checked():
    config = load_config("cpu", {"answer_check.kinds": "options"}).answer_check
    checker = AnswerChecker(config, None, PromptLibrary())
    assert checker.check("how many grammys has adele won?", "canberra") is None
    assert checker.check(BOLT, "carl lewis") == (OPTIONS, "names none of the options")
    with pytest.raises(ValueError, match=r"unknown kinds \['colour'\]"):
        AnswerChecker(
            load_config("cpu", {"answer_check.kinds": "number,colour"}).answer_check, None, PromptLibrary()
        )


# --- The stage ----------------------------------------------------------------------------------------

MEDALS = "how many gold medals did norway win in 2022?"


def run_stage(llm, questions_answers, **overrides):
    """The stage alone over reasoned records, as the batch meets it after the reasoning, and the
    answer policy after it."""
    config = load_config("cpu", overrides)
    parts = Parts(config, llm, PromptLibrary(), encoder=None, planner=None)  # type: ignore[arg-type]
    stage = AnswerCheckStage(parts)
    records = []
    for index, (query, answer) in enumerate(questions_answers):
        record = QuestionRecord(Question(str(index), query, "March 1, 2024"))
        record.reasoning = ReasoningResult(
            answer=answer, reasoning="Norway won 16 golds.", prompt_references=["Norway: 16 gold"]
        )
        record.reply_state = "answered"
        records.append(record)
    clock = time.monotonic
    deadline = BatchDeadline(
        len(records), config.budget, stage_costs(config), EngineSpeed.initial(config.budget), clock
    )
    BatchRun(records, [stage], deadline, llm, clock, parts.policy).run()
    return records


def test_a_retry_in_one_call_gives_the_answer_of_the_right_form():
    llm = ScriptedLLM([json.dumps({"answer": "16"})])

    fine, medals = run_stage(llm, [(BOLT, "Usain Bolt"), (MEDALS, "Oslo")])

    assert (fine.answer, medals.answer) == ("Usain Bolt", "16")
    assert (fine.trace.route, medals.trace.route) == (Route.ANSWERED, Route.RETRIED)
    [(conversations, params)] = llm.calls  # one call, for the violating answer only
    [prompt] = [
        message["content"]
        for conversation in conversations
        for message in conversation
        if message["role"] == "user"
    ]
    assert (
        MEDALS in prompt
        and "Norway: 16 gold" in prompt
        and "Norway won 16 golds." in prompt
        and "Oslo" in prompt
    )
    assert (
        "a number" in conversations[0][0]["content"] and "one of them" not in conversations[0][0]["content"]
    )
    assert params.json_schema is not None and params.max_tokens == 32
    assert medals.trace.events == [
        TraceEvent("answer check", "fallback", WRONG_FORM_ASKED_AGAIN, "no number"),
        TraceEvent("answer check", "routed", RETRIED_GIVEN, "no number"),
    ]
    assert fine.trace.events == [] and "answer check" not in fine.trace.timings
    assert medals.trace.tokens["answer check"].calls == 1


def test_a_retry_that_still_breaks_the_form_answers_i_dont_know():
    llm = ScriptedLLM([json.dumps({"answer": "Oslo, Norway"})])

    [medals] = run_stage(llm, [(MEDALS, "Oslo")])

    assert medals.answer == I_DONT_KNOW and medals.trace.route == Route.WRONG_FORM
    assert [(event.kind, event.what, event.detail) for event in medals.trace.events] == [
        ("fallback", WRONG_FORM_ASKED_AGAIN, "no number"),
        ("routed", WRONG_FORM_REFUSED, "no number, asked again: no number"),
    ]
    line = medals.finished_trace().as_dict()
    assert degradation_counts([line]) == {
        f"answer check {WRONG_FORM_ASKED_AGAIN}": 1,
        f"answer check {WRONG_FORM_REFUSED}": 1,
    }
    assert event_kind_counts([line]) == {"routed": 1, "fallback": 1}


@pytest.mark.parametrize(
    "overrides, why",
    [
        ({"budget.seconds_per_question": "0.001"}, "no number, no time left"),
        ({"policy.wrong_form.number": "refuse"}, "no number, no retry"),
    ],
)
def test_without_time_or_a_retry_a_wrong_form_is_refused_without_calling_the_llm(overrides, why):
    llm = ScriptedLLM([])

    [medals] = run_stage(llm, [(MEDALS, "Oslo")], **overrides)

    assert llm.calls == [] and medals.answer == I_DONT_KNOW
    assert medals.trace.events == [TraceEvent("answer check", "routed", WRONG_FORM_REFUSED, why)]


def test_a_kind_the_policy_keeps_is_neither_asked_again_nor_refused():
    llm = ScriptedLLM([])

    [medals] = run_stage(llm, [(MEDALS, "Oslo")], **{"policy.wrong_form.number": "keep"})

    assert llm.calls == [] and medals.answer == "Oslo" and medals.trace.route == Route.ANSWERED
    assert medals.check is not None and medals.check.retry_problem == "no retry"


def test_a_disabled_check_leaves_the_answers_alone():
    llm = ScriptedLLM([])

    [medals] = run_stage(llm, [(MEDALS, "Oslo")], **{"answer_check.enabled": "false"})

    assert llm.calls == [] and medals.answer == "Oslo" and medals.trace.events == []


def test_the_baseline_preset_has_no_check_and_the_others_do():
    assert not load_config("baseline").answer_check.enabled
    assert load_config("cpu").answer_check.enabled and load_config("t4x4").answer_check.enabled


def test_the_reasoning_prompt_is_the_same_with_the_check_on_and_off(monkeypatch):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)

    def reasoning_prompts(enabled: str):
        llm = ScriptedLLM(reply_by_output_shape())
        system = CragSystem(
            load_config("cpu", {"attributes.enabled": "false", "answer_check.enabled": enabled}), llm=llm
        )
        try:
            answers = system.batch_generate_answer(sample_batch(3))
        finally:
            system.close()
        reasoning = [
            conversations
            for conversations, params in llm.calls
            if "false_premise" in (params.json_schema or {}).get("properties", {})
        ]
        return reasoning, answers, len(llm.calls)

    on, answers_on, calls_on = reasoning_prompts("true")
    off, answers_off, calls_off = reasoning_prompts("false")

    assert on == off and len(on) == 1
    # "canberra" answers no "how many" and no "in what year": asked again, still wrong, refused.
    assert answers_off == ["canberra"] * 3 and answers_on == ["canberra", I_DONT_KNOW, I_DONT_KNOW]
    assert calls_on == calls_off + 1
