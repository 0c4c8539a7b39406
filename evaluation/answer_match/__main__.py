"""Print the answer checker's rule table: `python -m evaluation.answer_match`."""

from evaluation.answer_match.rules import RULES

for number, rule in enumerate(RULES, 1):
    print(f"{number}. {rule.name}\n   " + rule.doc.replace("\n", "\n   ") + "\n")
