"""R8 The Vampire Lord and Mesmerism: who is Mesmerized, who is told, how they win."""

from __future__ import annotations

import json

from tests.engine.table import Table
from tests.engine.test_r5_ties import ELIMINATION_TIE, play_round, round_two

# Round 2 of `round_two`: the Alpha (seat 5, a Hunter) puts the Investigation token on the Lord
# (seat 1); seats 3 and 4 tie for elimination, so Dining waits on the tie vote.
INVESTIGATE_LORD = {**ELIMINATION_TIE, 5: "D2 F6 I1", 6: "S1 S5 F3"}


def knowledge(t, seat):
    return t.view(seat)["me"]["knowledge"]


def lord_examined_in_round_one(roles, examiner):
    """Round 1: the Lord (seat 1) has the most Stakes and lets `examiner` examine their card."""
    t = Table(roles)
    play_round(t, 1, 5 if examiner != 5 else 6, examiner=examiner)
    return t


# -- R8.1 -----------------------------------------------------------------------------------------


def test_r8_1_investigating_the_lord_mesmerizes_the_hunter_alpha_at_once():
    t = round_two(INVESTIGATE_LORD)
    assert t.state.phase == "tiebreak" and t.state.round == 2  # Dining is not over yet
    assert t.dining["investigated"] == 1
    me = t.view(5)["me"]
    assert me["mesmerized"] is True
    assert me["role"] == "hunter"
    assert {"seat": 1, "role": "vampire_lord", "source": "investigation", "round": 2} in me[
        "knowledge"
    ]
    assert {"seat": 5, "source": "mesmerism", "round": 2, "mesmerized": True} in me["knowledge"]
    assert t.state.player(5).mesmerized


def test_r8_1_investigating_someone_else_mesmerizes_nobody():
    t = round_two(ELIMINATION_TIE)  # the Alpha investigates seat 2, a Vampire
    assert t.dining["investigated"] == 2
    assert {"seat": 2, "role": "vampire", "source": "investigation", "round": 2} in knowledge(t, 5)
    assert not any(p.mesmerized for p in t.state.players)
    assert "mesmerized" not in t.kinds()


def test_r8_1_the_round_one_examination_of_the_lord_mesmerizes_the_hunter_examiner():
    t = lord_examined_in_round_one("LVHHHH", examiner=3)
    assert t.dining["examined"] == 1 and t.dining["examiner"] == 3
    assert t.view(3)["me"]["mesmerized"] is True
    assert t.view(3)["me"]["role"] == "hunter"
    assert {"seat": 1, "role": "vampire_lord", "source": "examination", "round": 1} in knowledge(
        t, 3
    )
    assert [p.seat for p in t.state.players if p.mesmerized] == [3]


def test_r8_1_a_vampire_examining_the_lord_is_not_mesmerized():
    t = lord_examined_in_round_one("LVHHHH", examiner=2)
    assert t.dining["examiner"] == 2
    assert t.view(2)["me"]["mesmerized"] is False
    assert not any(p.mesmerized for p in t.state.players)
    assert "mesmerized" not in t.kinds()


def test_r8_1_a_vampire_alpha_investigating_the_lord_is_not_mesmerized():
    t = Table("LVHHHH")
    play_round(t, 3, 2, examiner=4)
    assert t.state.alpha == 2
    play_round(t, 6, 5, investigate=1)
    assert t.dining["investigated"] == 1
    assert not any(p.mesmerized for p in t.state.players)


def test_r8_1_mesmerism_is_permanent_through_the_lords_death_and_the_victims():
    t = lord_examined_in_round_one("LVHHHH", examiner=3)
    play_round(t, 1, 4)  # the Lord is staked
    assert not t.alive(1) and t.state.player(3).mesmerized
    play_round(t, 3, 5)  # the Mesmerized Hunter is staked too
    assert not t.alive(3) and t.state.player(3).mesmerized
    assert t.view(3)["me"]["mesmerized"] is True
    play_round(t, 2, None)  # the last Vampire: the Hunters win (R12.1)
    assert t.view(None)["winner"] == "hunters"
    roles = {r["seat"]: r for r in t.view(None)["roles"]}
    assert roles[3] == {
        "seat": 3,
        "role": "hunter",
        "mesmerized": True,
        "team": "vampires",
        "won": False,  # R8.3: a Mesmerized Hunter loses with the Vampires
    }
    assert [s for s, r in roles.items() if r["mesmerized"]] == [3]


def test_r8_1_a_second_look_at_the_lord_changes_nothing():
    t = lord_examined_in_round_one("LVHHHH", examiner=3)
    assert t.state.alpha == 5
    play_round(t, 6, 3, investigate=1)  # seat 5 (Alpha, a Hunter) investigates the Lord
    assert t.state.player(5).mesmerized and t.state.player(3).mesmerized
    t2 = Table("LVHHHH")
    play_round(t2, 1, 3, examiner=3)
    assert t2.state.alpha == 3 and t2.state.player(3).mesmerized
    play_round(t2, 6, 5, investigate=1)  # the Mesmerized Alpha investigates the Lord again
    assert t2.dining["investigated"] == 1
    told = [e for e in t2.events if e.kind == "mesmerized"]
    assert len(told) == 2  # the victim and the Vampires, once, in round 1
    assert all(e.round == 1 for e in told)


# -- R8.2 ruling: who is told --------------------------------------------------------------------


def test_r8_2_the_victim_the_lord_and_the_vampires_are_told_privately():
    # 8 players, the Lord does not know the Vampires (R1.2): seat 1 Lord, 2–3 Vampires.
    t = lord_examined_in_round_one("LVVHHHHH", examiner=4)
    told = [e for e in t.events if e.kind == "mesmerized"]
    assert sorted(e.audience for e in told) == [(1, 2, 3), (4,)]
    fact = {"seat": 4, "source": "mesmerism", "round": 1, "mesmerized": True}
    for seat in (1, 2, 3, 4):
        assert fact in knowledge(t, seat), seat
    for seat in (5, 6, 7, 8):
        assert knowledge(t, seat) == [] or all(
            k["source"] != "mesmerism" for k in knowledge(t, seat)
        )
        assert t.view(seat)["me"]["mesmerized"] is False
        assert not any(e.kind == "mesmerized" for e in t.seen_by(seat))
    # The Lord still learns nothing about the Vampires from it.
    assert all("role" not in k for k in knowledge(t, 1))


def test_r8_2_no_other_hunter_nor_spectator_can_see_it():
    t = lord_examined_in_round_one("LVVHHHHH", examiner=4)
    for seat in (None, 5, 6, 7, 8):
        text = json.dumps(t.view(seat))
        assert "mesmerism" not in text
        assert '"mesmerized": true' not in text
        assert "vampire_lord" not in text
        if seat is not None:
            assert all("role" not in (e.data or {}) for e in t.seen_by(seat))
    (public,) = [e for e in t.events if e.kind == "examination"]
    assert public.audience is None
    assert public.data == {"examiner": 4, "target": 1}


def test_r8_2_in_a_seven_player_game_the_lord_who_knows_the_vampire_is_told_too():
    t = lord_examined_in_round_one("LVHHHHH", examiner=3)
    told = sorted(e.audience for e in t.events if e.kind == "mesmerized")
    assert told == [(1, 2), (3,)]


def test_r8_2_the_investigation_result_is_private_to_the_alpha():
    t = round_two(INVESTIGATE_LORD)
    examined = [e for e in t.events if e.kind == "examined" and e.round == 2]
    assert [e.audience for e in examined] == [(5,)]
    (public,) = [e for e in t.events if e.kind == "investigation" and e.round == 2]
    assert public.audience is None and public.data == {
        "investigator": 5,
        "target": 1,
        "outcome": "examined",
    }
    for seat in (2, 3, 4, 6):
        assert all(k["source"] != "investigation" for k in knowledge(t, seat)), seat


# -- R8.3 -----------------------------------------------------------------------------------------


def test_r8_3_a_mesmerized_hunter_counts_as_a_hunter_for_the_vampires_win():
    t = lord_examined_in_round_one("LVHHHH", examiner=3)
    play_round(t, 5, 4)
    play_round(t, 6, 4 if t.state.alpha != 4 else 2)
    # Living: Lord, Vampire, Mesmerized Hunter 3, Hunter 4. Two "Hunter" cards: the game goes on.
    assert sorted(t.state.living) == [1, 2, 3, 4]
    assert t.state.outcome is None and t.state.round == 4
    play_round(t, 4, None)
    view = t.view(3)
    assert view["winner"] == "vampires"
    roles = {r["seat"]: (r["role"], r["mesmerized"]) for r in view["roles"]}
    assert roles == {
        1: ("vampire_lord", False),
        2: ("vampire", False),
        3: ("hunter", True),
        4: ("hunter", False),
        5: ("hunter", False),
        6: ("hunter", False),
    }
    assert view["me"]["role"] == "hunter" and view["me"]["mesmerized"] is True


def test_r8_3_a_living_mesmerized_hunter_does_not_stop_the_hunters_winning():
    t = lord_examined_in_round_one("LVHHHH", examiner=3)
    play_round(t, 1, 4)
    play_round(t, 2, None)
    assert t.alive(3) and t.state.player(3).mesmerized
    assert t.view(None)["winner"] == "hunters"
