"""Chat moderation in the admin asks first, can be undone, is in the
history, counts honestly, and never offers staff a channel they may not read."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from games.chat.models import Message
from tests.admin.conftest import bulk
from tests.factories import running_game

pytestmark = pytest.mark.django_db

LIST = reverse("admin:chat_message_changelist")


@pytest.fixture
def table_talk(db):
    game = running_game(6)
    rows = [
        Message.objects.create(
            game=game, channel="table", number=n, author_name=f"p{n}", text=f"message {n}"
        )
        for n in (1, 2)
    ]
    Message.objects.create(game=game, channel="den", number=1, author_name="p1", text="den talk")
    return rows


def history(message: Message) -> list[str]:
    return [
        e.get_change_message()
        for e in LogEntry.objects.filter(object_id=str(message.pk)).order_by("id")
    ]


def test_10_hide_asks_for_confirmation_first(root_client, table_talk):
    first = table_talk[0]
    page = root_client.post(LIST, {"action": "hide_messages", "_selected_action": [first.id]})
    html = page.content.decode()
    assert page.status_code == 200 and "Yes, I’m sure" in html
    assert "Hidden from the players: “message 1”" in html
    first.refresh_from_db()
    assert not first.hidden


def test_10_hide_and_show_again_are_both_in_the_history(root_client, table_talk):
    first = table_talk[0]
    bulk(root_client, LIST, "hide_messages", [first.id])
    first.refresh_from_db()
    assert first.hidden
    bulk(root_client, LIST, "unhide_messages", [first.id])
    first.refresh_from_db()
    assert not first.hidden and first.hidden_by is None
    assert history(first) == ["Hidden", "Shown again"]


def test_10_one_message_has_hide_and_show_again_buttons_behind_a_confirmation(
    root_client, table_talk
):
    first = table_talk[0]
    page = root_client.get(reverse("admin:chat_message_change", args=[first.id])).content
    hide = reverse("admin:chat_message_hide", args=[first.id])
    assert hide.encode() in page and b"<h1>Message " in page
    asked = root_client.get(hide).content.decode()
    assert f'action="{LIST}"' in asked and "Yes, I’m sure" in asked
    first.refresh_from_db()
    assert not first.hidden


def test_10_an_already_hidden_message_is_reported_as_already_hidden(root_client, table_talk):
    first, second = table_talk
    bulk(root_client, LIST, "hide_messages", [first.id])
    response = bulk(root_client, LIST, "hide_messages", [first.id, second.id], follow=True)
    html = response.content.decode()
    assert "1 message(s) hidden." in html
    assert "1 message(s) were already hidden: nothing to do." in html
    assert history(first) == ["Hidden"]


def test_10_staff_see_neither_ghosts_nor_den_filters_superusers_see_all(
    root_client, organiser_client, table_talk
):
    staff = organiser_client.get(LIST).content.decode()
    assert "By channel" not in staff and "Ghosts" not in staff and "den talk" not in staff
    assert "message 1" in staff
    root = root_client.get(LIST).content.decode()
    assert "By channel" in root and "Ghosts" in root and "Den" in root and "den talk" in root
    den = Message.objects.get(channel="den")
    hide_den = reverse("admin:chat_message_hide", args=[den.id])
    assert organiser_client.get(hide_den).status_code == 404


def test_10_long_messages_are_shortened_in_the_list(root_client, table_talk):
    Message.objects.filter(id=table_talk[0].id).update(text="word " * 100)
    html = root_client.get(LIST).content.decode()
    assert "word " * 100 not in html and "…" in html
