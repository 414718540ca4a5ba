"""R9 A round that starts with exactly three living players.

Six players (seat 1 the Lord, 2 a Vampire, 3–6 Hunters): the Vampire, then Hunters 3 and 4 are
staked in rounds 2–4, and round 4 elects seat 5 Alpha; round 5 starts with seats 1, 5 and 6.
"""

from __future__ import annotations

from games.engine import pending
from tests.engine.table import Table
from tests.engine.test_r5_ties import play_round


def three_living():
    t = Table("LVHHHH")
    play_round(t, 3, 4, examiner=4)
    play_round(t, 2, 5)
    play_round(t, 3, 6)
    play_round(t, 4, 5)  # seat 5 is elected Alpha for round 5
    assert t.state.round == 5 and t.state.living == (1, 5, 6)
    assert t.state.ghosts == (2, 3, 4)
    assert t.dining["alpha_elected"] == 5
    return t


def test_r9_a_round_starting_with_three_living_is_flagged_and_announced():
    t = three_living()
    assert t.state.three_living
    (started,) = [e for e in t.events if e.kind == "round_started" and e.round == 5]
    assert started.audience is None and started.data == {"alpha": None, "three_living": True}


def test_r9_each_living_player_holds_exactly_one_stake_and_one_feast():
    t = three_living()
    for seat in (1, 5, 6):
        assert t.view(seat)["me"]["tokens"] == ["stake", "feast"]
        (place,) = [p for p in pending(t.state, seat) if p["action"] == "place_token"]
        assert place["options"]["tokens"] == ["feast", "stake"]
    t.place(1, "S5")
    t.illegal("illegal_token", 1, "place_token", token="stake", target=6)
    t.illegal("illegal_token", 5, "place_token", token="double_stake", target=6)
    t.illegal("illegal_token", 5, "place_token", token="investigation", target=6)


def test_r9_there_is_no_alpha_even_though_one_was_elected():
    t = three_living()
    assert t.state.alpha is None
    assert all(s["alpha"] is False for s in t.view(None)["seats"])
    assert t.view(5)["me"]["tokens"] == ["stake", "feast"]


def test_r9_there_is_no_ghostly_intervention():
    t = three_living()
    for ghost in (2, 3, 4):
        assert pending(t.state, ghost) == []
        t.illegal("wrong_phase", ghost, "intervention_vote", target=5)
    assert t.view(None)["waiting_for"] == [1, 5, 6]
    # Mingling ends as soon as the living have placed: no Ghost holds it open.
    t.place(1, "S5 F6")
    t.place(5, "S1 F6")
    t.place(6, "S5 F1")
    assert t.state.phase != "mingling"
    assert t.dining["intervention"] == [] and t.dining["protected"] is None


def test_r9_ghosts_still_break_ties_and_the_game_then_ends():
    t = three_living()
    t.mingle({1: "S5 F6", 5: "S6 F1", 6: "S1 F5"})  # one Stake each: a three-way tie
    tie = t.view(None)["tie"]
    assert tie["kind"] == "elimination"
    assert tie["candidates"] == [1, 5, 6] and tie["voters"] == [2, 3, 4]
    for living in (1, 5, 6):
        t.illegal("wrong_phase", living, "tiebreak_vote", target=5)
    t.vote({2: 1, 3: 1, 4: 5})
    assert not t.alive(1)
    assert t.state.outcome is not None
    assert t.view(None)["winner"] == "hunters"
    assert t.state.round == 5


def test_r9_a_ghost_tie_in_a_three_living_round_goes_to_the_latest_ghost():
    t = three_living()
    t.mingle({1: "S5 F6", 5: "S6 F1", 6: "S1 F5"})
    t.vote({2: 1, 3: 5, 4: 6})  # 1–1–1: seat 4 was eliminated last
    assert not t.alive(6)
    assert t.dining["ties"][0]["decided_by"] == "latest_ghost"
    assert t.view(None)["winner"] == "vampires"  # the Lord and one Hunter are left


def test_r9_unplaced_tokens_still_count_against_their_owner():
    t = three_living()
    t.mingle({1: "S5 F6", 6: "S1 F5"})  # seat 5 places nothing: 2 Stake votes against them
    assert {"owner": 5, "token": "stake"} in t.dining["unplaced"]
    assert {"owner": 5, "token": "feast"} in t.dining["unplaced"]
    assert not t.alive(5)
    assert t.view(None)["winner"] == "vampires"


def test_r9_no_alpha_is_elected_in_the_last_round():
    t = three_living()
    t.mingle({1: "S5 F6", 5: "S1 F6", 6: "S5 F1"})
    assert not t.alive(5)
    assert t.state.outcome is not None
    assert t.dining["alpha_elected"] is None
