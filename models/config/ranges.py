"""The range of a numeric setting, declared beside its field in the schema:

    context_tokens: Annotated[int, Range(256)] = 8192
    usable_fraction: Annotated[float, Range(above=0, at_most=1)] = 0.9
    calibration_sequences: tuple[Annotated[int, Range(1)], ...] = (1, 8, 24)

`models.config.overrides` checks it when `--set` gives a value, and `load_config` checks every
setting of the loaded configuration (presets and derived options included) against its range.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Range:
    """At least `at_least`, above `above`, at most `at_most` (None: no bound on that side). A value
    outside, or one that is not a finite number, is refused with the range in the message."""

    at_least: float | None = None
    at_most: float | None = None
    above: float | None = None

    def describe(self) -> str:
        bounds = [
            f"at least {self.at_least:g}" if self.at_least is not None else "",
            f"above {self.above:g}" if self.above is not None else "",
            f"at most {self.at_most:g}" if self.at_most is not None else "",
        ]
        if self.at_least is not None and self.at_most is not None and self.above is None:
            return f"between {self.at_least:g} and {self.at_most:g}"
        return " and ".join(bound for bound in bounds if bound) or "any finite number"

    def contains(self, value: float) -> bool:
        return (
            math.isfinite(value)
            and (self.at_least is None or value >= self.at_least)
            and (self.above is None or value > self.above)
            and (self.at_most is None or value <= self.at_most)
        )

    def check(self, value: float, dotted: str) -> None:
        if not self.contains(value):
            raise ValueError(f"{dotted} must be {self.describe()}; got {value!r}")
