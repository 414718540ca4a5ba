"""R2 (round structure ruling) and R3 Mingling: targets, secrecy, ending, unplaced tokens, Alpha."""

from __future__ import annotations

import json

import pytest

from games.engine import timeout
from tests.engine.table import Table

# Round 1 at six players (LVHHHH): seat 3 is most staked, seat 5 gets the most Feasts.
ROUND_1 = {
    1: "S3 S4 F5",
    2: "S3 S4 F5",
    3: "S4 S5 F6",
    4: "S3 S5 F6",
    5: "S3 S6 F4",
    6: "S3 S4 F5",
}
# Round 2 (Alpha 5): seat 2 is most staked (6 votes), seat 4 gets the most Feasts.
ROUND_2 = {
    1: "S2 S3 F4",
    2: "S1 S3 F4",
    3: "S2 S4 F6",
    4: "S2 S6 F3",
    5: "D2 F4 I6",
    6: "S2 S1 F4",
}


def to_round_2(**options) -> Table:
    t = Table("LVHHHH", **options)
    t.mingle(ROUND_1)
    t.do(3, "choose_examiner", target=6)
    assert t.state.round == 2 and t.state.alpha == 5
    return t


def to_round_3(**options) -> Table:
    """Round 3 with seat 2 a Ghost and seat 4 the Alpha."""
    t = to_round_2(**options)
    t.mingle(ROUND_2)
    assert t.state.round == 3 and not t.alive(2) and t.state.alpha == 4
    return t


# --- R2 ruling: no pause between rounds ----------------------------------------------------------


def test_r2_ruling_next_round_mingling_opens_at_once_after_dining():
    t = Table("LVHHHH", timers={"mingling": 240})
    t.mingle(ROUND_1)
    t.now += 7
    t.do(3, "choose_examiner", target=6)  # the last thing round 1's Dining asked for
    v = t.view(4)
    assert v["round"] == 2
    assert v["phase"] == "mingling"
    assert v["deadline"] == t.now + 240
    assert v["me"]["tokens"] == ["stake", "stake", "feast"]
    assert v["pending"][0]["action"] == "place_token"
    assert t.kinds()[-1] == "round_started"


def test_r2_ruling_last_dining_keeps_the_results_on_screen():
    t = to_round_2()
    for seat in (None, 1, 4):
        d = t.view(seat)["last_dining"]
        assert d["round"] == 1
        assert d["examined"] == 3
        assert d["examiner"] == 6
        assert d["alpha_elected"] == 5
        assert {"owner": 1, "target": 3, "token": "stake"} in d["tokens"]
        assert len(d["tokens"]) == 18
    t.place(1, "S2")  # placing in round 2 does not disturb it
    assert t.view(None)["last_dining"]["round"] == 1
    t.mingle(ROUND_2 | {1: "S3 F4"})
    d = t.view(None)["last_dining"]
    assert d["round"] == 2 and d["eliminated"] == 2 and d["alpha_elected"] == 4


def test_r2_ruling_next_round_starts_at_once_after_an_elimination():
    t = to_round_2(timers={"mingling": 100})
    t.now = 5000.0
    t.mingle(ROUND_2)  # every token placed: Mingling ends at once, Dining resolves, round 3 opens
    assert t.state.round == 3
    assert t.state.phase == "mingling"
    assert t.state.deadline == 5100.0


def test_r2_ruling_an_eliminated_player_is_a_ghost_at_once_and_votes_in_the_same_dining():
    t = to_round_2()
    # Seat 2 is eliminated; seats 3 and 6 tie for the Alpha (2 Feasts each).
    t.mingle(
        {
            1: "S2 S4 F3",
            2: "S1 S4 F6",
            3: "S2 S1 F5",
            4: "S2 S1 F3",
            5: "D2 F4 I6",
            6: "S2 S3 F4",
        }
    )
    assert not t.alive(2)
    assert t.state.phase == "tiebreak"
    tie = t.view(None)["tie"]
    assert tie["kind"] == "election"
    assert tie["candidates"] == [3, 4]
    assert tie["voters"] == [2]  # the Ghost of this very Dining
    assert t.view(2)["pending"] == [
        {"action": "tiebreak_vote", "options": {"targets": [3, 4], "min": 1, "max": 1}}
    ]
    assert t.view(3)["pending"] == []
    t.vote({2: 4})
    assert t.state.round == 3 and t.state.alpha == 4


# --- R3.1 legal targets --------------------------------------------------------------------------


def test_r3_1_never_on_self():
    t = Table("LVHHHH")
    err = t.illegal("illegal_target", 3, "place_token", token="stake", target=3)
    assert "R3.1" in err.detail
    t.illegal("illegal_target", 3, "place_token", token="feast", target=3)
    assert 3 not in t.view(3)["pending"][0]["options"]["targets"]


def test_r3_1_never_two_own_tokens_on_the_same_player():
    t = Table("LVHHHH")
    t.place(3, "S4")
    t.illegal("illegal_target", 3, "place_token", token="stake", target=4)
    t.illegal("illegal_target", 3, "place_token", token="feast", target=4)
    assert t.view(3)["pending"][0]["options"]["targets"] == [1, 2, 5, 6]
    # another player's token on seat 4 does not block seat 3's own choice elsewhere
    t.place(5, "S4")
    t.place(3, "F5")
    assert t.view(3)["me"]["placed"] == [
        {"target": 4, "token": "stake"},
        {"target": 5, "token": "feast"},
    ]


def test_r3_1_the_alpha_cannot_stack_two_alpha_tokens_on_one_player_either():
    t = to_round_2()
    t.place(5, "D2")
    t.illegal("illegal_target", 5, "place_token", token="investigation", target=2)
    t.illegal("illegal_target", 5, "place_token", token="feast", target=2)


def test_r3_1_only_living_targets():
    t = to_round_3()
    err = t.illegal("illegal_target", 1, "place_token", token="stake", target=2)
    assert "Ghost" in err.detail
    t.illegal("illegal_target", 1, "place_token", token="stake", target=7)
    t.illegal("illegal_target", 1, "place_token", token="stake", target=0)
    t.illegal("illegal_target", 1, "place_token", token="stake", target=-1)
    assert t.view(1)["pending"][0]["options"]["targets"] == [3, 4, 5, 6]


def test_r3_1_only_tokens_in_hand():
    t = Table("LVHHHH")
    t.illegal("illegal_token", 3, "place_token", token="double_stake", target=4)
    t.illegal("illegal_token", 3, "place_token", token="investigation", target=4)
    t.illegal("illegal_token", 3, "place_token", token="garlic", target=4)
    t.place(3, "F4")
    t.illegal("illegal_token", 3, "place_token", token="feast", target=5)


def test_r3_1_malformed_moves_are_bad_requests_and_change_nothing():
    t = Table("LVHHHH")
    t.illegal("bad_request", 3, "place_token", token="stake", target="4")
    t.illegal("bad_request", 3, "place_token", token="stake", target=True)
    t.illegal("bad_request", 3, "place_token", token="stake")
    t.illegal("bad_request", 3, "place_token", target=4)
    t.illegal("bad_request", 9, "place_token", token="stake", target=4)


def test_r3_1_ghosts_place_no_tokens():
    t = to_round_3()
    t.illegal("wrong_phase", 2, "place_token", token="stake", target=3)


# --- R3.2 what everyone sees while mingling ------------------------------------------------------


def test_r3_2_placed_by_shows_owners_to_every_living_seat_and_spectators():
    t = Table("LVHHHH")
    t.place(1, "S4").place(2, "F4").place(6, "S4").place(3, "S5")
    for viewer in (None, 1, 2, 3, 4, 5, 6):
        seats = {s["seat"]: s["placed_by"] for s in t.view(viewer)["seats"]}
        assert seats == {1: [], 2: [], 3: [], 4: [1, 2, 6], 5: [3], 6: []}, viewer


def test_r3_2_placed_by_is_cleared_when_the_tokens_are_revealed():
    t = to_round_2()
    assert all(s["placed_by"] == [] for s in t.view(None)["seats"])


@pytest.mark.parametrize(
    "setup_table,owner,target,tokens",
    [
        (lambda: Table("LVHHHH"), 3, 4, ["stake", "feast"]),
        (to_round_2, 5, 4, ["double_stake", "feast", "investigation"]),
    ],
)
def test_r3_2_token_types_appear_in_no_other_view_before_dining(setup_table, owner, target, tokens):
    """Two tables that differ only in the type of one placed token look alike to everyone else."""
    tables = []
    for token in tokens:
        t = setup_table()
        t.do(owner, "place_token", token=token, target=target)
        tables.append(t)
    n = len(tables[0].state.players)
    for viewer in [None] + [s for s in range(1, n + 1) if s != owner]:
        views = [json.dumps(t.view(viewer), sort_keys=True) for t in tables]
        assert all(v == views[0] for v in views), viewer
        logs = [[(e.kind, e.text, e.data) for e in t.seen_by(viewer)] for t in tables]
        if viewer is not None:
            assert all(log == logs[0] for log in logs), viewer
    public = [[(e.kind, e.text, e.data) for e in t.events if e.audience is None] for t in tables]
    assert all(log == public[0] for log in public)
    # the owner alone sees the type
    mine = [t.view(owner)["me"]["placed"] for t in tables]
    assert mine == [[{"target": target, "token": token}] for token in tokens]


def test_r3_2_a_ghost_sees_no_placements_until_they_cast_their_intervention_vote():
    t = to_round_3()
    t.place(1, "S3").place(5, "S3 F6")
    before = {s["seat"]: s["placed_by"] for s in t.view(2)["seats"]}
    assert before == {1: [], 2: [], 3: [], 4: [], 5: [], 6: []}
    assert {s["seat"]: s["placed_by"] for s in t.view(4)["seats"]}[6] == [5]
    t.do(2, "intervention_vote", target=6)
    after = {s["seat"]: s["placed_by"] for s in t.view(2)["seats"]}
    assert after == {1: [], 2: [], 3: [1, 5], 4: [], 5: [], 6: [5]}


def test_r3_2_spectators_see_no_placements_while_a_ghost_is_away():
    """Ruling: the spectator view (the room's shared screen, the API without a seat,
    a logged-out page) shows what an away Ghost would see, or the Ghost could read it there."""
    t = to_round_3()
    t.place(1, "S3").place(5, "S3 F6")
    spectator = t.view(None)
    assert {s["seat"]: s["placed_by"] for s in spectator["seats"]} == dict.fromkeys(range(1, 7), [])
    assert spectator["waiting_for"] == t.view(2)["waiting_for"] == [2]  # who still places: hidden
    t.do(2, "intervention_vote", target=6)
    after = {s["seat"]: s["placed_by"] for s in t.view(None)["seats"]}
    assert after == {1: [], 2: [], 3: [1, 5], 4: [], 5: [], 6: [5]}
    assert t.view(None)["waiting_for"] == t.view(4)["waiting_for"]


def test_r3_2_a_placed_token_is_final():
    t = Table("LVHHHH")
    t.place(3, "S4")
    t.illegal("illegal_target", 3, "place_token", token="stake", target=4)
    assert t.view(3)["me"]["tokens"] == ["stake", "feast"]
    assert [a["action"] for a in t.view(3)["pending"]] == ["place_token"]


# --- R3.3 when Mingling ends ---------------------------------------------------------------------


def test_r3_3_mingling_deadline_is_now_plus_the_mingling_timer():
    t = Table("LVHHHH", timers={"mingling": 600})
    assert t.state.deadline == t.now + 600
    assert t.view(None)["deadline"] == t.now + 600
    default = Table("LVHHHH")
    assert default.state.deadline == default.now + 180


def test_r3_3_mingling_ends_at_once_when_every_token_is_placed():
    t = Table("LVHHHH")
    for seat in range(1, 6):
        t.place(seat, ROUND_1[seat])
    t.place(6, "S3 S4")
    assert t.state.phase == "mingling"
    assert "mingling_over" not in t.kinds()
    t.place(6, "F5")
    assert t.state.phase == "choose_examiner"
    over = [e for e in t.events if e.kind == "mingling_over"]
    assert len(over) == 1 and over[0].audience is None


def test_r3_3_mingling_does_not_end_before_the_timer_while_tokens_remain():
    t = Table("LVHHHH", timers={"mingling": 180})
    t.place(1, "S3 S4 F5")
    state, events = timeout(t.state, t.state.deadline - 0.5)
    assert state == t.state and events == []
    assert t.state.phase == "mingling"
    t.expire()
    assert t.state.phase != "mingling"


def test_r3_3_mingling_waits_for_every_ghost_vote():
    t = to_round_3()
    plan = {1: "S5 S3 F6", 3: "S5 S1 F6", 4: "D5 F6 I3", 5: "S1 S3 F6", 6: "S5 S3 F1"}
    for seat, words in plan.items():
        t.place(seat, words)
    assert t.state.phase == "mingling" and t.state.round == 3
    assert t.view(None)["waiting_for"] == [2]
    assert t.view(2)["pending"] == [
        {"action": "intervention_vote", "options": {"targets": [1, 3, 4, 5, 6], "min": 1, "max": 1}}
    ]
    t.do(2, "intervention_vote", target=6)
    assert t.state.round == 4 and t.state.phase == "mingling"
    d = t.view(None)["last_dining"]
    assert (d["round"], d["protected"], d["eliminated"], d["alpha_elected"]) == (3, 6, 5, 1)


def test_r3_3_a_ghost_vote_alone_does_not_end_mingling():
    t = to_round_3()
    t.do(2, "intervention_vote", target=6)
    assert t.state.phase == "mingling"
    assert t.view(None)["waiting_for"] == [1, 3, 4, 5, 6]


# --- R3.4 unplaced tokens ------------------------------------------------------------------------


def test_r3_4_an_unplaced_feast_counts_as_a_stake_against_its_owner():
    t = Table("LVHHHH")
    # Everyone else ends with 2 Stakes; seat 6 gets 2 Stakes and keeps its Feast: 3 votes.
    t.mingle(
        {
            1: "S3 S4 F2",
            2: "S5 S6 F1",
            3: "S4 S5 F1",
            4: "S6 S1 F2",
            5: "S3 S2 F1",
            6: "S1 S2",
        }
    )
    d = t.dining
    assert d["unplaced"] == [{"owner": 6, "token": "feast"}]
    assert d["examined"] == 6
    assert t.state.phase == "choose_examiner"


def test_r3_4_every_unplaced_token_counts_one_stake():
    t = Table("LVHHHH")
    # Seat 4 places nothing: 3 votes against them; nobody else has more than 2.
    t.mingle(
        {
            1: "S2 S3 F5",
            2: "S3 S5 F6",
            3: "S5 S6 F1",
            5: "S6 S1 F2",
            6: "S1 S2 F3",
        }
    )
    d = t.dining
    assert sorted((u["owner"], u["token"]) for u in d["unplaced"]) == [
        (4, "feast"),
        (4, "stake"),
        (4, "stake"),
    ]
    assert d["examined"] == 4


def test_r3_4_an_unplaced_double_stake_counts_one_stake_not_two():
    t = to_round_2()
    # Alpha 5 keeps the Double-Stake: 1 vote + 1 Stake from seat 6 = 2 on seat 5.
    # Seat 1 has 3 Stakes and must be eliminated alone (were the Double-Stake 2, 5 would tie).
    t.mingle(
        {
            1: "S3 S4 F6",
            2: "S1 S3 F4",
            3: "S1 S6 F2",
            4: "S1 S2 F3",
            5: "F4 I6",
            6: "S5 S4 F3",
        }
    )
    d = t.dining
    assert d["round"] == 2
    assert d["unplaced"] == [{"owner": 5, "token": "double_stake"}]
    assert d["eliminated"] == 1
    assert not t.alive(1)


def test_r3_4_nothing_placed_at_all_ties_every_player():
    t = Table("LVHHHH")
    t.expire()
    assert len(t.dining["unplaced"]) == 18
    tie = t.view(None)["tie"]
    assert tie["kind"] == "examination"
    assert tie["candidates"] == [1, 2, 3, 4, 5, 6]


# --- R3.5 the Alpha's tokens ---------------------------------------------------------------------


def test_r3_5_the_alpha_holds_double_stake_feast_and_investigation():
    t = to_round_2()
    me = t.view(5)["me"]
    assert me["tokens"] == ["double_stake", "feast", "investigation"]
    assert t.view(5)["pending"][0]["options"]["tokens"] == [
        "double_stake",
        "feast",
        "investigation",
    ]
    assert t.view(5)["seats"][4]["alpha"] is True
    assert [s["alpha"] for s in t.view(None)["seats"]] == [False] * 4 + [True, False]
    for seat in (1, 2, 3, 4, 6):
        assert t.view(seat)["me"]["tokens"] == ["stake", "stake", "feast"]
    t.illegal("illegal_token", 5, "place_token", token="stake", target=1)


def test_r3_5_a_double_stake_counts_two_stake_votes():
    t = to_round_2()
    # Seat 3: Double-Stake + 1 Stake = 3; nobody else has more than 2.
    t.mingle(
        {
            1: "S3 S2 F4",
            2: "S1 S4 F6",
            3: "S1 S2 F4",
            4: "S6 S5 F2",
            5: "D3 F4 I6",
            6: "S4 S5 F1",
        }
    )
    assert t.dining["eliminated"] == 3
    assert {"owner": 5, "target": 3, "token": "double_stake"} in t.dining["tokens"]


def test_r3_5_the_receipt_of_an_investigation_reads_an_investigation():
    """Never "You placed a Investigation" (docs/voice.md: grammar is checked)."""
    t = to_round_2()
    t.place(5, "I6")
    t.place(1, "S2")
    receipts = [e.text for e in t.events if e.kind == "token_placed"]
    assert "You placed an Investigation on seat 6." in receipts
    assert "You placed a Stake on seat 2." in receipts
