"""Hand-written facts of the third sealed KG set (benchmarks/kg_sealed3.py), added to the real-wording
KG's (kg_mock/real_fixture_data.py) when kg_mock.real_fixture builds with `sealed="third"`, as
kg_mock/sealed2_fixture_data.py's are for the second set. Empty until the set's derivations follow.

Do not read this file while changing the KG's rules (benchmarks/kg_sealed3.py says why).
"""

from __future__ import annotations
