"""Bot strategies (games/bots/strategies): always legal, and deciding from their own seat's view
only."""

from __future__ import annotations

import collections
import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import relics.rules  # noqa: F401 - registers the Sacred Relics module
from games import engine, simulate
from games.bots import strategies
from games.bots.moves import bot_move
from games.bots.strategies import sensible
from games.engine import Options, state_from_json, to_json
from games.engine.common import with_player
from games.engine.view import waiting_for
from tests.relics.conftest import play, relic_table, window
from tests.relics.test_r10_windows import W6

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
    checked = 0

    def check(state, seat, view, choice):
        nonlocal checked
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
            checked += 1

    for seed in range(6):
        _play(seed, 8 + seed % 3, relics, check, sensible_share=1.0)
    assert checked > 0, "no Vampire Stake was ever checked"


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


# --- relics: the windows and Van Helsing's Journal, from real relic games -------------------------


def _candle_table():
    """Round 2 of LVHHHH, nobody Alpha; seat 4 (a Hunter holding the Candle) examined seat 3 in
    round 1, so knows it for a Hunter. Seat 1 (the Lord) staked 3; seat 4 feasted 5."""
    t = relic_table("LVHHHH", W6, elect=None)
    t.mingle(
        {
            1: "S3 S6 F2",
            2: "S3 S5 F1",
            3: "S1 S2 F4",
            4: "S1 S2 F5",
            5: "S1 S6 F3",
            6: "S1 S5 F3",
        }
    )
    assert window(t) == {
        "card": "whisper_wick_candle",
        "seat": 4,
        "as": "whisper_wick_candle",
        "stage": "post",
    }
    return t


def test_sensible_hunter_uses_the_candle_to_move_a_stake_off_an_ally():
    t = _candle_table()
    view = t.view(4)
    assert {"seat": 3, "source": "examination", "round": 1, "role": "hunter"} in view["me"][
        "knowledge"
    ]
    choice = sensible.choose(random.Random(1), view)
    # The Lord's token on seat 3 (a Stake, though seat 4 cannot see which) for my own Feast on 5.
    assert choice == (
        "use_relic",
        {"relic": "whisper_wick_candle", "targets": [3, 5], "owners": [1, 4]},
    )
    t.do(4, *choice[:1], **choice[1])  # legal
    on_three = {(p.owner, p.token) for p in t.state.placements if p.target == 3}
    assert (1, "stake") not in on_three and (4, "feast") in on_three


def test_sensible_hunter_passes_the_candle_when_no_swap_is_known_to_help():
    view = _candle_table().view(4)
    view["me"]["knowledge"] = []  # nobody's side known: every other token is a blind guess
    assert sensible.choose(random.Random(1), view) == ("pass", {})


def test_sensible_vampire_takes_a_hunters_relic_with_the_signet_ring():
    t = relic_table("LVHHHH", W6, windows=True)
    t.do(1, "pass")  # the Ritual Bell
    assert window(t)["seat"] == 2
    name, args = sensible.choose(random.Random(1), t.view(2))
    assert name == "use_relic" and args["relic"] == "signet_ring"
    assert args["targets"][0] in (3, 4, 5, 6)  # a Hunter, never the Lord
    t.do(2, name, **args)


def test_sensible_hunter_rings_a_known_vampire_and_keeps_the_ring_when_it_knows_none():
    wanted = {**W6, 2: "whisper_wick_candle", 4: "signet_ring"}
    t = relic_table("LVHHHH", wanted, windows=True)
    t.do(1, "pass")
    assert window(t)["seat"] == 4
    view = t.view(4)
    view["me"]["knowledge"] = [
        {"seat": 2, "source": "investigation", "round": 1, "role": "vampire"}
    ]
    assert sensible.choose(random.Random(1), view) == (
        "use_relic",
        {"relic": "signet_ring", "targets": [2], "card": "whisper_wick_candle"},
    )
    view["me"]["knowledge"] = []
    view["last_dining"] = None  # no suspicion either
    assert sensible.choose(random.Random(1), view) == ("pass", {})


def test_sensible_bot_copies_a_ghosts_relic_with_the_hindsight_looking_glass():
    t = relic_table("LVHHHH", W6)
    play(t, kill=5)  # seat 5, the Key's holder, is a Ghost; round 3's windows are open
    assert t.state.round == 3 and not t.state.player(5).alive
    while window(t)["seat"] != 3:
        t.do(window(t)["seat"], "pass")
    choice = sensible.choose(random.Random(1), t.view(3))
    assert choice == (
        "use_relic",
        {"relic": "hindsight_looking_glass", "targets": [5], "card": "key_of_quick_passage"},
    )
    t.do(3, choice[0], **choice[1])
    assert t.view(3)["me"]["relic"]["acting_as"] == "key_of_quick_passage"


def test_sensible_bot_moves_a_likely_stake_to_the_bangle_partner_it_now_sees():
    """R10.2a: the partner is public, so the bot knows which moves the rules allow; it moves a
    token off its seat while that lowers the higher of the two counts (they die together)."""
    wanted = {**W6, 2: "bangle_of_oaths", 5: "bangle_of_oaths", 6: "key_of_quick_passage"}
    wanted[4] = "blood_of_the_one"
    t = relic_table("LVHHHH", wanted, elect=None)
    t.mingle(
        {
            1: "S3 S5 F2",
            2: "S3 S5 F1",
            3: "S2 S5 F4",
            4: "S3 S5 F6",
            5: "S2 S3 F6",
            6: "S3 S5 F1",
        }
    )  # seat 5 (a Bangle) is the most staked
    assert window(t)["as"] == "bangle_of_oaths" and window(t)["seat"] == 2
    # seat 2: the tokens on it are seat 3's (already on seat 5) and seat 5's own: none may move
    assert sensible.choose(random.Random(1), t.view(2)) == ("pass", {})
    t.do(2, "pass")
    assert window(t)["seat"] == 5
    choice = sensible.choose(random.Random(1), t.view(5))  # seat 1 has a token on seat 2
    assert choice == ("use_relic", {"relic": "bangle_of_oaths", "owners": [4]})
    t.do(5, choice[0], **choice[1])
    assert 4 in t.view(None)["seats"][1]["placed_by"]


def test_sensible_vampires_keep_their_stakes_off_a_cross_of_saint_john_holder():
    """R10.2a: the Vampires can see the Cross now, and avoid it while another Hunter is free.
    Seat 4, the Alpha, is the one they would stake first without it."""
    t = relic_table("LVHHHH", {**W6, 4: "cross_of_saint_john"})
    stakes = 0
    for seat in (1, 2):
        for _ in range(3):
            name, args = sensible.choose(random.Random(seat), t.view(seat))
            assert name == "place_token"
            if args["token"] == "stake":
                assert args["target"] != 4, seat
                stakes += 1
            t.do(seat, name, **args)
    assert stakes == 4  # each Vampire's hand holds two Stakes (R1.5)


def test_sensible_scales_holder_settles_a_tie_it_is_in_and_passes_a_blind_one():
    from tests.relics.test_r11_cards import TIE, finish_round, table, to_post

    t = table(s3="scales_of_justice")
    to_post(t, TIE)  # seats 3 and 5 are tied for elimination
    finish_round(t)
    choice = sensible.choose(random.Random(1), t.view(3))
    assert choice == ("use_relic", {"relic": "scales_of_justice", "targets": [5]})
    t2 = table(s6="scales_of_justice")
    to_post(t2, TIE)
    finish_round(t2)
    view = t2.view(6)
    view["me"]["knowledge"] = []  # nobody's side known: the card is not worth spending
    assert sensible.choose(random.Random(1), view) == ("pass", {})


def _journal_view(roles: str, seat: int, **changes):
    view = _view(roles, seat, **changes)
    view["pending"] = [
        {
            "action": "resolve_choice",
            "options": {"choice": "van_helsings_journal", "targets": [7], "count": 1},
        },
        {"action": "pass", "options": {}},
    ]
    return view


READ = ("resolve_choice", {"choice": "van_helsings_journal", "targets": [7]})


def test_sensible_hunter_reads_van_helsings_journal_when_the_lord_hides_among_many():
    assert sensible.choose(random.Random(1), _journal_view("LVVHHHHHHH", 4)) == READ


def test_sensible_hunter_declines_the_journal_when_the_dead_seat_may_well_be_the_lord():
    known = [
        {"seat": s, "source": "investigation", "round": 1, "role": "hunter"} for s in (5, 6, 8)
    ]
    view = _journal_view("LVVHHHHH", 4, knowledge=known)  # the Lord: one of 1, 2, 3, 7
    assert sensible.choose(random.Random(1), view) == ("pass", {})
    crown = {"id": "crown_of_solomon", "negated": False, "discarded": False, "acting_as": None}
    view["me"]["relics"] = [crown]  # the Crown: no gaze can Mesmerize it (R11)
    assert sensible.choose(random.Random(1), view) == READ


def test_sensible_vampires_decline_van_helsings_journal():
    for seat in (1, 2):  # the Lord and a Vampire already know every role that matters
        assert sensible.choose(random.Random(1), _journal_view("LVVHHHHHHH", seat)) == ("pass", {})


def test_sensible_bots_use_the_candle_ring_glass_and_journal_and_never_move_illegally(monkeypatch):
    """A seeded simulator run with relics: every relic window the sensible bot plays is legal,
    and the Candle, Signet Ring, Hindsight Looking Glass, Van Helsing's Journal, the Bangle of
    Oaths and the Scales of Justice all get used."""
    used = collections.Counter()
    apply = simulate.runner.apply

    def counting(state, action, *args, **kwargs):
        new, events = apply(state, action, *args, **kwargs)
        for e in events:
            if e.kind == "relic_used":
                used.update(name for name in RELIC_NAMES if name in e.text)
        return new, events

    monkeypatch.setattr(simulate.runner, "apply", counting)
    config = simulate.Config(players=10, games=50, relics=True, last_wills=True, seed=5)
    tally = simulate.play_chunk((config, 0, config.games))
    assert tally.games == 50 and tally.illegal == 0
    assert all(used[name] > 0 for name in RELIC_NAMES), used


RELIC_NAMES = (
    "Whisper-Wick Candle",
    "Signet Ring",
    "Hindsight Looking Glass",
    "Van Helsing's Journal",
    "Bangle of Oaths",
    "Scales of Justice",
)


@pytest.mark.parametrize("relics_on", [False, True])
def test_sensible_memo_changes_no_decision(relics_on, monkeypatch):
    """The simulator's per-game memo only saves work: with it, every decision of whole games is
    the one the bot makes from the same view without it."""
    decisions = 0
    built = []  # a Reading built during a call with the memo: the memo had none to reuse
    build = sensible.Reading.__init__
    monkeypatch.setattr(
        sensible.Reading, "__init__", lambda self, view: built.append(build(self, view))
    )
    for seed in range(12):
        memo: dict = {}

        def same(state, seat, view, choice, seed=seed, memo=memo):
            nonlocal decisions
            fresh = sensible.choose(random.Random(seed), copy.deepcopy(view))
            built.clear()
            assert sensible.choose(random.Random(seed), view, memo) == fresh, (seed, seat)
            decisions += not built

        _play(seed, 6 + seed % 7, relics_on, same, sensible_share=1.0)
    assert decisions > 500  # decisions made from a remembered Reading
