"""Bot strategies (games/strategies): always legal, and deciding from their own seat's view only."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import relics.rules  # noqa: F401 - registers the Sacred Relics module
from games import engine, strategies
from games.bots import bot_move
from games.engine import Options, state_from_json, to_json
from games.engine.common import with_player
from games.engine.view import waiting_for
from games.strategies import sensible

MAX_MOVES = 4000


def _play(seed: int, players: int, relics: bool, check, sensible_share: float = 0.75):
    """Play one game where each move is made by a sensible bot (mostly) or a random one; every
    sensible decision is handed to `check(state, seat, view, choice)` before it is applied."""
    rng = random.Random(seed)
    options = Options(relics=relics, last_wills=True, expansion=players > 10)
    state = engine.setup(options, players, seed)
    for _ in range(MAX_MOVES):
        if state.outcome is not None:
            return state
        seats = waiting_for(state)
        if not seats:
            state, _ = engine.timeout(state, state.deadline)
            continue
        seat = rng.choice(seats)
        view = engine.view(state, seat)
        name = "sensible" if rng.random() < sensible_share else "random"
        choice = strategies.get(name)(rng, view)
        assert choice is not None, (seat, view["pending"])
        if name == "sensible":
            check(state, seat, view, choice)
        state, _ = engine.apply(state, engine.Action(choice[0], seat, choice[1]))  # legal, or raise
    pytest.fail(f"game {seed} did not end in {MAX_MOVES} moves")


def _no_check(*args):
    pass


@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(6, 12),
    relics=st.booleans(),
    share=st.sampled_from([0.5, 1.0]),
)
def test_the_strategies_only_ever_choose_legal_moves(seed, players, relics, share):
    """Property: in games mixing sensible and random bots, every chosen move is legal (apply
    raises IllegalAction otherwise) and every game ends."""
    state = _play(seed, players, relics, _no_check, sensible_share=share)
    assert state.outcome is not None


@pytest.mark.parametrize("relics", [False, True])
def test_sensible_vampires_never_stake_their_own_while_a_hunter_is_free(relics):
    def check(state, seat, view, choice):
        name, args = choice
        if name != "place_token" or args["token"] not in ("stake", "double_stake"):
            return
        if view["me"]["role"] != "vampire":
            return
        allies = {  # the Vampires, the Lord, the Mesmerized
            k["seat"]
            for k in view["me"]["knowledge"]
            if k.get("mesmerized") or k.get("role") in ("vampire", "vampire_lord")
        }
        placed = {p["target"] for p in view["me"]["placed"]}
        (offer,) = [p["options"] for p in view["pending"] if p["action"] == "place_token"]
        hunters = [t for t in offer["targets"] if t not in allies | placed]
        if hunters:  # (late in a game a Stake may have nowhere else to go)
            assert args["target"] not in allies, (seat, args)

    for seed in range(6):
        _play(seed, 8 + seed % 3, relics, check, sensible_share=1.0)


def test_a_view_is_all_a_bot_is_handed_json_in_json_out():
    """The strategy works on the plain dict: a JSON round trip of the view (no State, no object
    behind it) gives exactly the same decision."""
    checked = 0

    def check(state, seat, view, choice):
        nonlocal checked
        copied = json.loads(json.dumps(view))
        again = sensible.choose(random.Random(seat), copied)
        assert again == sensible.choose(random.Random(seat), copy.deepcopy(view))
        checked += 1

    _play(11, 10, True, check, sensible_share=1.0)
    assert checked > 100


def test_decisions_ignore_secrets_the_bot_may_not_know():
    """Two states that differ only in a secret a seat may not know (another seat's role, swapped
    between a Vampire and a Hunter it has no knowledge of) give that seat identical choices."""
    compared = 0

    def check(state, seat, view, choice):
        nonlocal compared
        me = state.player(seat)
        knows = {k.seat for k in me.knowledge} | {seat}
        unknown = [p for p in state.players if p.seat not in knows]
        vampire = next((p for p in unknown if p.role in ("vampire", "vampire_lord")), None)
        hunter = next((p for p in unknown if p.role == "hunter"), None)
        if vampire is None or hunter is None or view.get("public_roles"):
            return
        other = with_player(state, vampire.seat, role=hunter.role)
        other = with_player(other, hunter.seat, role=vampire.role)
        other = state_from_json(to_json(other))  # a separate state, not a shared object
        assert other.player(vampire.seat).role == "hunter"
        for k in range(3):
            mine = sensible.choose(random.Random(k), engine.view(state, seat))
            theirs = sensible.choose(random.Random(k), engine.view(other, seat))
            assert mine == theirs, (seat, vampire.seat, hunter.seat)
        compared += 1

    for seed in range(3):
        _play(seed, 10, seed == 1, check, sensible_share=1.0)
    assert compared > 100


# --- hand-made views: the sensible choices themselves ---------------------------------------------


def _view(roles: str, seat: int, **changes):
    """Seat `seat`'s real view of a fresh game with a fixed deal, then edited by `changes`."""
    deal = {
        i + 1: {"H": "hunter", "V": "vampire", "L": "vampire_lord"}[c] for i, c in enumerate(roles)
    }
    state = engine.setup(Options(last_wills=False), len(roles), 1, roles=deal)
    view = engine.view(state, seat)
    for key, value in changes.items():
        view["me"][key] = value
    return view


def test_a_hunter_stakes_the_vampire_it_investigated_and_feasts_the_hunter_it_cleared():
    facts = [
        {"seat": 5, "source": "investigation", "round": 1, "role": "vampire"},
        {"seat": 6, "source": "investigation", "round": 1, "role": "hunter"},
    ]
    view = _view("LVHHVHHH", 3, knowledge=facts)
    assert sensible.choose(random.Random(1), view) == (
        "place_token",
        {"token": "stake", "target": 5},
    )
    view["me"]["tokens"] = ["feast"]
    view["me"]["placed"] = [{"target": 5, "token": "stake"}, {"target": 1, "token": "stake"}]
    view["pending"] = [
        {
            "action": "place_token",
            "options": {"tokens": ["feast"], "targets": [1, 2, 4, 5, 6, 7, 8]},
        }
    ]
    assert sensible.choose(random.Random(1), view) == (
        "place_token",
        {"token": "feast", "target": 6},
    )


def test_vampires_feast_each_other_but_the_lord_feasts_a_hunter():
    state = engine.setup(Options(last_wills=False), 10, 1, roles=_deal("LVVHHHHHHH"))
    for seat, role in ((2, "vampire"), (1, "vampire_lord")):
        view = engine.view(state, seat)
        view["pending"] = [
            {"action": "place_token", "options": {"tokens": ["feast"], "targets": _others(seat)}}
        ]
        name, args = sensible.choose(random.Random(3), view)
        if role == "vampire":
            assert args["target"] in (1, 3)
        else:
            assert args["target"] not in (2, 3)


def test_the_lord_picks_a_hunter_to_examine_it_and_a_vampire_picks_its_own():
    state = engine.setup(Options(last_wills=False), 10, 1, roles=_deal("LVVHHHHHHH"))
    for seat in (1, 2):
        view = engine.view(state, seat)
        view["pending"] = [{"action": "choose_examiner", "options": {"targets": _others(seat)}}]
        _, args = sensible.choose(random.Random(3), view)
        if seat == 1:
            assert args["target"] >= 4  # a Hunter: Mesmerized by what they see (R8.1)
        else:
            assert args["target"] in (1, 3)


def test_last_wills_go_against_suspects_and_toasts_to_friends():
    facts = [
        {"seat": 5, "source": "investigation", "round": 1, "role": "vampire"},
        {"seat": 6, "source": "investigation", "round": 1, "role": "hunter"},
    ]
    view = _view("LVHHVHHH", 3, knowledge=facts)
    for card, expected in (("dying_accusation", 5), ("grudge", 5), ("toast", 6)):
        view["pending"] = [
            {
                "action": "resolve_choice",
                "options": {"choice": card, "targets": [1, 2, 4, 5, 6, 7, 8], "count": 1},
            }
        ]
        assert sensible.choose(random.Random(1), view) == (
            "resolve_choice",
            {"choice": card, "targets": [expected]},
        )


def test_a_ghost_vampire_protects_its_own():
    view = _view("LVHHVHHH", 2)
    view["pending"] = [{"action": "intervention_vote", "options": {"targets": [1, 3, 4, 5, 6]}}]
    _, args = sensible.choose(random.Random(1), view)
    assert args["target"] in (1, 5)


def test_bot_move_turns_a_choice_into_an_action_for_its_seat():
    view = _view("LVHHVHHH", 3)
    move = bot_move(random.Random(1), 3, view, "sensible")
    assert move.seat == 3 and move.name == "place_token"
    assert bot_move(random.Random(1), 3, {**view, "pending": []}, "random") is None
    with pytest.raises(ValueError, match="Unknown bot strategy"):
        strategies.get("clever")


def _deal(roles: str) -> dict[int, str]:
    names = {"H": "hunter", "V": "vampire", "L": "vampire_lord"}
    return {i + 1: names[c] for i, c in enumerate(roles)}


def _others(seat: int, n: int = 10) -> list[int]:
    return [s for s in range(1, n + 1) if s != seat]
