"""When players are reminded: "your move" once per window, "deadline soon" only while they still
have a move, by Web Push (to a local fake push service) and by e-mail (Django's locmem outbox)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import http_ece
import pytest
from django.core import mail

from games import engine, services
from games.engine import state_from_json
from games.notify import services as reminders
from games.notify import tasks
from games.notify.models import NotificationLog, Preferences, PushSubscription
from tests.notify.conftest import BrowserKeys, api_client

pytestmark = pytest.mark.django_db

# Nothing a reminder says may hint at a role (or anything else secret).
SECRET_WORDS = re.compile(r"hunter|vampire|lord|role|alpha|ghost|relic", re.IGNORECASE)
LINKS = re.compile(r"https?://[^\s\"]+")


def secret_words(text: str) -> list[str]:
    """The secret words in what a reminder says, its links left out: a link's signed token is
    random letters, which now and then spell "lord" or "role"."""
    return SECRET_WORDS.findall(LINKS.sub("", text))


def subscribe(user, push_service, keys=None) -> BrowserKeys:
    """Subscribe a browser through the API, as static/js/reminders.js does."""
    keys = keys or BrowserKeys()
    body = keys.subscription(push_service.endpoint())
    response = api_client(user).post("/api/v1/me/push-subscriptions/", body, format="json")
    assert response.status_code == 201, response.json()
    return keys


def email_me(user, address: str, **prefs) -> None:
    """E-mail reminders on, to an address its owner confirmed (test_email_confirmation.py)."""
    confirmed = datetime.now(UTC)
    Preferences.objects.update_or_create(
        user=user,
        defaults={
            "email": address,
            "email_enabled": True,
            "email_confirmed_at": confirmed,
            **prefs,
        },
    )


def state_of(table):
    return state_from_json(table.game.state)


def place_all_tokens(table, seat: int, committed) -> None:
    """Seat `seat` places every token it holds (the first legal choice each time), each move
    committed (`committed` is pytest-django's django_capture_on_commit_callbacks)."""
    user = table.users[seat - 1]
    while True:
        moves = [p for p in engine.pending(state_of(table), seat) if p["action"] == "place_token"]
        if not moves:
            return
        options = moves[0]["options"]
        args = {"token": options["tokens"][0], "target": options["targets"][0]}
        with committed(execute=True):
            services.action_apply(code=table.code, user=user, name="place_token", args=args)


def test_a_push_subscription_gets_an_encrypted_vapid_signed_post_when_it_is_your_move(
    table, vapid, push_service, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6)
    keys = subscribe(lobby.users[1], push_service)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()  # Mingling: everyone has tokens to place

    [request] = push_service.requests
    headers = {k.lower(): v for k, v in request["headers"].items()}
    assert request["method"] == "POST"
    assert headers["content-encoding"] == "aes128gcm"
    assert int(headers["ttl"]) > 0
    assert headers["authorization"].startswith("vapid t=")
    assert f"k={vapid.VAPID_PUBLIC_KEY}" in headers["authorization"]
    assert request["body"]
    # Only the browser's keys open it: the text names the game and the phase, no secret.
    payload = json.loads(
        http_ece.decrypt(
            request["body"],
            private_key=keys.private_key,
            auth_secret=keys.auth_secret,
            version="aes128gcm",
        )
    )
    assert payload["title"] == f"Staked! game {lobby.code}"
    assert payload["body"].startswith("Your move (Mingling), ")
    assert payload["url"] == f"/g/{lobby.code}/"
    assert not secret_words(json.dumps(payload))


def test_a_subscription_the_push_service_forgot_410_is_deleted(
    table, vapid, push_service, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6)
    subscribe(lobby.users[1], push_service)
    push_service.status = 410
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    assert len(push_service.requests) == 1
    assert not PushSubscription.objects.exists()


def test_a_push_service_error_is_recorded_and_the_subscription_kept(
    table, vapid, push_service, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6)
    subscribe(lobby.users[1], push_service)
    push_service.status = 500
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    subscription = PushSubscription.objects.get()
    assert subscription.last_error.startswith("500")
    assert subscription.last_error_at is not None


def test_an_email_reminder_names_the_game_and_phase_and_no_role(
    table, eager_tasks, django_capture_on_commit_callbacks, settings
):
    settings.SITE_URL = "https://staked.example"
    lobby = table(6)
    for user in lobby.users:  # every role at the table gets one
        email_me(user, f"{user.username}@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"{u.username}@example.com" for u in lobby.users
    )
    for message in mail.outbox:
        assert message.subject.startswith(
            f"Staked! game {lobby.code}: Your move (Mingling): closes "
        )
        assert f"https://staked.example/g/{lobby.code}/continue/" in message.body
        assert "https://staked.example/me/reminders" in message.body
        assert not secret_words(message.subject + message.body)


def test_players_who_chose_no_channel_and_bots_get_nothing(
    table, vapid, push_service, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(5, bots=1)
    email_me(lobby.users[0], "host@example.com", email_enabled=False)
    Preferences.objects.create(user=lobby.users[1], push_enabled=False)
    subscribe(lobby.users[1], push_service)  # subscribed, but push turned off
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    assert mail.outbox == []
    assert push_service.requests == []


def test_your_move_is_sent_once_per_window_not_on_every_change(
    table, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6, mingling=600)
    for user in lobby.users:
        email_me(user, f"{user.username}@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    place_all_tokens(lobby, 1, django_capture_on_commit_callbacks)  # many changes, one window
    place_all_tokens(lobby, 2, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 6

    # The window closes; whoever has a move in the next one hears about it once more.
    state = state_of(lobby)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_expire(game_id=lobby.game.id, now=state.deadline + 1)
    after = state_of(lobby)
    assert reminders.window_key(after) != reminders.window_key(state)
    again = sorted(
        f"{user.username}@example.com"
        for seat, user in enumerate(lobby.users, start=1)
        if engine.pending(after, seat)
    )
    assert again, "the test needs a next window with moves to make"
    assert sorted(m.to[0] for m in mail.outbox[6:]) == again


def test_the_deadline_reminder_is_queued_for_the_lead_time_before_the_deadline(
    table, eager_tasks, django_capture_on_commit_callbacks, monkeypatch
):
    queued = []
    monkeypatch.setattr(
        tasks.deadline_soon,
        "apply_async",
        lambda args, eta, retry: queued.append((args, eta)),
    )
    lobby = table(6, mingling=1800)
    email_me(lobby.users[0], "a@example.com", lead_minutes=10)
    email_me(lobby.users[1], "b@example.com", lead_minutes=20)
    email_me(lobby.users[2], "c@example.com", lead_minutes=0)  # no deadline reminder
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    place_all_tokens(lobby, 4, django_capture_on_commit_callbacks)  # no second ETA task
    state = state_of(lobby)
    window = reminders.window_key(state)
    assert sorted(queued, key=lambda q: q[1]) == [
        ((lobby.game.id, window), datetime.fromtimestamp(state.deadline - 20 * 60, UTC)),
        ((lobby.game.id, window), datetime.fromtimestamp(state.deadline - 10 * 60, UTC)),
    ]


def test_the_deadline_reminder_goes_only_to_players_who_still_have_a_move(
    table, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6, mingling=1800)
    for user in lobby.users[:3]:
        email_me(user, f"{user.username}@example.com", lead_minutes=10)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    place_all_tokens(lobby, 2, django_capture_on_commit_callbacks)  # seat 2 has no move left
    mail.outbox.clear()
    state = state_of(lobby)
    window = reminders.window_key(state)

    assert reminders.remind_deadline(lobby.game.id, window, now=state.deadline - 11 * 60) == 0
    assert reminders.remind_deadline(lobby.game.id, window, now=state.deadline - 9 * 60) == 2
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"{lobby.users[i].username}@example.com" for i in (0, 2)
    )
    for message in mail.outbox:
        assert "Still your move (Mingling): closes " in message.subject
        assert message.subject.endswith("(in 9 min).")
        assert not secret_words(message.subject + message.body)
    # The ETA task, a redelivery and the sweep together still send it once.
    assert reminders.remind_deadline(lobby.game.id, window, now=state.deadline - 8 * 60) == 0
    assert reminders.sweep(now=state.deadline - 7 * 60) == 0
    assert len(mail.outbox) == 2


def test_a_deadline_reminder_for_a_window_that_closed_sends_nothing(
    table, eager_tasks, django_capture_on_commit_callbacks
):
    lobby = table(6, mingling=1800)
    email_me(lobby.users[0], "a@example.com", lead_minutes=10)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    state = state_of(lobby)
    window = reminders.window_key(state)
    services.game_expire(game_id=lobby.game.id, now=state.deadline + 1)
    mail.outbox.clear()
    assert reminders.remind_deadline(lobby.game.id, window, now=state.deadline - 60) == 0
    assert mail.outbox == []


def test_the_sweep_reminds_when_no_eta_task_was_queued(table):
    """A 12-hour window is too far ahead for an ETA task (and a worker may lose one): the
    periodic sweep sends the reminder, to a player who never got "your move" too."""
    lobby = table(6, mingling=12 * 3600)
    lobby.start()  # on-commit callbacks do not run here: no task was queued
    email_me(lobby.users[3], "dev@example.com", lead_minutes=30)
    state = state_of(lobby)
    assert reminders.sweep(now=state.deadline - 31 * 60) == 0
    assert reminders.sweep(now=state.deadline - 29 * 60) == 1
    assert reminders.sweep(now=state.deadline - 28 * 60) == 0
    [message] = mail.outbox
    assert message.to == ["dev@example.com"]
    assert "(in 29 min)" in message.subject
    assert NotificationLog.objects.filter(kind="deadline").count() == 1


def test_a_window_shorter_than_the_lead_gets_no_second_nudge(
    table, eager_tasks, django_capture_on_commit_callbacks
):
    """Live play (3-minute Mingling, 10-minute lead): "your move" already said how little time
    is left; a "deadline soon" a minute later would be noise."""
    lobby = table(6, mingling=180)
    email_me(lobby.users[0], "a@example.com", lead_minutes=10)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    state = state_of(lobby)
    assert reminders.sweep(now=state.deadline - 60) == 0
    [message] = mail.outbox
    assert "(in 2 min)" in message.subject or "(in 3 min)" in message.subject


def test_a_dead_broker_never_fails_a_move(
    table, monkeypatch, eager_tasks, django_capture_on_commit_callbacks
):
    def broker_down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.window_changed, "apply_async", broker_down)
    lobby = table(6)
    email_me(lobby.users[0], "a@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        lobby.start()
    assert lobby.game.status == "running"
    assert mail.outbox == []  # the sweep reminds before the deadline instead
