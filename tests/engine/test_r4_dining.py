"""R4 Dining: order, Investigation, elimination, Alpha election, the eliminated's tokens."""

from __future__ import annotations

import json

from games.engine.state import evolve
from tests.engine.table import Table

ROUND_1 = {
    1: "S3 S4 F5",
    2: "S3 S4 F5",
    3: "S4 S5 F6",
    4: "S3 S5 F6",
    5: "S3 S6 F4",
    6: "S3 S4 F5",
}


def to_round_2() -> Table:
    """Six players (seat 1 Lord, seat 2 Vampire, 3–6 Hunters); round 2 with seat 5 the Alpha."""
    t = Table("LVHHHH")
    t.mingle(ROUND_1)
    t.do(3, "choose_examiner", target=6)
    assert t.state.round == 2 and t.state.alpha == 5
    return t


def to_round_3() -> Table:
    """Round 3: seat 2 a Ghost, seat 4 the Alpha."""
    t = to_round_2()
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
    assert t.state.round == 3 and not t.alive(2) and t.state.alpha == 4
    return t


def kinds_since(t: Table, start: int) -> list[str]:
    return [e.kind for e in t.events[start:]]


# Round 2: Alpha 5 investigates seat 2 (a Vampire); seat 4 is staked; seat 6 elected.
INVESTIGATE_2 = {
    1: "S4 S3 F6",
    2: "S4 S1 F6",
    3: "S4 S1 F6",
    4: "S1 S3 F6",
    5: "D4 F6 I2",
    6: "S4 S3 F1",
}


# --- R4.1 order ----------------------------------------------------------------------------------


def test_r4_1_order_reveal_investigation_elimination_election():
    t = to_round_2()
    start = len(t.events)
    t.mingle(INVESTIGATE_2)
    kinds = kinds_since(t, start)
    dining_kinds = [k for k in kinds if k not in ("token_placed",)]
    assert dining_kinds == [
        "mingling_over",
        "dining",
        "investigation",
        "examined",
        "eliminated",
        "alpha_elected",
        "round_started",
    ]
    d = t.dining
    assert (d["investigated"], d["eliminated"], d["alpha_elected"]) == (2, 4, 6)


def test_r4_1_order_with_ghostly_intervention_revealed_before_investigation():
    t = to_round_3()
    start = len(t.events)
    t.mingle(
        {1: "S5 S3 F6", 3: "S5 S1 F6", 4: "D5 F6 I3", 5: "S1 S3 F6", 6: "S5 S3 F1"},
        ghosts={2: 6},
    )
    kinds = [k for k in kinds_since(t, start) if k not in ("token_placed", "intervention_vote")]
    assert kinds == [
        "mingling_over",
        "dining",
        "protected",
        "investigation",
        "examined",
        "eliminated",
        "alpha_elected",
        "round_started",
    ]
    d = t.dining
    assert (d["protected"], d["investigated"], d["eliminated"], d["alpha_elected"]) == (6, 3, 5, 1)


def test_r4_1_reveal_shows_every_token_with_owner_target_and_type():
    t = to_round_2()
    t.mingle(INVESTIGATE_2)
    dining = next(e for e in t.events if e.kind == "dining" and e.round == 2)
    assert dining.audience is None
    assert len(dining.data["tokens"]) == 18
    assert {"owner": 5, "target": 2, "token": "investigation"} in dining.data["tokens"]
    assert {"owner": 5, "target": 4, "token": "double_stake"} in dining.data["tokens"]
    assert t.dining["tokens"] == dining.data["tokens"]


# --- R4.2 Investigation --------------------------------------------------------------------------


def test_r4_2_the_alpha_alone_learns_the_investigated_role():
    t = to_round_2()
    before = {s: t.view(s)["me"]["knowledge"] for s in range(1, 7)}
    t.mingle(INVESTIGATE_2)
    facts = t.view(5)["me"]["knowledge"]
    assert facts[len(before[5]) :] == [
        {"seat": 2, "role": "vampire", "source": "investigation", "round": 2}
    ]
    for seat in (1, 2, 3, 4, 6):
        assert t.view(seat)["me"]["knowledge"] == before[seat], seat


def test_r4_2_the_result_is_a_private_event_to_the_alpha_only():
    t = to_round_2()
    t.mingle(INVESTIGATE_2)
    [result] = [e for e in t.events if e.kind == "examined" and e.round == 2]
    assert result.audience == (5,)
    assert result.data == {"seat": 2, "role": "vampire"}
    for seat in (1, 2, 3, 4, 6):
        assert result not in t.seen_by(seat)


def test_r4_2_public_log_says_who_investigated_whom_but_not_the_result():
    t = to_round_2()
    t.mingle(INVESTIGATE_2)
    [public] = [e for e in t.events if e.kind == "investigation"]
    assert public.audience is None
    assert public.data == {"investigator": 5, "target": 2, "outcome": "examined"}
    assert "seat 5" in public.text and "seat 2" in public.text
    assert "Vampire" not in public.text and "vampire" not in public.text
    # nobody else's view or log lets them learn it (seats 3, 4, 6 are Hunters who never saw seat 2)
    for seat in (None, 3, 4, 6):
        text = json.dumps(t.view(seat))
        assert "vampire" not in text, seat
    for seat in (3, 4, 6):
        assert all("Vampire" not in e.text for e in t.seen_by(seat))


# --- R4.3 elimination ----------------------------------------------------------------------------


def test_r4_3_the_most_staked_living_player_becomes_a_ghost():
    t = to_round_2()
    t.mingle(INVESTIGATE_2)
    assert not t.alive(4)
    assert t.state.ghosts == (4,)
    [ev] = [e for e in t.events if e.kind == "eliminated"]
    assert ev.data == {"seat": 4, "cause": "dining"} and ev.audience is None
    assert t.dining["eliminated"] == 4
    v = t.view(4)
    assert v["seats"][3]["alive"] is False
    assert v["me"]["tokens"] == []
    assert [a["action"] for a in v["pending"]] == ["intervention_vote"]
    assert all(s["alive"] for s in v["seats"] if s["seat"] != 4)


def test_r4_3_a_tie_for_most_stakes_is_not_an_elimination_by_itself():
    t = to_round_2()
    # seats 3 and 4 both have 3 Stakes
    t.mingle(
        {
            1: "S3 S4 F6",
            2: "S3 S4 F6",
            3: "S4 S1 F6",
            4: "S3 S2 F6",
            5: "D6 F1 I4",
            6: "S2 S1 F4",
        }
    )
    assert t.state.phase == "tiebreak"
    assert t.view(None)["tie"]["kind"] == "elimination"
    assert t.view(None)["tie"]["candidates"] == [3, 4]
    assert all(t.alive(s) for s in range(1, 7))


# --- R4.4 Alpha election -------------------------------------------------------------------------


def test_r4_4_most_feasts_is_alpha_next_round():
    t = to_round_2()
    t.mingle(INVESTIGATE_2)
    assert t.dining["alpha_elected"] == 6
    [ev] = [e for e in t.events if e.kind == "alpha_elected" and e.round == 2]
    assert ev.data == {"seat": 6}
    assert t.state.round == 3 and t.state.alpha == 6
    assert t.view(6)["me"]["tokens"] == ["double_stake", "feast", "investigation"]
    assert t.view(5)["me"]["tokens"] == ["stake", "stake", "feast"]


def test_r4_4_alpha_this_round_cannot_be_elected_next_highest_instead():
    t = to_round_2()
    # every Feast but the Alpha's own goes to the Alpha (seat 5); the Alpha feasts seat 6
    t.mingle(
        {
            1: "S4 S3 F5",
            2: "S4 S1 F5",
            3: "S4 S1 F5",
            4: "S1 S3 F5",
            5: "D4 F6 I3",
            6: "S4 S3 F5",
        }
    )
    assert t.dining["eliminated"] == 4
    assert t.dining["alpha_elected"] == 6
    assert t.state.alpha == 6


def test_r4_4_eliminated_this_round_cannot_be_elected_next_highest_instead():
    t = to_round_2()
    # seat 4: 3 Stakes (the most) and 3 Feasts (the most); seat 6 has 2 Feasts
    t.mingle(
        {
            1: "S4 S2 F6",
            2: "S1 S3 F4",
            3: "S1 S6 F4",
            4: "S3 S5 F6",
            5: "D4 F3 I2",
            6: "S5 S2 F4",
        }
    )
    assert t.dining["eliminated"] == 4
    assert t.dining["alpha_elected"] == 6
    assert t.state.alpha == 6


def test_r4_4_the_alpha_tied_for_most_feasts_does_not_make_a_tie():
    t = to_round_2()
    # seats 5 (the Alpha) and 6 both have 2 Feasts: 6 is elected outright, no tie vote
    t.mingle(
        {
            1: "S4 S3 F5",
            2: "S4 S1 F5",
            3: "S4 S1 F6",
            4: "S1 S3 F6",
            5: "D4 F3 I2",
            6: "S4 S3 F1",
        }
    )
    assert "tie" not in t.kinds()
    assert t.dining["alpha_elected"] == 6
    assert t.state.round == 3 and t.state.alpha == 6


def test_r4_4_the_eliminated_player_tied_for_most_feasts_does_not_make_a_tie():
    t = to_round_2()
    # seat 4 (eliminated) and seat 6 both have 2 Feasts: 6 is elected outright
    t.mingle(
        {
            1: "S4 S2 F6",
            2: "S1 S3 F4",
            3: "S1 S6 F4",
            4: "S3 S5 F6",
            5: "D4 F3 I2",
            6: "S5 S2 F1",
        }
    )
    assert t.dining["eliminated"] == 4
    assert "tie" not in t.kinds()
    assert t.dining["alpha_elected"] == 6


def test_r4_4_a_tie_for_next_highest_goes_to_a_tie_vote():
    t = to_round_2()
    # seat 4 eliminated with the most Feasts; seats 1, 3 and 6 tie on 1 Feast each
    t.mingle(
        {
            1: "S4 S2 F6",
            2: "S1 S3 F4",
            3: "S1 S6 F4",
            4: "S3 S5 F1",
            5: "D4 F3 I2",
            6: "S5 S2 F4",
        }
    )
    assert t.dining["eliminated"] == 4
    assert t.state.phase == "tiebreak"
    tie = t.view(None)["tie"]
    assert tie["kind"] == "election"
    assert tie["candidates"] == [1, 3, 6]
    assert tie["voters"] == [4]
    t.vote({4: 3})
    assert t.state.round == 3 and t.state.alpha == 3
    [record] = t.view(None)["last_dining"]["ties"]
    assert record["kind"] == "election" and record["result"] == 3


def test_r4_4_the_alpha_of_this_round_is_not_a_candidate_in_an_election_tie():
    t = to_round_3()  # Alpha 4, Ghost 2
    # Ghost 2 protects seat 3; the Alpha (seat 4) gets the most Feasts, seats 1 and 6 tie
    t.mingle(
        {
            1: "S5 S3 F4",
            3: "S5 S1 F4",
            4: "D5 F6 I3",
            5: "S1 S3 F4",
            6: "S5 S3 F1",
        },
        ghosts={2: 3},
    )
    assert t.dining["eliminated"] == 5
    # Feasts: 4 (Alpha) 3, 6 1 (from the Alpha), 1 1 (from seat 6); seat 3 is Protected
    assert t.state.phase == "tiebreak"
    tie = t.view(None)["tie"]
    assert tie["candidates"] == [1, 6]
    assert tie["voters"] == [2, 5]


# --- R4.5 the eliminated player's tokens still count ---------------------------------------------


def test_r4_5_the_eliminated_players_feast_still_elects():
    t = to_round_2()
    # seat 4 is eliminated; its Feast on seat 6 makes 6 the only one with 2 Feasts
    t.mingle(
        {
            1: "S4 S3 F6",
            2: "S4 S1 F3",
            3: "S4 S1 F2",
            4: "S1 S3 F6",
            5: "D4 F1 I6",
            6: "S4 S3 F5",
        }
    )
    assert t.dining["eliminated"] == 4
    assert {"owner": 4, "target": 6, "token": "feast"} in t.dining["tokens"]
    assert t.dining["alpha_elected"] == 6


def test_r4_5_an_eliminated_alphas_tokens_still_count():
    t = to_round_2()
    # the Alpha (seat 5) is staked; its Investigation still happens and its Feast elects seat 6
    t.mingle(
        {
            1: "S5 S2 F6",
            2: "S5 S4 F3",
            3: "S5 S1 F2",
            4: "S5 S2 F1",
            5: "D1 F6 I3",
            6: "S5 S3 F4",
        }
    )
    assert t.dining["eliminated"] == 5
    assert t.dining["investigated"] == 3
    assert {"seat": 3, "role": "hunter", "source": "investigation", "round": 2} in t.view(5)["me"][
        "knowledge"
    ]
    assert t.dining["alpha_elected"] == 6


# --- R4.6 ruling: 0 votes ------------------------------------------------------------------------


def test_r4_6_no_feast_votes_on_an_eligible_player_means_no_alpha():
    t = to_round_2()
    # Feasts only on the Alpha (seat 5) and on the eliminated seat 4
    t.mingle(
        {
            1: "S4 S3 F5",
            2: "S4 S1 F5",
            3: "S4 S1 F5",
            4: "S1 S2 F5",
            5: "D6 F4 I3",
            6: "S4 S2 F5",
        }
    )
    assert t.dining["eliminated"] == 4
    assert t.dining["alpha_elected"] is None
    assert "no_alpha" in t.kinds()
    assert "alpha_elected" not in [e.kind for e in t.events if e.round == 2]
    assert t.state.round == 3
    assert t.state.alpha is None
    assert not any(s["alpha"] for s in t.view(None)["seats"])
    for seat in (1, 2, 3, 5, 6):
        assert t.view(seat)["me"]["tokens"] == ["stake", "stake", "feast"]


def test_r4_6_no_stake_votes_means_nobody_is_eliminated():
    t = to_round_2()
    # As a module could (Broken Stake, Spilled Wine): this round every hand holds one Feast only.
    t.state = evolve(t.state, hands=tuple(("feast",) for _ in range(6)))
    t.mingle({1: "F2", 2: "F3", 3: "F2", 4: "F2", 5: "F2", 6: "F2"})
    d = t.view(None)["last_dining"]
    assert d["round"] == 2
    assert d["eliminated"] is None
    assert d["alpha_elected"] == 2
    assert "no_elimination" in t.kinds()
    assert all(t.alive(s) for s in range(1, 7))
    assert t.state.ghosts == ()
    assert t.state.round == 3 and t.state.alpha == 2
