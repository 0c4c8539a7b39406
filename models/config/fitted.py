"""The files `python -m tools.fit` writes: the answer policy's options fitted to one model.

A fitted file (JSON) holds the values that replace the preset's (only those whose held-out gain was
clear of zero), the identity of the model they were fitted to (`LLMBackend.model_identity`, as the
reply cache keys on it), a hash of the labelled data, the date and the held-out figures.
`policy.fitted` names one; `load_config` applies its values last, and `python -m tools.validate`
checks that it was fitted to the preset's model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FORMAT = "crag-policy-fit/1"
# The options of `policy` a fit may set (the others are not fitted: `refuse_below` is the worth of a
# refusal, `knowledge_for_dynamic` changes the reasoning's prompt, which one run cannot observe).
FITTABLE = (
    "answer_worth",
    "kg_answers_dynamic",
    "knowledge_worth",
    "not_in_kg_refused",
    "computed_answer_final",
    "computed_answer_over_decline",
    "contradicted_premise_invalid",
    "false_premise_overruled",
    "premise_overruled_only_by_computed",
    "wrong_form",
    "late_worth",
)
REQUIRED = ("format", "model", "values", "data", "date", "held_out")


def read_fitted(path: str | Path) -> dict[str, Any]:
    """The fitted file at `path`, checked: its format, its fields, and values only of FITTABLE options."""
    source = Path(path)
    if not source.is_file():
        raise ValueError(
            f"policy.fitted names {source}, which does not exist: run `python -m tools.fit` to write it"
        )
    try:
        fitted = json.loads(source.read_text(encoding="utf-8"))
    except ValueError as error:
        raise ValueError(f"policy.fitted {source} is not JSON ({error})") from None
    if not isinstance(fitted, dict) or fitted.get("format") != FORMAT:
        raise ValueError(f"policy.fitted {source} is not a fitted file of format {FORMAT!r}")
    missing = [name for name in REQUIRED if name not in fitted]
    if missing:
        raise ValueError(f"policy.fitted {source} lacks {', '.join(missing)}")
    if not isinstance(fitted["values"], dict):
        raise ValueError(f"policy.fitted {source}: 'values' must be an object of options")
    unknown = sorted(set(fitted["values"]) - set(FITTABLE))
    if unknown:
        raise ValueError(
            f"policy.fitted {source} sets options a fit may not: {unknown}; fitted options: {list(FITTABLE)}"
        )
    return fitted
