"""A moved deadline tells the players who owe a move once ("The
deadline moved to ..."), never a second "Your move" (today: three identical e-mails for one
Mingling, one per extension); reminders turned on mid-window send that window's "Your move";
quiet hours hold reminders back until they end."""

from __future__ import annotations

import time
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.core import mail

from games import engine, services
from games.domain import quiet_hours
from games.models import Game
from games.notify import services as reminders
from tests.notify.conftest import api_client
from tests.notify.test_reminders import email_me, place_all_tokens, state_of

pytestmark = pytest.mark.django_db


def to(message) -> str:
    return message.to[0]


def test_two_extensions_send_one_deadline_moved_each_and_no_second_your_move(
    table, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6, mingling=3600)
    for user in lobby.users:
        email_me(user, f"{user.username}@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    place_all_tokens(lobby, 2, django_capture_on_commit_callbacks)  # seat 2 owes nothing now
    assert len(mail.outbox) == 6 and all("Your move" in m.subject for m in mail.outbox)
    mail.outbox.clear()

    host = lobby.users[0]
    for minutes in (30, 30):  # two extensions in a row, seconds apart
        with django_capture_on_commit_callbacks(execute=True):
            services.clock_extend(code=lobby.code, user=host, minutes=minutes)
    subjects = [m.subject for m in mail.outbox]
    assert not any("Your move" in s for s in subjects), subjects
    owing = sorted(f"{u.username}@example.com" for u in lobby.users if u != lobby.users[1])
    assert sorted(map(to, mail.outbox)) == sorted(owing * 2)  # one per extension, to who owes
    deadline = state_of(lobby).deadline
    when = datetime.fromtimestamp(deadline, ZoneInfo("UTC")).strftime("%a %H:%M")
    assert all(f"The deadline moved to {when} (UTC)" in s for s in subjects[-5:]), subjects
    # Any later change in the same window sends nothing more.
    mail.outbox.clear()
    place_all_tokens(lobby, 3, django_capture_on_commit_callbacks)
    assert mail.outbox == []


def test_a_pause_tells_the_players_once_and_the_resume_once_more(
    table, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6, mingling=3600)
    email_me(lobby.users[3], "dev@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.clock_pause(code=lobby.code, user=lobby.users[0])
    [paused] = mail.outbox
    assert "paused" in paused.subject and "Your move" not in paused.subject
    with django_capture_on_commit_callbacks(execute=True):
        services.clock_resume(code=lobby.code, user=lobby.users[0])
    assert len(mail.outbox) == 2 and "The deadline moved to" in mail.outbox[1].subject


def test_reminders_turned_on_mid_window_send_this_windows_your_move(
    table, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6, mingling=3600)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()  # nobody has reminders yet
    assert mail.outbox == []
    late, done = lobby.users[4], lobby.users[1]
    place_all_tokens(lobby, 2, django_capture_on_commit_callbacks)  # seat 2 has no move left
    for user in (late, done):
        email_me(user, f"{user.username}@example.com", email_enabled=False)
        with django_capture_on_commit_callbacks(execute=True):
            response = api_client(user).patch(
                "/api/v1/me/notifications/", {"email_enabled": True}, format="json"
            )
        assert response.status_code == 200, response.content
    [message] = mail.outbox  # seat 5 still owes a move; seat 2 does not
    assert to(message) == f"{late.username}@example.com"
    assert message.subject.startswith(f"Staked! game {lobby.code}: Your move (Mingling): closes ")
    # Saving the settings again sends nothing more in this window.
    with django_capture_on_commit_callbacks(execute=True):
        api_client(late).patch("/api/v1/me/notifications/", {"lead_minutes": 5}, format="json")
    assert len(mail.outbox) == 1


def test_quiet_hours_hold_your_move_until_they_end_then_send_it_once(
    table, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6, mingling=4 * 3600)  # its deadline well after the quiet hour
    email_me(lobby.users[2], "cleo@example.com")
    game = lobby.game
    hour = datetime.now(ZoneInfo("UTC")).hour
    game.options = {**game.options, "time_zone": "UTC"}
    game.options["quiet_hours"] = {"start": hour, "end": (hour + 1) % 24}
    game.save(update_fields=["options"])
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    assert mail.outbox == []  # quiet: held back
    assert engine.pending(state_of(lobby), 3)
    quiet_over = quiet_hours.quiet_end(time.time(), lobby.game.options)
    reminders.sweep(now=quiet_over - 60)
    assert mail.outbox == []
    reminders.sweep(now=quiet_over + 1)
    [message] = mail.outbox
    assert "Your move" in message.subject
    reminders.sweep(now=quiet_over + 61)
    assert len(mail.outbox) == 1


def test_a_window_opened_before_the_clock_existed_is_not_announced_again_when_extended(
    table, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6, mingling=3600)
    email_me(lobby.users[3], "dev@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    Game.objects.filter(code=lobby.code).update(clock={})  # as a game running at the deploy
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.clock_extend(code=lobby.code, user=lobby.users[0], minutes=15)
    [message] = mail.outbox
    assert "The deadline moved to" in message.subject and "Your move" not in message.subject
