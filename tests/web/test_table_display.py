"""The table display `/t/{code}/`: the public view, big, for a screen in the room.

It must never carry a secret, whoever's browser shows it: it is checked for role words and
secret markers at every phase, and differentially (two games whose secrets differ while
everything public is the same render the same display)."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from games import services
from games.domain import room_screen
from games.models import Game, Player
from games.presenters import times
from tests.web.conftest import Phone
from tests.web.test_hidden_information import _normalized
from tests.web.test_play import ROUND_1, ROUND_2, ROUND_3

pytestmark = pytest.mark.django_db

SECRET = re.compile(
    r"data-secret-role|role-chip|role-face|[Vv]ampire|Lord|Mesmeri[sz]ed|"
    r"token-(stake|feast|double_stake|investigation)"
)
CONTROLS = re.compile(r"<(form|input|button|select|textarea)\b")


def shown(client, code: str, query: str = "") -> str:
    response = client.get(f"/t/{code}/{query}")
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def board(html: str) -> str:
    """The display itself (the page around it is the site's frame)."""
    return re.search(r'<div id="display".*</div>', html, re.S).group(0)


def no_secrets(html: str, *, dining: bool = False) -> None:
    part = board(html)
    if dining:  # the Dining reveal is public (R4.1): token types are shown there, to everyone
        part = re.sub(r'<section class="card dining".*?</section>', "", part, flags=re.S)
    found = SECRET.search(part)
    assert found is None, part[max(0, found.start() - 200) : found.end() + 100]
    assert CONTROLS.search(part) is None


def test_the_lobby_shows_the_code_the_invite_and_who_sits(lobby):
    t = lobby("LVHHHH")
    html = shown(Phone("Room").client, t.code)
    assert f'Join table <span class="big-code">{t.code}</span>' in html
    assert "QR code of the invite link" in html and f"/g/{t.code}/" in html
    assert all(name in html for name in ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"))
    no_secrets(html)


def test_no_secret_at_any_phase_and_the_end_shows_the_public_reveal(table):
    t = table("LVHHHH")
    room = Phone("Room").client
    no_secrets(shown(room, t.code))
    t.play({1: "S3 S4 F5", 2: "S3 S4"})
    html = shown(room, t.code)
    no_secrets(html)
    assert 'class="placed-chip" title="Ana">1<' in html  # who placed on whom is public (R3.2)
    assert "…thinking" in html and "Mingling" in html and 'role="timer"' in html
    t.play({2: "F5", **{s: p for s, p in ROUND_1.items() if s > 2}})
    no_secrets(shown(room, t.code), dining=True)  # Cleo chooses her examiner
    t.phone(3).act(t.code, "choose_examiner", target="4")
    html = shown(room, t.code)
    no_secrets(html, dining=True)
    assert "Dining, round 1" in html and "★ Alpha" in html
    t.play(ROUND_2)
    html = shown(room, t.code)
    no_secrets(html, dining=True)
    assert "👻 Ghost" in html and "was Staked" in html
    t.phone(2).act(t.code, "intervention_vote", target="3")
    t.play(ROUND_3)
    html = board(shown(room, t.code))
    assert "The Hunters win!" in html
    assert 'role-chip vampire_lord">Vampire Lord' in html  # the roles are public at the end
    assert CONTROLS.search(html) is None


def test_a_players_browser_shows_the_same_display_as_a_strangers(table):
    t = table("LVHHHH")
    t.play({1: "S3 S4 F5", 2: "S3 F4"})
    strangers = _normalized(board(shown(Phone("R").client, t.code)), t.code)
    for seat in (1, 2, 3):
        mine = board(shown(t.phone(seat).client, t.code))
        assert _normalized(mine, t.code) == strangers
        no_secrets(mine)


def test_the_display_is_the_same_whatever_the_secrets(table):
    plans_a = {1: "S3 S4 F5", 2: "S4 F5", 4: "S5 F6", 5: "S4", 6: "F4"}
    plans_b = {1: "F3 S4 S5", 2: "F4 S5", 4: "F5 S6", 5: "F4", 6: "S4"}  # same owners, targets
    screens = []
    for deal, plans in (("LVHVHHHH", plans_a), ("HHHLVVHH", plans_b)):
        t = table(deal)
        t.play(plans)
        screens.append(_normalized(board(shown(t.phone(1).client, t.code)), t.code))
    assert screens[0] == screens[1]


def test_the_display_refreshes_itself_like_the_game_page(table):
    t = table("LVHHHH")
    room = Phone("Room").client
    version = t.game.version
    html = shown(room, t.code)
    assert f'hx-get="/t/{t.code}/changed?v={version}"' in html
    assert room.get(f"/t/{t.code}/changed?v={version}").status_code == 204
    t.phone(3).place(t.code, "S4")
    response = room.get(f"/t/{t.code}/changed?v={version}", headers={"HX-Request": "true"})
    part = response.content.decode()
    assert response.status_code == 200 and "<html" not in part
    assert 'class="placed-chip" title="Cleo">3<' in part and f"v={version + 1}" in part


def test_an_away_seat_shows_on_the_display(table):
    t = table("LVHHHH")
    Player.objects.filter(game__code=t.code, seat=4).update(missed_windows=2, afk=True)
    services.game_expire(game_id=t.game.id, now=t.game.state["deadline"] + 1)
    assert re.search(r'data-seat="4".*?💤 Away', shown(Phone("Room").client, t.code), re.S)


def test_the_game_page_links_to_the_display(table):
    t = table("LVHHHH")
    assert f'href="/t/{t.code}/"' in t.page(2)
    assert "Show on a shared screen" in Phone("Zed").client.get(f"/g/{t.code}/").content.decode()


def test_without_spectators_the_display_needs_the_hosts_key(table):
    t = table("LVHHHH", spectators=False)
    key = room_screen.display_key(t.game)
    assert Phone("Room").client.get(f"/t/{t.code}/").status_code == 404
    assert Phone("Room").client.get(f"/t/{t.code}/?key=wrong").status_code == 404
    assert Phone("Room").client.get(f"/t/{t.code}/changed?v=0").status_code == 404
    assert f'href="/t/{t.code}/?key={key}"' in t.page(1)  # the host's page carries the link
    assert key not in t.page(2) and "Show on a shared screen" not in t.page(2)
    html = shown(Phone("Room").client, t.code, f"?key={key}")
    assert f"changed?v={t.game.version}&amp;key={key}" in html
    no_secrets(html)
    assert Phone("Room").client.get(f"/t/{t.code}/changed?v=0&key={key}").status_code == 200


def test_an_unknown_table_is_not_found():
    assert Phone("Room").client.get("/t/ACDEFG/").status_code == 404


def test_r3_2_the_room_screen_hides_placements_while_a_ghost_is_away(table):
    """Ruling: the shared screen shows what an away Ghost would see (R3.2), or the
    Ghost could read the placements off it; so do a logged-out page and a spectator's."""
    t = table("LVHHHH")
    t.play(ROUND_1)
    t.phone(3).act(t.code, "choose_examiner", target="4")
    t.play(ROUND_2)  # seat 2 is Staked: a Ghost who must vote in round 3's intervention
    t.phone(1).place(t.code, "S4")
    assert "Tokens from:" in t.page(3)  # at the table, seat 3 sees who placed on whom
    logged_out = Phone("Private window").client
    for html in (shown(Phone("Room").client, t.code), logged_out.get(f"/g/{t.code}/").content):
        assert "Tokens from" not in str(html)
    t.phone(2).act(t.code, "intervention_vote", target="3")
    assert "Tokens from" in shown(Phone("Room").client, t.code)
    assert "Tokens from:" in logged_out.get(f"/g/{t.code}/").content.decode()


def test_the_host_replaces_the_room_screen_key_and_the_old_one_stops_at_once(table):
    t = table("LVHHHH", spectators=False)
    old = room_screen.display_key(t.game)
    screen = Phone("Room").client
    assert screen.get(f"/t/{t.code}/?key={old}").status_code == 200
    assert "New shared-screen link" not in t.page(2)  # the host's alone
    assert t.phone(2).post(f"/g/{t.code}/room-key", expect=403)
    assert room_screen.display_key(t.game) == old
    t.phone(1).post(f"/g/{t.code}/room-key")
    new = room_screen.display_key(t.game)
    assert new != old
    assert screen.get(f"/t/{t.code}/changed?v=0&key={old}").status_code == 404
    assert screen.get(f"/t/{t.code}/?key={old}").status_code == 404
    assert f'href="/t/{t.code}/?key={new}"' in t.page(1)
    assert screen.get(f"/t/{t.code}/?key={new}").status_code == 200


def test_the_room_screen_key_stops_working_a_day_after_the_game_ended(table):
    import time_machine

    t = table("LVHHHH", spectators=False)
    key = room_screen.display_key(t.game)
    Game.objects.filter(code=t.code).update(status=Game.Status.FINISHED)
    ended = Game.objects.get(code=t.code).updated_at
    screen = Phone("Room").client
    with time_machine.travel(ended + room_screen.KEY_AFTER_END - timedelta(minutes=1)):
        assert screen.get(f"/t/{t.code}/?key={key}").status_code == 200
    with time_machine.travel(ended + room_screen.KEY_AFTER_END + timedelta(minutes=1)):
        assert screen.get(f"/t/{t.code}/?key={key}").status_code == 404


def test_the_room_screen_writes_every_time_in_the_tables_zone(table):
    """The header's countdown and the log's clock lines read one clock: the table's zone (the
    host's), whatever zone the screen's browser is in or whether it told us one."""
    t = table("LVHHHH", preset="async", time_zone="Europe/Berlin")
    services.clock_extend(code=t.code, user=t.phone(1).user, minutes=90)
    room = Phone("Room")
    room.client.cookies["tz"] = "America/New_York"
    html = board(shown(room.client, t.code))
    game = Game.objects.get(code=t.code)
    berlin = game.deadline.astimezone(ZoneInfo("Europe/Berlin"))
    assert 'data-zone="Europe/Berlin"' in html  # the countdown's script writes Berlin's clock too
    assert f"closes {times.clock(game.deadline, ZoneInfo('Europe/Berlin'))}" in html
    assert f"the deadline is now {berlin:%a %H:%M} (Europe/Berlin)" in html


def test_a_room_screen_without_a_table_zone_says_utc(table):
    t = table("LVHHHH", preset="async")
    room = Phone("Room")
    room.client.cookies["tz"] = "Europe/Berlin"
    html = board(shown(room.client, t.code))
    game = Game.objects.get(code=t.code)
    assert f"closes {times.clock(game.deadline, None)}" in html and " UTC" in html
    assert 'data-zone="UTC"' in html
