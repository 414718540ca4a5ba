"""R2's ruling, the role reveal before round 1 (docs/rulings.md): each seat taps Ready; round 1's
Mingling opens when all are ready or when the window times out; `reveal` 0 means no reveal."""

from __future__ import annotations

from games.engine import pending, state_from_json, timeout, to_json, view
from games.engine.offers import moves
from games.engine.state import Timers
from tests.engine.table import Table

REVEAL = {"reveal": 30, "mingling": 180}


def revealing(**options) -> Table:
    return Table("LVHHHH", timers=REVEAL, **options)


def test_r2_ruling_reveal_opens_before_round_1_with_its_deadline():
    t = revealing()
    v = t.view(3)
    assert (v["round"], v["phase"], v["deadline"]) == (1, "role_reveal", t.now + 30)
    assert v["waiting_for"] == [1, 2, 3, 4, 5, 6]
    assert v["me"]["tokens"] == []  # nothing dealt yet
    assert pending(t.state, 3) == [
        {"action": "ready", "options": {"targets": [], "min": 0, "max": 0}}
    ]
    assert moves(pending(t.state, 3)[0]) == [{}]
    assert "round_started" not in t.kinds()


def test_r2_ruling_reveal_each_seat_sees_its_own_role_and_night_information():
    t = revealing()
    lord, vampire, hunter = t.view(1)["me"], t.view(2)["me"], t.view(3)["me"]
    assert (lord["role"], vampire["role"], hunter["role"]) == ("vampire_lord", "vampire", "hunter")
    assert vampire["knowledge"] == [
        {"seat": 1, "source": "night", "round": 1, "role": "vampire_lord"}
    ]
    assert lord["knowledge"] == []  # six players: the Lord does not know the Vampires (R1.2)
    assert hunter["knowledge"] == []


def test_r2_ruling_reveal_ready_is_public_and_leaves_the_waiting_list():
    t = revealing()
    t.do(4, "ready")
    assert t.events[-1].kind == "ready" and t.events[-1].text == "Seat 4 is ready."
    assert t.events[-1].audience is None and t.events[-1].data == {"seat": 4}
    assert t.view(None)["waiting_for"] == [1, 2, 3, 5, 6]
    assert pending(t.state, 4) == []
    assert t.state.phase == "role_reveal"


def test_r2_ruling_reveal_round_1_starts_when_every_seat_is_ready():
    t = revealing()
    t.now += 12
    for seat in (6, 5, 4, 3, 2, 1):
        t.do(seat, "ready")
    assert t.state.phase == "mingling" and t.state.round == 1
    assert t.state.deadline == t.now + 180  # the full Mingling timer from the last Ready
    over = next(e for e in t.events if e.kind == "reveal_over")
    assert over.data == {"reason": "all_ready"}
    assert t.kinds()[-2:] == ["reveal_over", "round_started"]
    assert t.view(1)["me"]["tokens"]  # the tokens are dealt


def test_r2_ruling_reveal_round_1_starts_after_the_grace_window():
    t = revealing()
    t.do(2, "ready")
    t.now += 29
    assert timeout(t.state, t.now) == (t.state, [])  # not yet
    t.expire()
    assert t.state.phase == "mingling" and t.state.deadline == t.now + 180
    assert [e.data for e in t.events if e.kind == "reveal_over"] == [{"reason": "time_up"}]


def test_r2_ruling_reveal_a_second_ready_is_refused():
    t = revealing()
    t.do(3, "ready")
    t.illegal("wrong_phase", 3, "ready")


def test_r2_ruling_reveal_ready_outside_the_reveal_is_refused():
    t = revealing()
    for seat in range(1, 7):
        t.do(seat, "ready")
    t.illegal("wrong_phase", 1, "ready")
    plain = Table("LVHHHH")
    plain.illegal("wrong_phase", 1, "ready")


def test_r2_ruling_reveal_no_token_is_placed_before_round_1():
    t = revealing()
    t.illegal("wrong_phase", 3, "place_token", token="stake", target=4)


def test_r2_ruling_reveal_0_starts_mingling_at_once():
    t = Table("LVHHHH", timers={"reveal": 0})
    assert t.state.phase == "mingling" and t.state.deadline == t.now + Timers().mingling
    assert Timers().reveal == 0
    assert "ready" not in [p["action"] for p in pending(t.state, 1)]


def test_r2_ruling_reveal_with_relics_and_last_wills_starts_round_1_as_ever():
    t = revealing(relics=True, last_wills=True)
    for seat in range(1, 7):
        t.do(seat, "ready")
    assert t.state.phase == "mingling"
    assert view(t.state, 1)["relics"]["holdings"] == []


def test_r2_ruling_reveal_old_state_without_the_ready_field_loads():
    t = revealing()
    t.do(5, "ready")
    saved = to_json(t.state)
    assert saved["ready"] == [5] and saved["options"]["timers"]["reveal"] == 30
    assert state_from_json(saved) == t.state
    old = to_json(Table("LVHHHH").state)
    del old["ready"]
    del old["options"]["timers"]["reveal"]
    loaded = state_from_json(old)
    assert loaded.ready == () and loaded.options.timers.reveal == 0
    assert loaded.phase == "mingling"
