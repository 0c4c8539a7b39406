"""Fit the answer policy's model-dependent options to the model that answers, in one command.

    python -m tools.fit --preset cpu --data ../shared/data/crag_dev_10.jsonl.bz2 ... [--set ...] [--jobs N]
    python -m tools.fit --preset cpu --kg-real   # the real-wording KG set over kg_mock's real fixture

1. One run of the system on labelled CRAG questions, the preset's configuration with the answer
   policy observing (`policy.observe`: the refusals the fitted options decide close no question, the
   knowledge extractor answers every question, every answer of the wrong form is asked again) and
   the deadline left out (`--budget-s`). Each question's trace keeps what the policy decides on
   (models/schema.py:Findings). The run's lines are kept in `--out`/observations-<key>.jsonl (the
   key: the resolved configuration and the code under models/ and prompts/), so a rerun with nothing
   changed runs nothing, and a rerun after an edit asks the model only what the reply cache
   (`--reply-cache`, on by default as in the benchmarks) has not seen. Any backend: the embedded
   model, an OpenAI-compatible server (`--set llm.backend=openai --set llm.base_url=...`, `--jobs N`
   processes), vLLM (`--preset t4x4`). With `--kg-real` the questions are benchmarks/kg_real.py's
   (real CRAG validation questions, their gold answers and labels), answered with no web pages from
   the mock of the official KG API over kg_mock's real-wording fixture, which this command serves.
2. Every answer a policy could give each question is judged by the shared checker
   (evaluation/answer_match.check_answer, on the answer cut to 75 Llama-2 tokens): +1 correct, -1
   wrong, 0 missing or unsure. The policy's rules (models/policy.py) are replayed on the findings.
3. Each fitted option (models/config/fitted.py:FITTABLE) is fitted on its own, the others at the
   preset's values: worth tables as the mean value of their questions' answers per gold dynamism
   class (and "domain/class"), shrunk toward 0 (toward the class) by `--prior` pseudo-questions;
   switches and choices by the best score, ties to the preset's value. Cross-validation over
   `--folds` folds by a fixed hash of the interaction ids gives each option's held-out gain per
   question against the preset's value, with a 95 % interval (a Bayesian bootstrap with a prior of
   no gain: `interval`). An option's fitted value
   (fitted on every question) replaces the preset's only where that interval lies above zero;
   otherwise the preset's value stays and the report says so.

Written to --out: fitted.json (`--fitted PATH` names another file: the values that replace the
preset's, the model's identity as the reply cache keys on it, a hash of the data, the date and the
held-out figures), report.md and report.json (in-sample beside held out, by dynamism class and by
question type). A preset names the fitted file (`policy.fitted`), or `--set policy.fitted=PATH` does;
`python -m tools.validate --preset P` checks that it was fitted to the preset's model.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import sys
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any, Callable

import numpy as np
from loguru import logger

from benchmarks.llm_cache import add_reply_cache_options, reply_cache_override
from evaluation.answer_match import Verdict, check_answer
from evaluation.data import QUESTION_TYPES, SPLITS, CragRecord, DataError, GoldQuestion, read_records
from models.answer_check import CONSTRAINT_KINDS
from models.attributes.data import DOMAINS, DYNAMISM
from models.config import (
    REPO_ROOT,
    CragConfig,
    LLMConfig,
    PolicyConfig,
    WrongForm,
    load_config,
    parse_overrides,
)
from models.config.fitted import FITTABLE, FORMAT
from models.markdown import markdown_table
from models.schema import Findings, Route

SHARED = REPO_ROOT.parent / "shared"
VALUE = {Verdict.CORRECT: 1, Verdict.WRONG: -1, Verdict.MISSING: 0, Verdict.UNSURE: 0}
WRONG_FORM_CHOICES: tuple[WrongForm, ...] = ("retry", "refuse", "keep")
LATE_KINDS = ("computed", "from KG", "knowledge shown")
SWITCHES = (
    "not_in_kg_refused",
    "computed_answer_final",
    "computed_answer_over_decline",
    "contradicted_premise_invalid",
    "false_premise_overruled",
    "premise_overruled_only_by_computed",
)
UNLABELLED = "(none)"
NO_DEADLINE_S = 100_000.0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tools.fit",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--preset", default="cpu", help="the preset whose policy is fitted (default: cpu)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--data",
        nargs="+",
        action="extend",
        metavar="PATH",
        help="labelled CRAG questions, any shape local_evaluation.py reads (.jsonl[.bz2], Task 3's "
        "archive or its parts, a folder, a quoted glob; several in order)",
    )
    source.add_argument(
        "--kg-real",
        action="store_true",
        help="benchmarks/kg_real.py's questions over the mock KG on kg_mock's real fixture, no pages",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.OPTION=VALUE",
        help="config override (repeatable), e.g. llm.backend=openai",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes sharing the batches (default 1)")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="folder of the run and the report (default outputs/fit/<preset>)",
    )
    parser.add_argument(
        "--fitted", type=Path, default=None, help="the fitted file to write (default <out>/fitted.json)"
    )
    parser.add_argument(
        "--split",
        type=int,
        choices=sorted(SPLITS),
        default=None,
        help="keep only CRAG's validation (0) or public-test (1) questions of --data",
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions (of --split)")
    parser.add_argument(
        "--folds", type=int, default=5, help="cross-validation folds, by a hash of the ids (default 5)"
    )
    parser.add_argument(
        "--prior", type=float, default=2.0, help="pseudo-questions worth 0 that shrink a worth (default 2)"
    )
    parser.add_argument(
        "--bootstrap", type=int, default=2000, help="resamples of the held-out gain's interval"
    )
    parser.add_argument(
        "--budget-s",
        type=float,
        default=NO_DEADLINE_S,
        help="budget.seconds_per_question of the run (high: the deadline left out)",
    )
    parser.add_argument(
        "--tokenizer-dir",
        type=Path,
        default=SHARED / "tokenizer",
        help="the Llama-2 tokenizer for the leaderboard's 75-token cut",
    )
    add_reply_cache_options(parser)
    parser.add_argument("--log-level", default="WARNING")
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.folds < 2:
        parser.error("--jobs must be at least 1 and --folds at least 2")
    return args


# --- the labelled questions -------------------------------------------------------------------------


@dataclass
class Labelled:
    """The questions of the fit, and how to run them: the KG fixture to serve, if any."""

    records: list[CragRecord]
    sources: list[str]
    kg_fixture: Path | None = None


def labelled_questions(args: argparse.Namespace) -> Labelled:
    if args.kg_real:
        from benchmarks import kg_real
        from kg_mock.real_fixture import cached_real_fixture_dir

        if not kg_real.VALIDATION.is_file():
            raise SystemExit(
                f"{kg_real.VALIDATION} is absent: the real-wording KG set reads its questions from it"
            )
        fixture = cached_real_fixture_dir()
        records = []
        for case in kg_real.load(kg_real.in_process_api(fixture)):
            labels = {
                "domain": case.domain,
                "question_type": case.question_type,
                "static_or_dynamic": case.static_or_dynamic,
            }
            gold = GoldQuestion(case.key, case.query, case.gold, [], labels)
            records.append(
                CragRecord(
                    gold,
                    {
                        "interaction_id": case.key,
                        "query": case.query,
                        "search_results": [],
                        "query_time": case.query_time,
                    },
                )
            )
        return Labelled(records[: args.limit], ["benchmarks/kg_real.py (tune and held-out splits)"], fixture)
    try:  # every record checked before any model is built, as local_evaluation.py checks them
        records = list(read_records(args.data, args.limit, split=args.split, model_input=True))
    except DataError as error:
        logger.error(str(error))
        raise SystemExit(2) from None
    return Labelled(records, [str(path) for path in args.data])


def data_hash(records: list[CragRecord]) -> str:
    """sha256 of the questions fitted on: ids, queries, gold answers and labels, in id order."""
    rows = sorted([r.gold.interaction_id, r.gold.query, r.gold.answers, r.gold.labels] for r in records)
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()


# --- the observing run ------------------------------------------------------------------------------


def observing_config(args: argparse.Namespace, kg_fixture: Path | None) -> CragConfig:
    overrides = {
        **parse_overrides(args.set),
        **reply_cache_override(args),
        "policy.observe": "true",
        "budget.seconds_per_question": str(args.budget_s),
    }
    config = load_config(args.preset, overrides)
    if kg_fixture is not None:
        config.kg.company_dict_path = "/nonexistent"  # the fixture's companies are found through the API
    return config


LLMFactory = Callable[[LLMConfig], Any]


def observe(
    args: argparse.Namespace, config: CragConfig, labelled: Labelled, out: Path, make_llm: LLMFactory | None
) -> tuple[list[dict[str, Any]], set[str]]:
    """Every question's line of the observing run (stored ones reused), and the ids this run answered."""
    from benchmarks.end_to_end import setup_key
    from evaluation.runner import PredictionStore, run_questions, run_questions_in_jobs

    store = PredictionStore(out / f"observations-{setup_key(config)}.jsonl")
    before = set(store.lines)
    todo = [r for r in labelled.records if r.gold.interaction_id not in store]
    if todo:
        with ExitStack() as stack:
            if labelled.kg_fixture is not None:
                from kg_mock.server import running_server

                url = stack.enter_context(running_server(data_dir=labelled.kg_fixture, delay_s=0.0))
                before_url = os.environ.get(config.kg.api_url_env)
                os.environ[config.kg.api_url_env] = url  # the jobs' processes inherit it
                stack.callback(_restore_env, config.kg.api_url_env, before_url)
            if args.jobs > 1:
                setup = functools.partial(_start_job, config, args.jobs, args.log_level, make_llm)
                run_questions_in_jobs(
                    labelled.records,
                    store,
                    config.batch_size,
                    setup,
                    args.jobs,
                    len(labelled.records),
                    "observing",
                )
            else:
                system = _System(config, make_llm)
                try:
                    run_questions(
                        labelled.records,
                        store,
                        lambda: config.batch_size,
                        _answers(system),
                        len(labelled.records),
                        "observing",
                    )
                finally:
                    system.close()
    return [store.lines[r.gold.interaction_id] for r in labelled.records], set(store.lines) - before


def _restore_env(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


class _System:
    """The system of the run, built (and its model loaded) on its first batch."""

    def __init__(self, config: CragConfig, make_llm: LLMFactory | None):
        self.config, self.make_llm = config, make_llm
        self.system: Any = None

    def get(self) -> Any:
        if self.system is None:
            from models.crag_system import CragSystem

            llm = self.make_llm(self.config.llm) if self.make_llm is not None else None
            self.system = CragSystem(self.config, llm=llm)
            self.system.warm_up(measure=False)  # no deadline: no calibration, no call to the model
        return self.system

    def close(self) -> None:
        if self.system is not None:
            self.system.close()


def _answers(system: _System) -> Callable[[list[CragRecord]], list[dict[str, Any]]]:
    from evaluation.runner import answers_from_system

    return lambda records: answers_from_system(system.get())(records)


def _start_job(
    config: CragConfig, jobs: int, log_level: str, make_llm: LLMFactory | None, job: int
) -> Callable[[list[CragRecord]], list[dict[str, Any]]]:
    """One job of --jobs (evaluation/jobs.py): the system on its share of the cores (and its turn of
    the servers), its backend built by `make_llm` when given (which must then pickle)."""
    from evaluation.jobs import share_cores
    from evaluation.runner import answer_lines

    logger.remove()
    logger.add(sys.stderr, level=log_level.upper())
    share_cores(config, jobs, job)
    return functools.partial(answer_lines, answer_batch=_answers(_System(config, make_llm)))


def llm_calls(lines: list[dict[str, Any]]) -> dict[str, int]:
    """The LLM calls of these lines: those the model ran, those the reply cache answered."""
    calls = sum(int(usage.get("calls", 0)) for line in lines for usage in (line.get("tokens") or {}).values())
    cached = sum(
        int(usage.get("cached", 0)) for line in lines for usage in (line.get("tokens") or {}).values()
    )
    return {"model": calls - cached, "reply_cache": cached}


def model_identity(config: LLMConfig, make_llm: LLMFactory | None) -> str:
    """The identity of the model that answered, as the reply cache keys on it (no model is loaded)."""
    from models.llm import create_backend

    backend = (make_llm or create_backend)(replace(config, reply_cache=None))
    try:
        return str(backend.model_identity())
    finally:
        if make_llm is None:
            backend.close()


# --- replaying the policy ---------------------------------------------------------------------------


@dataclass
class Case:
    gold: GoldQuestion
    findings: Findings
    observed: str  # the run's own answer

    @property
    def dynamism(self) -> str:
        return self.gold.labels.get("static_or_dynamic", UNLABELLED)

    @property
    def domain(self) -> str:
        return self.gold.labels.get("domain", UNLABELLED)

    @property
    def question_type(self) -> str:
        return self.gold.labels.get("question_type", UNLABELLED)


@dataclass
class Replay:
    """The policy's rules (models/policy.py) over the cases' findings, each answer judged once."""

    config: CragConfig
    truncator: Any
    verdicts: dict[tuple[str, str], Verdict] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from models.policy import AnswerPolicy

        self.default = replace(self.config.policy, observe=False, fitted=None)
        self.form_check = AnswerPolicy.from_config(self.config).form_check

    def policy(self, options: PolicyConfig) -> Any:
        from models.policy import AnswerPolicy

        return AnswerPolicy(options, self.config.kg.enabled, self.form_check)

    def value(self, case: Case, answer: str) -> int:
        key = (case.gold.interaction_id, answer)
        if key not in self.verdicts:
            gold = case.gold
            cut = self.truncator.truncate(answer)
            self.verdicts[key] = check_answer(cut, gold.answer, gold.alternative_answers, question=gold.query)
        return VALUE[self.verdicts[key]]

    def answers(self, cases: list[Case], options: PolicyConfig) -> list[tuple[str, Route, int]]:
        policy = self.policy(options)
        decided = [policy.decide(case.findings)[0] for case in cases]
        return [(d.answer, d.route, self.value(case, d.answer)) for case, d in zip(cases, decided)]

    def values(self, cases: list[Case], options: PolicyConfig) -> list[int]:
        return [value for _, _, value in self.answers(cases, options)]


# --- the options' fits ------------------------------------------------------------------------------


def shrunk_worths(
    groups: dict[str, list[int]], prior: float, toward: dict[str, float] | None = None
) -> dict[str, float]:
    """Per group, the mean value shrunk toward `toward` (0 when absent) by `prior` pseudo-questions."""
    toward = toward or {}
    return {
        key: round((sum(values) + prior * toward.get(key.split("/")[-1], 0.0)) / (len(values) + prior), 3)
        for key, values in groups.items()
        if values
    }


def choose(totals: list[int] | list[float], preferred: list[bool]) -> int:
    """The index of the best total; a tie goes to a preferred candidate (the shipped value)."""
    return max(range(len(totals)), key=lambda i: (totals[i], preferred[i]))


@dataclass(frozen=True)
class Knob:
    """One fitted option: its value fitted on some cases, the other options as `base` sets them."""

    name: str
    fit: Callable[[list[Case], PolicyConfig], Any]


class Fitter:
    def __init__(self, replay: Replay, prior: float):
        self.replay, self.prior = replay, prior

    def score(self, cases: list[Case], options: PolicyConfig) -> int:
        return sum(self.replay.values(cases, options))

    def best(self, cases: list[Case], base: PolicyConfig, name: str, candidates: list[Any]) -> Any:
        """The candidate value of option `name` of the best score on `cases`; ties to base's value."""
        current = getattr(base, name)
        totals = [self.score(cases, replace(base, **{name: value})) for value in candidates]
        return candidates[choose(totals, [value == current for value in candidates])]

    def answer_worth(self, cases: list[Case], base: PolicyConfig) -> dict[str, float]:
        """Per gold class (and "domain/class", shrunk toward its class), the worth of the answers the
        policy gives when no question is refused for dynamism."""
        opened = replace(base, answer_worth={label: 1.0 for label in DYNAMISM})
        values = self.replay.values(cases, opened)
        by_class: dict[str, list[int]] = {label: [] for label in DYNAMISM}
        by_domain: dict[str, list[int]] = {}
        for case, value in zip(cases, values):
            if case.dynamism in by_class:
                by_class[case.dynamism].append(value)
                by_domain.setdefault(f"{case.domain}/{case.dynamism}", []).append(value)
        classes = shrunk_worths(by_class, self.prior)
        return classes | shrunk_worths(by_domain, self.prior, classes)

    def kg_answers_dynamic(self, cases: list[Case], base: PolicyConfig) -> tuple[str, ...]:
        chosen = set(base.kg_answers_dynamic)
        for domain in DOMAINS:
            candidates = [
                tuple(d for d in DOMAINS if d in chosen | {domain}),
                tuple(d for d in DOMAINS if d in chosen - {domain}),
            ]
            current = replace(base, kg_answers_dynamic=tuple(d for d in DOMAINS if d in chosen))
            if self.best(cases, current, "kg_answers_dynamic", candidates) == candidates[0]:
                chosen.add(domain)
            else:
                chosen.discard(domain)
        return tuple(d for d in DOMAINS if d in chosen)

    def switch(self, name: str) -> Callable[[list[Case], PolicyConfig], bool]:
        return lambda cases, base: self.best(
            cases, base, name, [getattr(base, name), not getattr(base, name)]
        )

    def wrong_form(self, cases: list[Case], base: PolicyConfig) -> dict[str, WrongForm]:
        """Per constraint kind, retry, refuse or keep: the best score, ties to the preset's choice."""
        chosen: dict[str, WrongForm] = dict(base.wrong_form)
        for kind in CONSTRAINT_KINDS:
            current = base.wrong_form.get(kind, "retry")
            totals = [
                self.score(cases, replace(base, wrong_form=chosen | {kind: choice}))
                for choice in WRONG_FORM_CHOICES
            ]
            chosen[kind] = WRONG_FORM_CHOICES[
                choose(totals, [choice == current for choice in WRONG_FORM_CHOICES])
            ]
        return {
            kind: choice for kind, choice in chosen.items() if choice != "retry" or kind in base.wrong_form
        }

    def knowledge_worth(self, cases: list[Case], base: PolicyConfig) -> dict[str, float]:
        """Per gold class, the worth of the extractor's own answers where the reasoning declined."""
        policy = self.replay.policy(base)
        groups: dict[str, list[int]] = {label: [] for label in DYNAMISM}
        for case in cases:
            own = case.findings.knowledge_answer
            proposed = policy.proposal(case.findings)
            declined = proposed.answer == "I don't know" and proposed.route in (Route.ANSWERED, Route.FROM_KG)
            given = own is not None and own not in ("I don't know", "invalid question")
            if given and declined and case.findings.reply_state == "answered" and case.dynamism in groups:
                assert own is not None
                groups[case.dynamism].append(self.replay.value(case, own))
        return shrunk_worths(groups, self.prior)

    def late_worth(self, cases: list[Case], base: PolicyConfig) -> dict[str, float]:
        """Per kind of answer, the worth of the answers of that kind the policy gives."""
        policy = self.replay.policy(base)
        groups: dict[str, list[int]] = {kind: [] for kind in LATE_KINDS}
        for case, (answer, route, value) in zip(cases, self.replay.answers(cases, base)):
            proposed = policy.proposal(case.findings)
            if answer in ("I don't know", "invalid question") or (answer, route) != (
                proposed.answer,
                proposed.route,
            ):
                continue  # a refusal, or an answer another rule gave
            for kind in policy.late_kinds(case.findings, proposed):
                groups[kind].append(value)
        return shrunk_worths(groups, self.prior)


def knobs(fitter: Fitter) -> list[Knob]:
    named: dict[str, Callable[[list[Case], PolicyConfig], Any]] = {
        "answer_worth": fitter.answer_worth,
        "kg_answers_dynamic": fitter.kg_answers_dynamic,
        "knowledge_worth": fitter.knowledge_worth,
        **{name: fitter.switch(name) for name in SWITCHES},
        "wrong_form": fitter.wrong_form,
        "late_worth": fitter.late_worth,
    }
    assert set(named) == set(FITTABLE), "every fittable option has its fit"
    return [Knob(name, fit) for name, fit in named.items()]


def fold_of(interaction_id: str, folds: int) -> int:
    """The fixed fold of a question: a hash of its id."""
    return int(hashlib.sha256(interaction_id.encode()).hexdigest()[:8], 16) % folds


def held_out(fitter: Fitter, cases: list[Case], chosen: list[Knob], folds: int) -> list[int]:
    """Each question's value under the options of `chosen` fitted on the other folds (each on its
    own, the others at the preset's values), the rest at the preset's."""
    values = [0] * len(cases)
    base = fitter.replay.default
    for fold in range(folds):
        inside = [i for i, case in enumerate(cases) if fold_of(case.gold.interaction_id, folds) == fold]
        training = [case for i, case in enumerate(cases) if i not in set(inside)]
        if not inside:
            continue
        fitted = {knob.name: knob.fit(training, base) for knob in chosen} if training else {}
        for i, value in zip(
            inside, fitter.replay.values([cases[i] for i in inside], replace(base, **fitted))
        ):
            values[i] = value
    return values


GAINS = (-2, -1, 0, 1, 2)  # a question's gain: the difference of two values in {-1, 0, 1}


def interval(gains: list[int], resamples: int) -> tuple[float, float, float]:
    """The mean gain per question and a 95 % interval of it: a Bayesian bootstrap (Dirichlet
    weights, fixed seed) over the questions' gains and one pseudo-question at each possible gain, a
    prior of mean 0 that a handful of questions cannot overcome (two gains alone are noise)."""
    if not gains:
        return 0.0, 0.0, 0.0
    counts = np.array([gains.count(gain) for gain in GAINS], dtype=float)
    rng = np.random.default_rng(0)
    means = rng.dirichlet(counts + 1.0, resamples) @ np.array(GAINS, dtype=float)
    return float(np.mean(gains)), float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


@dataclass
class KnobResult:
    name: str
    default: Any
    fitted: Any
    in_sample_gain: float
    held_out_gain: tuple[float, float, float]

    @property
    def replaces(self) -> bool:
        return self.held_out_gain[1] > 0 and _json(self.fitted) != _json(self.default)

    @property
    def why(self) -> str:
        if _json(self.fitted) == _json(self.default):
            return "the fit on every question gives the preset's value"
        low, high = self.held_out_gain[1:]
        if self.replaces:
            return f"held-out gain clear of zero ([{low:+.3f}, {high:+.3f}] per question)"
        return (
            f"held-out gain not clear of zero ([{low:+.3f}, {high:+.3f}] per question): "
            "the preset's value stays"
        )


def fit_knobs(fitter: Fitter, cases: list[Case], folds: int, resamples: int) -> list[KnobResult]:
    base = fitter.replay.default
    default_values = fitter.replay.values(cases, base)
    results = []
    for knob in knobs(fitter):
        fitted = knob.fit(cases, base)
        in_sample = fitter.replay.values(cases, replace(base, **{knob.name: fitted}))
        out = held_out(fitter, cases, [knob], folds)
        results.append(
            KnobResult(
                knob.name,
                getattr(base, knob.name),
                fitted,
                float(np.mean(np.array(in_sample) - np.array(default_values))) if cases else 0.0,
                interval([o - d for o, d in zip(out, default_values)], resamples),
            )
        )
    return results


# --- the report -------------------------------------------------------------------------------------


def tally(values: list[int]) -> dict[str, Any]:
    n = len(values)
    correct, wrong = values.count(1), values.count(-1)
    return {
        "n": n,
        "correct": correct,
        "wrong": wrong,
        "missing": n - correct - wrong,
        "score": round((correct - wrong) / n, 3) if n else 0.0,
    }


def breakdown(
    cases: list[Case], policies: dict[str, list[int]], label: str, order: tuple[str, ...]
) -> dict[str, Any]:
    """Per value of the gold `label`: each policy's tally."""
    groups = sorted(
        {getattr(case, label) for case in cases},
        key=lambda g: (order.index(g) if g in order else len(order), g),
    )
    return {
        group: {
            name: tally([v for case, v in zip(cases, values) if getattr(case, label) == group])
            for name, values in policies.items()
        }
        for group in groups
    }


def report(
    cases: list[Case],
    results: list[KnobResult],
    policies: dict[str, list[int]],
    routes: dict[str, Counter],
    run: dict[str, Any],
    args: argparse.Namespace,
    gain: tuple[float, float, float],
) -> tuple[str, dict[str, Any]]:
    names = list(policies)
    parts = [
        f"# The answer policy fitted on {len(cases)} questions (preset `{run['preset']}`)",
        f"Data: {', '.join(run['sources'])}; model: {run['model']}. This run answered {run['answered']} "
        f"questions with {run['calls']['model']} LLM calls to the model and {run['calls']['reply_cache']} "
        f"from the reply cache (the other {len(cases) - run['answered']} were stored by an earlier run of "
        f"the same key). The default policy replayed gives the run's own answer on {run['replay_matches']} "
        f"of {len(cases)} questions. Left out, their batch failed: {len(run['failed'])}.",
        f"Held out: {args.folds} folds by a hash of the interaction ids; gains per question against the "
        f"preset's value, with a 95 % interval (Bayesian bootstrap, {args.bootstrap} resamples, one "
        "pseudo-question at each gain from -2 to +2); a fitted value replaces the preset's only where the "
        "interval lies above zero.",
        markdown_table(
            [
                "option",
                "preset's value",
                "fitted on every question",
                "in-sample gain/q",
                "held-out gain/q [95 %]",
                "ships",
            ],
            [
                [
                    r.name,
                    _short(r.default),
                    _short(r.fitted),
                    f"{r.in_sample_gain:+.3f}",
                    f"{r.held_out_gain[0]:+.3f} [{r.held_out_gain[1]:+.3f}, {r.held_out_gain[2]:+.3f}]",
                    "fitted" if r.replaces else "preset's",
                ]
                for r in results
            ],
        ),
        "Why each option ships as it does: " + "; ".join(f"`{r.name}`: {r.why}" for r in results) + ".",
        f"The shipped combination held out against the preset's: {gain[0]:+.3f} per question "
        f"[{gain[1]:+.3f}, {gain[2]:+.3f}].",
        markdown_table(
            ["policy", "n", "correct", "wrong", "missing", "score"],
            [[name, *tally(values).values()] for name, values in policies.items()],
        ),
    ]
    result: dict[str, Any] = {
        "run": run,
        "folds": args.folds,
        "prior": args.prior,
        "options": [
            {
                "name": r.name,
                "default": r.default,
                "fitted": r.fitted,
                "in_sample_gain": r.in_sample_gain,
                "held_out_gain": r.held_out_gain,
                "replaces": r.replaces,
                "why": r.why,
            }
            for r in results
        ],
        "shipped_gain": gain,
        "policies": {name: tally(values) for name, values in policies.items()},
    }
    for label, title, order in (
        ("dynamism", "dynamism class", DYNAMISM),
        ("question_type", "question type", QUESTION_TYPES),
    ):
        table = breakdown(cases, policies, label, order)
        result[f"by_{label}"] = table
        rows = [
            [
                group,
                row[names[0]]["n"],
                *(
                    f"{row[name]['correct']}/{row[name]['wrong']}/{row[name]['missing']} "
                    f"{row[name]['score']:+.3f}"
                    for name in names
                ),
            ]
            for group, row in table.items()
        ]
        parts.append(
            f"By {title} (correct/wrong/missing score):\n\n" + markdown_table([title, "n", *names], rows)
        )
    parts.append(
        "Answers by route: "
        + "; ".join(
            f"{name}: " + ", ".join(f"{route} {count}" for route, count in counts.most_common())
            for name, counts in routes.items()
        )
        + "."
    )
    result["routes"] = {name: dict(counts) for name, counts in routes.items()}
    return "\n\n".join(parts) + "\n", result


def _json(value: Any) -> str:
    return json.dumps(list(value) if isinstance(value, tuple) else value, sort_keys=True)


def _short(value: Any) -> str:
    text = _json(value)
    return text if len(text) <= 90 else text[:87] + "..."


# --- the command ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None, *, llm: LLMFactory | None = None) -> int:
    """Run, fit and write (see the module docstring); `llm` builds the backend in place of
    `create_backend` (tests script it; with --jobs above 1 it must pickle: a module-level function)."""
    args = parse_args(argv)
    logger.remove()
    logger.add(sys.stderr, level=args.log_level.upper())
    out = args.out or REPO_ROOT / "outputs" / "fit" / args.preset
    labelled = labelled_questions(args)
    if not labelled.records:
        raise SystemExit("no labelled questions to fit on")
    try:
        config = observing_config(args, labelled.kg_fixture)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    started = time.perf_counter()
    lines, answered = observe(args, config, labelled, out, llm)
    this_run = [line for line in lines if line["interaction_id"] in answered]
    failed = [line["interaction_id"] for line in lines if not line.get("findings")]
    if failed:  # a batch that failed has no trace: its questions are left out of the fit, and said so
        logger.warning(
            f"{len(failed)} questions have no findings (their batch failed): {', '.join(failed[:5])}"
        )
    from evaluation.truncation import load_truncator

    replay = Replay(config, load_truncator(args.tokenizer_dir))
    cases = [
        Case(record.gold, Findings.from_dict(line["findings"]), line["prediction"])
        for record, line in zip(labelled.records, lines)
        if line.get("findings")
    ]
    if not cases:
        raise SystemExit("no question has findings to fit on: every batch failed (see the log)")
    fitter = Fitter(replay, args.prior)
    results = fit_knobs(fitter, cases, args.folds, args.bootstrap)
    shipped = [knob for knob in knobs(fitter) if any(r.name == knob.name and r.replaces for r in results)]
    values = {r.name: r.fitted for r in results if r.replaces}
    default_values = replay.values(cases, replay.default)
    fitted_options = replace(replay.default, **values)
    opened = replace(replay.default, answer_worth={label: 1.0 for label in DYNAMISM})
    held = held_out(fitter, cases, shipped, args.folds) if shipped else default_values
    policies = {
        "preset's options (in-sample)": default_values,
        "no refusal for dynamism": replay.values(cases, opened),
        "shipped fit, in-sample": replay.values(cases, fitted_options),
        "shipped fit, held out": held,
    }
    routes = {
        name: Counter(str(route) for _, route, _ in replay.answers(cases, options))
        for name, options in (("preset's options", replay.default), ("shipped fit", fitted_options))
    }
    gain = interval([h - d for h, d in zip(held, default_values)], args.bootstrap)
    identity = model_identity(config.llm, llm)
    run = {
        "preset": args.preset,
        "sources": labelled.sources,
        "model": identity,
        "answered": len(answered),
        "calls": llm_calls(this_run),
        "seconds": round(time.perf_counter() - started, 1),
        "failed": failed,
        "replay_matches": sum(
            a == case.observed for (a, _, _), case in zip(replay.answers(cases, replay.default), cases)
        ),
    }
    text, result = report(cases, results, policies, routes, run, args, gain)
    from evaluation.runner import write_atomically

    fitted_path = args.fitted or out / "fitted.json"
    fitted = {
        "format": FORMAT,
        "model": identity,
        "backend": config.llm.backend,
        "preset": args.preset,
        "values": {
            name: list(value) if isinstance(value, tuple) else value for name, value in values.items()
        },
        "kept": {r.name: r.why for r in results if not r.replaces},
        "data": {
            "sources": labelled.sources,
            "questions": len(cases),
            "left_out": run["failed"],
            "sha256": data_hash([r for r in labelled.records if r.gold.interaction_id not in set(failed)]),
        },
        "date": date.today().isoformat(),
        "held_out": {
            "folds": args.folds,
            "score_preset": tally(default_values)["score"],
            "score_fitted": tally(held)["score"],
            "gain_per_question": gain,
            "by_dynamism": result["by_dynamism"],
            "by_question_type": result["by_question_type"],
            "options": {r.name: r.held_out_gain for r in results},
        },
    }
    write_atomically(fitted_path, json.dumps(fitted, indent=2, ensure_ascii=False) + "\n")
    write_atomically(out / "report.md", text)
    write_atomically(out / "report.json", json.dumps(result, indent=2, default=str))
    print(text)
    print(
        f"Written: {fitted_path} (name it with --set policy.fitted={fitted_path}), {out / 'report.md'}, "
        f"{out / 'report.json'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
