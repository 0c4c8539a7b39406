"""The whole system on the real-wording KG set: `benchmarks/kg.py --real --system`.

Each question of the set (benchmarks/kg_real.py) goes through the whole CragSystem of the preset (the
embedded model) with no web pages, Task-2 style: the mock of the official server on the real-wording KG
(kg_mock/real_fixture.py, no artificial delay) is the only source. Beside it, the KG stage alone reads
the same question with the same model (the gold domain, no deadline): the stage's "facts found", the
questions whose answer facts its evidence states (as in `--real`).

Printed per split (tune, held-out, all; tune on "tune", report both; with --sealed, the sealed set's):
  - over every question: correct / wrong / missing / unsure and the score, by the answer checker
    (evaluation/answer_match.check_answer on the prediction cut to 75 Llama-2 tokens, as the leaderboard
    cuts it);
  - over the questions whose facts the stage finds: the same tally as shares (the target: at least 80 %
    answered right, at most 10 % wrong), how often the false-premise judgement fired (the reasoning called
    the premise false) and, in brackets, how often "invalid question" was kept as the answer,
    and why each "I don't know" happened: the route the system recorded (refused by the routing before
    the KG, refused for want of KG evidence, out of time, an answer of the wrong form) or the reasoning's
    own reply (the prompt), with the KG stage's deadline skips counted;
  - the tallies by domain and by question type, each with its stage facts found and facts in the prompt
    (the KG lines the reasoning prompt showed state them);
  - with --show-misses, each question not answered right: its route, prediction, the reasoning's words,
    the events, the KG lines shown.

The deadline is left out unless --budget-s says otherwise (as in benchmarks/end_to_end.py: on a busy
2-core machine it would skip stages as the load varies); its events are still counted.

Resuming: the answers go to <out>/answers-<key>.jsonl a batch at a time, the key a hash of the resolved
configuration and of the code under models/ and prompts/ (benchmarks/end_to_end.py:setup_key); a rerun
with the same key answers only the questions not stored yet; verdicts are always recomputed. The
stage's entity readings are kept in <out>/entity-replies.json and replayed (benchmarks/kg.py's
`--llm-replies`). --compare FILE lists the questions whose verdict changed against an earlier answers
file (of the splits run).

Not a script: benchmarks/kg.py --real --system runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from loguru import logger
from tqdm import tqdm

from evaluation.answer_match import Verdict, check_answer
from evaluation.truncation import load_truncator
from models.answers import INVALID_QUESTION
from models.config import CragConfig, load_config, parse_overrides
from models.kg import KGResult
from models.stages import COMPUTED_KEPT, COMPUTED_OVER_DECLINE, FALSE_PREMISE_OVERRULED, NOT_IN_KG_ROUTE

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
VERDICTS = (Verdict.CORRECT, Verdict.WRONG, Verdict.MISSING, Verdict.UNSURE)
# "sealed-first", "sealed-second", "sealed-third": benchmarks/kg_sealed_sets.py, each run alone
SPLITS = ("tune", "held-out", "sealed-first", "sealed-second", "sealed-third", "all")
# Why a question was answered "I don't know", from its recorded route (models/pipeline.py, models/stages.py).
ROUTE_CAUSES = {
    "refused: dynamic": "routing: refused before the KG",
    "refused: dynamic, no KG evidence": "routing: no KG evidence",
    "refused: out of time": "deadline",
    "refused: answer of the wrong form": "answer check",
    NOT_IN_KG_ROUTE: "asked name not in the KG",
}
PROMPT_CAUSE = "reasoning reply (prompt)"
# A budget this high leaves the deadline out.
NO_DEADLINE_S = 10_000.0


@dataclass
class Row:
    """One question's result: the case, the stored answer line, the verdict, and the stage's facts."""

    case: Any  # benchmarks.kg.Case
    line: dict[str, Any]
    verdict: Verdict
    stage_found: bool
    prompt_found: bool

    @property
    def refused(self) -> bool:
        return self.verdict is Verdict.MISSING

    @property
    def invalid(self) -> bool:
        return self.line["prediction"].strip().lower() == INVALID_QUESTION.lower()

    @property
    def premise_judged_false(self) -> bool:
        """The reasoning called the premise false, whether or not the KG's facts then overruled it."""
        return self.invalid or any(
            e.get("what") == FALSE_PREMISE_OVERRULED for e in self.line.get("events", [])
        )

    @property
    def computed(self) -> bool:
        """The KG's lines in the prompt open with an answer the facts decide."""
        return any(line.startswith("Computed answer:") for line in self.line.get("references", []))

    def noted(self, what: str) -> bool:
        return any(e.get("what") == what for e in self.line.get("events", []))

    @property
    def cause(self) -> str:
        """Why an "I don't know": the route that refused it, else the reasoning's own reply."""
        return ROUTE_CAUSES.get(self.line.get("route", ""), PROMPT_CAUSE)

    @property
    def kg_skipped(self) -> bool:
        return any(e.get("stage") == "kg" and e.get("kind") == "skipped" for e in self.line.get("events", []))


def system_config(args: argparse.Namespace) -> CragConfig:
    overrides = parse_overrides(args.set)
    if args.budget_s is not None:
        overrides["budget.seconds_per_question"] = str(args.budget_s)
    config = load_config(args.preset, overrides)
    config.kg.company_dict_path = "/nonexistent"  # the fixture KG's companies are resolved through the API
    return config


def run(
    args: argparse.Namespace,
    config: CragConfig,
    cases: list[Any],
    stage_found: dict[str, bool],
    answered: Callable[[Any, KGResult], bool],
    data_dir: Path | None = None,
) -> None:
    """Answer what is not stored yet, then report (see the module docstring). `stage_found`: whether the
    stage alone finds each question's facts; `answered`: whether a KG result states a case's facts;
    `data_dir`: the KG (the real-wording one unless given)."""
    from benchmarks.end_to_end import read_answers, setup_key
    from kg_mock.real_fixture import cached_real_fixture_dir
    from kg_mock.server import running_server

    out: Path = args.out or Path("outputs") / "kg_system"
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"answers-{setup_key(config)}.jsonl"
    lines = read_answers(path) if path.is_file() else {}
    todo = [c for c in cases if c.key not in lines]
    deadline = (
        "left out"
        if config.budget.seconds_per_question > NO_DEADLINE_S
        else f"{config.budget.seconds_per_question:g} s a question"
    )
    sealed = sorted({c.split for c in cases if c.split.startswith("sealed-")})
    name = f"{' and '.join(sealed)} set" if sealed else "real-wording set"
    print(
        f"{len(cases)} questions of the {name}; whole system, preset {config.preset}, batches of "
        f"{config.batch_size}, no web pages; deadline {deadline}; answers in {path} "
        f"({len(cases) - len(todo)} stored)\n"
    )
    if todo:
        with running_server(data_dir=data_dir or cached_real_fixture_dir(), delay_s=0.0) as url:
            os.environ[config.kg.api_url_env] = url
            _answer(config, todo, path, lines)
    truncator = load_truncator(SHARED / "tokenizer")
    rows = []
    for case in cases:
        line = lines[case.key]
        verdict = check_answer(truncator.truncate(line["prediction"]), case.gold, question=case.query)
        shown = KGResult(references=line.get("references", []))
        rows.append(Row(case, line, verdict, stage_found[case.key], answered(case, shown)))
    report(rows, args.show_misses)
    if args.compare:
        compare(rows, read_answers(args.compare), truncator)


def _answer(config: CragConfig, cases: list[Any], path: Path, lines: dict[str, dict[str, Any]]) -> None:
    from models.crag_system import CragSystem

    system = CragSystem(config)
    try:
        system.warm_up()
        size = config.batch_size
        for start in tqdm(range(0, len(cases), size), desc="whole system", unit="batch"):
            batch = cases[start : start + size]
            began = time.perf_counter()
            try:
                predictions = system.batch_generate_answer(
                    {
                        "interaction_id": [c.key for c in batch],
                        "query": [c.query for c in batch],
                        "query_time": [c.query_time for c in batch],
                        "search_results": [[] for _ in batch],
                    }
                )
                traces = [trace.as_dict() for trace in system.last_traces]
            except Exception as error:  # a crash is a result of the benchmark, not its end
                logger.exception(f"the batch at {batch[0].key} failed")
                predictions = ["I don't know"] * len(batch)
                traces = [{"error": f"{type(error).__name__}: {error}"} for _ in batch]
            share = (time.perf_counter() - began) / len(batch)
            with path.open("a", encoding="utf-8") as stream:
                for case, prediction, trace in zip(batch, predictions, traces):
                    line = {"interaction_id": case.key, "prediction": prediction, **trace, "seconds": share}
                    stream.write(json.dumps(line, ensure_ascii=False) + "\n")
                    lines[case.key] = line
    finally:
        system.close()


def _tally(rows: list[Row]) -> str:
    counts = Counter(row.verdict for row in rows)
    n = len(rows)
    score = (counts[Verdict.CORRECT] - counts[Verdict.WRONG]) / n if n else 0.0
    return " ".join(f"{counts[v]:>3}" for v in VERDICTS) + f" {score:>+7.3f}"


def _shares(rows: list[Row]) -> str:
    counts = Counter(row.verdict for row in rows)
    n = max(len(rows), 1)
    return " ".join(f"{counts[v]:>3} ({counts[v] / n:4.0%})" for v in VERDICTS)


def report(rows: list[Row], show_misses: bool) -> None:
    header = (
        f"{'split':<9} {'n':>3} | {'correct wrong missing unsure':<29} {'score':>7} | "
        f"{'stage facts found':>17} | "
        f"{'of those: correct wrong missing unsure':<42} | {'false premise judged (kept), found / all':>42}"
    )
    print(header)
    print("-" * len(header))
    for split in SPLITS:
        picked = [r for r in rows if split in ("all", r.case.split)]
        if not picked:
            continue
        found = [r for r in picked if r.stage_found]
        invalid = (
            f"{sum(r.premise_judged_false for r in found)} ({sum(r.invalid for r in found)})/{len(found)} / "
            f"{sum(r.premise_judged_false for r in picked)} ({sum(r.invalid for r in picked)})/{len(picked)}"
        )
        print(
            f"{split:<9} {len(picked):>3} | {_tally(picked):<37} | {len(found):>9}/{len(picked):<3} = "
            f"{len(found) / len(picked):3.0%} | {_shares(found):<42} | {invalid:>42}"
        )
    print(
        "\nthe answer the facts decide: questions with one in the prompt, the model's answer replaced by it, "
        'given where the model declined, declined ("I don\'t know"); all, then those '
        "the checker judged correct"
    )
    for split in SPLITS:
        picked = [r for r in rows if split in ("all", r.case.split) and r.computed]
        if picked:
            print(
                f"  {split:<9} {len(picked):>3} computed, {sum(r.noted(COMPUTED_KEPT) for r in picked):>3} "
                f"replaced, {sum(r.noted(COMPUTED_OVER_DECLINE) for r in picked):>3} given over a decline, "
                f"{sum(r.refused for r in picked):>3} declined; correct "
                f"{sum(r.verdict is Verdict.CORRECT for r in picked)}"
            )
    print(
        '\n"I don\'t know" on questions whose facts the stage finds, by cause (KG stage '
        "skipped for time among them):"
    )
    for split in SPLITS:
        if not any(split in ("all", r.case.split) for r in rows):
            continue
        refused = [r for r in rows if split in ("all", r.case.split) and r.stage_found and r.refused]
        causes = Counter(r.cause for r in refused)
        skipped = sum(r.kg_skipped for r in refused)
        print(
            f"  {split:<9} {len(refused):>3}: "
            + (", ".join(f"{cause} {count}" for cause, count in causes.most_common()) or "none")
            + (f"; KG skipped for {skipped}" if skipped else "")
        )
    for label, group in (
        ("domain", lambda r: r.case.domain),
        ("question type", lambda r: r.case.question_type),
    ):
        print(f"\nby {label}: n, correct wrong missing unsure score, stage facts found, facts in the prompt")
        for split in SPLITS[:-1]:
            picked = [r for r in rows if r.case.split == split]
            for value in sorted({group(r) for r in picked}):
                chosen = [r for r in picked if group(r) == value]
                print(
                    f"  {split:<9} {value:<20} {len(chosen):>3} | {_tally(chosen)} | "
                    f"{sum(r.stage_found for r in chosen):>3} | {sum(r.prompt_found for r in chosen):>3}"
                )
    if not show_misses:
        return
    print("\nquestions not answered right:")
    for row in rows:
        if row.verdict is Verdict.CORRECT:
            continue
        line = row.line
        print(
            f"- {row.case.key} [{row.case.split}, {row.case.domain}, {row.case.question_type}] "
            f"{row.case.query!r} at {row.case.query_time}; gold {row.case.gold!r}"
        )
        print(
            f"  {row.verdict.value}: {line['prediction']!r} | route {line.get('route')!r} | stage facts "
            f"{'found' if row.stage_found else 'not found'}, in the prompt "
            f"{'yes' if row.prompt_found else 'no'}"
        )
        if line.get("reasoning"):
            print(f"  reasoning: {line['reasoning'][:400]!r}")
        events = [
            f"{e['stage']} {e['what']}" + (f" ({e['detail'][:80]})" if e.get("detail") else "")
            for e in line.get("events", [])
        ]
        if events:
            print("  events: " + "; ".join(events))
        shown = "\n".join(line.get("references", []))
        print("  " + "\n  ".join((shown or "(no references)").splitlines()[:12]))


def compare(rows: list[Row], earlier: dict[str, dict[str, Any]], truncator: Any) -> None:
    """The questions whose verdict differs from the earlier answers file's, and the count of each change."""
    changes: Counter[str] = Counter()
    print("\nverdicts changed against the earlier answers:")
    for row in rows:
        before = earlier.get(row.case.key)
        if before is None:
            continue
        old = check_answer(truncator.truncate(before["prediction"]), row.case.gold, question=row.case.query)
        if old is row.verdict:
            continue
        changes[f"{old.value} -> {row.verdict.value}"] += 1
        print(
            f"- {row.case.key} [{row.case.split}] {row.case.query!r}: {before['prediction'][:60]!r} -> "
            f"{row.line['prediction'][:60]!r} ({old.value} -> {row.verdict.value})"
        )
    print("  " + (", ".join(f"{change} {count}" for change, count in changes.most_common()) or "none"))
