"""A rate such as '120/min' (no Django here: the settings parse theirs with it)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])[a-z]*\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Rate:
    hits: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """'120/min', '30/m', '10/15min', '1000/hour', '5/10s'."""
        match = _RATE.match(text)
        if not match or int(match.group(1)) < 1 or int(match.group(2) or 1) < 1:
            raise ValueError(f"{text!r} is not a rate like '120/min' or '10/15min'")
        hits, count, unit = match.groups()
        return cls(int(hits), int(count or 1) * _UNITS[unit.lower()])

    def __str__(self) -> str:
        return f"{self.hits}/{self.seconds}s"
