"""R6 The first round: no elimination, the most-staked player has their role examined; R6.2."""

from __future__ import annotations

from games.engine import timeout
from tests.engine.table import Table

# Seat 3 is most staked (5 Stakes), seat 5 gets the most Feasts.
SEAT_3_STAKED = {
    1: "S3 S4 F5",
    2: "S3 S4 F5",
    3: "S4 S5 F6",
    4: "S3 S5 F6",
    5: "S3 S6 F4",
    6: "S3 S4 F5",
}
# The Lord (seat 1) is most staked (5 Stakes), seat 4 gets the most Feasts.
LORD_STAKED = {
    1: "S2 S3 F4",
    2: "S1 S3 F4",
    3: "S1 S2 F4",
    4: "S1 S5 F6",
    5: "S1 S6 F4",
    6: "S1 S5 F4",
}
# Seats 3 and 4 tie on 3 Stakes; seat 5 gets the most Feasts.
STAKES_TIED = {
    1: "S3 S4 F5",
    2: "S3 S4 F5",
    3: "S4 S5 F6",
    4: "S3 S6 F5",
    5: "S1 S2 F6",
    6: "S1 S2 F5",
}


# --- R6.1 ----------------------------------------------------------------------------------------


def test_r6_1_nobody_is_eliminated_in_round_one():
    t = Table("LVHHHH")
    t.mingle(SEAT_3_STAKED)
    t.do(3, "choose_examiner", target=1)
    assert all(t.alive(s) for s in range(1, 7))
    assert t.state.ghosts == ()
    assert "eliminated" not in t.kinds()
    d = t.view(None)["last_dining"]
    assert d["round"] == 1 and d["eliminated"] is None
    assert all(s["alive"] for s in t.view(None)["seats"])


def test_r6_1_the_most_staked_player_chooses_another_player_as_examiner():
    t = Table("LVHHHH", timers={"choice": 45})
    t.mingle(SEAT_3_STAKED)
    assert t.state.phase == "choose_examiner"
    assert t.view(None)["phase"] == "choose_examiner"
    assert t.state.deadline == t.now + 45
    assert t.view(3)["pending"] == [
        {"action": "choose_examiner", "options": {"targets": [1, 2, 4, 5, 6], "min": 1, "max": 1}}
    ]
    for seat in (1, 2, 4, 5, 6):
        assert t.view(seat)["pending"] == []
    [ev] = [e for e in t.events if e.kind == "most_staked"]
    assert ev.audience is None and ev.data == {"seat": 3}


def test_r6_1_the_examiner_choice_is_checked():
    t = Table("LVHHHH")
    t.mingle(SEAT_3_STAKED)
    t.illegal("illegal_target", 3, "choose_examiner", target=3)  # another player
    t.illegal("illegal_target", 3, "choose_examiner", target=7)
    t.illegal("illegal_target", 3, "choose_examiner", target=0)
    t.illegal("bad_request", 3, "choose_examiner", target="4")
    t.illegal("wrong_phase", 4, "choose_examiner", target=1)  # only the most-staked player
    t.illegal("wrong_phase", 4, "place_token", token="stake", target=1)
    t.illegal("wrong_phase", 4, "tiebreak_vote", target=3)


def test_r6_1_choose_examiner_outside_the_window_is_wrong_phase():
    t = Table("LVHHHH")
    t.illegal("wrong_phase", 3, "choose_examiner", target=1)
    t.mingle(SEAT_3_STAKED)
    t.do(3, "choose_examiner", target=4)
    t.illegal("wrong_phase", 3, "choose_examiner", target=5)


def test_r6_1_only_the_examiner_learns_the_role():
    t = Table("LVHHHH")
    t.mingle(SEAT_3_STAKED)
    before = {s: t.view(s)["me"]["knowledge"] for s in range(1, 7)}
    t.do(3, "choose_examiner", target=2)  # the Vampire examines Hunter 3
    assert t.view(2)["me"]["knowledge"] == before[2] + [
        {"seat": 3, "role": "hunter", "source": "examination", "round": 1}
    ]
    for seat in (1, 3, 4, 5, 6):
        assert t.view(seat)["me"]["knowledge"] == before[seat], seat
    [private] = [e for e in t.events if e.kind == "examined"]
    assert private.audience == (2,)
    assert private.data == {"seat": 3, "role": "hunter"}
    for seat in (1, 3, 4, 5, 6):
        assert private not in t.seen_by(seat)


def test_r6_1_public_log_says_who_examined_whom():
    t = Table("LVHHHH")
    t.mingle(SEAT_3_STAKED)
    t.do(3, "choose_examiner", target=6)
    [public] = [e for e in t.events if e.kind == "examination"]
    assert public.audience is None
    assert public.data == {"examiner": 6, "target": 3}
    assert "Hunter" not in public.text
    d = t.view(None)["last_dining"]
    assert (d["examined"], d["examiner"]) == (3, 6)


def test_r6_1_a_hunter_examining_the_lord_is_mesmerized():
    t = Table("LVHHHH")
    t.mingle(LORD_STAKED)
    assert t.dining["examined"] == 1
    t.do(1, "choose_examiner", target=4)
    assert t.state.player(4).mesmerized
    me = t.view(4)["me"]
    assert me["mesmerized"] is True
    assert me["role"] == "hunter"
    assert {"seat": 1, "role": "vampire_lord", "source": "examination", "round": 1} in me[
        "knowledge"
    ]
    for seat in (1, 2, 3, 5, 6):
        assert t.view(seat)["me"]["mesmerized"] is False
    assert [e for e in t.seen_by(4) if e.kind == "mesmerized"]
    for seat in (3, 5, 6):  # other Hunters are not told
        assert not [e for e in t.seen_by(seat) if e.kind == "mesmerized"]
        assert all(k["source"] != "mesmerism" for k in t.view(seat)["me"]["knowledge"])


def test_r6_1_a_vampire_examining_the_lord_is_not_mesmerized():
    t = Table("LVHHHH")
    t.mingle(LORD_STAKED)
    t.do(1, "choose_examiner", target=2)
    assert not any(p.mesmerized for p in t.state.players)
    assert "mesmerized" not in t.kinds()


def test_r6_1_the_lord_examining_a_hunter_mesmerizes_nobody():
    t = Table("LVHHHH")
    t.mingle(SEAT_3_STAKED)
    t.do(3, "choose_examiner", target=1)
    assert not any(p.mesmerized for p in t.state.players)
    assert {"seat": 3, "role": "hunter", "source": "examination", "round": 1} in t.view(1)["me"][
        "knowledge"
    ]


def test_r6_1_a_tie_for_most_stakes_goes_to_a_vote_of_all_living_players():
    t = Table("LVHHHH")
    t.mingle(STAKES_TIED)
    assert t.state.phase == "tiebreak"
    tie = t.view(None)["tie"]
    assert tie["kind"] == "examination"
    assert tie["candidates"] == [3, 4]
    assert tie["voters"] == [1, 2, 3, 4, 5, 6]  # no Ghosts: the living, tied players included
    for seat in range(1, 7):
        assert t.view(seat)["pending"] == [
            {"action": "tiebreak_vote", "options": {"targets": [3, 4], "min": 1, "max": 1}}
        ]
    t.illegal("illegal_target", 1, "tiebreak_vote", target=5)
    t.vote({1: 3, 2: 3, 3: 4, 4: 3, 5: 4})
    assert t.state.phase == "tiebreak"
    t.vote({6: 4})  # 3 against 3: nothing happens
    assert t.state.round == 2 and t.view(None)["last_dining"]["examined"] is None
    t2 = Table("LVHHHH")
    t2.mingle(STAKES_TIED)
    t2.vote({1: 3, 2: 3, 3: 4, 4: 3, 5: 3, 6: 4})
    assert t2.state.phase == "choose_examiner"
    assert t2.dining["examined"] == 3
    t2.do(3, "choose_examiner", target=5)
    assert t2.dining["examiner"] == 5
    assert all(t2.alive(s) for s in range(1, 7))


def test_r6_1_a_second_tie_for_most_stakes_means_no_examination():
    t = Table("LVHHHH")
    t.mingle(STAKES_TIED)
    t.vote({1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 4})
    assert t.state.round == 2
    d = t.view(None)["last_dining"]
    assert d["examined"] is None and d["examiner"] is None
    assert d["alpha_elected"] == 5  # the election still happens (R6.2)
    [record] = d["ties"]
    assert record["kind"] == "examination"
    assert record["result"] is None and record["decided_by"] == "no_result"
    assert "examined" not in t.kinds()
    assert all(t.alive(s) for s in range(1, 7))


def test_r6_1_the_examiner_choice_times_out_to_a_random_legal_choice():
    t = Table("LVHHHH", seed=77)
    t.mingle(SEAT_3_STAKED)
    t.expire()
    examiner = t.dining["examiner"]
    assert examiner in (1, 2, 4, 5, 6)
    assert t.state.round == 2
    assert t.view(examiner)["me"]["knowledge"][-1] == {
        "seat": 3,
        "role": "hunter",
        "source": "examination",
        "round": 1,
    }
    [public] = [e for e in t.events if e.kind == "examination"]
    assert public.data == {"examiner": examiner, "target": 3}


def test_r6_1_the_random_examiner_is_reproducible_from_the_seed():
    def examiner(seed: int) -> tuple[int, object]:
        t = Table("LVHHHH", seed=seed)
        t.mingle(SEAT_3_STAKED)
        t.expire()
        return t.dining["examiner"], t.state

    for seed in (1, 2, 77):
        first, state1 = examiner(seed)
        second, state2 = examiner(seed)
        assert first == second
        assert state1 == state2
    chosen = {examiner(seed)[0] for seed in range(1, 30)}
    assert chosen <= {1, 2, 4, 5, 6}
    assert len(chosen) > 1  # it is a random choice, not always the same seat


def test_r6_1_the_examiner_window_does_not_close_before_its_deadline():
    t = Table("LVHHHH")
    t.mingle(SEAT_3_STAKED)
    state, events = timeout(t.state, t.state.deadline - 1)
    assert state == t.state and events == []


# --- R6.2 ----------------------------------------------------------------------------------------


def test_r6_2_most_feasts_in_round_one_elects_the_alpha_for_round_two():
    t = Table("LVHHHH")
    t.mingle(LORD_STAKED)
    t.do(1, "choose_examiner", target=2)
    assert t.view(None)["last_dining"]["alpha_elected"] == 4
    assert t.state.round == 2 and t.state.alpha == 4
    assert [s["alpha"] for s in t.view(None)["seats"]] == [False, False, False, True, False, False]
    assert t.view(4)["me"]["tokens"] == ["double_stake", "feast", "investigation"]


def test_r6_2_a_round_one_election_tie_goes_to_a_vote_of_all_living_players():
    t = Table("LVHHHH")
    # seat 3 most staked; seats 5 and 6 tie with 3 Feasts each
    t.mingle(
        {
            1: "S3 S4 F5",
            2: "S3 S4 F6",
            3: "S4 S1 F5",
            4: "S3 S2 F6",
            5: "S3 S2 F6",
            6: "S3 S1 F5",
        }
    )
    t.do(3, "choose_examiner", target=4)
    assert t.state.phase == "tiebreak"
    tie = t.view(None)["tie"]
    assert tie["kind"] == "election"
    assert tie["candidates"] == [5, 6]
    assert tie["voters"] == [1, 2, 3, 4, 5, 6]
    t.vote({1: 6, 2: 6, 3: 5, 4: 6, 5: 5, 6: 6})
    assert t.state.round == 2 and t.state.alpha == 6
