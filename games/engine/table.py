"""The role table (R1.2), teams (R1.4) and the end conditions (R12)."""

from __future__ import annotations

import random

from .state import HUNTER, LORD, VAMPIRE, Outcome, Player, State
from .vocabulary import Team

# players -> (Hunters, Vampires, Lord knows the Vampires?); always exactly one Vampire Lord.
ROLE_TABLE = {
    6: (4, 1, False),
    7: (5, 1, True),
    8: (5, 2, False),
    9: (6, 2, False),
    10: (7, 2, True),
    11: (8, 2, True),
    12: (9, 2, True),
}
MIN_PLAYERS = 6
MAX_PLAYERS = 10
MAX_PLAYERS_EXPANSION = 12


def max_players(expansion: bool) -> int:
    """R1.1: 6 to 10 players, up to 12 with the expansion."""
    return MAX_PLAYERS_EXPANSION if expansion else MAX_PLAYERS


def in_den(state: State, seat: int) -> bool:
    """Whether `seat` knows the Vampires' side from the night (R1.3): every Vampire, and the Lord
    where R1.2 says the Lord knows them. The Vampires' private chat channel is theirs."""
    role = state.player(seat).role
    return role == VAMPIRE or (role == LORD and state.lord_knows_vampires)


def role_deck(players: int) -> list[str]:
    hunters, vampires, _ = ROLE_TABLE[players]
    return [HUNTER] * hunters + [VAMPIRE] * vampires + [LORD]


def deal(players: int, seed: int) -> list[str]:
    """R1.2: shuffle the deck with the game's own seeded RNG (reproducible from the seed)."""
    deck = role_deck(players)
    random.Random(f"{seed}:deal").shuffle(deck)
    return deck


def on_vampire_side(role: str) -> bool:
    return role in (VAMPIRE, LORD)


def team(player: Player) -> str:
    """R1.4: Mesmerized Hunters play, and win, with the Vampires."""
    if on_vampire_side(player.role) or player.mesmerized:
        return Team.VAMPIRES
    return Team.HUNTERS


def winner(state: State) -> Outcome | None:
    """R12.1 is checked first, then R12.2 (Mesmerized players still count as Hunters, R8.3)."""
    hunters = vampires = 0  # counted in one pass: asked at every round's start and end
    for p in state.players:
        if p.alive:
            if p.role == HUNTER:
                hunters += 1
            elif on_vampire_side(p.role):
                vampires += 1
    if not vampires:
        return Outcome(Team.HUNTERS, "No Vampire or Vampire Lord is left alive (R12.1).")
    if hunters <= 1:
        return Outcome(Team.VAMPIRES, "At most one living player is a Hunter (R12.2).")
    return None
