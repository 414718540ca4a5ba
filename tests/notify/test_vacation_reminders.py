"""Vacation mode: a player whose seat a bot holds for their vacation is not sent
"Your move" (the bot makes it); the others are."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.models import Player
from tests.notify.test_reminders import email_me

pytestmark = pytest.mark.django_db


def test_a_player_on_vacation_gets_no_your_move_reminder(
    table, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6)
    for user in lobby.users:
        email_me(user, f"{user.username}@example.com")
    away = lobby.users[1]
    now = timezone.now()
    Player.objects.filter(game__code=lobby.code, user=away).update(
        vacation_from=now, vacation_until=now + timedelta(days=2), vacation_on=True
    )
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    sent = {m.to[0] for m in mail.outbox if "Your move" in m.subject}
    assert f"{away.username}@example.com" not in sent
    assert sent == {f"{u.username}@example.com" for u in lobby.users if u != away}
