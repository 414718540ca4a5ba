"""Words and numbers of the rules every template may use, taken from the engine rather than
retyped in the HTML: `{% if view.phase != PHASE.DINING %}`, `{{ TABLE.min }} to {{ TABLE.max }}`."""

from __future__ import annotations

from games.engine import table
from games.engine.vocabulary import Phase

_RULES = {
    "PHASE": {p.name: p.value for p in Phase},
    "TABLE": {  # R1.1
        "min": table.MIN_PLAYERS,
        "max": table.MAX_PLAYERS,
        "max_expansion": table.MAX_PLAYERS_EXPANSION,
    },
}


def rules(request) -> dict:
    return _RULES
