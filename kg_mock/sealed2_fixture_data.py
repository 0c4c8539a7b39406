"""Hand-written facts of the second sealed KG set (benchmarks/kg_sealed2.py), added to the real-wording
KG's (kg_mock/real_fixture_data.py) when kg_mock.real_fixture builds with `sealed="second"`: one KG
holds the real-wording set and this one, so that the look-alikes of each meet the questions of the
other. Each name here is the name of a table of real_fixture_data: a dict's entries are added (an entry
of the same key replaces the real one, which keeps its facts), a list's and a set's items are appended.

As in kg_mock/sealed_fixture_data.py: real names, the facts the questions ask set so that each gold
answer holds at its question's time (where a gold answer and the world disagree, the gold answer wins),
and look-alikes beside them. Where a look-alike's real facts were not at hand, they are invented.

Do not read this file while changing the KG's rules (benchmarks/kg_sealed2.py says why).
"""

from __future__ import annotations
