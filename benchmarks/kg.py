"""KG benchmark: the KG stage on benchmarks/kg_questions.jsonl against our mock of the official server
(kg_mock, started here on a free port with the synthetic KG and an artificial delay per call, served
one request at a time like the official one).

Printed per run, side by side:
  - answer in evidence: the share of questions whose KG references contain every answer span
    (evaluation/answer_match.states: words alike after normalisation, numbers as values, dates as dates;
    word-bounded: "12" does not match "125"); a question
    whose entity is absent from the KG counts when the stage reports no evidence for it
  - near misses: of the questions that list near misses (facts close to the asked one: another week's
    chart entry, a band's founding date for a question about its members), how many show one
  - has_evidence: the share where the stage says it found facts about the asked entity and time
  - calls per question (answered for it, shared calls counted for each) and failed calls
  - KG seconds per batch (mean and max over batches of --batch-size questions)

Runs: "ours" (the preset's scheduling), the reference "unbudgeted" (the same planning with no call
budget, 16 connections and no deadline) and "previous plan" (the KG stage of another commit,
--reference, by default the last one before the follow-up planning: benchmarks/kg_reference.py runs
it from `git archive` on the same server), all with the scripted entities of the question file, which
isolates planning and rendering. Then "ours" and "previous plan" again with the entities read: the
same names come back from a scripted reader as the LLM's JSON reply, so they take the production path
(grounding, filing by domain, a name tried as the other kind of its domain only on a miss), where the
calls the hidden evaluation pays are spent. Printed per question set of the file ("base": the first
questions; "relations": two hops, fields shown only when asked, indirect wording, comparisons), then
overall; with --end-to-end also "ours, LLM entities" where the embedded model reads the entities (slow
on CPU: ~60 prompt tokens/s). Then one stress batch of call-hungry questions,
ours against unbudgeted: the KG seconds the call budget and the deadline save.

With --real, instead: the real-wording set (benchmarks/kg_real.py: real CRAG validation questions read
from ../shared/data at run time, over the real-wording KG of kg_mock/real_fixture.py, each question's
answer facts derived from the KG's routes) with scripted entities, unbudgeted, with the scripted names
as the reader's reply and, with --end-to-end, read by the embedded model; printed per run and split
(tune / held-out): answer facts found, near misses shown, API calls and seconds per question, then the
share found per domain and per question type; --out writes every run's evidence per question. Beside
them, the stage's computed answers judged against the gold ones (right, wrong, unsure, none), and the
reading held to each question's gold intent (benchmarks/kg_real.py:INTENTS: operation, time kind,
tense, the routes and fields that hold the answer), by split and domain: its relation (the one the
computed answer read, else the reading's own choice) is right when one of the routes and fields it
declares (models/kg/relations.py) holds the answer; with --end-to-end also for the LLM's reading.

With --real --system: the whole CragSystem answers the real-wording set with no web pages (the KG the only
source), judged by the answer checker beside the stage's facts found (benchmarks/kg_system.py).

With --sealed NAME beside --real or --real --system: that sealed set (benchmarks/kg_sealed_sets.py:
`first`, benchmarks/kg_sealed.py, run once and spent; `second`, benchmarks/kg_sealed2.py, run once;
`third`, benchmarks/kg_sealed3.py, sealed: 40 more validation questions each, picked by a salted hash
and not read while the KG's rules change) instead of the real-wording set, printed as split
"sealed-NAME", on the KG that holds the real-wording set and that one (kg_mock/real_fixture.py built
with its sealed facts). Run a set once, at the end, and report that first run; the runs without
--sealed never include one.

With --system, instead: the whole CragSystem (the preset's embedded model) answers the dynamic
finance and sports questions (static_or_dynamic != "static"), with no web pages, in four setups:
old routing (predicted-dynamic questions refused before the KG: policy.kg_answers_dynamic empty;
the others still see the KG) and the preset's new routing, each with the KG down (CRAG_MOCK_API_URL
on a port where nothing listens) and up (the mock server with no artificial delay: --delay-s is
ignored here). Printed: answered-correct, answered-wrong and refused ("I don't know") overall and per
domain; whether the KG-down answers of the two routings are the same; the share correct among the
questions whose entity the KG holds (the others' gold answer is "I don't know"); and per question
the route the system recorded and its answer. Correctness is the answer checker's
(evaluation/answer_match.check_answer); with no judge model here, what it is unsure of counts as wrong.

    python -m benchmarks.kg [--delay-s 0.25 | --api-url URL] [--batch-size 8] [--reference COMMIT]
                            [--end-to-end] [--preset cpu] [--show-misses] [--no-read]
    python -m benchmarks.kg --system [--system-limit N]
    python -m benchmarks.kg --real [--end-to-end] [--show-misses] [--out results.json]
    python -m benchmarks.kg --real --system [--split held-out] [--out FOLDER] [--budget-s S]
                                      [--keys KEY,...] [--compare ANSWERS.jsonl] [--show-misses]
    python -m benchmarks.kg --real [--system] --sealed third      # once, at the end
    python -m benchmarks.kg --report-from results.json [--sealed NAME] [--show-misses]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from statistics import mean

from loguru import logger
from pydantic import TypeAdapter
from tqdm import tqdm

from benchmarks import kg_real, kg_system
from benchmarks.kg_sealed_sets import SETS as SEALED_SETS
from benchmarks.llm_cache import add_reply_cache_options, reply_cache_override
from evaluation.answer_match import Verdict, check_answer, is_refusal, states
from kg_mock.real_fixture import cached_real_fixture_dir
from kg_mock.server import free_port, running_server
from models.config import CragConfig, KGConfig, load_config, parse_overrides
from models.kg import KGResult, KnowledgeGraphStage
from models.kg.entities import KGEntities
from models.kg.relations import BY_NAME
from models.kg.routes import ROUTES
from models.kg.stage import Reading
from models.llm.base import Completion, GenerationParams, LLMBackend
from models.prompts import PromptLibrary
from models.schema import Question, QuestionAttributes

REPO_ROOT = Path(__file__).resolve().parents[1]
# Every question's gold intent: the real-wording set's and each sealed set's.
GOLD_INTENTS = {
    **kg_real.INTENTS,
    **{key: intent.as_real() for s in SEALED_SETS.values() for key, intent in s.intents.items()},
}
QUESTIONS = REPO_ROOT / "benchmarks" / "kg_questions.jsonl"
# The folder of outputs/ a --real --system run keeps its answers in, by sealed set (None: the real-wording).
SYSTEM_OUTPUTS: dict[str | None, str] = {
    None: "kg_system",
    "first": "kg_system_sealed",
    "second": "kg_system_sealed_second",
    "third": "kg_system_sealed_third",
}
# The last commit before the KG stage followed names across calls (issue 23): the "previous plan".
PREVIOUS_PLAN = "32d0e63"
ENTITY_FIELDS = {f.name for f in fields(KGEntities)}
STRESS_TIME = "03/10/2024, 23:34:42 PT"
# One batch of call-hungry questions (many names, many routes, every team's games, play-by-play, all
# Grammy winners): what the call budget and the batch deadline are for.
STRESS = [
    (
        "compare the price, dividends, eps, p/e ratio and market cap of zphr, aapl and qmtx",
        "finance",
        KGEntities(tickers=["ZPHR", "AAPL", "QMTX"]),
    ),
    ("how many points were scored in each nba game this week?", "sports", KGEntities(sport="nba")),
    ("how many goals were scored in the premier league last week?", "sports", KGEntities(sport="soccer")),
    (
        "who scored first in each denver nuggets game in march 2024?",
        "sports",
        KGEntities(teams=["Denver Nuggets"], sport="nba"),
    ),
    ("list every grammy best new artist winner", "music", KGEntities()),
    (
        "where are halcyon drift, marrow-saints and the cobalt hour from, who are their members "
        "and what did they release?",
        "music",
        KGEntities(artists=["Halcyon Drift", "Marrow-Saints", "The Cobalt Hour"]),
    ),
    (
        "which actors starred in the glass orchard, salt road nocturne and copper meridian?",
        "movie",
        KGEntities(
            movies=["The Glass Orchard", "Salt Road Nocturne", "Copper Meridian"], people=["Yumi Castellanos"]
        ),
    ),
    (
        "how did the lakers, the rockets and the blazers do this season?",
        "sports",
        KGEntities(teams=["Lakers", "Rockets", "Blazers"], sport="nba"),
    ),
]


@dataclass
class Case:
    query: str
    query_time: str
    domain: str
    entities: KGEntities
    answers: list[str]  # every span must appear; none: the KG holds nothing for the question
    tag: str = ""
    gold: str = ""  # the answer a reply must state (--system)
    static_or_dynamic: str = ""
    set: str = "base"
    near_misses: list[str] = field(default_factory=list)  # none of these may appear in the evidence
    # the real-wording set (benchmarks/kg_real.py): the answer facts as alternatives (all spans of one
    # of them), the question's key, its CRAG question type and its split
    alternatives: list[list[str]] = field(default_factory=list)
    key: str = ""
    question_type: str = ""
    split: str = ""


@dataclass
class Run:
    name: str
    results: list[KGResult] = field(default_factory=list)
    batch_seconds: list[float] = field(default_factory=list)


def load_cases(path: Path) -> list[Case]:
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        raw = row.get("entities") or {}
        entities = KGEntities(**{k: v for k, v in raw.items() if k in ENTITY_FIELDS})
        answers = row.get("answers", row.get("answer_spans", []))
        cases.append(
            Case(
                row["query"],
                row["query_time"],
                row["domain"],
                entities,
                [answers] if isinstance(answers, str) else list(answers),
                row.get("tag", row.get("style", "")),
                row.get("answer", ""),
                row.get("static_or_dynamic", ""),
                row.get("set", "base"),
                list(row.get("near_misses", [])),
            )
        )
    return cases


def answered(case: Case, result: KGResult) -> bool:
    evidence = "\n".join(result.references)
    if case.alternatives:
        return any(all(states(evidence, span) for span in spans) for spans in case.alternatives)
    if not case.answers:
        return not result.has_evidence
    return all(states(evidence, span) for span in case.answers)


def computed_verdict(case: Case, result: KGResult) -> str:
    """The stage's computed answer against the gold one: "correct", "wrong", "unsure" (the checker cannot
    tell) or "none" (no answer computed)."""
    if result.computed is None:
        return "none"
    return check_answer(result.computed.value, case.gold, question=case.query).value


def computed_cells(pairs: list[tuple[Case, KGResult]]) -> str:
    counts = Counter(computed_verdict(c, r) for c, r in pairs)
    return f"{counts['correct']:>4} {counts['wrong']:>5} {counts['unsure']:>6} {counts['none']:>4}"


def reading_of(result: KGResult) -> Reading | None:
    """The result's reading (a dict when it was read back from a saved file)."""
    reading = result.reading
    if isinstance(reading, dict):
        return Reading(**{k: tuple(v) if isinstance(v, list) else v for k, v in reading.items()})
    return reading


def intent_scores(case: Case, result: KGResult) -> dict[str, bool]:
    """The reading held to the question's gold intent (GOLD_INTENTS): its first
    relation by the routes and fields it declares, its operation, its time kind and its tense."""
    gold = GOLD_INTENTS[case.key]
    reading = reading_of(result)
    if reading is None:
        return {"relation": False, "operation": False, "time": False, "tense": False}
    relation = BY_NAME.get(reading.relations[0]) if reading.relations else None
    places = (
        kg_real.answer_places([ROUTES[r].path.strip("/") for r in relation.routes], relation.field)
        if relation
        else set()
    )
    return {
        "relation": kg_real.relation_right(gold, places),
        "operation": reading.operation == gold.operation,
        "time": reading.time == gold.time,
        "tense": reading.tense == gold.tense,
    }


def offers_near_miss(case: Case, result: KGResult) -> bool:
    evidence = "\n".join(result.references)
    return any(states(evidence, span) for span in case.near_misses)


def reader_reply(entities: KGEntities) -> str:
    """The entity reader's JSON reply that yields `entities` (the shape of
    models.kg.entities.entity_schema)."""
    return json.dumps({**vars(entities), "sport": entities.sport or "none"})


class _ScriptedReader(LLMBackend):
    """Answers the KG stage's entity prompt for each question with that question's scripted entities,
    so that they take the production path of names read by the LLM."""

    name = "scripted-reader"

    def __init__(self, cases: list[Case]):
        self.replies = {case.query: reader_reply(case.entities) for case in cases}

    def generate(self, conversations, params):
        completions = []
        for conversation in conversations:
            text = "\n".join(message["content"] for message in conversation)
            query = max((q for q in self.replies if q in text), key=len)
            completions.append(Completion(texts=[self.replies[query]]))
        return completions

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def run_stage(
    name: str, stage: KnowledgeGraphStage, cases: list[Case], batch_size: int, scripted: bool
) -> Run:
    run = Run(name)
    stage.warm_up()  # as CragSystem.warm_up does: the relation encoder loads before the first batch is timed
    for start in tqdm(range(0, len(cases), batch_size), desc=name, unit="batch", leave=False):
        batch = cases[start : start + batch_size]
        questions = [Question(f"kg-{start + i}", c.query, c.query_time) for i, c in enumerate(batch)]
        attributes = [QuestionAttributes(domain=c.domain) for c in batch]
        began = time.perf_counter()
        run.results += stage.run(
            questions, attributes, [replace(c.entities) for c in batch] if scripted else None
        )
        run.batch_seconds.append(time.perf_counter() - began)
    return run


def report(runs: list[Run], cases: list[Case], show_misses: bool) -> None:
    sets = list(dict.fromkeys(c.set for c in cases))
    for name, chosen in [
        *((f"set {s!r}", [c.set == s for c in cases]) for s in sets),
        ("all questions", [True] * len(cases)),
    ]:
        if len(sets) == 1 and name != "all questions":
            continue
        picked = [c for c, keep in zip(cases, chosen) if keep]
        print(f"{name} ({len(picked)} questions):")
        _table(
            [
                Run(run.name, [r for r, keep in zip(run.results, chosen) if keep], run.batch_seconds)
                for run in runs
            ],
            picked,
        )
        print()
    _by_domain(runs, cases, show_misses)


def _table(runs: list[Run], cases: list[Case]) -> None:
    header = (
        f"{'run':<40} {'answer in evidence':>19} {'near misses':>12} {'has_evidence':>13} {'calls/q':>8} "
        f"{'failed':>7} {'KG s/batch mean':>16} {'max':>6}"
    )
    print(header)
    print("-" * len(header))
    for run in runs:
        hits = sum(answered(c, r) for c, r in zip(cases, run.results))
        listed = [(c, r) for c, r in zip(cases, run.results) if c.near_misses]
        misses = f"{sum(offers_near_miss(c, r) for c, r in listed)}/{len(listed)}" if listed else "-"
        found = sum(r.has_evidence for r in run.results)
        calls = mean(len(r.calls) for r in run.results)
        failed = sum(len(r.failed_calls) for r in run.results)
        print(
            f"{run.name:<40} {hits:>4}/{len(cases)} = {hits / len(cases):6.1%} {misses:>12} "
            f"{found / len(cases):>13.1%} "
            f"{calls:>8.2f} {failed:>7} {mean(run.batch_seconds):>16.2f} {max(run.batch_seconds):>6.2f}"
        )


def _by_domain(runs: list[Run], cases: list[Case], show_misses: bool) -> None:
    domains = sorted({c.domain for c in cases})
    print(
        "answer in evidence by domain: "
        + ", ".join(f"{d} ({sum(c.domain == d for c in cases)})" for d in domains)
    )
    for run in runs:
        shares = []
        for domain in domains:
            pairs = [(c, r) for c, r in zip(cases, run.results) if c.domain == domain]
            shares.append(f"{domain} {sum(answered(c, r) for c, r in pairs) / len(pairs):.0%}")
        print(f"  {run.name:<40} " + ", ".join(shares))
    if show_misses:
        for run in runs:
            misses = [
                (c, r) for c, r in zip(cases, run.results) if not answered(c, r) or offers_near_miss(c, r)
            ]
            print(f"\nmisses and near misses shown of {run.name} ({len(misses)}):")
            for case, result in misses:
                shown = [
                    span
                    for span in case.near_misses
                    if offers_near_miss(replace(case, near_misses=[span]), result)
                ]
                print(
                    f"- {case.query!r} wants "
                    f"{case.answers}{f' shows near misses {shown}' if shown else ''} | "
                    f"has_evidence {result.has_evidence} | {result.error} | "
                    f"{'; '.join(map(str, result.events))}"
                )
                print(f"  calls: {result.calls}")
                print(
                    "  " + "\n  ".join(("\n".join(result.references) or "(no references)").splitlines()[:12])
                )


def unbudgeted(config: KGConfig) -> KGConfig:
    unlimited = 10**6
    return replace(
        config,
        max_calls_per_question=unlimited,
        calls_per_question=unlimited,
        max_slow_calls_per_batch=unlimited,
        max_connections=16,
        api_seconds_per_question=600.0,
        timeout_s=60.0,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--preset", default="cpu")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.OPTION=VALUE")
    parser.add_argument("--delay-s", type=float, default=0.25, help="artificial seconds per API call")
    parser.add_argument(
        "--api-url",
        default="",
        help="a KG server already running on the fixture KG (e.g. the official "
        "server's code, kg_mock/README.md) instead of our mock; --delay-s does not apply",
    )
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument(
        "--reference",
        default=PREVIOUS_PLAN,
        metavar="COMMIT",
        help="the commit whose KG stage runs as the previous plan ('' for none)",
    )
    parser.add_argument(
        "--end-to-end", action="store_true", help="also let the embedded LLM read the entities"
    )
    parser.add_argument(
        "--end-to-end-limit",
        type=int,
        default=None,
        metavar="N",
        help="with --end-to-end, only every k-th question so that N remain (the run is slow on CPU)",
    )
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument(
        "--no-read", action="store_true", help="skip the runs whose entities take the reader's path"
    )
    parser.add_argument(
        "--real",
        action="store_true",
        help="run the real-wording set (benchmarks/kg_real.py) on its own KG instead of the question file",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="JSON",
        help="with --real, also write every run's result per question (evidence, calls, events) to JSON; "
        "with --real --system, the folder of the answers",
    )
    parser.add_argument(
        "--split",
        choices=("tune", "held-out", "all"),
        default="all",
        help="with --real, run only this part of the set (tune on 'tune', report both)",
    )
    parser.add_argument(
        "--llm-replies",
        type=Path,
        default=None,
        metavar="JSON",
        help="with --end-to-end, replay the model's entity replies kept in this file and add the new ones",
    )
    parser.add_argument(
        "--report-from",
        type=Path,
        default=None,
        metavar="JSON",
        help="print the --real report of a saved --out file (scored with the current answer facts)",
    )
    parser.add_argument(
        "--system",
        action="store_true",
        help="run the whole CragSystem on the dynamic finance and sports questions instead",
    )
    parser.add_argument(
        "--system-limit",
        type=int,
        default=None,
        metavar="N",
        help="with --system, N questions spread evenly over the file",
    )
    parser.add_argument(
        "--budget-s",
        type=float,
        default=100_000.0,
        help="with --real --system, budget.seconds_per_question (high: the deadline left out)",
    )
    parser.add_argument(
        "--keys",
        type=lambda text: [part.strip() for part in text.split(",") if part.strip()],
        default=[],
        metavar="KEY,...",
        help="with --real --system, only these questions of the set",
    )
    parser.add_argument(
        "--sealed",
        choices=sorted(SEALED_SETS),
        default=None,
        metavar="NAME",
        help="with --real (and --real --system, or --report-from), the sealed set NAME "
        f"({', '.join(sorted(SEALED_SETS))}; benchmarks/kg_sealed_sets.py) instead of the real-wording "
        "set: run it once, at the end",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        default=None,
        metavar="ANSWERS",
        help="with --real --system, list the verdicts changed against an earlier answers file",
    )
    add_reply_cache_options(parser)
    args = parser.parse_args()
    args.set += [f"{option}={value}" for option, value in reply_cache_override(args).items()]
    if args.sealed and not (args.real or args.report_from):
        parser.error("--sealed goes with --real (or --real --system, or --report-from)")
    if args.system and args.real:
        if not kg_real.VALIDATION.is_file():
            print(
                f"{kg_real.VALIDATION} is absent: the real-wording set reads its "
                "questions from it; nothing to run"
            )
            return
        run_real_system(args)
        return
    if args.system:
        run_system_benchmark(args)
        return
    if args.report_from:
        report_saved_real(args.report_from, args.show_misses, args.sealed)
        return
    if args.real:
        run_real_benchmark(args)
        return

    config = load_config(args.preset, parse_overrides(args.set))
    config.kg.company_dict_path = "/nonexistent"  # the synthetic KG's companies are resolved through the API
    cases = load_cases(args.questions)
    server = (
        f"the server at {args.api_url}" if args.api_url else f"mock server with {args.delay_s:g} s per call"
    )
    print(
        f"{len(cases)} questions from {args.questions}; {server}; batches of "
        f"{args.batch_size}; preset {args.preset}\n"
    )
    prompts = PromptLibrary()
    runs = []
    llm: LLMBackend | None = None
    with nullcontext(args.api_url) if args.api_url else running_server(delay_s=args.delay_s) as url:
        os.environ[config.kg.api_url_env] = url
        runs.append(
            run_stage(
                "ours, scripted entities",
                KnowledgeGraphStage(config.kg, _NoLLM(), prompts),
                cases,
                args.batch_size,
                True,
            )
        )
        runs.append(
            run_stage(
                "unbudgeted, scripted",
                KnowledgeGraphStage(unbudgeted(config.kg), _NoLLM(), prompts),
                cases,
                args.batch_size,
                True,
            )
        )
        if args.reference:
            runs.append(previous_plan(args.reference, url, cases, args.preset, args.batch_size))
        if not args.no_read:
            runs.append(
                run_stage(
                    "ours, entities read",
                    KnowledgeGraphStage(config.kg, _ScriptedReader(cases), prompts),
                    cases,
                    args.batch_size,
                    False,
                )
            )
            if args.reference:
                runs.append(
                    previous_plan(args.reference, url, cases, args.preset, args.batch_size, read=True)
                )
        stress = [Case(query, STRESS_TIME, domain, entities, []) for query, domain, entities in STRESS]
        stress_runs = [
            run_stage(name, KnowledgeGraphStage(kg, _NoLLM(), prompts), stress, len(stress), True)
            for name, kg in (("ours", config.kg), ("unbudgeted", unbudgeted(config.kg)))
        ]
        if args.end_to_end:
            from models.llm import create_backend

            step = max(1, len(cases) // args.end_to_end_limit) if args.end_to_end_limit else 1
            sample = cases[::step][: args.end_to_end_limit]
            llm = create_backend(config.llm)
            try:
                began = time.perf_counter()
                end_to_end = run_stage(
                    "ours, LLM entities",
                    KnowledgeGraphStage(config.kg, llm, prompts),
                    sample,
                    args.batch_size,
                    False,
                )
                print(f"end to end: {len(sample)} questions in {time.perf_counter() - began:.0f} s")
            finally:
                llm.close()
    report(runs, cases, args.show_misses)
    if args.end_to_end:
        scripted = dict(zip(map(id, cases), runs[0].results))
        print(
            f"\nend to end on {len(sample)} of the questions (every {step}th), against the scripted "
            "entities on the same ones:"
        )
        report(
            [
                Run("ours, scripted entities", [scripted[id(c)] for c in sample], runs[0].batch_seconds),
                end_to_end,
            ],
            sample,
            args.show_misses,
        )
    print(f"\nstress batch ({len(STRESS)} call-hungry questions in one batch):")
    for run in stress_runs:
        print(
            f"  {run.name:<12} KG seconds {run.batch_seconds[0]:6.2f}, calls "
            f"{sum(len(r.calls) for r in run.results):4d} "
            "(shared calls counted per question), has_evidence "
            f"{sum(r.has_evidence for r in run.results)}/{len(STRESS)}"
        )


def real_cases(data_dir: Path, sealed: str | None = None) -> list[Case]:
    """The real-wording set (with `sealed`, the sealed set of that name) with its answer facts derived
    from the KG in `data_dir`."""
    cases = []
    post = kg_real.in_process_api(data_dir)
    for real in SEALED_SETS[sealed].load(post) if sealed else kg_real.load(post):
        facts = real.derivation.facts
        cases.append(
            Case(
                real.query,
                real.query_time,
                real.domain,
                KGEntities(**real.entities),
                facts[0],
                gold=real.gold,
                static_or_dynamic=real.static_or_dynamic,
                set="real",
                near_misses=real.derivation.near_misses,
                alternatives=facts,
                key=real.key,
                question_type=real.question_type,
                split=real.split,
            )
        )
    return cases


def run_real_benchmark(args: argparse.Namespace) -> None:
    if not kg_real.VALIDATION.is_file():
        print(
            f"{kg_real.VALIDATION} is absent: the real-wording set reads its "
            "questions from it; nothing to run"
        )
        return
    config = load_config(args.preset, parse_overrides(args.set))
    config.kg.company_dict_path = "/nonexistent"  # the fixture KG's companies are resolved through the API
    data_dir = cached_real_fixture_dir(args.sealed)
    cases = [c for c in real_cases(data_dir, args.sealed) if args.split in ("all", c.split)]
    splits = Counter(c.split for c in cases)
    split = SEALED_SETS[args.sealed].split if args.sealed else ""
    parts = (
        f"{split} {splits[split]}: run it once, at the end"
        if args.sealed
        else f"tune {splits['tune']}, held-out {splits['held-out']}"
    )
    print(
        f"{split or 'real-wording'} set: {len(cases)} questions ({parts}) from "
        f"{kg_real.VALIDATION}; KG {data_dir}; mock server with {args.delay_s:g} s per call; batches of "
        f"{args.batch_size}; preset {args.preset}\n"
    )
    prompts = PromptLibrary()
    runs: list[tuple[Run, list[Case]]] = []
    with running_server(data_dir=data_dir, delay_s=args.delay_s) as url:
        os.environ[config.kg.api_url_env] = url
        for name, kg in (
            ("ours, scripted entities", config.kg),
            ("unbudgeted, scripted", unbudgeted(config.kg)),
        ):
            runs.append(
                (
                    run_stage(name, KnowledgeGraphStage(kg, _NoLLM(), prompts), cases, args.batch_size, True),
                    cases,
                )
            )
        if not args.no_read:
            stage = KnowledgeGraphStage(config.kg, _ScriptedReader(cases), prompts)
            runs.append(
                (
                    run_stage("ours, entities read (scripted reply)", stage, cases, args.batch_size, False),
                    cases,
                )
            )
        if args.end_to_end:
            step = max(1, len(cases) // args.end_to_end_limit) if args.end_to_end_limit else 1
            sample = cases[::step][: args.end_to_end_limit]
            llm = _RecordedReplies(config, args.llm_replies)
            try:
                stage = KnowledgeGraphStage(config.kg, llm, prompts)
                runs.append(
                    (
                        run_stage("ours, entities read by the LLM", stage, sample, args.batch_size, False),
                        sample,
                    )
                )
            finally:
                llm.close()
            if args.llm_replies:
                print(
                    f"entity replies of the LLM: {llm.generated} generated now, {llm.replayed} "
                    f"replayed from {args.llm_replies} "
                    "(the s/q of replayed ones leave out the model's time)\n"
                )
    report_real(runs, args.show_misses)
    if args.out:
        args.out.write_text(
            json.dumps(
                {
                    run.name: [
                        {
                            "key": c.key,
                            "query": c.query,
                            "answered": answered(c, r),
                            "near_miss": offers_near_miss(c, r),
                            **asdict(r),
                        }
                        for c, r in zip(run_cases, run.results)
                    ]
                    for run, run_cases in runs
                },
                indent=1,
                ensure_ascii=False,
            ),
            encoding="utf-8",
        )
        print(f"\nper-question results written to {args.out}")


def run_real_system(args: argparse.Namespace) -> None:
    """The whole system on the real-wording set (benchmarks/kg_system.py), beside the KG stage alone with
    its entities read by the same model (replies kept in <out>/entity-replies.json): its facts found."""
    config = kg_system.system_config(args)
    data_dir = cached_real_fixture_dir(args.sealed)
    cases = [c for c in real_cases(data_dir, args.sealed) if args.split in ("all", c.split)]
    if args.keys:
        cases = [c for c in cases if c.key in set(args.keys)]
    out = args.out or REPO_ROOT / "outputs" / SYSTEM_OUTPUTS[args.sealed]
    out.mkdir(parents=True, exist_ok=True)
    llm = _RecordedReplies(config, out / "entity-replies.json")
    try:
        with running_server(data_dir=data_dir, delay_s=0.0) as url:
            os.environ[config.kg.api_url_env] = url
            stage = KnowledgeGraphStage(config.kg, llm, PromptLibrary())
            run = run_stage("KG stage, entities read by the LLM", stage, cases, config.batch_size, False)
    finally:
        llm.close()
    found = {case.key: answered(case, result) for case, result in zip(cases, run.results)}
    kg_system.run(argparse.Namespace(**{**vars(args), "out": out}), config, cases, found, answered, data_dir)


def saved_results(rows: list[dict]) -> list[KGResult]:
    """KGResults as `--out` saved them (`asdict`), their computed answers and readings typed again; the
    token usage is not kept."""
    kept = {f.name for f in fields(KGResult)} - {"usage"}
    return TypeAdapter(list[KGResult]).validate_python(
        [{k: v for k, v in row.items() if k in kept} for row in rows]
    )


def report_saved_real(path: Path, show_misses: bool, sealed: str | None = None) -> None:
    """The report of a saved --real --out file (of the sealed set `sealed`, if named), scored with the
    set's current answer facts."""
    set_name = SEALED_SETS[sealed].split if sealed else "real-wording"
    by_key = {c.key: c for c in real_cases(cached_real_fixture_dir(sealed), sealed)}
    saved = json.loads(path.read_text(encoding="utf-8"))
    runs = []
    for name, rows in saved.items():
        unknown = [row["key"] for row in rows if row["key"] not in by_key]
        if unknown:
            sets = ", ".join(sorted(SEALED_SETS))
            raise SystemExit(
                f"{path}: run {name!r} holds {len(unknown)} questions that are not of the "
                f"{set_name} set (the first: {unknown[0]}); "
                f"name the set it was run on with --sealed ({sets}) or leave it out for the real-wording set"
            )
        cases = [by_key[row["key"]] for row in rows]
        runs.append((Run(name, saved_results(rows)), cases))
    print(f"{set_name} set, runs saved in {path}, scored with the current answer facts\n")
    report_real(runs, show_misses)


def report_real(runs: list[tuple[Run, list[Case]]], show_misses: bool) -> None:
    """Per run and split: answer facts found, near misses shown, calls and seconds per question; then the
    share found per domain and per question type; with `show_misses`, every miss and near miss."""
    header = (
        f"{'run':<40} {'split':<13} {'answer facts found':>19} {'near misses':>12} {'calls/q':>8} {'s/q':>6} "
        f"| computed: right wrong unsure none"
    )
    print(header)
    print("-" * len(header))
    for run, cases in runs:
        for split in ("tune", "held-out", *(s.split for s in SEALED_SETS.values()), "all"):
            pairs = [(c, r) for c, r in zip(cases, run.results) if split in ("all", c.split)]
            if not pairs:
                continue
            found = sum(answered(c, r) for c, r in pairs)
            listed = [(c, r) for c, r in pairs if c.near_misses]
            shown = sum(offers_near_miss(c, r) for c, r in listed)
            print(
                f"{run.name:<40} {split:<13} {found:>4}/{len(pairs):<4} = {found / len(pairs):5.0%} "
                f"{f'{shown}/{len(listed)}':>12} "
                f"{mean(len(r.calls) for _, r in pairs):>8.2f} {mean(r.seconds for _, r in pairs):>6.2f} "
                f"|           {computed_cells(pairs)}"
            )
    print(
        "\nthe reading held to the gold intent (kg_real.INTENTS, each sealed set's intents), right of all: "
        "relation (by "
        "the routes and fields it declares), operation, time kind, tense"
    )
    for run, cases in runs:
        if run.name.startswith("unbudgeted"):
            continue  # the same reading as ours
        for label, group in (
            ("all", lambda c: "all"),
            ("split", lambda c: c.split),
            ("domain", lambda c: c.domain),
        ):
            values = sorted({group(c) for c in cases})
            for value in values:
                pairs = [
                    (c, r) for c, r in zip(cases, run.results) if group(c) == value and c.key in GOLD_INTENTS
                ]
                if not pairs:
                    continue
                scores = [intent_scores(c, r) for c, r in pairs]
                cells = "  ".join(
                    f"{aspect} {sum(s[aspect] for s in scores):>3}/{len(scores):<3}"
                    for aspect in ("relation", "operation", "time", "tense")
                )
                print(f"  {run.name:<40} {value:<13} {cells}")
    for label, group in (("domain", lambda c: c.domain), ("question type", lambda c: c.question_type)):
        print(f"\nanswer facts found by {label}:")
        for run, cases in runs:
            values = sorted({group(c) for c in cases})
            cells = []
            for value in values:
                pairs = [(c, r) for c, r in zip(cases, run.results) if group(c) == value]
                cells.append(f"{value} {sum(answered(c, r) for c, r in pairs)}/{len(pairs)}")
            print(f"  {run.name:<40} " + ", ".join(cells))
    if not show_misses:
        return
    for run, cases in runs:
        misses = [(c, r) for c, r in zip(cases, run.results) if not answered(c, r) or offers_near_miss(c, r)]
        print(f"\nmisses and near misses of {run.name} ({len(misses)}):")
        for case, result in misses:
            evidence = "\n".join(result.references)
            wanted = [[span for span in spans if not states(evidence, span)] for spans in case.alternatives]
            near = [span for span in case.near_misses if states(evidence, span)]
            print(
                f"- {case.key} [{case.split}, {case.domain}, {case.question_type}] "
                f"{case.query!r} at {case.query_time}: "
                + ("found" if answered(case, result) else f"missing {min(wanted, key=len)[:8]}")
                + (f"; near misses shown {near}" if near else "")
            )
            print(
                f"  has_evidence {result.has_evidence} | error {result.error} | events "
                f"{'; '.join(map(str, result.events))}"
            )
            print(f"  calls: {result.calls}")
            print("  " + "\n  ".join((evidence or "(no references)").splitlines()[:10]))


def previous_plan(
    commit: str, api_url: str, cases: list[Case], preset: str, batch_size: int, read: bool = False
) -> Run:
    """The KG stage of `commit` on `cases` (scripted entities, or with `read` the same names as the
    reader's replies), run by benchmarks/kg_reference.py in a process of its own from that commit's
    `models/` and `prompts/`."""
    with tempfile.TemporaryDirectory() as folder:
        tree, archive = Path(folder) / "tree", Path(folder) / "tree.tar"
        subprocess.run(
            ["git", "archive", "--output", str(archive), commit, "models", "prompts"],
            cwd=REPO_ROOT,
            check=True,
        )
        with tarfile.open(archive) as tar:
            tar.extractall(tree, filter="data")
        rows = [
            {
                "query": c.query,
                "query_time": c.query_time,
                "domain": c.domain,
                "entities": vars(c.entities),
                "reply": reader_reply(c.entities),
            }
            for c in cases
        ]
        (Path(folder) / "cases.json").write_text(json.dumps(rows), encoding="utf-8")
        out = Path(folder) / "out.json"
        subprocess.run(
            [
                sys.executable,
                str(REPO_ROOT / "benchmarks" / "kg_reference.py"),
                str(tree),
                api_url,
                str(Path(folder) / "cases.json"),
                str(out),
                "--preset",
                preset,
                "--batch-size",
                str(batch_size),
                *(["--read"] if read else []),
            ],
            check=True,
        )
        answer = json.loads(out.read_text(encoding="utf-8"))
    results = [
        KGResult(
            references=r["references"],
            calls=r["calls"],
            has_evidence=r["has_evidence"],
            failed_calls=r["failed_calls"],
        )
        for r in answer["results"]
    ]
    return Run(
        f"previous plan ({commit}), {'entities read' if read else 'scripted'}",
        results,
        answer["batch_seconds"],
    )


@dataclass
class SystemRun:
    name: str
    answers: list[str]
    routes: list[str]
    seconds: float


def verdict(case: Case, answer: str) -> str:
    if is_refusal(answer):
        return "refused"
    return "correct" if check_answer(answer, case.gold, question=case.query) is Verdict.CORRECT else "wrong"


def run_system(name: str, config: CragConfig, api_url: str, cases: list[Case], batch_size: int) -> SystemRun:
    from models.crag_system import CragSystem

    os.environ[config.kg.api_url_env] = api_url
    logger.info(f"{name}: building the system ({config.kg.api_url_env}={api_url})")
    system = CragSystem(config)
    answers: list[str] = []
    routes: list[str] = []
    began = time.perf_counter()
    try:
        system.warm_up()
        for start in tqdm(range(0, len(cases), batch_size), desc=name, unit="batch"):
            batch = cases[start : start + batch_size]
            answers += system.batch_generate_answer(
                {
                    "interaction_id": [f"kg-system-{start + i}" for i in range(len(batch))],
                    "query": [c.query for c in batch],
                    "query_time": [c.query_time for c in batch],
                    "search_results": [[] for _ in batch],
                }
            )
            routes += [trace.route for trace in system.last_traces]
    finally:
        system.close()
    run = SystemRun(name, answers, routes, time.perf_counter() - began)
    counts = Counter(verdict(c, a) for c, a in zip(cases, answers))
    logger.info(
        f"{name}: {counts['correct']} correct, {counts['wrong']} wrong, {counts['refused']} "
        f"refused in {run.seconds:.0f} s"
    )
    return run


def system_report(runs: list[SystemRun], cases: list[Case]) -> None:
    domains = sorted({c.domain for c in cases})
    groups = [("all", cases)] + [(d, [c for c in cases if c.domain == d]) for d in domains]
    header = (
        f"{'setup':<22}"
        + "".join(f" | {f'{name} ({len(group)})':^18}" for name, group in groups)
        + f" | {'seconds':>7}"
    )
    print(header)
    print(f"{'':<22}" + " | correct wrong ref." * len(groups) + " |")
    print("-" * len(header))
    for run in runs:
        verdicts = {id(c): verdict(c, a) for c, a in zip(cases, run.answers)}
        cells = []
        for _, group in groups:
            counts = [sum(verdicts[id(c)] == v for c in group) for v in ("correct", "wrong", "refused")]
            cells.append(f" | {counts[0]:>7} {counts[1]:>5} {counts[2]:>4}")
        print(f"{run.name:<22}" + "".join(cells) + f" | {run.seconds:>7.0f}")
    by_name = {run.name: run for run in runs}
    old, new = by_name["old routing, KG down"], by_name["new routing, KG down"]
    differing = [i for i, (a, b) in enumerate(zip(old.answers, new.answers)) if a != b]
    print(
        "\nKG down, new routing vs old routing: "
        f"{'same answers' if not differing else f'{len(differing)} answers differ'} "
        f"on all {len(cases)} questions"
        + (f" (questions {', '.join(str(i + 1) for i in differing)})" if differing else "")
    )
    answerable = [c for c in cases if not is_refusal(c.gold)]
    for run in runs:
        right = sum(verdict(c, a) == "correct" for c, a in zip(cases, run.answers) if not is_refusal(c.gold))
        print(
            f"{run.name:<22} correct on the {len(answerable)} questions the KG can answer: {right} = "
            f"{right / max(len(answerable), 1):.0%}"
        )
    print("\nper question: gold answer, then per setup the verdict, the recorded route and the answer")
    for i, case in enumerate(cases):
        print(f"- [{case.domain}] {case.query!r} gold {case.gold!r}")
        for run in runs:
            print(
                f"    {run.name:<20} {verdict(case, run.answers[i]):<8} "
                f"{run.routes[i]:<40} {run.answers[i][:100]!r}"
            )


def run_system_benchmark(args: argparse.Namespace) -> None:
    dynamic = [
        c
        for c in load_cases(args.questions)
        if c.static_or_dynamic != "static" and c.domain in ("finance", "sports")
    ]
    limit = min(args.system_limit or len(dynamic), len(dynamic))
    cases = [dynamic[i * len(dynamic) // limit] for i in range(limit)]  # evenly spread, so every domain is in

    def config(overrides: dict[str, str]) -> CragConfig:
        built = load_config(args.preset, {**parse_overrides(args.set), **overrides})
        built.kg.company_dict_path = (
            "/nonexistent"  # the synthetic KG's companies are resolved through the API
        )
        return built

    print(
        f"{len(cases)} dynamic finance and sports questions from {args.questions}; whole system, preset "
        f"{args.preset}, batches of {args.batch_size}, no web pages; mock KG server with no delay\n"
    )
    nothing_listening = f"http://127.0.0.1:{free_port('127.0.0.1')}"
    old_routing = {"policy.kg_answers_dynamic": ""}
    old_down = run_system(
        "old routing, KG down", config(old_routing), nothing_listening, cases, args.batch_size
    )
    new_down = run_system("new routing, KG down", config({}), nothing_listening, cases, args.batch_size)
    with running_server(delay_s=0.0) as url:
        old_up = run_system("old routing, KG up", config(old_routing), url, cases, args.batch_size)
        new_up = run_system("new routing, KG up", config({}), url, cases, args.batch_size)
    system_report([old_down, new_down, old_up, new_up], cases)


class _RecordedReplies(LLMBackend):
    """The embedded model's entity replies, kept in `path` (JSON: a key of the conversation and the
    generation settings -> the reply): a reply on file is replayed, any other is generated by the
    model (loaded only then) and added. A changed prompt or schema makes new keys, so nothing stale
    is replayed; the replayed replies are the model's own, only their seconds are not."""

    name = "recorded"

    def __init__(self, config: CragConfig, path: Path | None):
        self.config, self.path = config, path
        self.replies: dict[str, str] = (
            json.loads(path.read_text(encoding="utf-8")) if path and path.is_file() else {}
        )
        self.replayed = self.generated = 0
        self._model: LLMBackend | None = None

    @staticmethod
    def key(conversation: list[dict[str, str]], params: GenerationParams) -> str:
        text = json.dumps(
            [conversation, params.max_tokens, params.json_schema, params.temperature], sort_keys=True
        )
        return hashlib.sha256(text.encode()).hexdigest()

    def generate(self, conversations, params):
        keys = [self.key(conversation, params) for conversation in conversations]
        missing = [i for i, key in enumerate(keys) if key not in self.replies]
        if missing:
            if self._model is None:
                from models.llm import create_backend

                self._model = create_backend(self.config.llm)
            for index, completion in zip(
                missing, self._model.generate([conversations[i] for i in missing], params)
            ):
                if completion.error is None:
                    self.replies[keys[index]] = completion.text
            if self.path:
                self.path.write_text(json.dumps(self.replies, indent=0), encoding="utf-8")
        self.generated += len(missing)
        self.replayed += len(keys) - len(missing)
        return [
            Completion(texts=[self.replies[key]])
            if key in self.replies
            else Completion(texts=[], error="the model failed")
            for key in keys
        ]

    def count_tokens(self, text: str) -> int:
        return len(text.split())

    def close(self) -> None:
        if self._model is not None:
            self._model.close()


class _NoLLM(LLMBackend):
    """Scripted entities need no model; any call to it is a bug of the benchmark."""

    name = "none"

    def generate(self, conversations, params):
        raise RuntimeError("the scripted-entity runs must not call the LLM")

    def count_tokens(self, text: str) -> int:
        return len(text.split())


if __name__ == "__main__":
    main()
