"""The interface of a KG domain (finance, movie, music, sports, open): its relation table and the three
steps the stage runs per question, each reading the question's Intent, never its wording."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from models.kg.answer import FactTable
from models.kg.relations import BY_NAME, Relation
from models.kg.routes import ApiCall
from models.kg.state import Evidence, PlanContext, QuestionState


@dataclass(frozen=True)
class Domain:
    """A domain's relation table and the steps the stage runs with it, each a function of its module
    (models/kg/<name>.py ends with its `DOMAIN`)."""

    name: str
    relations: tuple[Relation, ...]
    # The question is about this domain: its predicted domain, or names of the kinds it looks up.
    applies: Callable[[QuestionState], bool]
    # The calls the picked relations still need, given what has come back so far.
    plan: Callable[[QuestionState, PlanContext], list[ApiCall]]
    # The facts of the picked relations as reference blocks.
    render: Callable[[QuestionState, PlanContext], Evidence]
    # The rows of the relation the question asks about, for the asked names and time (the computed
    # answer's input); None when no relation picked answers it.
    facts: Callable[[QuestionState, PlanContext], FactTable | None]
    # A name the reader filed under two kinds of the domain keeps the kind the reading asks about
    # (by default nothing to settle: the domain has one kind of name, or looks its kinds up in turn).
    settle_kinds: Callable[[QuestionState], None] = lambda state: None


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
