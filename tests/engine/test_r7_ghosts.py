"""R7 Ghosts and Ghostly Intervention (with R3.2's "Ghosts are away from the table" ruling).

Positions come from `ghost_table` (7 players, round 4, Ghosts 7 then 6, seat 1 the Alpha).
"""

from __future__ import annotations

import json

from games.engine import pending
from tests.engine.table import Table
from tests.engine.test_r5_ties import ghost_table, play_round

# Round 4: seat 3 has by far the most Stakes (5), seat 4 the next-highest (3); seat 5 the most
# Feasts. The Alpha (seat 1) investigates seat 2.
STAKES_ON_3 = {1: "D3 I2 F5", 2: "S3 S4 F5", 3: "S4 S1 F2", 4: "S3 S2 F5", 5: "S3 S4 F2"}
# Round 4: seat 3 has the most Feasts (3) and the Investigation token, seat 5 the next-highest
# Feasts (2); seat 4 has the most Stakes.
FEASTS_ON_3 = {1: "I3 D4 F5", 2: "S4 S5 F3", 3: "S4 S1 F5", 4: "S5 S2 F3", 5: "S4 S2 F3"}


def dumps(view):
    return json.dumps(view, sort_keys=True)


# -- R7.1 ---------------------------------------------------------------------------------------


def test_r7_1_ghosts_never_place_tokens():
    t = ghost_table()
    assert t.view(7)["me"]["tokens"] == []
    assert all(p["action"] != "place_token" for p in pending(t.state, 7))
    t.illegal("wrong_phase", 7, "place_token", token="stake", target=1)
    t.illegal("wrong_phase", 6, "place_token", token="feast", target=2)


def test_r7_1_ghosts_never_receive_tokens():
    t = ghost_table()
    (place,) = [p for p in pending(t.state, 2) if p["action"] == "place_token"]
    assert place["options"]["targets"] == [1, 3, 4, 5]
    t.illegal("illegal_target", 2, "place_token", token="stake", target=7)
    t.illegal("illegal_target", 1, "place_token", token="double_stake", target=6)
    t.illegal("illegal_target", 3, "place_token", token="feast", target=6)
    t.mingle(STAKES_ON_3)
    assert all(tok["target"] not in (6, 7) for tok in t.dining["tokens"])


def test_r7_1_ghosts_keep_their_team_and_win_with_it():
    t = ghost_table()
    # Kill seats 3 and 4 (Hunters): Lord, Vampire and one Hunter are left, the Vampires win.
    t.mingle(STAKES_ON_3)
    assert not t.alive(3)
    play_round(t, 4, None)
    assert t.state.outcome is not None
    view = t.view(7)  # a Hunter Ghost
    assert view["winner"] == "vampires"
    assert {r["seat"]: r["role"] for r in view["roles"]}[7] == "hunter"


# -- R7.2 -----------------------------------------------------------------------------------------


def test_r7_2_the_intervention_vote_is_secret():
    a, b = ghost_table(), ghost_table()
    a.do(7, "intervention_vote", target=3)
    b.do(7, "intervention_vote", target=4)
    for seat in (None, 1, 2, 3, 4, 5, 6):
        assert dumps(a.view(seat)) == dumps(b.view(seat)), seat
        if seat is not None:
            assert [e.text for e in a.seen_by(seat)] == [e.text for e in b.seen_by(seat)]
    assert a.view(7)["me"]["intervention_vote"] == 3
    assert a.view(6)["me"]["intervention_vote"] is None
    (receipt,) = [e for e in a.events if e.kind == "intervention_vote"]
    assert receipt.audience == (7,)


def test_r7_2_the_intervention_vote_is_final():
    t = ghost_table()
    assert pending(t.state, 7) == [
        {"action": "intervention_vote", "options": {"targets": [1, 2, 3, 4, 5], "min": 1, "max": 1}}
    ]
    t.do(7, "intervention_vote", target=3)
    assert pending(t.state, 7) == []
    t.illegal("wrong_phase", 7, "intervention_vote", target=4)
    t.illegal("wrong_phase", 7, "intervention_vote", target=3)


def test_r7_2_only_ghosts_vote_and_only_for_living_players():
    t = ghost_table()
    assert all(p["action"] != "intervention_vote" for p in pending(t.state, 1))
    t.illegal("wrong_phase", 1, "intervention_vote", target=3)
    t.illegal("illegal_target", 7, "intervention_vote", target=6)
    t.illegal("illegal_target", 7, "intervention_vote", target=8)


def test_r7_2_the_dials_are_revealed_attributed_at_dining():
    t = ghost_table()
    t.mingle(STAKES_ON_3, ghosts={7: 3, 6: 5})
    # 1–1: the latest Ghost (6) named 5 (R7.4)
    assert t.dining["intervention"] == [{"voter": 7, "target": 3}, {"voter": 6, "target": 5}]
    (dining,) = [e for e in t.events if e.kind == "dining" and e.round == 4]
    assert dining.audience is None
    assert dining.data["intervention"] == [{"voter": 7, "target": 3}, {"voter": 6, "target": 5}]
    assert t.dining["protected"] == 5


def test_r7_2_the_protected_player_cannot_be_eliminated_next_highest_is():
    t = ghost_table()
    t.mingle(STAKES_ON_3, ghosts={7: 3, 6: 3})
    assert t.dining["protected"] == 3
    assert t.alive(3)
    assert t.dining["eliminated"] == 4 and not t.alive(4)
    assert [e.data["seat"] for e in t.events if e.kind == "protected"] == [3]


def test_r7_2_without_protection_the_same_tokens_eliminate_the_most_staked():
    t = ghost_table()
    t.mingle(STAKES_ON_3)
    assert t.dining["protected"] is None
    assert not t.alive(3) and t.alive(4)


def test_r7_2_the_protected_player_cannot_be_elected_nor_investigated():
    t = ghost_table()
    known = list(t.state.player(1).knowledge)
    t.mingle(FEASTS_ON_3, ghosts={7: 3, 6: 3})
    assert t.dining["protected"] == 3
    assert t.dining["alpha_elected"] == 5
    assert t.state.alpha == 5
    assert t.dining["investigated"] is None
    assert list(t.state.player(1).knowledge) == known  # the Alpha learned nothing
    assert not any(e.kind == "examined" for e in t.events if e.round == 4)
    assert not t.alive(4)


def test_r7_2_without_protection_the_same_tokens_elect_and_investigate_seat_3():
    t = ghost_table()
    t.mingle(FEASTS_ON_3)
    assert t.dining["alpha_elected"] == 3
    assert t.dining["investigated"] == 3


def test_r7_2_the_protected_player_ignores_the_stakes_of_unplaced_tokens_too():
    t = ghost_table()
    # Seat 3 places nothing: 3 unplaced tokens = 3 Stake votes against them (R3.4), ignored.
    plan = {k: v for k, v in STAKES_ON_3.items() if k != 3}
    t.mingle(plan, ghosts={7: 3, 6: 3})
    assert t.alive(3) and t.dining["protected"] == 3


def test_r7_2_the_protected_flag_is_shown_on_the_seat_during_dining():
    t = ghost_table()
    # an election tie keeps Dining open: seats 2 and 3 tie for Feasts (2 each)
    t.mingle(
        {1: "D4 F2 I5", 2: "S4 S5 F3", 3: "S4 S1 F2", 4: "S3 S2 F5", 5: "S4 S1 F3"},
        ghosts={7: 5, 6: 5},
    )
    assert t.state.phase == "tiebreak"
    seats = {s["seat"]: s["protected"] for s in t.view(2)["seats"]}
    assert seats == {1: False, 2: False, 3: False, 4: False, 5: True, 6: False, 7: False}


# -- R7.3 -----------------------------------------------------------------------------------------


def test_r7_3_the_same_player_cannot_be_protected_two_rounds_in_a_row():
    t = ghost_table()
    t.mingle(STAKES_ON_3, ghosts={7: 3, 6: 3})
    assert t.state.round == 5 and t.state.ghosts == (7, 6, 4)
    assert pending(t.state, 7) == [
        {"action": "intervention_vote", "options": {"targets": [1, 2, 5], "min": 1, "max": 1}}
    ]
    err = t.illegal("illegal_target", 7, "intervention_vote", target=3)
    assert "R7.3" in err.detail
    play_round(t, 1, None, ghosts={7: 2, 6: 5, 4: 5})
    assert t.dining["protected"] == 5


def test_r7_3_the_player_may_be_protected_again_after_a_round_off():
    t = Table("LVVHHHHHHH")  # 10 players: enough rounds
    play_round(t, 3, 4, examiner=4)
    play_round(t, 10, 5)
    play_round(t, 9, 1, ghosts={10: 2})
    assert t.dining["protected"] == 2
    play_round(t, 8, 3, ghosts={10: 4, 9: 4})
    assert t.dining["protected"] == 4
    targets = pending(t.state, 10)[0]["options"]["targets"]
    assert 2 in targets and 4 not in targets


# -- R7.4 -----------------------------------------------------------------------------------------


def test_r7_4_an_intervention_tie_goes_to_the_latest_ghosts_own_dial():
    t = ghost_table()
    t.mingle(STAKES_ON_3, ghosts={6: 5, 7: 3})
    assert t.dining["protected"] == 5
    (record,) = [r for r in t.dining["ties"] if r["kind"] == "intervention"]
    assert record["result"] == 5 and record["decided_by"] == "latest_ghost"
    assert record["candidates"] == [3, 5]


def test_r7_4_an_intervention_tie_the_latest_ghost_did_not_vote_in_opens_their_choice():
    t = ghost_table()
    t.mingle(STAKES_ON_3, ghosts={7: 3, 6: 3})  # seat 4 eliminated: Ghosts 7, 6, 4
    t.do(7, "intervention_vote", target=1)
    t.do(6, "intervention_vote", target=2)
    plan = {1: "S2 S3 F5", 2: "S1 S5 F3", 3: "S1 S5 F2", 5: "D1 F2 I3"}  # seat 5 is the Alpha
    assert t.state.alpha == 5
    t.mingle(plan)  # seat 4 abstains: the Mingling timer runs out
    assert t.state.phase == "tiebreak"
    tie = t.view(None)["tie"]
    assert tie == {
        "kind": "intervention",
        "candidates": [1, 2],
        "voters": [4],
        "voted": [],
        "decider": 4,
        "tallies": None,  # a Ghost vote's tie: its votes stay secret (R7.2)
    }
    assert pending(t.state, 4) == [
        {"action": "tiebreak_vote", "options": {"targets": [1, 2], "min": 1, "max": 1}}
    ]
    assert pending(t.state, 7) == [] and pending(t.state, 1) == []
    t.illegal("illegal_target", 4, "tiebreak_vote", target=3)
    t.do(4, "tiebreak_vote", target=1)
    assert t.dining["protected"] == 1
    assert t.alive(1)  # seat 1 had the most Stakes but is Protected
    assert t.dining["eliminated"] == 5  # the next-highest Stakes
    (record,) = [r for r in t.dining["ties"] if r["kind"] == "intervention"]
    assert record["decided_by"] == "latest_ghost" and record["result"] == 1


def test_r7_4_a_latest_ghost_who_does_not_choose_in_time_protects_nobody():
    """R5.2 amended, and R7.4 with it: a decider's silence is no random pick."""
    t = ghost_table()
    t.mingle(STAKES_ON_3, ghosts={7: 3, 6: 3})
    t.do(7, "intervention_vote", target=1)
    t.do(6, "intervention_vote", target=2)
    t.mingle({1: "S2 S3 F5", 2: "S1 S5 F3", 3: "S1 S5 F2", 5: "D1 F2 I3"})
    assert t.view(None)["tie"]["decider"] == 4
    t.expire()
    (record,) = [r for r in t.dining["ties"] if r["kind"] == "intervention"]
    assert record["decided_by"] == "no_result" and record["result"] is None
    assert t.dining["protected"] is None
    assert not t.alive(1)  # nobody Protected: seat 1 had the most Stakes


# -- R7.5 -----------------------------------------------------------------------------------------


def test_r7_5_mingling_does_not_end_early_while_a_ghost_has_not_voted():
    t = ghost_table()
    t.do(7, "intervention_vote", target=5)
    for seat, words in STAKES_ON_3.items():
        t.place(seat, words)
    assert t.state.phase == "mingling" and t.state.round == 4
    assert t.view(1)["waiting_for"] == [6]
    t.do(6, "intervention_vote", target=5)  # the last Ghost: Mingling ends at once
    assert t.state.round == 5
    assert t.dining["round"] == 4 and t.dining["protected"] == 5


def test_r7_5_a_ghost_who_has_not_voted_when_mingling_ends_abstains():
    t = ghost_table()
    t.do(7, "intervention_vote", target=3)
    for seat, words in STAKES_ON_3.items():
        t.place(seat, words)
    t.expire()
    assert t.dining["intervention"] == [{"voter": 7, "target": 3}]
    assert t.dining["protected"] == 3
    assert t.dining["unplaced"] == []
    assert t.alive(3) and not t.alive(4)


def test_r7_5_no_ghost_votes_means_nobody_is_protected():
    t = ghost_table()
    t.mingle(STAKES_ON_3)
    assert t.dining["intervention"] == [] and t.dining["protected"] is None


# -- R3.2 ruling: a Ghost who has not voted is away from the table -------------------------------


def test_r3_2_a_ghost_who_has_not_voted_sees_no_placements():
    t = ghost_table()
    t.place(2, "S3 S4")
    t.place(5, "S3")
    assert {s["seat"]: s["placed_by"] for s in t.view(1)["seats"]}[3] == [2, 5]
    assert all(s["placed_by"] == [] for s in t.view(7)["seats"])
    assert all(s["placed_by"] == [] for s in t.view(6)["seats"])
    t.do(7, "intervention_vote", target=1)
    assert {s["seat"]: s["placed_by"] for s in t.view(7)["seats"]}[3] == [2, 5]
    assert all(s["placed_by"] == [] for s in t.view(6)["seats"])


def test_r3_2_a_ghost_who_has_not_voted_cannot_tell_who_has_finished_placing():
    # Seat 2 places their last token: nothing in an unvoted Ghost's view may change.
    t = ghost_table()
    t.place(2, "S3 S4")
    before = t.view(7)
    t.place(2, "F5")
    after = t.view(7)
    assert dumps(before) == dumps(after)
