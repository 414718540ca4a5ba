"""The sixteen Sacred Relic cards (R10.1), the board order of their windows and the phases the
module opens."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.state import (
    LAST_WILL,
    MINGLING,
    TIEBREAK,
)

GIVING = "give_relic"  # phase: a player gives the relic they drew (R10.2)


WINDOW = "relic_window"  # phase: one holder's window (R10.3; a Dining tie or last call, R11)


CHOICE = "relic_choice"  # phase: an optional passive choice (Van Helsing, False Idol)


# Blood of the One may be used whenever the game waits on someone (R11 amended), not while the
# relics are handed out: they are in play once every player holds one (R10.2). (Round 1's
# examiner choice comes before that.)
BLOOD_PHASES = frozenset({MINGLING, WINDOW, TIEBREAK, CHOICE, LAST_WILL})


@dataclass(frozen=True)
class Relic:
    id: str
    name: str
    kind: str  # "pre" | "post" | "passive"
    text: str
    copies: int = 1


RELICS = (
    Relic("ritual_bell", "Ritual Bell", "pre", "Negate one living player's relic this round."),
    Relic("signet_ring", "Signet Ring", "pre", "Swap the Ring with a living player's relic."),
    Relic(
        "hindsight_looking_glass",
        "Hindsight Looking Glass",
        "pre",
        "Choose a Ghost's relic and act as it this round.",
    ),
    Relic(
        "whisper_wick_candle",
        "Whisper-Wick Candle",
        "post",
        "Swap one placed token between two living players' seats.",
    ),
    Relic(
        "bangle_of_oaths",
        "Bangle of Oaths",
        "post",
        "Move up to 2 tokens from your seat to the other Bangle holder's. If one holder dies, "
        "so does the other.",
        copies=2,
    ),
    Relic(
        "key_of_quick_passage",
        "Key of Quick Passage",
        "post",
        "Discard: ignore every token on your seat this round, Investigation included.",
    ),
    Relic(
        "blood_of_the_one",
        "Blood of the One",
        "post",
        "At any time, discard and name a living player: if Mesmerized, they die.",
    ),
    Relic(
        "ceremonial_dagger",
        "Ceremonial Dagger",
        "passive",
        "Both your Stakes may go on one player.",
    ),
    Relic(
        "seers_orb",
        "Seer's Orb",
        "passive",
        "Vote in Ghostly Intervention while alive; you decide its ties.",
    ),
    Relic(
        "effigy_of_innocence",
        "Effigy of Innocence",
        "passive",
        "You cannot be investigated or examined; 1 fewer Stake vote.",
    ),
    Relic(
        "false_idol",
        "The False Idol",
        "passive",
        "1 automatic Stake vote each Dining. When killed, you may give it to a living player.",
    ),
    Relic(
        "scales_of_justice",
        "Scales of Justice",
        "passive",
        "Tied for most Stakes or Feasts: you choose. Or discard it to decide any one Dining tie.",
    ),
    Relic(
        "crown_of_solomon", "Crown of Solomon", "passive", "You cannot be Mesmerized or swapped."
    ),
    Relic(
        "van_helsings_journal",
        "Van Helsing's Journal",
        "passive",
        "After an elimination, if none of your Stakes is on that seat, examine their role.",
    ),
    Relic(
        "cross_of_saint_john",
        "Cross of Saint John",
        "passive",
        "Killed in Dining with at least half the Stakes from Vampires: the Hunters win.",
    ),
)


BY_ID = {r.id: r for r in RELICS}


PRE = ("ritual_bell", "signet_ring", "hindsight_looking_glass")  # R10.1 board order


POST = ("whisper_wick_candle", "bangle_of_oaths", "key_of_quick_passage", "blood_of_the_one")


MARKED = ("ritual_bell", "signet_ring", "hindsight_looking_glass")  # R10.4


CARDS = tuple(
    f"{r.id}#{n}" if r.copies > 1 else r.id for r in RELICS for n in range(1, r.copies + 1)
)


def kind(card: str) -> str:
    """The relic a card is: "bangle_of_oaths#2" -> "bangle_of_oaths"."""
    return card.split("#")[0]
