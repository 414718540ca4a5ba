"""Sacred Relics (R10–R11, game option `relics`): the 16 cards and their rulings, plugged into
the pure rules engine through its hook points (games/engine/hooks.py). Standard library only.

The module's data is a frozen record, `holdings.Relics` (its JSON in `state.ext["relics"]`): who
holds which card, the draw pile, the marker tokens, what is negated, the open window or choice.
Holdings are public (R10.2a amended: the card lies face-up under its holder's seating tile):
every view, spectators' included, shows each seat's relics, discarded ones, what is negated, the
markers, and whose window is open. Only the card a giver has drawn (until given), the draw pile
and the box stay secret.

Rulings where R10/R11 and the glossary are silent (the project's own):
- A seat may hold several cards (False Idol hand-over, Heirloom). A relic that targets "a
  player's relic" takes `card` (a relic id) when that player holds several; else their first.
- Windows of the same slot (the two Bangles) open in seat order.
- The Ritual Bell, Signet Ring and Hindsight Looking Glass say which card, not only which seat,
  so their marker rule (R10.4) follows the card wherever it goes.
- A Hindsight copy of the False Idol gives its automatic Stake but no hand-over (the Glass is not
  the Idol); a copy of the Bangle does nothing (glossary).
- Key of Quick Passage ignores placed tokens on your seat (Investigation included); automatic
  votes (unplaced tokens, the False Idol, Last Wills) still count.
- Van Helsing's Journal and the False Idol hand-over are optional: a timed choice; silence declines.
  The Journal is offered after each death in Dining (its Last Will first), in the order they died.
- Scales of Justice: when a tie for the most Stakes or Feasts arises, each living holder who may
  act on it gets a timed window before its vote opens (R11 amended), once per tie: decide (a tied
  holder keeps the card, another discards it) or pass; passing or silence leaves the usual vote.
- Blood of the One: usable whenever the game waits on a player, except while relics are handed
  out (they are not in play yet); plus its post-mingling slot and a last call right after the
  reveal (R11 amended). A victim killed before Dining draws their Last Will in Dining once
  Protection is settled (R11 amended 2026-12-01); one
  killed in Dining draws at once, in the order of deaths. What Dining has settled stays settled; a
  tie not yet settled is counted again without the victim's tokens (its votes so far are void).
  A window or choice of the victim's own closes; a Last Will choice no longer offers them.
"""

from __future__ import annotations

from games.engine.serialize import to_json

from .cards import (
    BLOOD_PHASES,
    BY_ID,
    CARDS,
    CHOICE,
    GIVING,
    MARKED,
    POST,
    PRE,
    RELICS,
    WINDOW,
    Card,
    Relic,
    Stage,
    kind,
)
from .distribution import giver_of
from .holdings import (
    NONE_YET,
    Holding,
    Relics,
    acting_as,
    cards_of,
    data_of,
    has,
    holder,
    holding,
    is_active,
    negated,
    stored,
)
from .module import MODULE, SacredRelics

# The module is split by concern: cards, holdings (its data), distribution, windows, passives
# (effects with a moment of their own), choices, and `module` (the hooks the engine calls).
__all__ = [
    "BLOOD_PHASES",
    "BY_ID",
    "CARDS",
    "CHOICE",
    "Card",
    "GIVING",
    "MARKED",
    "MODULE",
    "NONE_YET",
    "POST",
    "PRE",
    "RELICS",
    "WINDOW",
    "Holding",
    "Relic",
    "Relics",
    "SacredRelics",
    "Stage",
    "acting_as",
    "cards_of",
    "data_of",
    "giver_of",
    "has",
    "holder",
    "holding",
    "is_active",
    "kind",
    "negated",
    "stored",
]


# The names the property tests (tests/relics/test_properties_relics.py) read the data by: its JSON,
# as `state.ext["relics"]` keeps it.
def _data(state) -> dict:
    return stored(state)


def _giver(data: dict) -> int:
    return data["giving"]["order"][data["giving"]["index"]]


def _holding(state, card: str) -> dict | None:
    found = holding(state, card)
    return None if found is None else to_json(found)
