"""The module's data in `state.ext["relics"]`: who holds which card, what is negated, the open
window or choice, and the questions every part asks of it (is this card active? what is it
acting as?)."""

from __future__ import annotations

from typing import Any

from games.engine.errors import IllegalAction
from games.engine.state import (
    DINING,
    Action,
    State,
    evolve,
)
from games.engine.vocabulary import Phase, RelicId

from .cards import BY_ID, CHOICE, WINDOW, kind


def data_of(state: State) -> dict:
    return state.ext.get("relics") or {
        "deck": [],
        "box": [],
        "holdings": [],
        "markers": {},
        "negated": [],
        "done": [],
        "copy": None,
        "window": None,
        "giving": None,
        "distributed": False,
        "key_used": [],
        "pending_deaths": [],
        "idol_handovers": 0,
        "offered": [],
        "choice": None,
        "public": [],
    }


def update(state: State, **changes) -> State:
    return evolve(state, ext={**state.ext, "relics": {**data_of(state), **changes}})


def cards_of(state: State, seat: int, *, discarded: bool = False) -> list[str]:
    return [
        h["card"]
        for h in data_of(state)["holdings"]
        if h["seat"] == seat and (discarded or not h["discarded"])
    ]


def holder(state: State, card: str) -> int | None:
    return next((h["seat"] for h in data_of(state)["holdings"] if h["card"] == card), None)


def holding(state: State, card: str) -> dict | None:
    return next((h for h in data_of(state)["holdings"] if h["card"] == card), None)


def negated(state: State, card: str) -> bool:
    return any(n["card"] == card and n["round"] == state.round for n in data_of(state)["negated"])


def is_active(state: State, card: str) -> bool:
    """R10.3/R10.5/R9: only a living holder's card works, not discarded, not negated, and never
    in a three-living round."""
    h = holding(state, card)
    return (
        h is not None
        and not state.three_living
        and not h["discarded"]
        and state.player(h["seat"]).alive
        and not negated(state, card)
    )


def acting_as(state: State, card: str) -> str:
    """What a card is this round: a Hindsight Looking Glass acts as the relic it copied."""
    copy = data_of(state)["copy"]
    if kind(card) == RelicId.HINDSIGHT_LOOKING_GLASS and copy and copy["round"] == state.round:
        return copy["as"]
    return kind(card)


def has(state: State, seat: int, relic: str) -> bool:
    """Whether `seat` has an active card acting as `relic` this round."""
    return any(acting_as(state, c) == relic and is_active(state, c) for c in cards_of(state, seat))


def with_card(state: State, relic: str) -> list[int]:
    return sorted({s for s in state.living if has(state, s, relic)})


def active_cards(state: State, relic: str) -> list[str]:
    """The cards acting as `relic` that work now, in seat order (a Glass may copy it)."""
    return [
        c
        for s in with_card(state, relic)
        for c in cards_of(state, s)
        if acting_as(state, c) == relic and is_active(state, c)
    ]


def public_holdings(state: State, data: dict) -> list[dict[str, Any]]:
    """R10.2a: every seat's relics, face-up for the whole table, with their markers (R10.4)."""
    markers: dict[str, list[dict]] = {}
    for relic, marker in data["markers"].items():
        markers.setdefault(marker["card"], []).append({"relic": relic, "round": marker["round"]})
    out = []
    for h in sorted(data["holdings"], key=lambda h: h["seat"]):
        card = h["card"]
        relic = kind(card)
        copy = acting_as(state, card)
        out.append(
            {
                "seat": h["seat"],
                "relic": relic,
                "name": BY_ID[relic].name,
                "discarded": h["discarded"],
                "negated": negated(state, card),
                "acting_as": copy if copy != relic else None,
                "markers": markers.get(card, []),
            }
        )
    return out


def public_window(state: State, window: dict) -> dict[str, Any]:
    """The open window, its holder named (R10.2a); a Dining tie's window names the tie."""
    out = {
        "relic": window["as"],
        "stage": window["stage"],
        "deadline": state.deadline,
        "seat": window["seat"],
    }
    if window["stage"] == "tie":
        out["tie"] = {"kind": state.tie.kind, "candidates": list(state.tie.candidates)}
    return out


def open_window(state: State, card: str, relic: str, stage: str, now: float, events=()):
    window = {"card": card, "seat": holder(state, card), "as": relic, "stage": stage}
    state = update(state, window=window)
    state = evolve(state, phase=WINDOW, deadline=now + state.options.timers.relic)
    return state, list(events), True


def close_window(state: State, card: str) -> State:
    """A card acts once a round in each stage it has a slot in (a Glass copying a post-mingling
    relic acts again after Mingling), and the Scales once per Dining tie."""
    data = data_of(state)
    stage = data["window"]["stage"] if data["window"] else "pre"
    if stage == "tie":
        stage = f"tie:{state.tie.kind}"
    done = data["done"] + [f"{card}@{stage}"]
    phase = Phase.RELICS if stage in ("pre", "post") else DINING
    return evolve(update(state, window=None, done=done), phase=phase, deadline=None)


def seat_targets(action: Action, count: int) -> list[int]:
    targets = action.args.get("targets") or []
    if (
        not isinstance(targets, list)
        or len(targets) != count
        or not all(isinstance(t, int) and not isinstance(t, bool) for t in targets)
    ):
        raise IllegalAction("bad_request", f"'targets' must list {count} seat number(s).")
    return targets


def discard_card(state: State, card: str) -> State:
    holdings = [
        {**h, "discarded": True} if h["card"] == card else h for h in data_of(state)["holdings"]
    ]
    return update(state, holdings=holdings)


def bangle_partner(state: State, card: str) -> int | None:
    other = next(
        (
            h
            for h in data_of(state)["holdings"]
            if kind(h["card"]) == RelicId.BANGLE_OF_OATHS and h["card"] != card
        ),
        None,
    )
    if other is None or other["discarded"] or not state.player(other["seat"]).alive:
        return None
    return other["seat"]


def open_choice(
    state: State,
    relic: str,
    seat: int,
    targets: list[int],
    now: float,
    card: str | None = None,
    key=None,
):
    key = key or [card, seat]
    choice = {"relic": relic, "seat": seat, "targets": targets, "card": card, "key": key}
    state = update(state, choice=choice, offered=data_of(state)["offered"] + [key])
    return evolve(state, phase=CHOICE, deadline=now + state.options.timers.choice), [], True


def close_choice(state: State, choice: dict, declined: bool) -> State:
    return evolve(update(state, choice=None), phase=DINING, deadline=None)
