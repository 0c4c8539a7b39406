"""Local evaluation, scored the way the CRAG leaderboard scored (see evaluation/).

    python local_evaluation.py --data data/sample.jsonl --out outputs/sample
    python local_evaluation.py --data ../shared/data/crag_dev_10.jsonl.bz2 --presets baseline,cpu
    python local_evaluation.py --data crag_task_1_and_2_dev_v4.jsonl.bz2 --split 0 --limit 100
    python local_evaluation.py --data crag_task_3_dev_v4.tar.bz2.part1   # Task 3: its parts, joined as read
    python local_evaluation.py --judge openai        # EVALUATION_MODEL_NAME, OPENAI_API_KEY, OPENAI_BASE_URL
    python local_evaluation.py --judge rules,official --kit-dir ../starter-kit   # the leaderboard's judge too

`--data` takes every shape the official files ship in (evaluation/sources.py): a .jsonl or
.jsonl.bz2, Task 3's .tar.bz2 archive of JSONL shards or its .partN downloads, a folder of them, a
glob, or several of these. Every record the run will use is read and checked before any model is
built (evaluation/data.py); a bad one stops the run with one line naming the file, line and field.

Runs `UserModel` over the questions in batches and writes, per preset, `predictions.jsonl` (one
line per question, appended as it finishes, so an interrupted run resumes where it stopped),
`scored.jsonl`, `report.json` and PNG charts; prints the Markdown tables. Several presets write
into one subfolder each and add an ablation table (`comparison.md`, `comparison.json`).
Predictions are scored by the answer checker (evaluation/answer_match.py); `--judge local|openai`
asks an LLM judge about the ones it is unsure of, `--judge rules` counts those as wrong. `--judge
official` scores as the starter kit's local_evaluation.py does, with its judge prompt read from your
checkout of the kit (`--kit-dir`). Several judges (`--judge rules,official`) score the same predictions:
the first one's scores are the report's, and the report lists the verdicts where each other judge
differs from the official one (or else from the first).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

from loguru import logger

from models.config import REPO_ROOT, CragConfig, LLMConfig, load_config, parse_overrides
from evaluation.data import (
    SPLITS,
    CragRecord,
    DataError,
    GoldQuestion,
    Questions,
    check_questions,
    read_records,
)
from evaluation.jobs import JobsCannotStart, default_jobs, share_cores
from evaluation.judges import (
    BackendJudge,
    CachedJudge,
    Judge,
    JudgeUnavailable,
    OfficialJudge,
    OpenAIJudge,
    RulesJudge,
    VerdictCache,
)
from evaluation.reports import (
    build_report,
    judge_comparison,
    markdown_comparison,
    markdown_judge_comparison,
    markdown_references_report,
    markdown_report,
    references_report,
)
from evaluation.runner import (
    PredictionStore,
    RunManifest,
    RunMismatch,
    answer_lines,
    answers_from_system,
    references_from_system,
    run_questions,
    run_questions_in_jobs,
    write_atomically,
)
from evaluation.scoring import score_predictions
from evaluation.settings import EvaluationSettings
from evaluation.starter_kit import KitUnreadable, read_kit
from evaluation.truncation import Truncator, load_truncator
from models.llm.base import LLMBackend
from models.prompts import PromptLibrary

DEFAULT_DATA = REPO_ROOT / "data" / "sample.jsonl"
JUDGES = ("rules", "local", "openai", "official")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    defaults = EvaluationSettings()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--data",
        nargs="+",
        action="extend",
        metavar="PATH",
        help="CRAG questions: a .jsonl or .jsonl.bz2 file, Task 3's .tar.bz2 archive (or any of its .partN "
        "files), a folder of them or a quoted glob; several are read in order (default: "
        f"{DEFAULT_DATA.relative_to(REPO_ROOT)})",
    )
    parser.add_argument(
        "--split",
        type=int,
        choices=sorted(SPLITS),
        default=None,
        help="keep only CRAG's validation (0) or public-test (1) questions (the records' split field)",
    )
    parser.add_argument("--out", default="outputs/local_evaluation", help="output folder")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions (of --split)")
    parser.add_argument("--preset", action="append", default=[], help="a config preset (repeatable)")
    parser.add_argument("--presets", default="", help="comma-separated presets to compare")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.OPTION=VALUE",
        help="config override for every preset (repeatable)",
    )
    parser.add_argument("--batch-size", type=int, default=None, help="override the preset's batch size")
    parser.add_argument(
        "--judge",
        default="rules",
        help="rules: the answer checker alone (what it is unsure of counts as wrong); local|openai: the "
        "checker with an LLM judge for what it is unsure of (the system's own model, an OpenAI-compatible "
        "server); official: the starter kit's flow and judge prompt (--kit-dir) on an OpenAI-compatible "
        "server. Several, comma-separated, score the same predictions and the report lists where they differ",
    )
    parser.add_argument(
        "--kit-dir",
        default=None,
        help="your checkout of the CRAG starter kit (local_evaluation.py, prompts/templates.py), "
        "for --judge official",
    )
    parser.add_argument(
        "--tokenizer-dir",
        default=str(defaults.tokenizer_dir),
        help="the starter kit's Llama-2 tokenizer folder (for the 75-token cut; --judge official also looks "
        "in --kit-dir/tokenizer)",
    )
    parser.add_argument("--verdict-cache", default=str(defaults.verdict_cache), help="judge verdicts (jsonl)")
    parser.add_argument(
        "--judge-workers",
        type=int,
        default=defaults.judge_workers,
        help="concurrent requests of the openai judge",
    )
    parser.add_argument(
        "--references-only",
        action="store_true",
        help="only retrieve references (no LLM) and report how often they contain the answer",
    )
    parser.add_argument(
        "--budget-report",
        action="store_true",
        help="estimate seconds per question on 4x T4 (t4x4 preset) from the recorded tokens",
    )
    parser.add_argument(
        "--restart", action="store_true", help="discard earlier predictions in the output folder"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="processes sharing the batches and the cores, each with its own LLM backend (default: one per "
        "core); with the openai backend they share the servers llm.base_url lists",
    )
    parser.add_argument(
        "--log-level", default="INFO", help="loguru level on stderr (DEBUG shows every stage)"
    )
    args = parser.parse_args(argv)
    args.data = args.data or [str(DEFAULT_DATA)]
    if args.jobs is not None and args.jobs < 1:
        parser.error("--jobs must be at least 1")
    args.judges = [name.strip() for name in args.judge.split(",") if name.strip()]
    unknown = [name for name in args.judges if name not in JUDGES]
    if unknown or not args.judges or len(set(args.judges)) != len(args.judges):
        parser.error(f"--judge takes one or more of {', '.join(JUDGES)}, comma-separated, each once")
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    if args.batch_size is not None and not 1 <= args.batch_size <= 16:
        parser.error("--batch-size must be between 1 and 16")
    return args


def main(argv: list[str] | None = None, *, llm: LLMBackend | None = None) -> int:
    """Run the evaluation; `llm` replaces the configured backend of every preset (tests script it), in
    this process (--jobs 1)."""
    args = parse_args(argv)
    logger.remove()
    logger.add(sys.stderr, level=args.log_level.upper())
    out = Path(args.out)
    if problem := output_problem(out):
        logger.error(problem)
        return 2
    if llm is not None and (args.jobs or 1) > 1:
        logger.error("--jobs above 1 builds a backend in each job: a backend passed in runs with --jobs 1")
        return 2
    args.jobs = args.jobs or (1 if llm is not None else default_jobs())
    try:
        overrides = parse_overrides(args.set)
        configs = load_configs(args, overrides)
    except ValueError as error:
        logger.error(str(error))
        return 2
    if problem := (None if llm is not None else missing_requirements(configs, args.references_only)):
        logger.error(problem)
        return 2
    try:
        questions = check_questions(args.data, split=args.split, limit=args.limit)
    except DataError as error:
        logger.error(str(error))
        return 2
    except KeyboardInterrupt:
        logger.warning("Interrupted while checking the data; nothing was run")
        return 130
    logger.info(f"{len(questions.golds)} questions from {questions.label}")
    settings = dataclasses.replace(
        EvaluationSettings(),
        tokenizer_dir=Path(args.tokenizer_dir),
        verdict_cache=Path(args.verdict_cache),
        judge_workers=args.judge_workers,
        kit_dir=Path(args.kit_dir) if args.kit_dir else None,
    )
    backends = BackendPool(llm)
    try:
        scoring = (
            None if args.references_only else build_scoring(args.judges, settings, backends, configs[0].llm)
        )
        reports = {}
        for config in configs:
            folder = out / config.preset if len(configs) > 1 else out
            mode = "answers" if scoring else "references"
            RunManifest(config.preset, overrides, questions.label, mode).check_or_write(folder, args.restart)
            lines, golds, run_wall = run_preset(args, config, backends, folder, questions)
            if scoring is None:
                report = references_report(lines, golds, config.preset)
                write_atomically(folder / "report.json", json.dumps(report, indent=2))
                print(markdown_references_report(report) + "\n")
                continue
            report = score_preset(args, config, scoring, lines, golds, folder, run_wall)
            reports[config.preset] = report | {"overrides": overrides}
        if len(reports) > 1:
            write_comparison(reports, out)
    except (RunMismatch, JudgeUnavailable, KitUnreadable, JobsCannotStart, DataError) as error:
        logger.error(str(error))
        return 2
    except KeyboardInterrupt:
        logger.warning(
            f"Interrupted. Finished questions are saved under {out}; rerun the same command to continue."
        )
        return 130
    finally:
        backends.close()
    return 0


def output_problem(out: Path) -> str | None:
    """Why the predictions and reports cannot be written under `out` (None: they can)."""
    if out.exists() and not out.is_dir():
        return f"--out {out} is a file, not a folder: pass a folder for the predictions and reports"
    existing = next(folder for folder in (out.absolute(), *out.absolute().parents) if folder.exists())
    if not existing.is_dir():
        return f"--out {out}: {existing} is a file, not a folder: pass a folder for the predictions"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"--out {out}: {existing} is not writable: pass a folder you can write to"
    return None


def missing_requirements(configs: list[CragConfig], references_only: bool) -> str | None:
    """What a preset needs that is not here, in one line (None: nothing): its weight folders (the LLM's
    only when answering) and, to answer with vLLM, the GPU image's packages. Files are looked at,
    nothing is loaded."""
    from tools.weights import downloadable_folders

    for config in configs:
        vllm = config.llm.backend == "vllm"
        llm_folder = Path(config.llm.model_path) if vllm and config.llm.model_path else None
        missing = [
            f"{folder.role} ({folder.local_dir})"
            for folder in downloadable_folders(config)
            if not folder.local_dir.is_dir() and not (references_only and folder.local_dir == llm_folder)
        ]
        if missing:
            return (
                f"The {config.preset} preset's weights are not here: {'; '.join(missing)}. Fetch them with "
                f"`python -m tools.weights fetch --preset {config.preset}`, or run another --preset (cpu)"
            )
        if vllm and not references_only and importlib.util.find_spec("vllm") is None:
            return (
                f"The {config.preset} preset answers with vLLM, which is not installed here (the GPU image's "
                "packages: pip install -r requirements.txt); on a CPU machine use --preset cpu"
            )
    return None


def load_configs(args: argparse.Namespace, overrides: dict[str, str]) -> list[CragConfig]:
    names = [p.strip() for p in args.presets.split(",") if p.strip()] + args.preset
    configs = [load_config(name, overrides) for name in names or [None]]
    if len({c.preset for c in configs}) != len(configs):
        raise ValueError("A preset is listed twice")
    for config in configs:
        if args.batch_size is not None:
            config.batch_size = args.batch_size
    return configs


@dataclasses.dataclass
class RunWall:
    """The run's own wall time: with jobs side by side, a question's share of its batch (the seconds
    per question of the report) is longer than what the run took per question."""

    questions: int  # answered by this run (not those saved by an earlier one)
    seconds: float
    jobs: int

    def markdown(self) -> str:
        if self.questions == 0:
            return "This run answered no question: each one was saved by an earlier run."
        side_by_side = f"{self.jobs} jobs side by side" if self.jobs > 1 else "1 job"
        return (
            f"This run: {self.questions} questions in {self.seconds:.0f} s of wall time, "
            f"{self.seconds / self.questions:.1f} s a question ({side_by_side})."
        )


@dataclasses.dataclass
class Scoring:
    judges: list[Judge]  # the first one's scores are the report's
    truncator: Truncator
    reference: str  # the judge the others are compared with: the official one when it runs, else the first


def run_preset(
    args: argparse.Namespace, config: CragConfig, backends: BackendPool, folder: Path, questions: Questions
) -> tuple[list[dict[str, Any]], list[GoldQuestion], RunWall]:
    """Answer (or only retrieve for) every question not yet saved in `folder`, in `args.jobs` processes;
    also how many this run answered, in how many seconds of wall time."""
    store = PredictionStore(folder / ("references.jsonl" if args.references_only else "predictions.jsonl"))
    store.check_questions(questions.golds)
    records = read_records(questions.sources, args.limit, split=args.split, model_input=True)
    total = len(questions.golds)
    stored_before, started = len(store.lines), time.perf_counter()
    if args.jobs > 1:
        setup = functools.partial(start_job, config, args.references_only, args.jobs, args.log_level)
        golds = run_questions_in_jobs(
            records, store, config.batch_size, setup, args.jobs, total, config.preset
        )
    else:
        system = LazySystem(config, backends, load_llm=not args.references_only)
        work = references_from_system(system) if args.references_only else answers_from_system(system)
        try:
            golds = run_questions(records, store, system.get_batch_size, work, total, config.preset)
        finally:
            system.close()
    run_wall = RunWall(len(store.lines) - stored_before, time.perf_counter() - started, args.jobs)
    return [store.lines[gold.interaction_id] for gold in golds], golds, run_wall


def start_job(
    config: CragConfig, references_only: bool, jobs: int, log_level: str, job: int
) -> Callable[[list[CragRecord]], list[dict[str, Any]]]:
    """One job of --jobs (evaluation/jobs.py): the system on its share of the cores (and its turn of
    the servers), built on its first batch; a batch in, its stored lines out."""
    logger.remove()
    logger.add(sys.stderr, level=log_level.upper())
    share_cores(config, jobs, job)
    system = LazySystem(config, BackendPool(None), load_llm=not references_only)
    work = references_from_system(system) if references_only else answers_from_system(system)
    return functools.partial(answer_lines, answer_batch=work)


def score_preset(
    args: argparse.Namespace,
    config: CragConfig,
    scoring: Scoring,
    lines: list[dict[str, Any]],
    golds: list[GoldQuestion],
    folder: Path,
    run_wall: RunWall,
) -> dict[str, Any]:
    judge, truncator = scoring.judges[0], scoring.truncator
    predictions = [line["prediction"] for line in lines]
    scored_by_judge = {
        each.identity: score_predictions(golds, predictions, truncator, each) for each in scoring.judges
    }
    scored = scored_by_judge[judge.identity]
    write_atomically(
        folder / "scored.jsonl", "".join(json.dumps(dataclasses.asdict(s)) + "\n" for s in scored)
    )
    report = build_report(
        scored,
        lines,
        preset=config.preset,
        judge_identity=judge.identity,
        judge_is_weak=judge.weak,
        truncation=truncator.description,
        truncation_exact=truncator.exact,
    )
    report["data"] = args.data
    report["run_wall"] = dataclasses.asdict(run_wall)
    text = markdown_report(report) + "\n\n" + run_wall.markdown()
    if len(scoring.judges) > 1:
        report["judge_comparison"] = judge_comparison(scored_by_judge, golds, scoring.reference)
        text += "\n\n" + markdown_judge_comparison(report["judge_comparison"])
    if args.budget_report:
        target = load_config("t4x4")
        from evaluation.time_model import estimate_budget, markdown_budget  # loads the stages: only here

        report["budget_estimate"] = estimate_budget(lines, target)
        text += "\n\n" + markdown_budget(config.preset, report["budget_estimate"])
    write_atomically(folder / "report.json", json.dumps(report, indent=2))
    from evaluation.charts import breakdown_charts  # matplotlib: once there is something to chart

    charts = breakdown_charts(report, folder)
    print(text + "\n")
    logger.info(f"Wrote {folder}/report.json, predictions.jsonl, scored.jsonl and {len(charts)} charts")
    return report


def write_comparison(reports: dict[str, dict[str, Any]], out: Path) -> None:
    table = markdown_comparison(reports)
    write_atomically(out / "comparison.md", table + "\n")
    write_atomically(out / "comparison.json", json.dumps(reports, indent=2))
    from evaluation.charts import comparison_chart

    comparison_chart(reports, out / "comparison.png")
    print(table)


class BackendPool:
    """One LLM backend per distinct LLM configuration, shared by the presets and the local judge."""

    def __init__(self, replacement: LLMBackend | None):
        self.replacement = replacement
        self._backends: dict[str, LLMBackend] = {}

    def get(self, config: LLMConfig) -> LLMBackend:
        if self.replacement is not None:
            return self.replacement
        key = json.dumps(dataclasses.asdict(config), sort_keys=True)
        if key not in self._backends:
            from models.llm import create_backend

            self._backends[key] = create_backend(config)
        return self._backends[key]

    def close(self) -> None:
        for backend in self._backends.values():
            backend.close()
        self._backends.clear()


class LazySystem:
    """Builds `UserModel` on first use, so a rerun with every answer already saved (re-scoring with
    another judge, say) loads no model at all."""

    def __init__(self, config: CragConfig, backends: BackendPool, load_llm: bool):
        self.config = config
        self.backends = backends
        self.load_llm = load_llm
        self._model: Any = None

    @property
    def model(self) -> Any:
        if self._model is None:
            from models.user_config import UserModel

            if self.load_llm:
                self._model = UserModel(self.config, llm=self.backends.get(self.config.llm))
            else:
                self._model = UserModel(self.config, llm=None, load_llm=False)
        return self._model

    def get_batch_size(self) -> int:
        return self.model.get_batch_size()

    def batch_generate_answer(self, batch: dict[str, list[Any]]) -> list[str]:
        return self.model.batch_generate_answer(batch)

    def retrieve_references(self, batch: dict[str, list[Any]]) -> list[list[str]]:
        return self.model.retrieve_references(batch)

    @property
    def last_traces(self) -> list[Any]:
        return self.model.last_traces

    def close(self) -> None:
        """Stops the page workers; the LLM stays open for the next preset (BackendPool owns it)."""
        if self._model is not None:
            self._model.close()
            self._model = None


def build_scoring(
    names: list[str], settings: EvaluationSettings, backends: BackendPool, llm_config: LLMConfig
) -> Scoring:
    """The judges named, and the truncator; --judge official needs the exact Llama-2 cut."""
    judges = [build_judge(name, settings, backends, llm_config) for name in names]
    truncator = load_truncator(settings.tokenizer_dir, settings.max_prediction_tokens)
    if "official" in names and not truncator.exact and settings.kit_dir is not None:
        truncator = load_truncator(settings.kit_dir / "tokenizer", settings.max_prediction_tokens)
    if "official" in names and not truncator.exact:
        raise JudgeUnavailable(
            "--judge official cuts predictions to 75 tokens with the starter kit's Llama-2 tokenizer: pass "
            "--tokenizer-dir with the kit's tokenizer/ folder (tokenizer.json)"
        )
    reference = judges[names.index("official")] if "official" in names else judges[0]
    return Scoring(judges, truncator, reference.identity)


def build_judge(
    kind: str, settings: EvaluationSettings, backends: BackendPool, llm_config: LLMConfig
) -> Judge:
    if kind == "rules":
        return RulesJudge()
    cache = VerdictCache(settings.verdict_cache)
    if kind == "official":
        official = OfficialJudge(
            read_kit(settings.kit_dir),
            settings.openai_model,
            retry_max_wait_s=settings.judge_retry_max_wait_s,
            timeout_s=settings.judge_request_timeout_s,
            workers=settings.judge_workers,
        )
        return CachedJudge(official, cache, rules_first=False)
    prompts = PromptLibrary()
    if kind == "local":
        model_name = llm_config.model_path or (
            (llm_config.served_model or "server default") if llm_config.backend == "openai" else "embedded"
        )
        return CachedJudge(
            BackendJudge(backends.get(llm_config), model_name, prompts, settings.judge_max_tokens), cache
        )
    return CachedJudge(
        OpenAIJudge(
            settings.openai_model,
            prompts,
            max_attempts=settings.judge_max_attempts,
            retry_max_wait_s=settings.judge_retry_max_wait_s,
            timeout_s=settings.judge_request_timeout_s,
            workers=settings.judge_workers,
        ),
        cache,
    )


if __name__ == "__main__":
    sys.exit(main())
