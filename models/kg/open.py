"""Open domain: an entity by the search route, then its record under the spelling the search returned
(the exact-key route is case-sensitive)."""

from __future__ import annotations

from models.kg.formatting import cap, plain
from models.kg.routes import ApiCall
from models.kg.state import Evidence, PlanContext, QuestionState

SEARCH = "open_search_entity_by_name"


def applies(state: QuestionState) -> bool:
    return state.domain == "open" or bool(state.entities.entities)


def _spellings(state: QuestionState, context: PlanContext) -> tuple[dict[str, str], list[ApiCall]]:
    found, needed = {}, []
    for name in state.entities.entities:
        searched, spelling = state.spelling(SEARCH, name, context.config.min_name_similarity)
        if not searched:
            needed.append(ApiCall(SEARCH, {"query": name}))
        elif spelling:
            found[name] = spelling
    return found, needed


def plan(state: QuestionState, context: PlanContext) -> list[ApiCall]:
    found, needed = _spellings(state, context)
    return needed + [ApiCall("open_get_entity", {"query": spelling}) for spelling in found.values()]


def render(state: QuestionState, context: PlanContext) -> Evidence:
    config = context.config
    evidence = Evidence()
    found, _ = _spellings(state, context)
    for name in state.entities.entities:
        if name not in found:
            if state.absent(SEARCH, name, config.min_name_similarity):
                evidence.add(f"No entity named {name!r} in the open-domain KG", found=False)
            continue
        spelling = found[name]
        answered, entity = state.answer("open_get_entity", query=spelling)
        if not answered or not isinstance(entity, dict):
            continue
        lines = []
        if entity.get("summary_text"):
            # half the block at most, so that the structured facts after it survive the cap
            lines.append(f"{spelling}: {cap(str(entity['summary_text']), config.max_reference_chars // 2)}")
        structured = entity.get("summary_structured")
        if isinstance(structured, dict):
            lines += [f"{spelling} / {k}: {plain(v, config)}" for k, v in list(structured.items())[: config.max_list_items * 2]]
        evidence.add("\n".join(lines))
    return evidence
