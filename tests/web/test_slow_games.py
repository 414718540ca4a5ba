"""Slow games that friends finish: an inbox across games, times in the viewer's own
zone, "Since you last looked", and a signed link to a seat on any device."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from games import services
from games.chat.models import Message
from games.domain import seat_link_tokens
from games.models import Event, Game, Player, SeatLinkUse
from games.notify import services as reminders
from games.notify import unsubscribe_links
from games.notify.models import Preferences
from games.presenters import times
from games.services import organiser as admin_services
from staked import sealed
from tests.factories import went_away
from tests.web.conftest import LETTERS, Phone, Table, sit
from tests.web.test_play import ROUND_1

pytestmark = pytest.mark.django_db

INBOX = re.compile(r'data-inbox="([A-Z0-9]{6})"')
LINK = re.compile(r'href="(http://testserver/g/[A-Z0-9]{6}/continue/[^"]+)"')


def second_table(staff, ana: Phone, roles: str = "LVHHHH") -> Table:
    """A second running game where `ana` holds seat 6 (the others are new phones)."""
    deal = {str(i + 1): LETTERS[c] for i, c in enumerate(roles)}
    game = services.game_create(
        host=staff, options={"roles": deal, "last_wills": False}, name="Staff"
    )
    phones = [Phone(name) for name in ("Ola", "Pia", "Quin", "Rae", "Sol")]
    for phone in phones:
        sit(phone, game.code)
    sit(ana, game.code)
    services.game_leave(code=game.code, user=staff)
    t = Table(game.code, [*phones, ana])
    t.phone(1).post(f"/g/{game.code}/start")
    assert t.game.status == Game.Status.RUNNING
    return t


def user_of(t: Table, seat: int):
    return Player.objects.get(game=t.game, seat=seat).user


# --- the inbox --------------------------------------------------------------------------------


def test_inbox_lists_your_move_first_then_by_deadline_on_home_api_and_title(table, staff):
    first = table("LVHHHH")
    ana = first.phone(1)
    second = second_table(staff, ana)
    ana.place(first.code, ROUND_1[1])  # Ana has placed every token in the first game
    soon = datetime.now(UTC) + timedelta(minutes=5)
    Game.objects.filter(code=first.code).update(deadline=soon)  # sooner, but not her move
    Game.objects.filter(code=second.code).update(deadline=soon + timedelta(hours=11))

    home = ana.client.get("/").content.decode()
    assert INBOX.findall(home) == [second.code, first.code]
    assert "<title>(1) Staked!</title>" in home
    assert 'data-move-count="1"' in home
    row = home[home.index(f'data-inbox="{second.code}"') :]
    assert "Your move" in row[: row.index("</li>")] and "Mingling" in row[: row.index("</li>")]
    assert "closes " in row[: row.index("</li>")] and "(in 11 h" in row[: row.index("</li>")]

    partial = ana.client.get("/inbox").content.decode()  # the home page's 30 s refresh
    assert partial.startswith('<div id="inbox"') or '<div id="inbox"' in partial[:200]
    assert INBOX.findall(partial) == [second.code, first.code] and 'data-move-count="1"' in partial

    games = ana.client.get("/api/v1/games/").json()["games"]
    moves = {g["code"]: g["your_move"] for g in games}
    assert moves == {first.code: False, second.code: True}
    inbox = ana.client.get("/api/v1/games/?my_move=true").json()
    assert [g["code"] for g in inbox["games"]] == [second.code]
    assert inbox["games"][0]["deadline"] is not None and inbox["next"] is None
    # Ben (seat 2 of the first game) still has his tokens: it is his move there.
    ben = first.phone(2).client.get("/api/v1/games/?my_move=true").json()["games"]
    assert [g["code"] for g in ben] == [first.code]


def test_inbox_poll_answers_304_while_the_list_is_the_same_and_changes_with_a_move(table):
    t = table("LVHHHH")
    ana = t.phone(1).client
    first = ana.get("/api/v1/games/?my_move=true")
    tag = first["ETag"]
    assert [g["code"] for g in first.json()["games"]] == [t.code]
    again = ana.get("/api/v1/games/?my_move=true", headers={"If-None-Match": tag})
    assert again.status_code == 304 and not again.content
    t.phone(1).place(t.code, ROUND_1[1])
    after = ana.get("/api/v1/games/?my_move=true", headers={"If-None-Match": tag})
    assert after.status_code == 200 and after.json()["games"] == []
    refused = ana.get("/api/v1/games/?my_move=yes")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_request"


def test_inbox_costs_the_same_queries_for_one_game_or_three(table, staff):
    t = table("LVHHHH")
    ana = t.phone(1)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert ana.client.get("/api/v1/games/?my_move=true").status_code == 200
        return len(queries)

    one = count()
    second_table(staff, ana)
    second_table(staff, ana)
    assert count() == one  # no query per game (N+1)


# --- times --------------------------------------------------------------------------------------


def test_r20_4_a_long_window_reads_as_a_local_time_and_a_duration():
    now = datetime(2026, 12, 1, 10, 51, tzinfo=UTC)  # a Tuesday
    at = now + timedelta(hours=11, minutes=50, seconds=7)
    berlin = ZoneInfo("Europe/Berlin")
    assert times.deadline(at, berlin, now) == "closes Tue 1 Dec 23:41 (in 11 h 50 min)"
    assert times.deadline(at, None, now) == "closes Tue 1 Dec 22:41 UTC (in 11 h 50 min)"
    assert times.deadline(now + timedelta(days=2, hours=3), berlin, now).endswith("(in 2 days 3 h)")
    assert times.stamp(now - timedelta(minutes=5), berlin, now) == "11:46"
    assert times.stamp(now - timedelta(days=1), berlin, now) == "Mon 30 Nov 11:51"
    assert times.zone("Not/AZone") is None and times.zone("../etc/passwd") is None


def test_r20_4_the_page_without_javascript_says_the_deadline_with_a_date_in_the_viewers_zone(
    table,
):
    t = table("LVHHHH")
    ana = t.phone(1)
    deadline = datetime.fromtimestamp(t.game.state["deadline"], UTC)
    ana.client.cookies["tz"] = "Asia/Tokyo"
    html = ana.page(t.code)
    local = deadline.astimezone(ZoneInfo("Asia/Tokyo"))
    words = f"closes {times.WEEKDAYS[local.weekday()]} {local.day} "
    assert f'<span class="countdown-value">{words}' in html
    assert f"{local:%H:%M} (in " in html
    assert " UTC" not in html[html.index("countdown-value") :][:80]
    # ... and the e-mails take the zone the browser gave.
    assert Preferences.objects.filter(user=user_of(t, 1)).count() == 0  # no reminders: no row
    Preferences.objects.create(user=user_of(t, 1))
    cache.clear()
    ana.page(t.code)
    assert Preferences.objects.get(user=user_of(t, 1)).time_zone == "Asia/Tokyo"


def test_chat_times_older_than_today_carry_a_date(table):
    t = table("LVHHHH")
    ana = t.phone(1)
    ana.client.cookies["tz"] = "Europe/Berlin"
    ana.post(f"/g/{t.code}/chat/table/", {"text": "hello all"})
    Message.objects.update(created_at=datetime(2026, 1, 5, 8, 30, tzinfo=UTC))
    html = ana.client.get(f"/g/{t.code}/chat/table/").content.decode()
    assert "Mon 5 Jan 09:30" in html


# --- since you last looked ------------------------------------------------------------------


def test_r20_3_a_player_who_comes_back_sees_what_happened_first_then_got_it_clears_it(table):
    t = table("LVHHHH")
    t.phone(4).place(t.code, ROUND_1[4])  # Dev placed his tokens, then went to bed
    went_away(t.game, 4, timedelta(hours=9))
    t.play({seat: plan for seat, plan in ROUND_1.items() if seat != 4})  # Cleo has most Stakes
    html = t.page(4)
    assert "data-since" in html
    card = html[html.index("data-since") : html.index("</section>", html.index("data-since"))]
    assert "Since you last looked" in card and "Mingling is over" in card
    assert "Cleo</bdi> has the most Stakes" in card
    assert html.index("data-since") < html.index('class="actions"')
    assert "choose_examiner" not in card  # no raw ids in player text
    # Live redraws keep it; a second device agrees; "Got it" clears it on both.
    second = Client()
    second.force_login(user_of(t, 4))
    assert "data-since" in second.get(f"/g/{t.code}/").content.decode()
    t.phone(4).post(f"/g/{t.code}/since")
    assert "data-since" not in t.page(4)
    assert "data-since" not in second.get(f"/g/{t.code}/").content.decode()


def test_r20_3_a_player_watching_live_gets_no_since_card(table):
    t = table("LVHHHH")
    for seat in range(1, 7):
        t.page(seat)
    t.play(ROUND_1, on_the_phones=True)  # each phone's own htmx answers drew the page
    assert (
        "data-since"
        not in t.phone(1)
        .client.get(f"/g/{t.code}/", headers={"HX-Request": "true"})
        .content.decode()
    )
    assert "data-since" not in t.page(1)  # reloaded a moment later: nothing missed


def test_r20_3_the_dining_reveal_animates_once_per_seat(table):
    t = table("LVHHHH")
    t.play(ROUND_1, on_the_phones=True)
    first = t.page(5)
    assert re.search(r'class="card dining animate"', first)
    assert not re.search(r'class="card dining animate"', t.page(5))
    assert re.search(r'class="card dining animate"', t.page(1))  # another seat: its own once
    # Fay's last token ended the round: the answer to her move played it, a reload does not.
    assert not re.search(r'class="card dining animate"', t.page(6))
    assert re.search(r'class="card dining animate"', Client().get(f"/g/{t.code}/").content.decode())


def test_an_organiser_closing_a_window_is_logged_in_words_not_ids(table):
    t = table("LVHHHH")
    admin_services.window_expire(code=t.code, by="staffer")
    text = Event.objects.filter(game=t.game, kind="admin").last().text
    assert "closed the Mingling window" in text


# --- your seat on any device ------------------------------------------------------------------


def device_link(phone: Phone, code: str) -> str:
    html = phone.client.get(f"/g/{code}/device").content.decode()
    assert "<svg" in html and "QR code of your seat link" in html
    (url,) = set(LINK.findall(html))
    return url.removeprefix("http://testserver")


def test_i14_2_the_seat_link_opens_that_seat_in_a_fresh_browser_once(table):
    t = table("LVHHHH")
    link = device_link(t.phone(4), t.code)
    fresh = Client()
    opened = fresh.get(link)
    assert opened.status_code == 200 and "Continue as Dev" in opened.content.decode()
    assert "You are watching" in fresh.get(f"/g/{t.code}/").content.decode()  # GET signs in nobody
    assert fresh.post(link).status_code == 302
    page = fresh.get(f"/g/{t.code}/").content.decode()
    assert "You are <strong>Dev</strong>, seat 4." in page
    assert "You are <strong>Dev</strong>" in t.page(4)  # the first phone keeps working
    assert fresh.post(link).status_code == 302  # again in the browser it signed in: fine
    third = Client()
    used = third.post(link)
    assert used.status_code == 410 and "already used" in used.content.decode()
    assert "You are watching" in third.get(f"/g/{t.code}/").content.decode()


def test_i14_2_a_forged_expired_or_stale_seat_link_is_refused_clearly(table, monkeypatch):
    t = table("LVHHHH")
    link = device_link(t.phone(4), t.code)
    token = link.rsplit("/", 1)[1]
    payload = sealed.unseal(token, seat_link_tokens.SALT, max_age=seat_link_tokens.MAX_AGE)
    # Another seat in the same sealed shape, but sealed with another key: forged.
    with override_settings(SECRET_KEY="x" * 50):
        forged = sealed.seal({**payload, "s": 1}, seat_link_tokens.SALT)
    answer = Client().post(f"/g/{t.code}/continue/{forged}")
    assert answer.status_code == 404 and "not a working seat link" in answer.content.decode()
    tampered = Client().post(link[:-3] + "abc")
    assert tampered.status_code == 404
    other_game = Client().post(link.replace(t.code, "AAAAAA"))
    assert other_game.status_code == 404

    eight_days_ago = datetime.now(UTC) - timedelta(days=8)
    old = seat_link_tokens.issue(Player.objects.get(game=t.game, seat=4), now=eight_days_ago).token
    expired = Client().post(f"/g/{t.code}/continue/{old}")
    assert expired.status_code == 410 and "expired" in expired.content.decode()

    newcomer = get_user_model().objects.create_user("newcomer")
    Player.objects.filter(game=t.game, seat=4).update(user=newcomer)  # the seat was handed on
    stale = Client().post(link)
    assert stale.status_code == 403 and "no longer yours" in stale.content.decode()
    assert not SeatLinkUse.objects.exists()


def test_i14_2_a_seat_link_grants_that_one_seat_and_nothing_else(table, staff):
    t = table("LVHHHH")
    ana = t.phone(1)
    other = second_table(staff, ana)  # Ana plays another game too
    link = device_link(ana, t.code)
    fresh = Client()
    fresh.post(link)
    assert "You are <strong>Ana</strong>" in fresh.get(f"/g/{t.code}/").content.decode()
    assert "You are <strong>Ana</strong>" not in fresh.get(f"/g/{other.code}/").content.decode()
    assert fresh.get("/api/v1/games/").status_code in (401, 403)
    assert "data-inbox" not in fresh.get("/").content.decode()
    assert "Sit down at a table first" in fresh.get("/me/reminders").content.decode()
    # The link is only ever on the seat owner's own page behind a tap, never in a game page.
    for seat in range(1, 7):
        assert "/continue/" not in t.page(seat)
    assert "/continue/" not in Client().get(f"/g/{t.code}/").content.decode()
    assert t.phone(2).client.get(f"/g/{other.code}/device").status_code == 404
    assert Client().get(f"/g/{t.code}/device").status_code == 404
    # A second link, to her other game, adds that game to this browser: both open now.
    assert fresh.post(device_link(ana, other.code)).status_code == 302
    assert "You are <strong>Ana</strong>" in fresh.get(f"/g/{other.code}/").content.decode()
    assert "You are <strong>Ana</strong>" in fresh.get(f"/g/{t.code}/").content.decode()
    assert fresh.get("/api/v1/games/").status_code in (401, 403)


def test_i14_2_an_api_guest_gets_a_link_to_their_seat_on_the_pages(client):
    token = client.post("/api/v1/auth/guest/", {"name": "Zoe"}, content_type="application/json")
    auth = {"HTTP_AUTHORIZATION": f"Token {token.json()['token']}"}
    game = client.post("/api/v1/games/", {}, content_type="application/json", **auth).json()
    code = game["code"]
    answer = Client().post(f"/api/v1/games/{code}/seat-link/", **auth)
    assert answer.status_code == 201
    url = answer.json()["url"].removeprefix("http://testserver")
    assert answer.json()["expires_at"]
    browser = Client()
    assert browser.post(url).status_code == 302
    assert "Zoe" in browser.get(f"/g/{code}/").content.decode()
    stranger = Client().post(
        "/api/v1/auth/guest/", {"name": "Yan"}, content_type="application/json"
    )
    refused = Client().post(
        f"/api/v1/games/{code}/seat-link/",
        HTTP_AUTHORIZATION=f"Token {stranger.json()['token']}",
    )
    assert refused.status_code == 403 and refused.json()["code"] == "not_seated"


# --- the reminder e-mails' links ----------------------------------------------------------------


def test_r20_7_a_reminder_email_has_a_seat_link_local_time_and_one_click_unsubscribe(
    table, settings
):
    settings.SITE_URL = "https://staked.example"
    t = table("LVHHHH")
    player = Player.objects.select_related("game").get(game=t.game, seat=4)
    prefs = Preferences.objects.create(
        user=player.user,
        email="dev@example.com",
        email_enabled=True,
        email_confirmed_at=datetime.now(UTC),
        time_zone="America/New_York",
    )
    now = time.time()
    reminder = reminders.Reminder(
        title=f"Staked! game {t.code}",
        body="Your move (Mingling), 12 hours left.",
        path=f"/g/{t.code}/",
        ttl=60,
        urgency="normal",
        what="Your move (Mingling)",
        deadline=now + 11 * 3600 + 50 * 60 + 30,
        at=now,
    )
    message = reminders.email_message(prefs, reminder, player)
    local = datetime.fromtimestamp(reminder.deadline, ZoneInfo("America/New_York"))
    assert f"closes {times.WEEKDAYS[local.weekday()]} {local.day}" in message.subject
    assert f"{local:%H:%M} (in 11 h 50 min)" in message.subject
    assert f"https://staked.example/g/{t.code}/continue/" in message.body
    unsubscribe = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe in message.body
    for secret in ("vampire", "hunter", "lord"):
        assert secret not in (message.subject + message.body).lower()

    path = unsubscribe.removeprefix("https://staked.example")
    page = Client().get(path)  # a mail scanner following the link stops nothing
    assert page.status_code == 200
    assert Preferences.objects.get(pk=prefs.pk).email_enabled
    one_click = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})
    assert one_click.status_code == 200 and 'data-unsubscribe="done"' in one_click.content.decode()
    assert not Preferences.objects.get(pk=prefs.pk).email_enabled
    assert Client().post(path[:-4] + "abcd").status_code == 400


def test_r20_7_an_unsubscribe_link_for_an_old_address_stops_nothing(table):
    t = table("LVHHHH")
    prefs = Preferences.objects.create(
        user=user_of(t, 2), email="old@example.com", email_enabled=True
    )
    token = unsubscribe_links.unsubscribe_token(prefs)
    Preferences.objects.filter(pk=prefs.pk).update(email="new@example.com")
    answer = Client().post(f"/me/reminders/unsubscribe/{token}")
    assert answer.status_code == 404
    assert Preferences.objects.get(pk=prefs.pk).email_enabled


@pytest.mark.parametrize(("hidden", "card"), [("0", False), ("36000", True)])
def test_r20_3_a_live_page_gets_the_card_only_after_it_was_out_of_sight(table, hidden, card):
    """A page in sight all along (its poll says 0 s hidden) is watched live, even after a long
    quiet spell; a tab back from hours in the background gets the card on its next redraw."""
    t = table("LVHHHH")
    t.phone(4).place(t.code, ROUND_1[4])
    went_away(t.game, 4, timedelta(hours=10))
    t.play({seat: plan for seat, plan in ROUND_1.items() if seat != 4})
    headers = {"HX-Request": "true", "X-Staked-Hidden": hidden}
    html = t.phone(4).client.get(f"/g/{t.code}/", headers=headers).content.decode()
    assert ("data-since" in html) is card
