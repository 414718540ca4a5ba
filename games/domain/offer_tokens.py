"""A seat's offer: one token for what that seat may do now, sent back in `If-Match` with a move
so that the move is made only while the offer it was built from still stands.

The game's `version` moves with every seat's move, so during Mingling ten seats placing at once
refused each other (`409 stale`) though nothing any of them could do had changed. The offer
moves only when this seat's own choices change: the round, the phase, the seat's `pending`
(every action it may take, with every option) and the tokens in its hand (so that a move it
made itself, which may leave `pending` as it was, e.g. one Stake of two placed, also moves
it: a double tap is refused, not made twice).

It is made only of what the seat's own view shows it, hashed with the game's code and the seat,
so it tells the seat nothing new and no one else ever sees it: `"o"` and 16 hex digits.
"""

from __future__ import annotations

import hashlib
import json

from games import engine

PATTERN = r"o[0-9a-f]{16}"


def offer_token(code: str, state: engine.State, seat: int) -> str:
    """The offer of `seat` at the game `code` in `state` (a running game's)."""
    mine = {
        "code": code,
        "seat": seat,
        "round": state.round,
        "phase": str(state.phase),
        "pending": engine.pending(state, seat),
        "hand": sorted(str(token) for token in state.hands[seat - 1])
        if seat <= len(state.hands)
        else [],
    }
    text = json.dumps(mine, sort_keys=True, default=str, separators=(",", ":"))
    return "o" + hashlib.sha256(text.encode()).hexdigest()[:16]
