"""The third sealed KG set (issue 51, item 5): forty more validation questions, picked by the rule of
benchmarks/kg_sealed.py with the salt "sealed3:", among the questions that neither the real-wording set
nor the first or the second sealed set holds or walked past. Not a script: benchmarks/kg.py reads it
(`--real [--system] --sealed third`).

Do not read this file, its questions, their gold answers or kg_mock/sealed3_fixture_data.py while
changing the KG's rules; run the set once, when the work is done, and report that first run as it came.
"""

from __future__ import annotations

from benchmarks import kg_real
from benchmarks.kg_sealed import FIRST, SealedSet
from benchmarks.kg_sealed2 import SECOND

# Passed over: read before, in the files named.
ALREADY_READ = {
    **{
        key: "benchmarks/answer_checker_labels.jsonl"
        for key in (
            "90915ce8", "18a6b711", "1591ccda", "f43ab63b", "03e1923a", "41dea43b", "52559781", "61d2ecf4",
            "1cc0706a", "23009ac8", "19472e27", "c23bf331", "0b6abab4", "d485ada7", "d46aa330", "d55e6e15",
            "e6b1f088", "1d04919f",
        )
    },
    "c79be8a4": "benchmarks/answer_checker_labels.jsonl, tests/test_answer_match_rules.py",
    "1ddf2c5d": "benchmarks/answer_checker_labels.jsonl, tests/test_answer_match.py",
}  # fmt: skip

# Skipped: no route of the question's domain could answer it.
SKIPPED = {
    "4aaae29d": "Olympic medals: the KG holds no Olympic games, so no fact shows the premise false",
    "d98c1ad5": "what a hedge fund is: a definition, not a fact of a company's tables",
    "37f178f3": "what a net inflow is: a definition, not a fact of a company's tables",
    "546101ec": "what ROI is: a definition, not a fact of a company's tables",
    "6cab38d7": "the trading days of a week: a market's calendar, not a fact of a company's tables",
    "999a7f32": "a singer's partners: no route holds relationships",
    "e79bcc03": "Grand Slam titles: the KG holds no tennis",
    "61b1896c": "the Ballon d'Or: the soccer table holds games, not awards, so no fact shows the premise "
    "false",
    "7025d79d": "the car a character drove: plot facts are not in the movie records",
    "58c1d9cb": "a person's work on films' crews: person records list acting and directing only, and no "
    "route searches the crews by name",
    "b321cd5a": "a Roth 401(k) against a traditional one: a definition, not a fact of a company's tables",
    "cb7b187b": "Teen Choice nominations: the movie records hold Oscar awards only",
    "a1eca954": "WTA 500 titles: the KG holds no tennis",
    "36a8f12f": "which character is the robot: the cast lists characters, not what they are",
    "9af2d601": "a company's patents: no route holds patents",
    "e113e7ce": "a band's members in one era: the members table carries no dates of joining or leaving",
    "59c155d1": "the Seattle Seahawks' coach: the KG holds no American football",
    "820088ad": "the highest-grossing Disney film: the movie records name no studio, so no fact shows the "
    "premise false",
    "152ac37f": "a TV show's lead actor: the movie tables hold films, not TV shows",
    "14baa31f": "studio albums: the works carry no kind, so albums cannot be counted",
    "7a206a02": "NBA championships: no route holds titles, and the games table does not mark a final, so "
    "no fact shows the premise false",
    "0afea407": "weeks at number one on the UK chart: the chart route holds the Billboard Hot 100 only",
    "e6cacb39": "Grand Slam singles titles: the KG holds no tennis",
    "0534010a": "the best political film: an opinion, no route holds critics' rankings",
}

# Taken, in the selection's order.
TAKEN = [
    "3c255def", "f9df617d", "7b52aa2b", "904dffae", "8ecae91d", "6bbac7e1", "82d831a7", "435cc8d8",
    "17099348", "812a9e50", "63cfd6f2", "586c731c", "a374a29f", "c9c2b1c6", "89c96ad5", "4e20bfc3",
    "acd9c5bd", "61ad5e0f", "bb2a6c28", "87c11187", "78076e80", "a51ce1f2", "918ad702", "c963e0c1",
    "f8e5cef0", "d729f232", "34b85854", "27923312", "56f7ecd9", "18b80586", "e7cfa77d", "d5d46781",
    "da48e9e3", "086ab537", "b6690015", "4abea8a3", "132e5137", "e15efed8", "6ce84a94", "5b343369",
]  # fmt: skip

THIRD = SealedSet(
    "third",
    "sealed3:",
    frozenset(question.key for question in kg_real.QUESTIONS) | FIRST.walked() | SECOND.walked(),
    TAKEN,
    SKIPPED,
    ALREADY_READ,
    [],
    {},
    # the checker's next batch (8), written after this walk read the repo, keeps off the set
    labels_after_selection=8,
)
