"""The sealed KG sets by name (benchmarks/kg_sealed.py says how each is picked and run): the value of
benchmarks/kg.py's `--sealed`. Not a script: benchmarks/kg.py reads it."""

from __future__ import annotations

from benchmarks.kg_sealed import FIRST, SealedSet
from benchmarks.kg_sealed2 import SECOND
from benchmarks.kg_sealed3 import THIRD

SETS: dict[str, SealedSet] = {sealed.name: sealed for sealed in (FIRST, SECOND, THIRD)}
