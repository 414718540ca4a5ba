"""The lobby: seats, the invite link and its QR code, the role deck, starting and leaving."""

import pytest

from games.models import Game
from tests.web.conftest import Phone, alert_text, sit

pytestmark = pytest.mark.django_db


def _open(name="Ana") -> tuple[Phone, str]:
    host = Phone(name)
    code = host.client.post("/new", {"name": name, "preset": "live"})["Location"].split("/")[2]
    return host, code


def test_the_lobby_shows_the_seats_the_invite_link_and_its_qr_code():
    ana, code = _open()
    ben = Phone("Ben")
    sit(ben, code)
    html = ana.page(code)
    assert f"http://testserver/g/{code}/" in html
    assert "<svg" in html and 'aria-label="QR code of the invite link"' in html
    assert "Ana" in html and "Ben" in html
    assert "needs 6 to 10 players" in html


def test_the_lobby_shows_the_role_deck_for_this_player_count(lobby):
    t = lobby("LVVHHHHH")
    html = t.page(3)
    assert "5 Hunters" in html and "2 Vampires" in html and "1 Vampire Lord" in html
    assert "does not know the Vampires" in html


def test_an_invite_link_offers_a_seat_to_a_stranger():
    _, code = _open()
    stranger = Phone("Cleo")
    html = stranger.page(code)
    assert f'action="/g/{code}/join"' in html and "Take a seat" in html
    assert "Start the game" not in html


def test_only_the_host_may_start_and_the_rule_is_shown(lobby):
    t = lobby("LVHHHH")
    response = t.phone(2).post(f"/g/{t.code}/start", expect=403)
    assert "Only the host can start the game." in alert_text(response.content.decode())
    assert t.game.status == Game.Status.LOBBY


def test_starting_with_too_few_players_shows_the_rule():
    ana, code = _open()
    response = ana.post(f"/g/{code}/start", expect=409)
    assert "Staked! is for 6–10 players" in alert_text(response.content.decode())
    assert Game.objects.get(code=code).status == Game.Status.LOBBY


def test_the_host_starts_with_six_and_everyone_sees_mingling(lobby):
    t = lobby("LVHHHH")
    response = t.phone(1).post(f"/g/{t.code}/start")
    html = response.content.decode()
    assert "<html" not in html and 'id="game"' in html  # htmx gets the partial
    assert 'data-phase="mingling"' in html
    for seat in range(1, 7):
        assert "Place your tokens" in t.page(seat)


def test_start_without_htmx_redirects_to_the_game(lobby):
    t = lobby("LVHHHH")
    response = t.phone(1).post(f"/g/{t.code}/start", htmx=False, expect=302)
    assert response["Location"] == f"/g/{t.code}/"


def test_leaving_the_lobby_frees_the_seat(lobby):
    t = lobby("LVHHHH")
    response = t.phone(3).post(f"/g/{t.code}/leave")
    assert response["HX-Redirect"] == "/"
    assert t.game.players.count() == 5
    assert "Take a seat" in t.page(3)


def test_the_host_changes_the_options_in_the_lobby_and_everyone_sees_them():
    ana, code = _open()
    ben = Phone("Ben")
    sit(ben, code)
    assert "Change the options" in ana.page(code)
    assert "Change the options" not in ben.page(code)
    ana.post(
        f"/g/{code}/options",
        {"preset": "async", "relics": "on", "expansion": "on", "mingling": "600"},
    )
    options = Game.objects.get(code=code).options
    assert options["relics"] and options["expansion"] and not options["last_wills"]
    assert options["timers"]["mingling"] == 600 and options["timers"]["tiebreak"] == 2 * 3600
    html = ben.page(code)
    assert (
        "Sacred Relics" in html and "expansion" in html and "Mingling 10 min" in html
    )  # human units


def test_only_the_host_changes_the_options_and_the_rule_is_shown():
    ana, code = _open()
    ben = Phone("Ben")
    sit(ben, code)
    response = ben.post(f"/g/{code}/options", {"preset": "async"}, expect=403)
    assert "Only the host can change the options." in alert_text(response.content.decode())
    assert Game.objects.get(code=code).options["preset"] == "live"


def test_options_are_fixed_once_the_game_has_started(lobby):
    t = lobby("LVHHHH")
    t.phone(1).post(f"/g/{t.code}/start")
    response = t.phone(1).post(f"/g/{t.code}/options", {"preset": "async"}, expect=409)
    assert "fixed once the game has started" in alert_text(response.content.decode())
    assert t.game.options["preset"] == "live"
