"""The engine's hook points (games/engine/hooks.py), driven by a tiny test module.

`Probe` does nothing until a test configures it; the `probe` fixture registers a fresh one before
the table is set up and unregisters it afterwards, so no other test sees it.
"""

from __future__ import annotations

import json

import pytest

from games.engine import IllegalAction, hooks, pending, state_from_json, to_json
from games.engine.state import Event, evolve
from tests.engine.table import Table
from tests.engine.test_r5_ties import (
    ELIMINATION_TIE,
    ROUND1,
    ROUND4_TIE,
    ghost_table,
    round_two,
)

WINDOW = "probe_window"


class Probe(hooks.Module):
    name = "probe"
    action_names = frozenset({"probe_ping"})

    def __init__(self):
        self.hands: dict[int, tuple[str, ...]] = {}
        self.stack: set[tuple[int, str]] = set()  # (owner, token) that may share a seat
        self.extra: dict[str, dict[int, int]] = {}  # kind -> automatic votes per seat
        self.blocked: set[int] = set()
        self.resistant: set[int] = set()
        self.weights: dict[int, int] = {}
        self.optional: tuple[int, ...] = ()
        self.decider: tuple[str, int] | None = None  # (tie kind, seat)
        self.window_at: str | None = None  # a flow step: open a window there from round 2 on
        self.steps: list[tuple[int, str]] = []

    def enabled(self, state):
        return True

    def hand(self, state, seat, tokens):
        return self.hands.get(seat, tokens)

    def may_stack(self, state, owner, token):
        return (owner, token) in self.stack

    def adjust_tally(self, state, kind, tally):
        tally = dict(tally)
        for seat, votes in self.extra.get(kind, {}).items():
            if seat in tally:
                tally[seat] += votes
        return tally

    def blocks_examination(self, state, examiner, target):
        return target in self.blocked

    def resists_mesmerism(self, state, seat):
        return seat in self.resistant

    def vote_weight(self, state, voter):
        return self.weights.get(voter, 1)

    def optional_intervention_voters(self, state):
        return self.optional

    def decide_tie(self, state, kind, tied):
        if self.decider and self.decider[0] == kind:
            return self.decider[1]
        return None

    # a window of its own: seat 2 must "ping" (or the 30 s timer runs out)
    def at_step(self, state, step, now):
        self.steps.append((state.round, step))
        data = state.ext.get("probe", {})
        if step != self.window_at or state.round < 2 or data.get("done") == state.round:
            return None
        data = {"open": state.round, "done": None, "back_to": state.phase, "pings": []}
        state = evolve(state, ext={**state.ext, "probe": data}, phase=WINDOW, deadline=now + 30)
        return state, [Event("probe_opened", "The probe waits for seat 2.", state.round)], True

    def act(self, state, action, now):
        if state.phase != WINDOW:
            raise IllegalAction("wrong_phase", "No probe window is open.")
        if action.seat != 2:
            raise IllegalAction("wrong_phase", "Only seat 2 pings the probe.")
        return self._close(state, [action.seat], "pinged")

    def pending(self, state, seat):
        if state.phase == WINDOW and seat == 2:
            return [{"action": "probe_ping", "options": {"targets": [2], "min": 1, "max": 1}}]
        return []

    def timeout(self, state, now):
        if state.phase != WINDOW:
            return None
        return self._close(state, [], "timed_out")

    def view(self, state, seat):
        return {"probe": state.ext.get("probe")}

    def _close(self, state, pings, how):
        data = state.ext["probe"]
        data = {**data, "done": state.round, "pings": pings, "how": how}
        state = evolve(
            state, ext={**state.ext, "probe": data}, phase=data["back_to"], deadline=None
        )
        return (
            state,
            [Event("probe_closed", f"The probe window closed: {how}.", state.round)],
            False,
        )


@pytest.fixture
def probe():
    module = hooks.register(Probe())
    yield module
    hooks.unregister("probe")
    assert hooks.active(Table("LVHHHH").state) == ()


# R1 round-1 plan for `adjust_tally`: seats 3 and 6 tie for the most Stakes (3 each); seat 5 has
# the most Feasts.
TIE_3_6 = {
    1: "S3 S6 F5",
    2: "S3 S6 F5",
    3: "S6 S1 F5",
    4: "S3 S2 F5",
    5: "S4 S1 F6",
    6: "S4 S2 F5",
}


# -- hand -----------------------------------------------------------------------------------------


def test_hook_hand_changes_the_tokens_a_player_is_dealt(probe):
    probe.hands = {3: ("feast",), 4: ("stake", "stake", "stake", "feast")}
    t = Table("LVHHHH")
    assert t.view(3)["me"]["tokens"] == ["feast"]
    assert pending(t.state, 3)[0]["options"]["tokens"] == ["feast"]
    assert t.view(4)["me"]["tokens"] == ["stake", "stake", "stake", "feast"]
    assert t.view(1)["me"]["tokens"] == ["stake", "stake", "feast"]
    t.illegal("illegal_token", 3, "place_token", token="stake", target=1)
    plan = {**ROUND1, 3: "F6", 4: "S3 S5 S1 F6"}
    for seat, words in plan.items():
        t.place(seat, words)
    assert t.state.phase != "mingling"  # everyone placed everything: no timeout needed
    assert t.dining["unplaced"] == []


# -- may_stack ------------------------------------------------------------------------------------


def test_hook_may_stack_allows_two_tokens_on_one_seat(probe):
    probe.stack = {(1, "stake")}
    t = Table("LVHHHH")
    t.place(1, "S3")
    (place,) = pending(t.state, 1)
    assert 3 in place["options"]["targets"]
    t.place(1, "S3")
    t.illegal("illegal_target", 1, "place_token", token="feast", target=3)  # only Stakes stack
    t.place(2, "S3")
    t.illegal("illegal_target", 2, "place_token", token="stake", target=3)  # only seat 1's
    assert [(p.owner, p.target, p.token) for p in t.state.placements] == [
        (1, 3, "stake"),
        (1, 3, "stake"),
        (2, 3, "stake"),
    ]


def test_hook_may_stack_is_off_without_the_module():
    t = Table("LVHHHH")
    t.place(1, "S3")
    t.illegal("illegal_target", 1, "place_token", token="stake", target=3)


# -- adjust_tally ---------------------------------------------------------------------------------


def test_hook_adjust_tally_without_it_seats_3_and_6_tie():
    t = Table("LVHHHH")
    t.mingle(TIE_3_6)
    assert t.view(None)["tie"]["candidates"] == [3, 6]


def test_hook_adjust_tally_adds_an_automatic_stake_vote(probe):
    probe.extra = {"stake": {6: 1}}
    t = Table("LVHHHH")
    t.mingle(TIE_3_6)
    assert t.state.phase == "choose_examiner"
    assert t.dining["examined"] == 6


def test_hook_adjust_tally_changes_the_feast_count_too(probe):
    probe.extra = {"stake": {6: 1}, "feast": {4: 9}}
    t = Table("LVHHHH")
    t.mingle(TIE_3_6)
    t.do(6, "choose_examiner", target=4)
    assert t.dining["alpha_elected"] == 4


def test_hook_adjust_tally_elimination_in_a_later_round(probe):
    t = Table("LVHHHH")
    t.mingle(ROUND1)
    t.do(3, "choose_examiner", target=4)
    probe.extra = {"stake": {4: 1}}
    t.mingle(ELIMINATION_TIE)  # 3 and 4 had 3 Stakes each: seat 4 now has 4
    assert t.state.round == 3
    assert not t.alive(4) and t.alive(3)


# -- blocks_examination ---------------------------------------------------------------------------


def test_hook_blocks_examination_stops_an_investigation(probe):
    probe.blocked = {2}
    t = round_two(ELIMINATION_TIE)  # the Alpha (seat 5) put the Investigation token on seat 2
    assert t.dining["investigated"] is None
    assert all(k["source"] != "investigation" for k in t.view(5)["me"]["knowledge"])
    (event,) = [e for e in t.events if e.kind == "investigation" and e.round == 2]
    assert event.audience is None and "cannot be investigated" in event.text
    assert not any(e.kind == "examined" and e.round == 2 for e in t.events)


# -- resists_mesmerism ----------------------------------------------------------------------------


def test_hook_resists_mesmerism_keeps_a_hunter_who_sees_the_lord_free(probe):
    probe.resistant = {5}
    t = round_two({**ELIMINATION_TIE, 5: "D2 F6 I1", 6: "S1 S5 F3"})  # seat 5 investigates 1
    assert t.dining["investigated"] == 1
    assert {"seat": 1, "role": "vampire_lord", "source": "investigation", "round": 2} in t.view(5)[
        "me"
    ]["knowledge"]
    assert t.view(5)["me"]["mesmerized"] is False
    assert "mesmerized" not in t.kinds()


def test_hook_resists_mesmerism_in_the_round_one_examination(probe):
    probe.resistant = {3}
    t = Table("LVHHHH")
    t.mingle(
        {1: "S3 S4 F5", 2: "S1 S4 F5", 3: "S1 S4 F5", 4: "S1 S3 F5", 5: "S1 S3 F6", 6: "S1 S3 F5"}
    )
    assert t.dining["examined"] == 1
    t.do(1, "choose_examiner", target=3)
    assert not t.state.player(3).mesmerized
    probe.resistant = set()
    t2 = Table("LVHHHH")
    t2.mingle(
        {1: "S3 S4 F5", 2: "S1 S4 F5", 3: "S1 S4 F5", 4: "S1 S3 F5", 5: "S1 S3 F6", 6: "S1 S3 F5"}
    )
    t2.do(1, "choose_examiner", target=3)
    assert t2.state.player(3).mesmerized


# -- vote_weight ----------------------------------------------------------------------------------


def test_hook_vote_weight_doubles_a_ghosts_tie_dial(probe):
    t = ghost_table()
    probe.weights = {7: 2}
    t.mingle(ROUND4_TIE)
    t.vote({7: 3, 6: 4})  # 2–1, not a tie for the latest Ghost to settle
    assert not t.alive(3) and t.alive(4)
    assert t.dining["ties"][0]["decided_by"] == "vote"


def test_hook_vote_weight_doubles_a_ghosts_intervention_dial(probe):
    t = ghost_table()
    probe.weights = {7: 2}
    t.mingle(ROUND4_TIE, ghosts={7: 3, 6: 5})
    assert t.dining["protected"] == 3
    assert all(r["kind"] != "intervention" for r in t.dining["ties"])


# -- optional_intervention_voters -----------------------------------------------------------------


def test_hook_optional_intervention_voter_votes_but_never_holds_mingling_open(probe):
    t = ghost_table()
    probe.optional = (2,)
    assert {
        "action": "intervention_vote",
        "options": {"targets": [1, 2, 3, 4, 5], "min": 1, "max": 1},
    } in pending(t.state, 2)
    t.do(2, "intervention_vote", target=2)  # a living voter may name themselves
    t.do(7, "intervention_vote", target=2)
    t.do(6, "intervention_vote", target=5)
    for seat, words in ROUND4_TIE.items():
        t.place(seat, words)
    assert t.state.phase != "mingling"
    assert t.dining["protected"] == 2
    t2 = ghost_table()
    t2.do(7, "intervention_vote", target=2)
    t2.do(6, "intervention_vote", target=5)
    for seat, words in ROUND4_TIE.items():
        t2.place(seat, words)
    assert t2.state.phase != "mingling"  # seat 2 never voted: Mingling ended anyway


# -- decide_tie -----------------------------------------------------------------------------------


def test_hook_decide_tie_hands_the_tie_to_the_chosen_seat(probe):
    probe.decider = ("elimination", 6)
    t = round_two(ELIMINATION_TIE)
    tie = t.view(None)["tie"]
    assert tie["candidates"] == [3, 4] and tie["voters"] == [6] and tie["decider"] == 6
    assert pending(t.state, 6) == [
        {"action": "tiebreak_vote", "options": {"targets": [3, 4], "min": 1, "max": 1}}
    ]
    for seat in (1, 2, 3, 4, 5):
        assert pending(t.state, seat) == []
        t.illegal("wrong_phase", seat, "tiebreak_vote", target=3)
    t.illegal("illegal_target", 6, "tiebreak_vote", target=5)
    t.do(6, "tiebreak_vote", target=3)
    assert not t.alive(3) and t.alive(4)
    record = t.dining["ties"][0]
    assert record["decided_by"] == "probe" and record["result"] == 3


def test_r5_2_a_modules_decider_who_does_not_choose_in_time_settles_nothing(probe):
    probe.decider = ("elimination", 6)
    t = round_two(ELIMINATION_TIE)
    t.expire()
    record = t.dining["ties"][0]
    assert record["decided_by"] == "no_result" and record["result"] is None
    assert t.alive(3) and t.alive(4)


def test_hook_decide_tie_of_the_intervention_instead_of_the_latest_ghost(probe):
    t = ghost_table()
    probe.decider = ("intervention", 2)
    t.mingle(ROUND4_TIE, ghosts={7: 3, 6: 5})
    tie = t.view(None)["tie"]
    assert tie["kind"] == "intervention" and tie["decider"] == 2
    assert tie["candidates"] == [3, 5]
    t.do(2, "tiebreak_vote", target=3)
    assert t.dining["protected"] == 3
    assert [r["decided_by"] for r in t.dining["ties"]][0] == "probe"


# -- at_step: a module's own window ---------------------------------------------------------------


def test_hook_at_step_is_called_at_every_step_in_round_order(probe):
    t = round_two(ELIMINATION_TIE)
    t.vote({s: 4 for s in range(1, 7)})
    round2 = [step for r, step in probe.steps if r == 2]
    assert round2 == [
        "round_start",
        "pre_mingling",
        "post_mingling",
        "after_reveal",
        "after_intervention",
        "before_tie",
        "after_death",
        "after_elimination",
        "round_end",
    ]
    round1 = [step for r, step in probe.steps if r == 1]
    assert round1 == [
        "round_start",
        "pre_mingling",
        "post_mingling",
        "after_reveal",
        "after_intervention",
        "round_end",
    ]


def test_hook_at_step_pauses_the_round_with_its_own_window(probe):
    probe.window_at = "pre_mingling"
    t = Table("LVHHHH")
    t.mingle(ROUND1)
    t.do(3, "choose_examiner", target=4)
    assert t.state.round == 2 and t.state.phase == WINDOW
    assert t.state.deadline == t.now + 30
    assert "probe_opened" in t.kinds()
    # the window is the module's: its pending, its view; the core's moves wait
    assert pending(t.state, 2) == [
        {"action": "probe_ping", "options": {"targets": [2], "min": 1, "max": 1}}
    ]
    assert pending(t.state, 1) == []
    assert t.view(1)["waiting_for"] == [2]
    assert t.view(1)["probe"]["open"] == 2 and t.view(1)["probe"]["done"] is None
    t.illegal("wrong_phase", 1, "place_token", token="stake", target=3)
    t.illegal("wrong_phase", 1, "probe_ping")
    # the state with module data stays JSON and round-trips
    data = json.loads(json.dumps(to_json(t.state)))
    assert state_from_json(data) == t.state
    t.do(2, "probe_ping")
    assert t.state.phase == "mingling" and t.state.round == 2
    assert t.view(1)["probe"]["pings"] == [2] and t.view(1)["probe"]["how"] == "pinged"
    assert t.view(5)["me"]["tokens"] == ["double_stake", "feast", "investigation"]
    assert probe.steps.count((2, "pre_mingling")) == 2  # called again when its window closed
    t.mingle(ELIMINATION_TIE)
    assert t.view(None)["tie"]["candidates"] == [3, 4]


def test_hook_at_step_window_times_out_and_the_round_resumes(probe):
    probe.window_at = "pre_mingling"
    t = Table("LVHHHH")
    t.mingle(ROUND1)
    t.do(3, "choose_examiner", target=4)
    assert t.state.phase == WINDOW
    t.expire()
    assert t.state.phase == "mingling" and t.state.round == 2
    assert t.state.deadline == t.now + 180
    assert t.view(2)["probe"]["how"] == "timed_out"
    assert "probe_closed" in t.kinds()


def test_hook_at_step_after_elimination_pauses_before_the_election(probe):
    probe.window_at = "after_elimination"
    t = round_two(ELIMINATION_TIE)
    t.vote({s: 4 for s in range(1, 7)})
    assert t.state.phase == WINDOW and t.state.round == 2
    assert t.state.dining.eliminated == 4 and t.state.dining.alpha_elected is None
    assert not t.alive(4)
    t.do(2, "probe_ping")
    assert t.state.round == 3
    assert t.dining["alpha_elected"] == 1 and t.state.alpha == 1


def test_hook_module_actions_are_unknown_without_the_module():
    t = Table("LVHHHH")
    t.illegal("bad_request", 2, "probe_ping")
