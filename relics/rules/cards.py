"""The sixteen Sacred Relic cards (R10.1), the board order of their windows and the phases the
module opens."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.state import (
    LAST_WILL,
    MINGLING,
    TIEBREAK,
)
from games.engine.vocabulary import Phase, RelicId

GIVING = Phase.GIVE_RELIC  # phase: a player gives the relic they drew (R10.2)


WINDOW = Phase.RELIC_WINDOW  # phase: one holder's window (R10.3; a Dining tie or last call, R11)


CHOICE = Phase.RELIC_CHOICE  # phase: an optional passive choice (Van Helsing, False Idol)


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
    proper: bool = False  # named after someone ("Van Helsing's Journal"): no "the" before it

    @property
    def bare_name(self) -> str:
        """The name after "seat 5's" or "Your": "False Idol", never "seat 5's The False Idol"."""
        return self.name.removeprefix("The ")

    @property
    def the_name(self) -> str:
        """The name after a verb: "gives the False Idol", never "the The False Idol"; a name
        that is someone's takes none: "gives Van Helsing's Journal"."""
        return self.bare_name if self.proper else f"the {self.bare_name}"


RELICS = (
    Relic(
        RelicId.RITUAL_BELL, "Ritual Bell", "pre", "Negate one living player's relic this round."
    ),
    Relic(RelicId.SIGNET_RING, "Signet Ring", "pre", "Swap the Ring with a living player's relic."),
    Relic(
        RelicId.HINDSIGHT_LOOKING_GLASS,
        "Hindsight Looking Glass",
        "pre",
        "Choose a Ghost's relic and act as it this round.",
    ),
    Relic(
        RelicId.WHISPER_WICK_CANDLE,
        "Whisper-Wick Candle",
        "post",
        "Swap one placed token between two living players' seats.",
    ),
    Relic(
        RelicId.BANGLE_OF_OATHS,
        "Bangle of Oaths",
        "post",
        "Move up to 2 tokens from your seat to the other Bangle holder's. If one holder dies, "
        "so does the other.",
        copies=2,
    ),
    Relic(
        RelicId.KEY_OF_QUICK_PASSAGE,
        "Key of Quick Passage",
        "post",
        "Discard: ignore every token on your seat this round, Investigation included.",
    ),
    Relic(
        RelicId.BLOOD_OF_THE_ONE,
        "Blood of the One",
        "post",
        "At any time, discard and name a living player: if Mesmerized, they die.",
    ),
    Relic(
        RelicId.CEREMONIAL_DAGGER,
        "Ceremonial Dagger",
        "passive",
        "Both your Stakes may go on one player.",
    ),
    Relic(
        RelicId.SEERS_ORB,
        "Seer's Orb",
        "passive",
        "Vote in Ghostly Intervention while alive; you decide its ties.",
    ),
    Relic(
        RelicId.EFFIGY_OF_INNOCENCE,
        "Effigy of Innocence",
        "passive",
        "You cannot be investigated or examined; 1 fewer Stake vote.",
    ),
    Relic(
        RelicId.FALSE_IDOL,
        "The False Idol",
        "passive",
        "1 automatic Stake vote each Dining. When killed, you may give it to a living player.",
    ),
    Relic(
        RelicId.SCALES_OF_JUSTICE,
        "Scales of Justice",
        "passive",
        "Tied for most Stakes or Feasts: you choose. Or discard it to decide any one Dining tie.",
    ),
    Relic(
        RelicId.CROWN_OF_SOLOMON,
        "Crown of Solomon",
        "passive",
        "You cannot be Mesmerized or swapped.",
    ),
    Relic(
        RelicId.VAN_HELSINGS_JOURNAL,
        "Van Helsing's Journal",
        "passive",
        "After an elimination, if none of your Stakes is on that seat, examine their role.",
        proper=True,
    ),
    Relic(
        RelicId.CROSS_OF_SAINT_JOHN,
        "Cross of Saint John",
        "passive",
        "Killed in Dining with at least half the Stakes from Vampires: the Hunters win.",
    ),
)


BY_ID = {r.id: r for r in RELICS}


PRE = (
    RelicId.RITUAL_BELL,
    RelicId.SIGNET_RING,
    RelicId.HINDSIGHT_LOOKING_GLASS,
)  # R10.1 board order


POST = (
    RelicId.WHISPER_WICK_CANDLE,
    RelicId.BANGLE_OF_OATHS,
    RelicId.KEY_OF_QUICK_PASSAGE,
    RelicId.BLOOD_OF_THE_ONE,
)


MARKED = (RelicId.RITUAL_BELL, RelicId.SIGNET_RING, RelicId.HINDSIGHT_LOOKING_GLASS)  # R10.4


CARDS = tuple(
    f"{r.id}#{n}" if r.copies > 1 else r.id for r in RELICS for n in range(1, r.copies + 1)
)


def kind(card: str) -> str:
    """The relic a card is: "bangle_of_oaths#2" -> "bangle_of_oaths"."""
    return card.split("#")[0]
