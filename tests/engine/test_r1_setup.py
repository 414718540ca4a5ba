"""R1 Setup: player counts, the role deck, night information, teams and secrecy, the tokens."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.engine import IllegalAction, Options, opening_events, setup, view
from games.engine.state import HUNTER, LORD, VAMPIRE
from tests.engine.table import Table

# R1.2: players -> (Hunters, Vampires, Lord knows the Vampires?), always one Vampire Lord.
DECK = {
    6: (4, 1, False),
    7: (5, 1, True),
    8: (5, 2, False),
    9: (6, 2, False),
    10: (7, 2, True),
    11: (8, 2, True),
    12: (9, 2, True),
}


def roles_of(state) -> list[str]:
    return [p.role for p in state.players]


def fixed(roles: str) -> dict[int, str]:
    letters = {"H": HUNTER, "V": VAMPIRE, "L": LORD}
    return {i + 1: letters[c] for i, c in enumerate(roles)}


# --- R1.1 player counts --------------------------------------------------------------------------


@pytest.mark.parametrize("n", [6, 7, 8, 9, 10])
def test_r1_1_six_to_ten_players_start_without_the_expansion(n):
    state = setup(Options(), n, 5)
    assert len(state.players) == n
    assert [p.seat for p in state.players] == list(range(1, n + 1))
    assert state.round == 1 and state.phase == "mingling"


@pytest.mark.parametrize("n", [11, 12])
def test_r1_1_eleven_and_twelve_players_only_with_the_expansion(n):
    with pytest.raises(IllegalAction) as caught:
        setup(Options(expansion=False), n, 5)
    assert caught.value.code == "bad_request"
    state = setup(Options(expansion=True), n, 5)
    assert len(state.players) == n


@pytest.mark.parametrize(
    "n,expansion", [(0, False), (5, False), (5, True), (13, True), (13, False)]
)
def test_r1_1_bad_player_counts_are_refused_with_bad_request(n, expansion):
    with pytest.raises(IllegalAction) as caught:
        setup(Options(expansion=expansion), n, 5)
    assert caught.value.code == "bad_request"


# --- R1.2 the deck -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", sorted(DECK))
@pytest.mark.parametrize("seed", [1, 2, 3, 99])
def test_r1_2_deck_for_every_player_count(n, seed):
    hunters, vampires, knows = DECK[n]
    state = setup(Options(expansion=n > 10), n, seed)
    assert Counter(roles_of(state)) == Counter({HUNTER: hunters, VAMPIRE: vampires, LORD: 1})
    assert state.lord_knows_vampires is knows


@pytest.mark.parametrize("n", sorted(DECK))
def test_r1_2_same_seed_deals_the_same_roles(n):
    first = setup(Options(expansion=n > 10), n, 1234)
    random.seed(1)  # the global RNG must play no part (the game's own seeded RNG)
    random.random()
    second = setup(Options(expansion=n > 10), n, 1234)
    assert roles_of(first) == roles_of(second)
    assert first == second


@pytest.mark.parametrize("n", sorted(DECK))
def test_r1_2_different_seeds_deal_differently(n):
    deals = {tuple(roles_of(setup(Options(expansion=n > 10), n, seed))) for seed in range(1, 21)}
    assert len(deals) > 5
    assert roles_of(setup(Options(expansion=n > 10), n, 1)) != roles_of(
        setup(Options(expansion=n > 10), n, 2)
    )


@pytest.mark.parametrize("n", sorted(DECK))
def test_r1_2_every_seat_can_be_dealt_the_lord(n):
    lords = {roles_of(setup(Options(expansion=n > 10), n, s)).index(LORD) + 1 for s in range(200)}
    assert lords == set(range(1, n + 1))


def test_r1_2_a_fixed_deal_is_used_as_given():
    state = setup(Options(), 6, 1, roles=fixed("HHLHVH"))
    assert roles_of(state) == [HUNTER, HUNTER, LORD, HUNTER, VAMPIRE, HUNTER]


@pytest.mark.parametrize(
    "roles",
    [
        fixed("LVVHHH"),  # 2 Vampires at 6
        fixed("LLHHHH"),  # 2 Lords
        fixed("VHHHHH"),  # no Lord
        fixed("HHHHHH"),  # no Vampire side at all
        fixed("LVHHH"),  # seat 6 missing
        {**fixed("LVHHHH"), 6: "werewolf"},  # no such role
        {**fixed("LVHHHH"), 6: None},
    ],
)
def test_r1_2_a_fixed_deal_must_be_the_r1_2_deck(roles):
    with pytest.raises(IllegalAction) as caught:
        setup(Options(), 6, 1, roles=roles)
    assert caught.value.code == "bad_request"


def test_r1_2_a_fixed_deal_for_eight_needs_two_vampires():
    with pytest.raises(IllegalAction) as caught:
        setup(Options(), 8, 1, roles=fixed("LVHHHHHH"))
    assert caught.value.code == "bad_request"
    state = setup(Options(), 8, 1, roles=fixed("LVVHHHHH"))
    assert Counter(roles_of(state))[VAMPIRE] == 2


# --- R1.3 night information ----------------------------------------------------------------------


def night_facts(state, seat):
    return sorted(
        (k["seat"], k["role"])
        for k in view(state, seat)["me"]["knowledge"]
        if k["source"] == "night"
    )


@pytest.mark.parametrize("n", sorted(DECK))
@pytest.mark.parametrize("seed", [3, 17])
def test_r1_3_night_information_for_every_player_count(n, seed):
    state = setup(Options(expansion=n > 10), n, seed)
    _, vampires, lord_knows = DECK[n]
    vampire_side = {p.seat: p.role for p in state.players if p.role in (VAMPIRE, LORD)}
    assert sorted(vampire_side.values()) == ["vampire"] * vampires + ["vampire_lord"]
    events = opening_events(state)
    for p in state.players:
        me = view(state, p.seat)["me"]
        private = [e for e in events if e.audience is not None and p.seat in e.audience]
        others = sorted((s, r) for s, r in vampire_side.items() if s != p.seat)
        if p.role == VAMPIRE or (p.role == LORD and lord_knows):
            # sees every other Vampire and which one is the Lord
            assert night_facts(state, p.seat) == others
            assert all(k["round"] == 1 for k in me["knowledge"])
            assert len(private) == 1 and private[0].audience == (p.seat,)
            for seat, _role in others:
                assert f"seat {seat}" in private[0].text
            if p.role == VAMPIRE:
                lord = next(s for s, r in vampire_side.items() if r == LORD)
                assert (lord, LORD) in night_facts(state, p.seat)
        else:
            # a Hunter learns nothing; the Lord where the table says "no" knows only their role
            assert me["knowledge"] == []
            assert private == []
        assert me["role"] == p.role


def test_r1_3_six_players_vampire_sees_the_lord_but_the_lord_sees_nobody():
    t = Table("HVHLHH")
    assert night_facts(t.state, 2) == [(4, LORD)]
    assert t.view(4)["me"]["knowledge"] == []
    assert [e.audience for e in t.events if e.kind == "night"] == [(2,)]


def test_r1_3_seven_players_the_lord_sees_the_vampire():
    t = Table("HVHLHHH")
    assert night_facts(t.state, 2) == [(4, LORD)]
    assert night_facts(t.state, 4) == [(2, VAMPIRE)]
    assert sorted(e.audience for e in t.events if e.kind == "night") == [(2,), (4,)]
    for hunter in (1, 3, 5, 6, 7):
        assert t.view(hunter)["me"]["knowledge"] == []
        assert [e for e in t.seen_by(hunter) if e.audience] == []


def test_r1_3_eight_players_vampires_see_each_other_and_the_lord_who_sees_nobody():
    t = Table("VHHLHVHH")
    assert night_facts(t.state, 1) == [(4, LORD), (6, VAMPIRE)]
    assert night_facts(t.state, 6) == [(1, VAMPIRE), (4, LORD)]
    assert t.view(4)["me"]["knowledge"] == []
    assert [e.audience for e in t.events if e.kind == "night"] == [(1,), (6,)]


def test_r1_3_night_information_is_in_no_spectator_or_hunter_view():
    t = Table("VHHLHVHHHH")  # 10 players: the Lord knows
    for seat in (None, 2, 3, 5, 7, 8, 9, 10):
        text = json.dumps(t.view(seat))
        assert VAMPIRE not in text and LORD not in text, seat
    public = [e for e in t.events if e.audience is None]
    assert [e.kind for e in public] == ["game_started"]  # the night lines are all private
    assert all("Vampire" not in e.text for e in public)


# --- R1.4 teams, secrecy and the final reveal ----------------------------------------------------


def test_r1_4_no_role_is_revealed_on_elimination():
    t = Table("LVHHHH")
    # round 1: seat 3 most staked, examined by seat 4; seat 5 elected Alpha
    t.mingle(
        {
            1: "S3 S4 F5",
            2: "S3 S4 F5",
            3: "S4 S5 F6",
            4: "S3 S5 F6",
            5: "S3 S6 F4",
            6: "S3 S4 F5",
        }
    )
    t.do(3, "choose_examiner", target=4)
    # round 2: the Vampire (seat 2) is staked
    t.mingle(
        {
            1: "S2 S3 F4",
            2: "S1 S3 F4",
            3: "S2 S4 F6",
            4: "S2 S6 F3",
            5: "D2 F4 I6",
            6: "S2 S1 F4",
        }
    )
    assert not t.alive(2)
    eliminated = next(e for e in t.events if e.kind == "eliminated")
    assert eliminated.audience is None
    assert eliminated.data == {"seat": 2, "cause": "dining"}
    assert "Vampire" not in eliminated.text
    for seat in (None, 3, 4, 6):  # Hunters who never examined seat 2, and spectators
        v = t.view(seat)
        assert v["roles"] is None
        assert v["winner"] is None
        text = json.dumps(v)
        assert VAMPIRE not in text and LORD not in text
        ghost = v["seats"][1]
        assert ghost["alive"] is False
        assert "role" not in ghost


def test_r1_4_all_roles_and_mesmerized_are_revealed_to_everyone_at_the_end():
    t = Table("LVHHHH")
    # round 1: the Lord (seat 1) is most staked and has Hunter 3 examine them: 3 is Mesmerized
    t.mingle(
        {
            1: "S2 S3 F4",
            2: "S1 S3 F4",
            3: "S1 S2 F4",
            4: "S1 S5 F6",
            5: "S1 S6 F4",
            6: "S1 S5 F4",
        }
    )
    t.do(1, "choose_examiner", target=3)
    assert t.state.player(3).mesmerized
    # round 2 (Alpha 4): Vampire 2 out; round 3: the Lord out -> Hunters win
    t.mingle(
        {1: "S2 S3 F5", 2: "S1 S3 F5", 3: "S2 S5 F6", 4: "D2 F5 I6", 5: "S2 S3 F6", 6: "S2 S1 F5"}
    )
    assert not t.alive(2)
    assert t.state.outcome is None
    t.mingle({1: "S3 S4 F6", 3: "S1 S4 F6", 4: "S1 S3 F6", 5: "D1 F6 I3", 6: "S1 S3 F4"})
    assert t.state.outcome is not None
    won = t.state.outcome.winner == "vampires"  # R8.3: the Mesmerized Hunter sides with them
    expected = [
        {"seat": 1, "role": LORD, "mesmerized": False, "team": "vampires", "won": won},
        {"seat": 2, "role": VAMPIRE, "mesmerized": False, "team": "vampires", "won": won},
        {"seat": 3, "role": HUNTER, "mesmerized": True, "team": "vampires", "won": won},
        {"seat": 4, "role": HUNTER, "mesmerized": False, "team": "hunters", "won": not won},
        {"seat": 5, "role": HUNTER, "mesmerized": False, "team": "hunters", "won": not won},
        {"seat": 6, "role": HUNTER, "mesmerized": False, "team": "hunters", "won": not won},
    ]
    for seat in (None, 1, 2, 3, 4, 5, 6):
        assert t.view(seat)["roles"] == expected, seat


# --- R1.5 the tokens -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [6, 9, 12])
def test_r1_5_every_living_player_holds_stake_stake_feast(n):
    state = setup(Options(expansion=n > 10), n, 8)
    for seat in range(1, n + 1):
        assert sorted(view(state, seat)["me"]["tokens"]) == ["feast", "stake", "stake"]
        assert state.hands[seat - 1] == ("stake", "stake", "feast")
        [placing] = view(state, seat)["pending"]
        assert placing["action"] == "place_token"
        assert placing["options"]["tokens"] == ["feast", "stake"]


def test_r1_5_a_fourth_token_cannot_be_placed():
    t = Table("LVHHHH")
    t.place(3, "S1 S2 F4")
    assert t.view(3)["me"]["tokens"] == []
    assert t.view(3)["pending"] == []
    t.illegal("illegal_token", 3, "place_token", token="stake", target=5)
    t.illegal("illegal_token", 3, "place_token", token="feast", target=5)
