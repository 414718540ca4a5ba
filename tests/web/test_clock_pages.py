"""On the pages (Django test client): the host's clock controls (extend,
pause, resume), a player asking the table and another agreeing, the lobby's timers in human
units with the table's clock, and the reminders prompt in a slow game."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from games.engine import state_from_json
from games.models import Game, Player
from games.notify.models import Preferences
from tests.web.conftest import Phone, alert_text, sit

pytestmark = pytest.mark.django_db


def deadline_of(t) -> float | None:
    return state_from_json(t.game.state).deadline


def stamp(phone: Phone, code: str) -> str:
    """The clock's stamp the page's clock forms carry (games.domain.clock_stamps)."""
    found = re.search(r'name="stamp" value="([^"]+)"', phone.page(code))
    assert found, "no clock stamp on the page"
    return found.group(1)


def test_the_host_extends_pauses_and_resumes_from_the_game_page(table):
    t = table("LVHHHH")
    host, ben = t.phone(1), t.phone(2)
    page = host.page(t.code)
    assert "data-host-clock" in page and "data-clock-pause" in page
    assert "data-host-clock" not in ben.page(t.code)  # only the host's page has the controls
    before = deadline_of(t)
    response = host.post(
        f"/g/{t.code}/deadline/extend", {"minutes": "180", "stamp": stamp(host, t.code)}
    )
    assert deadline_of(t) == before + 3 * 3600
    assert "The host extended the deadline by 3 hours" in response.content.decode()
    response = host.post(f"/g/{t.code}/deadline/pause")
    html = response.content.decode()
    assert t.game.deadline is None and "data-paused" in html and "data-clock-resume" in html
    assert "⏸ Paused" in ben.page(t.code)
    host.post(f"/g/{t.code}/deadline/resume")
    assert deadline_of(t) is not None and "data-paused" not in ben.page(t.code)


def test_a_double_tap_on_extend_or_on_a_vote_that_passed_acts_once(table):
    """The forms carry the clock's stamp: the second submit of the same page is refused in
    words (409 stale) and the deadline moved once."""
    t = table("LVHHHH")
    before = deadline_of(t)
    form = {"minutes": "60", "stamp": stamp(t.phone(1), t.code)}
    t.phone(1).post(f"/g/{t.code}/deadline/extend", form)
    again = t.phone(1).post(f"/g/{t.code}/deadline/extend", form, expect=409)
    assert "The clock moved since you looked" in alert_text(again.content.decode())
    assert deadline_of(t) == before + 3600
    ask = {"proposal": "extend", "minutes": "60"}
    seen = {seat: stamp(t.phone(seat), t.code) for seat in range(2, 6)}
    for seat in (2, 3, 4, 5):  # the fourth of six passes it
        t.phone(seat).post(f"/g/{t.code}/deadline/vote", {**ask, "stamp": seen[seat]})
    assert deadline_of(t) == before + 2 * 3600
    late = {**ask, "stamp": seen[2]}  # seat 2's page from before it passed, tapped again
    t.phone(2).post(f"/g/{t.code}/deadline/vote", late, expect=409)
    assert deadline_of(t) == before + 2 * 3600 and "vote" not in t.game.clock


def test_a_player_cannot_move_the_deadline_and_a_bad_amount_is_refused_in_words(table):
    t = table("LVHHHH")
    before = deadline_of(t)
    response = t.phone(2).post(f"/g/{t.code}/deadline/extend", {"minutes": "60"}, expect=403)
    assert "Only the host can move the deadline" in alert_text(response.content.decode())
    response = t.phone(1).post(f"/g/{t.code}/deadline/extend", {"minutes": "7"}, expect=400)
    assert alert_text(response.content.decode()) == "Choose how much longer first."
    assert deadline_of(t) == before


def test_a_player_asks_the_table_for_an_hour_and_the_majority_agrees_on_the_page(table):
    t = table("LVHHHH")
    before = deadline_of(t)
    ben = t.phone(2)
    assert "ask the table for more time" in ben.page(t.code)  # folded: a live, untouched clock
    ask = {"proposal": "extend", "minutes": "60"}
    ben.post(f"/g/{t.code}/deadline/vote", {**ask, "stamp": stamp(ben, t.code)})
    cleo_page = t.page(3)
    assert "asks the table to extend the deadline by 1 hour: 1 of 4 agree." in cleo_page
    assert "data-clock-agree" in cleo_page and "data-clock-agree" not in t.page(2)
    for seat in (3, 4, 5):
        phone = t.phone(seat)
        phone.post(f"/g/{t.code}/deadline/vote", {**ask, "stamp": stamp(phone, t.code)})
    assert deadline_of(t) == before + 3600
    assert "data-clock-vote" not in t.page(6)


def test_the_lobby_takes_every_timer_in_minutes_or_hours_and_the_tables_clock():
    ana = Phone("Ana")
    response = ana.client.post(
        "/new",
        {
            "name": "Ana",
            "preset": "async",
            "relic": "30",
            "relic_unit": "min",
            "tiebreak": "3",
            "tiebreak_unit": "h",
            "time_zone": "Europe/Berlin",
            "quiet_start": "23",
            "quiet_end": "7",
            "deadline_hour": "21",
        },
    )
    code = response["Location"].split("/")[2]
    options = Game.objects.get(code=code).options
    assert options["timers"] == {
        "mingling": 12 * 3600, "relic": 1800, "tiebreak": 3 * 3600, "choice": 2 * 3600,
        "reveal": 2 * 3600,  # the role reveal the page's games have (games.domain.options.REVEAL)
    }  # fmt: skip
    assert options["quiet_hours"] == {"start": 23, "end": 7}
    assert (options["time_zone"], options["deadline_hour"]) == ("Europe/Berlin", 21)
    page = ana.page(code)
    assert "Mingling 12 h, relic windows 30 min, ties 3 h, choices 2 h" in page
    assert "quiet 23:00–07:00, Mingling closes at 21:00 (Europe/Berlin)" in page
    # The host switches to the live preset in the lobby: the preset's timers follow, and the
    # fixed hour (slow games only) is refused in words.
    response = ana.post(f"/g/{code}/options", {"preset": "live", "deadline_hour": "21"}, expect=400)
    assert Game.objects.get(code=code).options["preset"] == "async"
    ana.post(f"/g/{code}/options", {"preset": "live", "relic": "45", "relic_unit": "s"})
    options = Game.objects.get(code=code).options
    assert options["timers"] == {
        "mingling": 180, "relic": 45, "tiebreak": 60, "choice": 60, "reveal": 30,
    }  # fmt: skip
    assert "quiet_hours" not in options and "deadline_hour" not in options


def test_a_bad_time_zone_or_half_given_quiet_hours_are_refused_in_words():
    ana = Phone("Ana")
    response = ana.client.post("/new", {"name": "Ana", "preset": "live", "time_zone": "Mars/X"})
    assert response.status_code == 400 and "Not a time zone" in response.content.decode()
    response = ana.client.post("/new", {"name": "Ana", "preset": "live", "quiet_start": "22"})
    assert response.status_code == 400 and "Give quiet hours a start" in response.content.decode()
    assert not Game.objects.exists()


def test_a_slow_game_offers_reminders_to_a_player_who_sits_down_without_any(phones):
    ana, ben = phones(2)
    code = ana.client.post("/new", {"name": "Ana", "preset": "async"})["Location"].split("/")[2]
    sit(ben, code)
    page = ben.page(code)
    assert "data-reminder-prompt" in page and "Turn on reminders" in page
    assert 'href="/me/reminders"' in page
    user = Player.objects.get(game__code=code, seat=2).user
    Preferences.objects.create(
        user=user, email="ben@example.com", email_enabled=True, email_confirmed_at=timezone.now()
    )
    assert "data-reminder-prompt" not in ben.page(code)  # reminders on: no prompt
    live = ana.client.post("/new", {"name": "Ana", "preset": "live"})["Location"].split("/")[2]
    assert "data-reminder-prompt" not in ana.page(live)  # a live table is all in one room


def test_the_clock_folds_below_the_players_card_in_a_live_game_until_it_matters(table):
    """The deadline's controls never stand between a move and the recap: in a live game whose
    clock nobody touched they are a closed pill below the player's own card; once the clock
    is moved (or paused, or a vote is open) they are a card below the recap; a spectator, who
    can do nothing with them, sees no empty card."""
    t = table("LVHHHH")
    host_page, player_page = t.page(1), t.page(2)
    for page in (host_page, player_page):
        folded = page.index('<details class="card clock tab" id="clock"')
        assert page.index('id="me-title"') < folded  # below the player's own card
    assert "extend or pause" in host_page and "ask the table for more time" in player_page
    watcher = Phone("Zed")
    watcher.sign_up()
    assert 'id="clock"' not in watcher.page(t.code)

    t.phone(1).post(
        f"/g/{t.code}/deadline/extend", {"minutes": "60", "stamp": stamp(t.phone(1), t.code)}
    )
    for page in (t.page(1), t.page(3)):
        card = page.index('<section class="card clock" id="clock"')
        assert card < page.index('id="me-title"')  # moved: a card, above the player's own
    assert 'id="clock"' not in watcher.page(t.code)


def test_a_slow_games_clock_is_a_card_from_the_start(table):
    t = table("LVHHHH", preset="async")
    assert '<section class="card clock" id="clock"' in t.page(2)
