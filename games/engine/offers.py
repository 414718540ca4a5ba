"""Offers: what `pending` lists (the typed list of legal moves), and `moves`, which
spells one offer out as every argument set the engine accepts for it.

Every offer is `{"action": name, "options": {...}}`, and its options always hold `targets` (a
list of seats), `min` and `max` (how many of them one move names; 0 and 0 when the move names
none). An action adds its own keys (docs/api.md, "pending"):

- `place_token`: `tokens` (each token you may place now) and `targets_by_token` (token -> the
  seats it may go on; `targets` is their union);
- `give_relic`: `cards` when you drew several (name one as `card`);
- `use_relic`: `relic`; the Ritual Bell, Signet Ring and Hindsight Looking Glass add
  `cards_by_seat` (seat -> the relics there it may target, `card`); the Whisper-Wick Candle and
  the Bangle of Oaths add `moves`, the exact argument sets allowed (`targets` and `owners`);
  the Bangle `partner`, the Scales of Justice `discard`;
- `resolve_choice`: `choice` (the Last Will or relic id to name).

An offer is built from the same functions the engine checks a move with, so each of its
`moves` is accepted and no other move is (tests/engine/test_offers.py). An action with no legal
move is not offered at all (a relic window with nobody to aim at offers only `pass`). There is
no exception: a Candle or Bangle move never puts two of one owner's tokens on one seat, Dagger
or not (R11 amended), so neither an offer nor a refusal tells what a hidden token is (R3.2).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .vocabulary import ActionName


def offer(action: str, targets=(), *, min: int = 1, max: int | None = None, **extra: Any) -> dict:
    """One pending entry: `targets` with how many to name (`max` defaults to `min`)."""
    return {
        "action": action,
        "options": {
            "targets": list(targets),
            "min": min,
            "max": min if max is None else max,
            **extra,
        },
    }


_PLACE_TOKEN = ActionName.PLACE_TOKEN  # through the enum class, a read costs ~850 instructions


def place_offer(targets: list[int], targets_by_token: dict[str, list[int]]) -> dict:
    """`offer(PLACE_TOKEN, targets, tokens=..., targets_by_token=...)`, written out: the
    commonest offer, asked before nearly every move, without the keyword packing and copy
    (about 2 % of a random game's instructions)."""
    return {
        "action": _PLACE_TOKEN,
        "options": {
            "targets": targets,
            "min": 1,
            "max": 1,
            "tokens": list(targets_by_token),
            "targets_by_token": targets_by_token,
        },
    }


def nothing(action: str, **extra: Any) -> dict:
    """An offer that names no seat (`pass`, the Key of Quick Passage)."""
    return offer(action, (), min=0, **extra)


# The arguments the engine takes as they are (`relic`, `choice`), not chosen among.
_FIXED = ("relic", "choice")
# The actions that take one seat as `target` (the API's `targets: [seat]`, games.domain.inputs).
_ONE_SEAT = (
    ActionName.PLACE_TOKEN,
    ActionName.INTERVENTION_VOTE,
    ActionName.TIEBREAK_VOTE,
    ActionName.CHOOSE_EXAMINER,
    ActionName.GIVE_RELIC,
)


def moves(entry: dict) -> list[dict[str, Any]]:
    """Every argument set (`engine.Action.args`) the offer allows: each is accepted now."""
    name, options = entry["action"], entry["options"]
    fixed = {k: options[k] for k in _FIXED if k in options}
    if "moves" in options:
        return [{**fixed, **m} for m in options["moves"]]
    if name == ActionName.PLACE_TOKEN:
        return [
            {"token": token, "target": seat}
            for token in options["tokens"]
            for seat in options["targets_by_token"][token]
        ]
    if name in _ONE_SEAT:
        cards = options.get("cards") or [None]
        return [
            {"target": seat, **({"card": card} if card else {})}
            for seat in options["targets"]
            for card in cards
        ]
    if "cards_by_seat" in options:
        return [
            {**fixed, "targets": [seat], "card": card}
            for seat in options["targets"]
            for card in options["cards_by_seat"][str(seat)]
        ]
    out = []
    for n in range(options["min"], options["max"] + 1):
        for seats in combinations(options["targets"], n):
            out.append({**fixed, "targets": list(seats)} if n else dict(fixed))
    return out
