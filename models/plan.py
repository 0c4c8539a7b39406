"""The plan: which optional stages each question runs, decided by a cheap rule (no LLM call).

    calculator  the wording asks for arithmetic or dates (average, total, difference, how old, ago,
                ...; or the question writes the numbers itself), for counting (how many, number of,
                maximum, ...), or compares two things (more, larger, -er than, "X or Y?") and the
                references shown to the calculator hold numbers to compare
    knowledge   a question that is likely static and whose references are weak: the best one scores
                below `weak_relevance`, or there is none
    kg          a likely-dynamic question waiting for the KG's facts; else the domain is one the KG
                serves (`kg_domains`) and the question does not ask for a definition or an
                explanation

The words stand for CRAG's question types (post-processing, aggregation, comparison), not for
particular questions; `benchmarks/plan.py` measures the calculator rule against
the types of the 1,371 validation questions. Every word list and threshold is in `PlanConfig` (its
word lists default to models/vocabulary.py's). Each
decision carries the signal behind it, recorded in the trace and counted in the report.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from models.calculator import numbers_in
from models.config import PlanConfig
from models.schema import Evidence, QuestionAttributes, QuestionPlan
from models.vocabulary import NUMERIC_DATE, WRITTEN_NUMBER, YEAR, word_pattern

_DATE = re.compile(NUMERIC_DATE)
_YEAR = re.compile(YEAR)
_NUMBER = re.compile(WRITTEN_NUMBER)


class Decision(NamedTuple):
    run: bool
    signal: str  # "<stage>: <why>" or "<stage> skipped: <why>"


class Cues(NamedTuple):
    """What the question's wording asks for (each the matched words, or "")."""

    arithmetic: str
    counting: str
    comparison: str
    numbers: int  # numbers the question writes, years and dates aside
    generic: str


class Planner:
    def __init__(self, config: PlanConfig):
        if config.calculator_reference_chars is None:
            raise ValueError(
                "plan.calculator_reference_chars is derived when the configuration loads: use load_config"
            )
        self.config = config
        self.reference_chars = config.calculator_reference_chars
        self._arithmetic = word_pattern(config.arithmetic_words)
        self._counting = word_pattern(config.counting_words)
        self._comparison = word_pattern(config.comparison_words)
        self._generic = (
            re.compile(rf"^(?:{'|'.join(config.generic_openings)})(?!\w)")
            if config.generic_openings
            else None
        )

    def run(
        self,
        queries: list[str],
        attributes: list[QuestionAttributes | None],
        evidence: list[Evidence],
        waiting_for_kg: list[bool],
    ) -> list[QuestionPlan]:
        """The plan of each question once its evidence is retrieved; a likely-dynamic question
        waiting for the KG's facts (`waiting_for_kg`) was asked the KG whatever its wording."""
        if not self.config.enabled:
            return [QuestionPlan(signals=["plan off"]) for _ in queries]
        plans = []
        for query, attribute, item, waiting in zip(queries, attributes, evidence, waiting_for_kg):
            kg = self.kg(query, attribute, waiting)
            calculator = self.calculator(query, item.references)
            knowledge = self.knowledge(attribute, item)
            plans.append(
                QuestionPlan(
                    kg.run, calculator.run, knowledge.run, [kg.signal, calculator.signal, knowledge.signal]
                )
            )
        return plans

    def cues(self, query: str) -> Cues:
        text = " ".join(query.lower().split())
        numbers = [n for n in _NUMBER.findall(_DATE.sub(" ", text)) if not _YEAR.fullmatch(n)]
        return Cues(
            _found(self._arithmetic, text),
            _found(self._counting, text),
            _found(self._comparison, text),
            len(numbers),
            _found(self._generic, text),
        )

    def kg(self, query: str, attributes: QuestionAttributes | None, waiting: bool = False) -> Decision:
        if not self.config.enabled:
            return Decision(True, "plan off")
        if waiting:
            return Decision(True, "kg: likely dynamic, waits for the KG's facts")
        domain = attributes.domain if attributes is not None else "open"
        if domain not in self.config.kg_domains:
            return Decision(False, f"kg skipped: domain {domain} not in plan.kg_domains")
        generic = self.cues(query).generic
        if generic:
            return Decision(False, f"kg skipped: asks for a definition or explanation ({generic!r})")
        return Decision(True, f"kg: a {domain} question")

    def calculator(self, query: str, references: list[str]) -> Decision:
        if not self.config.enabled:
            return Decision(True, "plan off")
        cues = self.cues(query)
        if cues.arithmetic:
            return Decision(True, f"calculator: arithmetic ({cues.arithmetic!r})")
        if cues.counting:
            return Decision(True, f"calculator: counting ({cues.counting!r})")
        if cues.numbers >= self.config.question_numbers:
            return Decision(True, f"calculator: the question writes {cues.numbers} numbers")
        if not cues.comparison:
            return Decision(False, "calculator skipped: no arithmetic, counting or comparison asked")
        shown = "\n\n".join(references)[: self.reference_chars]
        values = len(numbers_in(shown) - numbers_in(query))
        if values >= self.config.comparison_reference_numbers:
            return Decision(
                True, f"calculator: comparison ({cues.comparison!r}), {values} numbers in the references"
            )
        return Decision(
            False, f"calculator skipped: comparison ({cues.comparison!r}), {values} numbers in the references"
        )

    def knowledge(self, attributes: QuestionAttributes | None, evidence: Evidence) -> Decision:
        if not self.config.enabled:
            return Decision(True, "plan off")
        dynamic = attributes.dynamic_probability if attributes is not None else 0.0
        if dynamic > self.config.knowledge_max_dynamic_probability:
            return Decision(False, f"knowledge skipped: likely dynamic (P={dynamic:.2f})")
        if not evidence.references:
            return Decision(True, "knowledge: no references")
        relevance = evidence.top_relevance
        if relevance is None or relevance < self.config.weak_relevance:
            shown = "unscored" if relevance is None else f"{relevance:.2f}"
            return Decision(True, f"knowledge: weak references (best {shown})")
        return Decision(False, f"knowledge skipped: strong references (best {relevance:.2f})")


def signal_kind(signal: str) -> str:
    """A signal without its details, for counting: "calculator: counting ('how many')" ->
    "calculator: counting"."""
    return re.sub(r"\s*\(.*$|,.*$", "", signal)


def _found(pattern: re.Pattern[str] | None, text: str, shown_chars: int = 40) -> str:
    """The matched words, cut for the signal (a choice pattern matches most of the question)."""
    match = pattern.search(text) if pattern is not None else None
    if not match:
        return ""
    words = match.group(0)
    return words if len(words) <= shown_chars else words[: shown_chars - 1] + "…"
