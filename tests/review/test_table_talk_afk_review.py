"""A review of table talk, reminders, AFK, rematch and the table display: one test per problem
found, each failing before its fix."""

from __future__ import annotations

import dataclasses
import time

import pytest

from games import services
from games.chat.models import Message
from games.engine import to_json
from games.models import Game, Player
from games.selectors import game as selectors
from tests.chat.conftest import _fresh_cache, phones_at, staff, staff_user  # noqa: F401 - fixtures
from tests.factories import running_game
from tests.relics.conftest import data, relic_table

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


# --- AFK and relic windows: public since relic holdings are (R10.2a) -----------------------------


def _game_in_a_relic_window() -> tuple[Game, int]:
    """A running game in round 2 with a pre-Mingling relic window open: its holder is public,
    and the public view waits on them. Returns the game and the holder's seat."""
    t = relic_table("LVHHHH", windows=True)
    holder = data(t)["window"]["seat"]
    game = running_game(6)
    # The engine's clock starts at 0: the window closes 10 minutes from now instead (a
    # move after its window's deadline is refused).
    state = dataclasses.replace(t.state, deadline=time.time() + 600)
    game.state, game.phase, game.round = to_json(state), state.phase, state.round
    game.save(update_fields=["state", "phase", "round"])
    assert selectors.game_view(game, None)["waiting_for"] == [holder]
    return game, holder


def test_a_flagged_relic_holder_passing_their_window_is_back_since_holdings_are_public():
    game, holder = _game_in_a_relic_window()
    flagged = {"missed_windows": 2, "afk": True}  # flagged as away
    Player.objects.filter(game=game, seat=holder).update(**flagged)
    services.action_apply(code=game.code, user=game.users[holder - 1], name="pass", args={})
    game.refresh_from_db()
    public = selectors.events_for(game, None)[0]
    assert [e["data"]["seat"] for e in public if e["kind"] == "afk_back"] == [holder]
    assert not selectors.game_view(game, None)["seats"][holder - 1]["afk"]


def test_a_relic_window_that_runs_out_is_a_window_its_holder_missed():
    game, holder = _game_in_a_relic_window()
    assert services.game_expire(game_id=game.id, now=game.state["deadline"] + 1)
    assert Player.objects.get(game=game, seat=holder).missed_windows == 1


# --- table talk: the list's poll ----------------------------------------------------------------


def _poll_url(page: str) -> str:
    start = page.index('id="chat-list"')
    poll = page[start:].split('hx-get="', 1)[1]
    return poll.split('"', 1)[0].replace("&amp;", "&")


def test_a_player_who_lost_the_den_cannot_learn_from_204s_when_it_talks(
    phones_at,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    t = phones_at("LVHHHH", den_chat=True)  # seat 2, the Vampire, reads the den
    vampire = t.phone(2).client
    page = vampire.get(f"/g/{t.code}/chat/den/").content.decode()
    url = _poll_url(page)
    assert vampire.get(url, headers=HTMX).status_code == 204
    Player.objects.filter(game__code=t.code, seat=2).update(missed_windows=2, afk=True)
    with django_capture_on_commit_callbacks(execute=True):
        t.phone(1).post(f"/g/{t.code}/seats/2/bot")  # the host gives the seat to a bot
    version = Game.objects.get(code=t.code).version  # public: every page and ETag shows it
    base, query = url.split("?", 1)
    params = dict(p.split("=", 1) for p in query.split("&"))
    params["v"] = str(version)
    forged = base + "?" + "&".join(f"{k}={v}" for k, v in params.items())
    assert vampire.get(forged, headers=HTMX).status_code == 403


# --- table talk: bad input ------------------------------------------------------------------


def test_a_message_with_a_nul_byte_is_refused_on_the_page_with_400(phones_at):  # noqa: F811
    t = phones_at("LVHHHH")
    response = t.phone(3).post(f"/g/{t.code}/chat/table/", {"text": "nul \x00 byte"}, expect=None)
    assert response.status_code == 400
    assert not Message.objects.exists()


@pytest.mark.parametrize("raw", [r"nul \u0000 byte", r"lone \ud800 surrogate"])
def test_a_message_no_database_can_keep_is_refused_by_the_api_with_bad_request(raw):
    from tests.api.conftest import guest

    host = guest("Ann")
    code = host.post("/api/v1/games/", {}, format="json").json()["code"]
    body = '{"text": "' + raw + '"}'
    response = host.post(f"/api/v1/games/{code}/chat/table/", body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "bad_request"  # chat's "invalid" is gone
    assert not Message.objects.exists()


# --- AFK: the admin's seat replacement ----------------------------------------------------------


def test_an_admin_seat_replacement_ends_the_away_flag_and_voids_the_handover_link():
    from django.contrib.auth import get_user_model

    from games.services import organiser as admin_services
    from games.services import seats

    game = running_game(6)
    Player.objects.filter(game=game, seat=4).update(missed_windows=2, afk=True)
    _, token = seats.seat_invite(code=game.code, user=game.users[0], seat=4)
    newcomer = get_user_model().objects.create_user("newcomer")
    admin_services.seat_replace(
        code=game.code, seat=4, user=newcomer, by="root", name="Nia", to_a_person=True
    )
    player = Player.objects.get(game=game, seat=4)
    assert (player.user, player.missed_windows, player.claim_token) == (newcomer, 0, None)
    assert not selectors.game_view(game, None)["seats"][3]["afk"]
    with pytest.raises(services.GameError) as refused:
        seats.seat_claim(
            code=game.code, user=get_user_model().objects.create_user("late"), token=token, name="L"
        )
    assert refused.value.code == "invite_invalid"
