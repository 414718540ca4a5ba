"""The daily digest e-mail ("what to build beyond the fixes"): instead of an e-mail per
window, one e-mail a day at the player's own local hour listing every running game where they
are seated, "your move" first, with local deadlines and a signed seat link per game; sent once
a day however many sweeps run; per-window e-mails suppressed while it is on."""

from __future__ import annotations

import json
import re
import threading
import uuid
from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client

from games import services
from games.engine.table import role_deck
from games.models import Game
from games.notify import services as reminders
from games.notify import tasks
from games.notify.models import DigestLog, Preferences
from tests.notify.conftest import api_client
from tests.notify.test_reminders import (
    SECRET_WORDS,
    email_me,
    place_all_tokens,
    state_of,
    subscribe,
)

pytestmark = pytest.mark.django_db

PREFS = "/api/v1/me/notifications/"
# Tue 1 Dec 2026: Berlin is UTC+1, New York UTC-5, Tokyo UTC+9.
DAWN = datetime(2026, 12, 1, 6, 30, tzinfo=UTC)  # 07:30 in Berlin


def user(name: str):
    return get_user_model().objects.create_user(f"{name}-{uuid.uuid4().hex[:8]}")


class Seated:
    """A running six-seat game with `player` at seat 2 (five friends around them)."""

    def __init__(self, player, mingling: int):
        friends = [user("f") for _ in range(5)]
        roles = {str(seat): role for seat, role in enumerate(role_deck(6), start=1)}
        game = services.game_create(
            host=friends[0], options={"roles": roles, "timers": {"mingling": mingling}}, name="f0"
        )
        services.game_join(code=game.code, user=player, name="Ana")
        for i, friend in enumerate(friends[1:], start=1):
            services.game_join(code=game.code, user=friend, name=f"f{i}")
        services.game_start(code=game.code, user=friends[0])
        self.code, self.users = game.code, [friends[0], player, *friends[1:]]

    @property
    def game(self) -> Game:
        return Game.objects.get(code=self.code)


def digest_me(player, zone: str = "Europe/Berlin", hour: int = 8, **prefs) -> None:
    email_me(
        player,
        f"{player.username}@example.com",
        email_mode="daily_digest",
        digest_hour=hour,
        time_zone=zone,
        **prefs,
    )


def sweep_at(moment: datetime) -> int:
    with time_machine.travel(moment, tick=False):
        return tasks.digest_sweep()


def test_the_daily_digest_lists_your_move_games_first_with_local_deadlines_and_seat_links(
    settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://staked.example"
    ana = user("ana")
    with time_machine.travel(DAWN, tick=False):
        done = Seated(ana, mingling=2 * 3600)  # ana placed every token: the others' move
        place_all_tokens(done, 2, django_capture_on_commit_callbacks)
        later = Seated(ana, mingling=12 * 3600)  # her move, closing last
        sooner = Seated(ana, mingling=5 * 3600)  # her move, closing first
        Seated(user("stranger"), mingling=3600)  # not hers: not listed
    digest_me(ana, hour=8)
    mail.outbox.clear()

    assert sweep_at(DAWN) == 0  # 07:30 in Berlin: not yet
    assert sweep_at(datetime(2026, 12, 1, 7, 5, tzinfo=UTC)) == 1  # 08:05 in Berlin

    [message] = mail.outbox
    assert message.to == [f"{ana.username}@example.com"]
    assert message.subject == "Staked! daily digest: 3 games, your move in 2 of 3"
    body = message.body
    codes = [sooner.code, later.code, done.code]
    assert [body.index(f"game {code} ") for code in codes] == sorted(
        body.index(f"game {code} ") for code in codes
    )
    # Deadlines in Berlin time, in the games' own words: 06:30 UTC + 5 h = 12:30 in Berlin.
    assert (
        f"Your move in game {sooner.code} (Mingling): closes Tue 1 Dec 12:30 (in 4 h 25 min)."
        in body
    )
    assert f"Your move in game {later.code} (Mingling): closes Tue 1 Dec 19:30 (in " in body
    assert f"Waiting for the others in game {done.code} (Mingling): closes Tue 1 Dec 09:30" in body
    assert "UTC" not in body.split("You get this")[0]
    for code in codes:  # a signed link to her seat at each game
        assert f"https://staked.example/g/{code}/continue/" in body
    assert body.count("/continue/") == 3
    assert "Stop them: https://staked.example/me/reminders/unsubscribe/" in body
    assert message.extra_headers["List-Unsubscribe"].startswith(
        "<https://staked.example/me/reminders/unsubscribe/"
    )
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert not SECRET_WORDS.search(message.subject + body)
    assert DigestLog.objects.get(user=ana).games == 3


def test_a_seat_link_in_the_digest_signs_the_player_in_to_that_seat(settings):
    settings.SITE_URL = "https://staked.example"
    ana = user("ana")
    with time_machine.travel(DAWN, tick=False):
        game = Seated(ana, mingling=12 * 3600)
    digest_me(ana)
    sweep_at(datetime(2026, 12, 1, 7, 5, tzinfo=UTC))
    [message] = mail.outbox
    [path] = re.findall(rf"https://staked\.example(/g/{game.code}/continue/\S+)", message.body)
    from django.test import Client

    with time_machine.travel(datetime(2026, 12, 1, 7, 6, tzinfo=UTC), tick=False):
        response = Client().post(path, follow=True)
    assert response.status_code == 200
    assert response.wsgi_request.user.pk == ana.pk


def test_the_daily_digest_is_sent_once_a_day_however_many_sweeps_run():
    ana = user("ana")
    with time_machine.travel(DAWN, tick=False):
        Seated(ana, mingling=3 * 24 * 3600)
    digest_me(ana)
    for minute in (5, 15, 25):
        sweep_at(datetime(2026, 12, 1, 7, minute, tzinfo=UTC))
    assert len(mail.outbox) == 1
    prefs = Preferences.objects.get(user=ana)
    day = datetime(2026, 12, 1).date()
    assert reminders.send_digest(prefs, day, DAWN.timestamp()) == 0  # claimed: nothing more
    assert len(mail.outbox) == 1
    assert sweep_at(datetime(2026, 12, 2, 7, 5, tzinfo=UTC)) == 1  # the next day, one more
    assert len(mail.outbox) == 2
    assert list(DigestLog.objects.filter(user=ana).values_list("day", flat=True)) == [
        day,
        datetime(2026, 12, 2).date(),
    ]


@pytest.mark.django_db(transaction=True)
def test_two_beats_sweeping_at_once_send_one_digest():
    ana = user("ana")
    with time_machine.travel(DAWN, tick=False):
        Seated(ana, mingling=3 * 24 * 3600)
    digest_me(ana)
    barrier = threading.Barrier(2, timeout=60)
    prefs = Preferences.objects.get(user=ana)
    day = datetime(2026, 12, 1).date()
    results: list[int] = []

    def beat():
        try:
            barrier.wait()
            results.append(reminders.send_digest(prefs, day, DAWN.timestamp()))
        finally:
            connection.close()

    threads = [threading.Thread(target=beat) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sorted(results) == [0, 1]
    assert len(mail.outbox) == 1
    assert DigestLog.objects.filter(user=ana).count() == 1


def test_no_digest_when_nothing_is_running():
    ana = user("ana")
    lobby = services.game_create(host=ana, options={}, name="Ana")  # a lobby is not running
    assert Game.objects.get(code=lobby.code).status == Game.Status.LOBBY
    digest_me(ana)
    assert sweep_at(datetime(2026, 12, 1, 7, 5, tzinfo=UTC)) == 0
    assert mail.outbox == []
    assert DigestLog.objects.get(user=ana).games == 0  # the day is done: no mail at 15:00 either


def test_the_digest_hour_is_the_players_own_local_hour_in_every_time_zone():
    people = {zone: user(zone.split("/")[-1] or "utc") for zone in ("Asia/Tokyo", "Europe/Berlin")}
    people["America/New_York"] = user("ny")
    people[""] = user("nozone")  # no zone known: UTC
    with time_machine.travel(datetime(2026, 11, 30, 12, 0, tzinfo=UTC), tick=False):
        for player in people.values():
            Seated(player, mingling=7 * 24 * 3600)
    for zone, player in people.items():
        digest_me(player, zone=zone, hour=8)
    mail.outbox.clear()

    def sent_to(moment: datetime) -> set[str]:
        before = len(mail.outbox)
        sweep_at(moment)
        names = {m.to[0] for m in mail.outbox[before:]}
        return {
            zone for zone, player in people.items() if f"{player.username}@example.com" in names
        }

    # 08:05 on Tue 1 Dec in Tokyo; Berlin 00:05, New York 18:05 on Mon (10 h after its 08:00).
    assert sent_to(datetime(2026, 11, 30, 23, 5, tzinfo=UTC)) == {"Asia/Tokyo"}
    assert sent_to(datetime(2026, 12, 1, 7, 5, tzinfo=UTC)) == {"Europe/Berlin"}
    assert sent_to(datetime(2026, 12, 1, 8, 5, tzinfo=UTC)) == {""}
    assert sent_to(datetime(2026, 12, 1, 12, 55, tzinfo=UTC)) == set()  # 07:55 in New York
    assert sent_to(datetime(2026, 12, 1, 13, 5, tzinfo=UTC)) == {"America/New_York"}
    assert len(mail.outbox) == 4
    tokyo = next(m for m in mail.outbox if people["Asia/Tokyo"].username in m.to[0])
    assert "Your games at Tue 1 Dec 08:05:" in tokyo.body
    utc = next(m for m in mail.outbox if people[""].username in m.to[0])
    assert "Your games at Tue 1 Dec 08:05 UTC:" in utc.body


def test_a_digest_due_while_the_worker_was_down_goes_out_late_but_not_the_next_evening():
    ana, bo = user("ana"), user("bo")
    with time_machine.travel(DAWN, tick=False):
        Seated(ana, mingling=3 * 24 * 3600)
        Seated(bo, mingling=3 * 24 * 3600)
    digest_me(ana, hour=8)
    # 11:55 in Berlin: four hours late, still that morning's digest.
    assert sweep_at(datetime(2026, 12, 1, 10, 55, tzinfo=UTC)) == 1
    # Turned on at 22:00 for 08:00: nothing that evening, the first one the next morning.
    digest_me(bo, hour=8)
    assert sweep_at(datetime(2026, 12, 1, 21, 0, tzinfo=UTC)) == 0
    assert sweep_at(datetime(2026, 12, 2, 7, 0, tzinfo=UTC)) == 2


def test_per_window_emails_stop_while_the_digest_is_on_and_come_back_when_switched_back(
    table, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6, mingling=3600)
    ana, bo = lobby.users[1], lobby.users[2]
    digest_me(ana)
    email_me(bo, f"{bo.username}@example.com")  # an e-mail per window, as before
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    assert [m.to[0] for m in mail.outbox] == [f"{bo.username}@example.com"]
    # "Deadline soon" and "deadline moved" are per-window e-mails too: none to her.
    state = state_of(lobby)
    reminders.remind_deadline(
        lobby.game.id, reminders.window_of(lobby.game, state), state.deadline - 60
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.clock_extend(code=lobby.code, user=lobby.users[0], minutes=30)
    assert any("The deadline moved" in m.subject for m in mail.outbox)  # bo is told
    assert all(m.to[0] != f"{ana.username}@example.com" for m in mail.outbox)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client(ana).patch(PREFS, {"email_mode": "each_window"}, format="json")
    assert response.status_code == 200, response.content
    [message] = mail.outbox  # this window's "your move", at once
    assert message.to == [f"{ana.username}@example.com"]
    assert message.subject.startswith(f"Staked! game {lobby.code}: Your move (Mingling): closes ")


def test_push_reminders_are_unchanged_by_the_digest(
    table, vapid, push_service, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6, mingling=3600)
    ana = lobby.users[1]
    subscribe(ana, push_service)
    digest_me(ana)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    assert len(push_service.requests) == 1  # "your move" on her phone, as before
    assert mail.outbox == []  # and no e-mail: that waits for the digest


def test_the_away_notice_is_still_emailed_with_the_digest_on(
    table, eager_tasks, django_capture_on_commit_callbacks
):
    from games.models import Player

    lobby = table(6, mingling=3600)
    ana = lobby.users[1]
    digest_me(ana)
    lobby.start()
    Player.objects.filter(game=lobby.game, seat=2).update(afk=True)
    assert reminders.remind_away(lobby.game.id, 2, "w")
    [message] = mail.outbox
    assert "You seem to be away" in message.body


def test_the_digest_settings_round_trip_through_the_api_and_bad_input_is_refused():
    ana = user("ana")
    client = api_client(ana)
    response = client.patch(PREFS, {"email_mode": "daily_digest", "digest_hour": 7}, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["email_mode"], response.json()["digest_hour"]) == ("daily_digest", 7)
    assert client.get(PREFS).json()["digest_hour"] == 7
    before = client.get(PREFS).json()
    for body, field in [
        ({"email_mode": "weekly"}, "email_mode"),
        ({"email_mode": None}, "email_mode"),
        ({"digest_hour": 24}, "digest_hour"),
        ({"digest_hour": -1}, "digest_hour"),
        ({"digest_hour": "8"}, "digest_hour"),
        ({"digest_hour": 8.5}, "digest_hour"),
        ({"digest_time": "08:00"}, "digest_time"),  # unknown fields are refused
    ]:
        response = client.patch(PREFS, body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert response.json()["code"] in {"bad_request", "unknown_fields"}, response.json()
        assert field in response.json()["errors"], (body, response.json())
        assert client.get(PREFS).json() == before


def test_the_openapi_schema_documents_the_digest_fields():
    from rest_framework.test import APIClient

    schema = APIClient().get("/api/v1/schema/", {"format": "json"}).json()
    fields = schema["components"]["schemas"]["Preferences"]["properties"]
    assert fields["digest_hour"]["minimum"] == 0
    assert fields["digest_hour"]["maximum"] == 23
    [ref] = fields["email_mode"]["allOf"]
    enum = schema["components"]["schemas"][ref["$ref"].rsplit("/", 1)[-1]]["enum"]
    assert set(enum) == {"each_window", "daily_digest"}


def test_the_reminders_page_saves_the_digest_and_refuses_a_bad_hour(client):
    ana = user("ana")
    client.force_login(ana)
    response = client.post(
        "/me/reminders", {"lead_minutes": "10", "email_mode": "daily_digest", "digest_hour": "6"}
    )
    assert response.status_code == 302
    prefs = Preferences.objects.get(user=ana)
    assert (prefs.email_mode, prefs.digest_hour) == ("daily_digest", 6)
    page = client.get("/me/reminders").content.decode()
    assert re.search(r'<input[^>]*value="daily_digest"[^>]*checked', page)
    assert re.search(r'<option value="6" selected>06:00</option>', page)
    for bad in ({"digest_hour": "24"}, {"email_mode": "weekly"}, {"digest_hour": "soon"}):
        response = client.post("/me/reminders", {"lead_minutes": "10", **bad})
        assert response.status_code == 400
        prefs.refresh_from_db()
        assert (prefs.email_mode, prefs.digest_hour) == ("daily_digest", 6)
    # Left out (an older form): kept as it is.
    assert client.post("/me/reminders", {"lead_minutes": "5"}).status_code == 302
    prefs.refresh_from_db()
    assert (prefs.email_mode, prefs.digest_hour, prefs.lead_minutes) == ("daily_digest", 6, 5)


# --- the time zone of a player who played before turning e-mail on ------------------------------

# Tue 1 Dec 2026, 22:05 UTC: 23:05 in Berlin (her digest hour has come), but 22:05 in UTC (not
# yet: read as UTC, her 23:00 digest would wait another hour).
BERLIN_LATE = datetime(2026, 12, 1, 22, 5, tzinfo=UTC)


def played_in_berlin(player) -> tuple[Seated, Client]:
    """`player` sits in a running game and opened its page from a browser in Berlin, with no
    reminder settings yet (no row: the zone had nowhere to go)."""
    with time_machine.travel(DAWN, tick=False):
        seated = Seated(player, mingling=7 * 24 * 3600)
    browser = Client()
    browser.force_login(player)
    browser.cookies["tz"] = "Europe/Berlin"
    assert browser.get(f"/g/{seated.code}/").status_code == 200
    assert not Preferences.objects.filter(user=player).exists()
    return seated, browser


def test_a_player_who_played_then_turns_on_e_mail_gets_her_digest_hour_in_berlin():
    ana = user("ana")
    _, browser = played_in_berlin(ana)
    # The same hour, on the reminders page: e-mail on, one digest a day at 23:00.
    assert browser.get("/me/reminders").status_code == 200
    answer = browser.post(
        "/me/reminders",
        {
            "email_enabled": "on",
            "email": "ana@example.com",
            "lead_minutes": "10",
            "email_mode": "daily_digest",
            "digest_hour": "23",
        },
    )
    assert answer.status_code == 302
    Preferences.objects.filter(user=ana).update(email_confirmed_at=DAWN)  # she opened the link
    assert Preferences.objects.get(user=ana).time_zone == "Europe/Berlin"
    mail.outbox.clear()
    assert sweep_at(BERLIN_LATE) == 1
    [digest] = mail.outbox
    assert "Your games at Tue 1 Dec 23:05:" in digest.body  # her clock, not "22:05 UTC"


def test_a_row_made_by_an_api_client_after_playing_starts_in_the_zone_last_seen():
    """A client of its own sends no `tz` cookie: the zone her browser showed on the game page
    (remembered when the hour's "tried" mark was taken) is the new row's."""
    ana = user("ana")
    seated, browser = played_in_berlin(ana)
    answer = api_client(ana).patch(
        PREFS,
        {"email_enabled": True, "email": "ana@example.com", "email_mode": "daily_digest"}
        | {"digest_hour": 23},
        format="json",
    )
    assert answer.status_code == 200 and answer.json()["time_zone"] == "Europe/Berlin"
    Preferences.objects.filter(user=ana).update(email_confirmed_at=DAWN)
    browser.get(f"/g/{seated.code}/")  # within the hour: the mark is still there, nothing lost
    assert Preferences.objects.get(user=ana).time_zone == "Europe/Berlin"
    mail.outbox.clear()
    assert sweep_at(BERLIN_LATE) == 1


def test_the_reminders_page_saves_the_zone_of_the_browser_it_is_posted_from():
    """A row that already held another zone (her holiday in Tokyo) follows the browser that
    saves the settings, as a game page would; an API body that names a zone keeps its own."""
    ana = user("ana")
    Preferences.objects.create(user=ana, time_zone="Asia/Tokyo")
    browser = Client()
    browser.force_login(ana)
    browser.cookies["tz"] = "Europe/Berlin"
    assert browser.post("/me/reminders", {"lead_minutes": "10"}).status_code == 302
    assert Preferences.objects.get(user=ana).time_zone == "Europe/Berlin"
    answer = browser.patch(
        PREFS, json.dumps({"time_zone": "America/New_York"}), content_type="application/json"
    )
    assert answer.status_code == 200
    assert Preferences.objects.get(user=ana).time_zone == "America/New_York"
