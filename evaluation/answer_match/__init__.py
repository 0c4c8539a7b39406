"""The answer checker: does a prediction state a CRAG gold answer, the way the CRAG judge reads it?

`judge_answer(prediction, gold, alternatives, question=...)` returns a `Judgement`: one of four verdicts
and the name of the rule that decided it (`check_answer` returns the verdict alone):

- MISSING: the prediction contains "i don't know" (the leaderboard's rule, lower-cased);
- CORRECT or WRONG, when a rule decides;
- UNSURE, when none can: the caller asks an LLM judge (local_evaluation.py) or counts it as wrong.

It is never to call a wrong prediction correct: where it cannot know, it says unsure. A prediction is
correct when it agrees with the gold answer or an alternative, and wrong when it contradicts one of
them (they state one fact). Each side is read into the same typed values (reading.py: words, quantities
with unit, scale and sign, dates at their precision; entities.py: teams, countries and people by their
other names); the kind of gold answer (kinds.py: invalid question, yes/no, none, one value, a list, a
phrase, a sentence) picks the rules that compare them, in the order of the table in rules.py, each
documented beside its code, one module per kind of answer. A prediction that hedges ("probably",
"either ... or") or negates when the gold does not is at best unsure; one that declines ("not enough
information") is wrong, as the judge's rules say. `states(text, answer)` says whether a text contains
an answer (words in order, numbers as values, dates as dates).

benchmarks/answer_checker.py measures all of this on the CRAG gold answers and on hand-labelled
predictions; `python -m evaluation.answer_match` prints the rule table.
"""

from evaluation.answer_match.kinds import Kind, answer_kind
from evaluation.answer_match.reading import Date, Quantity, states, tokens, words
from evaluation.answer_match.rules import RULES, Rule, check_answer, judge_answer
from evaluation.answer_match.verdicts import Judgement, Verdict, is_refusal

__all__ = [
    "RULES",
    "Date",
    "Judgement",
    "Kind",
    "Quantity",
    "Rule",
    "Verdict",
    "answer_kind",
    "check_answer",
    "is_refusal",
    "judge_answer",
    "states",
    "tokens",
    "words",
]
