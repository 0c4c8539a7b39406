"""End-to-end benchmark: every real CRAG question with pages we have, three setups in one run.

    python -m benchmarks.end_to_end [--out outputs/end_to_end] [--set llm.threads=1] [--limit N]
        [--questions ID,ID,...] [--compare REF] [--jobs N] [--reply-cache PATH | --no-reply-cache]
    python -m benchmarks.end_to_end --answers FILE --compare REF [--questions ID,...] [--data FILE...]

Questions: ../shared/data/crag_dev_10, crag_dev_pages_15 and crag_dev_pages_24 (49 with real pages),
or --data FILE...; --questions keeps those whose interaction id starts with one of the given ids
(whole ids or prefixes; one that matches nothing is an error), --limit the first N of them.
Setups, all on the same embedded LLM (loaded once, shared):

    baseline   preset `baseline` (the official RAG baseline's retrieval and one answer prompt)
    cpu-all    preset `cpu` with every stage for every question (plan.enabled=false)
    cpu-plan   preset `cpu` with the plan (models/plan.py)

Fairness on a shared machine: the setups take turns batch by batch (the first of them rotating from
one batch to the next), so that a change of load hits all three alike. The batch deadline is taken
out of the comparison (`budget.seconds_per_question` raised to --budget-s): on a busy 2-core machine
it would skip stages as the load varies, not as the setup does; any deadline note left is counted.

Written to --out and printed (report.md; report.json; the answers in answers/):
  - per setup: correct / missing / wrong / unsure / score, by the shared answer checker
    (evaluation/answer_match.check_answer) on the prediction cut to 75 Llama-2 tokens as the
    leaderboard cuts it; score = (correct - wrong) / n, unsure on neither side (listed, for a
    judge model or a careful reading); LLM tokens per question (prompt + completion of every stage,
    a question refused before any LLM stage counts 0); p50 / p95 seconds per question (each
    question's share of its batch's wall time), and the same in CPU seconds of this process (the
    embedded model computes in it: a measure of the work that the other users of a shared machine
    disturb far less than the wall time); the questions each optional stage ran for; the same
    tally by the gold dynamism class (`static_or_dynamic`) and by question type (`question_type`)
  - per setup, where the seconds go (evaluation/reports.stage_seconds): per stage and question, its
    seconds, and for its LLM calls the prompt tokens evaluated and those reused from a cached prefix
    with the seconds to the first token, and the decoded tokens with their seconds
  - cpu-plan against cpu-all: the change of tokens and p50 seconds per question against the
    targets (-35 %, -30 %; the CPU seconds beside), of the score and of the wrong answers
  - the 4x T4 estimate of both cpu setups (evaluation/time_model.py, t4x4 preset) from their tokens
  - per question: the gold answer, the three predictions with their verdicts and the plan's signals

Processes (--jobs N, default one per core): the batches are spread over N processes that share the
cores and the reply cache (evaluation/jobs.py); this process stores each batch's answers as it ends.
A batch whose process died is run again once, else stored as failed with the reason.

The reply cache (models/llm/reply_cache.py; --reply-cache PATH, default $CRAG_CACHE_DIR/replies.sqlite;
--no-reply-cache): a request the model answered before, in any run, is answered from it. The report
counts its hits and misses by stage, and takes the seconds per question only from the batches that
took no cached reply, saying how many questions and LLM calls they rest on.

Resuming: each setup's answers go to answers/<setup>-<key>.jsonl, a batch at a time. The key is a
hash of the setup's resolved configuration (every option, overrides included, the reply cache's
file aside) and of the content
of every tracked file under models/ and prompts/ but the Markdown notes (uncommitted edits included).
A setup with the plan off leaves out models/plan.py and the plan's options other than `enabled`:
the plan off is every stage for every question, whatever the rule (tests/test_plan.py holds it to
that), so a change of the rule reruns cpu-plan alone. A rerun reuses the batches already in the file
of the same key; a change of configuration or code gives the setup a new file and computes it afresh
(older files are kept, never mixed in), its requests the same as before answered from the reply
cache. The verdicts are always recomputed, so a change of the checker needs no rerun.

Comparing (--compare REF): REF is an answers file of an earlier run, or a folder of them (an earlier
run's answers/, this run's own included), where each setup takes the newest `<setup>-*.jsonl` other
than its own file of this run; so `--compare outputs/end_to_end/answers` compares each setup with its
run before the last change of configuration or code. For the questions of this run, both sides'
verdicts are computed by the same checker and listed where they differ (id, question, dynamism
class, question type, old → new prediction and verdict), with a count of each change of verdict,
the score of both sides on the questions they share, and the questions one side lacks. In report.md
and report.json (`compare`), after the run. With --answers FILE (a finished run's answers file) no
setup runs and no LLM is loaded: FILE is compared with REF (a folder: its newest file of the setup
FILE's name starts with), printed and written to compare.md and compare.json under --out.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import subprocess
import sys
import textwrap
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np
from loguru import logger
from tqdm import tqdm

from benchmarks.llm_cache import add_reply_cache_options, reply_cache_override
from evaluation.answer_match import Verdict, check_answer
from evaluation.data import QUESTION_TYPES, CragRecord, read_records
from evaluation.jobs import TaskFailed, default_jobs, run_jobs, share_cores
from evaluation.reports import (
    BREAKDOWNS,
    UNLABELLED,
    describe_reply_cache,
    markdown_stage_seconds,
    reply_cache_counts,
    route_counts,
    stage_seconds,
    timing_basis,
    uncached_lines,
)
from evaluation.runner import answers_from_system, write_atomically
from evaluation.time_model import estimate_budget
from evaluation.truncation import load_truncator
from models.attributes.data import DYNAMISM
from models.config import CragConfig, LLMConfig, load_config, parse_overrides, to_dict
from models.crag_system import CragSystem
from models.llm import LLMBackend, create_backend
from models.markdown import markdown_table

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
DATA = [
    SHARED / "data" / f"{name}.jsonl.bz2"
    for name in ("crag_dev_10", "crag_dev_pages_15", "crag_dev_pages_24")
]
SETUPS: dict[str, tuple[str, dict[str, str]]] = {
    "baseline": ("baseline", {"plan.enabled": "false"}),  # no optional stage to plan
    "cpu-all": ("cpu", {"plan.enabled": "false"}),
    "cpu-plan": ("cpu", {"plan.enabled": "true"}),
}
TARGETS = {"tokens": -0.35, "p50": -0.30}  # cpu-plan against cpu-all
MARKS = {
    Verdict.CORRECT: "correct",
    Verdict.WRONG: "WRONG",
    Verdict.MISSING: "missing",
    Verdict.UNSURE: "UNSURE",
}
TALLY_HEADERS = ["n", "correct", "missing", "wrong", "unsure", "score"]
# the breakdown tables: gold label -> (title, its values in reading order; others follow, sorted)
TABLES = {
    "static_or_dynamic": ("dynamism class", DYNAMISM),
    "question_type": ("question type", QUESTION_TYPES),
}


@dataclass
class Setup:
    name: str
    config: CragConfig
    key: str
    path: Path
    lines: dict[str, dict[str, Any]]  # interaction_id -> stored answer


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", type=Path, default=DATA, help="CRAG question files with pages")
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "outputs" / "end_to_end")
    parser.add_argument("--setups", default=",".join(SETUPS), help=f"comma-separated, of {', '.join(SETUPS)}")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.OPTION=VALUE",
        help="config override for every setup (repeatable), e.g. llm.threads=1",
    )
    parser.add_argument(
        "--budget-s",
        type=float,
        default=100_000.0,
        help="budget.seconds_per_question of every setup (high: the deadline left out)",
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions")
    parser.add_argument(
        "--questions",
        type=lambda text: [part.strip() for part in text.split(",") if part.strip()],
        default=[],
        metavar="ID,ID,...",
        help="only the questions of these interaction ids or prefixes",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        metavar="REF",
        help="an earlier run's answers file, or a folder of them: list the changed verdicts",
    )
    parser.add_argument(
        "--answers",
        type=Path,
        metavar="FILE",
        help="with --compare: compare this finished run's answers file, running nothing",
    )
    parser.add_argument(
        "--tokenizer-dir",
        type=Path,
        default=SHARED / "tokenizer",
        help="the Llama-2 tokenizer for the leaderboard's 75-token cut",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="processes sharing the batches and the cores (default: one per core)",
    )
    add_reply_cache_options(parser)
    parser.add_argument("--log-level", default="WARNING")
    args = parser.parse_args(argv)
    if args.jobs is not None and args.jobs < 1:
        parser.error("--jobs must be at least 1")
    return args


PLAN_RULE = "models/plan.py"


def code_fingerprint(leave_out: tuple[str, ...] = ()) -> str:
    """sha256 of every tracked file under models/ and prompts/ as it is in the working tree, the
    Markdown notes and the files of `leave_out` aside."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "models", "prompts"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        files = sorted(REPO_ROOT / name for name in listed)
    except (OSError, subprocess.CalledProcessError):
        files = sorted(
            p for folder in ("models", "prompts") for p in (REPO_ROOT / folder).rglob("*") if p.is_file()
        )
    digest = hashlib.sha256()
    for path in files:
        name = str(path.relative_to(REPO_ROOT))
        if path.is_file() and path.suffix != ".md" and name not in leave_out:
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


# Options that change how a run goes, not what it answers: left out of the key.
RUN_ONLY = ("reply_cache",)


def setup_key(config: CragConfig) -> str:
    settings = to_dict(config)
    settings["llm"] = {name: value for name, value in settings["llm"].items() if name not in RUN_ONLY}
    leave_out: tuple[str, ...] = ()
    if not config.plan.enabled:
        settings["plan"], leave_out = {"enabled": False}, (PLAN_RULE,)
    text = json.dumps({"config": settings, "code": code_fingerprint(leave_out)}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def load_setups(names: list[str], overrides: dict[str, str], budget_s: float, out: Path) -> list[Setup]:
    setups = []
    for name in names:
        preset, own = SETUPS[name]
        config = load_config(preset, {**overrides, "budget.seconds_per_question": str(budget_s), **own})
        key = setup_key(config)
        path = out / "answers" / f"{name}-{key}.jsonl"
        setups.append(Setup(name, config, key, path, read_answers(path) if path.is_file() else {}))
    return setups


def read_answers(path: Path) -> dict[str, dict[str, Any]]:
    lines = {}
    for text in path.read_text(encoding="utf-8").splitlines():
        try:
            line = json.loads(text)
        except json.JSONDecodeError:
            continue  # a line cut short by a hard kill; its batch is computed again
        if isinstance(line, dict) and "interaction_id" in line:
            lines[line["interaction_id"]] = line
    return lines


def select(records: list[CragRecord], wanted: list[str]) -> list[CragRecord]:
    """The records whose interaction id starts with one of `wanted` (all when it is empty)."""
    if not wanted:
        return records
    unmatched = [
        start for start in wanted if not any(r.gold.interaction_id.startswith(start) for r in records)
    ]
    if unmatched:
        raise SystemExit(f"--questions: no question's interaction id starts with {', '.join(unmatched)}")
    return [r for r in records if r.gold.interaction_id.startswith(tuple(wanted))]


def setup_of(path: Path) -> str:
    """The setup an answers file `<setup>-<key>.jsonl` belongs to."""
    return path.stem.rsplit("-", 1)[0]


def reference_file(ref: Path, setup: str, own: Path) -> Path:
    """REF itself when it is a file; in a folder, the newest answers file of `setup` but `own`."""
    if ref.is_file():
        return ref
    if not ref.is_dir():
        raise SystemExit(f"--compare {ref}: no such file or folder")
    candidates = [path for path in ref.glob(f"{setup}-*.jsonl") if path.resolve() != own.resolve()]
    if not candidates:
        raise SystemExit(f"--compare {ref}: no answers file {setup}-<key>.jsonl in it (besides {own.name})")
    return max(candidates, key=lambda path: path.stat().st_mtime)


def batches(records: list[CragRecord], size: int) -> list[list[CragRecord]]:
    return [records[start : start + size] for start in range(0, len(records), size)]


def run(
    setups: list[Setup], records: list[CragRecord], jobs: int, make_llm: LLMFactory, log_level: str
) -> None:
    """Answer every batch each setup has not stored yet, the setups taking turns batch by batch, in
    `jobs` processes (1: in this one); each batch's lines are stored here as it ends."""
    sizes = {setup.config.batch_size for setup in setups}
    if len(sizes) != 1:
        raise ValueError(f"the setups' batch sizes differ ({sorted(sizes)}); set batch_size alike")
    groups = batches(records, sizes.pop())
    todo = [
        (setup, groups[index])
        for index, group in enumerate(groups)
        for setup in setups[index % len(setups) :] + setups[: index % len(setups)]
        if not all(record.gold.interaction_id in setup.lines for record in group)
    ]
    if not todo:
        return
    configs = {setup.name: setup.config for setup in setups if any(s is setup for s, _ in todo)}
    tasks = [(setup.name, group) for setup, group in todo]
    jobs = min(jobs, len(tasks))
    with tqdm(total=len(todo), desc=f"batches ({jobs} job{'s' * (jobs > 1)})", unit="batch") as progress:

        def done(task: tuple[str, list[CragRecord]], lines: list[dict[str, Any]] | TaskFailed) -> None:
            name, group = task
            if isinstance(lines, TaskFailed):
                lines = failed_lines(group, lines.error)
            store(setups_by_name(setups)[name], lines)
            progress.set_postfix_str(name)
            progress.update(1)

        if jobs == 1:
            answer = BatchAnswerer(configs, make_llm)
            try:
                for task in tasks:
                    done(task, answer(task))
            finally:
                answer.close()
        else:
            run_jobs(tasks, jobs, functools.partial(start_job, configs, make_llm, jobs, log_level), done)


LLMFactory = Callable[[LLMConfig], LLMBackend]


class BatchAnswerer:
    """One process's work: the setups' systems on one shared LLM (built on first need), each batch
    answered into its answers lines."""

    def __init__(self, configs: dict[str, CragConfig], make_llm: LLMFactory):
        self.configs = configs
        self.make_llm = make_llm
        self.llm: LLMBackend | None = None
        self.systems: dict[str, CragSystem] = {}

    def __call__(self, task: tuple[str, list[CragRecord]]) -> list[dict[str, Any]]:
        name, group = task
        if name not in self.systems:
            if self.llm is None:
                self.llm = self.make_llm(self.configs[name].llm)
            self.systems[name] = CragSystem(self.configs[name], llm=self.llm)
            self.systems[name].warm_up()
        return answer_batch(name, self.systems[name], group)

    def close(self) -> None:
        for system in self.systems.values():
            system.close()
        if self.llm is not None:
            self.llm.close()


def start_job(
    configs: dict[str, CragConfig], make_llm: LLMFactory, jobs: int, log_level: str, job: int
) -> BatchAnswerer:
    """A job's answerer (evaluation/jobs.py), its setups given its share of the cores."""
    logger.remove()
    logger.add(sys.stderr, level=log_level.upper())
    for config in configs.values():
        share_cores(config, jobs, job)
    return BatchAnswerer(configs, make_llm)


def answer_batch(name: str, system: CragSystem, group: list[CragRecord]) -> list[dict[str, Any]]:
    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        results = answers_from_system(system)(group)
    except Exception as error:  # a crash of the system is a result of the benchmark, not its end
        logger.exception(f"{name}: the batch at {group[0].gold.interaction_id} failed")
        results = [{"prediction": "I don't know", "error": f"{type(error).__name__}: {error}"} for _ in group]
    share = (time.perf_counter() - started) / len(group)
    cpu_share = (time.process_time() - cpu_started) / len(group)
    return [
        {
            "interaction_id": record.gold.interaction_id,
            **result,
            "seconds": share,
            "cpu_seconds": cpu_share,
            "batch": [r.gold.interaction_id for r in group],
        }
        for record, result in zip(group, results)
    ]


def failed_lines(group: list[CragRecord], error: str) -> list[dict[str, Any]]:
    """The lines of a batch whose job did not finish it (evaluation/jobs.py): no answer, the reason."""
    return [
        {
            "interaction_id": record.gold.interaction_id,
            "prediction": "I don't know",
            "error": error,
            "batch": [r.gold.interaction_id for r in group],
        }
        for record in group
    ]


def store(setup: Setup, lines: list[dict[str, Any]]) -> None:
    setup.path.parent.mkdir(parents=True, exist_ok=True)
    with setup.path.open("a", encoding="utf-8") as stream:
        for line in lines:
            stream.write(json.dumps(line, ensure_ascii=False) + "\n")
            setup.lines[line["interaction_id"]] = line


def tokens_of(line: dict[str, Any]) -> int:
    usages = (line.get("tokens") or {}).values()
    return sum(
        int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0)) for usage in usages
    )


def judge(lines: dict[str, dict[str, Any]], records: list[CragRecord], truncator: Any) -> dict[str, Verdict]:
    """The verdict on each record's stored prediction, cut to 75 tokens as the leaderboard cuts it."""
    verdicts = {}
    for record in records:
        gold = record.gold
        prediction = truncator.truncate(lines[gold.interaction_id]["prediction"])
        verdicts[gold.interaction_id] = check_answer(
            prediction, gold.answer, gold.alternative_answers, question=gold.query
        )
    return verdicts


def tally(verdicts: Iterable[Verdict]) -> dict[str, Any]:
    """n, the count of each verdict and score = (correct - wrong) / n."""
    counts = Counter(verdicts)
    n = sum(counts.values())
    return {
        "n": n,
        **{v.value: counts[v] for v in Verdict},
        "score": (counts[Verdict.CORRECT] - counts[Verdict.WRONG]) / n if n else 0.0,
    }


def tally_cells(counts: dict[str, Any]) -> list[Any]:
    return [*(counts[name] for name in TALLY_HEADERS[:-1]), f"{counts['score']:.3f}"]


def breakdown(
    records: list[CragRecord], verdicts: dict[str, Verdict], label: str
) -> dict[str, dict[str, Any]]:
    """The tally of each value of the gold `label` (one of TABLES), in reading order."""
    groups: dict[str, list[Verdict]] = {}
    for record in records:
        groups.setdefault(record.gold.labels.get(label, UNLABELLED), []).append(
            verdicts[record.gold.interaction_id]
        )
    order = TABLES[label][1]
    ranked = sorted(groups, key=lambda value: (order.index(value) if value in order else len(order), value))
    return {value: tally(groups[value]) for value in ranked}


def summarise(setup: Setup, records: list[CragRecord], verdicts: dict[str, Verdict]) -> dict[str, Any]:
    lines = [setup.lines[r.gold.interaction_id] for r in records]
    timed = uncached_lines(lines)
    seconds = [float(line["seconds"]) for line in timed if "seconds" in line]
    cpu_seconds = [float(line["cpu_seconds"]) for line in timed if "cpu_seconds" in line]
    n = len(lines)
    notes = Counter(
        f"{event['stage']} {event['what']}"
        for line in lines
        for event in line.get("events") or []
        if "deadline" in f"{event['what']} {event['detail']}"
    )
    stage_tokens: Counter[str] = Counter()
    for line in lines:
        for stage, usage in (line.get("tokens") or {}).items():
            stage_tokens[stage] += int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0))
    return {
        "setup": setup.name,
        "preset": setup.config.preset,
        "key": setup.key,
        **tally(verdicts.values()),
        **{BREAKDOWNS[label]: breakdown(records, verdicts, label) for label in TABLES},
        "tokens_per_question": float(np.mean([tokens_of(line) for line in lines])),
        "tokens_per_stage": {stage: total / n for stage, total in sorted(stage_tokens.items())},
        "seconds_per_stage": stage_seconds(lines),
        "reply_cache": reply_cache_counts(lines),
        "timings_rest_on": timing_basis(timed),
        "p50_s": percentile(seconds, 50),
        "p95_s": percentile(seconds, 95),
        "cpu_p50_s": percentile(cpu_seconds, 50),
        "cpu_p95_s": percentile(cpu_seconds, 95),
        "stage_runs": {
            stage: sum(stage in (line.get("timings") or {}) for line in lines)
            for stage in ("kg", "calculator", "knowledge")
        },
        "deadline_notes": dict(notes),
        "routes": route_counts(lines),
        "errors": sum(bool(line.get("error")) for line in lines),
    }


def percentile(values: list[float], q: float) -> float | None:
    """None when no question was timed (every reply came from the cache)."""
    return float(np.percentile(values, q)) if values else None


def seconds_cell(value: float | None) -> str:
    return "cached" if value is None else f"{value:.1f}"


def change(new: float | None, old: float | None) -> float | None:
    return (new - old) / old if new is not None and old else None


def report(
    setups: list[Setup], records: list[CragRecord], truncator: Any, references: dict[str, Path] | None = None
) -> tuple[str, dict[str, Any]]:
    """report.md and report.json; `references`: setup name -> the answers file to compare it with."""
    verdicts = {setup.name: judge(setup.lines, records, truncator) for setup in setups}
    summaries = {setup.name: summarise(setup, records, verdicts[setup.name]) for setup in setups}
    headers = [
        "setup",
        *TALLY_HEADERS,
        "LLM tokens/q",
        "p50 s/q",
        "p95 s/q",
        "p50 CPU s/q",
        "p95 CPU s/q",
        "calculator runs",
        "knowledge runs",
    ]
    rows = [
        [
            s["setup"],
            *tally_cells(s),
            f"{s['tokens_per_question']:.0f}",
            *(seconds_cell(s[key]) for key in ("p50_s", "p95_s", "cpu_p50_s", "cpu_p95_s")),
            s["stage_runs"]["calculator"],
            s["stage_runs"]["knowledge"],
        ]
        for s in summaries.values()
    ]
    parts = [
        f"# End-to-end benchmark: {len(records)} questions",
        "Verdicts: evaluation/answer_match.check_answer on the prediction cut to 75 tokens; "
        "score = (correct - wrong) / n, unsure on neither side.",
        markdown_table(headers, rows),
    ]
    result: dict[str, Any] = {"questions": len(records), "setups": summaries}
    if "cpu-all" in summaries and "cpu-plan" in summaries:
        parts.append(plan_against_all(summaries["cpu-all"], summaries["cpu-plan"], result))
        parts.append(
            time_estimates([s for s in setups if s.name in ("cpu-all", "cpu-plan")], records, result)
        )
    for name, summary in summaries.items():
        stages = ", ".join(f"{stage} {tokens:.0f}" for stage, tokens in summary["tokens_per_stage"].items())
        cache, basis = summary["reply_cache"], summary["timings_rest_on"]
        routes = ", ".join(f"{route} {count}" for route, count in summary["routes"].items())
        parts.append(
            f"`{name}` LLM tokens per question by stage: {stages or 'none'}; answers by route: "
            f"{routes}; deadline notes: {summary['deadline_notes'] or 'none'}; failed batches' "
            f"questions: {summary['errors']}; "
            f"reply cache {describe_reply_cache(cache)}; its seconds rest on "
            f"{basis['questions']} questions of batches without cached replies "
            f"({basis['uncached_calls']} LLM calls)."
        )
    for name, summary in summaries.items():
        if summary["seconds_per_stage"]:
            parts.append(
                f"`{name}`: where the seconds go, per question (batches without cached replies)\n\n"
                + markdown_stage_seconds(summary["seconds_per_stage"])
            )
    for name, summary in summaries.items():
        parts.append(
            f"## `{name}` by dynamism class and by question type\n\n"
            + "\n\n".join(
                markdown_table(
                    [title, *TALLY_HEADERS],
                    [[value, *tally_cells(counts)] for value, counts in summary[BREAKDOWNS[label]].items()],
                )
                for label, (title, _) in TABLES.items()
            )
        )
    for name, reference in (references or {}).items():
        comparison = compare(records, setups_by_name(setups)[name].lines, read_answers(reference), truncator)
        result.setdefault("compare", {})[name] = {"reference": str(reference), **comparison}
        parts.append(comparison_text(f"`{name}` against {reference}", comparison))
    unsure = [
        (name, record)
        for name in verdicts
        for record in records
        if verdicts[name][record.gold.interaction_id] is Verdict.UNSURE
    ]
    if unsure:
        parts.append(
            "## Unsure verdicts (for a judge model or a careful reading)\n\n"
            + markdown_table(
                ["setup", "question", "gold", "prediction"],
                [
                    [
                        name,
                        record.gold.query,
                        record.gold.answer,
                        setups_by_name(setups)[name].lines[record.gold.interaction_id]["prediction"],
                    ]
                    for name, record in unsure
                ],
                cell=_cell,
            )
        )
    parts.append(per_question(setups, records, verdicts))
    result["verdicts"] = {
        record.gold.interaction_id: {
            "query": record.gold.query,
            "gold": record.gold.answer,
            "alternatives": record.gold.alternative_answers,
            **{
                name: {
                    "prediction": setups_by_name(setups)[name].lines[record.gold.interaction_id][
                        "prediction"
                    ],
                    "verdict": verdicts[name][record.gold.interaction_id].value,
                }
                for name in verdicts
            },
        }
        for record in records
    }
    return "\n\n".join(parts) + "\n", result


def target_cells(value: float | None, target: float) -> list[str]:
    """A change against its target; a change a run cannot measure (every reply of a setup cached, so no
    seconds) is "not measured", neither met nor missed."""
    if value is None:
        return ["n/a", f"{target:+.0%}", "not measured (no uncached batch)"]
    return [f"{value:+.1%}", f"{target:+.0%}", "met" if value <= target else "MISSED"]


def plan_against_all(all_stages: dict[str, Any], planned: dict[str, Any], result: dict[str, Any]) -> str:
    tokens = change(planned["tokens_per_question"], all_stages["tokens_per_question"])
    p50 = change(planned["p50_s"], all_stages["p50_s"])
    cpu_p50 = change(planned["cpu_p50_s"], all_stages["cpu_p50_s"])
    checks = {
        "tokens per question": (tokens, TARGETS["tokens"]),
        "p50 seconds per question": (p50, TARGETS["p50"]),
        "p50 CPU seconds per question": (cpu_p50, TARGETS["p50"]),
    }
    rows = [[what, *target_cells(value, target)] for what, (value, target) in checks.items()]
    rows.append(
        [
            "score",
            f"{planned['score'] - all_stages['score']:+.3f}",
            ">= 0",
            "met" if planned["score"] >= all_stages["score"] else "MISSED",
        ]
    )
    rows.append(
        [
            "wrong answers",
            f"{planned['wrong'] - all_stages['wrong']:+d}",
            "<= 0",
            "met" if planned["wrong"] <= all_stages["wrong"] else "MISSED",
        ]
    )
    result["plan_against_all"] = {
        "tokens_change": tokens,
        "p50_change": p50,
        "cpu_p50_change": cpu_p50,
        "score_change": planned["score"] - all_stages["score"],
        "wrong_change": planned["wrong"] - all_stages["wrong"],
    }
    return "## cpu-plan against cpu-all (same run, same checker)\n\n" + markdown_table(
        ["measure", "change", "target", ""], rows
    )


def time_estimates(setups: list[Setup], records: list[CragRecord], result: dict[str, Any]) -> str:
    """Seconds per question on 4x T4 (the t4x4 preset's batches and throughput model) from the tokens
    and CPU timings each setup recorded here; the embedded model's prompts are shorter than t4x4's."""
    target = load_config("t4x4")
    rows = []
    for setup in setups:
        lines = [setup.lines[r.gold.interaction_id] for r in records]
        estimate = estimate_budget(lines, target)["estimated_seconds_per_question"]
        result.setdefault("t4x4_estimate", {})[setup.name] = estimate
        rows.append(
            [setup.name, f"{estimate['p50']:.1f}", f"{estimate['p95']:.1f}", f"{estimate['mean']:.1f}"]
        )
    return (
        "## Estimated seconds per question on 4x T4 (evaluation/time_model.py, from the "
        "tokens recorded here)\n\n" + markdown_table(["setup", "p50", "p95", "mean"], rows)
    )


def compare(
    records: list[CragRecord], new: dict[str, dict[str, Any]], old: dict[str, dict[str, Any]], truncator: Any
) -> dict[str, Any]:
    """The questions of `records` whose verdict differs between the answers `old` and `new`, the count of
    each change, both sides' tally on the questions they share, and the questions one side lacks."""
    ids = [r.gold.interaction_id for r in records]
    common = [r for r in records if r.gold.interaction_id in new and r.gold.interaction_id in old]
    before, after = judge(old, common, truncator), judge(new, common, truncator)
    changed = [r.gold for r in common if before[r.gold.interaction_id] is not after[r.gold.interaction_id]]
    old_tally, new_tally = tally(before.values()), tally(after.values())
    return {
        "common": len(common),
        "only_new": [i for i in ids if i in new and i not in old],
        "only_reference": [i for i in ids if i in old and i not in new],
        "transitions": dict(
            Counter(
                f"{before[gold.interaction_id].value}→{after[gold.interaction_id].value}" for gold in changed
            ).most_common()
        ),
        "reference_tally": old_tally,
        "new_tally": new_tally,
        "score_change": new_tally["score"] - old_tally["score"],
        "changed": [
            {
                "interaction_id": gold.interaction_id,
                "query": gold.query,
                "gold": gold.answer,
                **{label: gold.labels.get(label, UNLABELLED) for label in TABLES},
                "old_prediction": old[gold.interaction_id]["prediction"],
                "new_prediction": new[gold.interaction_id]["prediction"],
                "old_verdict": before[gold.interaction_id].value,
                "new_verdict": after[gold.interaction_id].value,
            }
            for gold in changed
        ],
    }


def comparison_text(title: str, comparison: dict[str, Any]) -> str:
    old, new = comparison["reference_tally"], comparison["new_tally"]
    lines = [
        f"## {title}",
        f"{comparison['common']} questions on both sides, {len(comparison['changed'])} verdicts changed: "
        + (", ".join(f"{change}: {count}" for change, count in comparison["transitions"].items()) or "none")
        + f". Score on them {old['score']:.3f} → {new['score']:.3f} ({comparison['score_change']:+.3f}).",
    ]
    for side, key in (("the new answers", "only_new"), ("the reference", "only_reference")):
        if comparison[key]:
            lines.append(f"Only in {side} ({len(comparison[key])}): {', '.join(comparison[key])}.")
    if comparison["changed"]:
        lines.append(
            markdown_table(
                [
                    "question id",
                    "question",
                    "dynamism class",
                    "question type",
                    "prediction (old → new)",
                    "verdict",
                ],
                [
                    [
                        item["interaction_id"],
                        _short(item["query"]),
                        item["static_or_dynamic"],
                        item["question_type"],
                        f"{_short(item['old_prediction'])} → {_short(item['new_prediction'])}",
                        f"{item['old_verdict']} → {item['new_verdict']}",
                    ]
                    for item in comparison["changed"]
                ],
            )
        )
    return "\n\n".join(lines)


def per_question(
    setups: list[Setup], records: list[CragRecord], verdicts: dict[str, dict[str, Verdict]]
) -> str:
    headers = ["#", "question", "gold", *[f"{s.name}" for s in setups], "plan"]
    rows = []
    for number, record in enumerate(records, 1):
        gold = record.gold
        cells = []
        for setup in setups:
            line = setup.lines[gold.interaction_id]
            cells.append(f"{line['prediction']} [{MARKS[verdicts[setup.name][gold.interaction_id]]}]")
        plan_line = next((s.lines[gold.interaction_id] for s in setups if s.name == "cpu-plan"), None)
        plan = (plan_line or {}).get("plan") or {}
        signals = "; ".join(s for s in plan.get("signals", []) if not s.startswith("kg")) or (
            plan_line or {}
        ).get("route", "")
        rows.append([number, gold.query, gold.answer, *cells, signals])
    return "## Per question (prediction [verdict])\n\n" + markdown_table(headers, rows, cell=_cell)


def setups_by_name(setups: list[Setup]) -> dict[str, Setup]:
    return {setup.name: setup for setup in setups}


def _cell(value: Any) -> str:
    return " ".join(str(value).replace("|", "/").split())[:300]


def _short(text: str) -> str:
    return textwrap.shorten(text, width=80, placeholder=" ...")


def main(argv: list[str] | None = None, *, llm: LLMFactory | None = None) -> int:
    """Run the benchmark, or only compare two answers files (--answers); `llm` builds the backend in
    place of `create_backend` (tests script it): in this process unless --jobs says more (then it
    must pickle)."""
    args = parse_args(argv)
    logger.remove()
    logger.add(sys.stderr, level=args.log_level.upper())
    if args.answers and not args.compare:
        raise SystemExit("--answers needs --compare REF, the answers to compare it with")
    names = [name.strip() for name in args.setups.split(",") if name.strip()]
    unknown = [name for name in names if name not in SETUPS]
    if unknown or not names:
        raise SystemExit(f"unknown setups {unknown}; choose from {', '.join(SETUPS)}")
    missing = [path for path in args.data if not path.is_file()]
    if missing:
        raise SystemExit(f"data files not found: {', '.join(map(str, missing))} (pass --data)")
    records = select([record for path in args.data for record in read_records(path)], args.questions)[
        : args.limit
    ]
    if args.answers:
        compare_files(args.answers, args.compare, records, load_truncator(args.tokenizer_dir), args.out)
        return 0
    setups = load_setups(
        names, {**parse_overrides(args.set), **reply_cache_override(args)}, args.budget_s, args.out
    )
    references = (
        {s.name: reference_file(args.compare, s.name, s.path) for s in setups} if args.compare else {}
    )
    llm_configs = {json.dumps(asdict(setup.config.llm), sort_keys=True) for setup in setups}
    if len(llm_configs) != 1:
        raise SystemExit("the setups' LLM settings differ; they must share one model")
    jobs = args.jobs or (1 if llm is not None else default_jobs())
    run(setups, records, jobs, llm or create_backend, args.log_level)
    text, result = report(setups, records, load_truncator(args.tokenizer_dir), references)
    write_atomically(args.out / "report.md", text)
    write_atomically(args.out / "report.json", json.dumps(result, indent=2, default=str))
    print(text)
    print(f"Written: {args.out / 'report.md'}, {args.out / 'report.json'}, answers in {args.out / 'answers'}")
    return 0


def compare_files(answers: Path, ref: Path, records: list[CragRecord], truncator: Any, out: Path) -> None:
    """--answers FILE --compare REF: the comparison of two finished runs, printed and written to `out`."""
    if not answers.is_file():
        raise SystemExit(f"--answers {answers}: no such file")
    reference = reference_file(ref, setup_of(answers), answers)
    comparison = compare(records, read_answers(answers), read_answers(reference), truncator)
    text = comparison_text(f"{answers} against {reference}", comparison) + "\n"
    write_atomically(out / "compare.md", text)
    write_atomically(
        out / "compare.json",
        json.dumps(
            {"answers": str(answers), "reference": str(reference), **comparison}, indent=2, ensure_ascii=False
        ),
    )
    print(text)
    print(f"Written: {out / 'compare.md'}, {out / 'compare.json'}")


if __name__ == "__main__":
    sys.exit(main())
