"""R5 Ties: the dial vote among the tied players, who votes, and who settles a second tie.

The helpers at the top (`rig`, `play_round`, `ghost_table`) build positions by playing whole rounds
with a fixed deal; test_r7/r8/r9 import them.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from games.engine import pending, timeout
from tests.engine.table import Table

LETTER = {"stake": "S", "feast": "F", "double_stake": "D", "investigation": "I"}
STAKE_VOTES = {"stake": 1, "double_stake": 2}
ORDER = {"double_stake": 0, "stake": 1, "feast": 2, "investigation": 3}


# -- helpers: play rounds to reach a position --------------------------------------------------


def rig(state, *, most_stakes, most_feasts=None, protected=None, investigate=None, seed=0):
    """A placement plan (for `Table.mingle`) in which `most_stakes` alone has the most Stake votes
    and `most_feasts` alone the most Feast votes among the electable (None: nobody is tied for
    it). `protected` is ignored by both tallies; the Alpha's Investigation goes on `investigate`."""
    rng = random.Random(seed)
    living = list(state.living)
    killed = most_stakes if state.round > 1 else None
    electable = [s for s in living if s not in (protected, state.alpha, killed)]
    for _ in range(50_000):
        plan, stakes, feasts = {}, Counter(), Counter()
        for seat in living:
            used, words = set(), []
            for token in sorted(state.hands[seat - 1], key=ORDER.get):
                wish = {
                    "stake": most_stakes,
                    "double_stake": most_stakes,
                    "feast": most_feasts,
                    "investigation": investigate,
                }[token]
                options = [s for s in living if s != seat and s not in used]
                if token == "investigation" and wish is None:  # never look at the Lord by chance
                    options = [
                        s for s in options if state.player(s).role != "vampire_lord"
                    ] or options
                target = wish if wish in options and rng.random() < 0.9 else rng.choice(options)
                used.add(target)
                words.append(f"{LETTER[token]}{target}")
                if token in STAKE_VOTES and target != protected:
                    stakes[target] += STAKE_VOTES[token]
                if token == "feast" and target in electable:
                    feasts[target] += 1
            plan[seat] = " ".join(words)
        if investigate is not None and state.alpha is not None:
            if f"I{investigate}" not in plan[state.alpha].split():
                continue
        top = stakes.most_common()
        if not top or top[0][0] != most_stakes or (len(top) > 1 and top[1][1] == top[0][1]):
            continue
        top = feasts.most_common()
        if most_feasts is not None:
            if not top or top[0][0] != most_feasts or (len(top) > 1 and top[1][1] == top[0][1]):
                continue
        elif len(top) > 1 and top[1][1] == top[0][1]:
            continue
        return plan
    raise AssertionError("no plan found")


def play_round(t, kill, elect=None, *, ghosts=None, examiner=None, investigate=None):
    """Play one round in which `kill` has the most Stakes (round 1: `examiner` examines them) and
    `elect` the most Feasts. `ghosts` are the intervention dials (their leader is Protected)."""
    round_ = t.state.round
    protected = None
    if ghosts:
        (leader, _), *rest = Counter(ghosts.values()).most_common() + [(None, -1)]
        protected = leader
    plan = rig(
        t.state, most_stakes=kill, most_feasts=elect, protected=protected, investigate=investigate
    )
    t.mingle(plan, ghosts=ghosts)
    if round_ == 1:
        t.do(kill, "choose_examiner", target=examiner)
    else:
        assert not t.alive(kill)
    assert t.dining["round"] == round_
    if elect is not None:
        assert t.dining["alpha_elected"] == elect
    return t


def ghost_table():
    """7 players (seat 1 the Lord, 2 a Vampire, 3–7 Hunters) at the start of round 4: seat 7 was
    eliminated in round 2 and seat 6 in round 3 (the latest Ghost); seat 1 is the Alpha."""
    t = Table("LVHHHHH")
    play_round(t, 3, 4, examiner=4)
    play_round(t, 7, 5)
    play_round(t, 6, 1)
    assert t.state.round == 4 and t.state.ghosts == (7, 6) and t.state.alpha == 1
    return t


# Round 4 of ghost_table: seats 3 and 4 tie for elimination with 3 Stake votes each; seat 2 has the
# most Feasts. The Alpha (seat 1) investigates seat 5.
ROUND4_TIE = {1: "D3 F2 I5", 2: "S4 S5 F3", 3: "S4 S1 F2", 4: "S3 S2 F5", 5: "S4 S1 F2"}

# Round 4 of `ghost_table`: seat 3 has the most Stakes; seats 2 and 4 tie for the most Feasts.
ELECTION_TIE_WITH_GHOSTS = {1: "D3 F2 I5", 2: "S3 S5 F4", 3: "S4 S1 F2", 4: "S3 S2 F5"}
ELECTION_TIE_WITH_GHOSTS |= {5: "S3 S2 F4"}

# Six players, round 1 as in the smoke test (seat 3 examined by 4, seat 5 elected): round 2 has
# seat 5 as the Alpha and no Ghosts.
ROUND1 = {1: "S3 S4 F5", 2: "S3 S4 F5", 3: "S4 S5 F6", 4: "S3 S5 F6", 5: "S3 S6 F4", 6: "S3 S4 F5"}
# Round 2: seats 3 and 4 tie for elimination (3 Stakes each), seat 1 has the most Feasts (3).
ELIMINATION_TIE = {
    1: "S3 S4 F2",
    2: "S3 S4 F1",
    3: "S4 S6 F1",
    4: "S3 S6 F1",
    5: "D1 F6 I2",
    6: "S2 S5 F3",
}
# Round 2: the same elimination tie, and seats 1 and 2 tie for the most Feasts (2 each).
BOTH_TIE = {**ELIMINATION_TIE, 4: "S3 S6 F2"}


def round_two(plan):
    t = Table("LVHHHH")
    t.mingle(ROUND1)
    t.do(3, "choose_examiner", target=4)
    assert t.state.round == 2 and t.state.alpha == 5 and not t.state.ghosts
    t.mingle(plan)
    return t


def tie_event(t):
    return [e for e in t.events if e.kind == "tie"][-1]


def settled(t):
    return [e for e in t.events if e.kind == "tie_settled"]


# -- R5.1 -------------------------------------------------------------------------------------


def test_r5_1_only_the_tied_players_are_candidates():
    t = round_two(ELIMINATION_TIE)
    assert t.state.phase == "tiebreak"
    view = t.view(1)
    assert view["tie"]["kind"] == "elimination"
    assert view["tie"]["candidates"] == [3, 4]
    assert pending(t.state, 1) == [
        {"action": "tiebreak_vote", "options": {"targets": [3, 4], "min": 1, "max": 1}}
    ]
    assert tie_event(t).data["candidates"] == [3, 4]


def test_r5_1_a_vote_for_a_player_who_is_not_tied_is_illegal_target():
    t = round_two(ELIMINATION_TIE)
    for target in (1, 2, 5, 6, 99):
        t.illegal("illegal_target", 1, "tiebreak_vote", target=target)
    t.illegal("bad_request", 1, "tiebreak_vote", target="3")


def test_r5_1_a_ghost_vote_for_a_player_who_is_not_tied_is_illegal_target():
    t = ghost_table()
    t.mingle(ROUND4_TIE)
    assert t.view(None)["tie"]["candidates"] == [3, 4]
    t.illegal("illegal_target", 7, "tiebreak_vote", target=5)
    t.illegal("illegal_target", 6, "tiebreak_vote", target=7)


# -- R5.3 no Ghosts -----------------------------------------------------------------------------


def test_r5_3_without_ghosts_every_living_player_votes_tied_players_included():
    t = round_two(ELIMINATION_TIE)
    assert t.view(None)["tie"]["voters"] == [1, 2, 3, 4, 5, 6]
    assert tie_event(t).data["voters"] == [1, 2, 3, 4, 5, 6]
    for seat in (3, 4):  # the tied players themselves vote
        assert pending(t.state, seat)[0]["action"] == "tiebreak_vote"
    t.vote({1: 3, 2: 3, 5: 4, 6: 4, 3: 4})
    assert t.state.phase == "tiebreak"  # seat 4 has not voted yet
    t.vote({4: 4})  # without the tied players' own dials this would be 2–2
    assert not t.alive(4) and t.alive(3)
    assert t.dining["ties"][0]["votes"][-2:] == [
        {"voter": 3, "target": 4},
        {"voter": 4, "target": 4},
    ]


def test_r5_3_without_ghosts_the_majority_of_the_living_decides():
    t = round_two(ELIMINATION_TIE)
    t.vote({1: 4, 2: 4, 3: 4, 4: 3, 5: 3, 6: 4})
    assert not t.alive(4) and t.alive(3)
    assert t.dining["eliminated"] == 4
    (record,) = t.dining["ties"]
    assert record["kind"] == "elimination" and record["result"] == 4
    assert record["decided_by"] == "vote"
    assert t.dining["alpha_elected"] == 1
    assert t.state.round == 3


def test_r5_3_without_ghosts_a_second_tie_means_nobody_is_eliminated():
    t = round_two(ELIMINATION_TIE)
    t.vote({1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 4})
    assert all(t.alive(s) for s in range(1, 7))
    assert t.dining["eliminated"] is None
    (record,) = t.dining["ties"]
    assert record["result"] is None and record["decided_by"] == "no_result"
    assert "no_elimination" in t.kinds()
    assert t.dining["alpha_elected"] == 1  # the election still happens
    assert t.state.round == 3 and t.state.ghosts == ()


def test_r5_3_without_ghosts_a_second_election_tie_means_no_alpha():
    # Round 1: seat 3 is examined; seats 5 and 6 tie for the most Feasts (2 each), no Ghosts.
    t = Table("LVHHHH")
    t.mingle(
        {1: "S3 S4 F5", 2: "S3 S4 F6", 3: "S4 S5 F6", 4: "S3 S5 F1", 5: "S3 S6 F4", 6: "S3 S4 F5"}
    )
    t.do(3, "choose_examiner", target=4)
    assert t.state.phase == "tiebreak"
    assert t.view(None)["tie"] == {
        "kind": "election",
        "candidates": [5, 6],
        "voters": [1, 2, 3, 4, 5, 6],
        "voted": [],
        "decider": None,
        "tallies": [{"seat": 5, "count": 2}, {"seat": 6, "count": 2}],  # the count
    }
    t.vote({1: 5, 2: 5, 3: 5, 4: 6, 5: 6, 6: 6})
    assert t.state.round == 2
    assert t.dining["alpha_elected"] is None
    assert t.dining["ties"][-1]["decided_by"] == "no_result"
    assert "no_alpha" in t.kinds()
    assert t.state.alpha is None
    assert all(t.view(s)["me"]["tokens"] == ["stake", "stake", "feast"] for s in range(1, 7))


# -- R5.5 timed, abstentions ------------------------------------------------------------------


def test_r5_5_the_tie_vote_is_timed_and_non_voters_abstain():
    t = round_two(ELIMINATION_TIE)
    assert t.state.deadline == t.now + 60
    assert t.view(2)["deadline"] == t.now + 60
    t.vote({1: 4, 2: 4, 6: 3})
    t.expire()
    assert not t.alive(4) and t.alive(3)
    (record,) = t.dining["ties"]
    assert record["decided_by"] == "vote"
    assert record["votes"] == [
        {"voter": 1, "target": 4},
        {"voter": 2, "target": 4},
        {"voter": 6, "target": 3},
    ]


def test_r5_5_a_custom_tiebreak_timer_is_used():
    t = Table("LVHHHH", timers={"tiebreak": 15})
    t.mingle(ROUND1)
    t.do(3, "choose_examiner", target=4)
    t.mingle(ELIMINATION_TIE)
    assert t.state.phase == "tiebreak"
    assert t.state.deadline == t.now + 15


def test_r5_5_nobody_votes_without_ghosts_is_a_tie_of_the_whole_vote():
    t = round_two(ELIMINATION_TIE)
    t.expire()
    assert all(t.alive(s) for s in range(1, 7))
    (record,) = t.dining["ties"]
    assert record["votes"] == [] and record["result"] is None
    assert record["decided_by"] == "no_result"


def test_r5_5_the_window_does_not_close_before_its_deadline():
    t = round_two(ELIMINATION_TIE)
    before = t.state
    state, events = timeout(before, before.deadline - 1)
    assert state == before and events == []


# -- R5.2 with Ghosts --------------------------------------------------------------------------


def test_r5_2_with_ghosts_only_ghosts_vote():
    t = ghost_table()
    t.mingle(ROUND4_TIE)
    tie = t.view(None)["tie"]
    assert tie["candidates"] == [3, 4] and tie["voters"] == [7, 6]
    for living in (1, 2, 3, 4, 5):
        assert pending(t.state, living) == []
        t.illegal("wrong_phase", living, "tiebreak_vote", target=3)
    assert pending(t.state, 7) == [
        {"action": "tiebreak_vote", "options": {"targets": [3, 4], "min": 1, "max": 1}}
    ]
    t.vote({7: 3, 6: 3})
    assert not t.alive(3) and t.alive(4)
    assert t.dining["ties"][0]["decided_by"] == "vote"
    assert t.state.ghosts == (7, 6, 3)


def test_r5_2_a_ghost_may_vote_only_once():
    t = ghost_table()
    t.mingle(ROUND4_TIE)
    t.vote({7: 3})
    t.illegal("wrong_phase", 7, "tiebreak_vote", target=4)
    assert pending(t.state, 7) == []


def test_r5_2_ghost_tie_goes_to_latest_ghost_whose_own_dial_decides():
    t = ghost_table()
    t.mingle(ROUND4_TIE)
    t.vote({7: 3, 6: 4})  # 1–1: seat 6 is the most recently eliminated Ghost
    assert t.state.phase != "tiebreak"  # no extra window: their dial names a tied player
    assert not t.alive(4) and t.alive(3)
    (record,) = t.dining["ties"]
    assert record["result"] == 4 and record["decided_by"] == "latest_ghost"


def test_r5_2_ghost_tie_with_the_order_of_votes_reversed_still_goes_to_latest_ghost():
    t = ghost_table()
    t.mingle(ROUND4_TIE)
    t.vote({6: 3, 7: 4})
    assert not t.alive(3) and t.alive(4)
    assert t.dining["ties"][0]["decided_by"] == "latest_ghost"


def test_r5_5_nobody_votes_with_ghosts_the_latest_ghost_chooses():
    t = ghost_table()
    t.mingle(ROUND4_TIE)
    t.expire()  # nobody voted: a tie of the whole vote, and seat 6 cast no dial
    assert t.state.phase == "tiebreak"
    tie = t.view(None)["tie"]
    assert tie["decider"] == 6 and tie["voters"] == [6] and tie["candidates"] == [3, 4]
    assert pending(t.state, 6) == [
        {"action": "tiebreak_vote", "options": {"targets": [3, 4], "min": 1, "max": 1}}
    ]
    assert pending(t.state, 7) == []
    t.illegal("wrong_phase", 7, "tiebreak_vote", target=3)
    t.illegal("illegal_target", 6, "tiebreak_vote", target=5)
    t.do(6, "tiebreak_vote", target=3)
    assert not t.alive(3) and t.alive(4)
    assert t.dining["ties"][0]["decided_by"] == "latest_ghost"


def test_r5_2_a_latest_ghost_who_does_not_choose_in_time_leaves_nobody_eliminated():
    """R5.2 amended: no random pick; as in R5.3, nothing happens for that tie this round."""
    t = ghost_table()
    t.mingle(ROUND4_TIE)
    t.expire()
    assert t.view(None)["tie"]["decider"] == 6
    t.expire()
    record = t.dining["ties"][0]
    assert record["decided_by"] == "no_result" and record["result"] is None
    assert t.alive(3) and t.alive(4) and t.dining["eliminated"] is None
    assert "no_elimination" in t.kinds()


def test_r5_2_a_latest_ghost_who_does_not_choose_in_time_leaves_nobody_elected():
    t = ghost_table()
    t.mingle(ELECTION_TIE_WITH_GHOSTS)
    t.expire()  # the Ghosts do not vote on the election tie: the latest Ghost decides
    tie = t.view(None)["tie"]
    assert tie["kind"] == "election" and tie["decider"] == t.state.ghosts[-1]
    t.expire()
    record = [r for r in t.dining["ties"] if r["kind"] == "election"][0]
    assert record["decided_by"] == "no_result" and record["result"] is None
    assert t.dining["alpha_elected"] is None


def test_r5_2_latest_ghost_whose_dial_names_an_untied_player_chooses_among_the_still_tied():
    # 12 players: Hunters 8–12 eliminated in rounds 2–6 (seat 8 last); round 7 with seats 1–7.
    t = Table("LVVHHHHHHHHH")
    play_round(t, 4, 5, examiner=5)
    for kill, elect in ((12, 1), (11, 2), (10, 1), (9, 2), (8, 1)):
        play_round(t, kill, elect)
    assert t.state.ghosts == (12, 11, 10, 9, 8) and t.state.alpha == 1
    plan = {
        # stakes: 4, 5, 6 have 3 each; feasts: seat 2 has the most
        1: "D4 F2 I3",
        2: "S5 S6 F3",
        3: "S5 S6 F2",
        4: "S5 S6 F7",
        5: "S4 S7 F2",
        6: "S3 S7 F2",
        7: "S1 S3 F6",
    }
    t.mingle(plan)
    assert t.view(None)["tie"]["candidates"] == [4, 5, 6]
    t.vote({12: 4, 11: 4, 10: 5, 9: 5, 8: 6})  # 4 and 5 still tied; seat 8's dial names 6
    tie = t.view(None)["tie"]
    assert tie["decider"] == 8 and tie["candidates"] == [4, 5]
    assert pending(t.state, 8) == [
        {"action": "tiebreak_vote", "options": {"targets": [4, 5], "min": 1, "max": 1}}
    ]
    t.illegal("illegal_target", 8, "tiebreak_vote", target=6)
    t.do(8, "tiebreak_vote", target=5)
    assert not t.alive(5) and t.alive(4) and t.alive(6)
    record = t.dining["ties"][0]
    assert record["result"] == 5 and record["decided_by"] == "latest_ghost"


def test_r5_2_a_three_way_ghost_tie_goes_to_the_latest_ghosts_own_dial():
    t = Table("LVVHHHHHHHHH")
    play_round(t, 4, 5, examiner=5)
    for kill, elect in ((12, 1), (11, 2), (10, 1)):
        play_round(t, kill, elect)
    plan = {
        1: "D4 F2 I3",
        2: "S5 S6 F3",
        3: "S5 S6 F2",
        4: "S5 S6 F7",
        5: "S4 S7 F2",
        6: "S3 S7 F2",
        7: "S1 S3 F6",
        8: "S2 S9 F7",
        9: "S8 S2 F3",
    }
    t.mingle(plan)
    assert t.view(None)["tie"]["candidates"] == [4, 5, 6]
    assert t.view(None)["tie"]["voters"] == [12, 11, 10]
    t.vote({12: 4, 11: 5, 10: 6})
    assert not t.alive(6) and t.alive(4) and t.alive(5)
    assert t.dining["ties"][0]["decided_by"] == "latest_ghost"


# -- R5.4 both tie ------------------------------------------------------------------------------


def test_r5_4_both_tie_elimination_first_then_election_voted_by_the_new_ghost_only():
    t = round_two(BOTH_TIE)
    assert t.view(None)["tie"]["kind"] == "elimination"
    t.vote({1: 3, 2: 3, 3: 4, 4: 3, 5: 3, 6: 4})
    assert not t.alive(3)
    # R2 ruling: seat 3 is a Ghost now, so only seat 3 votes in the election tie (R5.2)
    tie = t.view(None)["tie"]
    assert tie["kind"] == "election" and tie["candidates"] == [1, 2] and tie["voters"] == [3]
    for seat in (1, 2, 4, 5, 6):
        assert pending(t.state, seat) == []
        t.illegal("wrong_phase", seat, "tiebreak_vote", target=1)
    t.do(3, "tiebreak_vote", target=2)
    kinds = [r["kind"] for r in t.dining["ties"]]
    assert kinds == ["elimination", "election"]
    assert t.dining["eliminated"] == 3 and t.dining["alpha_elected"] == 2
    assert t.state.round == 3 and t.state.alpha == 2


def test_r5_4_the_election_tie_opens_only_after_the_elimination_is_settled():
    t = round_two(BOTH_TIE)
    opened = [e.data["kind"] for e in t.events if e.kind == "tie"]
    assert opened == ["elimination"]
    t.vote({1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3})
    kinds = [e.kind for e in t.events]
    assert kinds.index("eliminated") < max(i for i, k in enumerate(kinds) if k == "tie")
    assert [e.data["kind"] for e in t.events if e.kind == "tie"] == ["elimination", "election"]


def test_r5_4_both_tie_with_no_result_for_elimination_the_living_vote_the_election():
    t = round_two(BOTH_TIE)
    t.vote({1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 4})  # a second tie: nobody is eliminated
    tie = t.view(None)["tie"]
    assert tie["kind"] == "election" and tie["voters"] == [1, 2, 3, 4, 5, 6]
    t.vote({1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 2})
    assert t.dining["alpha_elected"] == 2


def test_r5_4_with_ghosts_the_just_eliminated_player_is_the_latest_ghost_in_the_election_tie():
    t = ghost_table()
    # Stakes: 3 and 4 tie (3 each). Feasts: 2 and 5 tie (2 each; seat 1 is the Alpha).
    t.mingle({1: "D3 F2 I5", 2: "S4 S5 F3", 3: "S4 S1 F2", 4: "S3 S2 F5", 5: "S4 S1 F3"})
    assert t.view(None)["tie"]["candidates"] == [3, 4]
    assert t.view(None)["tie"]["voters"] == [7, 6]
    t.vote({7: 4, 6: 4})
    assert not t.alive(4)
    tie = t.view(None)["tie"]
    assert tie["kind"] == "election" and tie["candidates"] == [2, 3]
    assert tie["voters"] == [7, 6, 4]
    t.vote({7: 2, 6: 3, 4: 2})
    assert t.dining["alpha_elected"] == 2
    t2 = ghost_table()
    t2.mingle({1: "D3 F2 I5", 2: "S4 S5 F3", 3: "S4 S1 F2", 4: "S3 S2 F5", 5: "S4 S1 F3"})
    t2.vote({7: 4, 6: 4})
    t2.vote({7: 2, 6: 3})
    t2.expire()  # seat 4 abstains: 1–1, and seat 4 (the latest Ghost) has no dial: they choose
    assert t2.view(None)["tie"]["decider"] == 4
    t2.do(4, "tiebreak_vote", target=3)
    assert t2.dining["alpha_elected"] == 3
    assert t2.dining["ties"][-1]["decided_by"] == "latest_ghost"


# -- secrecy -------------------------------------------------------------------------------------


def dumps(view):
    return json.dumps(view, sort_keys=True)


def test_r5_votes_are_secret_until_settled_others_see_who_voted_never_for_whom():
    a, b = ghost_table(), ghost_table()
    a.mingle(ROUND4_TIE)
    b.mingle(ROUND4_TIE)
    a.vote({7: 3})
    b.vote({7: 4})
    for seat in (None, 1, 2, 3, 4, 5, 6):
        assert dumps(a.view(seat)) == dumps(b.view(seat)), seat
        if seat is not None:
            assert [e.text for e in a.seen_by(seat)] == [e.text for e in b.seen_by(seat)]
    assert a.view(6)["tie"]["voted"] == [7]
    assert a.view(3)["tie"]["voted"] == [7]
    assert [e.audience for e in a.events if e.kind == "tie_vote"] == [(7,)]


def test_r5_votes_are_secret_in_a_living_vote_too():
    a, b = round_two(ELIMINATION_TIE), round_two(ELIMINATION_TIE)
    a.vote({1: 3, 2: 4})
    b.vote({1: 4, 2: 3})
    for seat in (None, 3, 4, 5, 6):
        assert dumps(a.view(seat)) == dumps(b.view(seat)), seat
    assert a.view(5)["tie"]["voted"] == [1, 2]


def test_r5_the_settled_tie_is_public_with_attributed_dials():
    t = ghost_table()
    t.mingle(ROUND4_TIE)
    t.vote({7: 3, 6: 4})
    (event,) = settled(t)
    assert event.audience is None
    assert event.data["votes"] == [{"voter": 7, "target": 3}, {"voter": 6, "target": 4}]
    assert event.data["winner"] == 4 and event.data["decided_by"] == "latest_ghost"
    assert t.dining["ties"][0]["votes"] == [
        {"voter": 7, "target": 3},
        {"voter": 6, "target": 4},
    ]
    assert t.dining["ties"][0]["candidates"] == [3, 4]
