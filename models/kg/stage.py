"""The knowledge-graph stage: questions -> KG evidence, for the whole batch at once.

1. One LLM call for the batch reads the names each question asks about (JSON constrained by a
   schema); a name the question does not write is replaced by the question's own span most like it,
   and when the reader leaves the domain's kinds empty the question's own spans (quoted titles,
   capitalised runs, the options of "A or B", possessive owners) stand in, else, when its relation
   alone plans no call, its words as one fuzzy search; cheap rules add tickers, a chart rank and the
   sport. Callers that already know the
   entities (the benchmark's scripted ones) pass them and skip the LLM.
2. Rounds of API calls. Each domain module (finance, movie, music, sports, open) plans the calls its
   question needs from what has come back so far, names earlier answers returned included (an
   award's film, a Grammy winner, a chart entry's artist, an entity's operator) when the question's
   relation needs them; the scheduler dedupes identical calls across the batch, spends a call budget
   per question (more for a comparison of several names) and per batch (growing with the batch,
   capped by the seconds the caller has left; slow calls cost more, and only a few are allowed), and
   stops at the batch deadline. The official server answers one request at a time, so the budget,
   not the number of connections, bounds the stage's time.
3. Each domain renders its facts, the fields the question asks for and how a followed name was
   reached; `has_evidence` tells whether any of them is about the asked entity and time.

Without `CRAG_MOCK_API_URL` (Task 1) the stage returns empty results and calls nothing. Failures of
single API calls are recorded in the result; anything else raises to the orchestrator.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

from loguru import logger

from models.config import KGConfig
from models.kg.movie import MOVIE_DOMAIN
from models.kg.music import MUSIC_DOMAIN
from models.kg import sports
from models.kg.sports import SPORTS_DOMAIN
from models.kg.answer import ComputedAnswer, compute
from models.kg.client import CallResult, KGClient
from models.kg.entities import (
    KGEntities,
    add_rule_entities,
    entity_schema,
    fill_from_question,
    ground_in_question,
    parse_entities,
    refile_for_domain,
    search_question_words,
)
from models.kg.domain import Domain
from models.kg.finance import FINANCE_DOMAIN
from models.kg.formatting import cap
from models.embeddings import SentenceEncoder
from models.kg.intent import (
    OPERATIONS,
    Intent,
    IntentReader,
    ReadingSettings,
    RelationMatch,
    drop_relation_names,
)
from models.kg.meaning import RelationMeaning, shared_meaning
from models.kg.relations import BY_NAME, TABLES
from models.kg.open import OPEN_DOMAIN
from models.kg.matching import CompanyDirectory
from models.kg.routes import ApiCall
from models.kg.state import NAME_KINDS, Evidence, PlanContext, QuestionState
from models.llm.base import GenerationParams, LLMBackend
from models.prompts import PromptLibrary
from models.schema import Event, Question, QuestionAttributes, StageResult

SOURCES = ("kg", "web", "both")
CALLS_LEFT_OUT = "calls left out"
# The routes of the relations' facts, other than those that lead to names (a ticker, a hop's names)
FACT_ROUTES = frozenset(
    route
    for table in TABLES.values()
    for relation in table
    if not relation.yields and relation.name != "ticker"
    for route in relation.routes
)
WITHHELD = "computed answer withheld"
# A block cut shorter than this says too little to be worth its place.
MIN_BLOCK_CHARS = 80


RELATION_DOMAIN = {relation.name: domain for domain, table in TABLES.items() for relation in table}
RELATION_NAMES = tuple(RELATION_DOMAIN)
DOMAINS: dict[str, Domain] = {
    "finance": FINANCE_DOMAIN,
    "movie": MOVIE_DOMAIN,
    "music": MUSIC_DOMAIN,
    "sports": SPORTS_DOMAIN,
    "open": OPEN_DOMAIN,
}


@dataclass
class KGResult(StageResult):
    """`error`: API down, unreadable LLM reply, failed API calls; `events`: names the KG lacks, calls
    left out."""

    references: list[str] = field(
        default_factory=list
    )  # rendered evidence, capped per config; the computed answer first
    calls: list[str] = field(default_factory=list)  # "route(arguments)" of every API call answered for it
    has_evidence: bool = False  # the KG returned facts about the asked entity and time
    failed_calls: list[str] = field(default_factory=list)  # "route(arguments): error" per failed API call
    seconds: float = 0.0  # this question's share of the stage's wall time
    # The answer the facts decide, computed from the asked attribute's rows (models/kg/answer.py).
    computed: ComputedAnswer | None = None
    # The facts say that what the question assumes did not happen (no game that day, no trading that
    # day, the song not on that chart): the one evidence of a false premise the KG gives.
    contradicts: bool = False
    unmatched: list[str] = field(default_factory=list)  # asked names the KG has no record of
    # How the question was read (its relations, operation, time, form, how sure) and how alike the
    # weakest KG name matched for it is to the asked one (1 when exact, None when no name was matched).
    reading: Reading | None = None
    match: float | None = None


@dataclass(frozen=True)
class Reading:
    """The Intent of a question in short (models/kg/intent.py): the relations picked in its domain's
    table and how (cue words, meaning, the LLM), its operation, time kind and tense, the form its
    answer takes, and the confidence of the pick."""

    domain: str
    relations: tuple[str, ...]
    by: tuple[str, ...]
    operation: str
    time: str
    tense: str
    form: str
    confidence: float

    @classmethod
    def of(cls, intent: Intent, domain: str, answered_by: str = "") -> Reading:
        """The reading in `domain`, the relation the answer is of first (`answered_by`: the one whose
        rows the computed answer read, else the reading's own choice)."""
        picked = list(intent.relations.get(domain, ()))
        first = answered_by if answered_by in RELATION_DOMAIN else intent.answer_relation(domain)
        if first and first not in {m.name for m in picked}:
            picked.insert(
                0, RelationMatch(first, "default")
            )  # the domain's procedure chose it (the day's high)
        ordered = sorted(picked, key=lambda m: m.name != first)
        return cls(
            domain,
            tuple(m.name for m in ordered),
            tuple(m.by for m in ordered),
            intent.operation,
            intent.time.kind,
            intent.time.tense,
            intent.form,
            round(intent.confidence.get(domain, 0.0), 4),
        )


def sources_for(domain: str, config: KGConfig, dynamic: bool = False) -> str:
    """ "kg", "web" or "both": the evidence a question of `domain` should be answered from; for a
    likely-dynamic one answered from KG facts, `kg.dynamic_sources`."""
    if dynamic:
        source, setting = config.dynamic_sources, "kg.dynamic_sources"
    else:
        source, setting = config.domain_sources.get(domain, "both"), f"kg.domain_sources[{domain!r}]"
    if source not in SOURCES:
        raise ValueError(f"{setting} is {source!r}; use one of {', '.join(SOURCES)}")
    return source


def call_cost(call: ApiCall, config: KGConfig) -> int:
    """Budget units of a call: the slow ones (every team's games of a month or a year, play-by-play,
    the scan of all Grammy rows) cost `slow_call_cost`, the rest 1."""
    if call.route == sports.PLAY_BY_PLAY or call.route == "music_grammy_get_all_awarded_artists":
        return config.slow_call_cost
    if call.route in (sports.NBA_GAMES, sports.SOCCER_GAMES) and not call.body.get("team_name"):
        if str(call.body.get("date", "")).count("-") < 2:
            return config.slow_call_cost
    return 1


def budget(config: KGConfig, questions: int, seconds_available: float | None = None) -> tuple[float, int]:
    """(API seconds, call units) of a batch: both grow with the batch, never below one question's
    full allowance (`max_calls_per_question`), and the seconds the caller has left cap them (one call
    at a time at `seconds_per_call`)."""
    seconds = max(
        config.api_seconds_per_question * questions, config.max_calls_per_question * config.seconds_per_call
    )
    if seconds_available is not None:
        seconds = max(0.0, min(seconds, seconds_available))
    calls = min(
        max(config.calls_per_question * questions, config.max_calls_per_question),
        int(seconds / config.seconds_per_call),
    )
    return seconds, calls


def question_cap(state: QuestionState, config: KGConfig) -> int:
    """Call units one question may spend: `max_calls_per_question`, or for a comparison or an
    aggregation `calls_per_operand` for each name it compares, so that no operand is left out; and
    the allowance its planners asked for (the works it dates)."""
    if not state.reading.asks("operands"):
        return config.max_calls_per_question + state.allowance
    entities = state.entities
    operands = len(entities.tickers) + sum(len(getattr(entities, kind)) for kind in NAME_KINDS)
    return max(config.max_calls_per_question, config.calls_per_operand * operands) + state.allowance


def domains_of(state: QuestionState) -> list[Domain]:
    chosen = [DOMAINS[state.domain]] if state.domain in DOMAINS else []
    chosen += [domain for domain in DOMAINS.values() if domain not in chosen and domain.applies(state)]
    return chosen or [DOMAINS["open"]]


class KnowledgeGraphStage:
    def __init__(
        self,
        config: KGConfig,
        llm: LLMBackend,
        prompts: PromptLibrary,
        encoder: SentenceEncoder | None = None,
    ):
        """`encoder`: a sentence encoder to share, used when it is the one `kg.relation_encoder` names."""
        self.config = config
        self.llm = llm
        self.prompts = prompts
        self._directory: CompanyDirectory | None = None
        self.meaning: RelationMeaning | None = None
        if config.relation_encoder:
            self.meaning = shared_meaning(config.relation_encoder, config.relation_encoder_device, encoder)
        self.reader = IntentReader(
            ReadingSettings(
                season_start_months=(10, config.nba_season_start_month, config.soccer_season_start_month),
                min_meaning=config.min_relation_meaning,
                min_margin=config.min_relation_margin,
                veto_margin=config.relation_veto_margin,
            ),
            self.meaning,
        )

    @property
    def directory(self) -> CompanyDirectory:
        if self._directory is None:
            self._directory = CompanyDirectory(self.config.company_dict_path, self.config.min_name_similarity)
        return self._directory

    def warm_up(self) -> None:
        """Read the company table and embed the relations' descriptions now rather than in the first
        batch with KG questions."""
        logger.info(f"KG: {len(self.directory.tickers)} tickers in the company table")
        if self.meaning is not None:
            self.meaning.warm_up()

    def json_schemas(self) -> list[dict[str, Any]]:
        """The guided-decoding schema of the entity reading, for the LLM's warm-up."""
        return [self._schema()]

    def _schema(self) -> dict[str, Any]:
        """The entity reply's schema; with `kg.relation_reader` "llm" it names a relation and an
        operation too."""
        if self.config.relation_reader == "llm":
            return entity_schema(self.config.max_entities_per_kind, RELATION_NAMES, OPERATIONS)
        return entity_schema(self.config.max_entities_per_kind)

    def api_url(self) -> str | None:
        return os.environ.get(self.config.api_url_env, "").strip() or None

    def run(
        self,
        questions: list[Question],
        attributes: list[QuestionAttributes],
        entities: list[KGEntities] | None = None,
        seconds_available: float | None = None,
    ) -> list[KGResult]:
        """KG evidence per question; `entities`, when given, replace the LLM's reading of the questions;
        `seconds_available`, when given, caps the stage's time: the entity reading spends its share
        first (timed on the LLM's clock, which a simulated engine keeps), the API calls the rest."""
        started, started_on_llm_clock = time.perf_counter(), self.llm.clock()
        results = [KGResult() for _ in questions]
        base_url = self.api_url()
        if not self.config.enabled or base_url is None or not questions:
            return results
        states = {
            index: QuestionState(question.query, question.query_time, attributes[index].domain)
            for index, question in enumerate(questions)
            if sources_for(attributes[index].domain, self.config) != "web"
        }
        client = KGClient(base_url, self.config)
        try:
            if states and seconds_available is not None and seconds_available <= 0:
                for index in states:
                    results[index].error = "no time left for the KG API at the batch deadline"
            elif states and not client.is_up(seconds_available):
                for index in states:
                    results[index].error = f"KG API at {base_url} does not answer"
            elif states:
                context = PlanContext(self.config, self.directory)
                if entities is None:
                    self._read_entities(states, results, context)
                else:
                    for index, state in states.items():
                        state.entities = add_rule_entities(
                            entities[index], state.query, self.directory.tickers, state.domain
                        )
                    self._score_meaning(states)
                    for state in states.values():
                        self._read(state)
                # the seconds left once the entities are read (the LLM call above spent some of them)
                left = (
                    None
                    if seconds_available is None
                    else seconds_available - (self.llm.clock() - started_on_llm_clock)
                )
                seconds, calls = budget(self.config, len(questions), left)
                self._fetch(states, client, context, time.perf_counter() + seconds, calls)
                for index, state in states.items():
                    self._finish(state, results[index], context)
        finally:
            client.close()
        share = (time.perf_counter() - started) / len(questions)
        for result in results:
            result.seconds = share
        return results

    # 1. one LLM call for the batch
    def _read_entities(
        self, states: dict[int, QuestionState], results: list[KGResult], context: PlanContext
    ) -> None:
        named = self.config.relation_reader == "llm"
        template = "kg_entities_named" if named else "kg_entities"  # the named one also lists the relations
        conversations = [
            self.prompts.conversation(template, query=state.query, domain=state.domain)
            for state in states.values()
        ]
        params = GenerationParams(max_tokens=self.config.extraction_max_tokens, json_schema=self._schema())
        completions = self.llm.generate(conversations, params)
        for completion, (index, state) in zip(completions, states.items()):
            results[index].usage.add(completion)
            if completion.error:
                state.problems.append(f"LLM error: {completion.error}")
            entities, problem = parse_entities(
                completion.text,
                self.config.max_entities_per_kind,
                RELATION_NAMES if named else (),
                OPERATIONS if named else (),
            )
            state.named = {"relation": entities.relation, "operation": entities.operation} if named else {}
            if problem:
                state.problems.append(problem)
            entities, repairs = ground_in_question(entities, state.query)
            repairs += drop_relation_names(entities)
            entities = refile_for_domain(entities, state.domain)
            repairs += fill_from_question(
                entities, state.query, state.domain, self.config.max_entities_per_kind
            )
            state.events += repairs
            state.entities = add_rule_entities(entities, state.query, self.directory.tickers, state.domain)
            state.other_kind_on_miss = True
        self._score_meaning(states)
        for state in states.values():
            self._read(state)
            for domain in DOMAINS.values():
                domain.settle_kinds(state)
            if not self._wanted(state, context):
                state.events += search_question_words(state.entities, state.query, state.domain)
                self._read(state)

    def _score_meaning(self, states: dict[int, QuestionState]) -> None:
        """Each question against the relations' descriptions, the batch in one encoder call."""
        chosen = list(states.values())
        for state, scores in zip(
            chosen, self.reader.meaning_of([s.query for s in chosen], [s.entities for s in chosen])
        ):
            state.meaning = scores

    def _read(self, state: QuestionState) -> None:
        """The one reading of the question (read again only when the names it holds were repaired)."""
        state.intent = self.reader.read(
            state.query,
            state.query_time,
            state.domain,
            state.entities,
            reader=state.named,
            meaning=state.meaning,
        )

    # 2. rounds of scheduled API calls
    def _fetch(
        self,
        states: dict[int, QuestionState],
        client: KGClient,
        context: PlanContext,
        deadline: float,
        batch_calls: int,
    ) -> None:
        config = self.config
        spent = {index: 0 for index in states}
        batch_spent = slow_calls = 0
        made: dict[tuple[str, str], CallResult] = {}
        for _ in range(config.max_rounds):
            queues = {index: self._wanted(state, context) for index, state in states.items()}
            # the planners' allowances (works to date) on top, as far as the time left lets calls run
            extra = sum(state.allowance for state in states.values())
            room = int(max(0.0, deadline - time.perf_counter()) / config.seconds_per_call)
            batch_limit = max(batch_calls, min(batch_calls + extra, batch_spent + room))
            chosen: dict[tuple[str, str], tuple[ApiCall, list[int]]] = {}
            # a fair share of what is left per question and round, so that names resolved in this
            # round still find budget for their facts in the next
            wanting = sum(1 for queue in queues.values() if queue)
            share = max(1, (batch_limit - batch_spent) // max(wanting, 1))
            this_round = {index: 0 for index in states}
            reused = False
            while any(queues.values()):
                for index, queue in queues.items():
                    if not queue:
                        continue
                    call = queue.pop(0)
                    state = states[index]
                    if call.key in made:
                        state.issued.add(call.key)
                        state.record(made[call.key])
                        reused = True
                        continue
                    if call.key in chosen:
                        chosen[call.key][1].append(index)
                        state.issued.add(call.key)
                        continue
                    cost = call_cost(call, config)
                    slow = cost > 1
                    if (
                        spent[index] + cost > question_cap(state, config)
                        or batch_spent + cost > batch_limit
                        or (this_round[index] and this_round[index] + cost > share)
                        or (slow and slow_calls >= config.max_slow_calls_per_batch)
                    ):
                        continue  # over budget: asked for again next round, when shares are recomputed
                    this_round[index] += cost
                    spent[index] += cost
                    batch_spent += cost
                    slow_calls += slow
                    state.issued.add(call.key)
                    chosen[call.key] = (call, [index])
            if time.perf_counter() >= deadline:
                for call, indices in chosen.values():
                    for index in indices:
                        states[index].issued.discard(call.key)
                break
            if not chosen:
                if reused:
                    continue  # answers shared from other questions may let their planners go on
                break
            calls = [call for call, _ in chosen.values()]
            for (call, indices), outcome in zip(chosen.values(), client.call_many(calls, deadline)):
                made[call.key] = outcome
                for index in indices:
                    states[index].record(outcome)
            if client.unreachable:
                logger.warning(f"KG API at {client.base_url} is unreachable; continuing without KG evidence")
                break
        if not client.unreachable:
            for state in states.values():
                wanted = self._wanted(state, context)
                if wanted:
                    named = "; ".join(f"{c.route}({_arguments(c.body)})" for c in wanted)
                    state.events.append(
                        Event(
                            "degraded",
                            CALLS_LEFT_OUT,
                            f"{len(wanted)}, by the call budget or the batch deadline: {named}",
                        )
                    )

    @staticmethod
    def _wanted(state: QuestionState, context: PlanContext) -> list[ApiCall]:
        """The calls the question's planners still want, those of the relations its reading picked
        (and the names they need) before the facts of relations it did not: a tight budget leaves
        out the least relevant."""
        wanted: dict[tuple[str, str], ApiCall] = {}
        for module in domains_of(state):
            for call in module.plan(state, context):
                if call.key not in state.issued:
                    wanted.setdefault(call.key, call)
        reading = state.reading
        asked = {route for name in reading.picked(state.domain) for route in BY_NAME[name].routes}
        if not asked:
            return list(wanted.values())
        return sorted(wanted.values(), key=lambda call: call.route in FACT_ROUTES and call.route not in asked)

    # 3. rendering
    def _finish(self, state: QuestionState, result: KGResult, context: PlanContext) -> None:
        config = self.config
        evidence = Evidence()
        for module in domains_of(state):
            evidence.extend(module.render(state, context))
        limit = config.max_set_reference_chars if state.reading.asks_for_rows else config.max_reference_chars
        left = config.max_total_chars
        complete = not any(
            event.what == CALLS_LEFT_OUT for event in state.events
        )  # else a total would miss rows
        weak = {
            asked: found for asked, found in state.matched.items() if found[1] < config.min_confident_match
        }
        for asked, (spelling, score) in weak.items():
            evidence.blocks.insert(
                0,
                f"The KG's nearest record to the asked {asked!r} is {spelling!r} (name similarity "
                f"{score:.2f}): it may be another one",
            )
        table = None
        if evidence.found and complete:
            table = next((t for d in domains_of(state) if (t := d.facts(state, context))), None)
            computed = compute(table, state.reading)
            table_domain = (
                RELATION_DOMAIN.get(table.relation, state.domain) if table is not None else state.domain
            )
            if computed is not None and weak:
                state.events.append(
                    Event("routed", WITHHELD, f"a weak name match ({', '.join(map(repr, weak))})")
                )
            elif computed is not None and not state.reading.confident(
                table_domain, config.min_reading_confidence
            ):
                state.events.append(
                    Event(
                        "routed",
                        WITHHELD,
                        f"the reading is not sure of its relation "
                        f"({state.reading.confidence.get(table_domain, 0.0):.2f})",
                    )
                )
            else:
                result.computed = computed
        if result.computed is not None:
            result.references.append(result.computed.line())
            left -= len(result.references[0])
        for block in evidence.blocks[: config.max_references]:
            room = min(limit, left)
            if len(block) > room and room < MIN_BLOCK_CHARS:
                break
            block = cap(block, room)
            result.references.append(block)
            left -= len(block)
        result.has_evidence = evidence.found
        result.contradicts = evidence.contradicts
        result.unmatched = list(evidence.unmatched)
        result.reading = Reading.of(
            state.reading,
            state.domain if state.domain in state.reading.relations else "open",
            table.relation if table is not None else "",
        )
        result.match = min((score for _, score in state.matched.values()), default=None)
        result.calls = [f"{r.call.route}({_arguments(r.call.body)})" for r in state.results.values()]
        result.failed_calls = [
            f"{r.call.route}({_arguments(r.call.body)}): {r.error}"
            for r in state.results.values()
            if not r.ok
        ]
        if result.failed_calls:
            state.problems.append(
                f"{len(result.failed_calls)} KG call(s) failed, first: {result.failed_calls[0]}"
            )
        result.error = "; ".join(dict.fromkeys(state.problems)) or None
        result.events = list(dict.fromkeys(state.events))


def _arguments(body: dict) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in body.items())
