"""R10.3–R10.5 and R9: the pre- and post-mingling windows, markers, discards, three living."""

from __future__ import annotations

import json

from games.engine import pending
from tests.engine.test_r5_ties import rig
from tests.relics.conftest import (
    data,
    holdings,
    offers,
    pass_windows,
    play,
    relic_table,
    use,
    window,
)

W6 = {
    1: "ritual_bell",
    2: "signet_ring",
    3: "hindsight_looking_glass",
    4: "whisper_wick_candle",
    5: "key_of_quick_passage",
    6: "blood_of_the_one",
}
W7 = {
    1: "ritual_bell",
    2: "bangle_of_oaths",
    3: "hindsight_looking_glass",
    4: "whisper_wick_candle",
    5: "bangle_of_oaths",
    6: "key_of_quick_passage",
    7: "blood_of_the_one",
}
PRE = [(1, "ritual_bell"), (2, "signet_ring"), (3, "hindsight_looking_glass")]
POST = [(4, "whisper_wick_candle"), (5, "key_of_quick_passage"), (6, "blood_of_the_one")]
LAST_CALL = [(6, "blood_of_the_one")]  # once the tokens are revealed (R11 amended)


def post_windows(t, kill=2, ghosts=None):
    """Place every token (`kill` most staked): the post-mingling windows open."""
    t.mingle(rig(t.state, most_stakes=kill), ghosts=ghosts)
    return t


# -- R10.3 order ----------------------------------------------------------------------------------


def test_r10_3_pre_mingling_windows_open_in_board_order_before_mingling():
    t = relic_table("LVHHHH", W6, windows=True)
    assert t.state.round == 2 and t.state.phase == "relic_window"
    t.illegal("wrong_phase", 3, "place_token", token="stake", target=4)
    assert window(t)["stage"] == "pre"
    assert pass_windows(t) == PRE
    assert t.state.phase == "mingling"


def test_r10_3_post_mingling_windows_open_in_board_order_after_the_last_token():
    t = relic_table("LVHHHH", W6)
    post_windows(t)
    assert t.state.phase == "relic_window" and window(t)["stage"] == "post"
    assert t.state.dining is None  # before the reveal and the Ghostly Intervention
    assert pass_windows(t) == POST + LAST_CALL
    assert t.dining["round"] == 2


def test_r10_3_post_mingling_windows_open_when_the_mingling_timer_runs_out():
    t = relic_table("LVHHHH", W6)
    plan = rig(t.state, most_stakes=2)
    t.place(1, plan[1])  # the rest stays unplaced
    assert t.state.phase == "mingling"
    t.expire()
    assert t.state.phase == "relic_window" and window(t)["seat"] == 4
    assert pass_windows(t) == POST + LAST_CALL


def test_r10_3_both_bangles_open_in_seat_order_between_candle_and_key():
    t = relic_table("LVHHHHH", W7, windows=True)
    assert pass_windows(t) == [(1, "ritual_bell"), (3, "hindsight_looking_glass")]
    post_windows(t, kill=3)
    assert pass_windows(t) == [
        (4, "whisper_wick_candle"),
        (2, "bangle_of_oaths"),
        (5, "bangle_of_oaths"),
        (6, "key_of_quick_passage"),
        (7, "blood_of_the_one"),
        (7, "blood_of_the_one"),  # its last call, once the tokens are revealed
    ]


def test_r10_3_each_window_is_timed_with_the_relic_timer():
    t = relic_table("LVHHHH", W6, windows=True, timers={"relic": 45})
    assert t.state.deadline == t.now + 45
    assert t.view(None)["relics"]["window"] == {
        "relic": "ritual_bell",
        "stage": "pre",
        "deadline": t.now + 45,
        "seat": 1,
    }
    t.expire()
    assert window(t)["seat"] == 2 and t.state.deadline == t.now + 45
    assert [e for e in t.events if e.kind == "relic_timeout"]
    assert not [e for e in t.events if e.kind == "relic_used"]
    t.expire()
    t.expire()
    assert t.state.phase == "mingling"


def test_r10_3_a_window_passes_at_once_when_its_holder_declines():
    t = relic_table("LVHHHH", W6, windows=True)
    opened = t.state.deadline
    t.do(1, "pass")
    assert window(t)["seat"] == 2 and t.state.deadline >= opened
    assert pending(t.state, 2) == [
        {"action": "use_relic", "options": offers(t, 2, "use_relic")[0]},
        {"action": "pass", "options": {"targets": [], "min": 0, "max": 0}},
    ]
    t.illegal("wrong_phase", 1, "pass")
    t.illegal("wrong_phase", 3, "pass")
    t.illegal("wrong_phase", 3, "use_relic", relic="hindsight_looking_glass", targets=[1])
    t.illegal("bad_request", 2, "use_relic", relic="ritual_bell", targets=[3])


def test_r10_3_a_ghosts_relic_gets_no_window():
    t = relic_table("LVHHHH", W6)
    post_windows(t, kill=1)  # the Ritual Bell's holder dies in round 2
    pass_windows(t)
    while t.state.round == 2:
        t.do(data(t)["choice"]["seat"] if t.state.phase == "relic_choice" else 0, "pass")
    assert t.state.round == 3 and not t.alive(1)
    assert pass_windows(t) == PRE[1:]


def test_r10_3_a_ghosts_post_mingling_relic_gets_no_window():
    t = relic_table("LVHHHH", W6)
    post_windows(t, kill=6)
    pass_windows(t)
    assert t.state.round == 3 and not t.alive(6)
    pass_windows(t)
    post_windows(t, kill=2, ghosts={6: 3})
    assert pass_windows(t) == POST[:2]


def test_r10_3_a_negated_relic_gets_no_window():
    t = relic_table("LVHHHH", W6, windows=True)
    use(t, 1, "ritual_bell", targets=[2])  # the Signet Ring is negated this round
    assert window(t)["seat"] == 3
    assert pass_windows(t) == PRE[2:]
    post_windows(t)
    assert pass_windows(t)[0] == POST[0]


def test_r10_3_a_negated_post_mingling_relic_gets_no_window():
    t = relic_table("LVHHHH", W6, windows=True)
    use(t, 1, "ritual_bell", targets=[5])
    pass_windows(t)
    post_windows(t)
    assert pass_windows(t) == [POST[0], POST[2]] + LAST_CALL


def test_r10_3_a_discarded_relic_gets_no_window_next_round():
    t = relic_table("LVHHHH", W6)
    post_windows(t, kill=2)
    t.do(4, "pass")
    use(t, 5, "key_of_quick_passage")
    assert holdings(t).get(5) is None and holdings(t, discarded=True)[5] == [W6[5]]
    assert t.view(5)["me"]["relic"]["discarded"] is True
    pass_windows(t)
    assert t.state.round == 3
    pass_windows(t)
    post_windows(t, kill=3, ghosts={2: 4})
    assert pass_windows(t) == [POST[0], POST[2]] + LAST_CALL


def test_r10_3_windows_reopen_every_round():
    t = relic_table("LVHHHH", W6)
    post_windows(t, kill=2)
    assert pass_windows(t)[:3] == POST
    assert t.state.round == 3
    assert pass_windows(t) == PRE[:1] + PRE[2:]  # seat 2 is the Ghost now


def test_r10_3_the_blood_of_the_one_has_the_last_post_mingling_slot():
    t = relic_table("LVHHHH", {**W6, 1: "blood_of_the_one", 6: "ritual_bell"})
    assert pass_windows(t) == []
    post_windows(t, kill=2)
    seen = pass_windows(t)
    assert seen[:3] == [(4, "whisper_wick_candle"), (5, "key_of_quick_passage")] + [
        (1, "blood_of_the_one")
    ]


# -- R10.2a: holdings are public --------------------------------------------------------------


def test_r10_2a_an_open_window_names_its_holder_to_every_seat_and_spectators():
    """Holdings are public (R10.2a amended): a window's holder is public too, so every view says
    whose window it is and the game is seen to wait on them."""
    t = relic_table("LVHHHH", W6, windows=True)
    assert window(t) == {"card": "ritual_bell", "seat": 1, "as": "ritual_bell", "stage": "pre"}
    for seat in (None, 1, 2, 3, 4, 5, 6):
        v = t.view(seat)
        assert v["relics"]["window"]["seat"] == 1 and v["relics"]["window"]["relic"] == (
            "ritual_bell"
        )
        assert v["waiting_for"] == [1], f"seat {seat} is not told the game waits on seat 1"


# -- R10.4 markers --------------------------------------------------------------------------------


def test_r10_4_the_ritual_bell_cannot_target_the_same_relic_two_rounds_running():
    t = relic_table("LVHHHH", W6, windows=True)
    use(t, 1, "ritual_bell", targets=[4])
    pass_windows(t)
    post_windows(t, kill=2)
    pass_windows(t)
    assert t.state.round == 3 and window(t)["seat"] == 1
    (opts,) = offers(t, 1, "use_relic")
    assert 4 not in opts["targets"] and 5 in opts["targets"]
    t.illegal("illegal_target", 1, "use_relic", relic="ritual_bell", targets=[4])
    use(t, 1, "ritual_bell", targets=[5])
    pass_windows(t)
    post_windows(t, kill=3, ghosts={2: 6})
    pass_windows(t)
    assert t.state.round == 4 and window(t)["seat"] == 1
    (opts,) = offers(t, 1, "use_relic")
    assert 4 in opts["targets"] and 5 not in opts["targets"]  # one round off: allowed again


def test_r10_4_the_marker_follows_the_card_not_the_seat():
    t = relic_table("LVHHHH", W6, windows=True)
    use(t, 1, "ritual_bell", targets=[4])  # the Candle
    use(t, 2, "signet_ring", targets=[4])  # seat 2 takes the Candle, seat 4 the Ring
    assert holdings(t)[2] == ["whisper_wick_candle"] and holdings(t)[4] == ["signet_ring"]
    pass_windows(t)
    post_windows(t, kill=3)
    pass_windows(t)
    assert t.state.round == 3 and window(t)["seat"] == 1
    (opts,) = offers(t, 1, "use_relic")
    assert 2 not in opts["targets"] and 4 in opts["targets"]


def test_r10_4_markers_are_shown_on_the_targeted_card():
    t = relic_table("LVHHHH", W6, windows=True)
    use(t, 1, "ritual_bell", targets=[4])
    assert data(t)["markers"]["ritual_bell"] == {"card": "whisper_wick_candle", "round": 2}
    assert t.view(4)["me"]["relic"]["negated"] is True
    assert t.view(5)["me"]["relic"]["negated"] is False


def test_r10_4_the_signet_ring_cannot_target_the_same_relic_two_rounds_running():
    t = relic_table("LVHHHH", W6, windows=True)
    t.do(1, "pass")
    use(t, 2, "signet_ring", targets=[4])  # seat 2 takes the Candle, seat 4 the Ring
    pass_windows(t)
    post_windows(t, kill=3)
    pass_windows(t)
    assert t.state.round == 3
    t.do(1, "pass")
    assert window(t)["seat"] == 4 and window(t)["as"] == "signet_ring"
    (opts,) = offers(t, 4, "use_relic")
    assert 2 not in opts["targets"] and 5 in opts["targets"]
    assert "2" not in opts["cards_by_seat"] and opts["cards_by_seat"]["5"] == [
        "key_of_quick_passage"
    ]
    t.illegal("illegal_target", 4, "use_relic", relic="signet_ring", targets=[2])


def test_r10_4_the_hindsight_looking_glass_cannot_copy_the_same_relic_two_rounds_running():
    t = relic_table("LVHHHH", W6)
    post_windows(t, kill=5)  # the Key's holder dies in round 2
    pass_windows(t)
    assert t.state.round == 3
    while window(t)["seat"] != 3:
        t.do(window(t)["seat"], "pass")
    use(t, 3, "hindsight_looking_glass", targets=[5])
    pass_windows(t)
    post_windows(t, kill=1, ghosts={5: 4})  # the Bell's holder dies in round 3
    pass_windows(t)
    assert t.state.round == 4 and t.state.ghosts == (5, 1)
    while window(t)["seat"] != 3:
        t.do(window(t)["seat"], "pass")
    (opts,) = offers(t, 3, "use_relic")
    assert opts["targets"] == [1] and opts["cards_by_seat"] == {"1": ["ritual_bell"]}
    t.illegal("illegal_target", 3, "use_relic", relic="hindsight_looking_glass", targets=[5])


def test_r10_2a_every_seat_and_spectators_see_every_holding_discard_negation_and_marker():
    """R10.2a amended: the cards lie face-up; every view, spectators' included, shows each seat's
    relics, which are discarded or negated, and the marker tokens on them."""
    t = relic_table("LVHHHH", W6, windows=True)
    use(t, 1, "ritual_bell", targets=[4])  # the Candle is negated and carries the Bell token
    pass_windows(t)
    post_windows(t, kill=2)
    use(t, 5, "key_of_quick_passage")  # the Key is discarded
    plain = {"discarded": False, "negated": False, "acting_as": None, "markers": []}
    expected = [
        {"seat": 1, "relic": "ritual_bell", "name": "Ritual Bell", **plain},
        {"seat": 2, "relic": "signet_ring", "name": "Signet Ring", **plain},
        {"seat": 3, "relic": "hindsight_looking_glass", "name": "Hindsight Looking Glass", **plain},
        {
            "seat": 4,
            "relic": "whisper_wick_candle",
            "name": "Whisper-Wick Candle",
            **plain,
            "negated": True,
            "markers": [{"relic": "ritual_bell", "round": 2}],
        },
        {
            "seat": 5,
            "relic": "key_of_quick_passage",
            "name": "Key of Quick Passage",
            **plain,
            "discarded": True,
        },
        {"seat": 6, "relic": "blood_of_the_one", "name": "Blood of the One", **plain},
    ]
    public = t.view(None)["relics"]
    assert public["holdings"] == expected
    for seat in range(1, 7):
        assert t.view(seat)["relics"] == public, seat


# -- R10.5 discarded relics -----------------------------------------------------------------------


def test_r10_5_a_living_holders_discarded_relic_cannot_be_copied_nor_is_active():
    t = relic_table("LVHHHH", {**W6, 2: "scales_of_justice"})
    post_windows(t, kill=6)
    t.do(4, "pass")
    use(t, 5, "key_of_quick_passage")  # discarded by a living player
    pass_windows(t)
    assert t.state.round == 3 and not t.alive(6)
    t.do(1, "pass")
    assert window(t)["seat"] == 3
    (opts,) = offers(t, 3, "use_relic")
    assert opts["targets"] == [6]  # the Ghost's Blood; not the living seat 5's discarded Key
    t.illegal("illegal_target", 3, "use_relic", relic="hindsight_looking_glass", targets=[5])


def test_r10_5_a_ghosts_discarded_relic_can_be_copied():
    t = relic_table("LVHHHH", W6)
    post_windows(t, kill=2)
    t.do(4, "pass")
    use(t, 5, "key_of_quick_passage")  # discarded by seat 5, alive
    pass_windows(t)
    assert t.state.round == 3
    play(t, 5, ghosts={2: 4})  # seat 5 dies in round 3
    assert t.state.round == 4 and not t.alive(5)
    while window(t)["seat"] != 3:
        t.do(window(t)["seat"], "pass")
    (opts,) = offers(t, 3, "use_relic")
    assert 5 in opts["targets"]
    use(t, 3, "hindsight_looking_glass", targets=[5])
    assert data(t)["copy"]["as"] == "key_of_quick_passage"


# -- R9 three living ------------------------------------------------------------------------------

R9 = {
    1: "false_idol",
    2: "ritual_bell",
    3: "hindsight_looking_glass",
    4: "ceremonial_dagger",
    5: "blood_of_the_one",
    6: "seers_orb",
}


def three_living():
    """Round 5 with seats 1 (the Lord), 4 and 6 alive; seats 2, 3 and 5 are Ghosts."""
    t = relic_table("LVHHHH", {**R9, 1: "signet_ring", 4: "whisper_wick_candle"})
    play(t, 2, 5)
    play(t, 3, 1, ghosts={2: 6})
    play(t, 5, 6, ghosts={2: 4, 3: 4})
    assert t.state.round == 5 and t.state.living == (1, 4, 6) and t.state.three_living
    return t


def test_r9_no_relic_window_opens_in_a_three_living_round():
    t = three_living()
    assert t.state.phase == "mingling"
    assert not any(e.kind == "relic_timeout" for e in t.events if e.round == 5)
    t.mingle({1: "S4 F6", 4: "S1 F6", 6: "S1 F4"})
    assert t.state.phase != "relic_window"
    assert t.state.outcome is not None


def test_r9_passive_relics_are_silent_in_a_three_living_round():
    t = relic_table("LVHHHH", R9)
    play(t, 2, 5)
    play(t, 3, 1, ghosts={2: 6})
    play(t, 5, 6, ghosts={2: 4, 3: 4})
    assert t.state.round == 5 and t.state.three_living
    assert holdings(t)[1] == ["false_idol"] and holdings(t)[6] == ["seers_orb"]
    assert holdings(t)[4] == ["ceremonial_dagger"]
    assert offers(t, 6, "intervention_vote") == []  # Seer's Orb: no intervention in R9
    assert offers(t, 5, "use_relic") == []  # a Ghost's Blood, and no relic anyway
    from relics.rules import MODULE

    assert MODULE.adjust_tally(t.state, "stake", {1: 1, 4: 0, 6: 0}) == {1: 1, 4: 0, 6: 0}
    assert not any(MODULE.may_stack(t.state, s, "stake") for s in (1, 4, 6))


def test_r9_the_false_idol_adds_no_automatic_stake_in_a_three_living_round():
    t = relic_table("LVHHHH", R9)
    play(t, 2, 5)
    play(t, 3, 1, ghosts={2: 6})
    play(t, 5, 6, ghosts={2: 4, 3: 4})
    # seat 1 (the Lord, with the Idol) gets 1 Stake, seats 4 and 6 one each: a three-way tie,
    # unless the Idol counts.
    t.mingle({1: "S4 F6", 4: "S6 F1", 6: "S1 F4"})
    assert t.state.phase == "tiebreak"
    assert sorted(t.state.tie.candidates) == [1, 4, 6]


def test_r9_the_false_idol_offers_no_hand_over_when_its_holder_dies_in_a_three_living_round():
    t = relic_table("LVHHHH", {**R9, 1: "blood_of_the_one", 5: "false_idol"})
    play(t, 2, 5)
    play(t, 3, 1, ghosts={2: 6})
    play(t, 4, 6, ghosts={2: 1, 3: 1})
    assert t.state.round == 5 and t.state.living == (1, 5, 6) and t.state.three_living
    t.mingle({1: "S5 F6", 5: "S6 F1", 6: "S5 F1"})  # seat 5, holding the Idol, dies
    assert not t.alive(5)
    assert t.state.phase != "relic_choice", "R9: the False Idol acts in a three-living round"
    assert t.state.outcome is not None


def test_r9_a_bangle_does_not_take_its_partner_along_in_a_three_living_round():
    wanted = {1: "signet_ring", 2: "ritual_bell", 3: "hindsight_looking_glass"}
    wanted |= {4: "bangle_of_oaths", 5: "bangle_of_oaths", 6: "key_of_quick_passage"}
    t = relic_table("LVHHHHH", {**wanted, 7: "blood_of_the_one"})
    play(t, 2, 5)
    play(t, 3, 1, ghosts={2: 4})
    play(t, 6, 4, ghosts={2: 5, 3: 5})
    play(t, 7, 5, ghosts={2: 1, 3: 1, 6: 1})
    assert t.state.living == (1, 4, 5) and t.state.three_living
    t.mingle({1: "S4 F5", 4: "S5 F1", 5: "S4 F1"})
    assert not t.alive(4) and t.alive(5)


def test_r9_no_dump_of_relic_state_mentions_an_active_window_in_three_living():
    t = three_living()
    assert json.dumps(t.view(4)["relics"]["window"]) == "null"
