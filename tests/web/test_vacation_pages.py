"""Vacation mode on the pages (Django test client): a seated player of a slow game goes
on vacation from the game page with times in their own zone; the table sees "on vacation until
..." in each viewer's zone; "I'm back" hands the seat back; bad times are refused in words."""

from __future__ import annotations

from datetime import UTC, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from games.models import Event, Player
from games.presenters import times
from tests.web.conftest import alert_text

pytestmark = pytest.mark.django_db

BERLIN, NEW_YORK = ZoneInfo("Europe/Berlin"), ZoneInfo("America/New_York")


def local_field(moment, tz) -> str:
    return moment.astimezone(tz).strftime("%Y-%m-%dT%H:%M")


def test_a_player_goes_on_vacation_from_the_game_page_and_the_table_sees_it_in_its_own_zone(table):
    t = table("LVHHHH", preset="async")
    ben, cleo = t.phone(2), t.phone(3)
    ben.client.cookies["tz"] = "Europe/Berlin"
    cleo.client.cookies["tz"] = "America/New_York"
    page = ben.page(t.code)
    assert "Going away? A bot can hold your seat" in page and 'type="datetime-local"' in page
    until = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    ben.post(f"/g/{t.code}/vacation", {"from": "", "until": local_field(until, BERLIN)})
    seat = Player.objects.get(game__code=t.code, seat=2)
    assert seat.vacation_on and seat.vacation_until == until  # read in Ben's own zone
    mine = ben.page(t.code)
    assert "You are on vacation" in mine and "data-vacation-back" in mine
    assert f"A bot plays your seat until {times.clock(until, BERLIN)}" in mine
    table_page = cleo.page(t.code)
    assert "🏖 On vacation until <time " in table_page  # its script rewrites only a UTC one
    assert f" data-local-time>{times.clock(until, NEW_YORK)}</time>" in table_page
    assert '<bdi class="name">Ben</bdi> is on vacation until' in table_page  # the log line
    assert "data-vacation-back" not in table_page and "You are on vacation" not in table_page
    ben.post(f"/g/{t.code}/vacation/end")
    assert not Player.objects.get(game__code=t.code, seat=2).vacation_on
    assert Event.objects.filter(game__code=t.code, kind="vacation_back").count() == 1
    assert "🏖 On vacation until" not in cleo.page(t.code)


def test_a_vacation_planned_ahead_shows_to_its_player_only_and_can_be_cancelled(table):
    t = table("LVHHHH", preset="async")
    ben = t.phone(2)
    start = timezone.now() + timedelta(days=1)
    until = start + timedelta(days=2)
    ben.post(
        f"/g/{t.code}/vacation",
        {"from": local_field(start, UTC), "until": local_field(until, UTC)},
    )
    assert "Vacation planned" in ben.page(t.code)
    assert "On vacation" not in t.page(3)
    ben.post(f"/g/{t.code}/vacation/end")
    assert Player.objects.get(game__code=t.code, seat=2).vacation_until is None
    assert not Event.objects.filter(game__code=t.code, kind__startswith="vacation").exists()


def test_bad_vacation_times_are_refused_in_words_and_a_live_game_has_no_vacation_card(table):
    t = table("LVHHHH", preset="async")
    ben = t.phone(2)
    start = timezone.now() + timedelta(hours=5)
    body = {"from": local_field(start, UTC), "until": local_field(start, UTC)}
    response = ben.post(f"/g/{t.code}/vacation", body, expect=400)
    assert alert_text(response.content.decode()) == "The vacation must end after it starts."
    far = timezone.now() + timedelta(days=20)
    response = ben.post(f"/g/{t.code}/vacation", {"until": local_field(far, UTC)}, expect=400)
    assert "at most 14 days" in alert_text(response.content.decode())
    response = ben.post(f"/g/{t.code}/vacation", {"until": "soon"}, expect=400)
    assert "Choose until when" in alert_text(response.content.decode())
    assert Player.objects.get(game__code=t.code, seat=2).vacation_until is None
    live = table("LVHHHH")
    assert "Going away?" not in live.page(2)
