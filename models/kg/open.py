"""Open domain: an entity by the search route, then its record under the spelling the search returned
(the exact-key route is case-sensitive). Its one relation (models/kg/relations.py:OPEN) is a fact of
the record that the reading names; which fact is known only once the record is in.

Follow-up: a structured fact whose value names another entity is looked up in turn when the
question asks about it as "the <fact> of <entity>" ("when was the operator of X founded?": X's
operator, then that operator's record), and rendered with how it was reached.
"""

from __future__ import annotations

import re

from models import vocabulary
from models.kg.answer import Fact, FactTable
from models.kg.domain import Domain
from models.kg.formatting import cap, plain
from models.kg.relations import BY_NAME, OPEN
from models.kg.routes import ApiCall
from models.kg.state import Evidence, PlanContext, QuestionState

SEARCH = "open_search_entity_by_name"
MAX_NAME_WORDS = 6
_LETTER = re.compile(vocabulary.LETTER)
_DIGIT = re.compile(vocabulary.DIGIT)


def _spellings(
    state: QuestionState, names: list[str], context: PlanContext
) -> tuple[dict[str, str], list[ApiCall]]:
    found, needed = {}, []
    for name in names:
        searched, spelling = state.spelling(SEARCH, name, context.config.min_name_similarity)
        if not searched:
            needed.append(ApiCall(SEARCH, {"query": name}))
        elif spelling:
            found[name] = spelling
    return found, needed


def _entity(state: QuestionState, spelling: str) -> dict | None:
    answered, entity = state.answer("open_get_entity", query=spelling)
    return entity if answered and isinstance(entity, dict) else None


def _followups(state: QuestionState, context: PlanContext) -> list[tuple[str, str, str]]:
    """(entity, fact, value) for a fact the reading names ("the operator of X", "the organisation
    that operates X", "where X has its headquarters") whose value reads as a name (letters, a few
    words, no digits), when the question asks something more about it ("when was the operator of X
    founded?", not "who is the operator of X?")."""
    found, _ = _spellings(state, state.entities.entities, context)
    followups = []
    for spelling in found.values():
        facts = (_entity(state, spelling) or {}).get("summary_structured")
        for key, value in facts.items() if isinstance(facts, dict) else []:
            if not isinstance(value, str) or not _LETTER.search(value) or _DIGIT.search(value):
                continue
            named = state.reading.names_fact(str(key))
            if named and len(value.split()) <= MAX_NAME_WORDS and state.reading.asks_beyond(named[0]):
                followups.append((spelling, str(key), value))
    return followups


def plan(state: QuestionState, context: PlanContext) -> list[ApiCall]:
    found, needed = _spellings(state, state.entities.entities, context)
    calls = needed + [ApiCall("open_get_entity", {"query": spelling}) for spelling in found.values()]
    followed, searches = _spellings(state, [value for _, _, value in _followups(state, context)], context)
    return (
        calls + searches + [ApiCall("open_get_entity", {"query": spelling}) for spelling in followed.values()]
    )


def render(state: QuestionState, context: PlanContext) -> Evidence:
    config = context.config
    evidence = Evidence()
    found, _ = _spellings(state, state.entities.entities, context)
    for name in state.entities.entities:
        if name not in found:
            if state.absent(SEARCH, name, config.min_name_similarity):
                evidence.miss(name, f"No entity named {name!r} in the open-domain KG")
            continue
        evidence.add("\n".join(_lines(state, found[name], context)))
    for entity, key, value in _followups(state, context):
        followed, _ = _spellings(state, [value], context)
        lines = _lines(state, followed[value], context) if value in followed else []
        if lines:
            evidence.add(
                "\n".join([f"{value}, the {key.replace('_', ' ')} of {entity}; its KG record:", *lines])
            )
    return evidence


def _lines(state: QuestionState, spelling: str, context: PlanContext) -> list[str]:
    config = context.config
    entity = _entity(state, spelling)
    if entity is None:
        return []
    lines = []
    if entity.get("summary_text"):
        # half the block at most, so that the structured facts after it survive the cap
        lines.append(f"{spelling}: {cap(str(entity['summary_text']), config.max_reference_chars // 2)}")
    structured = entity.get("summary_structured")
    if isinstance(structured, dict):
        lines += [
            f"{spelling} / {k}: {plain(v, config)}"
            for k, v in list(structured.items())[: config.max_list_items * 2]
        ]
    return lines


def facts(state: QuestionState, context: PlanContext) -> FactTable | None:
    """The one structured fact of each named entity that the reading names ("the population of X"),
    when the question follows no fact to another entity."""
    if _followups(state, context):
        return None
    found, _ = _spellings(state, state.entities.entities, context)
    rows, keys = [], set()
    for spelling in found.values():
        structured = (_entity(state, spelling) or {}).get("summary_structured")
        if not isinstance(structured, dict):
            continue
        named = [key for key in structured if state.reading.names_fact(str(key))]
        if len(named) == 1 and isinstance(structured[named[0]], (str, int, float)):
            rows.append(Fact(spelling, str(structured[named[0]])))
            keys.add(str(named[0]).replace("_", " "))
    # the fact's kind is the record's own (a date, a place, a number): no declared kind to hold it to
    return FactTable(keys.pop(), rows, relation=BY_NAME["entity_fact"].name) if len(keys) == 1 else None


def applies(state: QuestionState) -> bool:
    return state.domain == "open" or bool(state.entities.entities)


OPEN_DOMAIN = Domain("open", OPEN, applies, plan, render, facts)
