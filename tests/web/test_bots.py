"""The lobby's "Add bots" button, the guide page "How the bots play", and a bot's move."""

import pytest

from games import services
from games.engine import state_from_json
from games.models import Game
from tests.web.conftest import Phone, alert_text, sit

pytestmark = pytest.mark.django_db


def _open(name="Ana") -> tuple[Phone, str]:
    host = Phone(name)
    code = host.client.post("/new", {"name": name, "preset": "live"})["Location"].split("/")[2]
    return host, code


def test_the_host_adds_bots_from_the_lobby_and_everyone_sees_them():
    ana, code = _open()
    ben = Phone("Ben")
    sit(ben, code)
    html = ana.page(code)
    assert f'action="/g/{code}/bots"' in html and "Add bots" in html
    counts = html.split('id="bot-count"', 1)[1].split("</select>", 1)[0]  # not the hour pickers
    assert '<option value="8"' in counts and '<option value="9"' not in counts  # 10 - 2 seated
    response = ana.post(f"/g/{code}/bots", {"count": "4"})
    page = response.content.decode()
    assert 'id="game"' in page and "Bot 4" in page
    game = Game.objects.get(code=code)
    assert list(game.players.filter(is_bot=True).values_list("seat", flat=True)) == [3, 4, 5, 6]
    assert "Bot 1" in ben.page(code) and "Add bots" not in ben.page(code)


def test_adding_bots_without_htmx_redirects_to_the_lobby():
    ana, code = _open()
    response = ana.post(f"/g/{code}/bots", {"count": "5"}, htmx=False, expect=302)
    assert response["Location"] == f"/g/{code}/"
    assert Game.objects.get(code=code).players.filter(is_bot=True).count() == 5


def test_only_the_host_adds_bots_and_never_past_the_table_size():
    ana, code = _open()
    ben = Phone("Ben")
    sit(ben, code)
    response = ben.post(f"/g/{code}/bots", {"count": "2"}, expect=403)
    assert "Only the host can add bots." in alert_text(response.content.decode())
    response = ana.post(f"/g/{code}/bots", {"count": "9"}, expect=409)
    assert "Only 8 seat(s) are free." in alert_text(response.content.decode())
    assert Game.objects.get(code=code).players.filter(is_bot=True).count() == 0


def test_a_full_table_offers_no_bots_and_a_started_game_takes_none():
    ana, code = _open()
    ana.post(f"/g/{code}/bots", {"count": "9"})
    assert "Add bots" not in ana.page(code)
    ana.post(f"/g/{code}/start")
    response = ana.post(f"/g/{code}/bots", {"count": "1"}, expect=409)
    assert "Bots join before the game starts." in alert_text(response.content.decode())


def test_a_bot_plays_its_move_through_the_services_with_the_sensible_strategy():
    ana, code = _open()
    ana.post(f"/g/{code}/bots", {"count": "5"})
    ana.post(f"/g/{code}/start")
    game = Game.objects.get(code=code)
    for seat in range(2, 7):  # the role reveal first: each bot taps Ready
        assert services.bot_act(game_id=game.id, seat=seat) is True
    ana.post(f"/g/{code}/act/ready")
    assert services.bot_act(game_id=game.id, seat=2) is True
    state = state_from_json(Game.objects.get(code=code).state)
    mine = [p for p in state.placements if p.owner == 2]
    assert len(mine) == 1 and mine[0].target != 2
    assert services.bot_act(game_id=game.id, seat=1) is False  # a person, not a bot


def test_the_guide_explains_how_the_bots_play_and_is_linked_from_the_rules():
    phone = Phone("Ana")
    index = phone.client.get("/rules/").content.decode()
    assert 'href="/rules/bots/"' in index and "How the bots play" in index
    response = phone.client.get("/rules/bots/?game=ACDEFG")
    assert response.status_code == 200
    html = response.content.decode()
    assert "sees only what a person in its seat would see" in html
    assert 'href="/g/ACDEFG/"' in html
