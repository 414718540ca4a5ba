"""R11: one test per card per ruling (glossary, docs/rules.md R11, the module's documented rulings).

Six players unless said otherwise: seat 1 the Vampire Lord, seat 2 a Vampire, 3–6 Hunters. Round 1
(conftest): seat 3 has the most Stakes and is examined by seat 4, who is the Alpha of round 2.
"""

from __future__ import annotations

from games.engine import pending
from games.engine.dining import stake_tally
from games.engine.last_wills import EMPTY_DATA
from games.engine.state import evolve
from games.engine.view import waiting_for
from relics.rules import MODULE
from relics.rules.holdings import moved, update
from tests.engine.test_r13_last_wills import stack
from tests.relics.conftest import (
    data,
    holdings,
    offers,
    pass_windows,
    play,
    relic_table,
    settle_choices,
    use,
    window,
)

NEUTRAL = [
    "crown_of_solomon",
    "ceremonial_dagger",
    "seers_orb",
    "whisper_wick_candle",
    "signet_ring",
    "hindsight_looking_glass",
    "ritual_bell",
    "key_of_quick_passage",
    "van_helsings_journal",
]


def hold(n=6, **over):
    """Seat -> relic: `s5="false_idol"` etc., the other seats neutral cards (passed by default)."""
    wanted = {int(k[1:]): v for k, v in over.items()}
    pool = [r for r in NEUTRAL if r not in wanted.values()]
    for seat in range(1, n + 1):
        wanted.setdefault(seat, pool.pop(0))
    return wanted


def table(roles="LVHHHH", windows=False, **over):
    return relic_table(roles, hold(len(roles), **over), windows=windows)


def to_post(t, plan, ghosts=None):
    """Pass the pre windows, place `plan`; stops at the first post window (or later)."""
    pass_windows(t)
    t.mingle(plan, ghosts=ghosts)
    return t


def kill_round(t, kill, ghosts=None):
    """Pass the pre windows, mingle so that `kill` dies, pass the post windows."""
    from tests.engine.test_r5_ties import rig

    pass_windows(t)
    protected = next(iter(ghosts.values())) if ghosts else None
    t.mingle(rig(t.state, most_stakes=kill, protected=protected), ghosts=ghosts)
    return finish_round(t)


def until_window(t, seat):
    while t.state.phase == "relic_window" and window(t)["seat"] != seat:
        t.do(window(t)["seat"], "pass")
    assert window(t) and window(t)["seat"] == seat, t.state.phase
    return t


def finish_round(t):
    """Pass this round's post-mingling windows and Blood of the One's last call after the reveal
    (choices, ties and the Scales of Justice's windows are left open)."""
    while t.state.phase == "relic_window" and window(t)["stage"] in ("post", "reveal"):
        t.do(window(t)["seat"], "pass")
    return t


# Round 2 plans (seat 4 the Alpha). TIE: seats 3 and 5 tie with 3 Stake votes; seat 2 the most
# Feasts; the Investigation on seat 6.
TIE = {1: "S3 S5 F2", 2: "S3 S5 F1", 3: "S5 S6 F1", 4: "D1 F2 I6", 5: "S3 S6 F2", 6: "S2 S4 F3"}
# KEY: seat 5 has 4 Stake votes, seat 6 has 3; the Investigation on seat 5; seat 2 is elected.
KEY = {1: "S5 S3 F2", 2: "S5 S3 F1", 3: "S5 S6 F1", 4: "D6 F2 I5", 5: "S1 S2 F4", 6: "S5 S1 F2"}
# CROSS: seat 3 is killed with 4 Stake votes, 2 of them from the Lord and the Vampire.
CROSS = {1: "S3 S5 F2", 2: "S3 S6 F1", 3: "S5 S6 F1", 4: "D3 F2 I6", 5: "S1 S6 F2", 6: "S2 S4 F5"}
# NO_CROSS: seat 3 is killed with 4 Stake votes, all from Hunters.
NO_CROSS = {1: "S5 S6 F2", 2: "S5 S4 F1", 3: "S5 S6 F1", 4: "D3 F2 I6", 5: "S3 S1 F2"}
NO_CROSS |= {6: "S3 S1 F2"}
# LORD_DIES: seat 1 (the Lord) has 5 Stake votes, none from seat 6.
LORD_DIES = {1: "S3 S5 F2", 2: "S1 S5 F3", 3: "S1 S6 F2", 4: "D1 F2 I6", 5: "S1 S3 F2"}
LORD_DIES |= {6: "S3 S5 F2"}


# -- Ritual Bell ----------------------------------------------------------------------------------


def test_r11_ritual_bell_negates_one_living_players_relic_for_this_round_only():
    t = table(windows=True, s1="ritual_bell", s3="ceremonial_dagger")
    use(t, 1, "ritual_bell", targets=[3])
    pass_windows(t)
    t.place(3, "S5")
    t.illegal("illegal_target", 3, "place_token", token="stake", target=5)  # no Dagger now
    t.mingle({**KEY, 3: "S6 F1"})
    finish_round(t)
    assert t.state.round == 3 and not t.alive(5)
    pass_windows(t)
    t.place(3, "S4 S4")  # the Dagger works again


def test_r11_ritual_bell_tells_the_target_and_the_table_which_relic_it_negates():
    t = table(windows=True, s1="ritual_bell", s5="false_idol")
    use(t, 1, "ritual_bell", targets=[5])
    (private,) = [e for e in t.events if e.kind == "relic_negated"]
    assert private.audience == (5,) and "False Idol" in private.text
    public = [e for e in t.events if e.kind == "relic_used"][-1]
    assert public.audience is None  # R10.2a: the Bell token lies on a face-up card
    assert public.text == "Seat 1 rings the Ritual Bell: seat 5's False Idol is negated this round."
    (idol,) = [h for h in t.view(None)["relics"]["holdings"] if h["seat"] == 5]
    assert idol["negated"] and idol["markers"] == [{"relic": "ritual_bell", "round": 2}]


def test_r11_ritual_bell_targets_only_living_players_and_not_itself():
    t = table(s1="ritual_bell")
    play(t, 3, 5)
    assert t.state.round == 3 and window(t)["seat"] == 1
    (opts,) = offers(t, 1, "use_relic")
    assert 3 not in opts["targets"] and 1 not in opts["targets"]
    t.illegal("illegal_target", 1, "use_relic", relic="ritual_bell", targets=[3])
    t.illegal("illegal_target", 1, "use_relic", relic="ritual_bell", targets=[1])


# -- Signet Ring ----------------------------------------------------------------------------------


def test_r11_signet_ring_swaps_the_ring_with_the_targeted_relic():
    t = table(windows=True, s2="signet_ring", s5="false_idol")
    until_window(t, 2)
    use(t, 2, "signet_ring", targets=[5])
    assert holdings(t)[2] == ["false_idol"] and holdings(t)[5] == ["signet_ring"]
    assert t.view(2)["me"]["relic"]["id"] == "false_idol"
    assert t.view(5)["me"]["relic"]["id"] == "signet_ring"
    got = {e.audience: e.text for e in t.events if e.kind == "relic_received" and e.round == 2}
    assert "False Idol" in got[(2,)] and "Signet Ring" in got[(5,)]
    public = [e for e in t.events if e.kind == "relic_used"][-1]
    assert public.text == "Seat 2's Signet Ring swaps with seat 5's False Idol."


def test_r11_signet_ring_cannot_target_the_crown_of_solomon():
    t = table(windows=True, s2="signet_ring", s5="crown_of_solomon")
    until_window(t, 2)
    (opts,) = offers(t, 2, "use_relic")
    assert 5 not in opts["targets"]
    t.illegal("illegal_target", 2, "use_relic", relic="signet_ring", targets=[5])


def test_r11_signet_ring_acts_once_per_round_the_new_holder_gets_no_ring_window():
    t = table(windows=True, s2="signet_ring", s5="false_idol")
    until_window(t, 2)
    use(t, 2, "signet_ring", targets=[5])
    assert not (window(t) and window(t)["seat"] == 5 and window(t)["as"] == "signet_ring")


# -- Hindsight Looking Glass ----------------------------------------------------------------------


def glass_round(**over):
    """Round 3: seat 2 (the Vampire) died in round 2 holding `over['s2']`; seat 3 has the Glass."""
    t = table(s3="hindsight_looking_glass", **over)
    play(t, 2, 5)
    assert t.state.round == 3 and not t.alive(2)
    return t


def test_r11_hindsight_copies_only_a_ghosts_relic():
    t = glass_round(s2="false_idol")
    until_window(t, 3)
    (opts,) = offers(t, 3, "use_relic")
    assert opts["targets"] == [2]
    t.illegal("illegal_target", 3, "use_relic", relic="hindsight_looking_glass", targets=[5])


def test_r11_hindsight_copying_the_ritual_bell_acts_at_once():
    t = glass_round(s2="ritual_bell", s5="false_idol")
    until_window(t, 3)
    use(t, 3, "hindsight_looking_glass", targets=[2])
    assert window(t) == {
        "card": "hindsight_looking_glass",
        "seat": 3,
        "as": "ritual_bell",
        "stage": "pre",
    }
    use(t, 3, "ritual_bell", targets=[5])
    assert MODULE.adjust_tally(t.state, "stake", {5: 0}) == {5: 0}  # the Idol is negated


def test_r11_hindsight_copying_the_signet_ring_must_swap_the_glass_which_the_other_then_uses():
    t = glass_round(s2="signet_ring", s5="false_idol")
    until_window(t, 3)
    use(t, 3, "hindsight_looking_glass", targets=[2])
    assert window(t)["as"] == "signet_ring"
    use(t, 3, "signet_ring", targets=[5])
    assert holdings(t)[3] == ["false_idol"] and holdings(t)[5] == ["hindsight_looking_glass"]
    play(t, 6, 1, ghosts={2: 4})
    assert t.state.round == 4
    until_window(t, 5)
    assert window(t)["as"] == "hindsight_looking_glass"


def test_r11_hindsight_copying_a_bangle_has_no_effect():
    t = table(s2="bangle_of_oaths", s5="bangle_of_oaths", s3="hindsight_looking_glass")
    play(t, 2, 6)  # seat 5 dies with seat 2 (Bangle)
    assert not t.alive(2) and not t.alive(5) and t.state.round == 3
    until_window(t, 3)
    use(t, 3, "hindsight_looking_glass", targets=[2])
    pass_windows(t)
    plan = {1: "S3 S4 F6", 3: "S1 S4 F6", 4: "S1 S6 F3", 6: "D1 F3 I4"}
    t.mingle(plan, ghosts={2: 4, 5: 4})
    seen = pass_windows(t) if t.state.phase == "relic_window" else []
    assert (3, "bangle_of_oaths") not in seen


def test_r11_hindsight_copying_the_key_discards_the_glass_when_used():
    t = glass_round(s2="key_of_quick_passage")
    until_window(t, 3)
    use(t, 3, "hindsight_looking_glass", targets=[2])
    pass_windows(t)
    t.mingle({1: "S3 S4 F6", 3: "S1 S4 F6", 4: "S3 S6 F1", 5: "D3 F4 I6", 6: "S3 S5 F4"})
    until_window(t, 3)
    assert window(t)["as"] == "key_of_quick_passage"
    use(t, 3, "key_of_quick_passage")
    assert holdings(t).get(3) is None
    assert holdings(t, discarded=True)[3] == ["hindsight_looking_glass"]
    finish_round(t)
    assert t.alive(3)  # every token on seat 3 was ignored


def test_r11_hindsight_copying_the_scales_discards_the_glass_when_the_second_effect_is_used():
    t = table(s3="hindsight_looking_glass", s6="scales_of_justice")
    play(t, 6, 1)  # seat 6 dies holding the Scales
    until_window(t, 3)
    use(t, 3, "hindsight_looking_glass", targets=[6])
    pass_windows(t)
    # seats 4 and 5 tie with 3 Stake votes; seat 3 (the Glass) is not tied
    t.mingle({1: "D2 F3 I4", 2: "S4 S5 F3", 3: "S4 S5 F2", 4: "S5 S1 F2", 5: "S4 S1 F2"})
    finish_round(t)
    assert window(t)["stage"] == "tie" and sorted(t.state.tie.candidates) == [4, 5]
    assert offers(t, 3, "use_relic") == [
        {"relic": "scales_of_justice", "targets": [4, 5], "discard": True, "min": 1, "max": 1}
    ]
    use(t, 3, "scales_of_justice", targets=[5])
    assert not t.alive(5) and t.alive(4)
    assert holdings(t, discarded=True)[3] == ["hindsight_looking_glass"]
    assert holdings(t).get(3) is None


def test_r11_hindsight_copying_the_blood_discards_the_glass_when_used():
    t = glass_round(s2="blood_of_the_one")
    until_window(t, 3)
    use(t, 3, "hindsight_looking_glass", targets=[2])
    pass_windows(t)
    assert offers(t, 3, "use_relic")[0]["relic"] == "blood_of_the_one"
    use(t, 3, "blood_of_the_one", targets=[5])
    assert holdings(t, discarded=True)[3] == ["hindsight_looking_glass"]


def test_r11_hindsight_copying_the_false_idol_gives_the_stake_but_no_hand_over():
    t = glass_round(s2="false_idol")
    until_window(t, 3)
    use(t, 3, "hindsight_looking_glass", targets=[2])
    assert MODULE.adjust_tally(t.state, "stake", {3: 0, 4: 0}) == {3: 1, 4: 0}
    play(t, 3, 1, ghosts={2: 4})
    assert not t.alive(3)
    assert not [e for e in t.events if e.kind == "relic_used" and "hands" in e.text]


def test_r11_hindsight_copying_the_candle_acts_in_the_candles_post_slot():
    t = glass_round(s2="whisper_wick_candle", s4="key_of_quick_passage")
    until_window(t, 3)
    use(t, 3, "hindsight_looking_glass", targets=[2])
    pass_windows(t)
    t.mingle({1: "S3 S4 F6", 3: "S1 S4 F6", 4: "S3 S6 F1", 5: "D3 F4 I6", 6: "S3 S5 F4"})
    assert window(t)["seat"] == 3 and window(t)["as"] == "whisper_wick_candle"


# -- Whisper-Wick Candle --------------------------------------------------------------------------


def candle_table():
    t = table(s4="whisper_wick_candle")
    to_post(t, TIE)
    until_window(t, 4)
    return t


def test_r11_whisper_wick_candle_swaps_one_token_between_two_seats():
    t = candle_table()
    # seat 6's Stake on 2 and seat 3's Stake on 5 change places
    use(t, 4, "whisper_wick_candle", targets=[2, 5], owners=[6, 3])
    placed = {(p.owner, p.target) for p in t.state.placements}
    assert (6, 5) in placed and (3, 2) in placed
    assert (6, 2) not in placed and (3, 5) not in placed
    assert len(t.state.placements) == 18


def test_r11_whisper_wick_candle_may_target_its_own_holder():
    t = candle_table()
    (opts,) = offers(t, 4, "use_relic")
    assert 4 in opts["targets"]
    use(t, 4, "whisper_wick_candle", targets=[4, 5], owners=[6, 1])
    placed = {(p.owner, p.target) for p in t.state.placements}
    assert (6, 5) in placed and (1, 4) in placed


def test_r11_whisper_wick_candle_never_puts_a_token_on_its_owner():
    t = candle_table()
    # seat 3's Stake on 5 to seat 3 itself
    t.illegal(
        "illegal_target", 4, "use_relic", relic="whisper_wick_candle", targets=[5, 3], owners=[3, 1]
    )


def test_r11_whisper_wick_candle_never_puts_two_of_one_owners_tokens_on_one_seat():
    t = candle_table()
    # seat 1's Stake on 3 would go to seat 5, where seat 1 already has a Stake
    t.illegal(
        "illegal_target", 4, "use_relic", relic="whisper_wick_candle", targets=[3, 5], owners=[1, 2]
    )


def test_r11_whisper_wick_candle_needs_a_token_of_the_named_owner_on_each_seat():
    t = candle_table()
    t.illegal(
        "illegal_target", 4, "use_relic", relic="whisper_wick_candle", targets=[3, 5], owners=[6, 1]
    )
    t.illegal(
        "bad_request", 4, "use_relic", relic="whisper_wick_candle", targets=[3, 3], owners=[1, 1]
    )


# -- Bangle of Oaths ------------------------------------------------------------------------------


def test_r11_bangle_moves_up_to_two_tokens_to_the_partner():
    t = table(s3="bangle_of_oaths", s6="bangle_of_oaths")
    to_post(t, TIE)
    until_window(t, 3)
    (opts,) = offers(t, 3, "use_relic")
    # Tokens from 1, 2, 5 and 6 lie on seat 3; only 1's and 2's may move: 6 is the
    # partner (a token never ends on its owner) and 5 already has a token on seat 6.
    assert opts["owners"] == [1, 2] and opts["partner"] == 6
    assert opts["moves"] == [{"owners": [1]}, {"owners": [2]}, {"owners": [1, 2]}]
    assert opts["targets"] == [] and opts["min"] == opts["max"] == 0
    t.illegal("bad_request", 3, "use_relic", relic="bangle_of_oaths", owners=[1, 2, 5])
    t.illegal("illegal_target", 3, "use_relic", relic="bangle_of_oaths", owners=[])
    use(t, 3, "bangle_of_oaths", owners=[1, 2])
    on = lambda s: sorted(p.owner for p in t.state.placements if p.target == s)  # noqa: E731
    assert on(3) == [5, 6] and on(6) == [1, 2, 3, 4, 5]


def test_r11_bangle_never_stacks_a_daggers_stakes_nor_tells_them_apart():
    """R11 amended: seat 1 holds the Dagger and placed Stakes on seats 3 and 6 (the Bangles).
    Moving 1's token to seat 6 would stack two of its tokens: neither offered nor taken, and
    refused in the same words as when one of them is a Feast, so the refusal tells nothing of
    what the tokens are (R3.2)."""
    refusals = []
    for plan in ("S3 S6 F2", "S3 F6 S2"):  # seat 1's token on seat 6: a Stake, then a Feast
        t = table(s3="bangle_of_oaths", s6="bangle_of_oaths", s1="ceremonial_dagger")
        to_post(t, {**TIE, 1: plan})
        until_window(t, 3)
        (opts,) = offers(t, 3, "use_relic")
        assert 1 not in opts["owners"] and all(1 not in m["owners"] for m in opts["moves"])
        refused = t.illegal("illegal_target", 3, "use_relic", relic="bangle_of_oaths", owners=[1])
        refusals.append(refused.detail)
    assert refusals[0] == refusals[1]
    assert refusals[0] == "Two of one owner's tokens may not share a seat (R3.1, R11)."


def test_r11_bangle_moves_one_of_a_daggers_two_stakes_off_its_seat():
    """Seat 1 (the Dagger) put both Stakes on seat 3, a Bangle's holder: naming owner 1 moves one
    of them (both are Stakes, so which one tells nothing); it used to be refused."""
    t = table(s3="bangle_of_oaths", s6="bangle_of_oaths", s1="ceremonial_dagger")
    to_post(t, {**TIE, 1: "S3 S3 F2"})
    until_window(t, 3)
    (opts,) = offers(t, 3, "use_relic")
    assert {"owners": [1]} in opts["moves"]
    use(t, 3, "bangle_of_oaths", owners=[1])
    mine = sorted((p.target, p.token) for p in t.state.placements if p.owner == 1)
    assert mine == [(2, "feast"), (3, "stake"), (6, "stake")]


def test_r11_candle_moves_one_of_a_daggers_two_stakes_and_keeps_the_other():
    """Seat 1 (the Dagger) put both Stakes on seat 5: the Candle swaps one of them with seat 6's
    token on seat 3; the other stays (both used to leave the table)."""
    t = table(s4="whisper_wick_candle", s1="ceremonial_dagger")
    to_post(t, {**TIE, 1: "S5 S5 F2", 6: "S2 S4 F3"})
    until_window(t, 4)
    use(t, 4, "whisper_wick_candle", targets=[5, 3], owners=[1, 6])
    mine = sorted((p.target, p.token) for p in t.state.placements if p.owner == 1)
    assert mine == [(2, "feast"), (3, "stake"), (5, "stake")]
    assert len(t.state.placements) == 18


def test_r11_candle_never_stacks_a_daggers_stakes_nor_tells_them_apart():
    """R11 amended: the Candle's swap that would put seat 1's token on seat 3, where seat 1 (the
    Dagger's holder) already has a Stake, is refused alike whether both are Stakes or not."""
    refusals = []
    for plan in ("S3 S5 F2", "S3 F5 S2"):  # seat 1's token on seat 5: a Stake, then a Feast
        t = table(s4="whisper_wick_candle", s1="ceremonial_dagger")
        to_post(t, {**TIE, 1: plan, 6: "S3 S4 F2"})
        until_window(t, 4)
        (opts,) = offers(t, 4, "use_relic")
        assert {"targets": [3, 5], "owners": [6, 1]} not in opts["moves"]
        refused = t.illegal(  # seat 6's token on 3 to seat 5, seat 1's on 5 to seat 3
            "illegal_target",
            4,
            "use_relic",
            relic="whisper_wick_candle",
            targets=[3, 5],
            owners=[6, 1],
        )
        refusals.append(refused.detail)
    assert refusals[0] == refusals[1]


def test_r11_bangle_never_moves_a_token_onto_its_owner_nor_doubles_an_owner():
    t = table(s3="bangle_of_oaths", s6="bangle_of_oaths")
    to_post(t, {**TIE, 6: "S3 S4 F2", 2: "S3 S5 F1"})
    until_window(t, 3)
    t.illegal("illegal_target", 3, "use_relic", relic="bangle_of_oaths", owners=[6])
    t.illegal("illegal_target", 3, "use_relic", relic="bangle_of_oaths", owners=[5])  # 5 -> 6 twice


def test_r11_bangle_partner_dies_when_the_other_is_eliminated():
    t = table(s3="bangle_of_oaths", s6="bangle_of_oaths")
    to_post(t, KEY)
    finish_round(t)
    assert not t.alive(5) and t.alive(3)
    t2 = table(s5="bangle_of_oaths", s6="bangle_of_oaths")
    to_post(t2, KEY)
    finish_round(t2)
    assert not t2.alive(5) and not t2.alive(6)
    assert [e.kind for e in t2.events if e.kind == "relic_bangle"] == ["relic_bangle"]


def test_r11_bangle_partner_dies_through_protection():
    t = table(s5="bangle_of_oaths", s6="bangle_of_oaths")
    play(t, 3, 5)  # round 2: seat 3 dies
    pass_windows(t)
    t.mingle(
        {1: "S5 S4 F2", 2: "S5 S4 F1", 4: "S5 S1 F2", 5: "D1 F4 I2", 6: "S5 S4 F2"},
        ghosts={3: 6},
    )
    finish_round(t)
    assert t.dining["protected"] == 6
    assert not t.alive(5) and not t.alive(6)


def bell_bangle(roles_kill):
    """Seat 1 rings the Bell on seat 6's Bangle in round 3 and seat 5 (the other Bangle) dies."""
    t = table(s1="ritual_bell", s5="bangle_of_oaths", s6="bangle_of_oaths")
    play(t, roles_kill, 1)
    assert t.state.round == 3
    until_window(t, 1)
    use(t, 1, "ritual_bell", targets=[6])
    pass_windows(t)
    living = t.state.living
    plan = {s: "" for s in living}
    others = [s for s in living if s != 5]
    for s in living:
        words, used = [], set()
        for tok in t.state.hands[s - 1]:
            if tok in ("stake", "double_stake") and s != 5 and 5 not in used:
                target = 5
            else:
                target = next(x for x in others if x != s and x not in used)
            used.add(target)
            words.append(
                {"stake": "S", "double_stake": "D", "feast": "F", "investigation": "I"}[tok]
                + str(target)
            )
        plan[s] = " ".join(words)
    t.mingle(plan, ghosts={g: 4 for g in t.state.ghosts})
    finish_round(t)
    return t


def test_r11_bangle_negated_by_the_ritual_bell_its_holder_dies_at_the_start_of_next_round():
    t = bell_bangle(2)
    assert not t.alive(6) and t.state.round == 4
    deaths = [e for e in t.events if e.kind == "relic_bangle"]
    assert deaths and deaths[-1].round == 4
    # during round 3 seat 6 was still alive: the death event of seat 5 came first
    elim = [e for e in t.events if e.kind == "eliminated"]
    assert [e.data["seat"] for e in elim][-2:] == [5, 6]
    assert elim[-1].round == 4


def test_r11_bangle_deferred_death_is_followed_by_the_win_check():
    t = bell_bangle(3)  # Hunters 3, 5, then 6: only one Hunter is left
    assert t.state.outcome is not None and t.state.outcome.winner == "vampires"
    assert t.state.round == 4


def test_r11_bangle_deferred_death_comes_before_the_r9_count_of_living_players():
    t = bell_bangle(2)  # seats 2, 5, then 6: seats 1, 3, 4 live
    assert t.state.outcome is None
    assert t.state.living == (1, 3, 4) and t.state.three_living
    assert t.state.hands[0] == ("stake", "feast")


# -- Key of Quick Passage -------------------------------------------------------------------------


def test_r11_key_discards_and_ignores_every_token_on_its_seat_investigation_included():
    t = table(s5="key_of_quick_passage")
    to_post(t, KEY)
    until_window(t, 5)
    use(t, 5, "key_of_quick_passage")
    finish_round(t)
    assert t.alive(5) and not t.alive(6)
    assert t.dining["investigated"] is None
    assert holdings(t, discarded=True)[5] == ["key_of_quick_passage"]
    knowledge = t.view(4)["me"]["knowledge"]
    assert not any(k["seat"] == 5 for k in knowledge)


def test_r11_key_unplaced_tokens_still_count_against_its_holder():
    t = table(s5="key_of_quick_passage")
    plan = {**KEY}
    del plan[5]  # seat 5 places nothing: 3 automatic Stake votes
    plan[4] = "D1 F2 I5"
    plan[6] = "S4 S2 F1"  # nobody has more than 2 placed Stake votes
    pass_windows(t)
    t.mingle(plan)
    until_window(t, 5)
    use(t, 5, "key_of_quick_passage")
    finish_round(t)
    assert not t.alive(5)


# -- Ceremonial Dagger ----------------------------------------------------------------------------


def test_r11_ceremonial_dagger_both_stakes_on_one_player_counted_twice():
    t = table(s5="ceremonial_dagger")
    t.place(5, "S3")
    assert 3 in offers(t, 5, "place_token")[0]["targets"]
    t.place(5, "S3")
    t.illegal("illegal_target", 5, "place_token", token="feast", target=3)  # Feasts never stack
    t.mingle({1: "S6 S4 F2", 2: "S6 S4 F1", 3: "S6 S1 F2", 4: "D6 F2 I1", 5: "F2", 6: "S3 S1 F2"})
    finish_round(t)
    assert not t.alive(6)  # 5 votes; seat 3: 2 from the Dagger + 1 = 3


def test_r11_ceremonial_dagger_others_may_not_stack():
    t = table(s5="ceremonial_dagger")
    t.place(3, "S6")
    t.illegal("illegal_target", 3, "place_token", token="stake", target=6)


def test_r11_ceremonial_dagger_a_feast_placed_first_keeps_the_stakes_off_that_seat():
    """R11: never a Feast beside the Dagger's Stakes, in either order (a Stake used to be let
    onto a seat that already held the holder's Feast, and then the second Stake too)."""
    t = table(s5="ceremonial_dagger")
    t.place(5, "F3")
    (opts,) = offers(t, 5, "place_token")
    assert 3 not in opts["targets"] and 4 in opts["targets"]
    t.illegal("illegal_target", 5, "place_token", token="stake", target=3)
    t.place(5, "S4 S4")  # both Stakes may still share another seat
    mine = sorted((p.target, p.token) for p in t.state.placements if p.owner == 5)
    assert mine == [(3, "feast"), (4, "stake"), (4, "stake")]


# -- Seer's Orb -----------------------------------------------------------------------------------


def test_r11_seers_orb_votes_only_when_there_are_ghosts_and_may_vote_for_itself():
    t = table(s6="seers_orb")
    assert offers(t, 6, "intervention_vote") == []
    t.illegal("wrong_phase", 6, "intervention_vote", target=6)
    play(t, 2, 5)
    pass_windows(t)
    (opts,) = offers(t, 6, "intervention_vote")
    assert 6 in opts["targets"]
    t.do(6, "intervention_vote", target=6)


def test_r11_seers_orb_vote_never_holds_mingling_open():
    t = table(s6="seers_orb")
    play(t, 2, 5)
    pass_windows(t)
    t.mingle(
        {1: "S3 S4 F6", 3: "S1 S4 F6", 4: "S3 S6 F1", 5: "D3 F4 I6", 6: "S3 S1 F4"},
        ghosts={2: 4},
    )
    assert any(
        e.kind == "mingling_over" and e.round == 3 and e.text.startswith("Every token")
        for e in t.events
    )


def test_r11_seers_orb_decides_an_intervention_tie():
    t = table(s6="seers_orb")
    play(t, 2, 5)
    pass_windows(t)
    t.do(6, "intervention_vote", target=6)
    t.mingle(
        {1: "S3 S4 F6", 3: "S1 S4 F6", 4: "S3 S6 F1", 5: "D3 F4 I6", 6: "S3 S1 F4"},
        ghosts={2: 4},
    )
    pass_windows(t)
    assert t.state.phase == "tiebreak" and t.state.tie.kind == "intervention"
    assert t.state.tie.decider == 6 and t.state.tie.decided_by == "relics"
    t.do(6, "tiebreak_vote", target=6)
    assert t.dining["protected"] == 6


# -- Effigy of Innocence --------------------------------------------------------------------------


def test_r11_effigy_gives_one_fewer_stake_vote():
    t = table(s5="effigy_of_innocence")
    to_post(t, TIE)  # seats 3 and 5 tie with 3: the Effigy takes seat 5 down to 2
    finish_round(t)
    assert not t.alive(3) and t.alive(5)
    assert MODULE.adjust_tally(t.state, "stake", {5: 0}) == {5: 0}  # never below 0


def test_r11_effigy_blocks_the_investigation():
    t = table(s6="effigy_of_innocence")
    to_post(t, TIE)
    finish_round(t)
    assert t.dining["investigated"] is None
    assert not any(k["seat"] == 6 for k in t.view(4)["me"]["knowledge"] if "role" in k)


def test_r13_parting_glance_does_not_offer_the_effigys_holder():
    """R13 amended: only players the card can examine are offered; the Effigy's holder cannot be
    examined (R11), so naming them would waste the card."""
    t = relic_table("LVHHHH", hold(s6="effigy_of_innocence"), last_wills=True)
    stack(t, "parting_glance")
    to_post(t, KEY)
    finish_round(t)
    assert not t.alive(5) and t.state.phase == "last_will"
    (opts,) = [p["options"] for p in pending(t.state, 5) if p["action"] == "resolve_choice"]
    assert 6 not in opts["targets"] and 4 in opts["targets"]
    t.illegal("illegal_target", 5, "resolve_choice", choice="parting_glance", targets=[6])
    t.do(5, "resolve_choice", choice="parting_glance", targets=[4])
    assert any(k["seat"] == 4 and "role" in k for k in t.view(5)["me"]["knowledge"])


# Round 2: nobody puts a Stake on seat 5, who places every token (EFFIGY_UNPLACED: not the Feast).
EFFIGY = {1: "S3 S6 F2", 2: "S3 S6 F1", 3: "S6 S1 F2", 4: "D3 F2 I6", 5: "S3 S1 F2"}
EFFIGY |= {6: "S3 S1 F2"}


def effigy_tally(plan):
    """Seat 5 holds the Effigy and has a Dying Accusation's automatic Stake this round; the count
    is read at Blood of the One's last call (seat 6), after the reveal, before anything else."""
    t = relic_table(
        "LVHHHH", hold(s5="effigy_of_innocence", s6="blood_of_the_one"), last_wills=True
    )
    accusation = {"card": "dying_accusation", "by": 3, "target": 5, "round": 2}
    wills = t.state.ext.get("last_wills") or EMPTY_DATA
    wills = {**wills, "effects": [*wills["effects"], accusation]}
    t.state = evolve(t.state, ext={**t.state.ext, "last_wills": wills})
    to_post(t, plan)
    while window(t)["stage"] != "reveal":
        t.do(window(t)["seat"], "pass")
    return stake_tally(t.state)[5]


def test_r11_effigy_takes_one_off_the_automatic_stake_votes_too():
    """R11 (1 fewer Stake vote, min 0) counts every Stake vote, automatic ones included: a
    Dying Accusation's (R13) and an unplaced token's (R3.4)."""
    assert effigy_tally(EFFIGY) == 0  # the Accusation's 1, less the Effigy's 1
    assert effigy_tally({**EFFIGY, 5: "S3 S1"}) == 1  # and the unplaced Feast's 1


def test_r11_effigy_of_a_dead_holder_does_not_stop_van_helsing():
    """Assumed: the Journal examines the eliminated player, whose Effigy is a Ghost's relic and
    so gives no effect (R10.3)."""
    t = table(s1="effigy_of_innocence", s6="van_helsings_journal")
    to_post(t, LORD_DIES)
    while t.state.phase == "relic_window":
        t.do(window(t)["seat"], "pass")
    assert not t.alive(1)
    assert t.state.phase == "relic_choice" and data(t)["choice"]["seat"] == 6


def test_r11_effigy_blocks_van_helsing_on_a_living_target():
    t = table(s6="effigy_of_innocence")
    assert MODULE.blocks_examination(t.state, 4, 6) and not MODULE.blocks_examination(t.state, 4, 5)


# -- The False Idol -------------------------------------------------------------------------------


def test_r11_false_idol_gives_one_automatic_stake_vote():
    t = table(s5="false_idol")
    to_post(t, {**TIE})  # seats 3 and 5 tie with 3: the Idol makes it 4 for seat 5
    finish_round(t)
    while t.state.phase == "relic_choice":
        t.do(5, "pass")
    assert not t.alive(5) and t.alive(3)


def test_r11_false_idol_its_killed_holder_may_give_it_to_a_living_player_at_most_twice():
    t = table(s5="false_idol", s6="crown_of_solomon")
    to_post(t, TIE)
    finish_round(t)
    assert t.state.phase == "relic_choice" and data(t)["choice"]["seat"] == 5
    (opts,) = offers(t, 5, "resolve_choice")
    assert opts["targets"] == list(t.state.living)
    t.do(5, "resolve_choice", choice="false_idol", targets=[6])
    assert sorted(holdings(t)[6]) == ["crown_of_solomon", "false_idol"]
    assert sorted(r["id"] for r in t.view(6)["me"]["relics"]) == ["crown_of_solomon", "false_idol"]
    settle_choices(t)
    assert t.state.round == 3
    kill_round(t, 6, ghosts={5: 4})  # round 3: seat 6 dies
    assert not t.alive(6) and t.state.phase == "relic_choice"
    t.do(6, "resolve_choice", choice="false_idol", targets=[3])
    assert "false_idol" in holdings(t)[3]
    settle_choices(t)
    assert t.state.round == 4
    kill_round(t, 3, ghosts={5: 1, 6: 1})
    assert not t.alive(3)
    assert t.state.phase != "relic_choice"  # the third time: no hand-over


def test_r11_false_idol_hand_over_is_optional_and_times_out_as_declined():
    t = table(s5="false_idol")
    to_post(t, TIE)
    finish_round(t)
    assert t.state.phase == "relic_choice"
    t.expire()
    assert holdings(t)[5] == ["false_idol"]


def test_r11_false_idol_negated_by_the_bell_offers_no_hand_over_this_round():
    t = table(windows=True, s1="ritual_bell", s5="false_idol")
    use(t, 1, "ritual_bell", targets=[5])
    to_post(t, KEY)
    finish_round(t)
    assert not t.alive(5)
    assert t.state.phase != "relic_choice", "a negated False Idol is handed over"


# -- Scales of Justice ----------------------------------------------------------------------------


def test_r11_scales_tied_holder_chooses_the_outcome_instead_of_the_vote():
    t = table(s3="scales_of_justice")
    to_post(t, TIE)
    finish_round(t)
    assert window(t) == {"card": "scales_of_justice", "seat": 3, "as": "scales_of_justice"} | {
        "stage": "tie"
    }
    assert offers(t, 3, "use_relic") == [
        {"relic": "scales_of_justice", "targets": [3, 5], "discard": False, "min": 1, "max": 1}
    ]
    shown = t.view(None)["relics"]["window"]
    assert shown["seat"] == 3 and shown["tie"] == {"kind": "elimination", "candidates": [3, 5]}
    use(t, 3, "scales_of_justice", targets=[5])
    assert not t.alive(5) and t.alive(3)
    assert holdings(t)[3] == ["scales_of_justice"]  # kept: not discarded
    assert t.dining["ties"][0]["decided_by"] == "scales_of_justice"


def test_r11_scales_discarded_to_decide_any_tie():
    t = table(s6="scales_of_justice")
    to_post(t, TIE)
    finish_round(t)
    assert window(t)["seat"] == 6 and window(t)["stage"] == "tie"
    assert offers(t, 6, "use_relic") == [
        {"relic": "scales_of_justice", "targets": [3, 5], "discard": True, "min": 1, "max": 1}
    ]
    t.illegal("illegal_target", 6, "use_relic", relic="scales_of_justice", targets=[6])
    use(t, 6, "scales_of_justice", targets=[3])
    assert not t.alive(3) and t.alive(5)
    assert holdings(t).get(6) is None
    assert holdings(t, discarded=True)[6] == ["scales_of_justice"]
    assert t.dining["ties"][0]["decided_by"] == "scales_of_justice"


def test_r11_scales_decides_an_election_tie_too():
    t = table(s6="scales_of_justice")
    plan = {1: "S3 S5 F2", 2: "S3 S6 F1", 3: "S5 S6 F1", 4: "D3 F2 I6", 5: "S4 S6 F2"}
    plan[6] = "S2 S4 F1"  # seat 3 killed; seats 1 and 2 tie with 3 Feasts
    to_post(t, plan)
    finish_round(t)
    assert window(t)["stage"] == "tie" and t.state.tie.kind == "election"
    use(t, 6, "scales_of_justice", targets=[1])
    assert t.dining["alpha_elected"] == 1 or t.state.alpha == 1


# Round 3 after seat 2 (the Vampire) died in round 2 and seat 5 was elected: seats 3 and 4 tie
# with 3 Stake votes, seat 1 has the most Feasts; the Ghost's dial protects seat 5.
GHOST_TIE = {1: "S3 S4 F6", 3: "S4 S6 F1", 4: "S3 S6 F1", 5: "D1 F6 I3", 6: "S3 S4 F1"}


def ghost_tie_table(**over):
    t = table(**over)
    play(t, 2, 5)
    assert t.state.round == 3 and t.state.ghosts == (2,) and t.state.alpha == 5
    to_post(t, GHOST_TIE, ghosts={2: 5})
    finish_round(t)
    return t


def test_r11_scales_window_opens_before_a_ghost_who_votes_at_once_can_settle_the_tie():
    """R11 amended: the Scales holder's window on a Dining tie comes first; no vote can settle
    the tie before it closes (a fast Ghost used to settle it before the holder could act)."""
    t = ghost_tie_table(s6="scales_of_justice")
    assert window(t)["seat"] == 6 and window(t)["stage"] == "tie"
    assert t.view(2)["waiting_for"] == [6] and offers(t, 2, "tiebreak_vote") == []
    t.illegal("wrong_phase", 2, "tiebreak_vote", target=3)
    (announced,) = [e for e in t.events if e.kind == "relic_scales"]
    assert "seat 6 may discard them to decide it" in announced.text
    t.do(6, "pass")  # passing leaves the tie to the usual vote
    assert t.state.phase == "tiebreak" and t.state.tie.voters == (2,)
    t.do(2, "tiebreak_vote", target=4)
    assert not t.alive(4) and t.alive(3)
    assert holdings(t)[6] == ["scales_of_justice"]
    assert t.dining["ties"][0]["decided_by"] == "vote"


def test_r11_scales_holder_decides_before_the_ghost_votes():
    t = ghost_tie_table(s6="scales_of_justice")
    use(t, 6, "scales_of_justice", targets=[3])
    assert not t.alive(3) and t.alive(4)
    assert [r["decided_by"] for r in t.dining["ties"]] == ["scales_of_justice"]


def test_r11_scales_silence_leaves_the_tie_to_the_usual_vote_with_no_random_pick():
    """R11 amended: the tied holder's power is optional ("you may choose"); when its window runs
    out the tie goes to the usual vote, here every living player (no Ghost yet, R5.3)."""
    t = table(s3="scales_of_justice")
    to_post(t, TIE)
    finish_round(t)
    assert window(t)["seat"] == 3
    t.expire()
    assert t.state.phase == "tiebreak" and t.state.tie.decider is None
    assert t.state.tie.voters == (1, 2, 3, 4, 5, 6)
    t.vote({1: 5, 2: 5, 3: 5, 4: 3, 5: 3, 6: 5})
    assert not t.alive(5) and t.dining["ties"][0]["decided_by"] == "vote"
    assert holdings(t)[3] == ["scales_of_justice"]


# -- Crown of Solomon -----------------------------------------------------------------------------


def test_r11_crown_of_solomon_cannot_be_mesmerized():
    t = table(s4="crown_of_solomon")
    to_post(t, {**KEY, 4: "D6 F2 I1"})  # the Alpha investigates the Lord
    finish_round(t)
    assert t.dining["investigated"] == 1
    assert t.view(4)["me"]["mesmerized"] is False
    assert any(k.get("role") == "vampire_lord" for k in t.view(4)["me"]["knowledge"])


def test_r11_without_the_crown_the_same_investigation_mesmerizes():
    t = table(s4="seers_orb", s3="crown_of_solomon")
    to_post(t, {**KEY, 4: "D6 F2 I1"})
    finish_round(t)
    assert t.view(4)["me"]["mesmerized"] is True


# -- Van Helsing's Journal ------------------------------------------------------------------------


def test_r11_van_helsing_examines_the_eliminated_when_none_of_your_stakes_is_on_them():
    t = table(s6="van_helsings_journal")
    to_post(t, LORD_DIES)
    while t.state.phase == "relic_window":
        t.do(window(t)["seat"], "pass")
    assert not t.alive(1)
    assert t.state.phase == "relic_choice" and data(t)["choice"]["seat"] == 6
    (opts,) = offers(t, 6, "resolve_choice")
    assert opts["targets"] == [1]
    t.do(6, "resolve_choice", choice="van_helsings_journal", targets=[1])
    me = t.view(6)["me"]
    assert {"seat": 1, "role": "vampire_lord"}.items() <= me["knowledge"][-2].items() or any(
        k.get("role") == "vampire_lord" for k in me["knowledge"]
    )
    assert me["mesmerized"] is True  # R8.1 applies


def test_r11_a_choice_refused_to_another_seat_never_names_its_holder():
    """Once, "Only seat 6 makes this choice." named the holder while holdings were secret.
    Holdings are public now (R10.2a), but a refusal still says only what the asker needs."""
    t = table(s6="van_helsings_journal")
    to_post(t, LORD_DIES)
    while t.state.phase == "relic_window":
        t.do(window(t)["seat"], "pass")
    assert t.state.phase == "relic_choice" and data(t)["choice"]["seat"] == 6
    for seat in (2, 3, 4, 5):
        refused = t.illegal("wrong_phase", seat, "resolve_choice", targets=[1])
        assert refused.detail == "It is not your choice."


def test_r11_van_helsing_not_offered_with_a_stake_on_the_eliminated():
    t = table(s6="van_helsings_journal")
    to_post(t, {**LORD_DIES, 6: "S1 S5 F2"})
    while t.state.phase == "relic_window":
        t.do(window(t)["seat"], "pass")
    assert not t.alive(1)
    assert t.state.phase != "relic_choice"


def test_r11_van_helsing_comes_after_the_last_will():
    t = relic_table("LVHHHH", hold(s6="van_helsings_journal"), last_wills=True)
    stack(t, "nothing_to_say")
    to_post(t, LORD_DIES)
    while t.state.phase == "relic_window":
        t.do(window(t)["seat"], "pass")
    assert t.state.phase == "relic_choice"
    kinds = [e.kind for e in t.events if e.round == 2]
    assert "last_will" in kinds


# -- Cross of Saint John --------------------------------------------------------------------------


def test_r11_cross_of_saint_john_half_the_stakes_from_vampires_hunters_win_at_once():
    t = table(s3="cross_of_saint_john")
    to_post(t, CROSS)
    finish_round(t)
    assert not t.alive(3)
    assert t.state.outcome is not None and t.state.outcome.winner == "hunters"
    assert "relic_cross" in t.kinds()


def test_r11_cross_of_saint_john_its_count_shows_in_the_dining_recap_when_it_decides():
    """R11 (automatic votes excluded): with holdings public, the Dining says why the Cross ended
    the game, as the table would count it."""
    t = table(s3="cross_of_saint_john")
    to_post(t, CROSS)
    finish_round(t)
    cross = {"round": 2, "seat": 3, "stake_votes": 4, "from_vampires": 2}
    for seat in (None, 1, 3, 6):
        assert t.view(seat)["last_dining"]["cross"] == cross
    (said,) = [e for e in t.events if e.kind == "relic_cross"]
    assert said.text.startswith("Seat 3 held the Cross of Saint John: 2 of the 4 Stake votes")


def test_r11_cross_of_saint_john_not_met_shows_no_count():
    t = table(s3="cross_of_saint_john")
    to_post(t, NO_CROSS)
    finish_round(t)
    assert "cross" not in t.view(None)["last_dining"]


def test_r11_cross_of_saint_john_stakes_from_hunters_only_nothing_happens():
    t = table(s3="cross_of_saint_john")
    to_post(t, NO_CROSS)
    finish_round(t)
    assert not t.alive(3) and t.state.outcome is None


def test_r11_cross_of_saint_john_automatic_votes_are_excluded():
    t = table(s3="cross_of_saint_john")
    plan = {1: "S3 S5 F2", 2: "S3 S6 F1", 4: "D5 F2 I6", 5: "S1 S6 F2", 6: "S5 S4 F2"}
    pass_windows(t)
    t.mingle(plan)  # seat 3 places nothing: 3 automatic votes, 2 placed ones from Vampires
    finish_round(t)
    assert not t.alive(3)
    assert t.state.outcome is not None and t.state.outcome.winner == "hunters"


def test_r11_cross_of_saint_john_is_computed_at_the_moment_of_death_not_for_a_chained_death():
    t = table(s3="cross_of_saint_john", s5="bangle_of_oaths", s6="bangle_of_oaths")
    to_post(t, KEY)  # seat 5 dies, seat 6 with it
    finish_round(t)
    assert t.alive(3) and t.state.outcome is None


def test_r11_cross_counts_last_stand_death_in_dining():
    """R11 amended: any death in Dining counts. Seat 2 (a Vampire) is Staked and its Last Stand
    kills seat 3, the Cross's holder, whose 2 Stake votes both came from the Lord and the
    Vampire: the Hunters win at once."""
    t = relic_table("LVHHHH", hold(s3="cross_of_saint_john"), last_wills=True)
    stack(t, "last_stand")
    plan = {1: "S3 S5 F6", 2: "S3 S5 F6", 3: "S2 S6 F5", 4: "D2 F5 I6", 5: "S2 S6 F1"}
    to_post(t, plan | {6: "S2 S5 F1"})
    finish_round(t)
    assert not t.alive(2) and t.state.phase == "last_will"
    t.do(2, "resolve_choice", choice="last_stand", targets=[3])
    assert not t.alive(3)
    assert t.state.outcome is not None and t.state.outcome.winner == "hunters"
    cross = {"round": 2, "seat": 3, "stake_votes": 2, "from_vampires": 2}
    assert t.view(None)["last_dining"]["cross"] == cross


def test_r11_cross_counts_the_death_of_a_bangle_partner_in_dining():
    """R11 amended: seat 6 holds the Cross beside its Bangle (as after an Heirloom); seat 5, the
    other Bangle's holder, is Staked and seat 6 dies with them. Both Stake votes on seat 6 came
    from the Lord and the Vampire: the Hunters win at once."""
    t = table(s3="cross_of_saint_john", s5="bangle_of_oaths", s6="bangle_of_oaths")
    t.state = update(t.state, holdings=moved(t.state, {"cross_of_saint_john": 6}))
    plan = {1: "S5 S6 F2", 2: "S5 S6 F1", 3: "S5 S1 F2", 4: "D5 F2 I3", 5: "S1 S2 F4"}
    to_post(t, plan | {6: "S3 S1 F2"})
    finish_round(t)
    assert not t.alive(5) and not t.alive(6)
    assert t.state.outcome is not None and t.state.outcome.winner == "hunters"
    cross = {"round": 2, "seat": 6, "stake_votes": 2, "from_vampires": 2}
    assert t.view(None)["last_dining"]["cross"] == cross


# -- Blood of the One -----------------------------------------------------------------------------


def test_r11_blood_of_the_one_names_a_player_who_is_not_mesmerized():
    t = table(s4="blood_of_the_one")
    (opts,) = offers(t, 4, "use_relic")
    assert opts["relic"] == "blood_of_the_one" and 5 in opts["targets"]
    use(t, 4, "blood_of_the_one", targets=[5])
    e = [e for e in t.events if e.kind == "relic_used"][-1]
    assert e.audience is None and "is not Mesmerized" in e.text
    assert t.alive(5) and holdings(t, discarded=True)[4] == ["blood_of_the_one"]
    assert offers(t, 4, "use_relic") == []


def blood_table(relics=None, **options):
    """Round 2: seat 5 was Mesmerized in round 1 (examined the Lord); seat 4 holds the Blood (and
    is the Alpha); `relics` (e.g. {"s6": "seers_orb"}) deals other seats' cards."""
    wanted = hold(s4="blood_of_the_one", **(relics or {}))
    t = relic_table("LVHHHH", wanted, kill=1, examiner=5, **options)
    assert t.state.player(5).mesmerized
    return t


def test_r11_blood_of_the_one_kills_a_mesmerized_player_and_removes_their_tokens():
    t = blood_table()
    t.place(5, "S3 S6")
    t.place(1, "S3")
    use(t, 4, "blood_of_the_one", targets=[5])
    assert not t.alive(5)
    assert all(p.owner != 5 for p in t.state.placements)
    assert "is Mesmerized" in [e for e in t.events if e.kind == "relic_used"][-1].text


def test_r11_blood_of_the_one_victim_draws_a_last_will_when_dining_opens():
    t = blood_table(last_wills=True)
    stack(t, "nothing_to_say")
    t.place(5, "S3 S6")
    use(t, 4, "blood_of_the_one", targets=[5])
    # The victim has no Ghost dial this round: only the Ghosts of the round's start vote (R7.2).
    t.mingle({1: "S3 S6 F2", 2: "S3 S6 F1", 3: "S6 S1 F2", 4: "D6 F2 I3", 6: "S3 S1 F2"})
    while t.state.phase == "relic_window":
        t.do(window(t)["seat"], "pass")
    draws = t.state.ext["last_wills"]["draws"]
    assert draws[0]["seat"] == 5 and draws[0]["round"] == 2


def test_r11_blood_of_the_one_in_its_post_mingling_slot():
    t = blood_table()
    to_post(
        t,
        {1: "S3 S6 F2", 2: "S3 S6 F1", 3: "S6 S1 F2", 4: "D6 F2 I3", 5: "S3 S1 F2", 6: "S3 S1 F2"},
    )
    until_window(t, 4)
    assert window(t)["as"] == "blood_of_the_one"
    use(t, 4, "blood_of_the_one", targets=[5])
    assert not t.alive(5)
    assert all(p.owner != 5 for p in t.state.placements)


def test_r11_blood_of_the_one_ends_mingling_at_once_when_only_the_victim_had_tokens_left():
    t = blood_table()
    pass_windows(t)
    t.place(1, "S3 S6 F2").place(2, "S3 S6 F1").place(3, "S6 S1 F2").place(4, "D6 F2 I3")
    t.place(6, "S3 S1 F2")
    assert t.state.phase == "mingling"  # only seat 5 has tokens left
    use(t, 4, "blood_of_the_one", targets=[5])
    # R3.3: every living player has placed every token, so round 2's Dining follows at once.
    assert t.state.round > 2 or t.state.phase != "mingling"
    assert (t.state.dining or t.state.last_dining).round == 2


def test_r3_4_tokens_a_death_in_mingling_leaves_without_a_target_are_set_aside_not_counted():
    """Ruling (docs/rulings.md): the Blood leaves three living players; a player whose tokens
    are already on both others keeps nothing to place, and is neither waited on nor staked."""
    t = blood_table()
    kill_round(t, 3)
    kill_round(t, 6, ghosts={3: 1})  # round 4: seats 1, 2, 4, 5 live; seat 4 holds the Blood
    pass_windows(t)
    t.place(1, "S2 S4")
    use(t, 4, "blood_of_the_one", targets=[5])
    assert t.state.living == (1, 2, 4) and t.state.hands[0] == ()
    (aside,) = [e for e in t.events if e.kind == "tokens_set_aside"]
    assert aside.audience == (1,) and aside.data["tokens"] == ["feast"]
    assert 1 not in waiting_for(t.state)

    t.place(4, "S1 S2")  # seat 4's Feast has nowhere to go either: set aside at once
    assert t.state.hands[3] == ()
    t.place(2, "S1 F4 S1")  # the Ceremonial Dagger lets seat 2 stack its Stakes
    t.do(3, "intervention_vote", target=2).do(6, "intervention_vote", target=2)
    finish_round(t)
    assert t.state.dining.round == 4 and t.state.dining.unplaced == ()


def test_r3_4_tokens_a_death_before_mingling_leaves_without_a_target_are_set_aside():
    """Ruling (docs/rulings.md, R7.2 amended): round 4 starts with four living players; the
    Blood kills seat 5 in its own Signet Ring's window, before Mingling. Three living players
    hold three tokens each with two players to take them: once two are placed, the third is set
    aside, not counted against its owner (seat 2's Dagger lets it stack its Stakes instead)."""
    t = blood_table()
    kill_round(t, 3)
    kill_round(t, 6, ghosts={3: 1})
    assert t.state.round == 4 and window(t)["seat"] == 5 and window(t)["stage"] == "pre"
    use(t, 4, "blood_of_the_one", targets=[5])
    pass_windows(t)
    assert t.state.phase == "mingling" and t.state.living == (1, 2, 4)
    t.place(1, "S2 S4").place(4, "S1 S2")
    aside = {e.audience: e.data["tokens"] for e in t.events if e.kind == "tokens_set_aside"}
    assert aside == {(1,): ["feast"], (4,): ["feast"]}
    assert t.state.hands[0] == () and t.state.hands[3] == ()
    t.place(2, "S1 F4 S1")
    t.do(3, "intervention_vote", target=2).do(6, "intervention_vote", target=2)
    t.do(5, "intervention_vote", target=2)  # R7.2 amended: seat 5 is one of round 4's Ghosts
    finish_round(t)
    assert t.state.dining.round == 4 and t.state.dining.unplaced == ()


# Round 2 of `blood_table`: seats 3 and 6 tie with 4 Stake votes, one of seat 3's from seat 5 (the
# Mesmerized player): without it seat 6 alone has the most. Seat 2 has the most Feasts.
BLOOD_TIE = {1: "S3 S6 F2", 2: "S3 S4 F1", 3: "S6 S1 F2", 4: "D6 F2 I3", 5: "S3 S1 F4"}
BLOOD_TIE |= {6: "S3 S2 F1"}


def test_r11_blood_of_the_one_last_call_after_the_reveal_its_removed_tokens_count_for_nothing():
    """R11 amended: right after the reveal, before anything is counted, the living holder gets a
    last call; the victim's revealed tokens are removed and count for nothing."""
    t = blood_table()
    to_post(t, BLOOD_TIE)
    assert window(t)["stage"] == "post" and window(t)["as"] == "blood_of_the_one"
    t.do(4, "pass")  # its post-mingling slot (R10.3)
    assert window(t) == {"card": "blood_of_the_one", "seat": 4, "as": "blood_of_the_one"} | {
        "stage": "reveal"
    }
    assert any(p["owner"] == 5 for p in t.dining["tokens"])  # revealed, nothing counted yet
    assert t.dining["protected"] is None and t.dining["eliminated"] is None
    assert t.view(None)["relics"]["window"]["seat"] == 4
    use(t, 4, "blood_of_the_one", targets=[5])
    assert not t.alive(5) and not any(p["owner"] == 5 for p in t.dining["tokens"])
    assert not t.alive(6) and t.alive(3)  # no tie: seat 5's Stake on seat 3 counted for nothing
    assert t.dining["ties"] == [] and t.dining["deaths"] == [5, 6]


def test_r11_blood_of_the_one_during_a_tie_vote_the_tie_is_counted_again_without_the_victim():
    t = blood_table()
    to_post(t, BLOOD_TIE)
    finish_round(t)  # its slot and its last call pass
    assert t.state.phase == "tiebreak" and t.state.tie.candidates == (3, 6)
    t.vote({1: 3, 2: 3})
    (opts,) = offers(t, 4, "use_relic")  # R11 amended: whenever the game waits on a player
    assert opts == {
        "relic": "blood_of_the_one",
        "targets": [1, 2, 3, 4, 5, 6],
        "min": 1,
        "max": 1,
    }
    use(t, 4, "blood_of_the_one", targets=[5])
    recount = [e for e in t.events if e.kind == "tie_recount"]
    assert recount and "its votes so far are void" in recount[0].text
    assert not t.alive(6) and t.alive(3) and t.dining["ties"] == []


def test_r13_a_blood_victim_in_dining_draws_after_the_last_will_being_resolved():
    """R13 amended: every player who dies in Dining draws, in the order they died; the one
    killed during another's Last Will choice is no longer offered in it."""
    t = blood_table(last_wills=True)
    stack(t, "dying_accusation", "nothing_to_say")
    to_post(t, BLOOD_TIE)
    finish_round(t)
    t.vote({1: 6, 2: 6, 3: 6, 4: 6, 5: 6, 6: 3})
    assert not t.alive(6) and t.state.phase == "last_will"
    use(t, 4, "blood_of_the_one", targets=[5])  # during seat 6's Last Will choice
    assert not t.alive(5) and t.state.phase == "last_will"
    (opts,) = [p["options"] for p in pending(t.state, 6) if p["action"] == "resolve_choice"]
    assert 5 not in opts["targets"]
    t.do(6, "resolve_choice", choice="dying_accusation", targets=[3])
    draws = [(d["seat"], d["card"]) for d in t.state.ext["last_wills"]["draws"]]
    assert draws == [(6, "dying_accusation"), (5, "nothing_to_say")]
    assert t.dining["deaths"] == [6, 5]


def test_r11_cross_counts_a_death_by_blood_of_the_one_in_dining():
    """R11 amended (docs/rulings.md): Blood of the One used in Dining is a death in Dining too.
    Seat 5 (Mesmerized) holds the Cross; the Lord and the Vampire put 2 of its 3 Stake votes."""
    t = blood_table({"s5": "cross_of_saint_john"})
    plan = {1: "S5 S6 F2", 2: "S5 S4 F1", 3: "S6 S5 F2", 4: "D6 F2 I3", 5: "S3 S1 F4"}
    to_post(t, plan | {6: "S3 S2 F1"})
    t.do(4, "pass")  # its post-mingling slot; then its last call, after the reveal
    assert window(t)["stage"] == "reveal"
    use(t, 4, "blood_of_the_one", targets=[5])
    assert not t.alive(5)
    assert t.state.outcome is not None and t.state.outcome.winner == "hunters"
    cross = {"round": 2, "seat": 5, "stake_votes": 3, "from_vampires": 2}
    assert t.view(None)["last_dining"]["cross"] == cross


def test_r7_3_a_ghost_dial_naming_a_player_the_blood_killed_counts_for_nothing():
    """R7.3 amended: only a living player can be Protected."""
    t = blood_table()
    play(t, 3, 6)  # round 2: seat 3 dies; round 3 has one Ghost
    pass_windows(t)
    t.do(3, "intervention_vote", target=5)
    use(t, 4, "blood_of_the_one", targets=[5])
    assert not t.alive(5)
    t.mingle({1: "S2 S4 F6", 2: "S4 S6 F1", 4: "S2 S6 F1", 6: "D4 F1 I2"})
    finish_round(t)
    assert t.dining["intervention"] == [{"voter": 3, "target": 5}]
    assert t.dining["protected"] is None


def blood_victims_will(card):
    """Round 3: seat 3 (a Ghost since round 2) protects seat 6; seat 4's Blood kills seat 5 during
    Mingling; seat 5 draws `card` once Dining opens."""
    t = blood_table(last_wills=True)
    stack(t, "nothing_to_say")
    play(t, 3, 6)  # round 2: seat 3 dies; seat 6 is round 3's Alpha
    pass_windows(t)
    stack(t, card)
    t.do(3, "intervention_vote", target=6)
    use(t, 4, "blood_of_the_one", targets=[5])
    t.mingle({1: "S2 S4 F6", 2: "S4 S6 F1", 4: "S2 S6 F1", 6: "D4 F1 I2"})
    finish_round(t)
    assert t.state.phase == "last_will" and t.state.ext["last_wills"]["draws"][-1]["seat"] == 5
    return t


def test_r11_blood_victims_last_will_resolves_after_protection_is_settled():
    """R11 amended: a player Blood kills during Mingling resolves their Last Will after the Ghostly
    Intervention is revealed, before anything is counted: Parting Glance no longer offers the
    player the Ghosts then protect (R7.2, R13)."""
    t = blood_victims_will("parting_glance")
    assert t.dining["protected"] == 6 and t.dining["eliminated"] is None
    (opts,) = offers(t, 5, "resolve_choice")
    assert opts["targets"] == [1, 2, 4]
    kinds = [e.kind for e in t.events if e.round == 3]
    assert kinds.index("protected") < kinds.index("last_will")


def test_r4_2_an_investigation_on_a_player_the_blood_killed_in_mingling_is_wasted_and_said():
    t = blood_table()
    t.place(4, "I5")  # seat 4 is the Alpha
    use(t, 4, "blood_of_the_one", targets=[5])
    t.mingle({1: "S3 S6 F2", 2: "S3 S6 F1", 3: "S6 S1 F2", 4: "D6 F2", 6: "S3 S1 F2"})
    finish_round(t)
    (said,) = [e for e in t.events if e.kind == "investigation"]
    assert said.text == "The Investigation token lay on seat 5, who died this round: no effect."
    assert t.dining["investigated"] is None
    assert not any(k["seat"] == 5 and "role" in k for k in t.view(4)["me"]["knowledge"])


def test_r7_2_a_player_killed_before_mingling_opens_is_one_of_the_rounds_ghosts():
    """R7.2 amended: killed by Blood of the One in a relic window before Mingling (its own Signet
    Ring's), seat 5 is one of round 2's Ghosts: it has a Ghost vote, Mingling waits for
    it, and the Seer's Orb (seat 3) may vote too."""
    t = blood_table(windows=True)
    assert window(t)["stage"] == "pre" and window(t)["seat"] == 5
    use(t, 4, "blood_of_the_one", targets=[5])
    assert not t.alive(5)
    pass_windows(t)
    assert t.state.phase == "mingling"
    (dial,) = offers(t, 5, "intervention_vote")
    assert dial["targets"] == [1, 2, 3, 4, 6]
    assert offers(t, 3, "intervention_vote")  # the Seer's Orb: there is an intervention
    plan = {1: "S3 S6 F2", 2: "S3 S6 F1", 3: "S6 S1 F2", 4: "D6 F2 I3", 6: "S3 S1 F2"}
    for seat, words in plan.items():
        t.place(seat, words)
    assert t.state.phase == "mingling" and waiting_for(t.state) == [5]
    t.do(5, "intervention_vote", target=6)  # the last one owed: Mingling ends at once
    finish_round(t)
    assert t.dining["intervention"] == [{"voter": 5, "target": 6}]
    assert t.dining["protected"] == 6 and t.alive(6)


def test_r11_seers_orb_is_not_offered_a_dial_when_the_first_ghost_appears_mid_mingling():
    """Ruling: the Ghost made by Blood of the One has no dial this round (R7.2), so there is no
    intervention to vote in: the Seer's Orb is not offered one (it used to be, then ignored)."""
    t = blood_table({"s6": "seers_orb"})
    use(t, 4, "blood_of_the_one", targets=[5])
    assert t.state.ghosts == (5,)
    assert offers(t, 6, "intervention_vote") == []
    t.illegal("wrong_phase", 6, "intervention_vote", target=3)


# -- Last Wills with relics on: Heirloom, Shattered Relic, Sealed Reliquary -----------------------


def test_r13_a_bangle_partner_killed_in_dining_draws_a_last_will_and_the_journal_reads_them():
    """R13 amended: every player who dies in Dining draws a Last Will, in the order they died,
    the Bangle of Oaths partner included; Van Helsing's Journal is offered after each."""
    wanted = hold(s2="van_helsings_journal", s5="bangle_of_oaths", s6="bangle_of_oaths")
    t = relic_table("LVHHHH", wanted, last_wills=True)
    stack(t, "nothing_to_say", "overturned_table")
    to_post(t, KEY)  # seat 5 is Staked; seat 6 dies with them
    finish_round(t)
    assert not t.alive(5) and not t.alive(6)
    draws = [(d["seat"], d["card"]) for d in t.state.ext["last_wills"]["draws"]]
    assert draws == [(5, "nothing_to_say"), (6, "overturned_table")]
    assert t.dining["deaths"] == [5, 6]
    # Seat 2 put a Stake on seat 5, none on seat 6: the Journal reads seat 6 only, after its Will.
    assert t.state.phase == "relic_choice"
    assert data(t)["choice"]["seat"] == 2 and data(t)["choice"]["targets"] == [6]
    assert t.view(None)["relics"]["choice"] == {"relic": "van_helsings_journal", "seat": 2}
    t.do(2, "resolve_choice", choice="van_helsings_journal", targets=[6])
    assert any(k["seat"] == 6 and k.get("role") == "hunter" for k in t.view(2)["me"]["knowledge"])
    assert t.state.round == 3


def two_alpha_cards(first, second):
    """Round 2: seat 5 is Staked and draws `first`; seat 6, its Bangle partner, dies with them and
    draws `second` (R13 amended: in the order they died). Seat 4 is this round's Alpha."""
    wanted = hold(s5="bangle_of_oaths", s6="bangle_of_oaths")
    t = relic_table("LVHHHH", wanted, last_wills=True)
    stack(t, first, second)
    to_post(t, KEY)  # seat 2 has the most Feasts
    finish_round(t)
    return t


def test_r13_kingmaker_after_overturned_table_stands_and_says_it_replaces_it():
    """R13 amended: cards resolve in the order drawn; when two decide the next Alpha Hunter, the
    later one stands and its line says that it replaces the earlier."""
    t = two_alpha_cards("overturned_table", "kingmaker")
    t.do(6, "resolve_choice", choice="kingmaker", targets=[1])
    assert t.dining["alpha_elected"] == 1 and t.state.alpha == 1
    (line,) = [
        e for e in t.events if e.kind == "last_will_effect" and e.data["card"] == "kingmaker"
    ]
    assert line.text == (
        "Seat 6 makes seat 1 the next Alpha Hunter. This replaces seat 5's Overturned Table."
    )
    assert "no_alpha" not in t.kinds()


def test_r13_overturned_table_after_kingmaker_stands_and_says_it_replaces_it():
    t = two_alpha_cards("kingmaker", "overturned_table")
    t.do(5, "resolve_choice", choice="kingmaker", targets=[1])
    assert t.dining["alpha_elected"] is None and t.state.alpha is None
    (line,) = [
        e for e in t.events if e.kind == "last_will_effect" and e.data["card"] == "overturned_table"
    ]
    assert line.text == "No Alpha Hunter is elected this round. This replaces seat 5's Kingmaker."
    assert "alpha_elected" not in [e.kind for e in t.events if e.round == 2]


def lw_table(card, **over):
    t = relic_table("LVHHHH", hold(**over), last_wills=True)
    stack(t, card)
    to_post(t, KEY)  # seat 5 is eliminated
    while t.state.phase == "relic_window":
        t.do(window(t)["seat"], "pass")
    assert not t.alive(5) and t.state.phase == "last_will"
    return t


def test_r11_heirloom_gives_the_eliminated_players_relic_to_a_living_player():
    t = lw_table("heirloom", s5="false_idol", s6="crown_of_solomon")
    (opts,) = [p["options"] for p in pending(t.state, 5) if p["action"] == "resolve_choice"]
    assert 5 not in opts["targets"]
    t.do(5, "resolve_choice", choice="heirloom", targets=[6])
    assert sorted(holdings(t)[6]) == ["crown_of_solomon", "false_idol"]
    assert 5 not in holdings(t)


def test_r11_shattered_relic_discards_a_living_players_relic():
    t = lw_table("shattered_relic", s6="ceremonial_dagger")
    t.do(5, "resolve_choice", choice="shattered_relic", targets=[6])
    assert holdings(t).get(6) is None
    assert holdings(t, discarded=True)[6] == ["ceremonial_dagger"]
    finish_round(t)
    pass_windows(t)
    t.place(6, "S3")
    t.illegal("illegal_target", 6, "place_token", token="stake", target=3)


def test_r11_sealed_reliquary_negates_a_living_players_relic_next_round():
    t = lw_table("sealed_reliquary", s1="ritual_bell")
    t.do(5, "resolve_choice", choice="sealed_reliquary", targets=[1])
    finish_round(t)
    assert t.state.round == 3
    seen = pass_windows(t)
    assert (1, "ritual_bell") not in seen
    assert t.view(1)["me"]["relic"]["negated"] is True
