"""The unchanged page poll is answered before sessions, users and CSRF
(games/web/middleware/quickpoll.py), and still only to someone who may see the game:
where spectators are off, a seat's own browser proves it with the poll token of its page
(games/domain/polls.py); a stranger, a logged-out browser and a token that no longer counts get the
same 404 as before, whatever version they name."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.domain import polls
from games.domain.poll_keys import version_key
from games.models import Game, Player
from games.services import seats
from tests.security.stack import fixed_csrf_mask

pytestmark = pytest.mark.django_db

POLL_URL = re.compile(r'hx-get="(/g/[^/"]+/changed\?[^"]+)"')
HTMX = {"HX-Request": "true"}


def poll_url(page: str) -> str:
    return html.unescape(POLL_URL.search(page).group(1))


def quietly(client: Client, url: str):
    """The poll, and the database queries it made."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=HTMX)
    return response, len(queries)


def private(table, django_capture_on_commit_callbacks):
    """A running game with spectators off, its poll key published as after a real commit."""
    with django_capture_on_commit_callbacks(execute=True):
        t = table("LVHHHH", spectators=False)
    return t


def test_a_seats_own_browser_hears_no_change_without_a_query_where_spectators_are_off(
    table, django_capture_on_commit_callbacks
):
    t = private(table, django_capture_on_commit_callbacks)
    url = poll_url(t.page(2))
    assert "&p=" in url
    response, queries = quietly(t.phone(2).client, url)
    assert response.status_code == 204 and response.content == b""
    assert queries == 0  # no session, no user, no seat: the token answered
    assert response["Cache-Control"] == "no-store"
    assert response["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    assert response["X-Content-Type-Options"] == "nosniff"  # SecurityMiddleware still ran


def test_a_stranger_gets_the_same_404_with_or_without_a_players_poll_url(
    table, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr("django.middleware.csrf._get_new_csrf_string", fixed_csrf_mask)
    t = private(table, django_capture_on_commit_callbacks)
    url = poll_url(t.page(2))
    stranger = Client()
    stranger.post("/join", {"code": t.code, "name": "Zed"})  # a session, but the game is running
    assert stranger.cookies.get("sessionid")
    version = t.game.version
    answers = {
        (r.status_code, r.content)
        for u in (url, f"/g/{t.code}/changed?v={version}", f"/g/{t.code}/changed?v=1")
        for r in [stranger.get(u, headers=HTMX)]
    }
    assert len(answers) == 1 and answers.pop()[0] == 404


def test_a_logged_out_browser_is_turned_away_though_it_kept_the_poll_url(
    table, django_capture_on_commit_callbacks
):
    t = private(table, django_capture_on_commit_callbacks)
    phone = t.phone(2).client
    url = poll_url(t.page(2))
    assert phone.get(url, headers=HTMX).status_code == 204
    phone.logout()  # the session ends: the token was bound to it
    assert phone.get(url, headers=HTMX).status_code == 404
    assert Client().get(url, headers=HTMX).status_code == 404  # a browser that never signed in


def test_a_token_stops_counting_when_the_seat_changes_hands(
    table, django_capture_on_commit_callbacks
):
    """The host gives an away seat to a bot: a new version, where the old token is nothing and
    the view asks the seat again. The person who sat there now sees a private game: 404."""
    t = private(table, django_capture_on_commit_callbacks)
    url = poll_url(t.page(3))
    Player.objects.filter(game__code=t.code, seat=3).update(missed_windows=2, afk=True)
    host = Game.objects.get(code=t.code).host
    with django_capture_on_commit_callbacks(execute=True):
        seats.seat_to_bot(code=t.code, user=host, seat=3)
    new = url.replace(f"v={t.game.version - 1}", f"v={t.game.version}")
    assert new != url
    for u in (url, new):
        assert t.phone(3).client.get(u, headers=HTMX).status_code == 404


def test_an_expired_or_forged_token_goes_the_long_way_and_still_gets_its_answer(
    table, django_capture_on_commit_callbacks, monkeypatch
):
    t = private(table, django_capture_on_commit_callbacks)
    url = poll_url(t.page(2))
    forged = re.sub(r"p=[^&]+", "p=1a2b3c:forged", url)
    monkeypatch.setattr(polls, "TOKEN_SECONDS", -1)  # every token has expired
    expired, queries = quietly(t.phone(2).client, url)
    assert expired.status_code == 204 and queries > 0  # the view checked the seat itself
    monkeypatch.undo()
    response, queries = quietly(t.phone(2).client, forged)
    assert response.status_code == 204 and queries > 0
    assert Client().get(forged, headers=HTMX).status_code == 404


def test_another_seats_token_does_not_work_in_this_browser(
    table, django_capture_on_commit_callbacks
):
    """The token is bound to the session it was issued to: a poll URL copied to another
    player's browser is just a URL there (that player is seated, so the view answers)."""
    t = private(table, django_capture_on_commit_callbacks)
    url = poll_url(t.page(2))
    response, queries = quietly(t.phone(4).client, url)
    assert response.status_code == 204 and queries > 0


def test_a_change_is_never_answered_early(table, django_capture_on_commit_callbacks):
    t = private(table, django_capture_on_commit_callbacks)
    url = poll_url(t.page(2))
    with django_capture_on_commit_callbacks(execute=True):
        t.phone(3).place(t.code, "S4")
    response = t.phone(2).client.get(url, headers=HTMX)
    assert response.status_code == 200
    assert f"changed?v={t.game.version}&amp;p=" in response.content.decode()


def test_a_cache_without_the_poll_key_falls_back_to_the_view(
    table, django_capture_on_commit_callbacks
):
    from django.core.cache import cache

    t = private(table, django_capture_on_commit_callbacks)
    url = poll_url(t.page(2))
    cache.delete(version_key(t.code))
    response, queries = quietly(t.phone(2).client, url)
    assert response.status_code == 204 and queries > 0


def test_the_pace_follows_the_game(table, lobby):
    """1 s in a running live game, 2 s in the lobby, 10 s in an asynchronous game."""
    every = re.compile(r'hx-trigger="every (\d+)s')
    assert every.search(lobby("LVHHHH").page(1)).group(1) == "2"
    assert every.search(table("LVHHHH").page(1)).group(1) == "1"
    slow = table("LVHHHH", preset="async")
    assert every.search(slow.page(1)).group(1) == "10"
    assert every.search(Client().get(f"/t/{slow.code}/").content.decode()).group(1) == "10"


def test_the_pace_of_a_view():
    from datetime import UTC, datetime, timedelta

    now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    live, slow = {"preset": "live"}, {"preset": "async"}

    def running(options, **delta) -> dict:
        deadline = (now + timedelta(**delta)).isoformat() if delta else None
        return {"status": "running", "options": options, "deadline": deadline}

    assert polls.pace({"status": "lobby", "options": slow}, now) == polls.LOBBY_SECONDS == 2
    assert polls.pace(running(live, seconds=170), now) == 1
    assert polls.pace(running(live, minutes=30), now) == 1  # a practice game's long Mingling
    assert polls.pace(running(slow, hours=11), now) == 10
    assert polls.pace(running(slow, minutes=10), now) == 1  # the window's last minutes
    assert polls.pace(running(slow), now) == 10
    assert polls.pace({"status": "finished", "options": live, "deadline": None}, now) == 5


def test_a_token_is_bound_to_its_game_version_and_session():
    token = polls.page_token("ABCDEF", 7, "s" * 32)
    assert polls.page_token_valid(token, "ABCDEF", 7, "s" * 32)
    assert not polls.page_token_valid(token, "ABCDEF", 8, "s" * 32)
    assert not polls.page_token_valid(token, "ABCDEG", 7, "s" * 32)
    assert not polls.page_token_valid(token, "ABCDEF", 7, "t" * 32)
    assert not polls.page_token_valid(token, "ABCDEF", 7, None)
    assert polls.page_token("ABCDEF", 7, None) == ""
