"""R12 End of the game: who wins, when it is checked, and that nothing happens afterwards."""

from __future__ import annotations

import pytest

from games.engine import Options, setup, timeout
from games.engine.common import with_player
from games.engine.state import HUNTER, LORD, VAMPIRE, Player, evolve
from games.engine.table import winner
from tests.engine.table import Table

SEAT_3_STAKED = {
    1: "S3 S4 F5",
    2: "S3 S4 F5",
    3: "S4 S5 F6",
    4: "S3 S5 F6",
    5: "S3 S6 F4",
    6: "S3 S4 F5",
}
LORD_STAKED = {
    1: "S2 S3 F4",
    2: "S1 S3 F4",
    3: "S1 S2 F4",
    4: "S1 S5 F6",
    5: "S1 S6 F4",
    6: "S1 S5 F4",
}


def hunters_win() -> Table:
    """LVHHHH: Hunter 3 is Mesmerized in round 1; the Vampire goes in round 2, the Lord in 3."""
    t = Table("LVHHHH")
    t.mingle(LORD_STAKED)
    t.do(1, "choose_examiner", target=3)
    assert t.state.player(3).mesmerized
    t.mingle(
        {1: "S2 S3 F5", 2: "S1 S3 F5", 3: "S2 S5 F6", 4: "D2 F5 I6", 5: "S2 S3 F6", 6: "S2 S1 F5"}
    )
    assert not t.alive(2) and t.state.outcome is None
    t.mingle(
        {1: "S3 S4 F6", 3: "S1 S4 F6", 4: "S1 S3 F6", 5: "D1 F6 I3", 6: "S1 S3 F4"},
        ghosts={2: 4},
    )
    assert not t.alive(1)
    return t


def vampires_win_with_a_mesmerized_hunter() -> Table:
    """LVHHHH: Hunter 3 is Mesmerized in round 1; Hunters 6, 5 and 4 go in rounds 2–4."""
    t = Table("LVHHHH")
    t.mingle(LORD_STAKED)
    t.do(1, "choose_examiner", target=3)
    t.mingle(
        {1: "S6 S3 F5", 2: "S6 S3 F5", 3: "S6 S1 F5", 4: "D6 F5 I3", 5: "S6 S2 F3", 6: "S1 S2 F3"}
    )
    assert not t.alive(6) and t.state.alpha == 5
    t.mingle(
        {1: "S5 S3 F4", 2: "S5 S3 F4", 3: "S5 S1 F4", 4: "S5 S2 F3", 5: "D1 F4 I3"},
        ghosts={6: 2},
    )
    assert not t.alive(5) and t.state.alpha == 4
    # living: Lord 1, Vampire 2, Mesmerized Hunter 3, Hunter 4 — two with the role Hunter
    assert t.state.outcome is None
    assert t.state.round == 4
    t.mingle(
        {1: "S4 S2 F3", 2: "S4 S3 F1", 3: "S4 S1 F2", 4: "D1 F2 I3"},
        ghosts={6: 1, 5: 1},
    )
    assert not t.alive(4)
    return t


# --- R12.1 / R12.2 -------------------------------------------------------------------------------


def test_r12_1_hunters_win_when_no_vampire_or_lord_is_living():
    t = hunters_win()
    assert t.state.outcome is not None
    assert t.state.outcome.winner == "hunters"
    assert "R12.1" in t.state.outcome.reason
    assert t.view(None)["winner"] == "hunters"
    assert t.state.phase == "finished"


def test_r12_1_hunters_win_even_with_a_mesmerized_hunter_alive():
    t = hunters_win()
    assert t.alive(3) and t.state.player(3).mesmerized
    assert t.view(3)["winner"] == "hunters"  # seat 3 plays for the Vampires and has lost


def test_r12_2_vampires_win_when_at_most_one_living_player_is_a_hunter():
    t = vampires_win_with_a_mesmerized_hunter()
    assert t.state.outcome.winner == "vampires"
    assert "R12.2" in t.state.outcome.reason
    assert t.view(None)["winner"] == "vampires"


def test_r12_2_mesmerized_players_still_count_as_hunters():
    t = Table("LVHHHH")
    t.mingle(LORD_STAKED)
    t.do(1, "choose_examiner", target=3)
    t.mingle(
        {1: "S6 S3 F5", 2: "S6 S3 F5", 3: "S6 S1 F5", 4: "D6 F5 I3", 5: "S6 S2 F3", 6: "S1 S2 F3"}
    )
    t.mingle(
        {1: "S5 S3 F4", 2: "S5 S3 F4", 3: "S5 S1 F4", 4: "S5 S2 F3", 5: "D1 F4 I3"},
        ghosts={6: 2},
    )
    # 1 Lord, 2 Vampire, 3 Mesmerized, 4 Hunter: the Vampire team has 3 of 4, but two living
    # players have the role Hunter, so nobody has won yet
    assert t.state.living == (1, 2, 3, 4)
    assert t.state.outcome is None
    assert t.state.phase == "mingling" and t.state.round == 4
    assert t.view(None)["winner"] is None


def test_r12_1_is_checked_first():
    players = (
        Player(1, LORD, alive=False),
        Player(2, HUNTER),
        Player(3, HUNTER, alive=False),
        Player(4, VAMPIRE, alive=False),
        Player(5, HUNTER, alive=False),
        Player(6, HUNTER, alive=False),
    )
    state = evolve(setup(Options(), 6, 1), players=players)
    outcome = winner(state)
    assert outcome is not None and outcome.winner == "hunters"
    # and with the last living Hunter Mesmerized, still the Hunters (by role)
    players = players[:1] + (Player(2, HUNTER, mesmerized=True),) + players[2:]
    assert winner(evolve(state, players=players)).winner == "hunters"


def test_r12_1_last_vampire_staked_as_hunters_drop_to_one_hunters_win():
    t = Table("LVHHHH")
    t.mingle(SEAT_3_STAKED)
    t.do(3, "choose_examiner", target=6)
    # round 2 (Alpha 5): the Vampire is staked
    t.mingle(
        {1: "S2 S3 F4", 2: "S1 S3 F4", 3: "S2 S4 F6", 4: "S2 S6 F3", 5: "D2 F4 I6", 6: "S2 S1 F4"}
    )
    # round 3 (Alpha 4): Hunter 6 is staked
    t.mingle(
        {1: "S6 S3 F5", 3: "S6 S1 F5", 4: "D6 F5 I3", 5: "S6 S1 F3", 6: "S1 S3 F5"},
        ghosts={2: 3},
    )
    # round 4 (Alpha 5): the Alpha is staked
    t.mingle(
        {1: "S5 S3 F4", 3: "S5 S4 F1", 4: "S5 S3 F1", 5: "D1 F4 I3"},
        ghosts={2: 1, 6: 1},
    )
    assert t.state.living == (1, 3, 4) and t.state.round == 5 and t.state.outcome is None
    # round 5 (three living): mid-round, Hunter 4 dies (as a module's effect could kill them) —
    # the game does not end mid-round although only one Hunter is left ...
    t.state = evolve(with_player(t.state, 4, alive=False), ghosts=t.state.ghosts + (4,))
    t.place(3, "S1")
    assert t.state.outcome is None and t.state.phase == "mingling"
    # ... then the Lord, the last of the Vampire side, is staked: R12.1 before R12.2
    t.expire()
    assert not t.alive(1)
    assert t.state.living == (3,)
    assert t.state.outcome.winner == "hunters"
    assert t.view(None)["winner"] == "hunters"


# --- deaths mid-round ----------------------------------------------------------------------------


def test_r12_a_death_mid_round_does_not_end_the_game_before_the_round_ends():
    t = Table("LVHHHH")
    t.mingle(SEAT_3_STAKED)
    t.do(3, "choose_examiner", target=6)
    # round 2 (Alpha 5): Hunter 6 out; round 3 (Alpha 4): Hunter 5 out
    t.mingle(
        {1: "S6 S3 F4", 2: "S6 S3 F4", 3: "S6 S1 F4", 4: "S6 S2 F3", 5: "D6 F4 I3", 6: "S1 S2 F3"}
    )
    assert t.state.alpha == 4
    t.mingle(
        {1: "S5 S4 F3", 2: "S5 S4 F3", 3: "S5 S1 F2", 4: "D5 F2 I3", 5: "S1 S2 F3"},
        ghosts={6: 3},
    )
    assert t.state.living == (1, 2, 3, 4) and t.state.alpha == 2
    # round 4 (Alpha 2): Hunter 4 is staked, leaving one Hunter; seats 1 and 3 tie for the Alpha
    t.mingle({1: "S4 S2 F3", 2: "D4 F3 I1", 3: "S4 S2 F1", 4: "S3 S2 F1"})
    assert not t.alive(4)
    assert t.state.outcome is None
    assert t.state.phase == "tiebreak"
    assert t.view(None)["winner"] is None
    tie = t.view(None)["tie"]
    assert tie["kind"] == "election" and tie["candidates"] == [1, 3]
    assert tie["voters"] == [6, 5, 4]
    t.vote({6: 1, 5: 1, 4: 3})
    assert t.state.outcome.winner == "vampires"
    assert t.view(None)["last_dining"]["alpha_elected"] == 1


# --- R12.4 the winner is a team ------------------------------------------------------------------


@pytest.mark.parametrize(
    "build,team", [(hunters_win, "hunters"), (vampires_win_with_a_mesmerized_hunter, "vampires")]
)
def test_r12_4_the_winner_is_a_team_shown_to_everyone_living_or_ghost(build, team):
    t = build()
    for seat in (None, 1, 2, 3, 4, 5, 6):
        v = t.view(seat)
        assert v["winner"] == team, seat
        assert v["phase"] == "finished"
        assert v["deadline"] is None
        assert v["pending"] == []
        assert v["waiting_for"] == []
    [over] = [e for e in t.events if e.kind == "game_over"]
    assert over.audience is None and over.data == {"winner": team}


def _roles(*rows) -> list[dict]:
    keys = ("seat", "role", "mesmerized", "team", "won")
    return [dict(zip(keys, row, strict=True)) for row in rows]


# The two scenarios above, scored by hand: LVHHHH with Hunter 3 Mesmerized in round 1 (R8.1),
# so seat 3 plays and wins or loses with the Vampires (R1.4, R8.3), Ghost or not (R12.4).
HUNTERS_WIN_ROLES = _roles(
    (1, "vampire_lord", False, "vampires", False),
    (2, "vampire", False, "vampires", False),
    (3, "hunter", True, "vampires", False),
    (4, "hunter", False, "hunters", True),
    (5, "hunter", False, "hunters", True),
    (6, "hunter", False, "hunters", True),
)
VAMPIRES_WIN_ROLES = _roles(
    (1, "vampire_lord", False, "vampires", True),
    (2, "vampire", False, "vampires", True),
    (3, "hunter", True, "vampires", True),
    (4, "hunter", False, "hunters", False),
    (5, "hunter", False, "hunters", False),
    (6, "hunter", False, "hunters", False),
)


@pytest.mark.parametrize(
    "build,expected",
    [(hunters_win, HUNTERS_WIN_ROLES), (vampires_win_with_a_mesmerized_hunter, VAMPIRES_WIN_ROLES)],
)
def test_r12_4_every_seat_is_scored_with_its_team_at_the_end(build, expected):
    t = build()
    for seat in (None, 1, 2, 3, 4, 5, 6):
        assert t.view(seat)["roles"] == expected, seat


# --- after the end -------------------------------------------------------------------------------


def test_r12_no_action_is_accepted_after_the_end():
    t = vampires_win_with_a_mesmerized_hunter()
    t.illegal("game_over", 1, "place_token", token="stake", target=2)
    t.illegal("game_over", 5, "intervention_vote", target=1)
    t.illegal("game_over", 6, "tiebreak_vote", target=1)
    t.illegal("game_over", 3, "choose_examiner", target=1)
    t.illegal("game_over", 2, "pass")
    t.illegal("game_over", 2, "no_such_action")


def test_r12_a_timeout_after_the_end_changes_nothing():
    t = hunters_win()
    final = t.state
    for now in (t.now, t.now + 180, t.now + 10**9):
        state, events = timeout(final, now)
        assert state == final
        assert events == []
