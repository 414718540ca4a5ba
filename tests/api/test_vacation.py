"""Vacation mode: a player of a slow game announces an absence (from-to); meanwhile a bot
holds the seat (the bots' own machinery, the sensible strategy, the seat's own view) and the table
sees "on vacation until ..."; at the end the seat is handed back to the same person, on the server:
an ETA task, the sweeper, or any request that finds the end overdue (no worker needed)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from games import tasks
from games.domain.errors import GameError
from games.engine import state_from_json
from games.models import Action, Event, Game, Player
from games.services import bot_act, game_expire, sweep_vacations
from games.services.vacation import MAX_DAYS, check_span
from tests.api.conftest import guest

pytestmark = pytest.mark.django_db

SEAT = 2  # Ben, a Vampire; seat 1 (Ana) is the host


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def game_of(t) -> Game:
    return Game.objects.get(code=t.code)


def player(t, seat: int = SEAT) -> Player:
    return Player.objects.get(game__code=t.code, seat=seat)


def announce(t, seat: int = SEAT, expect: int = 200, **body) -> dict:
    response = t.client(seat).post(t.url("vacation/"), body, format="json")
    assert response.status_code == expect, (response.status_code, response.content)
    return response.json()


def lines(t, kind: str) -> list[Event]:
    return list(Event.objects.filter(game=game_of(t), kind=kind).order_by("seq"))


def seat_view(view: dict, seat: int = SEAT) -> dict:
    return next(s for s in view["seats"] if s["seat"] == seat)


def on_vacation(t, days: float = 2) -> datetime:
    until = timezone.now() + timedelta(days=days)
    announce(t, until=iso(until))
    assert player(t).vacation_on
    return until


def overdue(t) -> None:
    """The vacation's end has passed (the stored times are the authority)."""
    past = timezone.now() - timedelta(seconds=1)
    Player.objects.filter(game__code=t.code, seat=SEAT).update(
        vacation_from=past - timedelta(hours=1), vacation_until=past
    )
    Game.objects.filter(code=t.code).update(vacation_due=past)


# --- the span, pure ------------------------------------------------------------------------------


def test_vacation_span_starts_now_when_left_out_ends_after_it_starts_and_within_14_days():
    now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    assert check_span(None, now + timedelta(days=1), now) == now
    slow_form = now - timedelta(minutes=2)  # submitted a moment after it was filled in
    assert check_span(slow_form, now + timedelta(days=1), now) == now
    later = now + timedelta(hours=3)
    assert check_span(later, later + timedelta(hours=1), now) == later
    assert check_span(None, now + timedelta(days=MAX_DAYS), now) == now
    refused = [
        (now - timedelta(hours=1), now + timedelta(days=1), "from_past", "from"),
        (later, later, "bad_span", "until"),
        (later, now + timedelta(hours=1), "bad_span", "until"),
        (None, now + timedelta(days=MAX_DAYS, seconds=1), "too_long", "until"),
    ]
    for start, until, code, field in refused:
        with pytest.raises(GameError) as caught:
            check_span(start, until, now)
        assert (caught.value.code, caught.value.status, caught.value.field) == (code, 400, field)


# --- through the API -----------------------------------------------------------------------------


def test_a_vacation_begins_at_once_and_the_table_sees_the_seat_on_vacation_until_its_end(table):
    t = table("LVHHHH", preset="async", last_wills=False)
    until = timezone.now() + timedelta(days=3)
    mine = announce(t, until=iso(until))
    assert mine["me"]["vacation"]["on"] is True
    assert mine["me"]["vacation"]["until"] == iso(until)
    others = t.view(3)
    assert seat_view(others)["vacation_until"] == iso(until)
    assert "vacation" not in others["me"] or others["me"]["vacation"] is None  # nothing of seat 2's
    assert seat_view(others, 4)["vacation_until"] is None
    [line] = lines(t, "vacation")
    assert line.text.startswith(f"Seat {SEAT} is on vacation until ")
    assert line.text.endswith(": a bot plays for them meanwhile.")
    assert line.data == {"seat": SEAT, "name": "Ben", "until": iso(until)}
    assert line.audience is None and line.data["name"] == "Ben" and line.data["seat"] == SEAT
    # A vacationing seat does not vote on the clock.
    assert SEAT not in others["clock"]["voters"]


def test_a_bot_moves_for_the_seat_during_the_vacation_with_the_seats_own_view(table):
    t = table("LVHHHH", preset="async", last_wills=False)
    game = game_of(t)
    assert bot_act(game_id=game.id, seat=SEAT) is False  # a person's seat: no bot moves for it
    on_vacation(t)
    assert bot_act(game_id=game.id, seat=SEAT) is True
    step = Action.objects.filter(game=game, seat=SEAT).last()
    assert step.name == "place_token"
    # The player still has their seat's view, with the bot's move in it.
    me = t.view(SEAT)["me"]
    assert me["seat"] == SEAT and me["placed"] == [
        {"token": step.args["token"], "target": step.args["target"]}
    ]


def test_the_start_queues_the_bots_move_and_each_end_its_timer_task(
    table, monkeypatch, django_capture_on_commit_callbacks
):
    t = table("LVHHHH", preset="async", last_wills=False)
    queued = []
    monkeypatch.setattr(
        tasks.bot_move, "apply_async", lambda args, **kw: queued.append(("bot", args))
    )
    monkeypatch.setattr(
        tasks.vacation_due, "apply_async", lambda args, eta, **kw: queued.append(("end", eta))
    )
    until = timezone.now() + timedelta(minutes=30)  # within the timers' horizon: an ETA task
    with django_capture_on_commit_callbacks(execute=True):
        announce(t, until=iso(until))
    game = game_of(t)
    assert ("bot", (game.id, SEAT)) in queued  # the seat owes a move: a bot is nudged at once
    assert ("end", until) in queued
    queued.clear()
    with django_capture_on_commit_callbacks(execute=True):
        announce(t, until=iso(timezone.now() + timedelta(days=3)))  # later: the sweeper's
    assert not [q for q in queued if q[0] == "end"]


def test_a_vacation_announced_ahead_is_private_until_the_server_begins_it(table):
    t = table("LVHHHH", preset="async", last_wills=False)
    start = timezone.now() + timedelta(hours=2)
    mine = announce(t, **{"from": iso(start), "until": iso(start + timedelta(days=1))})
    assert mine["me"]["vacation"] == {
        "from": iso(start),
        "until": iso(start + timedelta(days=1)),
        "on": False,
    }
    assert seat_view(t.view(3))["vacation_until"] is None and not lines(t, "vacation")
    assert game_of(t).vacation_due == start
    assert sweep_vacations() == 0  # not yet
    later = start + timedelta(seconds=1)
    assert sweep_vacations(now=later) == 1  # the sweeper finds the start due, with no worker
    assert sweep_vacations(now=later) == 0  # once
    assert game_of(t).vacation_due == start + timedelta(days=1)  # next: the end
    assert player(t).vacation_on and len(lines(t, "vacation")) == 1


def test_vacation_ends_and_the_seat_is_handed_back_to_its_player(table):
    t = table("LVHHHH", preset="async", last_wills=False)
    game = game_of(t)
    on_vacation(t)
    # The ETA task at the end, before the end: nothing to do.
    assert tasks.vacation_due(game.id) is False and player(t).vacation_on
    overdue(t)
    # No worker ran: the sweeper (the safety net) finds the end overdue and hands the seat back.
    assert sweep_vacations() == 1
    p = player(t)
    assert (p.vacation_on, p.vacation_from, p.vacation_until) == (False, None, None)
    assert not p.is_bot
    assert p.user_id == t.client(SEAT).user_id and p.name == "Ben"
    [line] = lines(t, "vacation_back")
    assert line.text == f"Seat {SEAT} is back from vacation and plays again."
    assert line.data == {"seat": SEAT, "name": "Ben"}
    # The late ETA task and the sweeper again: nothing (idempotent, one line).
    assert tasks.vacation_due(game.id) is False and sweep_vacations() == 0
    assert len(lines(t, "vacation_back")) == 1
    # The bot no longer moves for the seat; the player does.
    assert bot_act(game_id=game.id, seat=SEAT) is False
    assert seat_view(t.view(3))["vacation_until"] is None
    t.place(SEAT, "S3")
    assert Action.objects.filter(game=game, seat=SEAT, name="place_token").count() == 1


def test_vacation_ends_and_the_seat_is_handed_back_when_any_request_finds_the_end_overdue(table):
    t = table("LVHHHH", preset="async", last_wills=False)
    on_vacation(t)
    overdue(t)
    view = t.view(4)  # a read of the game by anyone: the end is overdue, so it is handed back
    assert seat_view(view)["vacation_until"] is None
    assert not player(t).vacation_on and len(lines(t, "vacation_back")) == 1


def test_im_back_and_a_move_of_their_own_hand_the_seat_back_early(table):
    t = table("LVHHHH", preset="async", last_wills=False)
    on_vacation(t)
    response = t.client(SEAT).delete(t.url("vacation/"))
    assert response.status_code == 200, response.content
    assert response.json()["me"]["vacation"] is None and not player(t).vacation_on
    assert len(lines(t, "vacation_back")) == 1
    assert t.client(SEAT).delete(t.url("vacation/")).json()["code"] == "no_vacation"
    on_vacation(t)
    t.place(SEAT, "S3")  # the player moves during the vacation: they are back
    assert not player(t).vacation_on and len(lines(t, "vacation_back")) == 2


def test_a_seat_on_vacation_is_never_flagged_away_and_the_host_cannot_hand_it_on(table):
    t = table("LVHHHH", preset="async", last_wills=False)
    on_vacation(t)
    Player.objects.filter(game__code=t.code, seat=SEAT).update(missed_windows=5)
    game = game_of(t)
    state = state_from_json(game.state)
    game_expire(game_id=game.id, now=state.deadline + 1)  # the window closes on its timer
    assert player(t).missed_windows == 5 and not player(t).afk  # not counted while on vacation
    assert player(t, 3).missed_windows == 1  # the others were
    response = t.host.post(t.url(f"seats/{SEAT}/bot/"), format="json")
    assert response.status_code == 409 and response.json()["code"] == "on_vacation"
    response = t.host.post(t.url(f"seats/{SEAT}/invite/"), format="json")
    assert response.status_code == 409 and response.json()["code"] == "on_vacation"
    assert player(t).user_id == t.client(SEAT).user_id and player(t).claim_token is None


def test_vacation_refusals_change_nothing(table):
    t = table("LVHHHH", preset="async", last_wills=False)
    version = game_of(t).version
    now = timezone.now()
    body = announce(t, until=iso(now + timedelta(days=1)), mood="beach", expect=400)
    assert body["code"] == "bad_request" and body["errors"] == {"mood": ["Unknown field."]}
    start = now + timedelta(hours=5)
    body = announce(t, expect=400, **{"from": iso(start), "until": iso(start - timedelta(hours=1))})
    assert body["code"] == "bad_request" and "until" in body["errors"]
    body = announce(t, until=iso(now + timedelta(days=MAX_DAYS + 1)), expect=400)
    assert "14 days" in body["errors"]["until"][0]
    body = announce(t, until="next week", expect=400)
    assert "until" in body["errors"]
    body = announce(t, expect=400)
    assert "until" in body["errors"]
    stranger = guest("Zed")
    until = {"until": iso(now + timedelta(days=1))}
    response = stranger.post(t.url("vacation/"), until, format="json")
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert game_of(t).version == version and not Player.objects.exclude(vacation_until=None)


def test_a_live_game_and_a_finished_game_refuse_a_vacation(table):
    t = table("LVHHHH", last_wills=False)  # the live preset
    until = iso(timezone.now() + timedelta(days=1))
    assert announce(t, until=until, expect=409)["code"] == "not_slow"
    slow = table("LVHHHH", preset="async", last_wills=False)
    Game.objects.filter(code=slow.code).update(status=Game.Status.FINISHED)
    assert announce(slow, until=until, expect=409)["code"] == "wrong_phase"


def test_a_vacation_announced_in_a_slow_lobby_begins_once_the_game_runs(guests):
    host, ben = guests(2)
    response = host.post("/api/v1/games/", {"preset": "async"}, format="json")
    assert response.status_code == 201, response.content
    code = response.json()["code"]
    assert ben.post(f"/api/v1/games/{code}/join/", {}, format="json").status_code == 200
    until = iso(timezone.now() + timedelta(days=1))
    response = ben.post(f"/api/v1/games/{code}/vacation/", {"until": until}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["me"]["vacation"]["on"] is False  # the lobby: nothing to hold yet
    assert sweep_vacations() == 0
    response = host.post(f"/api/v1/games/{code}/bots/", {"count": 4}, format="json")
    assert response.status_code == 200, response.content
    assert host.post(f"/api/v1/games/{code}/start/").status_code == 200
    assert sweep_vacations() == 1
    ben_seat = Player.objects.get(game__code=code, user_id=ben.user_id)
    assert ben_seat.vacation_on


def test_a_bots_move_due_after_the_vacation_ended_hands_the_seat_back_instead(table):
    t = table("LVHHHH", preset="async", last_wills=False)
    game = game_of(t)
    on_vacation(t)
    overdue(t)  # the end passed while the bot's move was queued
    assert bot_act(game_id=game.id, seat=SEAT) is False
    assert not player(t).vacation_on and len(lines(t, "vacation_back")) == 1
    assert not Action.objects.filter(game=game, seat=SEAT).exists()  # the bot did not move


@pytest.mark.parametrize("until_tail", ["\u0000", "\n", "\x1b", "\u0085", "\t"])
def test_a_time_with_a_control_character_is_a_400_naming_the_field(table, until_tail):
    """The audit stored `"until": "2026-12-02T10:00\\u0000"` (200)."""
    t = table("LVHHHH", preset="async", last_wills=False)
    until = iso(timezone.now() + timedelta(days=2)).replace("Z", "") + until_tail
    body = announce(t, expect=400, until=until)
    assert body["code"] == "bad_request" and body["errors"] == {
        "until": ["Must not contain control characters."]
    }
    assert not player(t).vacation_on and player(t).vacation_until is None


@pytest.mark.parametrize("text", ["abc\u0000def", "abc\x07", "\x1b[31mred", "a\u009bb", "a\x7f"])
def test_a_text_field_with_a_control_character_is_a_400_naming_the_field(text):
    """Every string the API reads but a name (names are cleaned: tests/api/test_names.py)."""
    from rest_framework.test import APIClient

    response = APIClient().post(
        "/api/v1/auth/token/", {"username": text, "password": "pw"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == {"username": ["Must not contain control characters."]}
