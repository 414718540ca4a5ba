"""Who may read and who may write each channel: computed from the game as it is now, at every
read and every post, never remembered (docs/rulings.md, "Table talk").

- `table`: everyone seated, Ghosts included; spectators read it only where the host allows
  (`spectators` and `spectator_chat` both on), and never write.
- `ghosts`: the Ghosts only (read from the engine state): the living never read it.
- `den`: only where the host turned `den_chat` on; the Vampires, and the Vampire Lord only where
  R1.3 tells the Lord who the Vampires are. Mesmerized Hunters are not in it (R1.3 tells them
  nothing; they never learn who the Vampires are).
- Once the game is over every role is public (R1.4): every seated player reads every channel
  the game had, and only `table` stays open for writing. An abandoned game reveals nothing:
  the channels keep their audience and nobody writes any more.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.chat.models import Message
from games.domain.options import spectators_allowed
from games.engine import state_from_json, table
from games.models import Game

TABLE, GHOSTS, DEN = Message.Channel.TABLE, Message.Channel.GHOSTS, Message.Channel.DEN
CHANNELS = (TABLE, GHOSTS, DEN)
LABELS = {TABLE: "Table", GHOSTS: "Ghosts", DEN: "Den"}


@dataclass(frozen=True)
class Access:
    read: bool = False
    write: bool = False
    why_not: str = ""  # the refusal in words, when `write` (or `read`) is False


def _closed(why: str) -> Access:
    return Access(why_not=why)


def _read_only(why: str) -> Access:
    return Access(read=True, why_not=why)


OPEN = Access(read=True, write=True)


def channel_access(game: Game, seat: int | None) -> dict[str, Access]:
    """What the viewer at `seat` (None: not seated) may do in each channel now."""
    options = game.options
    den_open = bool(options.get("den_chat"))
    if seat is None:
        watching = spectators_allowed(options) and options.get("spectator_chat", False)
        table = (
            _read_only("Spectators cannot write at the table.")
            if watching
            else _closed("The host does not let spectators read the table talk.")
        )
        return {
            TABLE: table,
            GHOSTS: _closed("Only the Ghosts read this channel."),
            DEN: _closed("Only the Vampires read this channel."),
        }
    access = _seated(game, seat, den_open)
    if game.status == Game.Status.ABANDONED:
        ended = "This game was abandoned."
        access = {c: _read_only(ended) if a.read else a for c, a in access.items()}
    return access


def _seated(game: Game, seat: int, den_open: bool) -> dict[str, Access]:
    no_den = _closed(
        "Only the Vampires read this channel." if den_open else "The host did not open the den."
    )
    if game.state is None:  # the lobby: nobody has a role, nobody is a Ghost yet
        return {
            TABLE: OPEN,
            GHOSTS: _closed("There are no Ghosts before the game starts."),
            DEN: no_den,
        }
    state = state_from_json(game.state)
    if state.outcome is not None:  # R1.4: every role is public now
        over = "The game is over: only the table talk goes on."
        return {
            TABLE: OPEN,
            GHOSTS: _read_only(over),
            DEN: _read_only(over) if den_open else no_den,
        }
    me = state.player(seat)
    in_den = den_open and table.in_den(state, seat)
    return {
        TABLE: OPEN,
        GHOSTS: OPEN if not me.alive else _closed("Only the Ghosts read this channel."),
        DEN: OPEN if in_den else no_den,
    }
