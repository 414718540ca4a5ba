"""The host moves a running game's deadline (extend, pause, resume) and the
table votes to, through the real API routes; the stored deadline is the authority (a timer task
for the old deadline and the sweeper do nothing early); quiet hours and a fixed Mingling hour."""

from __future__ import annotations

import dataclasses
import time
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from games.engine import state_from_json, to_json
from games.models import Action, Event, Game, Player
from games.services import game_expire, replay, sweep_overdue

pytestmark = pytest.mark.django_db


def game_of(t) -> Game:
    return Game.objects.get(code=t.code)


def deadline_of(t) -> float | None:
    return state_from_json(game_of(t).state).deadline


def post(t, seat: int, suffix: str, body=None, expect: int = 200) -> dict:
    """A clock action as a client makes it: an extend or a vote carries the `clock.stamp` of
    the view it acted on (read here just before, unless the body names one)."""
    if suffix in ("extend", "vote") and "stamp" not in (body or {}):
        body = {**(body or {}), "stamp": t.view(seat)["clock"]["stamp"]}
    response = t.client(seat).post(t.url(f"deadline/{suffix}/"), body or {}, format="json")
    assert response.status_code == expect, (response.status_code, response.content)
    return response.json()


def clock_lines(t) -> list[str]:
    return list(Event.objects.filter(game=game_of(t), kind="clock").values_list("text", flat=True))


def test_the_host_extends_the_open_window_and_the_old_timer_task_does_nothing(table):
    t = table("LVHHHH", last_wills=False)
    before, old_version = deadline_of(t), game_of(t).version
    view = post(t, 1, "extend", {"minutes": 90})
    assert deadline_of(t) == before + 90 * 60
    shown = datetime.fromisoformat(view["deadline"].replace("Z", "+00:00"))
    assert abs(shown.timestamp() - (before + 90 * 60)) < 1
    game = game_of(t)
    assert game.deadline == datetime.fromtimestamp(before + 90 * 60, UTC)  # what the sweeper reads
    [line] = clock_lines(t)
    assert line.startswith("The host extended the deadline by 90 minutes; the deadline is now ")
    step = Action.objects.filter(game=game).last()
    assert (step.name, step.args) == ("deadline", {"deadline": before + 90 * 60})
    # The ETA task queued for the old deadline, and the sweeper at the old deadline: nothing.
    assert game_expire(game_id=game.id, version=old_version, now=before + 1) is False
    assert sweep_overdue(now=before + 1) == 0
    assert game_of(t).phase == "mingling"
    assert game_expire(game_id=game.id, now=before + 90 * 60) is True  # the new deadline closes it


def test_only_the_host_moves_the_deadline_and_bad_input_changes_nothing(table):
    t = table("LVHHHH", last_wills=False)
    before, version = deadline_of(t), game_of(t).version
    body = post(t, 2, "extend", {"minutes": 30}, expect=403)
    assert body["code"] == "forbidden" and "host" in body["detail"]
    body = post(t, 1, "extend", {"minutes": 30, "mins": 3}, expect=400)
    assert body["code"] == "bad_request" and body["errors"] == {"mins": ["Unknown field."]}
    body = post(t, 1, "extend", {"minutes": 0}, expect=400)
    assert body["code"] == "bad_request" and "minutes" in body["errors"]
    body = post(t, 1, "pause", {"now": 1}, expect=400)
    assert body["errors"] == {"now": ["Unknown field."]}
    post(t, 1, "resume", expect=409)  # not paused
    assert (deadline_of(t), game_of(t).version) == (before, version)


def test_a_pause_stops_every_timer_and_the_resume_gives_back_the_time_left(table):
    t = table("LVHHHH", last_wills=False)
    before = deadline_of(t)
    left = before - time.time()
    view = post(t, 1, "pause")
    assert view["deadline"] is None and view["clock"]["paused"] is True
    assert abs(view["clock"]["paused_left"] - left) < 30
    game = game_of(t)
    assert game.deadline is None
    # Long past the old deadline: neither the sweeper nor an old timer task closes the window.
    assert sweep_overdue(now=before + 7 * 24 * 3600) == 0
    assert game_expire(game_id=game.id, now=before + 7 * 24 * 3600) is False
    assert game_of(t).phase == "mingling"
    post(t, 1, "pause", expect=409)  # already paused
    t.act(2, "place_token", token="stake", targets=[3])  # moves still count while paused
    started = time.time()
    view = post(t, 1, "resume")
    assert view["clock"]["paused"] is False and view["clock"]["paused_left"] is None
    resumed = deadline_of(t)
    assert started + game.clock["paused_left"] - 1 <= resumed <= time.time() + left + 1
    lines = clock_lines(t)
    assert lines[0] == "The host paused the game: no window closes until it is resumed."
    assert lines[1].startswith("The host resumed the game; the deadline is now ")


def test_an_extension_while_paused_adds_to_the_time_given_back(table):
    t = table("LVHHHH", last_wills=False)
    view = post(t, 1, "pause")
    kept = view["clock"]["paused_left"]
    view = post(t, 1, "extend", {"minutes": 60})
    assert view["deadline"] is None and view["clock"]["paused_left"] == kept + 3600


def test_a_table_vote_passes_when_more_than_half_of_the_living_people_agree(table):
    t = table("LVHHHH", last_wills=False)
    before = deadline_of(t)
    view = post(t, 2, "vote", {"proposal": "extend", "minutes": 60})
    assert view["clock"]["vote"] == {
        "proposal": "extend", "minutes": 60, "by": 2, "yes": [2], "needed": 4,
    }  # fmt: skip
    assert view["clock"]["voters"] == [1, 2, 3, 4, 5, 6]
    post(t, 3, "vote", {"proposal": "extend", "minutes": 60})
    post(t, 3, "vote", {"proposal": "extend", "minutes": 60})  # said twice: counted once
    view = post(t, 4, "vote", {"proposal": "extend", "minutes": 60})
    assert view["clock"]["vote"]["yes"] == [2, 3, 4] and deadline_of(t) == before
    # Another proposal while this one is open: refused, nothing changes.
    body = post(t, 5, "vote", {"proposal": "pause"}, expect=409)
    assert body["code"] == "vote_open" and "extend the deadline by 1 hour" in body["detail"]
    view = post(t, 5, "vote", {"proposal": "extend", "minutes": 60})  # the fourth of six: passes
    assert view["clock"]["vote"] is None
    assert deadline_of(t) == before + 3600
    lines = clock_lines(t)
    assert lines[0] == "Seat 2 asks the table to extend the deadline by 1 hour (1 of 4 needed)."
    assert lines[-1].startswith("The table agreed (4 of 6) to extend the deadline by 1 hour;")


def test_a_vote_refuses_bad_proposals_and_its_window_ending_ends_it(table):
    t = table("LVHHHH", last_wills=False)
    body = post(t, 2, "vote", {"proposal": "extend"}, expect=400)
    assert body["code"] == "bad_request" and "minutes" in body["errors"]
    body = post(t, 2, "vote", {"proposal": "pause", "minutes": 5}, expect=400)
    assert "minutes" in body["errors"]
    body = post(t, 2, "vote", {"proposal": "skip"}, expect=400)
    assert "proposal" in body["errors"]
    post(t, 2, "vote", {"proposal": "resume"}, expect=409)  # not paused
    post(t, 2, "vote", {"proposal": "pause"})
    assert game_of(t).clock["vote"]["yes"] == [2]
    game = game_of(t)
    assert game_expire(game_id=game.id, now=deadline_of(t) + 1) is True  # Mingling closes
    assert "vote" not in game_of(t).clock
    assert t.view(3)["clock"]["vote"] is None


def test_quiet_hours_move_the_deadline_of_a_window_that_opens_to_their_end(table):
    zone = ZoneInfo("Europe/Berlin")
    hour = datetime.now(zone).hour
    quiet = {"start": hour, "end": (hour + 2) % 24}  # now is quiet, and Mingling's 3 min too
    t = table("LVHHHH", last_wills=False, time_zone="Europe/Berlin", quiet_hours=quiet)
    deadline = datetime.fromtimestamp(deadline_of(t), zone)
    assert (deadline.hour, deadline.minute, deadline.second) == (quiet["end"], 0, 0)
    assert t.view(2)["options"]["quiet_hours"] == quiet


def test_a_slow_game_s_mingling_closes_at_the_fixed_local_hour(table):
    zone = ZoneInfo("America/New_York")
    t = table(
        "LVHHHH", last_wills=False, preset="async", time_zone="America/New_York", deadline_hour=21
    )
    opened = Action.objects.filter(game=game_of(t), name="setup").get().at
    deadline = deadline_of(t)
    local = datetime.fromtimestamp(deadline, zone)
    assert (local.hour, local.minute) == (21, 0)
    assert 6 * 3600 <= deadline - opened <= 30 * 3600  # at least half the 12-hour timer


def test_the_clock_options_are_checked_when_a_game_is_opened(guests):
    [ana] = guests(1)
    bad = [
        {"time_zone": "Mars/Olympus"},
        {"quiet_hours": {"start": 22, "end": 22}},
        {"quiet_hours": {"start": 22, "end": 8, "also": 1}},
        {"deadline_hour": 21},  # live preset
        {"preset": "async", "deadline_hour": 24},
    ]
    for options in bad:
        response = ana.post("/api/v1/games/", options, format="json")
        assert response.status_code == 400, (options, response.content)
        assert response.json()["code"] == "bad_request"
    assert not Game.objects.exists()


def test_the_schema_documents_the_clock_operations_with_their_inputs(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    for op in ("extend", "pause", "resume", "vote"):
        post_op = paths[f"/api/v1/games/{{code}}/deadline/{op}/"]["post"]
        assert post_op["operationId"] == f"games_deadline_{op}"
        assert {"200", "400", "403", "409"} <= set(post_op["responses"])
    components = schema["components"]["schemas"]
    assert components["ClockExtendIn"]["required"] == ["minutes", "stamp"]
    assert set(components["ClockVoteIn"]["properties"]) == {"proposal", "minutes", "stamp"}
    assert "stamp" in components["ClockOut"]["required"]
    assert "clock" in components["GameViewOut"]["properties"]


def place_everything(t) -> None:
    """Every seat places every token it holds (its first legal choice each time)."""
    for seat in range(1, 7):
        while True:
            moves = [p for p in t.view(seat)["pending"] if p["action"] == "place_token"]
            if not moves:
                break
            options = moves[0]["options"]
            t.act(seat, "place_token", token=options["tokens"][0], targets=[options["targets"][0]])


def test_a_window_that_opens_while_paused_opens_paused_with_its_whole_time(table):
    t = table("LVHHHH", last_wills=False)
    post(t, 1, "pause")
    place_everything(t)  # the players' moves end Mingling: the game goes on, paused
    game = game_of(t)
    state = state_from_json(game.state)
    assert (state.round, state.phase) != (1, "mingling") and state.outcome is None
    assert state.deadline is None and game.deadline is None
    timers = game.options["timers"]
    window = {"mingling": "mingling", "tiebreak": "tiebreak"}.get(state.phase, "choice")
    assert game.clock["paused_left"] == pytest.approx(timers[window], abs=5)
    post(t, 1, "resume")
    assert deadline_of(t) == pytest.approx(time.time() + timers[window], abs=30)


def test_spectators_and_ghosts_do_not_vote_on_the_clock(table, guests):
    t = table("LVHHHH", last_wills=False)
    [zoe] = guests(1)
    body = {"proposal": "pause", "stamp": "none"}
    response = zoe.post(t.url("deadline/vote/"), body, format="json")
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    game = game_of(t)
    Player.objects.filter(game=game, seat=6).update(alive=False)
    state = state_from_json(game.state)
    dead = [p if p.seat != 6 else dataclasses.replace(p, alive=False) for p in state.players]
    game.state = to_json(dataclasses.replace(state, players=tuple(dead)))
    game.save(update_fields=["state"])
    body = post(t, 6, "vote", {"proposal": "pause"}, expect=403)
    assert "living players" in body["detail"]
    view = post(t, 2, "vote", {"proposal": "extend", "minutes": 45})
    assert view["clock"]["voters"] == [1, 2, 3, 4, 5] and view["clock"]["vote"]["needed"] == 3
    assert "extend the deadline by 45 minutes" in t.client(3).get(f"/g/{t.code}/").content.decode()


def test_a_game_whose_clock_moved_replays_to_the_same_state(table):
    """Every moved deadline is a "deadline" step of the replay log (one writer), so a replay
    ends in the same state: a fixed Mingling hour, an extension, a pause and a resume."""
    t = table(
        "LVHHHH", last_wills=False, preset="async", time_zone="Europe/Berlin", deadline_hour=21
    )
    post(t, 1, "extend", {"minutes": 30})
    post(t, 1, "pause")
    t.act(2, "place_token", token="stake", targets=[3])
    post(t, 1, "resume")
    game = game_of(t)
    names = list(Action.objects.filter(game=game).values_list("name", flat=True))
    assert names.count("deadline") == 4  # the fixed hour, the extension, the pause, the resume
    data = replay.replay_export(game)
    user = Game.objects.get(code=t.code).host
    copy = replay.replay_import(data, host=user, keep_running=True)  # raises on a mismatch
    assert copy.state == game.state
