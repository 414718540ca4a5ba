"""The table talk on the pages: the panel on the game page, its poll, its own page, hiding and
the admin. Every check of a secret looks at every page the viewer can ask for."""

from __future__ import annotations

import pytest
from django.test import Client

from games.chat.models import Message
from games.models import Game
from tests.chat.conftest import finish, make_ghost_of_seat_2

pytestmark = pytest.mark.django_db

SECRET = "bite seat 5 tonight"
HTMX = {"HX-Request": "true"}


def send(phone, code: str, channel: str, text: str, expect: int = 200):
    return phone.post(f"/g/{code}/chat/{channel}/", {"text": text}, expect=expect)


def pages_of(phone, code: str) -> str:
    """Everything this phone's pages show of the game: the game page, its htmx partial, each
    channel's panel and page, and each channel's poll."""
    client = phone.client
    parts = [
        client.get(f"/g/{code}/").content.decode(),
        client.get(f"/g/{code}/changed?v=0", headers=HTMX).content.decode(),
    ]
    for channel in ("table", "ghosts", "den"):
        url = f"/g/{code}/chat/{channel}/"
        parts.append(client.get(url).content.decode())
        parts.append(client.get(url, headers=HTMX).content.decode())
        parts.append(client.get(f"{url}messages", headers=HTMX).content.decode())
    return "\n".join(parts)


def test_chat_panel_is_on_the_game_page_outside_the_polled_game_div(phones_at):
    t = phones_at("LVHHHH")
    send(t.phone(3), t.code, "table", "Hello table")
    page = t.page(4)
    assert 'id="chat"' in page and "Hello table" in page
    game_div, _, after = page.partition('id="chat"')
    assert "chat-form" not in game_div and "chat-form" in after
    partial = t.phone(4).client.get(f"/g/{t.code}/changed?v=0", headers=HTMX).content.decode()
    assert 'id="game"' in partial and 'id="chat"' not in partial


def test_chat_den_message_never_reaches_a_hunter(phones_at):
    t = phones_at("LVVHHHHH", den_chat=True)  # the Lord (seat 1) does not know the Vampires
    send(t.phone(2), t.code, "den", SECRET)
    assert SECRET in t.phone(3).client.get(f"/g/{t.code}/chat/den/").content.decode()
    for seat in (1, 4, 5, 6, 7, 8):
        seen = pages_of(t.phone(seat), t.code)
        assert SECRET not in seen
        assert f'href="/g/{t.code}/chat/den/"' not in t.page(seat)
    refused = t.phone(4).client.get(f"/g/{t.code}/chat/den/", headers=HTMX)
    assert refused.status_code == 403 and "Only the Vampires" in refused.content.decode()


def test_chat_a_hunter_posting_to_the_den_is_refused_and_nothing_is_stored(phones_at):
    t = phones_at("LVVHHHHH", den_chat=True)
    response = send(t.phone(4), t.code, "den", "let me in", expect=403)
    assert "Only the Vampires" in response.content.decode()
    assert not Message.objects.exists()


def test_chat_ghosts_message_never_reaches_the_living(phones_at):
    t = phones_at("LVHHHH")
    make_ghost_of_seat_2(t)
    send(t.phone(2), t.code, "ghosts", "I dial seat 3")
    ghost_page = t.phone(2).client.get(f"/g/{t.code}/chat/ghosts/").content.decode()
    assert "I dial seat 3" in ghost_page
    for seat in (1, 3, 4, 5, 6):
        assert "I dial seat 3" not in pages_of(t.phone(seat), t.code)
    send(t.phone(3), t.code, "ghosts", "hello?", expect=403)
    assert Message.objects.filter(channel="ghosts").count() == 1


def test_chat_dying_opens_the_ghosts_tab_through_the_poll(phones_at):
    t = phones_at("LVHHHH")
    client = t.phone(2).client
    first = client.get(f"/g/{t.code}/chat/table/messages?s=x&v=x", headers=HTMX).content.decode()
    assert "/chat/ghosts/" not in first
    make_ghost_of_seat_2(t)
    polled = client.get(f"/g/{t.code}/chat/table/messages?s=x&v=x", headers=HTMX).content.decode()
    assert 'hx-swap-oob="true"' in polled and f"/g/{t.code}/chat/ghosts/" in polled


def test_chat_after_the_game_every_seat_reads_the_den_and_the_ghosts(phones_at):
    t = phones_at("LVHHHH", den_chat=True)
    send(t.phone(2), t.code, "den", SECRET)
    make_ghost_of_seat_2(t)
    send(t.phone(2), t.code, "ghosts", "I dial seat 3")
    assert SECRET not in pages_of(t.phone(4), t.code)
    finish(t)
    assert t.game.status == Game.Status.FINISHED
    seen = pages_of(t.phone(4), t.code)
    assert SECRET in seen and "I dial seat 3" in seen
    send(t.phone(2), t.code, "den", "gg", expect=403)


def test_chat_hostile_input_is_escaped_on_every_page(phones_at):
    t = phones_at("LVHHHH")
    hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    send(t.phone(3), t.code, "table", hostile)
    for html in (
        t.page(4),
        t.phone(4).client.get(f"/g/{t.code}/chat/table/").content.decode(),
        t.phone(4).client.get(f"/g/{t.code}/chat/table/messages", headers=HTMX).content.decode(),
    ):
        assert "<script>alert(1)" not in html and "<img src=x" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x" in html


def test_chat_the_poll_answers_204_until_something_changes(
    phones_at, django_capture_on_commit_callbacks
):
    def committed():  # the cache keys move when the transaction commits
        return django_capture_on_commit_callbacks(execute=True)

    t = phones_at("LVHHHH")
    with committed():
        send(t.phone(3), t.code, "table", "first")
    url = _poll_url(t.page(4))
    assert "/chat/table/messages?s=" in url
    assert t.phone(4).client.get(url, headers=HTMX).status_code == 204
    with committed():  # a move changes the game: the tabs may change, so the list is sent
        t.phone(3).place(t.code, "S4")
    assert t.phone(4).client.get(url, headers=HTMX).status_code == 200
    url = _poll_url(t.page(4))
    assert t.phone(4).client.get(url, headers=HTMX).status_code == 204
    with committed():
        send(t.phone(5), t.code, "table", "second")
    response = t.phone(4).client.get(url, headers=HTMX)
    assert response.status_code == 200 and "second" in response.content.decode()
    url = _poll_url(t.page(4))
    with committed():
        t.phone(1).post(f"/g/{t.code}/chat/table/1/hide")
    response = t.phone(4).client.get(url, headers=HTMX)
    assert response.status_code == 200 and "first" not in response.content.decode()


def _poll_url(page: str) -> str:
    start = page.index('id="chat-list"')
    poll = page[start:].split('hx-get="', 1)[1]
    return poll.split('"', 1)[0].replace("&amp;", "&")


def test_chat_sending_never_bumps_the_game_version(phones_at):
    t = phones_at("LVHHHH")
    version = t.game.version
    send(t.phone(3), t.code, "table", "hi")
    assert t.game.version == version


def test_chat_a_form_post_without_htmx_redirects_to_the_chat_page(phones_at):
    t = phones_at("LVHHHH")
    response = t.phone(3).post(
        f"/g/{t.code}/chat/table/", {"text": "no js"}, htmx=False, expect=302
    )
    assert response["Location"] == f"/g/{t.code}/chat/table/"
    page = t.phone(3).client.get(response["Location"]).content.decode()
    assert "no js" in page and "<html" in page and 'name="csrfmiddlewaretoken"' in page


def test_chat_a_too_long_or_empty_message_is_refused_and_kept_in_the_form(phones_at):
    t = phones_at("LVHHHH")
    html = send(t.phone(3), t.code, "table", "y" * 501, expect=400).content.decode()
    assert "At most 500 characters" in html and "y" * 501 in html
    send(t.phone(3), t.code, "table", "   ", expect=400)
    assert not Message.objects.exists()
    assert 'maxlength="500"' in t.page(3)


def test_chat_too_many_messages_are_refused_with_429(phones_at):
    t = phones_at("LVHHHH")
    for n in range(5):
        send(t.phone(3), t.code, "table", f"spam {n}")
    html = send(t.phone(3), t.code, "table", "spam 6", expect=429).content.decode()
    assert "Too many messages" in html
    assert Message.objects.count() == 5


def test_chat_the_host_hides_a_message_from_the_page(phones_at):
    t = phones_at("LVHHHH")
    send(t.phone(3), t.code, "table", "something rude")
    assert "/chat/table/1/hide" in t.page(1)  # seat 1 hosts
    assert "/chat/table/1/hide" not in t.page(3)
    refused = t.phone(3).post(f"/g/{t.code}/chat/table/1/hide", expect=403)
    assert "Only the host" in refused.content.decode()
    t.phone(1).post(f"/g/{t.code}/chat/table/1/hide")
    for seat in range(2, 7):
        html = pages_of(t.phone(seat), t.code)
        assert "something rude" not in html and "A message was hidden." in html
    host = t.page(1)
    assert "something rude" in host and "hidden</span>" in host


def test_chat_spectators_see_the_table_talk_only_where_the_host_allows(phones_at, stranger):
    from tests.web.conftest import Phone

    closed = phones_at("LVHHHH")
    send(closed.phone(1), closed.code, "table", "hi all")
    watcher = Phone("Zed")
    page = watcher.page(closed.code)
    assert 'id="game"' in page and 'id="chat"' not in page and "hi all" not in page
    assert watcher.client.get(f"/g/{closed.code}/chat/table/").status_code == 403

    shown = phones_at("LVHHHH", spectator_chat=True)
    send(shown.phone(1), shown.code, "table", "hi all")
    page = watcher.page(shown.code)
    assert "hi all" in page and "chat-form" not in page
    assert f"/g/{shown.code}/chat/den/" not in page and f"/g/{shown.code}/chat/ghosts/" not in page
    watcher.post(f"/g/{shown.code}/chat/table/", {"text": "me too"}, expect=403)


def test_chat_the_host_opens_the_den_from_the_lobby(phones_at):
    t = phones_at("LVHHHH", start=False)
    assert 'name="den_chat"' in t.page(1)
    form = {"preset": "live", "last_wills": "on", "den_chat": "on", "spectator_chat": "on"}
    t.phone(1).post(f"/g/{t.code}/options", form)
    options = t.game.options
    assert options["den_chat"] is True and options["spectator_chat"] is True
    assert "the Vampires' den" in t.page(2)
    send(t.phone(2), t.code, "table", "ready?")  # the lobby talks at the table
    assert "ready?" in t.page(5)


def test_chat_staff_hide_through_the_admin_and_see_only_the_table(phones_at, staff_user):
    from django.contrib.auth.models import Permission

    t = phones_at("LVHHHH", den_chat=True)
    send(t.phone(3), t.code, "table", "rude at the table")
    send(t.phone(2), t.code, "den", SECRET)
    staff_user.user_permissions.set(Permission.objects.filter(content_type__app_label="chat"))
    admin = Client()
    admin.force_login(staff_user)
    listing = admin.get("/admin/chat/message/")
    assert listing.status_code == 200
    html = listing.content.decode()
    assert "rude at the table" in html and SECRET not in html
    table_message = Message.objects.get(channel="table")
    asked = admin.post(
        "/admin/chat/message/",
        {"action": "hide_messages", "_selected_action": [table_message.id]},
    )
    assert asked.status_code == 200 and "Yes, I’m sure" in asked.content.decode()
    response = admin.post(
        "/admin/chat/message/",
        {"action": "hide_messages", "_selected_action": [table_message.id], "post": "yes"},
    )
    assert response.status_code == 302
    table_message.refresh_from_db()
    assert table_message.hidden and table_message.hidden_by == staff_user
