"""Relations a question asks for, read from its wording as vocabularies (attribute -> words), shared by
the domain planners and renderers: which fields of a record to show, which follow-up lookups a
relation needs, whether a comparison needs both sides. Patterns are matched on the lower-cased
question; they name relations, never particular entities."""

from __future__ import annotations

import re

# Changes over time: both sides of the comparison are needed (this week and last week, ...).
CHANGE = re.compile(
    r"\b(?:drop(?:s|ped)?|climb(?:s|ed)?|mov(?:e|es|ed) (?:up|down)|f[ae]ll(?:s|en)?|ris(?:e|es|en)|rose|jump(?:s|ed)?|"
    r"slip(?:s|ped)?|slid(?:e|es|ing)?|tumbl(?:e|es|ed)|plung(?:e|es|ed)|s[aiu]nk|sinks|soar(?:s|ed)?|surg(?:e|es|ed)|"
    r"leap(?:s|t|ed)?|dip(?:s|ped)?|gain(?:s|ed)?|los[et]|improv(?:e|es|ed)|declin(?:e|es|ed)|chang(?:e|es|ed)|"
    r"since last week|compared (?:to|with) last week|up or down|higher or lower|lower or higher|how far|"
    r"how many (?:places|spots|positions))\b"
)
# Comparisons and aggregations over several operands: each operand gets its calls (stage.question_cap).
COMPARE = re.compile(
    r"\b(?:compare[sd]?|more|less|fewer|higher|lower|larger|smaller|bigger|older|younger|earlier|later|first|"
    r"total|combined|sum|average|difference|between|both|each|all|which (?:one|of))\b"
)
# An award asked about with its nominees ("nominated for", "up for"); otherwise a question about an award
# ("won", "took", "crowned", "went to") asks about its winner.
NOMINEES = re.compile(r"\b(?:nominat\w*|nominees?|shortlisted|up for|contenders?|in the running)\b")


def asked(text: str, vocabulary: dict[str, str]) -> list[str]:
    """The keys of `vocabulary` (key -> regex) whose words the question uses, in vocabulary order."""
    return [key for key, pattern in vocabulary.items() if re.search(pattern, text)]
