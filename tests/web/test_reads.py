"""Reads write nothing (docs/slow-games.md "Coming back"): a page, a poll or an API GET changes
no row. A seat's bookkeeping ("last seen", how far its page saw, the pinned "Since you last
looked", the Dining reveal it saw) lives in the cache and reaches the seat's row at most once a
minute; the browser's time zone at most once an hour."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Player
from games.services import news
from tests.factories import went_away
from tests.web.test_play import ROUND_1

pytestmark = pytest.mark.django_db

WRITES = ("INSERT", "UPDATE", "DELETE")
ANIMATED = re.compile(r'class="card dining animate"')


def heading(page: str) -> str:
    """The heading of "Since you last looked" (with the time the player had last looked)."""
    found = re.search(r'<h2 id="since-title">(.*?)</h2>', page, re.S)
    return found.group(1) if found else ""


def writes(sql: CaptureQueriesContext) -> list[str]:
    """The statements that changed a row (savepoints are bookkeeping of the transaction)."""
    return [q["sql"] for q in sql.captured_queries if q["sql"].lstrip().upper().startswith(WRITES)]


def test_reads_write_nothing_within_the_minute(table):
    assert not settings.SESSION_SAVE_EVERY_REQUEST  # a guest's session row is not saved per GET
    t = table("LVHHHH")
    ana = t.phone(1)
    ana.client.cookies["tz"] = "Europe/Berlin"
    t.play(ROUND_1)  # Ana's own moves drew her page: the minute's marks are taken
    t.page(1)  # her first load: last seen, and the time zone (once an hour)
    t.phone(3).act(t.code, "choose_examiner", target="4")  # a change: the Dining, its reveal
    game = t.game
    assert game.deadline is None or game.deadline > timezone.now()  # nothing overdue to close
    with CaptureQueriesContext(connection) as sql:
        page = ana.client.get(f"/g/{t.code}/")  # a load after a change
    assert page.status_code == 200
    assert ANIMATED.search(page.content.decode())  # the reveal is new to Ana: it plays
    found = writes(sql)
    with CaptureQueriesContext(connection) as sql:
        polled = ana.client.get(f"/g/{t.code}/changed?v=1", headers={"HX-Request": "true"})
        same = ana.client.get(f"/g/{t.code}/changed?v={t.game.version}")
        api = ana.client.get(f"/api/v1/games/{t.code}/")
    assert polled.status_code == 200  # a page that held an older version: redrawn
    assert not ANIMATED.search(polled.content.decode())  # the reveal played once for this seat
    assert same.status_code == 204
    assert api.status_code == 200 and api.json()["me"]["seat"] == 1
    assert [*found, *writes(sql)] == []


def test_a_seats_marks_reach_its_row_once_a_minute_and_a_lost_cache_falls_back_on_it(table):
    t = table("LVHHHH")
    t.play(ROUND_1, on_the_phones=True)  # Eli's moves drew his page: this minute's copy saved
    t.phone(3).act(t.code, "choose_examiner", target="4")
    assert ANIMATED.search(t.page(5))
    row = Player.objects.get(game=t.game, seat=5)
    assert row.reveal_seen == ""  # within the minute: in the cache only
    assert not ANIMATED.search(t.page(5))  # ... which says it played
    cache.delete(news.saved_key(t.game.id, 5))  # a minute later
    assert not ANIMATED.search(t.page(5))
    row.refresh_from_db()
    assert row.reveal_seen and row.looked_seq == t.game.last_seq  # the minute's copy
    cache.delete(news.look_key(t.game.id, 5))  # the cache lost the marks: the row has them
    assert not ANIMATED.search(t.page(5))


def test_the_pinned_card_and_its_got_it_outlive_a_lost_cache(table):
    t = table("LVHHHH")
    t.phone(4).place(t.code, ROUND_1[4])  # Dev placed his tokens, then went to bed
    went_away(t.game, 4, timedelta(hours=9))
    t.play({seat: plan for seat, plan in ROUND_1.items() if seat != 4})
    first = t.page(4)
    assert "data-since" in first  # pinned, in the cache
    again = t.page(4)  # it keeps the time he had last looked, not that of its first showing
    assert heading(again) == heading(first) and "(" in heading(first)
    cache.delete(news.look_key(t.game.id, 4))  # lost within the minute: the row's older copy
    assert "data-since" in t.page(4)  # ... still says he was away: pinned again
    t.phone(4).post(f"/g/{t.code}/since")  # "Got it" (a POST) writes the marks at once
    cache.delete(news.look_key(t.game.id, 4))
    assert "data-since" not in t.page(4)


def test_r20_3_the_since_cards_time_stays_when_the_cache_is_lost_and_later_looks_are_saved(table):
    """The card says when the player had last looked; later looks (saved to the row once a
    minute) and a lost cache leave that time as it was."""
    t = table("LVHHHH")
    t.phone(4).place(t.code, ROUND_1[4])
    went_away(t.game, 4, timedelta(hours=9))
    t.play({seat: plan for seat, plan in ROUND_1.items() if seat != 4})
    first = heading(t.page(4))
    cache.delete(news.saved_key(t.game.id, 4))  # a minute later: this look reaches the row
    assert heading(t.page(4)) == first
    cache.delete(news.look_key(t.game.id, 4))  # the cache lost the marks: the row has them
    assert heading(t.page(4)) == first


def test_a_page_drawn_as_its_seat_s_row_goes_is_a_first_look_not_an_error(table):
    """A player who leaves at the moment their page is drawn: the seat was found, its row is
    gone when its marks are read. The look counts as a first one and saves nowhere."""
    t = table("LVHHHH")
    Player.objects.filter(game=t.game, seat=6).delete()
    seen = news.look(t.game, 6, returning=True)
    assert seen.since_seq is None and not seen.animate_reveal
