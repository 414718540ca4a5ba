"""Fair away flags, and a log that keeps who sat where.

A seat is flagged as away only for missed windows in which *it* had to act, two in a row, and only
once its player has been away the preset's minimum since their last sign of presence (5 minutes
live, 12 hours asynchronous): never right after they moved. The player's page then says so, with
one tap to stay; until the flag, the host may not hand the seat on (409 not_afk).

No Celery worker runs here: windows are closed as a timer would close them
(`services.game_expire` at a chosen moment after the deadline).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from rest_framework.test import APIClient

from games import services
from games.domain.options import AWAY_AFTER, away_after
from games.models import Game, Player
from games.notify.models import NotificationLog, Preferences
from games.services import organiser as admin_services
from staked.celery import app
from tests.web.conftest import Phone, alert_text

pytestmark = pytest.mark.django_db

# Everyone places every token (Mingling ends at once, on the last one): seats 3 and 4 tie on the
# most Stakes (4 each) and seats 5 and 6 on the most Feasts (2 each): two tie votes follow.
TWO_TIES = {
    1: "S3 S4 F5",
    2: "S3 S4 F6",
    3: "S4 S5 F6",
    4: "S3 S6 F5",
    5: "S3 S4 F1",
    6: "S1 S2 F3",
}
BANNER = "You seem to be away — tap to stay in your seat"


def user_of(phone: Phone):
    return get_user_model().objects.get(pk=phone.client.session["_auth_user_id"])


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def expire(t, *, at: float | None = None) -> None:
    game = t.game
    now = game.state["deadline"] + 1 if at is None else max(at, game.state["deadline"] + 1)
    assert services.game_expire(game_id=game.id, now=now)


def seats(t) -> dict[int, Player]:
    return {p.seat: p for p in Player.objects.filter(game__code=t.code)}


def night_at_the_table(t) -> list[set[int]]:
    """Everyone moves, then the two tie votes run out with nobody voting. Returns the seats each
    tie vote waited on."""
    t.play(TWO_TIES)
    waited = []
    while t.game.phase == "tiebreak":
        waited.append(set(t.game.state["tie"]["voters"]))
        expire(t)
    assert len(waited) == 2, waited
    return waited


def test_two_tie_votes_missed_right_after_moving_flag_nobody(table):
    t = table("LVHHHH", timers={"tiebreak": 30})
    waited = night_at_the_table(t)
    both = waited[0] & waited[1]
    assert 1 in both  # the host's seat had both votes to cast
    for seat, player in seats(t).items():
        assert player.missed_windows == (2 if seat in both else int(seat in waited[0] | waited[1]))
        assert not player.afk
    page = t.page(1)
    assert "seems to be away" not in page and "💤 Away" not in page
    view = api(user_of(t.phone(2))).get(f"/api/v1/games/{t.code}/").json()
    assert not any(s["afk"] for s in view["seats"])


def test_the_host_may_not_hand_on_a_seat_that_moved_a_minute_ago(table):
    t = table("LVHHHH", timers={"tiebreak": 30})
    waited = night_at_the_table(t)
    seat = min((waited[0] & waited[1]) - {1})
    version = t.game.version
    host = api(user_of(t.phone(1)))
    for what in ("bot", "invite"):
        response = host.post(f"/api/v1/games/{t.code}/seats/{seat}/{what}/")
        assert (response.status_code, response.json()["code"]) == (409, "not_afk")
    page = t.phone(1).post(f"/g/{t.code}/seats/{seat}/bot", expect=409)
    assert "not flagged as away" in alert_text(page.content.decode())
    assert t.game.version == version
    player = seats(t)[seat]
    assert not player.is_bot and player.user == user_of(t.phone(seat))


def test_missed_windows_flag_a_seat_once_it_has_been_away_long_enough(table):
    """The same night, then round 2's Mingling runs out more than 5 minutes after everyone's
    last move: now the seats that owed moves in all three windows are flagged, and the host may
    hand one on."""
    t = table("LVHHHH", timers={"tiebreak": 30})
    waited = night_at_the_table(t)
    last_move = t.game.actions.filter(name="place_token").order_by("-seq").first().at
    assert t.game.phase == "mingling" and t.game.round == 2
    expire(t, at=last_move + AWAY_AFTER["live"] + 1)
    flagged = {seat for seat, p in seats(t).items() if p.afk}
    assert flagged and flagged <= waited[0] | waited[1]
    seat = min(flagged - {1})
    response = api(user_of(t.phone(1))).post(f"/api/v1/games/{t.code}/seats/{seat}/bot/")
    assert response.status_code == 200
    assert seats(t)[seat].is_bot


def test_a_seat_with_nothing_to_do_in_a_window_misses_nothing(table):
    """Round 1's examiner choice waits on one seat: the others had nothing to do."""
    t = table("LVHHHH")
    t.play({1: "S6 S3 F4", 2: "S6 S3 F4", 3: "S6 S4 F5", 4: "S6 S3 F5", 5: "S6 S3 F4"})
    expire(t)  # Mingling: seat 6 placed nothing
    assert t.game.phase == "choose_examiner"
    assert t.game.state["players"][5]["seat"] == 6
    before = {seat: p.missed_windows for seat, p in seats(t).items()}
    expire(t)
    after = {seat: p.missed_windows for seat, p in seats(t).items()}
    assert after == {**before, 6: before[6] + 1}


def test_the_minimum_time_away_depends_on_the_preset():
    assert away_after({}) == away_after({"preset": "live"}) == 5 * 60
    assert away_after({"preset": "async"}) == 12 * 3600


def flag(t, seat: int) -> None:
    Player.objects.filter(game__code=t.code, seat=seat).update(missed_windows=2, afk=True)


def test_an_away_player_sees_the_banner_and_one_tap_on_the_page_keeps_the_seat(table):
    t = table("LVHHHH")
    flag(t, 6)
    assert BANNER in t.page(6)
    for seat in (1, 2):
        assert BANNER not in t.page(seat)  # only the away player's own page
    assert BANNER not in Phone("Zed").client.get(f"/g/{t.code}/").content.decode()
    version = t.game.version
    page = t.phone(6).post(f"/g/{t.code}/here").content.decode()
    assert BANNER not in page
    fay = seats(t)[6]
    assert (fay.afk, fay.missed_windows) == (False, 0) and fay.present_at is not None
    assert t.game.version == version + 1  # everyone's poll sees the flag go
    assert '<bdi class="name">Fay</bdi> is back.' in t.page(2)
    response = api(user_of(t.phone(1))).post(f"/api/v1/games/{t.code}/seats/6/bot/")
    assert (response.status_code, response.json()["code"]) == (409, "not_afk")


def test_one_call_to_the_api_keeps_the_seat_and_voids_the_handover_link(table):
    t = table("LVHHHH")
    flag(t, 6)
    host = api(user_of(t.phone(1)))
    token = host.post(f"/api/v1/games/{t.code}/seats/6/invite/").json()["token"]
    response = api(user_of(t.phone(6))).post(f"/api/v1/games/{t.code}/here/")
    assert response.status_code == 200
    assert not response.json()["seats"][5]["afk"]
    assert Phone("Hana").client.get(f"/g/{t.code}/claim/{token}").status_code == 404
    again = api(user_of(t.phone(6))).post(f"/api/v1/games/{t.code}/here/")
    assert again.status_code == 200  # a second tap changes nothing anyone sees
    assert t.game.events.filter(kind="afk_back").count() == 1


def test_only_a_seated_player_can_say_they_are_here(table):
    t = table("LVHHHH")
    stranger = APIClient()
    made = stranger.post("/api/v1/auth/guest/", {"name": "Zed"}, format="json").json()
    stranger.credentials(HTTP_AUTHORIZATION=f"Token {made['token']}")
    response = stranger.post(f"/api/v1/games/{t.code}/here/")
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")


def test_a_seen_move_records_that_the_player_is_here(table):
    t = table("LVHHHH")
    assert seats(t)[2].present_at is None
    t.phone(2).place(t.code, "S3")
    assert seats(t)[2].present_at is not None


# --- the log keeps the name of who sat there then ----------------------------------------------


def test_the_log_keeps_the_away_players_name_after_a_new_friend_takes_the_seat(table):
    t = table("LVHHHH")
    t.play({1: "S6 S3 F4", 2: "S6 S3 F4", 3: "S6 S4 F5", 4: "S6 S3 F5", 5: "S6 S3 F4"})
    expire(t)
    started = t.game.actions.get(name="setup").at
    expire(t, at=started + AWAY_AFTER["live"])  # Fay missed both windows, 5 minutes away
    assert seats(t)[6].afk
    host = api(user_of(t.phone(1)))
    token = host.post(f"/api/v1/games/{t.code}/seats/6/invite/").json()["token"]
    gus = Phone("Newcomer")
    assert gus.client.post(f"/g/{t.code}/claim/{token}", {"name": "Newcomer"}).status_code == 302
    for page in (t.page(2), gus.page(t.code), t.phone(1).client.get(f"/t/{t.code}/").content):
        page = page if isinstance(page, str) else page.decode()
        assert '<bdi class="name">Fay</bdi> seems to be away.' in page
        assert '<bdi class="name">Newcomer</bdi> seems to be away.' not in page
    away = t.game.events.get(kind="afk")
    assert away.data == {"seat": 6, "name": "Fay"}


def test_a_seat_given_to_a_bot_is_logged_under_the_away_players_name(table):
    t = table("LVHHHH")
    flag(t, 6)
    api(user_of(t.phone(1))).post(f"/api/v1/games/{t.code}/seats/6/bot/")
    assert '<bdi class="name">Fay</bdi> was away: a bot plays it now.' in t.page(2)


def test_an_extension_of_one_minute_reads_1_minute(table):
    t = table("LVHHHH")
    admin_services.deadline_extend(code=t.code, minutes=1, by="test")
    admin_services.deadline_extend(code=t.code, minutes=5, by="test")
    texts = list(t.game.events.filter(kind="admin").values_list("text", flat=True))
    assert texts[0].startswith("An organiser extended the Mingling deadline by 1 minute; ")
    assert texts[1].startswith("An organiser extended the Mingling deadline by 5 minutes; ")
    assert not any("1 minutes" in text for text in texts)
    assert Game.objects.get(code=t.code).status == Game.Status.RUNNING


def test_a_flagged_player_is_told_by_their_reminders_once(
    table, django_capture_on_commit_callbacks
):
    """Before the host can hand the seat on, its player hears of it: the page's banner, and by
    e-mail where they turned reminders on (the task runs at once here, as a worker would)."""
    t = table("LVHHHH")
    Preferences.objects.update_or_create(
        user=user_of(t.phone(6)),
        defaults={
            "email": "fay@example.com",
            "email_enabled": True,
            "email_confirmed_at": datetime.now(UTC),
        },
    )
    t.play({1: "S6 S3 F4", 2: "S6 S3 F4", 3: "S6 S4 F5", 4: "S6 S3 F5", 5: "S6 S3 F4"})
    expire(t)
    started = t.game.actions.get(name="setup").at
    app.conf.task_always_eager = True
    try:
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            expire(t, at=started + AWAY_AFTER["live"])
    finally:
        app.conf.task_always_eager = False
    assert seats(t)[6].afk
    away = [m for m in mail.outbox if "away" in m.subject]
    assert [m.to for m in away] == [["fay@example.com"]]
    assert "tap to keep your seat" in away[0].subject
    assert f"/g/{t.code}/" in away[0].body
    assert NotificationLog.objects.filter(kind="away").count() == 1
