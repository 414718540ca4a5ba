"""R11: the Hindsight Looking Glass copying each passive relic, and the Ritual Bell negating each.

Six players (seat 1 the Vampire Lord, 2 a Vampire, 3–6 Hunters); the tables of test_r11_cards.
The Glass is seat 3's and copies a Ghost's relic in round 3 (`copied`); the Bell is seat 1's and
rings in round 2 (`silenced`), or in round 3 where a Ghost is needed.
"""

from __future__ import annotations

import pytest

from relics.rules import MODULE
from tests.relics.conftest import data, offers, pass_windows, play, use, window
from tests.relics.test_r11_cards import (
    CROSS,
    LORD_DIES,
    TIE,
    finish_round,
    glass_round,
    table,
    to_post,
    until_window,
)

# Round 3 after seat 2 died and seat 5 was elected: seat 6 has the most Stakes (4), none of them
# from seat 3; seat 3 has the most Feasts.
SIX_DIES = {1: "S6 S4 F3", 3: "S4 S1 F6", 4: "S6 S1 F3", 5: "D6 F3 I4", 6: "S4 S3 F1"}


def copied(relic: str, ghost: int = 2):
    """Round 3: seat `ghost` died in round 2 holding `relic`; seat 3's Glass copies it."""
    if ghost == 2:
        t = glass_round(s2=relic)
    else:
        t = table(s3="hindsight_looking_glass", **{f"s{ghost}": relic})
        play(t, ghost, 5)
    until_window(t, 3)
    use(t, 3, "hindsight_looking_glass", targets=[ghost])
    assert t.view(None)["relics"]["holdings"][2]["acting_as"] == relic  # public (R10.2a)
    return t


# -- the Glass copies each passive relic ---------------------------------------------------------


def test_r11_hindsight_copying_the_seers_orb_votes_and_decides_the_intervention():
    t = copied("seers_orb")
    pass_windows(t)
    (opts,) = offers(t, 3, "intervention_vote")
    assert 3 in opts["targets"]
    assert MODULE.decide_tie(t.state, "intervention", (4, 5)) == 3


def test_r11_hindsight_copying_the_effigy_blocks_examination_and_takes_a_stake():
    t = copied("effigy_of_innocence")
    assert MODULE.blocks_examination(t.state, 5, 3)
    assert MODULE.adjust_tally(t.state, "stake", {3: 2, 4: 2}) == {3: 1, 4: 2}


def test_r11_hindsight_copying_the_crown_resists_mesmerism():
    t = copied("crown_of_solomon")
    assert MODULE.resists_mesmerism(t.state, 3)
    assert not MODULE.resists_mesmerism(t.state, 4)


def test_r11_hindsight_copying_the_journal_reads_the_eliminated():
    t = copied("van_helsings_journal")
    to_post(t, SIX_DIES)
    finish_round(t)
    assert not t.alive(6) and t.state.phase == "relic_choice"
    assert data(t)["choice"] == data(t)["choice"] | {"seat": 3, "targets": [6]}


def test_r11_hindsight_copying_the_dagger_stacks_both_stakes():
    t = copied("ceremonial_dagger")
    pass_windows(t)
    t.place(3, "S4 S4")
    assert [p.target for p in t.state.placements if p.owner == 3] == [4, 4]


def test_r11_hindsight_copying_the_cross_of_saint_john_ends_the_game_on_its_death():
    t = copied("cross_of_saint_john", ghost=6)
    # seat 3 is Staked with 4 votes, 2 of them from the Lord and the Vampire: half (R11)
    to_post(t, {1: "S3 S4 F2", 2: "S3 S4 F1", 3: "S1 S2 F4", 4: "S1 S2 F3", 5: "D3 F4 I2"})
    finish_round(t)
    assert not t.alive(3)
    assert t.state.outcome is not None and t.state.outcome.winner == "hunters"
    assert t.view(None)["last_dining"]["cross"]["seat"] == 3


# -- the Bell negates each passive relic ---------------------------------------------------------


def silenced(relic: str, seat: int):
    """Round 2: seat 1 rings the Bell on seat `seat`'s `relic`; the other windows pass."""
    t = table(windows=True, s1="ritual_bell", **{f"s{seat}": relic})
    use(t, 1, "ritual_bell", targets=[seat])
    (held,) = [h for h in t.view(None)["relics"]["holdings"] if h["seat"] == seat]
    assert held["relic"] == relic and held["negated"]
    pass_windows(t)
    return t


def _effigy():
    t = silenced("effigy_of_innocence", 5)
    assert not MODULE.blocks_examination(t.state, 4, 5)
    assert MODULE.adjust_tally(t.state, "stake", {5: 2}) == {5: 2}


def _crown():
    t = silenced("crown_of_solomon", 5)
    assert not MODULE.resists_mesmerism(t.state, 5)


def _cross():
    t = silenced("cross_of_saint_john", 3)
    t.mingle(CROSS)
    finish_round(t)
    assert not t.alive(3) and t.state.outcome is None


def _orb():
    t = table(s1="ritual_bell", s6="seers_orb")
    play(t, 2, 5)  # a Ghost for the Orb to vote beside
    until_window(t, 1)
    use(t, 1, "ritual_bell", targets=[6])
    pass_windows(t)
    assert offers(t, 6, "intervention_vote") == []
    assert MODULE.decide_tie(t.state, "intervention", (3, 4)) is None


def _scales():
    t = silenced("scales_of_justice", 6)
    t.mingle(TIE)
    finish_round(t)
    assert window(t) is None and t.state.phase == "tiebreak"  # no Scales window on the tie


def _journal():
    t = silenced("van_helsings_journal", 6)
    t.mingle(LORD_DIES)
    finish_round(t)
    assert not t.alive(1) and t.state.phase != "relic_choice"


def _dagger():
    t = silenced("ceremonial_dagger", 5)
    t.place(5, "S3")
    t.illegal("illegal_target", 5, "place_token", token="stake", target=3)


@pytest.mark.parametrize(
    "check",
    [_effigy, _crown, _cross, _orb, _scales, _journal, _dagger],
    ids=lambda f: f.__name__.strip("_"),
)
def test_r11_the_ritual_bell_negates_each_passive_relic_for_the_round(check):
    check()
