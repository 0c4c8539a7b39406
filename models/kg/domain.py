"""The interface of a KG domain (finance, movie, music, sports, open): its relation table and the three
steps the stage runs per question, each reading the question's Intent, never its wording."""

from __future__ import annotations

from typing import Protocol

from models.kg.answer import FactTable
from models.kg.relations import BY_NAME, Relation
from models.kg.routes import ApiCall
from models.kg.state import Evidence, PlanContext, QuestionState


class Domain(Protocol):
    name: str
    relations: tuple[Relation, ...]

    def applies(self, state: QuestionState) -> bool:
        """The question is about this domain: its predicted domain, or names of the kinds it looks up."""
        ...

    def settle_kinds(self, state: QuestionState) -> None:
        """A name the reader filed under two kinds of the domain keeps the kind the reading asks about."""
        ...

    def plan(self, state: QuestionState, context: PlanContext) -> list[ApiCall]:
        """The calls the picked relations still need, given what has come back so far."""
        ...

    def render(self, state: QuestionState, context: PlanContext) -> Evidence:
        """The facts of the picked relations as reference blocks."""
        ...

    def facts(self, state: QuestionState, context: PlanContext) -> FactTable | None:
        """The rows of the relation the question asks about, for the asked names and time (the
        computed answer's input); None when no relation picked answers it."""
        ...


def picked(state: QuestionState, domain: str, default: tuple[str, ...] = ()) -> list[Relation]:
    """The relations the reading picked in `domain`'s table, most specific first; `default` when none."""
    names = state.intent.picked(domain) if state.intent is not None else ()
    return [BY_NAME[name] for name in (names or default)]


def table_of(relation: Relation, facts: FactTable) -> FactTable:
    """`facts` labelled and typed by the relation they are of."""
    facts.relation = relation.name
    facts.value = relation.value
    facts.unit = facts.unit or relation.unit
    facts.rows = relation.rows
    facts.leaves = relation.leaves
    return facts
