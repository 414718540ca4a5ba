"""AFK handling: a seat that misses its moves in two timed windows in a row, and
has been away the preset's minimum (5 minutes live), is flagged to the table; the host may give it
to a bot or hand it to a new friend with a one-time link.

Windows are closed as the timer would close them: `services.game_expire` at the deadline + 1 s,
or later where a test needs the seat to have been away long enough.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games import services
from games.domain.options import AWAY_AFTER
from games.models import Game, Player
from games.services import organiser as admin_services
from tests.web.conftest import Phone, alert_text

pytestmark = pytest.mark.django_db

# Seats 1-5 place every token and Stake seat 6, who places nothing: Mingling ends on its timer
# with seat 6 still owing three tokens (R3.4: Stakes against their owner), so seat 6 has the most
# Stakes and owes the round-1 examiner choice (R6.1) next: a second timed window.
ROUND_1_WITHOUT_6 = {1: "S6 S3 F4", 2: "S6 S3 F4", 3: "S6 S4 F5", 4: "S6 S3 F5", 5: "S6 S3 F4"}


def expire(t, *, at_least: float = 0) -> None:
    """Close the open window 1 s after its deadline (or at `at_least`, if later: a late sweeper)."""
    game = t.game
    now = max(game.state["deadline"] + 1, at_least)
    assert services.game_expire(game_id=game.id, now=now)


def started(t) -> float:
    return t.game.actions.get(name="setup").at


def long_away(t) -> float:
    """The first moment seat 6, which never moved, has been away long enough to be flagged."""
    return started(t) + AWAY_AFTER["live"]


def seat6(t) -> Player:
    return t.game.players.get(seat=6)


def user_of(phone: Phone):
    return get_user_model().objects.get(pk=phone.client.session["_auth_user_id"])


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def away(t):
    """A running game in round 2 where seat 6 (Fay) missed Mingling and the examiner choice."""
    t.play(ROUND_1_WITHOUT_6)
    expire(t)  # Mingling: seat 6 misses one window
    assert seat6(t).missed_windows == 1
    assert t.game.phase == "choose_examiner"
    expire(t, at_least=long_away(t))  # the examiner choice: a second one in a row, 5 min on
    assert t.game.round == 2
    return t


def test_two_missed_windows_in_a_row_flag_the_seat_to_everyone(table):
    t = table("LVHHHH")
    t.play(ROUND_1_WITHOUT_6)
    expire(t)
    assert not seat6(t).afk
    assert "seems to be away" not in t.page(1)
    expire(t, at_least=long_away(t))
    assert seat6(t).afk
    for seat in (1, 3, 6):
        html = t.page(seat)
        assert '<bdi class="name">Fay</bdi> seems to be away.' in html
        assert re.search(r'data-seat="6".*?💤 Away', html, re.S)
    view = api(user_of(t.phone(2))).get(f"/api/v1/games/{t.code}/").json()
    assert [s["afk"] for s in view["seats"]] == [False] * 5 + [True]
    events = api(user_of(t.phone(2))).get(f"/api/v1/games/{t.code}/events/").json()["events"]
    assert any(e["kind"] == "afk" and e["data"] == {"seat": 6, "name": "Fay"} for e in events)
    spectator = Phone("Zed").client.get(f"/g/{t.code}/").content.decode()
    assert '<bdi class="name">Fay</bdi> seems to be away.' in spectator


def away_lines(t) -> list[tuple[str, dict]]:
    return [(e.kind, e.data) for e in t.game.events.filter(kind__in=("afk", "afk_back"))]


def test_two_windows_an_organiser_expires_flag_the_absent_seat_exactly_as_the_timer_would(table):
    """The organiser's "expire now" (the admin's action) closes a window with the timer's own
    expiry: the same misses, the same flag, the same public line, early or late."""
    by_timer = away(table("LVHHHH"))
    by_organiser = table("LVHHHH")
    by_organiser.play(ROUND_1_WITHOUT_6)
    # Mingling, closed early (its deadline still ahead): seat 6 owed three tokens.
    early = started(by_organiser) + 1
    assert by_organiser.game.state["deadline"] > early
    admin_services.window_expire(code=by_organiser.code, by="olga", now=early)
    assert seat6(by_organiser).missed_windows == 1 and not seat6(by_organiser).afk
    assert by_organiser.game.phase == "choose_examiner"  # seat 6 owes the examiner choice
    admin_services.window_expire(code=by_organiser.code, by="olga", now=long_away(by_organiser))
    assert by_organiser.game.round == 2

    for t in (by_timer, by_organiser):
        fay = seat6(t)
        assert (fay.missed_windows, fay.afk) == (2, True)
        assert away_lines(t) == [("afk", {"seat": 6, "name": "Fay"})]
        assert '<bdi class="name">Fay</bdi> seems to be away.' in t.page(1)
        others = t.game.players.exclude(seat=6)
        assert {(p.missed_windows, p.afk) for p in others} == {(0, False)}
    closed = by_organiser.game.events.filter(kind="admin").order_by("id").first()
    assert "closed the Mingling window early" in closed.text


def test_an_organiser_expiring_two_windows_at_once_flags_nobody_who_was_here_just_before(table):
    """The away minimum holds whoever closes the windows: two closed within a minute of the
    start count as misses, and flag nobody yet (as two short timed windows would not)."""
    t = table("LVHHHH")
    t.play(ROUND_1_WITHOUT_6)
    admin_services.window_expire(code=t.code, by="olga", now=started(t) + 1)
    admin_services.window_expire(code=t.code, by="olga", now=started(t) + 2)
    assert (seat6(t).missed_windows, seat6(t).afk) == (2, False)
    assert away_lines(t) == []


def test_a_move_resets_the_streak_and_clears_the_flag(table):
    t = away(table("LVHHHH"))
    t.phone(6).place(t.code, "S1")
    assert seat6(t).missed_windows == 0 and not seat6(t).afk
    assert '<bdi class="name">Fay</bdi> is back.' in t.page(2)


def test_a_window_closing_counts_every_seat_still_owing_a_move(table):
    t = table("LVHHHH")
    t.play({**ROUND_1_WITHOUT_6, 5: "S6 S3"})  # seat 5 keeps its Feast
    t.phone(6).place(t.code, "S1")  # seat 6 moved, but still holds two tokens
    expire(t)
    assert seat6(t).missed_windows == 1
    assert t.game.players.get(seat=5).missed_windows == 1
    assert t.game.players.get(seat=1).missed_windows == 0  # placed everything in time


def test_a_move_between_two_missed_windows_starts_the_count_again(table):
    t = table("LVHHHH")
    t.play(ROUND_1_WITHOUT_6)
    expire(t)
    assert seat6(t).missed_windows == 1
    t.phone(6).act(t.code, "choose_examiner", target="1")
    assert seat6(t).missed_windows == 0
    assert t.game.round == 2
    expire(t)  # nobody places in round 2
    assert seat6(t).missed_windows == 1 and not seat6(t).afk
    assert "seems to be away" not in t.page(1)


def test_only_the_host_sees_the_remedies_and_others_are_refused_with_a_code(table):
    t = away(table("LVHHHH"))
    assert "Seats you can hand on" in t.page(1)  # seat 1 hosts (the staff member left)
    assert "Seats you can hand on" not in t.page(2)
    response = api(user_of(t.phone(2))).post(f"/api/v1/games/{t.code}/seats/6/bot/")
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    response = t.phone(2).post(f"/g/{t.code}/seats/6/invite", expect=403)
    assert "Only the host" in alert_text(response.content.decode())
    assert not seat6(t).is_bot and seat6(t).claim_token is None


@pytest.mark.parametrize(
    "seat, status, code",
    [(3, 409, "not_afk"), (1, 409, "host_seat"), (9, 404, "not_found")],
)
def test_the_host_may_hand_on_only_a_flagged_seat(table, seat, status, code):
    t = away(table("LVHHHH"))
    host = api(user_of(t.phone(1)))
    before = t.game.version
    for what in ("bot", "invite"):
        response = host.post(f"/api/v1/games/{t.code}/seats/{seat}/{what}/")
        assert (response.status_code, response.json()["code"]) == (status, code)
    assert t.game.version == before


def test_the_hosts_own_flagged_seat_stays_with_the_host(table):
    t = table("LVHHHH")
    Player.objects.filter(game__code=t.code, seat=1).update(missed_windows=2, afk=True)
    response = api(user_of(t.phone(1))).post(f"/api/v1/games/{t.code}/seats/1/bot/")
    assert (response.status_code, response.json()["code"]) == (409, "host_seat")
    # ... and the host's page never offers it: no remedy for seat 1.
    assert 'data-remedy-seat="1"' not in t.page(1)


def test_the_host_replaces_an_away_seat_with_a_bot_that_then_moves_for_it(table):
    t = away(table("LVHHHH"))
    role_before = t.game.state["players"][5]["role"]
    t.phone(1).post(f"/g/{t.code}/seats/6/bot")
    player = seat6(t)
    assert player.is_bot and player.user is None and not player.afk
    assert t.game.state["players"][5]["role"] == role_before  # the seat keeps its role
    # The line keeps the name of who was away, not the bot's.
    assert '<bdi class="name">Fay</bdi> was away: a bot plays it now.' in t.page(3)
    assert "data-secret-role" not in t.phone(6).client.get(f"/g/{t.code}/").content.decode()
    version = t.game.version
    assert services.bot_act(game_id=t.game.id, seat=6)
    game = t.game
    assert game.version == version + 1
    assert game.actions.filter(seat=6).exists()  # the bot placed a token for seat 6


def test_a_new_friend_takes_the_seat_over_by_the_link_and_the_old_player_loses_it(
    table, django_capture_on_commit_callbacks
):
    t = away(table("LVHHHH"))
    fay = t.phone(6)
    role = t.game.state["players"][5]["role"]
    assert f'data-secret-role="6:{role}"' in fay.page(t.code)
    before = t.game.version
    t.phone(1).post(f"/g/{t.code}/seats/6/invite")
    token = seat6(t).claim_token
    link = f"/g/{t.code}/claim/{token}"
    assert link in t.page(1)
    for seat in range(2, 7):  # the link is the host's secret
        assert token not in t.page(seat)

    gus = Phone("Gus")
    page = gus.client.get(link)
    assert page.status_code == 200
    assert "Take seat 6" in page.content.decode()
    assert "data-secret-role" not in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the poll key moves on, as live
        response = gus.client.post(link, {"name": "Gus"})
    assert response.status_code == 302 and response["Location"] == f"/g/{t.code}/"

    assert f'data-secret-role="6:{role}"' in gus.page(t.code)
    player = seat6(t)
    assert player.name == "Gus" and player.claim_token is None and not player.afk
    # Fay's phone: the next poll shows the game as a spectator's, with no secret of seat 6.
    polled = fay.client.get(f"/g/{t.code}/changed?v={before}", headers={"HX-Request": "true"})
    assert polled.status_code == 200
    assert "data-secret-role" not in polled.content.decode()
    assert "You are watching this game" in polled.content.decode()
    fay_api = api(user_of(fay)).get(f"/api/v1/games/{t.code}/").json()
    assert "me" not in fay_api
    assert 'Seat 6 is now played by <bdi class="name">Gus</bdi>.' in t.page(2)

    # The link worked once.
    assert Phone("Hana").client.get(link).status_code == 404


def test_a_claim_is_refused_with_a_code_for_a_seated_player_or_a_bad_token(table):
    t = away(table("LVHHHH"))
    host = api(user_of(t.phone(1)))
    response = host.post(f"/api/v1/games/{t.code}/seats/6/invite/")
    assert response.status_code == 201
    token = response.json()["token"]
    assert response.json()["url"].endswith(f"/g/{t.code}/claim/{token}")

    seated = api(user_of(t.phone(2)))
    response = seated.post(f"/api/v1/games/{t.code}/claim/", {"token": token}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "already_seated")
    page = t.phone(2).post(f"/g/{t.code}/claim/{token}", {"name": "Ben"}, htmx=False, expect=409)
    assert "already have a seat" in page.content.decode()
    response = seated.post(f"/api/v1/games/{t.code}/claim/", {"token": "nope"}, format="json")
    assert (response.status_code, response.json()["code"]) == (404, "invite_invalid")
    assert seat6(t).user == user_of(t.phone(6))

    guest = APIClient()  # a newcomer with a guest identity from the API
    made = guest.post("/api/v1/auth/guest/", {"name": "Ivo"}, format="json").json()
    guest.credentials(HTTP_AUTHORIZATION=f"Token {made['token']}")
    response = guest.post(f"/api/v1/games/{t.code}/claim/", {"token": token}, format="json")
    assert response.status_code == 200
    assert response.json()["me"]["seat"] == 6 and "role" in response.json()["me"]
    again = guest.post(f"/api/v1/games/{t.code}/claim/", {"token": token}, format="json")
    assert (again.status_code, again.json()["code"]) == (404, "invite_invalid")


def test_a_new_link_replaces_the_old_one_and_a_returning_player_voids_it(table):
    t = away(table("LVHHHH"))
    host = api(user_of(t.phone(1)))
    first = host.post(f"/api/v1/games/{t.code}/seats/6/invite/").json()["token"]
    second = host.post(f"/api/v1/games/{t.code}/seats/6/invite/").json()["token"]
    assert first != second
    assert Phone("Hana").client.get(f"/g/{t.code}/claim/{first}").status_code == 404
    t.phone(6).place(t.code, "S1")  # Fay is back: the seat stays hers
    assert Phone("Hana").client.get(f"/g/{t.code}/claim/{second}").status_code == 404
    assert t.game.status == Game.Status.RUNNING
