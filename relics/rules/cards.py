"""The sixteen Sacred Relic cards (R10.1), the board order of their windows and the phases the
module opens."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

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


class Card(StrEnum):
    """One physical card of the 16 (R10.1): the relic's id, and "#n" for a relic with copies."""

    RITUAL_BELL = RelicId.RITUAL_BELL.value
    SIGNET_RING = RelicId.SIGNET_RING.value
    HINDSIGHT_LOOKING_GLASS = RelicId.HINDSIGHT_LOOKING_GLASS.value
    WHISPER_WICK_CANDLE = RelicId.WHISPER_WICK_CANDLE.value
    BANGLE_OF_OATHS_1 = f"{RelicId.BANGLE_OF_OATHS.value}#1"
    BANGLE_OF_OATHS_2 = f"{RelicId.BANGLE_OF_OATHS.value}#2"
    KEY_OF_QUICK_PASSAGE = RelicId.KEY_OF_QUICK_PASSAGE.value
    BLOOD_OF_THE_ONE = RelicId.BLOOD_OF_THE_ONE.value
    CEREMONIAL_DAGGER = RelicId.CEREMONIAL_DAGGER.value
    SEERS_ORB = RelicId.SEERS_ORB.value
    EFFIGY_OF_INNOCENCE = RelicId.EFFIGY_OF_INNOCENCE.value
    FALSE_IDOL = RelicId.FALSE_IDOL.value
    SCALES_OF_JUSTICE = RelicId.SCALES_OF_JUSTICE.value
    CROWN_OF_SOLOMON = RelicId.CROWN_OF_SOLOMON.value
    VAN_HELSINGS_JOURNAL = RelicId.VAN_HELSINGS_JOURNAL.value
    CROSS_OF_SAINT_JOHN = RelicId.CROSS_OF_SAINT_JOHN.value


CARDS = tuple(Card)  # in the order of RELICS, each relic's copies together

# The relic each card is: Card.BANGLE_OF_OATHS_2 -> RelicId.BANGLE_OF_OATHS.
KINDS = {card: RelicId(card.value.partition("#")[0]) for card in Card}
assert [KINDS[c] for c in CARDS] == [r.id for r in RELICS for _ in range(r.copies)]


def kind(card: str) -> RelicId:
    """The relic a card is: "bangle_of_oaths#2" -> RelicId.BANGLE_OF_OATHS."""
    return KINDS[card]


class Stage(StrEnum):
    """When a relic window opens (R10.3, R11 amended)."""

    PRE = "pre"  # before Mingling
    POST = "post"  # after Mingling
    REVEAL = "reveal"  # Blood of the One's last call after the reveal
    TIE = "tie"  # the Scales of Justice before a Dining tie's vote
