"""tools.fit: one observing run with a scripted LLM, the options fitted by cross-validation, the fitted
file written and read back; a second run with nothing changed calls no LLM, and one after a change
of key gets every reply from the reply cache."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from models.answers import I_DONT_KNOW
from models.config import REPO_ROOT, load_config
from models.llm import with_reply_cache
from models.schema import Findings, Route
from tests.doubles import ScriptedLLM
from tests.test_crag_system import reply_by_output_shape
from tools import fit

SAMPLE = REPO_ROOT / "data" / "sample.jsonl"


class Counting:
    """The LLM factory of the run: one scripted model, counting the conversations it answers."""

    def __init__(self, cache: Path | None = None):
        self.llm = ScriptedLLM(reply_by_output_shape())
        self.cache = cache

    def __call__(self, config):
        if self.cache is None:
            return self.llm
        return with_reply_cache(self.llm, config)

    @property
    def conversations(self) -> int:
        return sum(len(conversations) for conversations, _ in self.llm.calls)


@pytest.fixture(autouse=True)
def no_kg(monkeypatch):
    monkeypatch.delenv("CRAG_MOCK_API_URL", raising=False)


def fit_argv(out: Path, tokenizer_dir: Path, *extra: str) -> list[str]:
    """A small fit of the bundled sample: 3 folds, 200 resamples, no tokenizer (the approximate cut)."""
    return [
        *("--preset", "cpu", "--data", str(SAMPLE), "--out", str(out)),
        *("--folds", "3", "--bootstrap", "200", "--tokenizer-dir", str(tokenizer_dir)),
        *extra,
    ]


def run(tmp_path: Path, llm: Counting, *extra: str) -> dict:
    out = tmp_path / "fit"
    cache = ["--reply-cache", str(llm.cache)] if llm.cache else ["--no-reply-cache"]
    assert fit.main(fit_argv(out, tmp_path / "no-tokenizer", *cache, *extra), llm=llm) == 0
    return json.loads((out / "report.json").read_text())


def test_the_fit_writes_a_fitted_file_and_a_report_and_a_second_run_calls_no_llm(tmp_path):
    first = Counting()
    result = run(tmp_path, first)
    assert first.conversations > 0 and result["run"]["answered"] == 8
    assert result["run"]["calls"]["model"] == first.conversations  # every conversation counted in the traces
    assert result["run"]["replay_matches"] == 8  # the preset's options replayed give the run's answers
    fitted = json.loads((tmp_path / "fit" / "fitted.json").read_text())
    assert fitted["format"] == "crag-policy-fit/1" and fitted["model"] == "scripted"
    assert fitted["data"]["questions"] == 8 and len(fitted["data"]["sha256"]) == 64
    assert set(fitted["values"]) | set(fitted["kept"]) == set(fit.FITTABLE)
    assert {"score_preset", "score_fitted", "gain_per_question", "by_dynamism", "by_question_type"} <= set(
        fitted["held_out"]
    )
    assert set(result["by_dynamism"]) and set(result["by_question_type"])
    names = {option["name"] for option in result["options"]}
    assert names == set(fit.FITTABLE)
    text = (tmp_path / "fit" / "report.md").read_text()
    assert "held out" in text and "By dynamism class" in text and "By question type" in text
    load_config("cpu", {"policy.fitted": str(tmp_path / "fit" / "fitted.json")})  # the system can read it

    again = Counting()
    second = run(tmp_path, again)
    assert again.conversations == 0 and second["run"]["answered"] == 0
    assert second["options"] == result["options"]


def test_a_run_of_a_new_key_gets_every_reply_from_the_reply_cache(tmp_path):
    cache = tmp_path / "replies.sqlite"
    first = Counting(cache)
    run(tmp_path, first)
    assert first.conversations > 0
    for stored in (tmp_path / "fit").glob("observations-*.jsonl"):
        stored.unlink()  # as after an edit of the code: the run's key changes, its requests do not
    again = Counting(cache)
    result = run(tmp_path, again)
    assert again.conversations == 0 and result["run"]["answered"] == 8
    assert result["run"]["calls"]["model"] == 0 and result["run"]["calls"]["reply_cache"] > 0


def canberra_llm(config):
    """A scripted backend each job builds for itself (it must pickle: a module-level function)."""
    return ScriptedLLM(reply_by_output_shape())


def test_two_jobs_observe_and_fit_like_one(tmp_path):
    reports = {}
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        argv = fit_argv(out, tmp_path / "none", "--no-reply-cache", "--jobs", jobs, "--set", "batch_size=2")
        assert fit.main(argv, llm=canberra_llm) == 0
        reports[jobs] = json.loads((out / "report.json").read_text())
    assert reports["2"]["run"]["answered"] == 8
    assert reports["2"]["options"] == reports["1"]["options"]
    assert reports["2"]["policies"] == reports["1"]["policies"]


def case(
    dynamism: str, reply: str, gold: str, classes: dict[str, float], domain: str = "movie", qid: str = ""
) -> fit.Case:
    from evaluation.data import GoldQuestion

    labels = {"static_or_dynamic": dynamism, "domain": domain, "question_type": "simple"}
    findings = Findings(query="who?", domain=domain, classes=classes, reply_state="answered", reply=reply)
    return fit.Case(
        GoldQuestion(qid or f"{dynamism}-{reply}-{len(classes)}", "who?", gold, [], labels), findings, reply
    )


STATIC = {"static": 1.0, "slow-changing": 0.0, "fast-changing": 0.0, "real-time": 0.0}
REAL_TIME = {"static": 0.05, "slow-changing": 0.0, "fast-changing": 0.0, "real-time": 0.95}


def fitter(prior: float = 2.0) -> fit.Fitter:
    from evaluation.truncation import ApproximateTruncator

    return fit.Fitter(fit.Replay(load_config("cpu"), ApproximateTruncator()), prior)


def test_worths_are_class_means_shrunk_toward_zero_and_domain_cells_toward_their_class():
    cases = [case("static", "ann", "ann", STATIC, qid=f"s{i}") for i in range(3)]
    cases += [case("real-time", "bob", "carl", REAL_TIME, qid=f"r{i}") for i in range(2)]
    worths = fitter().answer_worth(cases, load_config("cpu").policy)
    assert worths["static"] == pytest.approx(3 / 5) and worths["real-time"] == pytest.approx(-2 / 4)
    assert "slow-changing" not in worths  # no question: no worth (counts 0)
    assert worths["movie/static"] == pytest.approx((3 + 2 * 0.6) / 5)


def test_a_fitted_value_replaces_the_default_only_where_its_held_out_gain_is_clear_of_zero():
    # Real-time questions answered right, all of them: the preset refuses them (its worths). Enough of
    # them, the fitted worths answer them held out, a gain clear of zero; two alone are not enough.
    many = [case("real-time", "bob", "bob", REAL_TIME, qid=f"r{i}") for i in range(40)]
    results = {r.name: r for r in fit.fit_knobs(fitter(), many, folds=5, resamples=500)}
    worth = results["answer_worth"]
    assert worth.fitted["real-time"] > 0 and worth.held_out_gain[1] > 0 and worth.replaces
    assert not results["computed_answer_final"].replaces  # no KG: every value scores alike
    few = [case("real-time", "bob", "bob", REAL_TIME, qid=f"q{i}") for i in range(2)]
    results = {r.name: r for r in fit.fit_knobs(fitter(), few, folds=2, resamples=500)}
    assert not results["answer_worth"].replaces and "not clear of zero" in results["answer_worth"].why


def test_a_switch_is_chosen_by_score_ties_to_the_presets_value():
    computed = Findings(
        query="how much?",
        domain="finance",
        classes=STATIC,
        reply_state="answered",
        reply=I_DONT_KNOW,
        kg_evidence=True,
        kg_computed="42",
    )
    from evaluation.data import GoldQuestion

    right = [
        fit.Case(
            GoldQuestion(f"c{i}", "how much?", "42", [], {"static_or_dynamic": "static"}), computed, "42"
        )
        for i in range(3)
    ]
    chooser = fitter()
    base = load_config("cpu").policy
    assert chooser.switch("computed_answer_over_decline")(right, base) is True
    wrong = [
        fit.Case(
            GoldQuestion(f"w{i}", "how much?", "41", [], {"static_or_dynamic": "static"}), computed, "42"
        )
        for i in range(3)
    ]
    assert chooser.switch("computed_answer_over_decline")(wrong, base) is False
    assert chooser.switch("not_in_kg_refused")(right, base) is True  # no unmatched name: a tie, the preset's
    assert chooser.replay.answers(wrong, base)[0][1] is Route.COMPUTED_OVER_DECLINE


def test_folds_are_a_fixed_hash_of_the_ids():
    assert [fit.fold_of("abc", 5)] * 2 == [fit.fold_of("abc", 5), fit.fold_of("abc", 5)]
    assert len({fit.fold_of(f"id-{i}", 5) for i in range(50)}) == 5


def test_the_interval_clears_zero_only_on_enough_questions():
    assert fit.interval([1, 1], 1000)[1] < 0  # two answers gained: noise
    mean, low, high = fit.interval([1] * 40, 1000)
    assert mean == 1.0 and 0.5 < low < 1.0 < high  # the prior's pseudo-questions pull toward 0
    mean, low, high = fit.interval([1, -1] * 10, 1000)
    assert mean == 0.0 and low < 0 < high
    assert fit.interval([0] * 500, 1000)[1] < 0 < fit.interval([0] * 500, 1000)[2]


def test_help_answers_without_a_side_effect(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "tools.fit", "--help"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "--data" in result.stdout and "--kg-real" in result.stdout and "--jobs" in result.stdout
    assert "sys.path" not in (REPO_ROOT / "tools" / "fit.py").read_text()


def test_bad_data_stops_before_any_model_in_one_line(tmp_path, capfd):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"interaction_id": "a", "search_results": [], "query_time": "03/01/2024, 10:00:00 PT"}\n')
    llm = Counting()
    with pytest.raises(SystemExit) as stopped:
        fit.main(["--data", str(bad), "--out", str(tmp_path / "fit"), "--no-reply-cache"], llm=llm)
    assert stopped.value.code == 2
    message = capfd.readouterr().err
    assert "bad.jsonl:1" in message and "query" in message and "Traceback" not in message
    assert llm.conversations == 0


def test_the_split_keeps_only_its_questions(tmp_path):
    rows = [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()][:2]
    for split, row in enumerate(rows):
        row["split"] = split
    data = tmp_path / "two.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    args = fit.parse_args(["--data", str(data), "--split", "1"])
    assert [r.gold.interaction_id for r in fit.labelled_questions(args).records] == [
        rows[1]["interaction_id"]
    ]
