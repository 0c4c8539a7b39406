"""The knowledge-graph stage: questions -> KG evidence lines, for the whole batch at once.

1. One LLM call for the batch reads each question: the names it asks about (rules selection) or the
   API calls it wants (LLM selection), as JSON constrained by a schema.
2. Rounds of concurrent API calls: resolve names, fetch the facts, follow ids, all questions together,
   bounded by `batch_deadline_s`.
3. Results rendered as compact, capped references.

Without `CRAG_MOCK_API_URL` (Task 1) the stage returns empty results and calls nothing.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from loguru import logger

from models.config import KGConfig
from models.kg.client import KGClient
from models.kg.entities import KGEntities, add_rule_entities, entity_schema, parse_entities, refile_for_domain
from models.kg.matching import CompanyDirectory
from models.kg.render import render_references
from models.kg.routes import route_catalog
from models.kg.selection import QuestionState, call_schema, parse_llm_calls, plan_by_rules, plan_llm_calls
from models.kg.timeparse import find_time_spans
from models.llm.base import GenerationParams, LLMBackend, TokenUsage
from models.prompts import PromptLibrary
from models.schema import Question, QuestionAttributes

SOURCES = ("kg", "web", "both")


@dataclass
class KGResult:
    references: list[str] = field(default_factory=list)  # rendered evidence, capped per config
    calls: list[str] = field(default_factory=list)  # "route(arguments)" of every API call made
    seconds: float = 0.0  # this question's share of the stage's wall time
    error: str | None = None
    usage: TokenUsage = field(default_factory=TokenUsage)


def sources_for(domain: str, config: KGConfig) -> str:
    """"kg", "web" or "both": the evidence a question of `domain` should be answered from."""
    source = config.domain_sources.get(domain, "both")
    if source not in SOURCES:
        raise ValueError(f"kg.domain_sources[{domain!r}] is {source!r}; use one of {', '.join(SOURCES)}")
    return source


class KnowledgeGraphStage:
    def __init__(self, config: KGConfig, llm: LLMBackend, prompts: PromptLibrary):
        self.config = config
        self.llm = llm
        self.prompts = prompts
        self._directory: CompanyDirectory | None = None

    @property
    def directory(self) -> CompanyDirectory:
        if self._directory is None:
            self._directory = CompanyDirectory(self.config.company_dict_path, self.config.min_name_similarity)
        return self._directory

    def api_url(self) -> str | None:
        return os.environ.get(self.config.api_url_env, "").strip() or None

    def run(self, questions: list[Question], attributes: list[QuestionAttributes]) -> list[KGResult]:
        started = time.perf_counter()
        results = [KGResult() for _ in questions]
        base_url = self.api_url()
        if not self.config.enabled or base_url is None or not questions:
            return results
        states = {
            index: QuestionState(question.query, question.query_time, attributes[index].domain)
            for index, question in enumerate(questions)
            if sources_for(attributes[index].domain, self.config) != "web"
        }
        if states:
            self._understand(states, results)
            client = KGClient(base_url, self.config)
            try:
                self._fetch(states, client)
            finally:
                client.close()
            for index, state in states.items():
                self._finish(state, results[index])
        share = (time.perf_counter() - started) / len(questions)
        for result in results:
            result.seconds = share
        return results

    # 1. one LLM call for the batch
    def _understand(self, states: dict[int, QuestionState], results: list[KGResult]) -> None:
        rules = self.config.selection == "rules"
        conversations = [self._conversation(state, rules) for state in states.values()]
        params = GenerationParams(
            max_tokens=self.config.extraction_max_tokens if rules else self.config.function_call_max_tokens,
            json_schema=entity_schema(self.config.max_entities_per_kind) if rules else call_schema(self.config.max_calls_per_round),
        )
        try:
            completions = self.llm.generate(conversations, params)
        except Exception as error:  # a failed LLM leaves the rules that need no model
            logger.exception("KG: the LLM call for entity extraction failed")
            completions = []
            for state in states.values():
                state.notes.append(f"LLM failed: {error}")
        for position, (index, state) in enumerate(states.items()):
            completion = completions[position] if position < len(completions) else None
            if completion is not None:
                results[index].usage.add(completion)
                if completion.error:
                    state.notes.append(f"LLM error: {completion.error}")
            text = completion.text if completion is not None else ""
            if rules:
                entities, problem = parse_entities(text, self.config.max_entities_per_kind) if text else (KGEntities(), None)
                entities = refile_for_domain(entities, state.domain)
                state.entities = add_rule_entities(entities, state.query, self.directory.tickers)
            else:
                state.llm_calls, problems = parse_llm_calls(text, self.config.max_calls_per_round)
                problem = "; ".join(problems) or None
            if problem:
                state.notes.append(problem)

    def _conversation(self, state: QuestionState, rules: bool):
        if rules:
            return self.prompts.conversation("kg_entities", query=state.query, domain=state.domain)
        spans = find_time_spans(state.query, state.query_time, self.config.nba_season_start_month)
        dates = "; ".join(f'"{s.phrase}" = {s.label}' for s in spans) or "none named"
        return self.prompts.conversation(
            "kg_calls",
            query=state.query,
            query_time=state.query_time,
            dates=dates,
            routes=route_catalog(state.domain),
            max_calls=self.config.max_calls_per_round,
        )

    # 2. rounds of concurrent API calls
    def _fetch(self, states: dict[int, QuestionState], client: KGClient) -> None:
        planner = plan_by_rules if self.config.selection == "rules" else plan_llm_calls
        deadline = time.perf_counter() + self.config.batch_deadline_s
        for _ in range(self.config.max_rounds):
            batch = []
            for index, state in states.items():
                try:
                    batch += [(index, call) for call in planner(state, self.directory, self.config)]
                except Exception as error:  # one question's planning bug never costs the others
                    logger.exception(f"KG: planning failed for {state.query!r}")
                    state.notes.append(f"planning failed: {error}")
            if not batch or time.perf_counter() >= deadline:
                break
            for (index, _), outcome in zip(batch, client.call_many([call for _, call in batch], deadline)):
                states[index].results.append(outcome)
            if client.unreachable:
                logger.warning(f"KG API at {client.base_url} is unreachable; continuing without KG evidence")
                break

    # 3. rendering
    def _finish(self, state: QuestionState, result: KGResult) -> None:
        result.calls = [f"{r.call.route}({_arguments(r.call.body)})" for r in state.results]
        try:
            result.references = render_references(state, self.config)
        except Exception as error:
            logger.exception(f"KG: rendering failed for {state.query!r}")
            state.notes.append(f"rendering failed: {error}")
        failures = [r.error for r in state.results if r.error]
        if failures and len(failures) == len(state.results):
            state.notes.append(f"every KG call failed: {failures[0]}")
        result.error = "; ".join(state.notes) or None


def _arguments(body: dict) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in body.items())
