"""Open domain: an entity by the search route, then its record under the spelling the search returned
(the exact-key route is case-sensitive).

Follow-up: a structured fact whose value names another entity is looked up in turn when the
question asks about it as "the <fact> of <entity>" ("when was the operator of X founded?": X's
operator, then that operator's record), and rendered with how it was reached.
"""

from __future__ import annotations

import re

from models.kg.formatting import cap, plain
from models.kg.answer import Fact, FactTable
from models.kg.routes import ApiCall
from models.kg.state import Evidence, PlanContext, QuestionState

SEARCH = "open_search_entity_by_name"
STEM = 6  # letters of a word compared: "headquartered" asks for "headquarters"
MAX_NAME_WORDS = 6
# "which country is X in?": a fact word right after these names the kind of the answer, not a fact to follow.
ASKS_THE_KIND = {"which", "what", "whose"}
# Words that ask for nothing by themselves: what is left of "who is the director of X?" without them.
QUESTION_WORDS = {"who", "whom", "what", "which", "is", "was", "are", "were", "the", "a", "an", "of", "s", "does", "did", "do",
                  "name", "tell", "me", "called", "currently", "now", "that", "its", "it", "by", "for", "in", "has", "have"}


def applies(state: QuestionState) -> bool:
    return state.domain == "open" or bool(state.entities.entities)


def _spellings(state: QuestionState, names: list[str], context: PlanContext) -> tuple[dict[str, str], list[ApiCall]]:
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


def _stems(text: str) -> set[str]:
    return {word[:STEM] for word in re.findall(r"[a-z]+", text.lower()) if len(word) > 3}


# Words that name a common relation without sharing a stem with its key ("the mountain X stands on":
# its location), by a stem of the key.
RELATION_WORDS = {
    "locati": r"\b(?:located|stands?|sits?|situated|lies|built (?:on|in))\b",
    "headqu": r"\b(?:based|head office|hq)\b",
    "operat": r"\b(?:runs?|manag(?:es|ed))\b",
    "owner": r"\b(?:owns?|owned)\b",
    "founde": r"\b(?:founded by|set up by|established by)\b",
}


def _naming(words: list[re.Match], wording: str, key: str) -> list[re.Match]:
    """The words of the question that name the fact `key`: a shared stem, or a word of RELATION_WORDS;
    not right after "which" or "what", where the word names the kind of the answer ("which country")."""
    stems = _stems(key.replace("_", " "))
    named = [w for position, w in enumerate(words) if _stems(w.group()) & stems
             and not (position and words[position - 1].group() in ASKS_THE_KIND)]
    for stem, pattern in RELATION_WORDS.items():
        if stem[:STEM] in stems:
            named += list(re.finditer(pattern, wording))
    return named


def _followups(state: QuestionState, context: PlanContext) -> list[tuple[str, str, str]]:
    """(entity, fact, value) for a fact the question names ("the operator of X", "the organisation
    that operates X", "where X has its headquarters") whose value reads as a name (letters, a few
    words, no digits), when the question asks something more about it ("when was the operator of X
    founded?", not "who is the operator of X?")."""
    words = list(re.finditer(r"[a-z]+", state.wording))
    found, _ = _spellings(state, state.entities.entities, context)
    followups = []
    for spelling in found.values():
        facts = (_entity(state, spelling) or {}).get("summary_structured")
        for key, value in facts.items() if isinstance(facts, dict) else []:
            if not isinstance(value, str) or not re.search(r"[A-Za-z]", value) or re.search(r"\d", value):
                continue
            named = _naming(words, state.wording, str(key))
            if named and len(value.split()) <= MAX_NAME_WORDS and _asks_more(state.wording, named[0]):
                followups.append((spelling, str(key), value))
    return followups


def _asks_more(wording: str, word: re.Match) -> bool:
    rest = wording[: word.start()] + wording[word.end() :]
    return bool(set(re.findall(r"[a-z]+", rest)) - QUESTION_WORDS)


def plan(state: QuestionState, context: PlanContext) -> list[ApiCall]:
    found, needed = _spellings(state, state.entities.entities, context)
    calls = needed + [ApiCall("open_get_entity", {"query": spelling}) for spelling in found.values()]
    followed, searches = _spellings(state, [value for _, _, value in _followups(state, context)], context)
    return calls + searches + [ApiCall("open_get_entity", {"query": spelling}) for spelling in followed.values()]


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
            evidence.add("\n".join([f"{value}, the {key.replace('_', ' ')} of {entity}; its KG record:", *lines]))
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
        lines += [f"{spelling} / {k}: {plain(v, config)}" for k, v in list(structured.items())[: config.max_list_items * 2]]
    return lines


def asked_table(state: QuestionState, context: PlanContext) -> FactTable | None:
    """The one structured fact of each named entity that the wording names ("the population of X"),
    when the question follows no fact to another entity."""
    if _followups(state, context):
        return None
    words = list(re.finditer(r"[a-z]+", state.wording))
    found, _ = _spellings(state, state.entities.entities, context)
    facts, keys = [], set()
    for spelling in found.values():
        structured = (_entity(state, spelling) or {}).get("summary_structured")
        if not isinstance(structured, dict):
            continue
        named = [key for key in structured if _naming(words, state.wording, str(key))]
        if len(named) == 1 and isinstance(structured[named[0]], (str, int, float)):
            facts.append(Fact(spelling, str(structured[named[0]])))
            keys.add(str(named[0]).replace("_", " "))
    return FactTable(keys.pop(), facts) if len(keys) == 1 else None
