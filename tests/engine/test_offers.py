"""`pending` is the complete list of legal moves, and the controls offer only what the rules
accept, as properties of random games, relics and Last Wills on and off:

- every move an offer spells out (`offers.moves`) is accepted by the engine;
- where the space of possible bodies is small, every body the engine accepts is one the offers
  spell out, and every one it refuses is not (an action the engine refuses in every form, e.g. a
  Hindsight Looking Glass with no Ghost's relic to copy, is not offered at all);
- every offer has the typed shape: `targets` a list, `min` <= `max`.
"""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest

import relics.rules  # registers the Sacred Relics module (its windows are read below)
from games.bots.strategies.randomly import random_choice
from games.engine import Action, IllegalAction, Options, Timers, apply, pending, setup, timeout
from games.engine.offers import moves
from games.engine.view import waiting_for
from games.engine.vocabulary import ActionName, RelicId, Token

MAX_STEPS = 3000
SMALL = 400  # bodies tried per action when checking that nothing legal is missing


def key(args: dict) -> str:
    return json.dumps(args, sort_keys=True)


def accepted(state, seat: int, name: str, args: dict) -> bool:
    try:
        apply(state, Action(name, seat, args), now=0.0)
    except IllegalAction:
        return False
    return True


def candidates(state, seat: int, name: str, offered: list[dict]) -> list[dict] | None:
    """Every body of `name` worth trying at `seat` now, in the offers' canonical form; None when
    the space is too large to try whole."""
    seats = range(1, len(state.players) + 1)
    data = state.ext.get("relics") or {}
    if name == ActionName.PLACE_TOKEN:
        return [{"token": t, "target": s} for t in Token for s in seats]
    if name in (
        ActionName.INTERVENTION_VOTE,
        ActionName.TIEBREAK_VOTE,
        ActionName.CHOOSE_EXAMINER,
    ):
        return [{"target": s} for s in seats]
    if name in (ActionName.PASS, ActionName.READY):
        return [{}]
    if name == ActionName.GIVE_RELIC:
        drawn = (data.get("giving") or {}).get("drawn") or []
        kinds = sorted({relics.rules.kind(c) for c in drawn})
        if len(kinds) > 1:
            return [{"target": s, "card": c} for s in seats for c in kinds]
        return [{"target": s} for s in seats]
    choices = {o["options"].get("choice") for o in offered} - {None}
    if name == ActionName.RESOLVE_CHOICE:
        choice = next(iter(choices), None)
        if choice is None:  # nothing offered: the draw or the relic choice open now, if any
            draws = (state.ext.get("last_wills") or {}).get("draws") or []
            choice = next((d["card"] for d in draws if not d["resolved"]), None)
            choice = choice or (data.get("choice") or {}).get("relic") or "nothing"
        return [
            {"choice": choice, "targets": list(c)} for n in (1, 2) for c in combinations(seats, n)
        ]
    if name == ActionName.USE_RELIC:
        window = data.get("window") or {}
        relic = window.get("as") or RelicId.BLOOD_OF_THE_ONE
        if relic == RelicId.WHISPER_WICK_CANDLE:
            return None  # pairs of seats times pairs of owners: checked through its moves only
        if relic == RelicId.BANGLE_OF_OATHS:
            return [
                {"relic": relic, "owners": list(c)} for n in (1, 2) for c in combinations(seats, n)
            ]
        if relic == RelicId.KEY_OF_QUICK_PASSAGE:
            return [{"relic": relic}]
        if relic in (RelicId.RITUAL_BELL, RelicId.SIGNET_RING, RelicId.HINDSIGHT_LOOKING_GLASS):
            cards = sorted({relics.rules.kind(h["card"]) for h in data.get("holdings") or []})
            return [{"relic": relic, "targets": [s], "card": c} for s in seats for c in cards]
        return [{"relic": relic, "targets": [s]} for s in seats]
    raise AssertionError(f"no candidates for {name}")


def hidden_stack(state, seat: int, args: dict) -> bool:
    """A Bangle move that puts two of one owner's tokens on the partner's seat."""
    window = (state.ext.get("relics") or {}).get("window") or {}
    if args.get("relic") != RelicId.BANGLE_OF_OATHS or window.get("seat") != seat:
        return False
    partner = relics.rules.windows.bangle_partner(state, window["card"])
    return any(p.owner in args["owners"] and p.target == partner for p in state.placements)


def check_shape(entry: dict) -> None:
    options = entry["options"]
    assert isinstance(options["targets"], list), entry
    assert 0 <= options["min"] <= options["max"], entry
    assert options["max"] <= max(len(options["targets"]), 0) or options["max"] == 0, entry
    assert moves(entry), f"an action offered with no legal move: {entry}"


def check_offers(state, seat: int, rng: random.Random, whole: bool) -> None:
    offered = pending(state, seat)
    by_action: dict[str, list[dict]] = {}
    for entry in offered:
        check_shape(entry)
        by_action.setdefault(entry["action"], []).append(entry)
    for name, entries in by_action.items():
        spelled = [m for e in entries for m in moves(e)]
        tried = spelled if len(spelled) <= 40 else rng.sample(spelled, 40)
        for args in tried:
            assert accepted(state, seat, name, args), (
                f"seat {seat} was offered {name} {args} and it was refused (phase {state.phase})"
            )
    if not whole:
        return
    for name in ActionName:
        entries = by_action.get(name, [])
        space = candidates(state, seat, name, entries)
        if space is None or len(space) > SMALL:
            continue
        spelled = {key(m) for e in entries for m in moves(e)}
        for args in space:
            ok = accepted(state, seat, name, args)
            if ok and key(args) not in spelled and hidden_stack(state, seat, args):
                continue  # legal only for a Dagger's two Stakes: not offered (R3.2)
            assert ok == (key(args) in spelled), (
                f"seat {seat}, {name} {args}: the engine {'accepts' if ok else 'refuses'} it "
                f"but it is {'not ' if ok else ''}offered (phase {state.phase}, offers {entries})"
            )


def play(seed: int, players: int, relics_on: bool, wills: bool, whole_every: int) -> int:
    rng = random.Random(seed)
    timers = Timers(reveal=30 if seed % 2 else 0)  # half the games open with the role reveal
    options = Options(relics=relics_on, last_wills=wills, expansion=players > 10, timers=timers)
    state = setup(options, players, seed)
    checks = 0
    for step in range(MAX_STEPS):
        if state.outcome is not None:
            return checks
        seats = waiting_for(state)
        holders = [s for s in range(1, players + 1) if s not in seats and pending(state, s)]
        for s in seats + holders:  # the waited-on, and anyone who may act unasked (Blood)
            check_offers(state, s, rng, whole=step % whole_every == 0)
            checks += 1
        if not seats:
            state, _ = timeout(state, state.deadline or 0.0)
            continue
        seat = rng.choice(seats)
        choice = random_choice(rng, pending(state, seat))
        if choice is None or rng.random() < 0.03:
            state, _ = timeout(state, state.deadline or 0.0)
            continue
        state, _ = apply(state, Action(choice[0], seat, choice[1]), now=0.0)
    raise AssertionError(f"game {seed} did not end")


@pytest.mark.parametrize(
    "seed, players, relics_on, wills",
    [
        (1, 6, False, False),
        (2, 8, False, True),
        (3, 7, True, True),
        (4, 10, True, False),
        (5, 12, True, True),
        (6, 9, True, True),
        (7, 6, True, True),
        (8, 11, True, True),
    ],
)
def test_every_offered_move_is_accepted_and_nothing_legal_is_left_out(
    seed, players, relics_on, wills
):
    assert play(seed, players, relics_on, wills, whole_every=3) > 0


def test_random_relic_games_never_make_a_move_the_engine_refuses():
    """The random strategy plays only from offers: across many relic games, with every relic
    dealt sooner or later, no move is refused (play() applies without catching)."""
    for seed in range(100, 130):
        play(seed, 6 + seed % 7, True, seed % 2 == 0, whole_every=10**9)
