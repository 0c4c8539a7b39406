"""The leaderboard's scoring rules, the answer checker before the LLM judge, and the verdict cache."""

from __future__ import annotations

from evaluation.data import GoldQuestion
from evaluation.judges import (
    LLM_JUDGE,
    RULES,
    UNSURE_COUNTED_WRONG,
    BackendJudge,
    CachedJudge,
    JudgeRequest,
    RulesJudge,
    VerdictCache,
    parse_verdict,
)
from evaluation.scoring import (
    CORRECT,
    EXACT_RULE,
    HALLUCINATION,
    IDK_RULE,
    MISSING,
    Tally,
    score_predictions,
)
from evaluation.truncation import ApproximateTruncator
from models.prompts import PromptLibrary
from tests.doubles import ScriptedLLM


def gold(
    answer: str, alternatives: list[str] | None = None, query: str = "q?", **labels: str
) -> GoldQuestion:
    return GoldQuestion(f"id-{query}-{answer}", query, answer, alternatives or [], labels)


def test_official_rules_missing_exact_and_judged():
    golds = [gold("Canberra"), gold("yes"), gold("1,024"), gold("paris"), gold("42"), gold("1973-07-17")]
    predictions = ["Sorry, I don't know.", "  YES ", "1024", "Paris, France", "41", "probably July 17, 1973"]
    scored = score_predictions(golds, predictions, ApproximateTruncator(), RulesJudge())
    assert [s.outcome for s in scored] == [MISSING, CORRECT, CORRECT, CORRECT, HALLUCINATION, HALLUCINATION]
    assert [s.verdict_source for s in scored] == ["idk", "exact", RULES, RULES, RULES, UNSURE_COUNTED_WRONG]
    # every verdict names its rule; what the checker was unsure of names the rule that was unsure
    rules = [IDK_RULE, EXACT_RULE, "same words", "phrase", "one value", "one value"]
    assert [s.rule for s in scored] == rules
    tally = Tally()
    for item in scored:
        tally.add(item)
    summary = tally.as_dict()
    assert (summary["correct"], summary["exact_correct"], summary["missing"], summary["hallucination"]) == (
        3,
        1,
        1,
        2,
    )
    assert summary["score"] == (3 - 2) / 6
    assert summary["exact_accuracy"] == 1 / 6


def test_alternative_answers_count_as_exact_matches():
    scored = score_predictions(
        [gold("Robert Downey Jr.", ["RDJ", "robert downey junior"])],
        ["Robert Downey Junior"],
        ApproximateTruncator(),
        RulesJudge(),
    )
    assert (scored[0].outcome, scored[0].verdict_source) == (CORRECT, "exact")


def test_truncation_happens_before_the_idk_check():
    # The official order: cut to 75 tokens first, so an "I don't know" after the cut is not missing.
    long_prediction = "word " * 200 + "I don't know"
    scored = score_predictions([gold("x")], [long_prediction], ApproximateTruncator(), RulesJudge())
    assert scored[0].outcome == HALLUCINATION
    assert "know" not in scored[0].prediction


def test_invalid_question_accepts_only_invalid_question():
    judge = RulesJudge()
    answers = ("invalid question",)
    verdicts = judge.judge(
        [JudgeRequest("q", answers, "Invalid question."), JudgeRequest("q", answers, "the premise is false")]
    )
    assert [v.correct for v in verdicts] == [True, False]
    assert {v.source for v in verdicts} == {RULES}


def test_verdict_parsing():
    assert parse_verdict('{"accuracy": true}') is True
    assert parse_verdict('```json\n{"Accuracy": "True"}\n```') is True
    assert parse_verdict('{"accuracy": false, "why": "wrong year"}') is False
    assert parse_verdict("the prediction is correct") is None
    assert parse_verdict('{"accuracy": "maybe"}') is None


# Predictions the answer checker is unsure of: a hedge, a rounded price, a less specific date.
UNSURE_CASES = [
    (gold("paris", query="capital of france?"), "Paris, probably"),
    (gold("$35.78", query="close of vnom?"), "$35.8"),
    (gold("1973-07-17", query="born when?"), "1973"),
]


def test_the_checker_decides_first_and_the_llm_judge_gets_only_what_it_is_unsure_of(tmp_path):
    llm = ScriptedLLM(['{"accuracy": true}', "I think it is right", '{"accuracy": false}'])
    judge = CachedJudge(
        BackendJudge(llm, "scripted-model", PromptLibrary(), 32), VerdictCache(tmp_path / "v.jsonl")
    )
    sure = [(gold("1973-07-17"), "July 17, 1973"), (gold("7"), "8"), (gold("invalid question"), "1986")]
    golds, predictions = zip(*(UNSURE_CASES + sure))
    scored = score_predictions(list(golds), list(predictions), ApproximateTruncator(), judge)
    assert [s.outcome for s in scored] == [CORRECT] + [HALLUCINATION] * 2 + [CORRECT] + [HALLUCINATION] * 2
    identity = "local:scripted:scripted-model"
    assert [s.verdict_source for s in scored] == [identity] * 3 + [RULES] * 3
    assert all(s.rule and s.rule != LLM_JUDGE for s in scored)  # the LLM's name the checker's unsure rule
    assert len(llm.calls) == 1 and len(llm.calls[0][0]) == 3  # one batched call, only the unsure ones
    conversation = llm.calls[0][0][0]
    assert "capital of france?" in conversation[-1]["content"]
    assert "Paris, probably" in conversation[-1]["content"]
    assert llm.calls[0][1].json_schema is not None


def test_rules_judge_counts_what_the_checker_is_unsure_of_as_wrong():
    golds, predictions = zip(*UNSURE_CASES)
    scored = score_predictions(list(golds), list(predictions), ApproximateTruncator(), RulesJudge())
    assert {(s.outcome, s.verdict_source) for s in scored} == {(HALLUCINATION, UNSURE_COUNTED_WRONG)}


def test_verdict_cache_means_rescoring_never_asks_again(tmp_path):
    cache_path = tmp_path / "verdicts.jsonl"
    golds = [gold("paris", query="capital of france?"), gold("invalid question", query="why did x?")]
    predictions = ["Paris, probably", "because of y"]
    first_llm = ScriptedLLM(['{"accuracy": true}'])
    first = CachedJudge(BackendJudge(first_llm, "m", PromptLibrary(), 32), VerdictCache(cache_path))
    assert [s.outcome for s in score_predictions(golds, predictions, ApproximateTruncator(), first)] == [
        CORRECT,
        HALLUCINATION,
    ]
    assert len(first_llm.calls[0][0]) == 1  # the invalid-question rule needs no LLM

    second_llm = ScriptedLLM([])  # would fail if asked
    second = CachedJudge(BackendJudge(second_llm, "m", PromptLibrary(), 32), VerdictCache(cache_path))
    rescored = score_predictions(golds, predictions, ApproximateTruncator(), second)
    assert [s.outcome for s in rescored] == [CORRECT, HALLUCINATION]
    assert second_llm.calls == [] and second.cache_hits == 1

    other_model = ScriptedLLM(['{"accuracy": false}'])  # another judge model has its own verdicts
    third = CachedJudge(BackendJudge(other_model, "other", PromptLibrary(), 32), VerdictCache(cache_path))
    assert score_predictions(golds, predictions, ApproximateTruncator(), third)[0].outcome == HALLUCINATION


def test_judge_errors_are_wrong_but_not_cached(tmp_path):
    class FailingLLM(ScriptedLLM):
        def generate(self, conversations, params):
            completions = super().generate(conversations, params)
            for completion in completions:
                completion.error = "server went away"
            return completions

    cache = VerdictCache(tmp_path / "v.jsonl")
    judge = CachedJudge(BackendJudge(FailingLLM(['{"accuracy": true}']), "m", PromptLibrary(), 32), cache)
    scored = score_predictions([gold("$35.78")], ["$35.8"], ApproximateTruncator(), judge)
    assert scored[0].outcome == HALLUCINATION and scored[0].judge_error == "server went away"
    assert not (tmp_path / "v.jsonl").exists()
