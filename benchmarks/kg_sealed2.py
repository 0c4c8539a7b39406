"""The second sealed KG set (issue 51, item 5): forty more validation questions, picked by the rule of
benchmarks/kg_sealed.py with the salt "sealed2:", among the questions that neither the real-wording set
nor the first sealed set holds or walked past. Not a script: benchmarks/kg.py reads it
(`--real [--system] --sealed second`).

Do not read this file, its questions, their gold answers or kg_mock/sealed2_fixture_data.py while
changing the KG's rules; run the set once, when the work is done, and report that first run as it came.
"""

from __future__ import annotations

from benchmarks import kg_real
from benchmarks.kg_sealed import FIRST, SealedSet

# Passed over: read before, in the files named.
ALREADY_READ = {
    **{
        key: "benchmarks/answer_checker_labels.jsonl"
        for key in (
            "5154cd2b", "277d18d2", "d1ccf4bf", "26c71ab4", "47b81d91", "287ce116", "27231a13", "adea74b3",
            "7c640e7c", "6ed2f16e", "08ba2a01", "303700dd", "d28ca5b4", "a5b6a767", "e3331f43", "0f111bd6",
            "83ca6ad3", "e9e45c2a", "e07ba7d2", "6c3635ed", "d94f14d1",
        )
    },
    "b4db3f46": "benchmarks/answer_checker_labels.jsonl, tests/test_answer_match.py",
}  # fmt: skip

# Skipped: no route of the question's domain could answer it.
SKIPPED = {
    "1bfdd090": "a private company's investors: no route holds investors, and the company has no ticker",
    "0166b46f": "NBA championships: no route holds titles, and the games table does not mark a final",
    "157856a2": "a band's change of name: no route holds former names, so no fact shows the premise false",
    "b2424587": "Formula 1 championships: the KG holds no motor racing",
    "e042412e": "the first actress in a kind of role: the cast lists characters' names, not kinds of role",
    "86b97205": "Nasdaq-100 membership and gross margins: no route lists an index's members",
    "a7826efe": "the band of an album: no route goes from a work to its artist",
    "f9e50a8d": 'the gold answer is "i don\'t know": no fact of a route gives a right answer',
    "99e0d355": "Olympic swimming medals: the KG holds no swimming",
    "51062299": "WTA singles titles: the KG holds no tennis",
    "23f1fbae": "music videos and their directors: no route holds music videos",
    "fa38b3aa": "a studio's releases: the movie records name no production company",
    "8135a393": "a price of January last year: the price history holds one year of daily bars, to the "
    "data's last day",
    "50eb98b3": "NFL receiving yards: the KG holds no American football",
    "3ab49325": "games behind a playoff place: the games table holds no conferences or playoff places",
    "8d3fa211": "a singer picked by her songs and awards: no route goes from a song or a count to its "
    "performer",
    "1015c11e": "NCAA gymnastics: the KG holds no college sports",
    "c6bb3372": "Formula 1 race wins: the KG holds no motor racing",
    "8a0ae627": "Tour de France titles: the KG holds no cycling",
    "70363424": "a quarter's reported EPS: get_eps gives the forward EPS; no route holds quarterly results",
    "c21e2aa1": "NBA championships: no route holds titles, and the games table does not mark a final",
    "573ac6fa": "the band of an album: no route goes from a work to its artist",
    "e585c691": "a film's sequels: the movie records name no franchise or collection",
    "b76308d4": "an artist's best-selling albums: no route holds sales",
}

# Taken, in the selection's order.
TAKEN = [
    "a0dd8a0d", "cb739056", "4a83eae1", "997d8255", "10b956b5", "7a9cad56", "4243a46d", "cb544c30",
    "fd2b639f", "87eaafbe", "a308abbc", "442591ae", "69f7993d", "36373e4b", "be883c24", "d379af33",
    "d5ee49c8", "82934867", "096bba0f", "ee1422c9", "d7d15bdb", "20bdd3d1", "d3cc29cf", "b3580a6c",
    "f7a80ee6", "9ba408bd", "c836747b", "c60be6cb", "27eee8b3", "899aee2e", "74f9198b", "c56e68a4",
    "a3579f2b", "cf35e327", "6fbc6a0b", "af1ee3f6", "c798b289", "ec013333", "841d581b", "a2b042d7",
]  # fmt: skip

SECOND = SealedSet(
    "second",
    "sealed2:",
    frozenset(question.key for question in kg_real.QUESTIONS) | FIRST.walked(),
    TAKEN,
    SKIPPED,
    ALREADY_READ,
    [],
    {},
)
